"""The league a policy learns in: the panel's styles on observations, the `random` bot's choice,
past versions of the policy, and stack depths the policy can see."""

import numpy as np
import pytest

from holdem import Action, Hand, Stakes
from holdem.cards.card import parse_cards
from holdem.cards.deck import Deck
from holdem.env.encoding import ActionSpace, observation
from holdem.learn import LinearPolicy, train
from holdem.learn.features import FEATURES, features
from holdem.learn.league import EquityStandIn, League, random_bot, sampled_equity, style_opponent
from holdem.vector.tables import VectorTables


def spot(
    button: str, big_blind: str = "", stack: int = 200, raise_to: int | None = None, board: str = ""
) -> Hand:
    """Heads-up: player 1 (the button) holds `button`, player 0 `big_blind`; the button raises to
    `raise_to` first when given (then the big blind is to act)."""
    holes = [tuple(parse_cards(big_blind)) if big_blind else (None, None), tuple(parse_cards(button))]
    hand = Hand.start([stack, stack], Stakes(1, 2), deck=Deck.for_hand(holes, parse_cards(board)))
    if raise_to is not None:
        hand.act(Action.raise_to(raise_to))
    return hand


def choose(style: str, hand: Hand) -> str:
    view = hand.view(hand.actor)  # type: ignore[arg-type]
    space = ActionSpace()
    act = style_opponent(style, np.random.default_rng(0))
    index = int(np.asarray(act(observation(view)[None, :], space.mask(view)[None, :].astype(bool)))[0])
    return space.names[index]


def test_vector_styles_open_as_the_panel_does_heads_up() -> None:
    assert choose("maniac", spot("7h2c")).startswith("raise")
    assert choose("rock", spot("7h2c")) == "fold"
    assert choose("rock", spot("AhAc")).startswith("raise")
    assert choose("loose-passive", spot("Kh8c")) == "check/call"  # a limp: it opens 15% heads-up


def test_vector_styles_facing_a_raise_fold_call_or_re_raise_by_their_shares() -> None:
    facing = {hole: spot("3c3d", hole, raise_to=6) for hole in ("7h2c", "Kh8c", "AhAd")}
    assert choose("rock", facing["Kh8c"]) == "fold"
    assert choose("loose-passive", facing["Kh8c"]) == "check/call"
    assert choose("tight-aggressive", facing["AhAd"]).startswith("raise")
    assert choose("maniac", facing["7h2c"]) == "fold"  # even the maniac calls only half of hands


@pytest.mark.parametrize(
    ("hole", "board"), [("6c4s", "Jh8h2d"), ("AhKh", "Qh7h2d"), ("8c8s", "Jh8h2d"), ("Jc4s", "Jh8h2d")]
)
def test_vector_styles_sample_their_equity_as_the_panel_bots_do(hole: str, board: str) -> None:
    """The flop equity against a random hand, 4,000 deals each way: within 0.03 of the panel's."""
    from holdem.bots.equity import _sample

    hand = spot("2c3d", hole, board=board)
    hand.act(Action.call())
    hand.act(Action.check())
    obs = observation(hand.view(0))[None, :]
    vector = float(sampled_equity(obs, np.random.default_rng(0), 4000)[0])
    cards = [c.index for c in parse_cards(hole)], [c.index for c in parse_cards(board)]
    won, count = _sample(np.random.default_rng(0), *cards, [1.0], 4000)
    assert vector == pytest.approx(won / count, abs=0.03)


def equity_choice(hand: Hand) -> str:
    view = hand.view(hand.actor)  # type: ignore[arg-type]
    space = ActionSpace()
    act = EquityStandIn(np.random.default_rng(0), samples=400)
    index = int(np.asarray(act(observation(view)[None, :], space.mask(view)[None, :].astype(bool)))[0])
    return space.names[index]


def test_the_equity_stand_in_raises_for_value_calls_a_price_and_folds_below_it() -> None:
    assert equity_choice(spot("AhAc")).startswith("raise")
    assert equity_choice(spot("7h2c")) == "check/call"  # 41% against any hand, for a quarter of the pot
    raised = {hole: spot("3c3d", hole, raise_to=60) for hole in ("7h2c", "AhAd", "Kh8c")}
    assert equity_choice(raised["7h2c"]) == "fold"  # against a raiser's 15%, for 58 into 122
    assert equity_choice(raised["AhAd"]).startswith("raise")
    assert equity_choice(raised["Kh8c"]) == "fold"


def test_the_random_bot_is_always_legal_and_folds_only_facing_a_bet() -> None:
    tables = VectorTables(256, 2, 200, seed=3)
    act = random_bot(np.random.default_rng(1))
    kinds = set()
    for _ in range(200):
        obs, legal = tables.observe(), tables.legal
        chosen = np.asarray(act(obs, legal))
        assert legal[np.arange(len(chosen)), chosen].all()
        facing = obs[:, -7] > 0  # to call
        assert not (chosen[~facing] == 0).any()
        kinds |= set(chosen.tolist())
        tables.step(chosen)
    assert {0, 1, 2, 3, 4, 5} <= kinds


def test_the_league_keeps_the_newest_past_versions() -> None:
    rng = np.random.default_rng(0)
    league = League([style_opponent("rock", rng)], 2, rng)
    assert len(league.opponents) == 3
    first, second, third = (LinearPolicy.untrained() for _ in range(3))
    league.remember(first)
    a = league.opponents[1:]
    league.remember(second)
    league.remember(third)
    assert a[0] not in league.opponents and len(league.opponents) == 3


def test_the_policy_sees_the_stack_depth() -> None:
    depth = FEATURES.index("depth")
    shallow, deep = (
        features(observation(spot("AhKd", stack=s).view(1))[None, :])[0, depth] for s in (40, 400)
    )
    assert -1 < shallow < deep < 1.01


def test_training_depths_are_checked() -> None:
    with pytest.raises(ValueError, match="depths are two numbers of big blinds"):
        train(hands=10, depths=(0.5, 10.0))


def test_training_shows_a_bar_at_a_terminal_and_nothing_in_a_pipe() -> None:
    """`train()` drew nothing for as long as it ran: at a terminal it now counts hands on standard
    error; with standard error a pipe (logs, CI) it stays silent."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    code = "import holdem.learn as l; l.train(hands=20_000, seed=1, tables=256)"
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns for the bar
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], stderr=terminal, stdout=subprocess.PIPE, timeout=120
        )
        os.close(terminal)
        drawn = bytearray()
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the terminal's other end is closed: all read
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(controller)
    assert 0 == done.returncode and "hands" in drawn.decode(errors="replace")
    assert "20000/20000" in drawn.decode(errors="replace").replace(",", "")
    piped = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert 0 == piped.returncode and "" == piped.stderr
