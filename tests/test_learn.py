"""A bot that learns: trained from scratch on `VectorHeadsUpEnv`, it beats its untrained self, and
plays as a bot wherever one is taken."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from holdem.bots.match import MatchConfig, MatchResult, play_match
from holdem.errors import BotLoadError
from holdem.learn import LinearPolicy, PolicyBot, Progress, train


def duplicate(path: Path, opponent: str) -> MatchResult:
    """A duplicate match of 2,000 hands (1,000 deals, each played from both seats) at 100 big
    blinds, seed 7."""
    config = MatchConfig((f"holdem.learn:PolicyBot[path={path}]", opponent), seed=7, duplicate=True)
    return play_match(config, 2000)


def test_a_short_training_beats_calling_station_tight_aggressive_and_its_untrained_self(
    tmp_path: Path,
) -> None:
    """1,000,000 hands of training in the league (seed 0; under a minute), then 1,000 duplicate
    deals at 100 big blinds against each: every 95% interval is above zero, and the training reward
    rose as it learned."""
    curve: list[Progress] = []
    train(hands=1_000_000, seconds=600, seed=0, on_progress=curve.append).save(tmp_path / "trained.npz")
    LinearPolicy.untrained().save(tmp_path / "untrained.npz")
    untrained = f"holdem.learn:PolicyBot[path={tmp_path / 'untrained.npz'}]"
    for opponent in ("calling-station", "tight-aggressive", untrained):
        result = duplicate(tmp_path / "trained.npz", opponent).bots[0]
        assert result.ci95[0] > 0, (opponent, result)
    assert curve[-1].hands >= 1_000_000 and curve[-1].reward > curve[0].reward


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


def test_the_learning_curve_script_reports_each_checkpoint_against_every_opponent() -> None:
    """`scripts/learning_curve.py`, briefly: the untrained policy, checkpoints from 3 and 6 s and
    the final one, each a row with a cell of bb/100 and its interval per opponent and depth."""
    script = Path(__file__).resolve().parent.parent / "scripts" / "learning_curve.py"
    run = subprocess.run(
        [sys.executable, str(script), "--seconds", "7", "--every", "3", "--hands", "20", "--workers", "1"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("| ") and "---" not in line][1:]
    times = [float(row.split(" | ")[0].strip("| s")) for row in rows]
    assert 4 == len(times) and times[0] == 0 and 3 <= times[1] < 6 <= times[2] < times[3]
    cells = [cell for row in rows for cell in row.strip("| ").split(" | ")[3:]]
    assert len(cells) == 4 * 14 and all(re.fullmatch(r"-?[0-9,]+ \[-?[0-9,]+, -?[0-9,]+\]", c) for c in cells)
