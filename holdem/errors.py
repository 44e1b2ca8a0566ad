"""The exception tree: everything the library raises derives from `HoldemError`."""

from __future__ import annotations

__all__ = [
    "DuplicateCardError",
    "HoldemError",
    "ImpossibleSpotError",
    "InvalidCardError",
    "InvalidRangeError",
]


class HoldemError(Exception):
    """Base of every error raised by `holdem`."""


class InvalidCardError(HoldemError, ValueError):
    """A card (or card list) could not be parsed or is out of range."""


class DuplicateCardError(InvalidCardError):
    """The same card appears twice where cards must be distinct."""


class InvalidRangeError(HoldemError, ValueError):
    """A hand range in standard notation could not be parsed."""


class ImpossibleSpotError(HoldemError, ValueError):
    """No combination of cards is consistent with the given holdings, board and dead cards."""
