"""What one hand says about its players: who did what on which street, who took chips from a
pot, and what each won or lost. Read from a PHH document (fast, for millions of hands) or from a
replayed `Hand` (the engine's own log); the two agree on every hand the engine accepts, which
tests/test_stats.py checks on real and random hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from holdem.errors import InvalidHistoryError
from holdem.formats import phh
from holdem.hand.betting import BettingRound
from holdem.hand.events import Phase
from holdem.hand.positions import position_names
from holdem.hand.stakes import Rules
from holdem.hand.state import Hand

__all__ = [
    "CALL",
    "CHECK",
    "FOLD",
    "NO_RAISE",
    "RAISE",
    "HandFacts",
    "facts_from_document",
    "facts_from_hand",
]

FOLD, CHECK, CALL, RAISE = 0, 1, 2, 3
"""What an action was, as the statistics see it: a raise is any bet or raise (also an all-in short
of a full raise), a call any call (also all-in for less than the bet)."""
NO_RAISE = 4
"""Added to a fold or call whose player could not have raised instead (rules 8, 9, 11, 13: the
betting was not reopened to them, nobody could call a raise, the raises were capped, or they
had no chips beyond the call): such an action is no chance to re-raise."""


@attrs.frozen
class HandFacts:
    """One hand as the statistics count it; players in dealing order (heads-up: BB, BTN)."""

    names: tuple[str, ...]
    positions: tuple[str, ...]
    big_blind: int
    actions: tuple[tuple[int, int, int], ...]
    """(street, player, kind) in order; street 0 is before the flop, 3 the river."""
    streets: int
    """Boards dealt: 0 none, 1 the flop, 2 the turn, 3 the river."""
    won: tuple[bool, ...]
    """Whether each player took chips from a pot (an uncalled bet given back does not count)."""
    net: tuple[int, ...]
    """Chips won or lost (after the rake)."""
    adjusted: tuple[float, ...] | None = None
    """All-in adjusted chips won or lost (`holdem.bots.luck`), when counted and it applies."""


def names_of(doc: Mapping[str, Any], n: int) -> tuple[str, ...]:
    """The players' names as the history writes them (p1, p2, … when it names none)."""
    names = doc.get("players")
    if isinstance(names, list) and len(names) == n and all(isinstance(x, str) for x in names):
        return tuple(names)
    return tuple(f"p{k + 1}" for k in range(n))


_Setup = tuple[int, list[int], list[int], BettingRound, Rules]
_SETUPS: dict[tuple[Any, ...], _Setup] = {}
"""Set-ups already read (a match's hands share a handful), keyed by the fields they come from."""
_PLAYERS = {f"p{k + 1}": k for k in range(10)}
_STREETS = (Phase.PREFLOP, Phase.FLOP, Phase.TURN, Phase.RIVER)


def _listed(value: Any) -> Any:
    return tuple(value) if type(value) is list else value


def _setup(doc: Mapping[str, Any]) -> _Setup:
    """The big blind, each player's live blind, what each put in before the first action (antes,
    dead money, blinds; at most the stack), the betting rules (one round object, opened afresh
    each street, which says whether that street is pot-limit), and the hand's rules."""
    get = doc.get
    key: tuple[Any, ...] = (
        get("variant"), _listed(get("antes")), _listed(get("blinds_or_straddles")), get("min_bet"),
        get("small_bet"), get("big_bet"), get("_pot_limit"), _listed(get("starting_stacks")),
        _listed(get("_dead")), get("_rules"), get("_run_twice"),
    )  # fmt: skip
    try:
        found = _SETUPS.get(key)
    except TypeError:  # a value that cannot be a key is wrong anyway: the full reader says how
        key, found = (), None
    if found is not None:
        return found
    stakes, blinds, stacks, big = phh._setup(doc)
    rules = phh._rules(doc)
    n = len(stacks)
    dead, _ = phh._table_posts(doc, n)
    antes = [stakes.ante + (stakes.big_blind_ante if k == big else 0) for k in range(n)]
    before = [
        min(s, a + (dead[k] if dead else 0)) for k, (s, a) in enumerate(zip(stacks, antes, strict=True))
    ]
    live = [min(b, s - p) for b, s, p in zip(blinds, stacks, before, strict=True)]
    paid = [p + b for p, b in zip(before, live, strict=True)]
    found = (max(stakes.big_blind, 1), live, paid, BettingRound(stakes, rules, blinds), rules)
    if key and len(_SETUPS) < 10_000:
        _SETUPS[key] = found
    return found


def facts_from_document(doc: Mapping[str, Any]) -> HandFacts | None:
    """The facts of a PHH hand, read from its actions and finishing stacks without replaying it;
    None when it records no finishing stacks (replay it for them). Raises `InvalidHistoryError`
    for a document whose set-up or actions cannot be read; that the actions follow the rules is
    `phh.replay`'s to check.

    The hot path of `holdem stats` on a large history (scripts/bench_stats.py): the loop is
    written out. Whether a player could have raised is asked of the engine's own betting rules
    (`BettingRound.bounds`), only for the folds and calls that face a bet."""
    big_blind, live, before, betting, rules = _setup(doc)
    n, paid = len(live), before[:]  # the set-up is shared: copied before it changes
    start, finish = doc["starting_stacks"], doc.get("finishing_stacks")
    if type(finish) is not list or len(finish) != n or not all(type(x) is int for x in finish):
        return None
    acted: list[int | None] = [None] * n  # the level each player last acted at, this street
    street, acts, put, returned, folded = 0, [], live[:], [0] * n, [False] * n
    betting.open(Phase.PREFLOP, n)
    try:
        for line in doc["actions"]:
            if line[0] == "d":
                if line[2:4] == "db" and street < 3:
                    _give_back(put, returned)
                    street, put, acted = street + 1, [0] * n, [None] * n
                    betting.open(_STREETS[street], folded.count(False))
                continue
            words = line.split()
            player = _PLAYERS.get(words[0], n)
            if player >= n or len(words) < 2:
                raise InvalidHistoryError(f"action {line!r}: not a player p1..p{n} and an action")
            verb, level = words[1], betting.level
            if verb == "cbr":
                to = _amount(words, line)
                paid[player] += to - put[player]
                put[player] = to
                betting.record_raise(to)
                acts.append((street, player, RAISE))
            elif verb == "cc" or verb == "f":
                kind = FOLD if verb == "f" else CALL if put[player] < level else CHECK
                pot = betting.pot_limited and sum(paid) - sum(returned)
                if kind != CHECK and not _could_raise(
                    player, put, paid, start, folded, acted, betting, rules, pot
                ):
                    kind += NO_RAISE
                if kind & 3 == CALL:
                    owed = min(level - put[player], start[player] - paid[player])
                    put[player] += owed
                    paid[player] += owed
                folded[player] = kind & 3 == FOLD
                acts.append((street, player, kind))
            elif verb != "sm":
                raise InvalidHistoryError(f"action {line!r}: not a hold'em action")
            else:
                continue
            acted[player] = betting.level
    except (TypeError, AttributeError, IndexError, KeyError):
        raise InvalidHistoryError("field 'actions' must be a list of non-empty strings") from None
    _give_back(put, returned)
    net = tuple([f - s for f, s in zip(finish, start, strict=True)])
    won = tuple([net[k] + paid[k] - returned[k] > 0 for k in range(n)])
    return HandFacts(names_of(doc, n), position_names(n), big_blind, tuple(acts), street, won, net)


def _could_raise(
    p: int,
    put: list[int],
    paid: list[int],
    start: list[int],
    folded: list[bool],
    acted: list[int | None],
    betting: BettingRound,
    rules: Rules,
    pot: int,
) -> bool:
    """Whether player `p`, to act, could raise: the engine's bounds (rules 8, 9, 12, 13), with rule
    11's condition (another player in the hand could put in more) worked out as `Hand` does."""
    level = betting.level
    others = [k for k in range(len(put)) if k != p and not folded[k]]
    with_chips = any(start[k] > paid[k] for k in others)
    if not level:
        callers = with_chips
    elif rules.raise_uncallable:
        callers = True
    else:
        callers = with_chips and (rules.raise_against_covered
                                  or any(put[k] + start[k] - paid[k] > level for k in others))  # fmt: skip
    return betting.bounds(put[p], start[p] - paid[p], acted[p], callers, pot)[0] is not None


def _amount(words: list[str], line: str) -> int:
    """The raise-to total of a ``cbr`` line."""
    if len(words) < 3 or not words[2].isdigit() or len(words[2]) > 18:
        raise InvalidHistoryError(f"action {line!r}: a bet or raise needs a whole-number amount")
    return int(words[2])


def _give_back(put: list[int], returned: list[int]) -> None:
    """At a street's end, the part of the largest bet that nobody matched goes back to its owner."""
    top = max(put)
    if top and put.count(top) == 1:
        owner = put.index(top)
        returned[owner] += top - max(p for k, p in enumerate(put) if k != owner)


def facts_from_hand(
    hand: Hand, names: Sequence[str], *, adjusted: Sequence[float] | None = None
) -> HandFacts:
    """The facts of a complete `hand`, players named `names`: read from its PHH export, so that a
    hand counts the same however it arrives."""
    if hand.result is None:
        raise ValueError("the hand is not complete")
    facts = facts_from_document(phh.export(hand) | {"players": list(names)})
    assert facts is not None  # a complete hand's export has its finishing stacks
    return facts if adjusted is None else attrs.evolve(facts, adjusted=tuple(adjusted))
