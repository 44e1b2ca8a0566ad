"""Player statistics from hand histories: VPIP, PFR, 3-bets, continuation bets, aggression,
showdowns and winnings, per player and position, as the trackers count them.

`facts` reads what a hand says about its players, `tally` counts it, `report` turns the counts
into rates, tables and JSON, `sources` reads files of every format, `collect` gathers it all
(`read` for files, `Collection` for hands as they come), and `commands` is ``holdem stats``.
"""

from __future__ import annotations

from typing import Any

from holdem.stats.collect import Collection, read
from holdem.stats.facts import HandFacts, facts_from_document, facts_from_hand
from holdem.stats.report import PlayerStats, Rate
from holdem.stats.tally import COUNTS, STATISTICS, Counts, Statistic, tally

__all__ = [
    "COUNTS", "STATISTICS", "Collection", "Counts", "HandFacts", "PlayerStats", "Rate", "Statistic",
    "facts_from_document", "facts_from_hand", "read", "tally",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    """0.1"s names this package does not hold, with a warning naming where they are (`holdem._moved`)."""
    from holdem._moved import moved_name

    return moved_name("holdem.stats", name)
