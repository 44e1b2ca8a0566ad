"""ACPC protocol 2.0.0 match states: ``MATCHSTATE:position:hand:betting:cards``.

The betting is one string per round joined by ``/``: ``f`` fold, ``c`` check or call, ``r`` raise
(no-limit: ``r`` and the total the raiser has put in over the whole hand, e.g. ``r300``). The cards
are each position's hole cards joined by ``|`` (empty where unknown), then ``/`` and each later
round's board cards. The dealer's log writes the same state as ``STATE:hand:betting:cards`` with
every player's cards. Parsing checks the syntax and the shape against the game (players, rounds,
card counts); `holdem.acpc.bridge` checks the betting by replaying it in the engine.
"""

from __future__ import annotations

import re

import attrs

from holdem.acpc.gamedef import GameDef
from holdem.cards.card import Card, parse_cards
from holdem.errors import HoldemError, ProtocolError

__all__ = [
    "MatchState",
    "Move",
    "format_moves",
    "parse_match_state",
    "parse_moves",
    "parse_response",
    "parse_state_line",
]

Move = tuple[str, int | None]
"""One betting action: ``("f", None)``, ``("c", None)``, ``("r", total)`` (no-limit) or ``("r", None)``."""

_KINDS = {"f": "f", "c": "c", "k": "c", "r": "r"}
_NUMBER = re.compile(r"[0-9]{1,10}")
_CARD = re.compile(r"[2-9TJQKA][cdhs]", re.IGNORECASE)


@attrs.frozen
class MatchState:
    """What one position sees of one hand: its position (0-based), the hand number, the betting
    so far per round, hole cards per position (None where not shown), and the board per round
    (the first round has none). The number of rounds in `betting` and `board` is the same."""

    position: int
    hand: int
    betting: tuple[tuple[Move, ...], ...]
    holes: tuple[tuple[Card, ...] | None, ...]
    board: tuple[tuple[Card, ...], ...]

    def __str__(self) -> str:
        return f"MATCHSTATE:{self.position}:{self.body()}"

    def body(self) -> str:
        """``hand:betting:cards``, shared by MATCHSTATE messages and STATE log lines."""
        holes = "|".join("".join(map(str, cards)) if cards else "" for cards in self.holes)
        board = "".join("/" + "".join(map(str, cards)) for cards in self.board[1:])
        return f"{self.hand}:{format_moves(self.betting)}:{holes}{board}"

    def log_line(self) -> str:
        """The state as the dealer's log writes it: ``STATE:hand:betting:cards``."""
        return f"STATE:{self.body()}"


def format_moves(betting: tuple[tuple[Move, ...], ...]) -> str:
    """The betting string: rounds joined by ``/``."""
    return "/".join(
        "".join(kind + ("" if size is None else str(size)) for kind, size in moves) for moves in betting
    )


def parse_moves(text: str, game: GameDef) -> tuple[tuple[Move, ...], ...]:
    """A betting string as moves per round (``k`` reads as ``c``; kinds in either case)."""
    rounds: list[tuple[Move, ...]] = []
    for part in text.split("/"):
        moves: list[Move] = []
        at = 0
        while at < len(part):
            kind = _KINDS.get(part[at].lower())
            if kind is None:
                raise ProtocolError(f"unknown action {part[at]!r} in betting {text!r}")
            at += 1
            size = None
            if kind == "r" and game.betting == "nolimit":
                number = _NUMBER.match(part, at)
                if number is None:
                    raise ProtocolError(f"a no-limit raise needs its size in betting {text!r}")
                size, at = int(number[0]), number.end()
            moves.append((kind, size))
        rounds.append(tuple(moves))
    if len(rounds) > game.num_rounds:
        raise ProtocolError(f"betting {text!r} has {len(rounds)} rounds; the game has {game.num_rounds}")
    return tuple(rounds)


def _cards(text: str, count: int, what: str) -> tuple[Card, ...]:
    if len(text) != 2 * count or not all(_CARD.fullmatch(text[k : k + 2]) for k in range(0, len(text), 2)):
        raise ProtocolError(f"{what} must be {count} cards like As, got {text!r}")
    try:
        return tuple(parse_cards(text))
    except HoldemError as error:
        raise ProtocolError(f"{what}: {error}") from None


def _parse_body(fields: list[str], position: int, game: GameDef, line: str) -> MatchState:
    hand_text, betting_text, cards_text = fields
    if not _NUMBER.fullmatch(hand_text):
        raise ProtocolError(f"the hand number must be a whole number in {line!r}")
    betting = parse_moves(betting_text, game)
    parts = cards_text.split("/")
    holes_text, board_texts = parts[0], parts[1:]
    if len(board_texts) != len(betting) - 1:
        raise ProtocolError(f"{line!r} shows board cards for {len(board_texts)} rounds after the first; "
                            f"its betting reaches round {len(betting)}")  # fmt: skip
    hole_parts = holes_text.split("|")
    if len(hole_parts) != game.num_players:
        raise ProtocolError(f"{line!r} needs hole cards for {game.num_players} positions, separated by |")
    holes = tuple(
        _cards(part, game.num_hole_cards, f"hole cards of position {p}") if part else None
        for p, part in enumerate(hole_parts)
    )
    board = (
        (),
        *(
            _cards(text, game.num_board_cards[r + 1], f"round {r + 2} board")
            for r, text in enumerate(board_texts)
        ),
    )
    seen = [c for cards in (*holes, *board) if cards for c in cards]
    if len(set(seen)) != len(seen):
        raise ProtocolError(f"a card appears twice in {line!r}")
    return MatchState(position, int(hand_text), betting, holes, board)


def parse_match_state(line: str, game: GameDef) -> MatchState:
    """A ``MATCHSTATE:...`` message (line ends stripped)."""
    text = line.rstrip("\r\n")
    fields = text.split(":")
    if len(fields) != 5 or fields[0] != "MATCHSTATE":
        raise ProtocolError(f"not a match state: {text[:80]!r}")
    if not _NUMBER.fullmatch(fields[1]) or int(fields[1]) >= game.num_players:
        raise ProtocolError(f"no position {fields[1]!r} in a game of {game.num_players}")
    return _parse_body(fields[2:], int(fields[1]), game, text)


def parse_state_line(line: str, game: GameDef) -> MatchState:
    """A dealer log's ``STATE:hand:betting:cards`` (values and names after it are ignored); the
    position is 0, and every player's cards are as logged."""
    fields = line.rstrip("\r\n").split(":")
    if len(fields) < 4 or fields[0] != "STATE":
        raise ProtocolError(f"not a STATE line: {line[:80]!r}")
    return _parse_body(fields[1:4], 0, game, line.strip())


def parse_response(line: str, game: GameDef) -> tuple[MatchState, Move]:
    """A player's reply: the match state it answers, ``:``, and one action."""
    text = line.rstrip("\r\n")
    head, sep, action = text.rpartition(":")
    if not sep:
        raise ProtocolError(f"not a response: {text[:80]!r}")
    state = parse_match_state(head, game)
    moves = parse_moves(action, game)
    if len(moves) != 1 or len(moves[0]) != 1:
        raise ProtocolError(f"a response ends with one action, got {action!r}")
    return state, moves[0][0]
