"""holdem.vector: VectorTables plays exactly as the engine, at many tables per call."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import Stakes
from holdem.formats import phh
from holdem.hand.stakes import Structure
from holdem.vector import VectorTables
from tests.vector_lockstep import lockstep

LOCKSTEP = [  # (players, stacks: a number, or (low, high) for random stacks per seat, stakes)
    (2, 200, Stakes(1, 2)),
    (2, (3, 30), Stakes(1, 2)),
    (3, (2, 40), Stakes(1, 2, ante=1)),
    (6, 200, Stakes(1, 2)),
    (6, (2, 60), Stakes(1, 2, big_blind_ante=2)),
    (6, (4, 80), Stakes(0, 2, ante=1)),
    (9, (3, 50), Stakes(5, 10, ante=1, big_blind_ante=3)),
]


def random_stacks(
    players: int, spec: int | tuple[int, int], tables: int, stakes: Stakes, seed: int
) -> object:
    """`spec` itself, or random stacks per seat that give every hand a decision (redrawn until they do)."""
    if isinstance(spec, int):
        return spec
    rng = np.random.default_rng(seed)
    while True:
        stacks = rng.integers(*spec, (tables, players))
        try:
            VectorTables(tables, players, stacks, stakes)
        except ValueError:
            continue
        return stacks


@pytest.mark.parametrize(("players", "stacks", "stakes"), LOCKSTEP)
def test_vector_tables_agree_with_the_engine_on_every_actor_mask_observation_and_final_stack(
    players: int, stacks: int | tuple[int, int], stakes: Stakes
) -> None:
    """Random masked play, the same decks and action indices: the scalar `Hand` and `VectorTables`
    agree at every decision and on every hand's final stacks (a short run; the benchmark script
    runs the long one)."""
    seats = random_stacks(players, stacks, 48, stakes, players)
    hands = 2_400 if players < 6 else 1_600
    assert hands <= lockstep(48, players, hands, stacks=seats, stakes=stakes, seed=players, observe_every=3)


@pytest.mark.parametrize("players", [3, 4, 6, 9])
def test_both_antes_are_recorded_as_posted_and_replay_from_the_record(players: int) -> None:
    """An ante and a big-blind ante together, short stacks: the record lists the big blind's ante as
    both (as the engine's export does), `holdem.formats.phh` reads it back as both, and each hand replays
    to its finishing stacks; the play agrees with the engine's hand throughout."""
    stakes = Stakes(1, 2, ante=1, big_blind_ante=2)
    seats = random_stacks(players, (4, 40), 24, stakes, players)
    assert 300 <= lockstep(24, players, 300, stacks=seats, stakes=stakes, seed=players, record=True)


def test_the_issues_three_handed_both_antes_hand_replays_to_its_stacks() -> None:
    """Three players checking or calling to the showdown with ante 1 and big-blind ante 2: the big
    blind posted 1 + 2 + 2, and the record says so (it said antes [1, 2, 1], which no reader took)."""
    t = VectorTables(1, players=3, stacks=100, stakes=Stakes(1, 2, ante=1, big_blind_ante=2), seed=0,
                     record=True)  # fmt: skip
    done = np.array([False])
    while not done[0]:
        _, done = t.step(np.array([1]))  # check or call
    (doc,) = t.histories()
    assert [1, 3, 1] == doc["antes"]  # p2, the big blind, posted both
    assert 300 == sum(doc["finishing_stacks"])
    assert doc["finishing_stacks"] == list(phh.replay(doc).finishing_stacks or ())


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 9),
    tables=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
    low=st.integers(1, 30),
    ante=st.sampled_from([(0, 0), (1, 0), (0, 2)]),
    fractions=st.sampled_from([(0.5, 1.0, 2.0), (0.33, 0.75), (1.5,)]),
    steps=st.integers(1, 60),
)
def test_every_recorded_history_replays_to_its_finishing_stacks(
    players: int,
    tables: int,
    seed: int,
    low: int,
    ante: tuple[int, int],
    fractions: tuple[float, ...],
    steps: int,
) -> None:
    """With ``record=True`` each finished hand is a PHH document that `holdem.formats.phh` replays, action by
    action, to the finishing stacks the vector tables reached."""
    stakes = Stakes(1, 2, ante=ante[0], big_blind_ante=ante[1])
    stacks = np.random.default_rng(seed).integers(low, low + 60, (tables, players))
    try:
        t = VectorTables(tables, players, stacks, stakes, seed=seed, record=True, fractions=fractions)
    except ValueError:
        return  # stacks too short for some hand to have a decision: refused (tested below)
    rng = np.random.default_rng(seed)
    finals = []
    for _ in range(steps):
        _, done = t.step(np.argmax(rng.random(t.legal.shape) * t.legal, axis=1))
        finals += [t.final_stacks[r].tolist() for r in np.flatnonzero(done)]
    histories = t.histories()
    assert len(finals) == len(histories) == t.hands_played.sum()
    for history, by_seat in zip(histories, finals, strict=True):
        replayed = phh.replay(phh.loads(phh.dumps(history))[0])
        assert replayed.settled
        assert history["finishing_stacks"] == list(replayed.finishing_stacks or ())
        assert [by_seat[s - 1] for s in history["seats"]] == history["finishing_stacks"]
    assert histories == t.histories()  # the record keeps them
    assert histories == t.histories(clear=True)
    assert [] == t.histories()  # … until they are taken


def test_the_contract_shapes_and_types() -> None:
    """obs float32 (N, obs_size), legal bool (N, A), actor (N,), rewards float32 (N, players) and
    done bool (N,)."""
    t = VectorTables(16, players=3, stacks=200, stakes=Stakes(1, 2), seed=0)
    obs = t.reset()
    assert (16, 116 + 5 * 3) == obs.shape == (16, t.obs_size)
    assert np.float32 == obs.dtype
    assert (16, 6) == t.legal.shape == (16, len(t.actions))
    assert np.bool_ == t.legal.dtype
    assert (16,) == t.actor.shape
    assert ("fold", "check/call", "raise 0.5 pot", "raise 1 pot", "raise 2 pot", "raise max") == t.actions
    rewards, done = t.step(np.ones(16, dtype=np.int64))
    assert ((16, 3), np.float32) == (rewards.shape, rewards.dtype)
    assert ((16,), np.bool_) == (done.shape, done.dtype)


def test_a_finished_hand_pays_its_chips_and_the_next_hand_starts_with_the_button_moved() -> None:
    """Rewards of an ended hand sum to zero (chips are conserved); the button moves one seat."""
    t = VectorTables(64, players=3, stacks=100, seed=1)
    rng = np.random.default_rng(2)
    for _ in range(200):
        button = t.button.copy()
        rewards, done = t.step(np.argmax(rng.random(t.legal.shape) * t.legal, axis=1))
        assert np.allclose(0, rewards.sum(axis=1))
        assert (0 == rewards[~done]).all()
        assert ((button + done) % 3 == t.button).all()
        assert (300 == t.final_stacks[done].sum(axis=1)).all()


def test_everyone_folding_to_the_big_blind_pays_the_blinds_to_it() -> None:
    """Rule 1 and the blinds: at three players the button acts first; two folds give the big blind
    the small blind's chip (seats: the first hand's button is the last seat)."""
    t = VectorTables(1, players=3, stacks=100, seed=3)
    assert [2] == t.actor.tolist()  # the button, left of the big blind
    t.step(np.array([0]))
    assert [0] == t.actor.tolist()  # the small blind
    rewards, done = t.step(np.array([0]))
    assert done.tolist() == [True]
    assert [[-0.5, 0.5, 0.0]] == rewards.tolist()


def test_rule_7_a_short_big_blind_still_sets_the_full_level() -> None:
    """A big blind all-in for less than the blind: the others still call the full blind."""
    t = VectorTables(1, players=3, stacks=np.array([[50, 1, 50]]), stakes=Stakes(1, 2), seed=0)
    obs = t.observe()
    assert [2] == t.actor.tolist()
    to_call = obs[0, 116 + 5 * 3 - 4 - 3]  # pot, to call, min raise, max raise, then 4 raise counts
    assert 1.0 == to_call  # 2 chips, in big blinds


def test_rule_11_no_raise_against_a_player_who_cannot_call_more() -> None:
    """Heads-up, the button shoves; the big blind has fewer chips: it may call or fold, not raise."""
    t = VectorTables(1, players=2, stacks=np.array([[10, 50]]), seed=0)
    assert [1] == t.actor.tolist()
    t.step(np.array([len(t.actions) - 1]))  # all-in to 50
    assert [0] == t.actor.tolist()
    assert [True, True, False, False, False, False] == t.legal[0].tolist()


def test_a_masked_action_refuses_the_whole_call_and_changes_nothing() -> None:
    t = VectorTables(8, players=2, stacks=np.array([[10, 50]] * 8), seed=0)
    t.step(np.full(8, len(t.actions) - 1))  # the buttons shove: no raise is left for the big blinds
    before = {name: np.copy(value) for name, value in vars(t).items() if isinstance(value, np.ndarray)}
    actions = np.ones(8, dtype=np.int64)
    actions[5] = 3
    with pytest.raises(ValueError, match=r"table 5: action 3 is not legal; legal: 0 fold, 1 check/call"):
        t.step(actions)
    after = {name: value for name, value in vars(t).items() if isinstance(value, np.ndarray)}
    assert before.keys() == after.keys()
    assert all(np.array_equal(before[name], after[name]) for name in before)


def test_where_steps_only_the_named_tables() -> None:
    t = VectorTables(4, players=2, seed=0)
    actor = t.actor.copy()
    where = np.array([True, False, True, False])
    t.step(np.ones(4, dtype=np.int64), where=where)
    assert (actor[~where] == t.actor[~where]).all()
    assert (actor[where] != t.actor[where]).all()  # the button called the blind: the big blind is next
    actor = t.actor.copy()
    t.step(np.full(4, 99), where=np.zeros(4, dtype=bool))  # no table: nothing to check, nothing changes
    assert (actor == t.actor).all()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"n": 0}, "n must be a whole number of at least 1, got 0"),
        ({"players": 10}, "players must be a whole number from 2 to 9, got 10"),
        ({"stakes": Stakes(1, 2, structure=Structure.POT_LIMIT)}, "no-limit"),
        ({"stakes": Stakes(1, 2, straddles=(4,)), "players": 3}, "no-limit without straddles"),
        ({"fractions": (0.5, 0.5)}, "distinct numbers above 0"),
        ({"stacks": 0}, "stacks must be positive"),
        ({"stacks": 2.5}, "whole numbers"),
        (
            {"stacks": np.array([[1, 3]])},
            "table 0: with the button on seat 1, stacks \\[1, 3\\] leave nobody",
        ),
    ],
)
def test_a_configuration_that_cannot_play_is_refused_by_name(
    arguments: dict[str, object], message: str
) -> None:
    config: dict[str, object] = {"n": 1, "players": 2} | arguments
    with pytest.raises(ValueError, match=message):
        VectorTables(**config)  # type: ignore[arg-type]


def test_bad_actions_are_refused_by_name() -> None:
    t = VectorTables(2, seed=0)
    with pytest.raises(ValueError, match="actions must be 2 whole numbers"):
        t.step(np.array([1.0, 1.0]))
    with pytest.raises(ValueError, match="table 1: action 9 is not legal"):
        t.step(np.array([1, 9]))
    with pytest.raises(ValueError, match="where must be 2 booleans"):
        t.step(np.array([1, 1]), where=np.array([1, 0]))


def test_rule_11_at_its_boundary_the_big_blind_acts_only_if_someone_could_put_in_more() -> None:
    """Three-handed, the button folds and the small blind completes to 2. With 2 chips in all the
    small blind is all-in, its bet plus stack not above the big blind's bet: the big blind is not
    asked (nothing it added could be called) and the hand is run out. With 3 chips the small blind
    has one behind, exactly enough to exceed the bet: the big blind is asked, and may raise."""
    for chips, asked in ((2, False), (3, True)):
        t = VectorTables(1, players=3, stacks=np.array([[chips, 100, 100]]), stakes=Stakes(1, 2), seed=0)
        assert [2] == t.actor.tolist()  # the button acts first
        t.step(np.array([0]))  # folds
        assert [0] == t.actor.tolist()
        _, done = t.step(np.array([1]))  # the small blind calls to 2
        assert [not asked] == done.tolist(), chips
        if asked:
            assert [1] == t.actor.tolist() and t.legal[0, 1] and t.legal[0, 2:].any()


def test_rule_11_at_its_boundary_a_raise_needs_someone_who_could_put_in_one_chip_more() -> None:
    """Four-handed: the player under the gun (10 chips) calls 2, the button shoves 100, the small
    blind calls 100. The big blind has 200. With 100 chips in all the small blind is all-in, and
    the only other player with chips (8 behind) cannot put in more than 100 either: the big blind
    may only call or fold. With 101 the small blind keeps one chip behind, exactly enough to exceed
    the bet: the big blind may raise."""
    for chips, may_raise in ((100, False), (101, True)):
        t = VectorTables(1, players=4, stacks=np.array([[chips, 200, 10, 100]]), stakes=Stakes(1, 2), seed=0)
        assert [2] == t.actor.tolist()
        t.step(np.array([1]))  # under the gun calls 2
        t.step(np.array([len(t.actions) - 1]))  # the button: all-in for 100
        t.step(np.array([1]))  # the small blind calls 100
        assert [1] == t.actor.tolist() and t.legal[0, 1]
        assert may_raise == bool(t.legal[0, 2:].any()), chips
