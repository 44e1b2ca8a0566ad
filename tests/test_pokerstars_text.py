"""Hands written in PokerStars' own words, line by line.

Each PHH document in ``tests/data/pokerstars/written`` is written out and compared with the text
beside it, every line of which was worked out by hand against PokerStars' histories: posts (an
all-in short blind), ``raises X to Y`` over the full big blind (rule 7), ``bets``, ``calls`` with
the chips added, all-ins, the uncalled bet, the showdown's hands as PokerStars names them ("a pair
of Deuces", "a straight, Deuce to Six"), side pots collected before the main pot, and the summary:
the pots, the board, and each seat's outcome with its position ("folded before Flop (didn't bet)",
"folded on the Turn", "showed ... and won (...) with ...", "collected (...)", "mucked")."""

from pathlib import Path

import pytest

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
