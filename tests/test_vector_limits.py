"""holdem.vector at its seams: one chip limit for the library, the vector tables and the server;
every value that cannot work refused by name before anything is made; seeds as Gymnasium means
them (reset() goes on, reset(seed=s) starts again)."""

from __future__ import annotations

import numpy as np
import pytest

from holdem import Hand, Stakes
from holdem.env import VectorHeadsUpEnv
from holdem.errors import IllegalActionError, InvalidConfigError
from holdem.hand.stakes import CHIP_LIMIT
from holdem.tournament.structure import BlindStructure, Level, load_structure
from holdem.vector import VectorSitAndGos, VectorTables

LIMIT = f"at most {CHIP_LIMIT:,}"
TURBO = load_structure("turbo")


@pytest.mark.parametrize("stack", [2**62, 2**63 - 1, np.uint64(2**63 + 5), CHIP_LIMIT + 1])
def test_stacks_past_the_chip_limit_are_refused_naming_it(stack: object) -> None:
    """All-in and call at 2**62 each used to end at [0, -2**63]: the totals overflowed 64 bits."""
    with pytest.raises(InvalidConfigError, match=f"stacks must be positive and {LIMIT} chips"):
        VectorTables(1, players=2, stacks=stack, seed=0)


def test_the_limit_itself_plays_exactly() -> None:
    t = VectorTables(1, players=2, stacks=CHIP_LIMIT, seed=0)
    raise_max = len(t.actions) - 1
    t.step(np.array([raise_max]))  # all-in
    t.step(np.array([1]))  # call
    assert [0, 2 * CHIP_LIMIT] == sorted(t.final_stacks[0].tolist())


def test_the_engine_and_stakes_refuse_chips_past_the_same_limit() -> None:
    with pytest.raises(InvalidConfigError, match=LIMIT):
        Stakes(1, CHIP_LIMIT + 1)
    with pytest.raises(InvalidConfigError, match=LIMIT):
        Hand.start([CHIP_LIMIT + 1, 100], Stakes(1, 2))
    Hand.start([CHIP_LIMIT, CHIP_LIMIT], Stakes(1, 2))
    with pytest.raises(InvalidConfigError, match=LIMIT):
        VectorSitAndGos(1, entrants=2, structure=BlindStructure("huge", CHIP_LIMIT + 1, (Level(1, 2),)))


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"fractions": (float("inf"),)}, "pot fractions"),
        ({"fractions": (1e300,)}, "pot fractions"),
        ({"fractions": (float("nan"),)}, "pot fractions"),
        ({"fractions": ()}, "pot fractions"),
        ({"seed": True}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": "abc"}, "seed"),
        ({"record": "no"}, "record must be True or False"),
    ],
)
def test_values_that_cannot_work_are_refused_by_name(settings: dict[str, object], named: str) -> None:
    with pytest.raises(InvalidConfigError, match=named):
        VectorTables(2, **settings)  # type: ignore[arg-type]


def test_the_sit_and_gos_refuse_the_same_and_shares_longer_than_the_field() -> None:
    with pytest.raises(InvalidConfigError, match="pot fractions"):
        VectorSitAndGos(2, entrants=3, structure=TURBO, fractions=())
    with pytest.raises(InvalidConfigError, match="seed"):
        VectorSitAndGos(2, entrants=3, structure=TURBO, seed=-1)
    with pytest.raises(InvalidConfigError, match="shares must pay 1 to 3 places"):
        VectorSitAndGos(2, entrants=3, structure=TURBO, shares=(50, 30, 20, 10))


def test_an_opponent_returning_floats_is_refused_not_truncated() -> None:
    env = VectorHeadsUpEnv(4, opponent=lambda obs, mask: np.argmax(mask, axis=1) + 0.9, seed=0)
    with pytest.raises(IllegalActionError, match="whole action numbers"):
        for _ in range(20):  # the opponent acts within a few steps
            env.reset()
            env.step(np.ones(4, dtype=np.int64))


def test_reset_goes_on_dealing_and_reset_with_a_seed_starts_again() -> None:
    t = VectorTables(8, seed=0)
    first = t.decks.copy()
    t.reset()
    assert not np.array_equal(first, t.decks)  # new cards, not the first deal again
    t.reset(seed=0)
    assert np.array_equal(first, t.decks)
    assert np.array_equal(first, VectorTables(8, seed=0).decks)
    sngs = VectorSitAndGos(4, entrants=3, structure=TURBO, seed=5)
    dealt = sngs.decks.copy()
    sngs.reset()
    assert not np.array_equal(dealt, sngs.decks)
    sngs.reset(seed=5)
    assert np.array_equal(dealt, sngs.decks)


def test_the_vector_env_reset_follows_gymnasiums_seeding() -> None:
    env = VectorHeadsUpEnv(8, seed=0)
    first, _ = env.reset(seed=3)
    again, _ = env.reset()
    assert not np.array_equal(first, again)
    replay, _ = env.reset(seed=3)
    assert np.array_equal(first, replay)
