"""The table: seats, the button and hands one after another (`table`), its JSON snapshots with the
hand in progress (`snapshot`), and a cash game's settle-up in the fewest payments (`settleup`)."""

from __future__ import annotations

from holdem.table.table import ButtonRule, Seat, Table

__all__ = ["ButtonRule", "Seat", "Table"]
