"""`holdem.vector.VectorSitAndGos` against the engine: every hand in lockstep with a `Table` and its
`Hand` (the same decks and actions), and every finished sit-and-go against the places and prizes
the tournament rules give."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem.cli import main
from holdem.errors import IllegalActionError, InvalidConfigError
from holdem.tournament import load_structure
from holdem.vector import VectorSitAndGos
from tests.vector_sng_lockstep import STEEP, Logged, play


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
        ({"n": 0}, "n must be a whole number of at least 1, got 0"),
        ({"entrants": 10}, "entrants must be a whole number from 2 to 9, got 10"),
        ({"entrants": 6, "seats": 5}, "seats must be a whole number from 6 to 9, got 5"),
        ({"structure": "turbo"}, "structure must be a BlindStructure"),
        ({"hand_seconds": -1}, "hand_seconds must be a non-negative number"),
        ({"buy_in": 1.5}, "buy-in"),
        ({"fractions": (1, 1)}, "distinct numbers above 0"),
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
    assert "--sng must be a whole number from 2 to 9, got 10" in capsys.readouterr().err
