"""The `solver` bot: heads-up no-limit, solving the turn and the river it faces as it plays.

Before the flop it plays the `pushfold` bot (the push/fold charts at short stacks, the `equity` bot
above them); on the flop the `equity` bot (a flop solve takes minutes here, not seconds). On the
turn and the river it solves the street from its start: the board, the pot, the effective stack,
and both players' ranges as the actions so far narrow them, then plays its hand's strategy at the
node the street's actions reached, drawn with its random source.

The ranges at a street's start:
- on the river after a solved turn, both ranges as the turn's solution leaves them at that river
  card (its own by its own strategy, the opponent's by the equilibrium's: the model of their play);
- otherwise a model: the preflop aggressor's range is the top `opener` share of hands, the other's the
  top `caller` share (any two when nobody raised), and each bet, raise or call on the flop keeps the
  stronger 60% of that player's hands on the flop at full weight and the rest at a fifth.

Every bet or raise size the opponent used this street is added to the tree, so the node is always in
it; sizes beyond the stack are the all-in. Solving stops at `accuracy` percent of the pot or after
`turn_seconds` / `river_seconds`; the solution is kept for the rest of the street. Anything it
cannot read as a heads-up no-limit spot (more players, fixed limit) is the `equity` bot's.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from holdem.bots.equity import EquityBot
from holdem.cards.batch import strengths_of
from holdem.cards.card import Card, format_cards
from holdem.cards.ranges import parse_range
from holdem.errors import HoldemError, InvalidConfigError
from holdem.hand.actions import Action, ActionKind
from holdem.hand.events import ACTION, KIND, PHASE, PLAYER, EventKind, HandResult, Phase
from holdem.hand.views import SeatView
from holdem.pushfold.bot import PushFoldBot
from holdem.solver.result import Solution
from holdem.solver.solve import solve
from holdem.solver.spot import Spot
from holdem.solver.tree import Sizes, TreeConfig

__all__ = ["SolverBot"]

_STREET = {Phase.TURN: 1, Phase.RIVER: 2}


class SolverBot:
    """Solves heads-up turns and rivers in real time; `pushfold` before the flop, `equity` on it."""

    def __init__(
        self,
        turn_seconds: float = 10.0,
        river_seconds: float = 2.0,
        accuracy: float = 1.0,
        bets: str = "66,allin",
        raises: str = "allin",
        opener: float = 50.0,
        caller: float = 70.0,
        samples: int = 300,
    ) -> None:
        for name, value in (("turn_seconds", turn_seconds), ("river_seconds", river_seconds)):
            if not 0 < value <= 600:
                raise InvalidConfigError(f"{name} must be above 0 and at most 600 seconds, got {value!r}")
        for name, value in (("opener", opener), ("caller", caller)):
            if not 0 < value <= 100:
                raise InvalidConfigError(
                    f"{name} must be a percentage above 0 and at most 100, got {value!r}"
                )
        self.seconds = {1: float(turn_seconds), 2: float(river_seconds)}
        self.accuracy, self.opener, self.caller = float(accuracy), float(opener), float(caller)
        self.sizes = Sizes.parse(bets, raises)
        self.preflop = PushFoldBot(samples=samples)
        self.equity = EquityBot(samples=samples)
        self.solution: Solution | None = None
        self.solves = 0  # streets solved, for a reader who wants to know the solver played
        self.solved_at: tuple[int, str] | None = None  # (street, the sizes added) of `solution`
        self.set_random(random.Random(0))

    def set_random(self, rng: random.Random) -> None:
        self.rng = rng
        self.preflop.set_random(random.Random(rng.getrandbits(64)))
        self.equity.set_random(random.Random(rng.getrandbits(64)))

    def start_hand(self, view: SeatView) -> None:
        self.solution, self.solved_at = None, None
        self.preflop.start_hand(view)

    def end_hand(self, view: SeatView, result: HandResult) -> None:
        self.preflop.end_hand(view, result)
        self.equity.end_hand(view, result)

    def act(self, view: SeatView) -> Action:
        if view.phase is Phase.PREFLOP:
            return self.preflop.act(view)
        if view.phase not in _STREET or len(view.stacks) != 2 or view.legal is None:
            return self.equity.act(view)
        try:
            return self._solve_and_act(view)
        except HoldemError:
            return self.equity.act(view)

    # -- the street ------------------------------------------------------------------------------

    def _solve_and_act(self, view: SeatView) -> Action:
        street = _STREET[view.phase]
        oop = 1 - view.button if view.button is not None else 0
        path, sizes = _street_path(view, oop)
        if self.solution is None or self.solved_at != (street, sizes):
            ranges = self._ranges(view, street, oop)
            self.solution = self._solve(view, street, ranges, sizes)
            self.solved_at = (street, sizes)
        node = self.solution.node(" ".join(path))
        mine = format_cards(sorted(view.hole, key=lambda c: -c.index))
        row = node.strategy[node.hands.index(mine)]
        choice = node.actions[_draw(row, self.rng)]
        return _action(choice, view)

    def _solve(self, view: SeatView, street: int, ranges: tuple[str, str], sizes: str) -> Solution:
        pot = view.pot - sum(view.bets)
        stack = min(view.stacks[p] + view.bets[p] for p in (0, 1))
        spot = Spot.parse(board=format_cards(view.board), pot=pot, stack=stack, oop=ranges[0], ip=ranges[1])
        seen = [_size(s) for s in sizes.split()]
        config = self._config(street, seen, pot)
        self.solves += 1
        return solve(spot, config, accuracy=self.accuracy, max_iterations=100_000, check_every=10,
                     max_seconds=self.seconds[street])  # fmt: skip

    def _config(self, street: int, seen: list[tuple[int, int, int]], pot: int) -> TreeConfig:
        """The bot's sizes on every street, and on this one each size the actions used, for the
        player who used it: a bet as its share of the pot, a raise as a multiple of the bet faced."""
        extra: list[list[float]] = [[], []]
        raises: list[list[tuple[str, float]]] = [[], []]
        for solver_player, amount, faced in seen:
            if faced == 0:
                extra[solver_player].append(amount / pot)
            else:
                raises[solver_player].append(("x", amount / faced))
        streets = []
        for s in range(3):
            pair = []
            for p in (0, 1):
                base = self.sizes
                if s == street:
                    base = Sizes(
                        base.bets + tuple(extra[p]), base.raises + tuple(raises[p]), None, base.allin
                    )
                pair.append(base)
            streets.append((pair[0], pair[1]))
        return TreeConfig(tuple(streets), raise_cap=2)

    # -- ranges ----------------------------------------------------------------------------------

    def _ranges(self, view: SeatView, street: int, oop: int) -> tuple[str, str]:
        """Both ranges at the street's start, out of position first, as weighted range text."""
        hands = _all_hands(view.board)
        weights = None
        if (
            street == 2
            and self.solution is not None
            and self.solved_at is not None
            and self.solved_at[0] == 1
        ):
            weights = self._from_turn(view, hands)
        if weights is None:
            weights = self._modelled(view, hands, oop)
        mine = 0 if view.player == oop else 1
        own = tuple(sorted((c.index for c in view.hole), reverse=True))
        where = {tuple(h): i for i, h in enumerate(hands.tolist())}
        weights[mine][where[own]] = max(weights[mine][where[own]], 0.05)  # its own hand is in its range
        return _text(hands, weights[0]), _text(hands, weights[1])

    def _from_turn(
        self, view: SeatView, hands: npt.NDArray[np.int64]
    ) -> list[npt.NDArray[np.float64]] | None:
        assert self.solution is not None
        turn_path = _street_path(view, 1 - view.button if view.button is not None else 0, phase=Phase.TURN)[0]
        try:
            reach = self.solution.reach(" ".join([*turn_path, str(view.board[4])]))
        except HoldemError:
            return None
        out = []
        for p in (0, 1):
            index = {
                tuple(sorted(map(int, h), reverse=True)): i
                for i, h in enumerate(self.solution.spot.ranges[p].cards)
            }
            w = np.zeros(len(hands))
            for i, h in enumerate(hands.tolist()):
                j = index.get(tuple(h))
                if j is not None:
                    w[i] = reach[p][j]
            out.append(w / w.max() if w.max() > 0 else w)
        return out

    def _modelled(
        self, view: SeatView, hands: npt.NDArray[np.int64], oop: int
    ) -> list[npt.NDArray[np.float64]]:
        aggressor = None
        for entry in view.public_log:
            action = entry[ACTION]
            preflop = entry[KIND] == EventKind.ACTION and entry[PHASE] is Phase.PREFLOP
            if preflop and action is not None and action.kind is ActionKind.RAISE:
                aggressor = entry[PLAYER]
        out = []
        for player in (oop, 1 - oop):
            share = 100.0 if aggressor is None else self.opener if player == aggressor else self.caller
            w = _top(hands, share)
            if _acted_on_flop(view, player):
                w = w * _flop_strength_weights(view, hands)
            out.append(w)
        return out


def _street_path(view: SeatView, oop: int, phase: Phase | None = None) -> tuple[list[str], str]:
    """The actions of the street so far as a solver path, and the sizes they used (solver player,
    street total, the bet faced) as text."""
    phase = view.phase if phase is None else phase
    path: list[str] = []
    sizes: list[str] = []
    level = 0
    stack = min(view.stacks[p] + view.bets[p] for p in (0, 1)) if phase is view.phase else 10**12
    for entry in view.public_log:
        action = entry[ACTION]
        if entry[KIND] != EventKind.ACTION or entry[PHASE] is not phase or action is None:
            continue
        who = 0 if entry[PLAYER] == oop else 1
        if action.kind is ActionKind.CHECK:
            path.append("x")
        elif action.kind is ActionKind.CALL:
            path.append("c")
        elif action.kind is ActionKind.FOLD:
            path.append("f")
        else:
            amount = min(int(action.amount or 0), stack)
            path.append(f"{'r' if level else 'b'}{amount}")
            sizes.append(f"{who}:{amount}:{level}")
            level = amount
    return path, " ".join(sizes)


def _size(text: str) -> tuple[int, int, int]:
    player, amount, faced = text.split(":")
    return int(player), int(amount), int(faced)


def _action(choice: str, view: SeatView) -> Action:
    legal = view.legal
    assert legal is not None
    if choice == "x":
        return Action.check() if legal.can_check else Action.call()
    if choice == "c":
        return Action.call() if legal.can_call else Action.check()
    if choice == "f":
        return Action.fold() if not legal.can_check else Action.check()
    if legal.min_raise_to is None or legal.max_raise_to is None:
        return Action.call() if legal.can_call else Action.check()
    amount = int(choice[1:])
    return Action.raise_to(min(max(amount, legal.min_raise_to), legal.max_raise_to))


def _draw(row: npt.NDArray[np.float64], rng: random.Random) -> int:
    target = rng.random() * float(row.sum())
    total = 0.0
    for i, p in enumerate(row):
        total += float(p)
        if target < total:
            return i
    return int(np.argmax(row))


def _all_hands(board: tuple[Card, ...]) -> npt.NDArray[np.int64]:
    used = {c.index for c in board}
    return np.array(
        [(a, b) for a in range(51, -1, -1) for b in range(a - 1, -1, -1) if a not in used and b not in used]
    )


def _top(hands: npt.NDArray[np.int64], share: float) -> npt.NDArray[np.float64]:
    if share >= 100:
        return np.ones(len(hands))
    chosen = {(a, b) for a, b, _ in parse_range(f"{share:g}%")}
    return np.array([1.0 if (a, b) in chosen else 0.0 for a, b in hands.tolist()])


def _acted_on_flop(view: SeatView, player: int) -> bool:
    return any(
        e[KIND] == EventKind.ACTION and e[PHASE] is Phase.FLOP and e[PLAYER] == player
        and e[ACTION] is not None and e[ACTION].kind in (ActionKind.CALL, ActionKind.RAISE)
        for e in view.public_log
    )  # fmt: skip


def _flop_strength_weights(view: SeatView, hands: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Full weight for the stronger 60% of hands on the flop, a fifth for the rest."""
    flop = np.array([c.index for c in view.board[:3]])
    five = np.concatenate([np.broadcast_to(flop, (len(hands), 3)), hands], axis=1)
    strength = strengths_of(five)
    cut = np.quantile(strength, 0.4)
    return np.where(strength >= cut, 1.0, 0.2)


def _text(hands: npt.NDArray[np.int64], weights: npt.NDArray[np.float64]) -> str:
    items = []
    for (a, b), w in zip(hands.tolist(), weights.tolist(), strict=True):
        if w > 1e-4:
            cards = format_cards((Card.from_index(a), Card.from_index(b)))
            items.append(f"{cards}:{min(w, 1.0):.4f}")
    if not items:
        raise InvalidConfigError("a range with no hand left")
    return ",".join(items)
