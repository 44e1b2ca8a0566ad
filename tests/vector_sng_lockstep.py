"""The differential check of `holdem.vector.VectorSitAndGos`: each table's sit-and-go played again by
the engine's `Table` and `Hand`, dealt the same decks and given the same actions; they must agree on
every button, actor, mask, stack, place and prize. Used by the tests (short) and
`scripts/bench_vector.py --lockstep-sng` (long).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from holdem import Action, Deck, Hand
from holdem.cards.card import CARDS
from holdem.env.encoding import ActionSpace
from holdem.hand.views import SeatView
from holdem.table.table import Table
from holdem.tournament.run import award, place_busts
from holdem.tournament.structure import BlindStructure, structure
from holdem.vector import VectorSitAndGos

# Short stacks and fast levels with antes and big-blind antes: blinds that put players all-in, hands
# nobody has a decision in, several players out in one hand.
STEEP = structure("steep", 300, [
    {"small_blind": 5, "big_blind": 10, "duration": 3},
    {"small_blind": 10, "big_blind": 20, "ante": 5, "duration": 3},
    {"small_blind": 20, "big_blind": 40, "ante": 30, "big_blind_ante": True, "duration": 3},
])  # fmt: skip


class Logged(VectorSitAndGos):
    """Keeps every hand each table is dealt: its deck, button and the seats' stacks at its start."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.dealt: dict[int, list[tuple[list[int], int, list[int]]]] = defaultdict(list)
        super().__init__(*args, **kwargs)

    def _deal(self, rows: Any) -> Any:
        seats = self.seat_stacks[rows].copy()  # before the deal; the button is placed by it
        over = super()._deal(rows)
        for j, r in enumerate(rows.tolist()):
            self.dealt[r].append((self._deck[:, r].tolist(), int(self.button[r]), seats[j].tolist()))
        return over


def scalar_mask(space: ActionSpace, view: SeatView) -> list[bool]:
    """The vector action mask the engine's legal actions give: fold, check/call, the smallest raise,
    the pot fractions, the largest raise (no two actions to the same total)."""
    legal = view.legal
    assert legal is not None
    mask = space.mask(view).astype(bool).tolist()
    low, high = legal.min_raise_to, legal.max_raise_to
    return [*mask[:2], low is not None and high is not None and low < high, *mask[2:]]


def scalar_action(space: ActionSpace, view: SeatView, index: int) -> Action:
    if index == 2:
        assert view.legal is not None and view.legal.min_raise_to is not None
        return Action.raise_to(view.legal.min_raise_to)
    move = space.action(view, index if index < 2 else index - 1)
    assert move is not None
    return move


class Mirror:
    """One table's sit-and-go played by the engine: a `Table` with the vector table's draw, each
    hand dealt the vector table's deck, the clock and places kept as `holdem tournament` keeps them."""

    def __init__(self, s: Logged, r: int, plan: BlindStructure) -> None:
        self.s, self.r, self.plan = s, r, plan
        self.table = Table(s.players, plan.levels[0].stakes(), button="dead")
        for seat, e in enumerate(s.entrant[r].tolist()):
            if e >= 0:
                self.table.sit(seat, f"e{e + 1}", plan.starting_stack)
        self.names = [f"e{k + 1}" for k in range(s.entrants)]
        self.seated = {seat: f"e{e + 1}" for seat, e in enumerate(s.entrant[r].tolist()) if e >= 0}
        self.run = int(s.runs[r])
        self.clock, self.hands = 0.0, 0
        self.place: dict[str, int] = {}
        self.prize: dict[str, int] = {}
        self.dealt = dict.fromkeys(self.names, 0)
        self.hand = self.deal(first=True)

    def deal(self, first: bool = False) -> Hand:
        deck, button, by_seat = self.s.dealt[self.r].pop(0)
        assert by_seat == [p.stack if p is not None else 0 for p in self.table.seats], (
            f"table {self.r}: stacks"
        )
        if first:
            self.table.button = button  # the drawn button is the first hand's (rule 22)
        self.table.stakes = self.plan.level(self.plan.level_at(self.clock)).stakes()
        # The vector deck holds two cards for every row, empty seats' too: the engine's hand is dealt
        # the players' cards, then the same burns and board.
        p = self.s.players
        rows = [c for c in range(p) if self.table.seats[(button + 1 + c) % p] is not None]
        cards = [deck[c] for c in rows] + [deck[p + c] for c in rows] + deck[2 * p :]
        hand = self.table.start_hand(deck=Deck([CARDS[c] for c in cards]))
        assert self.table.button == button, (
            f"table {self.r}: button {button} vs the engine's {self.table.button}"
        )
        for s in self.table.hand_seats:
            self.dealt[self.table.seats[s].name] += 1  # type: ignore[union-attr]
        return hand

    def end_hand(self) -> bool:
        """The hand is over: clock, busts and places; True when the sit-and-go is over."""
        hand, table = self.hand, self.table
        assert hand.is_complete, f"table {self.r}: the engine's hand is not over\n{hand.history}"
        left = sum(p is not None for p in table.seats)
        out = len(table.eliminated)
        table.end_hand()
        self.hands += 1
        self.clock += (30.0 + 5.0 * len(hand.history)) / 60
        busted = table.eliminated[out:]
        at_start = dict(zip([self.seated[s] for s in table.hand_seats], hand.starting_stacks, strict=True))
        place_busts([(name, at_start[name]) for name in busted], left, self.s.prizes, self.names, self.place,
                     self.prize)  # fmt: skip
        if left - len(busted) == 1:
            (winner,) = [p.name for p in table.seats if p is not None]
            award([winner], 1, self.s.prizes, self.names, self.place, self.prize)
            return True
        return False


def play(s: Logged, plan: BlindStructure, steps: int, seed: int) -> int:
    """Random masked play for `steps` calls with every table mirrored; returns sit-and-gos compared."""
    space = ActionSpace(s.fractions)
    rng = np.random.default_rng(seed)
    mirrors = [Mirror(s, r, plan) for r in range(s.n)]
    compared = 0
    for _ in range(steps):
        views = []
        for r, m in enumerate(mirrors):
            actor = m.hand.actor
            assert actor is not None, f"table {r}: the engine's hand is over, the vector one is not"
            assert m.table.seat_of(actor) == s.actor[r], f"table {r}: actor seat"
            view = m.hand.view(actor)
            assert scalar_mask(space, view) == s.legal[r].tolist(), f"table {r}: mask\n{m.hand.history}"
            views.append(view)
        actions = np.argmax(rng.random(s.legal.shape) * s.legal, axis=1)
        for r, m in enumerate(mirrors):
            m.hand.act(scalar_action(space, views[r], int(actions[r])))
        hands = s.hands_played.copy()
        won, _ = s.step(actions)
        finished = {run.run: run for run in s.results()}
        for r, m in enumerate(mirrors):
            for _ in range(int(s.hands_played[r] - hands[r])):
                if m.end_hand():
                    run = finished.pop(m.run)
                    assert run.hands == m.hands and run.minutes == m.clock
                    for f in run.finishes:
                        mirrored = (m.place[f.entrant], m.prize[f.entrant], m.dealt[f.entrant])
                        assert (f.place, f.prize, f.hands) == mirrored, f"table {r}: {f}"
                    assert sorted(won[r].tolist()) == sorted(
                        [0.0] * (s.players - s.entrants) + [float(m.prize[n]) for n in m.names]
                    )
                    compared += 1
                    m = mirrors[r] = Mirror(s, r, plan)
                else:
                    m.hand = m.deal()
            assert not s.dealt[r], f"table {r}: hands dealt but not played"
        assert not finished
    return compared
