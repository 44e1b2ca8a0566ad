"""Tournaments: structures (levels on the tournament clock), payouts, and ICM equity.

Import explicitly: ``from holdem.tournament import icm, prizes, load_structure``.
"""

from typing import Any

from holdem.errors import StructureError
from holdem.tournament.icm import ICMResult, icm
from holdem.tournament.payouts import payout_shares, prizes
from holdem.tournament.structure import SHIPPED, BlindStructure, Level, load_structure

__all__ = [
    "SHIPPED",
    "BlindStructure",
    "ICMResult",
    "Level",
    "StructureError",
    "icm",
    "load_structure",
    "payout_shares",
    "prizes",
]


def __getattr__(name: str) -> Any:
    """`Structure`, `BlindStructure`'s old name, with a DeprecationWarning (for a release)."""
    if name == "Structure":
        from holdem.tournament import structure

        return getattr(structure, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
