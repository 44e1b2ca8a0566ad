"""A bot that learns: trained from scratch on `VectorHeadsUpEnv`, it beats its untrained self, and
plays as a bot wherever one is taken."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from holdem.bots.match import MatchConfig, MatchResult, play_match
from holdem.errors import BotLoadError
from holdem.learn import LinearPolicy, PolicyBot, Progress, train


def against_calling_station(path: Path) -> MatchResult:
    """A duplicate match of 2,000 hands (1,000 deals, each played from both seats), seed 7."""
    config = MatchConfig((f"holdem.learn:PolicyBot[path={path}]", "calling-station"), seed=7, duplicate=True)
    return play_match(config, 2000)


def test_a_policy_trained_from_scratch_beats_its_untrained_self(tmp_path: Path) -> None:
    """300,000 hands of training (seed 0; a few seconds, and stopped at 60 s whatever happens), then
    the same 1,000 duplicate deals against `calling-station`: the trained policy's margin over the
    untrained one (every legal action alike) has a 95% interval that excludes zero."""
    curve: list[Progress] = []
    trained = train(hands=300_000, seconds=60, seed=0, on_progress=curve.append)
    untrained = LinearPolicy.untrained()
    trained.save(tmp_path / "trained.npz")
    untrained.save(tmp_path / "untrained.npz")
    after = against_calling_station(tmp_path / "trained.npz").bots[0]
    before = against_calling_station(tmp_path / "untrained.npz").bots[0]
    half_widths = [(r.ci95[1] - r.ci95[0]) / 2 for r in (after, before)]
    margin, half = after.bb_per_100 - before.bb_per_100, math.hypot(*half_widths)
    assert margin - half > 0, (after, before)
    assert 0 < after.ci95[0]  # and it beats the calling station itself
    assert curve[-1].reward > curve[0].reward  # the training reward rose as it learned


def test_training_with_the_same_seed_learns_the_same_weights() -> None:
    first = train(hands=20_000, seed=3, tables=256)
    second = train(hands=20_000, seed=3, tables=256)
    assert np.array_equal(first.weights, second.weights)
    assert not np.array_equal(first.weights, LinearPolicy.untrained().weights)


def test_a_trained_policy_plays_in_holdem_match_from_the_shell(tmp_path: Path) -> None:
    path = tmp_path / "policy.npz"
    train(hands=20_000, seed=1, tables=256).save(path)
    spec = f"holdem.learn:PolicyBot[path={path}]"
    run = subprocess.run(
        [sys.executable, "-m", "holdem", "match", spec, "random", "--hands", "50", "--seed", "2", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert 50 == result["hands"] and [0, 0] == [bot["faults"] for bot in result["bots"]]


def test_a_missing_or_foreign_policy_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BotLoadError, match="cannot read policy"):
        PolicyBot(str(tmp_path / "nowhere.npz"))
    np.savez(
        tmp_path / "other.npz", weights=np.zeros((3, 3)), fractions=np.array([1.0]), features=np.array(["x"])
    )
    with pytest.raises(BotLoadError, match="trained on other features"):
        PolicyBot(str(tmp_path / "other.npz"))
    (tmp_path / "text.npz").write_text("not a policy")
    with pytest.raises(BotLoadError, match="cannot read policy"):
        PolicyBot(str(tmp_path / "text.npz"))


def test_training_needs_a_limit() -> None:
    with pytest.raises(ValueError, match="seconds=, hands= or both"):
        train()


def test_a_trained_policy_plays_at_a_served_table_with_holdem_join(tmp_path: Path) -> None:
    """`holdem join`'s `run_bot` seats the policy at a real server: 30 hands, no fault, and every
    stored hand replays with the chips conserved."""
    from tests.server_support import ThreadServer, check_hands
    from tests.test_server_join import bots_at

    path = tmp_path / "policy.npz"
    train(hands=20_000, seed=2, tables=256).save(path)
    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        table = server.table(seats=2)
        learned, station = bots_at(
            server, table, [f"holdem.learn:PolicyBot[path={path}]", "calling-station"], hands=30, rebuy=200
        )
        assert learned.hands >= 30 and [] == learned.faults and [] == station.faults
        check_hands(server.hands(table))
        assert (0, 0) == server.chips_conserved(table)
