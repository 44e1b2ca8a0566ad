"""Hands written in PokerStars' own words, line by line.

Each PHH document in ``tests/data/pokerstars/written`` is written out and compared with the text
beside it, every line of which was worked out by hand against PokerStars' histories: a cash side
pot, a tournament's all-in short big blind (``raises X to Y`` over the full big blind, rule 7) with a
muck, a hand won without a showdown with folds on every street, a returning player's dead blind with
rake over two pots, a heads-up tournament hand (the button's small blind posted first, "(button)
(small blind)", a date in Paris with ET's beside it), a fixed-limit hand with no names, hand number
or time of its own, and split pots with an odd chip. Hands shown are named as PokerStars names them
("a pair of Deuces", "a straight, Deuce to Six"), side pots are collected before the main pot, and
the summary gives each seat's outcome with its position ("folded before Flop (didn't bet)", "folded
on the Turn", "showed ... and won (...) with ...", "collected (...)", "mucked"); a blind posted out
of turn is no position."""

from pathlib import Path

import pytest

from holdem import Action, Deck, Hand, Rules, Stakes
from holdem.errors import InvalidHistoryError
from holdem.formats import phh
from holdem.formats.pokerstars import read_hands, write_hand
from holdem.formats.pokerstars.write import _describe

FILES = Path(__file__).parent / "data" / "pokerstars"
WRITTEN = sorted((FILES / "written").glob("*.phh"))


@pytest.mark.parametrize("source", WRITTEN, ids=[path.stem for path in WRITTEN])
def test_a_hand_is_written_in_pokerstars_words_line_by_line(source: Path) -> None:
    (doc,) = phh.loads(source.read_text(encoding="utf-8"))
    expected = source.with_suffix(".txt").read_text(encoding="utf-8")
    assert expected.splitlines() == write_hand(doc).splitlines()
    (again,) = read_hands(expected)
    assert again.doc is not None, again.reason
    assert phh.replay(again.doc).finishing_stacks == phh.replay(doc).finishing_stacks


def test_hands_in_the_sites_form_are_written_back_byte_for_byte() -> None:
    """Read and written again, PokerStars text comes back as it was, every line of every hand."""
    text = (FILES / "site-rules.txt").read_text(encoding="utf-8")
    hands = read_hands(text)
    assert 3 == len(hands) and all(hand.doc is not None for hand in hands)
    assert text == "\n\n".join(write_hand(hand.doc).strip() for hand in hands if hand.doc) + "\n"


class _Shown:
    """A player's hole cards and the board, as `_describe` reads them from a hand."""

    def __init__(self, hole: str, board: str) -> None:
        from holdem.cards.card import parse_cards

        self.holes, self.board = [parse_cards(hole)], parse_cards(board)


@pytest.mark.parametrize(
    ("hole", "board", "words"),
    [
        ("Ah Kd", "2c 7d 9s Jh 4c", "high card Ace"),
        ("2h 2d", "5c 7d 9s Jh Kc", "a pair of Deuces"),
        ("Th 6d", "Tc 6c 9s Jh 2c", "two pair, Tens and Sixes"),
        ("Kh Kd", "Kc 7d 9s Jh 4c", "three of a kind, Kings"),
        ("Ah 2d", "3c 4d 5s Jh Kc", "a straight, Ace to Five"),
        ("8h 9d", "Tc Jd Qs 2h 2c", "a straight, Eight to Queen"),
        ("Ah 2h", "5h 7h 9h Jd Kc", "a flush, Ace high"),
        ("2h 2d", "2c Td Ts Jh Kc", "a full house, Deuces full of Tens"),
        ("Kh Kd", "Kc Ks 9s Jh 4c", "four of a kind, Kings"),
        ("9h Th", "Jh Qh Kh 2d 2c", "a straight flush, Nine to King"),
        ("5h 4h", "3h 2h Ah 2d 2c", "a straight flush, Ace to Five"),
        ("Ah Th", "Jh Qh Kh 2d 2c", "a Royal Flush"),
    ],
)
def test_each_kind_of_hand_is_named_as_pokerstars_names_it(hole: str, board: str, words: str) -> None:
    assert words == _describe(_Shown(hole, board), 0)  # type: ignore[arg-type]


def written(name: str) -> dict:
    (doc,) = phh.loads((FILES / "written" / f"{name}.phh").read_text(encoding="utf-8"))
    return doc


def shown_hidden(doc: dict, player: str) -> dict:
    """`doc` with the hole cards of `player` ("p2") unknown to the document."""
    hidden = [
        f"d dh {player} ????" if line.startswith(f"d dh {player} ") else line for line in doc["actions"]
    ]
    return doc | {"actions": hidden}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda d: shown_hidden(d, "p2"),
            "the showdown cards are unknown, so the hand cannot be written out",
        ),
        (lambda d: d | {"players": ["a", "b", "c"]}, "players and seats must name 4 distinct players"),
        (lambda d: d | {"players": ["a", "b", "c", "a"]}, "players and seats must name 4 distinct players"),
        (lambda d: d | {"seats": [1, 2, 3]}, "players and seats must name 4 distinct players"),
        (
            lambda d: d | {"_rake": 100, "winnings": [0, 2000, 3000, 0]},
            "winnings and _rake do not add up to the pots",
        ),
    ],
)
def test_a_hand_that_has_no_pokerstars_form_is_refused_with_the_reason(change, words: str) -> None:
    with pytest.raises(InvalidHistoryError) as refused:
        write_hand(change(written("cash-side-pot")))
    assert words == str(refused.value)


def test_a_folders_unknown_cards_are_simply_not_dealt_to_anyone() -> None:
    text = write_hand(shown_hidden(written("cash-side-pot"), "p1"))  # ann.e folded before the flop
    assert "Dealt to ann.e" not in text and "Dealt to bobcat [Kd Ks]" in text


def test_dead_money_without_a_big_blind_is_refused() -> None:
    doc = written("dead-blind-and-rake") | {"blinds_or_straddles": [25, 50, 0, 25, 0]}
    with pytest.raises(InvalidHistoryError, match=r"^dead money without a big blind has no PokerStars form$"):
        write_hand(doc)


def test_rule_32_a_hand_run_twice_is_written_with_both_run_outs_and_reads_back_the_same() -> None:
    """Refused until this round ("not written in PokerStars' form yet"); now each run-out is its
    own FIRST and SECOND streets and showdown, and the text reads back to the same document."""
    deck = Deck.stacked("AsKdAhKc2c7h8h9c3dTs4d2s5cQdQh6dJhKh7d3c")
    hand = Hand.start([100, 101], Stakes(1, 2), rules=Rules(run_twice=True), deck=deck)
    hand.act(Action.raise_to(101))
    hand.act(Action.call())
    doc = phh.export(hand)
    text = write_hand(doc)
    assert "*** FIRST FLOP ***" in text and "*** SECOND SHOW DOWN ***" in text
    assert read_hands(text)[0].doc == read_hands(write_hand(read_hands(text)[0].doc))[0].doc
    assert phh.replay(read_hands(text)[0].doc).finishing_stacks == phh.replay(doc).finishing_stacks


@pytest.mark.parametrize(
    ("winnings", "rake"),
    [([0, 2000, 3025, 1], 0), ([0, 0, 5025, 0], 0), ([0, 2000, 2925, 200], 100), ([0, 2000, 2925], 100)],
)
def test_winnings_the_pots_do_not_pay_are_refused(winnings: list[int], rake: int) -> None:
    """A document's winnings are written as stated only where the pots pay them: each player at most
    their share, and together the pots less the rake (bobcat's side pot is 2,000, cy_cy's main 3,025)."""
    doc = written("cash-side-pot") | {"winnings": winnings, "_rake": rake}
    with pytest.raises(InvalidHistoryError, match="winnings and _rake do not add up to the pots"):
        write_hand(doc)
    assert "cy_cy collected $29.25 from pot" in write_hand(
        doc | {"winnings": [0, 2000, 2925, 0], "_rake": 100}
    )


def test_a_returning_players_blinds_are_no_position_in_the_summary_as_the_site_writes_it() -> None:
    """Zed comes back posting the small and big blinds from seat 5: the site's summary labels only
    the blinds' seats, and so does the writer (the summary below the site's own, line for line)."""
    site = (FILES / "posts.txt").read_text(encoding="utf-8").split("\n\n\n")[0]
    (hand,) = read_hands(site)
    assert hand.doc is not None, hand.reason
    text = write_hand(hand.doc)
    assert site.split("*** SUMMARY ***")[1].split() == text.split("*** SUMMARY ***")[1].split()
    lines = text.splitlines()  # posted on two lines, as the site did
    assert lines.index("Zed: posts small blind $0.25") + 1 == lines.index("Zed: posts big blind $0.50")


def test_antes_come_before_the_blinds_and_a_returning_players_dead_blind_stays_with_their_own() -> None:
    doc = written("dead-blind-and-rake")
    actions = [line.replace("p2 cbr 800", "p2 cbr 795") for line in doc["actions"]]  # bobcat's ante
    kept = {key: value for key, value in doc.items() if key not in ("winnings", "_rake")}
    doc = kept | {"antes": [5] * 5, "actions": actions}
    posts = [line for line in write_hand(doc).splitlines() if ": posts " in line]
    assert [
        *(f"{name}: posts the ante $0.05" for name in ("ann.e", "bobcat", "cy_cy", "Zed", "pia")),
        "ann.e: posts small blind $0.25",
        "bobcat: posts big blind $0.50",
        "Zed: posts small & big blinds $0.75",
    ] == posts
