"""`holdem.vector.VectorSitAndGos` against the engine: every hand in lockstep with a `Table` and its
`Hand` (the same decks and actions), and every finished sit-and-go against the places and prizes
the tournament rules give."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import Action, Deck, Hand
from holdem.cards import CARDS
from holdem.cli import main
from holdem.env.encoding import ActionSpace
from holdem.errors import IllegalActionError, InvalidConfigError
from holdem.table import Table
from holdem.tournament import load_structure
from holdem.tournament.run import award, settle_busts
from holdem.tournament.structure import Structure, structure
from holdem.vector import VectorSitAndGos
from holdem.views import SeatView

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

    def __init__(self, s: Logged, r: int, plan: Structure) -> None:
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
        settle_busts([(name, at_start[name]) for name in busted], left, self.s.prizes, self.names, self.place,
                     self.prize)  # fmt: skip
        if left - len(busted) == 1:
            (winner,) = [p.name for p in table.seats if p is not None]
            award([winner], 1, self.s.prizes, self.names, self.place, self.prize)
            return True
        return False


def play(s: Logged, plan: Structure, steps: int, seed: int) -> int:
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


@pytest.mark.parametrize(
    ("entrants", "seats", "plan", "steps"),
    [
        (9, 9, "turbo", 400),
        (6, 6, "steep", 300),
        (5, 9, "steep", 300),
        (3, 3, "steep", 300),
        (2, 2, "steep", 200),
    ],
)
def test_vector_sit_and_gos_agree_with_the_engine_hand_by_hand_and_on_every_place_and_prize(
    entrants: int, seats: int, plan: str, steps: int
) -> None:
    """Random masked play at 16 tables: the engine's `Table` (dead button, rules 2 and 30) and `Hand`,
    dealt the same decks and given the same actions, agree on every button, actor, mask, stack and
    bust, and `holdem tournament`'s clock, places and prizes (rules 23, 28, 29) on every result."""
    chosen = load_structure(plan) if plan == "turbo" else STEEP
    s = Logged(16, entrants, chosen, seats=seats, seed=entrants + seats)
    assert play(s, chosen, steps, seed=seats) >= 3


def chips_in_play(s: VectorSitAndGos) -> np.ndarray:
    """Each table's chips: behind, bet, in the pots and dead money."""
    out: np.ndarray = s._stack.sum(axis=0) + s._bet.sum(axis=0) + s._contrib.sum(axis=0) + s._dead
    return out


@settings(max_examples=25, deadline=None)
@given(
    field=st.sampled_from([(2, 2), (3, 3), (4, 6), (6, 6), (9, 9), (7, 9)]),
    plan=st.sampled_from(["turbo", "steep"]),
    seed=st.integers(0, 2**16),
    steps=st.integers(1, 150),
)
def test_chips_are_kept_and_every_sit_and_go_places_its_field_and_pays_its_pool(
    field: tuple[int, int], plan: str, seed: int, steps: int
) -> None:
    """Under random play, every table holds the field's chips after every call, and every finished
    sit-and-go places each entrant once (one winner; players out together share a place) and pays
    exactly the prize pool."""
    entrants, seats = field
    chosen = load_structure(plan) if plan == "turbo" else STEEP
    s = VectorSitAndGos(8, entrants, chosen, seats=seats, seed=seed)
    rng = np.random.default_rng(seed)
    runs = s.results()
    for _ in range(steps):
        won, done = s.step(np.argmax(rng.random(s.legal.shape) * s.legal, axis=1))
        assert (chips_in_play(s) == entrants * chosen.starting_stack).all()
        finished = s.results()
        assert len(finished) >= done.sum()
        assert won[~done].sum() == 0 and won[done].sum() == done.sum() * sum(s.prizes)
        runs += finished
    for run in runs:
        places = sorted(f.place for f in run.finishes)
        assert places[:2] == [1, 2]  # one winner; the last out second, alone or tied
        assert all(place <= k + 1 for k, place in enumerate(places))  # tied places, then the next
        assert sum(f.prize for f in run.finishes) == sum(run.prizes) == 100 * entrants
        assert all(f.hands >= 1 for f in run.finishes) and run.hands >= max(f.hands for f in run.finishes)


def test_a_masked_action_refuses_the_whole_call_and_changes_nothing() -> None:
    s = VectorSitAndGos(8, 6, STEEP, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(20):
        s.step(np.argmax(rng.random(s.legal.shape) * s.legal, axis=1))
    actions = np.argmax(rng.random(s.legal.shape) * s.legal, axis=1)
    table = int(np.flatnonzero(~s.legal.all(axis=1))[0])
    actions[table] = int(np.flatnonzero(~s.legal[table])[0])
    before = {name: np.copy(value) for name, value in vars(s).items() if isinstance(value, np.ndarray)}
    with pytest.raises(IllegalActionError, match=f"table {table}: action {actions[table]} is not legal"):
        s.step(actions)
    after = {name: value for name, value in vars(s).items() if isinstance(value, np.ndarray)}
    assert all(np.array_equal(before[name], after[name]) for name in before)


def test_where_steps_only_the_named_tables() -> None:
    s = VectorSitAndGos(4, 9, load_structure("turbo"), seed=0)
    actor, stacks = s.actor.copy(), s._stack.copy()
    where = np.array([True, False, True, False])
    s.step(np.ones(4, dtype=np.int64), where=where)
    assert (actor[~where] == s.actor[~where]).all() and (stacks[:, ~where] == s._stack[:, ~where]).all()
    assert (actor[where] != s.actor[where]).all()


def test_observations_are_the_env_encoding_in_big_blinds_of_the_level() -> None:
    """Each row is the encoding of `holdem.env` for the player to act, in big blinds of the table's
    current level; an empty seat reads as a player who folded with no chips."""
    s = VectorSitAndGos(4, 5, STEEP, seats=9, seed=1)
    obs = s.observe()
    assert obs.shape == (4, s.obs_size) and obs.dtype == np.float32
    base = 108 + 9
    for r in range(4):
        me = int(s._actor[r])
        order = [(me + k) % 9 for k in range(9)]
        assert obs[r, base : base + 36 : 4].tolist() == pytest.approx(
            [s._stack[c, r] / s._bb[r] for c in order]
        )
        assert obs[r, base + 2 : base + 36 : 4].tolist() == [float(s._folded[c, r]) for c in order]
    assert sum(s._folded[:, 0]) >= 4  # the four empty seats


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"n": 0}, "number of tables"),
        ({"entrants": 10}, "2 to 9 entrants"),
        ({"entrants": 6, "seats": 5}, "seats must be 6 to 9"),
        ({"structure": "turbo"}, "structure must be a Structure"),
        ({"hand_seconds": -1}, "hand_seconds must be a non-negative number"),
        ({"buy_in": 1.5}, "buy-in"),
        ({"fractions": (1, 1)}, "distinct positive"),
        ({"shares": (0, 1)}, "payout shares"),
    ],
)
def test_a_configuration_that_cannot_play_is_refused_by_name(
    arguments: dict[str, object], message: str
) -> None:
    config: dict[str, object] = {"n": 1, "entrants": 6, "structure": STEEP} | arguments
    with pytest.raises(InvalidConfigError, match=message):
        VectorSitAndGos(**config)  # type: ignore[arg-type]


def test_bench_vector_sng_prints_its_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert 0 == main(["bench", "vector", "--sng", "6", "--tables", "64", "--steps", "30", "--repeat", "1",
                      "--json"])  # fmt: skip
    rates = json.loads(capsys.readouterr().out)
    assert rates["tables"] == 64 and rates["hands_per_s"] > 0 and rates["sngs_per_s"] > 0
    assert sum(rates[f"hands_with_{n}"] for n in range(2, 7)) > 0
    assert 2 == main(["bench", "vector", "--sng", "10"])
    assert "a vector sit-and-go has 2 to 9 entrants, got 10" in capsys.readouterr().err
