"""The `pushfold` bot: equilibrium push or fold when stacks are short, the `equity` bot otherwise.

Before the flop, when every action so far is a fold, or a fold before one all-in raise followed by
calls and folds, and the effective stack is at or below `threshold` big blinds, the bot plays the
push/fold equilibrium of the hand as it stands: the players not yet out of it, their stacks after
the antes, the chips already in the middle, and the stacks of the players who folded (they count
in ICM). Heads-up it reads the exact heads-up chart (`solve_headsup`, chip EV, which is ICM with
two players); with three players or more it solves the end-game (`solve_endgame`, over `deals`
sampled deals) with ICM over the prizes left. Anything else (a limp, a raise short of all-in, a
flop, more than `players` players in the hand, stacks deeper than the threshold) is the `equity`
bot's to play.

The prizes are the standard shares for the field the bot first sat down with (``prizes="auto"``,
what `holdem tournament` pays a one-table sit-and-go), shares given as ``"50/30/20"``, or
``"chips"`` for a cash game (each chip worth the same). Solutions are kept, so a spot seen again
costs nothing; the draw of a mixed strategy comes from the bot's random source.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from functools import lru_cache

from holdem.bots.equity import EquityBot
from holdem.console.fields import Field, read_fields
from holdem.errors import InvalidConfigError
from holdem.hand.actions import Action, ActionKind, check_or_fold
from holdem.hand.events import EventKind, HandResult, Phase
from holdem.hand.views import SeatView
from holdem.pushfold.classes import class_of_hands, hands
from holdem.pushfold.endgame import EndGame, solve_endgame
from holdem.pushfold.headsup import solve_headsup
from holdem.tournament.payouts import payout_shares

__all__ = ["PushFoldBot", "Spot", "read_spot"]

ARGUMENTS = {"players": Field("whole", None, 2, 9), "deals": Field("count", None, 100)}
"""The largest end-game the bot solves and its deals, checked as every setting is."""


class Spot:
    """A push/fold decision read from a view: the players still in the hand (the view's indices,
    in seat order from the small blind; heads-up the button, player 1, is the small blind), their
    stacks after the antes, the blinds, the dead chips, the folded players' stacks, and the
    decision's key in `EndGame` terms (indices into `active`)."""

    __slots__ = ("active", "big_blind", "dead", "key", "others", "small_blind", "stacks")

    def __init__(
        self,
        active: tuple[int, ...],
        stacks: tuple[int, ...],
        small_blind: int,
        big_blind: int,
        dead: int,
        others: tuple[int, ...],
        key: tuple[int, ...],
    ) -> None:
        self.active, self.stacks, self.others, self.key = active, stacks, others, key
        self.small_blind, self.big_blind, self.dead = small_blind, big_blind, dead

    @property
    def effective(self) -> float:
        """The effective stack in big blinds: first in, against the deepest stack still to act or
        in the blinds; facing an all-in, against the pusher."""
        me = self.stacks[self.key[0]]
        if len(self.key) > 1:
            return min(me, self.stacks[self.key[1]]) / self.big_blind
        deepest = max(s for i, s in enumerate(self.stacks) if i != self.key[0])
        return min(me, deepest) / self.big_blind


def read_spot(view: SeatView) -> Spot | None:
    """The push/fold spot `view` is in, or None when the hand is not one (see the module)."""
    if view.phase is not Phase.PREFLOP or view.legal is None or len(view.stacks) < 2:
        return None
    n, me = len(view.stacks), view.player
    antes, blinds = [0] * n, [0] * n
    folded_first: list[int] = []
    pusher, callers = -1, list[int]()
    for kind, player, _, amount, action, _ in view.public_log:
        if player is None:
            continue
        if kind == EventKind.ANTE:
            antes[player] += amount or 0
        elif kind == EventKind.BLIND:
            blinds[player] += amount or 0
        elif kind == EventKind.ACTION and action is not None:
            if action.kind is ActionKind.FOLD:
                if pusher < 0:
                    folded_first.append(player)
            elif pusher < 0 and action.kind is ActionKind.RAISE and view.stacks[player] == 0:
                pusher = player
            elif pusher >= 0 and action.kind is ActionKind.CALL:
                callers.append(player)
            else:
                return None  # a limp, a raise short of all-in, a re-raise: not push or fold
        elif kind not in (EventKind.HOLE,):
            return None  # a straddle, dead money, anything else: not the game solved
    posted = sorted(p for p in range(n) if blinds[p])
    if len(posted) != 2 or view.big_blind != max(blinds):
        return None
    small, big = sorted(posted, key=lambda p: blinds[p])  # heads-up, the button (player 1) is small
    if blinds[small] == blinds[big] or (n > 2 and (small, big) != (0, 1)):
        return None
    if len(set(antes)) > 1 and sum(antes) != antes[big]:  # per-player antes, or a big-blind ante
        return None
    start = [view.stacks[p] + view.bets[p] for p in range(n)]  # after the antes
    seats = (small, big, *range(2, n))  # seat order from the small blind
    active = tuple(p for p in seats if p not in folded_first)
    if (
        me not in active
        or small not in active
        or big not in active
        or any(start[p] <= blinds[p] for p in active)
    ):
        return None
    index = {p: i for i, p in enumerate(active)}
    key = (index[me],) if pusher < 0 else (index[me], index[pusher], *(index[c] for c in callers))
    others = tuple(start[p] for p in folded_first if start[p] > 0)
    return Spot(active, tuple(start[p] for p in active), blinds[small], blinds[big], sum(antes), others, key)


@lru_cache(maxsize=512)
def _headsup_push(stack: float, ante: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    solution = solve_headsup(stack, ante)  # the command's own tolerance: the bot plays its charts
    return tuple(solution.push.tolist()), tuple(solution.call.tolist())


class PushFoldBot:
    """Push/fold equilibrium (ICM in tournaments) at `threshold` big blinds or less; `equity` above."""

    def __init__(
        self,
        threshold: float = 10.0,
        prizes: str = "auto",
        players: int = 6,
        deals: int = 3000,
        samples: int = 300,
    ) -> None:
        if not 1 <= threshold <= 25:
            raise InvalidConfigError(f"threshold must be 1 to 25 big blinds, got {threshold!r}")
        read_fields({"players": players, "deals": deals}, ARGUMENTS, InvalidConfigError)
        self.threshold, self.players, self.deals = float(threshold), players, deals
        self.chips = prizes == "chips"
        self.shares = None if prizes in ("auto", "chips") else _shares(prizes)
        self.equity = EquityBot(samples=samples)
        self.solved: OrderedDict[EndGame, dict[tuple[int, ...], tuple[float, ...]]] = OrderedDict()
        self.set_random(random.Random(0))

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng
        self.equity.set_random(random.Random(rng.getrandbits(64)))

    def start_hand(self, view: SeatView) -> None:
        if self.shares is None and len(view.stacks) > 1:  # "auto": the payouts for the field first seen
            self.shares = payout_shares(len(view.stacks))

    def end_hand(self, view: SeatView, result: HandResult) -> None:
        """The `equity` bot it plays above the threshold reads the opponents in every hand."""
        self.equity.end_hand(view, result)

    def push_probability(self, view: SeatView) -> float | None:
        """The equilibrium's probability of pushing (or calling) with this hand, None when the
        hand is not a push/fold spot within the threshold."""
        spot = read_spot(view)
        if spot is None or spot.effective > self.threshold or len(spot.active) > self.players:
            return None
        cls = int(class_of_hands()[_hand_index(view)])
        if len(spot.active) == 2 and not spot.others and self._headsup_fits(spot):
            bb = spot.big_blind
            stack = round(10 * max(spot.effective + spot.dead / 2 / bb, 1.0)) / 10  # 7.3 bb: its own chart
            ante = min(round(spot.dead / 2 / bb, 2), stack - 1)
            push, call = _headsup_push(min(stack, 100.0), ante)
            return (push if len(spot.key) == 1 else call)[cls]
        try:
            strategies = self._endgame(spot)
        except InvalidConfigError:
            return None
        return strategies[spot.key][cls]

    def _headsup_fits(self, spot: Spot) -> bool:
        """Heads-up with blinds of one half and one: the chart's game."""
        return 2 * spot.small_blind == spot.big_blind

    def _endgame(self, spot: Spot) -> dict[tuple[int, ...], tuple[float, ...]]:
        left = len(spot.active) + len(spot.others)
        shares = self.shares or payout_shares(left)
        prizes = () if self.chips else shares[:left]
        game = EndGame(spot.stacks, spot.small_blind, spot.big_blind, prizes, 0, spot.dead, spot.others)
        if game in self.solved:
            self.solved.move_to_end(game)
            return self.solved[game]
        solution = solve_endgame(game, deals=self.deals, iterations=100, seed=0, tolerance=1e-5)
        strategies = {key: tuple(value.tolist()) for key, value in solution.strategies.items()}
        self.solved[game] = strategies
        if len(self.solved) > 256:
            self.solved.popitem(last=False)
        return strategies

    def act(self, view: SeatView) -> Action:
        probability = self.push_probability(view)
        if probability is None:
            return self.equity.act(view)
        legal = view.legal
        assert legal is not None
        if self.rng.random() < probability:
            if legal.max_raise_to is not None:
                return Action.raise_to(legal.max_raise_to)
            return Action.call() if legal.can_call else Action.check()
        return check_or_fold(legal)


def _shares(prizes: str) -> tuple[float, ...]:
    """Shares of the prize pool by place from ``"50/30/20"``."""
    try:
        shares = tuple(float(part) for part in prizes.split("/"))
    except ValueError:
        shares = ()
    if not shares or any(s < 0 for s in shares) or sum(shares) <= 0:
        raise InvalidConfigError(f"prizes must be 'auto', 'chips' or shares such as 50/30/20, got {prizes!r}")
    return shares


def _hand_index(view: SeatView) -> int:
    """The index of the view's hole cards in `hands` (lower card first)."""
    a, b = sorted(card.index for card in view.hole)
    return int(_INDEX[a * 52 + b])


def _index_table() -> list[int]:
    table = [0] * (52 * 52)
    for i, (a, b) in enumerate(hands().tolist()):
        table[a * 52 + b] = i
    return table


_INDEX = _index_table()
