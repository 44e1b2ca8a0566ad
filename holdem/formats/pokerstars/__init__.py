"""PokerStars hand histories: PHH documents written as PokerStars text, and PokerStars files read
into PHH documents (replayed through the engine and checked against the file's amounts).

Amounts with a currency (``$0.25/$0.50``) are whole cents in PHH (with ``currency``); tournament
chips stay as they are. ``holdem convert`` is the command line for both directions.
"""

from __future__ import annotations

from holdem.formats.pokerstars.read import Imported, other_games, read_hands
from holdem.formats.pokerstars.write import write_hand

__all__ = ["Imported", "other_games", "read_hands", "write_hand"]
