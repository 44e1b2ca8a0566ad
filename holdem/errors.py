"""The exception tree: everything the library raises derives from `HoldemError`."""

from __future__ import annotations

__all__ = [
    "BotLoadError",
    "CardCountError",
    "ClientError",
    "DealerError",
    "DuplicateCardError",
    "EmptyDeckError",
    "GameDefError",
    "HandOverError",
    "HoldemError",
    "IllegalActionError",
    "ImpossibleSpotError",
    "InvalidAmountError",
    "InvalidCardError",
    "InvalidConfigError",
    "InvalidHistoryError",
    "InvalidPlayerError",
    "InvalidRangeError",
    "InvariantError",
    "LeaseLost",
    "NotFoundError",
    "NotYourTurnError",
    "ProtocolError",
    "RefusedError",
    "RequestError",
    "SnapshotError",
    "SolverError",
    "StructureError",
    "TableError",
]


class HoldemError(Exception):
    """Base of every error raised by `holdem`."""


class InvalidCardError(HoldemError, ValueError):
    """A card (or card list) could not be parsed or is out of range."""


class DuplicateCardError(InvalidCardError):
    """The same card appears twice where cards must be distinct."""


class CardCountError(InvalidCardError):
    """Good cards, but not as many as asked for (a hand is 5 to 7 cards); an `InvalidCardError`, as
    it was before it had its own name."""


class InvalidRangeError(HoldemError, ValueError):
    """A hand range in standard notation could not be parsed."""


class ImpossibleSpotError(HoldemError, ValueError):
    """No combination of cards is consistent with the given holdings, board and dead cards."""


class IllegalActionError(HoldemError, ValueError):
    """An action the rules do not allow now; the hand is left exactly as it was."""


class NotYourTurnError(IllegalActionError):
    """An action from a player who is not the one to act."""


class InvalidAmountError(IllegalActionError):
    """A bet or raise amount that is not an allowed raise-to total (too small, too large, not an int)."""


class HandOverError(IllegalActionError):
    """An action sent to a hand that is already complete."""


class InvalidConfigError(HoldemError, ValueError):
    """Stakes, stacks or options that cannot start a hand."""


class InvalidHistoryError(HoldemError, ValueError):
    """A hand history (PHH) that is malformed or breaks the rules; the message names the action."""


class SnapshotError(HoldemError, ValueError):
    """A JSON snapshot that cannot be restored."""


class InvalidPlayerError(HoldemError, ValueError):
    """A player number that is not a player of the hand (not a whole number, or out of range)."""


class EmptyDeckError(HoldemError):
    """More cards were asked of the deck than it holds."""


class TableError(HoldemError, ValueError):
    """A table operation that is not allowed now (seat taken, hand in progress, …)."""


class BotLoadError(HoldemError, ValueError):
    """A bot that cannot be found or built."""


class SolverError(HoldemError, ValueError):
    """A postflop spot, tree or solution that cannot be solved or read (bad size, too large, …)."""


class LeaseLost(HoldemError):
    """A write for a room whose lease this process no longer holds (another process took it over)."""

    def __init__(self, room: str) -> None:
        super().__init__(f"table {room} is served by another process now")
        self.room = room


class RequestError(HoldemError, ValueError):
    """A request the server refuses, having changed nothing; `status` is its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class NotFoundError(RequestError):
    """A request for a table, tournament, seat, player or hand that does not exist (HTTP 404)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 404)


class RefusedError(HoldemError, ValueError):
    """A request that a table's or a tournament's state does not allow now (a seat taken, a game
    ended, registration closed); nothing was changed. The server answers it with HTTP 409."""


class ProtocolError(InvalidConfigError):
    """A message that is not a well-formed ACPC match state (or action) for the game."""


class ClientError(HoldemError):
    """The dealer could not be reached or sent something that is not a match state of the game."""


class DealerError(HoldemError):
    """The match cannot go on: a player left, ran out of time, or never connected."""


class GameDefError(InvalidConfigError):
    """A game definition that cannot be read, or that hold'em cannot represent."""


class StructureError(InvalidConfigError):
    """A structure that cannot be played: the message names the level and what is wrong."""


class InvariantError(HoldemError, AssertionError):
    """A hand's state breaks an invariant: a bug in the engine, never a player's mistake."""
