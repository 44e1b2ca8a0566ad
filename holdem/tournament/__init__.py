"""Tournaments: structures (levels on the tournament clock), payouts, and ICM equity.

Import explicitly: ``from holdem.tournament import icm, prizes, load_structure``.
"""

from holdem.tournament.icm import ICMResult, icm
from holdem.tournament.payouts import payout_shares, prizes
from holdem.tournament.structure import SHIPPED, Level, Structure, StructureError, load_structure

__all__ = [
    "SHIPPED",
    "ICMResult",
    "Level",
    "Structure",
    "StructureError",
    "icm",
    "load_structure",
    "payout_shares",
    "prizes",
]
