"""The players' statistics at a served table, from its stored hands (`holdem.stats`).

Counted once: each table's counts are kept, and a request counts only the hands stored since the
last one. Run on the hub's reading thread (`Hub.read`), so requests for one table never count the
same hand twice.
"""

from __future__ import annotations

from typing import Any

from holdem.errors import HoldemError
from holdem.formats import phh
from holdem.stats import Collection, PlayerStats
from holdem.stats.sources import Skipped

__all__ = ["TABLES_KEPT", "TableStats"]

TABLES_KEPT = 64
"""Tables whose counts stay in memory (the least recently asked go first; counted again if asked)."""
_PAGE = 1000


class TableStats:
    """Each table's counts so far, and the number of the last hand counted."""

    def __init__(self) -> None:
        self.tables: dict[str, tuple[int, Collection]] = {}

    def report(self, reads: Any, ident: str, by_position: bool = False) -> tuple[int, list[PlayerStats]]:
        """The hands counted and each player's statistics at table `ident`, over every hand stored
        so far (`reads` is the hub's reading storage); worked out on the reading thread, so that
        no request reads the counts while another adds to them."""
        collection = self._update(reads, ident)
        return collection.hands, collection.players(by_position=by_position)

    def _update(self, reads: Any, ident: str) -> Collection:
        last, collection = self.tables.pop(ident, (0, Collection()))
        while True:
            rows = reads.hands(ident, last, _PAGE)
            for number, text in rows:
                try:
                    (doc,) = phh.loads(text)
                except HoldemError as error:  # pragma: no cover - the server wrote it
                    collection.skipped.append(Skipped(f"hand {number}", str(error)))
                else:
                    collection.add_document(doc, f"hand {number}")
                last = number
            if len(rows) < _PAGE:
                break
        self.tables[ident] = (last, collection)
        while len(self.tables) > TABLES_KEPT:
            del self.tables[next(iter(self.tables))]
        return collection
