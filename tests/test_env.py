"""The reinforcement-learning environments: PettingZoo's and Gymnasium's own checks, and what they encode."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo", reason="holdem.env needs the rl extra (pettingzoo, gymnasium)")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from holdem import Action, Deck, Hand, Stakes
from holdem.env import HeadsUpEnv, SingleAgentEnv, env, observation, observation_size, raw_env
from holdem.env.encoding import ActionSpace
from holdem.hand.views import SeatView


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo's checker warns that dict observations (observation + action mask) are not plain
    # arrays; its own classic environments draw the same warnings.
    warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be|render modes).*")


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_passes_pettingzoo_api_test(players: int) -> None:
    api_test(env(players=players), num_cycles=300)


def test_passes_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=4), num_cycles=300)


def test_heads_up_env_passes_gymnasium_check_env() -> None:
    check_env(gymnasium.make("holdem/HeadsUp-v0", opponent="equity[samples=50]").unwrapped)
    check_env(SingleAgentEnv(opponents=["random", "calling-station"], render_mode="ansi"))


def play_randomly(e: raw_env, seed: int) -> dict[str, float]:
    """One episode with random legal actions; the rewards each agent collected."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32 - 1))
def test_rewards_are_chips_won_in_big_blinds_and_sum_to_zero(players: int, seed: int) -> None:
    e = raw_env(players=players, stacks=[40 * (i + 1) for i in range(players)])
    totals = play_randomly(e, seed)
    hand = e.hand
    assert 0 == pytest.approx(sum(totals.values()))
    for agent, total in totals.items():
        p = e.seat_of(agent)
        assert (hand.stacks[p] - hand.starting_stacks[p]) / 2 == total


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32 - 1), st.data())
def test_action_mask_is_exactly_the_actions_the_engine_accepts(
    players: int, seed: int, data: st.DataObject
) -> None:
    e = raw_env(players=players, fractions=(0.33, 0.5, 1.0, 3.0))
    e.reset(seed=seed)
    while e.hand.actor is not None:
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        view = e.infos[agent]["view"]
        legal = view.legal
        assert legal is not None and e.seat_of(agent) == legal.player
        assert legal.can_fold == mask[0] and 1 == mask[1] and legal.can_raise == mask[-1]
        for index in range(len(mask)):
            move = e.actions.action(view, index)
            assert (move is not None) == bool(mask[index])
            assert move is None or e.hand.is_legal(move)
        illegal = np.flatnonzero(mask == 0)
        if len(illegal):
            before = (e.hand.history[:], e.hand.stacks[:], e.agent_selection)
            with pytest.raises(ValueError, match="not legal"):
                e.step(int(data.draw(st.sampled_from(list(illegal)))))
            assert before == (e.hand.history, e.hand.stacks, e.agent_selection)
        e.step(int(data.draw(st.sampled_from(list(np.flatnonzero(mask))))))


def test_pot_fraction_raises_are_sized_from_the_pot_after_calling() -> None:
    hand = Hand.start([200, 200], Stakes(1, 2), deck=Deck.standard())
    view = hand.view(hand.actor)  # the button (small blind) facing the big blind: pot 3, 1 to call
    actions = ActionSpace((0.5, 1.0))
    assert ["fold", "check/call", "raise 0.5 pot", "raise 1 pot", "raise max"] == list(actions.names)
    assert "raise 4" == str(actions.action(view, 2))  # 1 + 1 + 0.5 * 4
    assert "raise 6" == str(actions.action(view, 3))  # 1 + 1 + 4: the pot-sized raise
    assert "raise 200" == str(actions.action(view, 4))  # all-in


def test_observation_fields_are_laid_out_as_documented() -> None:
    hand = Hand.start([100, 300, 200], Stakes(1, 2), deck=Deck.stacked("As Kd 7c 7d 2h 3h 9s 4c 5c 6c Tc"))
    view = hand.view(2)  # the button, first to act preflop three-handed
    obs = observation(view)
    assert observation_size(3) == len(obs) == 131
    hole = [i for i in range(52) if obs[i]]
    assert sorted(card.index for card in view.hole) == hole and len(hole) == 2
    assert 0 == obs[52:104].sum()
    assert [1, 0, 0, 0] == list(obs[104:108])  # preflop
    assert [0, 0, 1] == list(obs[108:111])  # dealing position 2: the button
    seats = obs[111:123].reshape(3, 4)  # own seat first, then clockwise: the small blind, the big blind
    assert [[100, 0, 0, 0], [49.5, 0.5, 0, 0], [149, 1, 0, 0]] == seats.tolist()
    assert [1.5, 1, 2, 100, 0, 0, 0, 0] == obs[123:].tolist()  # pot, to call, raise bounds, raises


def test_observations_hold_only_the_agents_own_hole_cards() -> None:
    e = raw_env(players=4)
    e.reset(seed=7)
    for agent in e.possible_agents:
        p = e.seat_of(agent)
        own = {card.index for card in e.hand.holes[p]}
        assert own == set(np.flatnonzero(e.observe(agent)["observation"][:52]))
        assert e.infos[agent]["view"] == e.hand.view(p)


def test_the_button_moves_each_episode_and_a_seeded_reset_repeats_the_deal() -> None:
    e = raw_env(players=3)
    buttons, deals = [], []
    for seed in (5, None, None, 5):
        e.reset(seed=seed)
        buttons.append(next(a for a in e.possible_agents if e.seat_of(a) == 2))
        deals.append(e.hand.holes)
    assert ["player_2", "player_0", "player_1", "player_2"] == buttons
    assert deals[0] == deals[3] and deals[0] != deals[1]
    fixed = raw_env(players=3, rotate_button=False)
    for _ in range(3):
        fixed.reset()
        assert 0 == fixed.seat_of("player_0")


def test_render_ansi_shows_the_table() -> None:
    e = raw_env(players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "preflop  board -  pot 3" in text and "D > player_1" in text
    assert raw_env(players=2).render() is None


def test_bad_configuration_is_refused_with_a_clear_message() -> None:
    from holdem.errors import InvalidConfigError

    for kwargs, message in [
        ({"players": 11}, "players must be 2 to 10"),
        ({"stacks": [100]}, "stacks must be 2 positive"),
        ({"fractions": (0.5, 0.5)}, "distinct positive"),
        ({"render_mode": "human"}, "render_mode"),
    ]:
        with pytest.raises((InvalidConfigError, ValueError), match=message):
            raw_env(**kwargs)


class Shover:
    """Goes all-in at every decision."""

    def act(self, view: SeatView) -> Action:
        assert view.legal is not None
        return Action.raise_to(view.legal.max_raise_to) if view.legal.can_raise else Action.call()


def test_heads_up_env_replaces_an_illegal_action_by_check_or_fold_and_flags_it() -> None:
    e = HeadsUpEnv(opponent=Shover())
    obs, info = e.reset(seed=3)  # the first episode puts the agent in the big blind, facing a shove
    assert 0 == info["view"].player and [1, 1, 0, 0, 0, 0] == obs["action_mask"].tolist()
    obs, reward, done, _, info = e.step(5)  # "raise max": not legal, so folded
    assert info["illegal"] and done and -1.0 == reward
    strict = HeadsUpEnv(opponent=Shover(), illegal="error")
    strict.reset(seed=3)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(5)
    assert [] == [action for _, action in strict.hand.history if action.kind == "fold"]


def test_heads_up_rewards_match_the_chips_won_and_the_agent_plays_both_seats() -> None:
    e = HeadsUpEnv(opponent="random")
    rng = np.random.default_rng(0)
    seats, skipped = set(), 0.0
    for episode in range(200):
        obs, info = e.reset(seed=episode if episode == 0 else None)
        seats.add(info["view"].player)
        skipped += info["skipped_reward"]
        done, total = False, 0.0
        while not done:
            obs, reward, done, _, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += reward
            assert not info["illegal"]
        view = info["view"]
        assert (view.stacks[view.player] - 200) / 2 == total
    assert {0, 1} == seats
    assert skipped > 0  # the random bot folds its small blind now and then: the agent wins the blind
