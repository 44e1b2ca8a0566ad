"""A heads-up postflop spot: the board, the pot, the stacks, both ranges and the rake.

Player 0 is out of position (acts first on every street), player 1 in position. Amounts are whole
chips. A range is written as `holdem.cards.ranges` reads it (``AA-TT,AKs,AQo:0.5``); combinations
that hold a board card are dropped, since they cannot be dealt.
"""

from __future__ import annotations

import attrs
import numpy as np
import numpy.typing as npt

from holdem.cards.card import Card, format_cards, parse_cards
from holdem.cards.ranges import parse_range
from holdem.errors import InvalidRangeError, SolverError

__all__ = ["Range", "Spot"]


@attrs.frozen
class Range:
    """A player's combinations as parallel arrays: ``cards[i]`` (two card indices) and ``weights[i]``."""

    cards: npt.NDArray[np.int8]
    weights: npt.NDArray[np.float64]

    @classmethod
    def parse(cls, text: str, board: tuple[Card, ...], who: str) -> Range:
        """The combinations of `text` that hold no board card; refused if none is left."""
        used = {card.index for card in board}
        combos = [(a, b, w) for a, b, w in parse_range(text) if a not in used and b not in used]
        if not combos:
            raise InvalidRangeError(
                f"the {who} range {text!r} has no hand left on the board {format_cards(board)}"
            )
        cards = np.array([(a, b) for a, b, _ in combos], dtype=np.int8)
        return cls(cards=cards, weights=np.array([w for _, _, w in combos], dtype=np.float64))

    def __len__(self) -> int:
        return len(self.weights)


def _rake_percent(_: object, __: object, value: float) -> None:
    if not 0 <= value < 100:
        raise SolverError(f"rake must be a percentage from 0 to under 100, got {value!r}")


@attrs.frozen
class Spot:
    """What is known when the postflop betting starts.

    `pot` is the chips already in the middle, `stack` each player's chips behind (the effective
    stack). `rake` is a percentage of every pot, at most `rake_cap` chips (0: no cap).
    """

    board: tuple[Card, ...]
    pot: int
    stack: int
    ranges: tuple[Range, Range]
    range_texts: tuple[str, str]
    rake: float = attrs.field(default=0.0, validator=_rake_percent)
    rake_cap: float = 0.0

    @classmethod
    def parse(
        cls, *, board: str, pot: int, stack: int, oop: str, ip: str, rake: float = 0.0, rake_cap: float = 0.0
    ) -> Spot:
        """A spot from text: ``Spot.parse(board="QsJh2h", pot=100, stack=400, oop="AA-TT", ip="22+")``."""
        cards = parse_cards(board)
        if len(cards) not in (3, 4, 5):
            raise SolverError(f"a board has 3, 4 or 5 cards, got {len(cards)} in {board!r}")
        for name, value in (("pot", pot), ("stack", stack)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise SolverError(f"{name} must be a whole number of chips of at least 1, got {value!r}")
        if rake_cap < 0:
            raise SolverError(f"the rake cap must be at least 0, got {rake_cap!r}")
        ranges = (Range.parse(oop, cards, "out-of-position"), Range.parse(ip, cards, "in-position"))
        return cls(cards, pot, stack, ranges, (oop, ip), float(rake), float(rake_cap))

    def rake_of(self, pot: float) -> float:
        """The rake taken from a pot of `pot` chips."""
        taken = pot * self.rake / 100
        return min(taken, self.rake_cap) if self.rake_cap else taken

    @property
    def street(self) -> str:
        """The street the spot starts on: flop, turn or river."""
        return {3: "flop", 4: "turn", 5: "river"}[len(self.board)]
