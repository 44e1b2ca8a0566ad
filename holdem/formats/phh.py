"""Poker Hand History (PHH) files: read, write, replay and export, for the hold'em variants.

A `.phh` file is one hand in TOML; a `.phhs` file holds many as tables ``[1]``, ``[2]``, ….
Replaying builds a stacked deck from the recorded cards and validates every player action
against the rules through `Hand.act`.
"""

from __future__ import annotations

import gc
import json
import math
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from holdem.cards.card import Card, parse_cards
from holdem.cards.deck import Deck
from holdem.errors import HoldemError, InvalidCardError, InvalidHistoryError
from holdem.hand.actions import Action
from holdem.hand.events import DEALT, KIND, EventKind
from holdem.hand.runout import runs_from
from holdem.hand.stakes import Rules, Stakes, Structure
from holdem.hand.state import Hand

__all__ = [
    "Replay",
    "dumps",
    "export",
    "iter_files",
    "load",
    "loads",
    "replay",
    "settlement_problem",
    "tables",
]

_VARIANTS = {"NT": Structure.NO_LIMIT, "FT": Structure.FIXED_LIMIT}
_PLAYER_ACTION = re.compile(r"p([0-9]{1,2}) (f|cc|cbr|sm)(?: (\S+))?")
_DEAL = re.compile(r"d (dh|db) (?:p([0-9]{1,2}) )?(\S+)")
_AMOUNT = re.compile(r"[0-9]{1,18}")  # chips: whole numbers, at most 18 digits
_PROFILES = {"pokerstars": Rules.pokerstars()}
"""The rules a document may name in its ``_rules`` field: the site it was dealt on (rule 11)."""
_NOT_TWICE = "a second run-out is dealt, but the betting did not end all-in before the river"


@attrs.frozen
class Replay:
    """The outcome of replaying one hand: final stacks and payoffs, or why it could not settle."""

    source: str
    hand: Hand | None
    settled: bool
    finishing_stacks: tuple[int, ...] | None
    payoffs: tuple[int, ...] | None
    by_history: bool = False
    """Settled from the history's own finishing stacks (a showdown whose cards nobody knows, the
    stacks checked to share the pots: `settlement_problem`), not by the engine's hand ranking."""


def loads(text: str, *, many: bool = False) -> list[dict[str, Any]]:
    """Parse PHH text: one hand, or (`many`, a .phhs file) the hands of tables [1], [2], …."""
    if many:
        return [hand for _, hand in tables(text)]
    return [_parse(text)]


def tables(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The hands of a .phhs text with their table names, in the order of their numbers."""
    data = _parse(text)
    hands = sorted(data.items(), key=lambda kv: _table_order(kv[0]))
    if not all(isinstance(h, dict) for _, h in hands):
        raise InvalidHistoryError("a .phhs file must hold only tables [1], [2], …")
    return hands


def _parse(text: str) -> dict[str, Any]:
    """PHH text as TOML, every error an `InvalidHistoryError`."""
    try:
        data = _loads_plain(text)
        return tomllib.loads(text) if data is None else data
    except tomllib.TOMLDecodeError as error:
        head = text[:300]
        if "PokerStars " in head and (" Hand #" in head or " Game #" in head):  # old files say "Game"
            raise InvalidHistoryError(
                "PokerStars text, not PHH: convert it first (holdem convert FILE --to phh --out"
                " hands.phhs), then replay hands.phhs"
            ) from None
        raise InvalidHistoryError(f"not valid TOML: {error}") from None
    except ValueError as error:  # e.g. an integer with more digits than Python converts
        raise InvalidHistoryError(f"not valid PHH: a number cannot be read: {error}") from None
    except RecursionError:
        raise InvalidHistoryError("not valid PHH: arrays or tables nested too deeply") from None


_PLAIN_LINES = re.compile(
    r'\n(?!\n|\Z|\[[A-Za-z0-9_-]+\]\n|[A-Za-z0-9_-]+ = (?:"[^"\n]*"|[-+.0-9A-Za-z_]+|\[[^\[\]\n]*\])\n)'
)
"""A line that is not plain: blank, a table header, or ``key = value`` with a one-line value."""
_PLAIN_KEY = re.compile(r"\n([A-Za-z0-9_-]+) = ")
_PLAIN_HEADER = re.compile(r"\n\[([A-Za-z0-9_-]+)\]\n")
_NOT_PLAIN = re.compile(r"[\\{}\x00-\x08\x0b-\x1f\x7f\r]")
_NOT_PLAIN_WORDS = ("null", "NaN", "Infinity")


def _loads_plain(text: str) -> dict[str, Any] | None:
    """TOML text in the plain form PHH writers use, read fast; None when the text is not plain.

    Plain: each line blank, a table header ``[1]``, or ``key = value`` (one space either side) whose
    value is one line of JSON once single quotes are double (strings without escapes, numbers,
    booleans, flat arrays of them), with one kind of quote in the whole text. That subset means
    the same in TOML and JSON, so the text is rewritten to JSON with string replacements and read
    by the C JSON reader, with the garbage collector paused: about 10x faster than `tomllib`
    (scripts/bench_stats.py). Anything else, and every error, goes to `tomllib`.
    """
    if _NOT_PLAIN.search(text) or ("'" in text and '"' in text) or any(w in text for w in _NOT_PLAIN_WORDS):
        return None
    body = "\n" + text.replace("'", '"') + "\n"
    if _PLAIN_LINES.search(body):
        return None
    keys = _PLAIN_KEY.findall(body)
    for key in set(keys):
        body = body.replace(f"\n{key} = ", f'\n,"{key}":')
    body, tables = _PLAIN_HEADER.subn(r'\n},"\1":{"":0\n', body)
    paused = gc.isenabled()
    gc.disable()  # a file's hands are many small lists and dicts, none of them in a cycle
    try:
        data: dict[str, Any] = json.loads('{"":{"":0' + body + "}}")
    except ValueError:  # json.JSONDecodeError, and numbers too long to convert
        return None
    finally:
        if paused:
            gc.enable()
    root: dict[str, Any] = data.pop("")
    if len(data) != tables or not data.keys().isdisjoint(root):
        return None  # a table named twice, or a key and a table of the same name
    for table in (root, *data.values()):
        del table[""]
    if len(root) + sum(len(table) for table in data.values()) != len(keys):
        return None  # a key written twice in one table
    return root | data


def _table_order(key: str) -> tuple[int, str]:
    return (int(key), key) if re.fullmatch("[0-9]{1,9}", key) else (1 << 30, key)


def load(path: str | Path) -> list[dict[str, Any]]:
    """Read a .phh or .phhs file."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")  # a byte-order mark is not TOML
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidHistoryError(f"cannot read {str(path)!r}: {error}") from None
    return loads(text, many=path.suffix == ".phhs")


def iter_files(paths: Sequence[str | Path]) -> Iterator[Path]:
    """The .phh/.phhs files named by `paths`, folders searched recursively, in sorted order."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in (".phh", ".phhs") and p.is_file())
            if not found:
                raise InvalidHistoryError(f"no .phh or .phhs files in {str(path)!r}")
            yield from found
        elif path.exists():
            yield path
        else:
            raise InvalidHistoryError(f"no such file or folder: {str(path)!r}")


def _require(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise InvalidHistoryError(f"missing required field {key!r}")
    return data[key]


def _ints(data: Mapping[str, Any], key: str, n: int | None = None) -> list[int]:
    values = _require(data, key)
    if not isinstance(values, list) or not all(type(v) is int for v in values):
        raise InvalidHistoryError(f"field {key!r} must be a list of whole numbers, got {values!r}")
    if n is not None and len(values) != n:
        raise InvalidHistoryError(f"field {key!r} has {len(values)} entries for {n} players")
    if any(v < 0 for v in values):
        raise InvalidHistoryError(f"field {key!r} has a negative entry: {values!r}")
    return values


def _positive(data: Mapping[str, Any], key: str) -> int:
    value = _require(data, key)
    if type(value) is not int or value <= 0:
        raise InvalidHistoryError(f"field {key!r} must be a positive whole number, got {value!r}")
    return value


def _setup(data: Mapping[str, Any]) -> tuple[Stakes, list[int], list[int], int | None]:
    """Stakes, per-player blinds and starting stacks of a history, in hand order, and the player
    posting a big-blind ante (the big blind's position), if any."""
    variant = _require(data, "variant")
    if not isinstance(variant, str) or variant not in _VARIANTS:
        raise InvalidHistoryError(f"variant {variant!r} is not a hold'em variant (NT, FT)")
    structure = _VARIANTS[variant]
    pot_limit = data.get("_pot_limit", False)
    if variant == "NT" and pot_limit is not False:  # a user field: pot-limit throughout, or preflop alone
        if pot_limit is not True and pot_limit != "preflop":
            raise InvalidHistoryError(f"field '_pot_limit' must be true or \"preflop\", got {pot_limit!r}")
        structure = Structure.POT_LIMIT if pot_limit is True else Structure.POT_LIMIT_PREFLOP
    stacks_raw = _require(data, "starting_stacks")
    if not isinstance(stacks_raw, list) or not 2 <= len(stacks_raw) <= 10:
        raise InvalidHistoryError(f"starting_stacks must list 2 to 10 stacks, got {stacks_raw!r}")
    if any(isinstance(s, float) and math.isinf(s) for s in stacks_raw):
        raise InvalidHistoryError("starting_stacks has unknown (inf) stacks; cannot replay")
    stacks = _ints(data, "starting_stacks")
    n = len(stacks)
    antes = _ints(data, "antes", n)
    blinds = _ints(data, "blinds_or_straddles", n)
    if n == 2:  # heads-up, the arrays apply reversed: the button (listed second) posts the small blind
        antes, blinds = antes[::-1], blinds[::-1]
    nonzero = [a for a in antes if a]
    ante = bb_ante = 0
    big: int | None = None
    if len(nonzero) == 1:
        bb_ante = nonzero[0]
        big = next(i for i, a in enumerate(antes) if a)
    elif nonzero and len(nonzero) == n and len(set(nonzero)) == 1:
        ante = nonzero[0]
    elif len(nonzero) == n and len(set(nonzero)) == 2 and antes.count(max(antes)) == 1:
        ante, big = min(antes), antes.index(max(antes))  # everyone's ante, and the big blind's on top
        bb_ante = antes[big] - ante
    elif nonzero:
        raise InvalidHistoryError(
            f"antes {antes!r} are neither uniform, a big-blind ante, nor both (everyone's ante, and the"
            " big blind's ante added to the big blind's)"
        )
    posted = sorted(b for b in blinds if b)
    if structure is Structure.FIXED_LIMIT:
        small_bet, big_bet = _positive(data, "small_bet"), _positive(data, "big_bet")
        big_blind = posted[1] if len(posted) > 1 else (posted[0] if posted else small_bet)
        stakes = Stakes(posted[0] if len(posted) > 1 else 0, big_blind, ante=ante, big_blind_ante=bb_ante,
                        structure=structure, small_bet=small_bet, big_bet=big_bet)  # fmt: skip
    else:
        min_bet = _positive(data, "min_bet")
        small = posted[0] if len(posted) > 1 else 0
        stakes = Stakes(small, min_bet, ante=ante, big_blind_ante=bb_ante, structure=structure)
    if big is not None and blinds[big] != stakes.big_blind:
        raise InvalidHistoryError(
            f"a big-blind ante is posted by the big blind, not by p{n - big if n == 2 else big + 1}"
        )
    return stakes, blinds, stacks, big


def _rules(data: Mapping[str, Any]) -> Rules:
    """The rules a hand was dealt by: `holdem`'s, or a site's named in the ``_rules`` user field."""
    name, twice = data.get("_rules"), data.get("_run_twice", False)
    if name is not None and (not isinstance(name, str) or name not in _PROFILES):
        known = ", ".join(map(repr, _PROFILES))
        raise InvalidHistoryError(f"field '_rules' names unknown rules {name!r} (known: {known})")
    if not isinstance(twice, bool):
        raise InvalidHistoryError(f"field '_run_twice' must be true or false, got {twice!r}")
    rules = Rules() if name is None else _PROFILES[name]
    return attrs.evolve(rules, run_twice=True) if twice else rules


def _cards(text: str, where: str) -> list[Card | None]:
    """Cards of a deal action; ``??`` stands for an unknown card."""
    out: list[Card | None] = []
    for k in range(0, len(text), 2):
        token = text[k : k + 2]
        if token == "??":
            out.append(None)
            continue
        try:
            (card,) = parse_cards(token)
        except (InvalidCardError, ValueError):
            raise InvalidHistoryError(f"{where}: bad card {token!r}") from None
        out.append(card)
    return out


def _table_posts(data: Mapping[str, Any], n: int) -> tuple[list[int] | None, int | None]:
    """The user fields ``_dead`` (dead money per player) and ``_first_to_act`` (p1 = 1) that holdem
    writes for table hands with missed blinds; PHH has no fields of its own for them."""
    dead = _ints(data, "_dead", n) if "_dead" in data else None
    first = data.get("_first_to_act")
    if first is not None and (not isinstance(first, int) or not 1 <= first <= n):
        raise InvalidHistoryError(f"field '_first_to_act' must be a player 1..{n}, got {first!r}")
    if n == 2 and dead is not None:
        dead = dead[::-1]
    return dead, None if first is None else (n - first if n == 2 else first - 1)


def _as_in_file(message: str) -> str:
    """An engine message with its players (0-based, "player 2") named as the file names them ("p3")."""
    return re.sub(r"\bplayer ([0-9]+)", lambda m: f"p{int(m[1]) + 1}", message)


def replay(data: Mapping[str, Any], source: str = "<phh>") -> Replay:
    """Replay one hand history, validating every action; raises `InvalidHistoryError` naming the action.

    Read first (the set-up, the actions as lines, the cards they deal), then built: the hand started
    on a deck stacked with those cards, and each action applied in turn."""
    stakes, blinds, stacks, big = _setup(data)
    rules = _rules(data)
    n = len(stacks)
    actions = _require(data, "actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise InvalidHistoryError("field 'actions' must be a list of strings")
    lines = [a.split(" #", 1)[0].strip() for a in actions]
    holes, board, again = _dealt_cards(lines, actions, n, rules.run_twice)
    try:
        deck = Deck.for_hand(holes, board, again)
    except HoldemError:
        raise InvalidHistoryError("a card is dealt twice") from None
    try:
        dead, first = _table_posts(data, n)
        hand = Hand.start(
            stacks,
            stakes,
            rules=rules,
            deck=deck,
            blinds=blinds,
            dead=dead,
            first_to_act=first,
            big_blind_player=big,
        )
    except HoldemError as error:
        raise InvalidHistoryError(f"cannot start the hand: {error}") from None
    _play(hand, lines, actions, holes)
    if not hand.is_complete:
        raise InvalidHistoryError(f"the history ends before the hand is over ({hand.phase.name.lower()})")
    result = hand.result
    assert result is not None
    rerun = len(hand.second_board) - runs_from(hand.log) if hand.second_board else 0  # cards run again
    if len(again) > rerun:
        raise InvalidHistoryError(_NOT_TWICE)
    missing = None in board or None in again or len(again) < rerun
    unknown = {i for i in range(n) if None in holes[i]} | ({-1} if missing else set())
    showdown = sum(1 for f in hand.folded if not f) > 1
    needs = {i for i in range(n) if not hand.folded[i]} | {-1} if showdown else set()
    if showdown and unknown & needs:
        return _settled_by_history(data, hand, source)
    return Replay(source, hand, True, result.final_stacks, result.payoffs)


def _settled_by_history(data: Mapping[str, Any], hand: Hand, source: str) -> Replay:
    """A showdown whose cards the history does not know: settled by its finishing stacks when it gives
    them and they can share the pots (less its ``_rake``); not settled when it gives none."""
    given, rake = data.get("finishing_stacks"), data.get("_rake", 0)
    if given is None:
        return Replay(source, hand, False, None, None)
    if not isinstance(given, list) or not all(type(x) is int for x in given) or type(rake) is not int:
        raise InvalidHistoryError("finishing_stacks must be whole numbers, and _rake one")
    problem = settlement_problem(hand, given, rake)
    if problem is not None:
        raise InvalidHistoryError(f"the showdown's cards are unknown, and {problem}")
    payoffs = tuple(end - start for end, start in zip(given, hand.starting_stacks, strict=True))
    return Replay(source, hand, True, tuple(given), payoffs, by_history=True)


def _dealt_cards(
    lines: list[str], actions: list[str], n: int, twice: bool
) -> tuple[list[list[Card | None]], list[Card | None], list[Card | None]]:
    """The hole cards (by player), the board and the second run-out (rule 32: after the board,
    street by street) that the history deals, to stack the deck (None: a card nobody knows)."""
    holes: list[list[Card | None]] = [[None, None] for _ in range(n)]
    board: list[Card | None] = []
    again: list[Card | None] = []
    streets: list[int] = []  # the second run-out's deals, by size
    for index, line in enumerate(lines):
        deal = _DEAL.fullmatch(line)
        if not deal:
            continue
        where = f"action {index + 1} {actions[index]!r}"
        cards = _cards(deal[3], where)
        if deal[1] == "dh":
            player = int(deal[2] or 0) - 1
            if not 0 <= player < n or len(cards) != 2:
                raise InvalidHistoryError(f"{where}: deal two hole cards to a player p1..p{n}")
            holes[player] = cards
        elif twice and len(board) == 5:  # the second run-out (rule 32), street by street
            if deal[2] or len(cards) not in ((1, 3) if not again else (1,)) or len(again) + len(cards) > 5:
                raise InvalidHistoryError(f"{where}: a second run-out is dealt street by street")
            again.extend(cards)
            streets.append(len(cards))
        else:
            if deal[2] or len(cards) not in ((3,) if not board else (1,)) or len(board) + len(cards) > 5:
                raise InvalidHistoryError(f"{where}: the board is dealt as 3, then 1, then 1 cards")
            board.extend(cards)
    if streets not in ([], [3, 1, 1], [1, 1], [1]):
        shape = "3, 1, 1 cards, or 1, 1, or 1"
        raise InvalidHistoryError(f"a second run-out deals each street after the all-in again: {shape}")
    return holes, board, again


def _play(hand: Hand, lines: list[str], actions: list[str], holes: list[list[Card | None]]) -> None:
    """Apply the history's actions to `hand` in turn, each checked: deals in their place, shows of the
    cards dealt, and every bet as the engine's rules allow."""
    n, dealt_board = len(holes), 0
    for index, line in enumerate(lines):
        where = f"action {index + 1} {actions[index]!r}"
        deal = _DEAL.fullmatch(line)
        if deal:
            if deal[1] == "db":
                dealt_board += len(deal[3]) // 2
                if (
                    sum(len(entry[DEALT]) for entry in hand.log if entry[KIND] == EventKind.BOARD)
                    < dealt_board
                ):
                    if hand.is_complete:  # a second run-out of a hand that was not run twice
                        raise InvalidHistoryError(f"{where}: {_NOT_TWICE}")
                    raise InvalidHistoryError(f"{where}: board dealt while betting is still open")
            elif hand.history:
                raise InvalidHistoryError(f"{where}: hole cards dealt after the betting began")
            continue
        move = _PLAYER_ACTION.fullmatch(line)
        if not move:
            raise InvalidHistoryError(f"{where}: not a hold'em action")
        player, verb, arg = int(move[1]) - 1, move[2], move[3]
        if not 0 <= player < n:
            raise InvalidHistoryError(f"{where}: no player p{player + 1}")
        if verb == "sm":
            if hand.actor is not None:
                raise InvalidHistoryError(f"{where}: show or muck before the betting is over")
            if arg and "?" not in arg and holes[player][0] is not None:
                shown = parse_cards(arg, distinct=True) if len(arg) == 4 else ()
                if set(shown) != set(c for c in holes[player] if c is not None):
                    raise InvalidHistoryError(f"{where}: shows cards that were not dealt to p{player + 1}")
            continue
        try:
            hand.act(_action(hand, verb, arg, where), player)
        except InvalidHistoryError:
            raise
        except HoldemError as error:
            raise InvalidHistoryError(f"{where}: {_as_in_file(str(error))}") from None


def _action(hand: Hand, verb: str, arg: str | None, where: str) -> Action:
    """The engine's action for a PHH verb: f, cc (a check when nothing is owed), or cbr AMOUNT."""
    if verb == "f":
        return Action.fold()
    if verb == "cc":
        legal = hand.legal_actions()
        return Action.check() if legal is None or legal.can_check else Action.call()
    if arg is None or not _AMOUNT.fullmatch(arg):
        raise InvalidHistoryError(f"{where}: a bet or raise needs a whole-number amount")
    return Action.raise_to(int(arg))


def settlement_problem(hand: Hand, finishing: Sequence[int], rake: int = 0) -> str | None:
    """Why `finishing` (a history's finishing stacks) cannot be how `hand`'s pots were shared, less
    `rake` in all; None when it can. The pots are the engine's, which depend on the chips put in and
    not on the cards: so this settles a showdown whose cards nobody knows (a winner shows, the others
    muck) from what the history says each player won. A player wins only from pots they are eligible
    for, a folded player wins nothing, and the winnings add up to the pots less the rake."""
    result = hand.result
    if result is None:
        return "the hand is not over"
    n = len(hand.starting_stacks)
    if len(finishing) != n:
        return f"{len(finishing)} finishing stacks for {n} players"
    before = [final - paid for final, paid in zip(result.final_stacks, result.payouts, strict=True)]
    won = [end - start for end, start in zip(finishing, before, strict=True)]
    pots = sum(pot.amount for pot in result.pots) + result.rake  # the engine's pots: after its rake
    if any(w < 0 for w in won) or sum(won) + rake != pots:
        return f"the finishing stacks {list(finishing)} do not share the pots ({pots} chips), rake {rake}"
    for p, amount in enumerate(won):
        reachable = sum(pot.amount for pot in result.pots if p in pot.eligible)
        if amount and (hand.folded[p] or amount > reachable):
            return f"p{p + 1} wins {amount} chips from pots they may win only {reachable} of"
    return None


def export(hand: Hand) -> dict[str, Any]:
    """A finished or unfinished `Hand` as a PHH document (a dict ready for `dumps`)."""
    n = len(hand.starting_stacks)
    stakes = hand.stakes
    antes = [stakes.ante] * n
    if stakes.big_blind_ante:  # the big blind posts both antes
        antes[hand.big_blind_player] += stakes.big_blind_ante
    blinds = list(hand.declared_blinds)
    if n == 2:
        antes, blinds = antes[::-1], blinds[::-1]
    data: dict[str, Any] = {"variant": "FT" if stakes.structure is Structure.FIXED_LIMIT else "NT"}
    if stakes.structure in (Structure.POT_LIMIT, Structure.POT_LIMIT_PREFLOP):
        data["_pot_limit"] = True if stakes.structure is Structure.POT_LIMIT else "preflop"
    data |= {"antes": antes, "blinds_or_straddles": blinds}
    named = [name for name, rules in _PROFILES.items() if hand.rules == rules]
    if named:  # dealt by a site's rules: a user field, read back by replay (holdem's own go unnamed)
        data["_rules"] = named[0]
    if hand.rules.run_twice:  # a user field: PHH has none for it (the second run's deals follow the first's)
        data["_run_twice"] = True
    if any(hand.declared_dead):  # missed blinds at a table: user fields, read back by replay
        data["_dead"] = list(hand.declared_dead)[:: -1 if n == 2 else 1]
    if hand.opener is not None:
        data["_first_to_act"] = n - hand.opener if n == 2 else hand.opener + 1
    if stakes.structure is Structure.FIXED_LIMIT:
        data["small_bet"], data["big_bet"] = stakes.bet_sizes
    else:
        data["min_bet"] = stakes.big_blind
    data["starting_stacks"] = list(hand.starting_stacks)
    lines = [f"d dh p{i + 1} {''.join(map(str, hole))}" for i, hole in enumerate(hand.holes)]
    for event in hand.events():
        if event.kind == EventKind.BOARD:
            lines.append(f"d db {''.join(map(str, event.cards))}")
        elif event.kind == EventKind.ACTION and event.action is not None and event.player is not None:
            act = event.action
            verb = {"fold": "f", "check": "cc", "call": "cc"}.get(act.kind.value, f"cbr {act.amount}")
            lines.append(f"p{event.player + 1} {verb}")
        elif event.kind == EventKind.SHOW and event.player is not None:
            lines.append(f"p{event.player + 1} sm {''.join(map(str, event.cards))}")
        elif event.kind == EventKind.MUCK and event.player is not None:
            lines.append(f"p{event.player + 1} sm")
    data["actions"] = lines
    if hand.result is not None:
        data["finishing_stacks"] = list(hand.result.final_stacks)
    return data


_MAX_DEPTH = 32
"""Arrays nested deeper than this are refused when writing (PHH itself nests at most two deep)."""


def _toml_value(value: Any, depth: int = 0) -> str:
    if depth > _MAX_DEPTH:
        raise InvalidHistoryError(f"cannot write arrays nested more than {_MAX_DEPTH} deep to PHH")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "inf" if value == math.inf else repr(value)
    if isinstance(value, str):
        return "'" + value + "'" if "'" not in value and "\n" not in value else _basic_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v, depth + 1) for v in value) + "]"
    raise InvalidHistoryError(f"cannot write {value!r} to PHH")


def _basic_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def dumps(hands: Sequence[Mapping[str, Any]] | Mapping[str, Any]) -> str:
    """PHH text for one hand (a mapping) or a .phhs text for several (a sequence)."""
    if isinstance(hands, Mapping):
        return "".join(f"{key} = {_toml_value(value)}\n" for key, value in hands.items())
    return "\n".join(f"[{k + 1}]\n{dumps(hand)}" for k, hand in enumerate(hands))
