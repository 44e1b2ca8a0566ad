"""holdem.env.VectorHeadsUpEnv: a Gymnasium 1.x vector env on VectorTables, and `holdem bench vector`."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import NormalizeObservation, NormalizeReward, RecordEpisodeStatistics

from holdem.cli import main
from holdem.env import VectorHeadsUpEnv


def masked_random(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def test_the_vector_env_declares_same_step_autoreset_and_batched_spaces() -> None:
    env = VectorHeadsUpEnv(32, seed=0)
    obs, infos = env.reset(seed=3)
    assert AutoresetMode.SAME_STEP == env.metadata["autoreset_mode"]
    assert obs in env.observation_space
    assert (32, 126) == obs.shape
    assert (32, 6) == infos["action_mask"].shape
    assert (env.tables.actor == 0).all()  # the agent is to act at every table
    rng = np.random.default_rng(0)
    for _ in range(50):
        actions = masked_random(rng, infos["action_mask"])
        assert actions in env.action_space
        obs, reward, terminated, truncated, infos = env.step(actions)
        assert obs in env.observation_space
        assert (env.tables.actor == 0).all()
        assert not truncated.any()
        assert (0 == reward[~terminated]).all()


def test_an_agent_that_always_folds_loses_its_blind_in_each_episode() -> None:
    """Folding at once: -0.5 big blinds on the button, -1 in the big blind; hands the opponent folds
    before the agent acts are no episodes and pay +0.5 in `skipped_reward`."""
    env = VectorHeadsUpEnv(64, seed=1)
    _, infos = env.reset()
    episodes = skipped = 0
    for _ in range(40):
        _, reward, terminated, _, infos = env.step(np.zeros(64, dtype=np.int64))
        assert terminated.all()
        assert set(reward.tolist()) <= {-0.5, -1.0}
        assert set(infos["skipped_reward"].tolist()) <= {0.0, 0.5, 1.0, 1.5}
        episodes += len(reward)
        skipped += int((infos["skipped_reward"] > 0).sum())
    assert 64 * 40 == episodes
    assert skipped > 0  # the random opponent folds its small blind now and then


def test_gymnasium_vector_wrappers_run_on_it_unchanged() -> None:
    env = RecordEpisodeStatistics(VectorHeadsUpEnv(16, seed=2))
    _, infos = env.reset(seed=2)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(100):
        _, _, terminated, _, infos = env.step(masked_random(rng, infos["action_mask"]))
        finished += int(terminated.sum())
    assert finished == env.episode_count > 0
    assert "episode" in infos


BOTH_MODES = [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP]


def episode_rewards(mode: AutoresetMode, steps: int) -> list[list[float]]:
    """Each table's episode rewards in order: an agent that always checks or calls, against an
    opponent that raises when it may, else checks or calls (no random source: the modes step it
    differently often)."""

    def raiser(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.where(mask[:, 2], 2, 1)

    env = VectorHeadsUpEnv(8, raiser, seed=4, autoreset_mode=mode)
    env.reset(seed=4)
    found: list[list[float]] = [[] for _ in range(8)]
    resetting = np.zeros(8, dtype=bool)
    for _ in range(steps):
        _, reward, terminated, truncated, _ = env.step(np.ones(8, dtype=np.int64))
        assert not truncated.any()
        if mode is AutoresetMode.NEXT_STEP:  # the step after an episode's end: no reward, no end
            assert not terminated[resetting].any() and not reward[resetting].any()
            resetting = terminated
        for k in np.flatnonzero(terminated):
            found[k].append(float(reward[k]))
    return found


def test_next_step_autoreset_plays_the_same_episodes_one_step_later() -> None:
    """The same seed and agent in both modes: the same hands with the same rewards; NEXT_STEP spends
    one more step at each end (Gymnasium's default mode, which its normalizing wrappers need)."""
    same, later = episode_rewards(AutoresetMode.SAME_STEP, 200), episode_rewards(AutoresetMode.NEXT_STEP, 400)
    for table, rewards in enumerate(same):
        assert rewards == later[table][: len(rewards)] and len(later[table]) >= len(rewards) > 0


@pytest.mark.parametrize("mode", BOTH_MODES)
def test_gymnasiums_statistics_and_reward_normalization_run_in_both_modes(mode: AutoresetMode) -> None:
    env = NormalizeReward(RecordEpisodeStatistics(VectorHeadsUpEnv(16, seed=2, autoreset_mode=mode)))
    assert mode == env.metadata["autoreset_mode"]
    _, infos = env.reset(seed=2)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(150):
        _, reward, terminated, _, infos = env.step(masked_random(rng, infos["action_mask"]))
        assert np.isfinite(reward).all()
        finished += int(terminated.sum())
    assert finished > 0


def test_gymnasiums_observation_normalization_runs_on_next_step_and_refuses_same_step() -> None:
    env = NormalizeObservation(VectorHeadsUpEnv(16, seed=2, autoreset_mode=AutoresetMode.NEXT_STEP))
    obs, infos = env.reset(seed=2)
    rng = np.random.default_rng(1)
    for _ in range(150):
        obs, _, _, _, infos = env.step(masked_random(rng, infos["action_mask"]))
    assert np.isfinite(obs).all() and abs(float(obs.mean())) < 5
    with pytest.raises(ValueError, match="NEXT_STEP"):  # Gymnasium's own check
        NormalizeObservation(VectorHeadsUpEnv(4, seed=2))


def test_an_illegal_agent_action_is_refused_by_name() -> None:
    env = VectorHeadsUpEnv(4, seed=0)
    env.reset()
    with pytest.raises(ValueError, match="action 7 is not legal"):
        env.step(np.array([1, 1, 7, 1]))


def test_bench_vector_prints_its_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert 0 == main(["bench", "vector", "--tables", "64", "--players", "6", "--steps", "20", "--repeat", "1",
                      "--json"])  # fmt: skip
    rates = json.loads(capsys.readouterr().out)
    assert (64, 6, 20) == (rates["tables"], rates["players"], rates["steps"])
    assert rates["decisions_per_s"] > 0 and rates["hands_per_s"] > 0
    assert 2 == main(["bench", "vector", "--players", "10"])
    assert "holdem.vector plays 2 to 9 players, got 10" in capsys.readouterr().err
