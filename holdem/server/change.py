"""What a request changes besides a room's state, to be stored with it: chip movements (the ledger)
and finished hands."""

from __future__ import annotations

import warnings
from typing import NamedTuple

import attrs

__all__ = ["Change", "LedgerRow", "StoredHand"]


class LedgerRow(NamedTuple):
    """A chip movement: its sequence number, the hand number, the seat (-1 for a tournament's own rows),
    the player's name, its kind ("buy_in", "rebuy" or "cash_out"; a tournament's "buy_in", "refund" or
    "prize"), the chips, and the person: the digest of their token ("" in rows stored before it was
    kept). The person, never the name, says whose chips these are: a later holder of a name is
    somebody else."""

    seq: int
    hand: int
    seat: int
    name: str
    kind: str
    chips: int
    person: str = ""


class StoredHand(NamedTuple):
    """A finished hand as stored: its number, its PHH, and the digests of the tokens of the players
    dealt in, in the PHH's player order. What a player may see of a stored hand is decided by these
    digests, never by a name (a later holder of the same name is somebody else)."""

    number: int
    phh: str
    digests: tuple[str, ...] = ()

    @property
    def tokens(self) -> tuple[str, ...]:
        """0.1's name for `digests`; warns, and goes in 0.3."""
        warnings.warn(
            "StoredHand.tokens is now StoredHand.digests; tokens goes in 0.3",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.digests


@attrs.define
class Change:
    """What a request changed besides the room's state: chip movements and finished hands (PHH)."""

    ledger: list[LedgerRow] = attrs.Factory(list)
    hands: list[StoredHand] = attrs.Factory(list)
