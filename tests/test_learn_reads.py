"""A policy that sees its opponent: the vector tables count each opponent's tendencies exactly as
the bots' reads count them from hand logs, a policy's reads start again for a new player, and a
policy file of 0.1 (no reads) still loads and plays as it did."""

import random
from pathlib import Path

import numpy as np
import pytest

from holdem.bots.reads import SEEN, Reads
from holdem.env import VectorHeadsUpEnv
from holdem.env.reads import TableReads
from holdem.formats.phh import replay
from holdem.learn import LinearPolicy, PolicyBot
from holdem.learn.features import FEATURES, READS, features
from holdem.learn.league import style_opponent
from holdem.vector import VectorTables


def counted_from_logs(histories: list[dict[str, object]], table: int, seat: int = 1) -> Reads:
    """`Reads` of the player in `seat` (1: the agent) fed each recorded hand of `table`, replayed by
    the engine."""
    reads = Reads()
    for doc in histories:
        if doc["table"] != table + 1:
            continue
        hand = replay(doc).hand
        assert hand is not None
        seats = list(doc["seats"])  # type: ignore[call-overload]
        reads.learn(seats.index(seat), 2, tuple(hand.log))
    return reads


def walked(doc: dict[str, object]) -> bool:
    """Whether the opponent (seat 2) never acted in a recorded hand that ended before the flop."""
    player = f"p{list(doc['seats']).index(2) + 1} "  # type: ignore[call-overload]
    actions = list(doc["actions"])  # type: ignore[call-overload]
    acted = any(a.startswith(player) and not a.startswith(player + "sm") for a in actions)
    return not acted and not any(a.startswith("d db") for a in actions)


@pytest.mark.parametrize("style", ["maniac", "rock", "tight-aggressive"])
def test_the_tables_count_each_opponent_as_the_bots_reads_count_the_hand_logs(style: str) -> None:
    """About 800 hands at 8 tables against a panel style, the agent random: every count of every
    `SEEN` rate at every table, of the opponent and of the agent, equals what `Reads.learn` counts
    from the same hands' logs."""
    rng = np.random.default_rng(5)
    env = VectorHeadsUpEnv(8, style_opponent(style, rng), reads=True, seed=5)
    env.tables = VectorTables(8, 2, 200, seed=5, record=True)  # the same tables, recording their hands
    _, info = env.reset(seed=5)
    for _ in range(200):
        chosen = np.argmax(rng.random(info["action_mask"].shape) * info["action_mask"], axis=1)
        _obs, _, _, _, info = env.step(chosen)
    histories = env.tables.histories()
    assert env.reads is not None
    for table in range(8):
        them = counted_from_logs(histories, table).of(0, 1, 2)
        assert [them.chances[k] for k in SEEN] == env.reads.chances[table].tolist(), table
        assert [them.actions[k] for k in SEEN] == env.reads.actions[table].tolist(), table
        assert np.allclose([them.rate(k) for k in SEEN], info["reads"][table])
    # Every hand is one chance of VPIP, but a walk: folded to the opponent before it acted.
    walks = sum(map(walked, histories))
    assert 0 < walks and env.reads.chances[:, 0].sum() == len(histories) - walks
    assert env.agent_reads is not None  # and the agent as its opponent would read it
    for table in range(8):
        agent = counted_from_logs(histories, table, seat=2).of(0, 1, 2)
        assert [agent.chances[k] for k in SEEN] == env.agent_reads.chances[table].tolist(), table
        assert [agent.actions[k] for k in SEEN] == env.agent_reads.actions[table].tolist(), table


def test_a_table_whose_opponent_changes_reads_it_from_nothing() -> None:
    reads = TableReads(3)
    reads.chances[:2], reads.actions[:2] = 1, 1  # two tables have read their opponents
    reads.forget(np.array([0]))
    assert reads.chances[:, 0].tolist() == [0, 1, 0]
    assert np.allclose(reads.rates()[0], reads.rates()[2])  # the priors


def test_a_stranger_has_the_priors_and_no_read_moves_the_hand_features() -> None:
    """Without reads the opponent's columns are 0 (a stranger); reads change only those columns."""
    env = VectorHeadsUpEnv(16, seed=1, reads=True)
    obs, _info = env.reset(seed=1)
    plain, read = features(obs), features(obs, np.full((16, len(SEEN)), 0.9))
    assert not plain[:, READS:].any()
    assert np.array_equal(plain[:, :READS], read[:, :READS])
    assert read[:, READS : READS + len(SEEN)].min() > 0  # every rate above its prior
    with pytest.raises(ValueError, match=r"reads are \(16, 7\) rates"):
        features(obs, np.zeros((16, 3)))


MADE: list[PolicyBot] = []


def test_the_policy_bot_reads_a_new_player_from_nothing(tmp_path: Path) -> None:
    """At a table session the bot learns each hand's actions (`end_hand`) under the opponent's
    name; when another player takes the seat, that player is read from nothing (the priors)."""
    from holdem.bots.session import play_table
    from holdem.hand.stakes import Stakes
    from holdem.table import Table

    LinearPolicy.untrained().save(tmp_path / "p.npz")

    def kept() -> PolicyBot:  # a session makes its bots from their specs: keep the one it made
        MADE.append(PolicyBot(str(tmp_path / "p.npz")))
        return MADE[-1]

    table = Table(2, Stakes(1, 2), button="moving")  # a cash table: a broke player buys again
    table.sit(0, "me", 200)
    table.sit(1, "maniac", 200)
    play_table(table, {0: kept, 1: "maniac"}, 60, rebuy=200, rng=random.Random(3))
    (bot,) = MADE
    maniac = bot.reads.players["maniac"]
    # Every hand of the 60 is a chance but the maniac's walks (the bot folding its small blind).
    assert 40 < maniac.chances["vpip"] <= 60 and maniac.rate("pfr") > 0.4  # it raised most hands
    bot.meet(("stranger", "me"))
    fresh = bot.reads.of(1, 0, 2)
    assert 0 == fresh.chances["vpip"] and fresh.rate("pfr") == pytest.approx(0.15)


def test_a_policy_file_without_reads_loads_and_ignores_them(tmp_path: Path) -> None:
    """A 0.1 policy file (the hand's features alone) loads, with its weights as saved and 0 for the
    opponent's features, so it plays as it did."""
    rng = np.random.default_rng(2)
    old = rng.normal(size=(READS, 6))
    np.savez(tmp_path / "old.npz", weights=old, fractions=np.array([0.5, 1.0, 2.0]),
             features=np.array(FEATURES[:READS]))  # fmt: skip
    policy = LinearPolicy.load(tmp_path / "old.npz")
    assert np.array_equal(policy.weights[:READS], old) and not policy.weights[READS:].any()
    assert policy.weights.shape == (len(FEATURES), 6)
