"""Before the first action: a hand's set-up checked, then antes, blinds and dead money posted (rules 3-5).

Plain functions over lists of chips, used by `Hand.start`: `setup` checks what a hand is started
with and fills in the defaults; `post` moves the forced bets and returns the event log entries.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import attrs

from holdem.cards.deck import Deck
from holdem.errors import InvalidConfigError
from holdem.hand import positions
from holdem.hand.events import EventKind, LogEntry, Phase
from holdem.hand.positions import default_blinds, first_to_act_preflop
from holdem.hand.stakes import CHIP_LIMIT, Rules, Stakes, check_chips

__all__ = ["Posted", "post", "posted_in_full", "setup"]

_LOG_ANTE, _LOG_BLIND = EventKind.ANTE, EventKind.BLIND
# (log kinds bound once: a global costs 30 ns where EventKind.X costs 100 ns, per entry of every hand)

_PREFLOP = Phase.PREFLOP


@functools.lru_cache(maxsize=64)
def _defaults(players: int, stakes: Stakes) -> tuple[tuple[int, ...], int]:
    """The blinds by seat order and the first player preflop (cached: tables reuse their stakes)."""
    blinds = tuple(default_blinds(players, stakes))
    return blinds, first_to_act_preflop(blinds)


def setup(
    stacks: Sequence[int],
    stakes: Stakes,
    rules: Rules | None,
    deck: Deck | None,
    blinds: Sequence[int] | None,
    dead: Sequence[int] | None,
    first_to_act: int | None,
    dead_button: bool,
    big_blind_player: int | None = None,
) -> tuple[list[int], list[int], int, int]:
    """Check a hand's set-up; returns each player's blind, dead money, the first player preflop
    and the player in the big blind's position.

    Anything that cannot start a hand is an `InvalidConfigError` naming it.
    """
    n = len(stacks)
    if not 2 <= n <= 10:
        raise InvalidConfigError(f"a hand needs 2 to 10 players, got {n}")
    for i, stack in enumerate(stacks):
        check_chips(f"stack of player {i}", stack, positive=True)
    if not isinstance(stakes, Stakes):
        raise InvalidConfigError(f"stakes must be a Stakes, got {stakes!r}")
    if blinds is None:
        default, first = _defaults(n, stakes)
        posted = list(default)
    else:
        posted = list(blinds)
        if len(posted) != n or any(type(b) is not int or b < 0 for b in posted):
            raise InvalidConfigError(f"blinds must be {n} non-negative whole numbers, got {posted!r}")
        first = first_to_act_preflop(posted)
    dead_money = list(dead) if dead is not None else [0] * n
    if dead is not None and (len(dead_money) != n or any(type(d) is not int or d < 0 for d in dead_money)):
        raise InvalidConfigError(f"dead money must be {n} non-negative whole numbers, got {dead_money!r}")
    if first_to_act is not None:
        if type(first_to_act) is not int or not 0 <= first_to_act < n:
            raise InvalidConfigError(f"first_to_act must be a player 0..{n - 1}, got {first_to_act!r}")
        first = first_to_act
    if big_blind_player is None:
        big_blind_player = positions.big_blind_player(posted, stakes)
    elif type(big_blind_player) is not int or not 0 <= big_blind_player < n:
        raise InvalidConfigError(f"big_blind_player must be a player 0..{n - 1}, got {big_blind_player!r}")
    if not isinstance(dead_button, bool):
        raise InvalidConfigError(f"dead_button must be true or false, got {dead_button!r}")
    if rules is not None and not isinstance(rules, Rules):
        raise InvalidConfigError(f"rules must be a Rules, got {rules!r}")
    # A hand uses at most 2n hole cards, 3 burns and 5 board cards.
    if deck is not None and (not isinstance(deck, Deck) or deck.remaining < 2 * n + 8):
        size = f"has {deck.remaining} cards" if isinstance(deck, Deck) else f"is {deck!r}"
        raise InvalidConfigError(f"the deck {size}; {n} players need {2 * n + 8}")
    return posted, dead_money, first, big_blind_player


def post(
    stacks: list[int],
    bets: list[int],
    contributions: list[int],
    posted: Sequence[int],
    dead: Sequence[int],
    stakes: Stakes,
    rules: Rules,
    big: int,
) -> tuple[int, list[LogEntry]]:
    """Antes, the big-blind ante, blinds and dead money; a short stack posts what it has (rules 3-5).

    Changes the lists in place; returns the dead money (which goes to the main pot, never counts
    as a bet) and the log entries.
    """
    log: list[LogEntry] = []
    dead_total = 0
    ante = stakes.ante
    if ante:
        for i, stack in enumerate(stacks):
            paid = ante if ante < stack else stack
            stacks[i] -= paid
            contributions[i] += paid
            log.append((_LOG_ANTE, i, (), paid, None, _PREFLOP))

    def pay_dead(player: int, amount: int) -> None:
        nonlocal dead_total
        paid = min(amount, stacks[player])
        stacks[player] -= paid
        dead_total += paid
        log.append((_LOG_ANTE, player, (), paid, None, _PREFLOP))

    if not stakes.big_blind_ante:
        big = -1
    ante_first = rules.big_blind_ante_order == "ante_first"
    for i, blind in enumerate(posted):
        if i == big and ante_first:
            pay_dead(i, stakes.big_blind_ante)
        paid = blind if blind < stacks[i] else stacks[i]
        if paid:
            stacks[i] -= paid
            bets[i] = paid
            log.append((_LOG_BLIND, i, (), paid, None, _PREFLOP))
        if i == big and not ante_first:
            pay_dead(i, stakes.big_blind_ante)
        if dead[i]:
            pay_dead(i, dead[i])
    return dead_total, log


@attrs.frozen
class Posted:
    """The forced bets of a hand with default blinds whose every stack is deeper than what it posts:
    the same for every such hand at these stakes and rules, so worked out once (`posted_in_full`)."""

    stakes: Stakes
    rules: Rules
    blinds: tuple[int, ...]
    first: int
    big: int
    deepest_post: int
    paid: tuple[int, ...]
    bets: tuple[int, ...]
    contributions: tuple[int, ...]
    dead: int
    log: tuple[LogEntry, ...]


_POSTED: dict[tuple[int, int, int], Posted] = {}


def posted_in_full(stacks: Sequence[int], stakes: Stakes, rules: Rules) -> Posted | None:
    """The forced bets of a hand with default blinds, no dead money and the button on the last
    player, when every stack is a whole number deeper than what it posts (and within the limit);
    None otherwise (`setup` and `post` then take the hand). Cached by the stakes and rules objects."""
    n = len(stacks)
    known = _POSTED.get((n, id(stakes), id(rules)))
    if known is None or known.stakes is not stakes or known.rules is not rules:
        if not 2 <= n <= 10 or not isinstance(stakes, Stakes) or not isinstance(rules, Rules):
            return None
        known = _posted(n, stakes, rules)
        if len(_POSTED) >= 64:
            _POSTED.clear()
        _POSTED[n, id(stakes), id(rules)] = known
    deepest = known.deepest_post
    for stack in stacks:
        if type(stack) is not int or not deepest < stack <= CHIP_LIMIT:
            return None
    return known


def _posted(n: int, stakes: Stakes, rules: Rules) -> Posted:
    """Post the forced bets once, from stacks at the limit, and keep what they moved."""
    stacks = [CHIP_LIMIT] * n
    blinds, dead, first, big = setup(stacks, stakes, rules, None, None, None, None, False)
    bets, contributions = [0] * n, [0] * n
    dead_total, log = post(stacks, bets, contributions, blinds, dead, stakes, rules, big)
    paid = tuple(CHIP_LIMIT - stack for stack in stacks)
    moved = (tuple(bets), tuple(contributions), dead_total, tuple(log))
    return Posted(stakes, rules, tuple(blinds), first, big, max(paid), paid, *moved)
