"""The panel of human styles: each plays as its documented parameters say on chosen spots, and
every one plays without faults in a match, a tournament, `holdem play` and at a served table."""

import io
from pathlib import Path

import pytest

from holdem import Action, Hand, Stakes
from holdem.bots import BUILT_IN, load_bot
from holdem.bots.match import MatchConfig, play_match
from holdem.bots.styles import STYLES, StyleBot
from holdem.cards.card import parse_cards
from holdem.cards.deck import Deck
from holdem.cli.play import play
from holdem.errors import BotLoadError
from holdem.tournament import load_structure
from holdem.tournament.run import TournamentConfig, play_tournament

PANEL = [*STYLES, "calling-station"]


def dealt(holes: list[str], players: int, board: str = "") -> Deck:
    """A deck that deals these hole cards (player 0 first) and then this board."""
    known = [tuple(parse_cards(hole)) if hole else (None, None) for hole in holes]
    known += [(None, None)] * (players - len(known))
    return Deck.for_hand(known, parse_cards(board))


def action_of(style: str, hand: Hand) -> Action:
    bot = load_bot(style)
    return bot.act(hand.view(hand.actor))  # type: ignore[arg-type]


def six_max(hole: str, board: str = "") -> Hand:
    """A 6-max hand where the first to act preflop (player 2, under the gun) holds `hole`."""
    return Hand.start([200] * 6, Stakes(1, 2), deck=dealt(["", "", hole], 6, board))


def test_every_style_is_a_built_in_bot_usable_by_name() -> None:
    for name in PANEL:
        assert name in BUILT_IN
        assert hasattr(load_bot(name), "act")


def test_a_rock_folds_king_jack_offsuit_under_the_gun_and_raises_aces() -> None:
    """The rock opens 7% of hands (about 9% under the gun at 6-max): aces, not KJo."""
    assert action_of("rock", six_max("KhJc")).kind == "fold"
    assert action_of("rock", six_max("AhAc")).kind == "raise"


def test_a_tight_aggressive_player_opens_ace_king_to_three_big_blinds_and_folds_seven_deuce() -> None:
    action = action_of("tight-aggressive", six_max("AsKs"))
    assert action == Action.raise_to(6)
    assert action_of("tight-aggressive", six_max("7h2c")).kind == "fold"


def test_a_loose_passive_player_limps_a_middling_hand_and_calls_a_raise_with_it() -> None:
    hand = six_max("Kh8c")
    assert action_of("loose-passive", hand) == Action.call()  # a limp: it opens only 5% of hands
    hand2 = Hand.start([200] * 6, Stakes(1, 2), deck=dealt(["", "", "AhAd", "Ks8d"], 6))
    hand2.act(Action.raise_to(6))  # under the gun raises; the next player holds K8o
    assert action_of("loose-passive", hand2) == Action.call()
    assert action_of("tight-aggressive", hand2).kind == "fold"


def test_a_maniac_raises_any_hand_on_the_button_heads_up() -> None:
    """Heads-up the button acts first before the flop with one player behind: the maniac's 60%
    opening share triples to every hand."""
    hand = Hand.start([200, 200], Stakes(1, 2), deck=dealt(["", "7h2c"], 2))
    assert hand.actor == 1
    assert action_of("maniac", hand).kind == "raise"


def test_after_the_flop_a_rock_folds_nine_high_to_a_pot_sized_bet_that_a_loose_passive_player_calls() -> None:
    """Heads-up, both see the flop; the big blind bets the pot; the button holds ace high on a board
    that missed it, nine high with a gutshot (equity against a random hand 0.27; the price 0.33)."""
    for style, kind in (("rock", "fold"), ("loose-passive", "call"), ("calling-station", "call")):
        hand = Hand.start([200, 200], Stakes(1, 2), deck=dealt(["Qs9s", "9d6c"], 2, "Jh8h2d"))
        hand.act(Action.call())
        hand.act(Action.check())
        hand.act(Action.raise_to(4))  # the big blind (player 0) bets the pot of 4
        assert action_of(style, hand).kind == kind, style


def test_a_style_bets_the_flop_for_value_with_a_set() -> None:
    for style in STYLES:
        hand = Hand.start([200, 200], Stakes(1, 2), deck=dealt(["Qs9s", "8d8c"], 2, "Jh8h2d"))
        hand.act(Action.call())
        hand.act(Action.check())
        hand.act(Action.check())  # checked to the button, holding a set of eights
        assert action_of(style, hand).kind == "raise", style


def test_style_parameters_are_checked_by_name_and_range() -> None:
    assert StyleBot("rock", bluff=0.5).style.bluff == 0.5
    with pytest.raises(BotLoadError, match="no parameter 'bluf'"):
        load_bot("rock[bluf=0.5]")
    with pytest.raises(BotLoadError, match="between 0 and 1"):
        load_bot("maniac[open=1.5]")
    with pytest.raises(ValueError, match="unknown style 'shark'"):
        StyleBot("shark")


def test_the_panel_plays_a_six_handed_match_without_faults_and_each_style_plays_its_width() -> None:
    result = play_match(MatchConfig(tuple(PANEL), seed=3, duplicate=True), 600)
    assert [0] * 6 == [b.faults for b in result.bots]
    vpip = {b.name: b.vpip for b in result.bots}
    assert vpip["rock"] < vpip["tight-aggressive"] < vpip["loose-aggressive"] < vpip["maniac"]
    pfr = {b.name: b.pfr for b in result.bots}
    assert pfr["loose-passive"] < pfr["tight-aggressive"] and vpip["loose-passive"] > vpip["tight-aggressive"]
    assert sum(b.chips for b in result.bots) == 0


def test_the_panel_plays_a_tournament_without_faults() -> None:
    config = TournamentConfig(tuple(PANEL), 12, load_structure("hyper"), table_size=6, seed=2)
    run = play_tournament(config, 0)
    assert 12 == len(run.finishes) and all(f.faults == 0 for f in run.finishes)


def test_the_panel_plays_against_a_person_in_holdem_play() -> None:
    out = io.StringIO()
    assert 0 == play(io.StringIO("f\n" * 30 + "q\n"), out, list(STYLES), seed=4)
    assert "failed (" not in out.getvalue() and "=== Hand 5" in out.getvalue()


def test_the_panel_plays_at_a_served_table_with_holdem_join(tmp_path: Path) -> None:
    """`holdem join`'s `run_bot` seats the six styles at a real server: 20 hands, no fault, every
    stored hand replays with the chips conserved."""
    from tests.server_support import ThreadServer, check_hands
    from tests.test_server_join import bots_at

    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        table = server.table(seats=6)
        summaries = bots_at(server, table, PANEL, hands=20, rebuy=200)
        assert all(not s.faults for s in summaries) and max(s.hands for s in summaries) >= 20
        check_hands(server.hands(table))
        assert (0, 0) == server.chips_conserved(table)
