"""The table: seats, the button and hands one after another (`table`), its JSON snapshots with the
hand in progress (`snapshot`), and a cash game's settle-up in the fewest payments (`settleup`)."""

from __future__ import annotations

from typing import Any

from holdem.table.table import ButtonRule, Seat, Table

__all__ = ["ButtonRule", "Seat", "Table"]


def __getattr__(name: str) -> Any:
    """0.1"s names this package does not hold, with a warning naming where they are (`holdem._moved`)."""
    from holdem._moved import moved_name

    return moved_name("holdem.table", name)
