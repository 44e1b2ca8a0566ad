"""ACPC game definitions (the ``GAMEDEF`` text format) and what they mean for the engine.

A game definition names the betting (``limit`` or ``nolimit``), the players, rounds, stacks, blinds
by position, fixed raise sizes, the first player of each round, the raise caps, and the deck and
deal. Hold'em is four rounds dealing 0, 3, 1 and 1 board cards from 4 suits of 13 ranks, two hole
cards each; anything else is refused with a `GameDefError` naming the line. Positions are the
engine's dealing order: position 0 is left of the dealer, the dealer is last.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import attrs

from holdem.errors import GameDefError
from holdem.hand.stakes import Rules, Stakes, Structure

__all__ = ["NO_STACK", "SHIPPED_GAMES", "GameDef", "load_gamedef", "parse_gamedef"]

NO_STACK = 2**31 - 1
"""The stack of a game without a ``stack`` line (the reference dealer's INT32_MAX)."""

SHIPPED_GAMES = Path(__file__).with_name("games")
"""The standard hold'em games, shipped: ``holdem.{limit,nolimit}.{2p.reverse_blinds,3p}.game``."""

_LISTS = {"stack", "blind", "raisesize", "firstplayer", "maxraises", "numboardcards"}
_NUMBERS = {"numplayers", "numrounds", "numsuits", "numranks", "numholecards"}
_NAMES = {
    "stack": "stack", "blind": "blind", "raisesize": "raiseSize", "firstplayer": "firstPlayer",
    "maxraises": "maxRaises", "numboardcards": "numBoardCards", "numplayers": "numPlayers",
    "numrounds": "numRounds", "numsuits": "numSuits", "numranks": "numRanks",
    "numholecards": "numHoleCards",
}  # fmt: skip


@attrs.frozen
class GameDef:
    """One ACPC game: the fields of the GAMEDEF format (`first_player` 1-based, as written)."""

    betting: Literal["limit", "nolimit"]
    num_players: int
    blind: tuple[int, ...]
    first_player: tuple[int, ...]
    stack: tuple[int, ...] | None = None
    raise_size: tuple[int, ...] | None = None
    max_raises: tuple[int, ...] | None = None
    num_rounds: int = 4
    num_suits: int = 4
    num_ranks: int = 13
    num_hole_cards: int = 2
    num_board_cards: tuple[int, ...] = (0, 3, 1, 1)

    def __attrs_post_init__(self) -> None:
        n = self.num_players
        if not 2 <= n <= 10:
            raise GameDefError(f"numPlayers must be 2 to 10 for hold'em, got {n}")
        shape = (self.num_rounds, self.num_suits, self.num_ranks, self.num_hole_cards)
        if shape != (4, 4, 13, 2) or self.num_board_cards != (0, 3, 1, 1):
            raise GameDefError(
                "not hold'em: it needs numRounds = 4, numSuits = 4, numRanks = 13, numHoleCards = 2 "
                f"and numBoardCards = 0 3 1 1, got {shape[0]}, {shape[1]}, {shape[2]}, {shape[3]} and "
                f"{' '.join(map(str, self.num_board_cards))}"
            )
        if len(self.blind) != n or any(b < 0 for b in self.blind) or not any(self.blind):
            raise GameDefError(f"blind needs {n} non-negative amounts, not all zero, got {list(self.blind)}")
        stacks = self.stacks()
        if len(stacks) != n or any(s <= 0 for s in stacks):
            raise GameDefError(f"stack needs {n} positive amounts, got {list(stacks)}")
        if any(b > s for b, s in zip(self.blind, stacks, strict=True)):
            raise GameDefError("a blind is larger than its player's stack")
        if len(self.first_player) != 4 or not all(1 <= p <= n for p in self.first_player):
            raise GameDefError(f"firstPlayer needs 4 positions from 1 to {n}, got {list(self.first_player)}")
        if self.first_player[1:] != (1, 1, 1):
            raise GameDefError(
                "hold'em starts every round after the first with position 1 (left of the dealer); "
                f"got firstPlayer = {' '.join(map(str, self.first_player))}"
            )
        if self.max_raises is not None and (len(self.max_raises) != 4 or min(self.max_raises) < 0):
            raise GameDefError(f"maxRaises needs 4 non-negative counts, got {list(self.max_raises)}")
        if self.betting == "limit":
            sizes = self.raise_size
            if sizes is None or len(sizes) != 4 or min(sizes) <= 0:
                raise GameDefError("a limit game needs raiseSize with 4 positive amounts")
            if sizes[0] != sizes[1] or sizes[2] != sizes[3]:
                raise GameDefError(
                    "fixed-limit hold'em raises one size on the first two rounds and another on the "
                    f"last two; got raiseSize = {' '.join(map(str, sizes))}"
                )
        elif self.raise_size is not None:
            raise GameDefError("raiseSize belongs to limit games")

    # ------------------------------------------------------------ for the engine
    def stacks(self) -> list[int]:
        """Each position's starting stack (a game without stacks: the dealer's INT32_MAX)."""
        return list(self.stack) if self.stack is not None else [NO_STACK] * self.num_players

    def stakes(self) -> Stakes:
        """The engine's stakes: the largest blind is the big blind, the next the small blind."""
        big, small = [*sorted(self.blind, reverse=True), 0][:2]
        if self.betting == "nolimit":
            return Stakes(small, big)
        assert self.raise_size is not None
        return Stakes(
            small,
            big,
            structure=Structure.FIXED_LIMIT,
            small_bet=self.raise_size[0],
            big_bet=self.raise_size[2],
        )

    def rules(self) -> Rules:
        """The `acpc` rules profile with this game's raise caps."""
        return Rules.acpc(self.max_raises)

    @property
    def first_to_act(self) -> int:
        """The position that acts first before the flop (0-based)."""
        return self.first_player[0] - 1

    # ------------------------------------------------------------ writing
    def to_text(self) -> str:
        """The GAMEDEF text (reads back to an equal `GameDef`)."""
        lines = [
            "GAMEDEF",
            self.betting,
            f"numPlayers = {self.num_players}",
            f"numRounds = {self.num_rounds}",
        ]
        if self.stack is not None:
            lines.append(f"stack = {_join(self.stack)}")
        lines.append(f"blind = {_join(self.blind)}")
        if self.raise_size is not None:
            lines.append(f"raiseSize = {_join(self.raise_size)}")
        lines.append(f"firstPlayer = {_join(self.first_player)}")
        if self.max_raises is not None:
            lines.append(f"maxRaises = {_join(self.max_raises)}")
        lines += [
            f"numSuits = {self.num_suits}",
            f"numRanks = {self.num_ranks}",
            f"numHoleCards = {self.num_hole_cards}",
            f"numBoardCards = {_join(self.num_board_cards)}",
            "END GAMEDEF",
        ]
        return "\n".join(lines) + "\n"


def _join(values: tuple[int, ...]) -> str:
    return " ".join(map(str, values))


def parse_gamedef(text: str) -> GameDef:
    """Read a GAMEDEF text; a `GameDefError` names what is wrong."""
    if not isinstance(text, str):
        raise GameDefError(f"a game definition is text, got {type(text).__name__}")
    fields: dict[str, tuple[int, ...]] = {}
    betting: Literal["limit", "nolimit"] | None = None
    ended = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        lower = line.lower()
        if lower == "gamedef":
            continue
        if lower == "end gamedef":
            ended = True
            break
        if lower == "limit" or lower == "nolimit":
            betting = "limit" if lower == "limit" else "nolimit"
            continue
        key, *values = lower.replace("=", " ", 1).split()
        rest = " ".join(values)
        if key not in _LISTS | _NUMBERS:
            raise GameDefError(f"line {number}: unknown GAMEDEF line {raw.strip()!r}")
        if not values or not all(v.isdecimal() and v.isascii() and len(v) <= 10 for v in values):
            raise GameDefError(f"line {number}: {_NAMES[key]} needs whole numbers, got {rest!r}")
        if key in _NUMBERS and len(values) != 1:
            raise GameDefError(f"line {number}: {_NAMES[key]} takes one number, got {rest!r}")
        fields[key] = tuple(int(v) for v in values)
    if not ended:
        raise GameDefError("the game definition has no END GAMEDEF line")
    if betting is None:
        raise GameDefError("the game definition says neither limit nor nolimit")
    for key in ("numplayers", "blind"):
        if key not in fields:
            raise GameDefError(f"the game definition has no {_NAMES[key]} line")
    n = fields["numplayers"][0]

    def listed(key: str, size: int) -> tuple[int, ...] | None:
        """A list field, cut to `size` entries as the reference dealer reads it."""
        return fields[key][:size] if key in fields else None

    def single(key: str) -> int:
        return fields[key][0] if key in fields else 0

    return GameDef(
        betting=betting,
        num_players=n,
        blind=fields["blind"][:n],
        first_player=listed("firstplayer", 4) or (1, 1, 1, 1),
        stack=listed("stack", n),
        raise_size=listed("raisesize", 4),
        max_raises=listed("maxraises", 4),
        num_rounds=single("numrounds"),
        num_suits=single("numsuits"),
        num_ranks=single("numranks"),
        num_hole_cards=single("numholecards"),
        num_board_cards=listed("numboardcards", 4) or (),
    )


def load_gamedef(path: str | Path) -> GameDef:
    """Read a .game file (or a shipped game by its file name, e.g. ``holdem.nolimit.3p.game``)."""
    where = Path(path)
    if not where.exists() and (SHIPPED_GAMES / where.name).exists() and where.parent == Path():
        where = SHIPPED_GAMES / where.name
    if not where.exists():
        shipped = ", ".join(sorted(p.name for p in SHIPPED_GAMES.glob("*.game")))
        raise GameDefError(f"no game definition {str(path)!r}: give a .game file, or one of {shipped}")
    try:
        text = where.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise GameDefError(f"cannot read game definition {str(path)!r}: {error}") from None
    try:
        return parse_gamedef(text)
    except GameDefError as error:
        raise GameDefError(f"{where.name}: {error}") from None
