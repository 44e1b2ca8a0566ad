"""The players' statistics at a served table, from its stored hands (`holdem.stats`).

Counted by person, never by name: each hand's players are told apart by the digests of their tokens
(stored with the hand), so two people who used one name are two lines ("Ann (hands 1-9)" and "ann
(hands 12-30)"); where one person alone used a name, the line is the name.

Counted once: each table's counts are kept, and a request counts only the hands stored since the
last one. Run on the hub's reading thread (`Hub.read`), so requests for one table never count the
same hand twice.
"""

from __future__ import annotations

from typing import Any

import attrs

from holdem.errors import HoldemError
from holdem.formats import phh
from holdem.server.room import person_id
from holdem.stats import Collection, PlayerStats
from holdem.stats.sources import Skipped

__all__ = ["TABLES_KEPT", "TableStats"]

TABLES_KEPT = 64
"""Tables whose counts stay in memory (the least recently asked go first; counted again if asked)."""
_PAGE = 1000


@attrs.define
class _Counted:
    """A table's counts: the last hand counted, the counts keyed by person, and each person's name
    and the first and last hands they were dealt into."""

    last: int = 0
    collection: Collection = attrs.Factory(Collection)
    people: dict[str, list[Any]] = attrs.Factory(dict)  # key -> [name, first hand, last hand]


class TableStats:
    """Each table's counts so far, and the number of the last hand counted."""

    def __init__(self) -> None:
        self.tables: dict[str, _Counted] = {}

    def report(self, reads: Any, ident: str, by_position: bool = False) -> tuple[int, list[PlayerStats]]:
        """The hands counted and each person's statistics at table `ident`, over every hand stored
        so far (`reads` is the hub's reading storage); worked out on the reading thread, so that
        no request reads the counts while another adds to them."""
        counted = self._update(reads, ident)
        labels = _labels(counted.people)
        rows = counted.collection.players(by_position=by_position)
        return counted.collection.hands, [attrs.evolve(row, player=labels[row.player]) for row in rows]

    def _update(self, reads: Any, ident: str) -> _Counted:
        counted = self.tables.pop(ident, None) or _Counted()
        while True:
            rows = reads.hands(ident, counted.last, _PAGE)
            dealt = reads.dealt(ident, counted.last, rows[-1][0]) if rows else {}
            for number, text in rows:
                _count(counted, number, text, dealt.get(number, ()))
                counted.last = number
            if len(rows) < _PAGE:
                break
        self.tables[ident] = counted
        while len(self.tables) > TABLES_KEPT:
            del self.tables[next(iter(self.tables))]
        return counted


def _count(counted: _Counted, number: int, text: str, tokens: tuple[str, ...]) -> None:
    """Count hand `number` with each player keyed by their person (by name where the hand was stored
    without its players' tokens)."""
    try:
        (doc,) = phh.loads(text)
    except HoldemError as error:  # pragma: no cover - the server wrote it
        counted.collection.skipped.append(Skipped(f"hand {number}", str(error)))
        return
    names = [str(name) for name in doc.get("players", [])]
    if len(tokens) != len(names):
        tokens = ("",) * len(names)
    keys = [f"{name.casefold()} {person_id(token)}" for name, token in zip(names, tokens, strict=True)]
    if counted.collection.add_document(doc | {"players": keys}, f"hand {number}"):
        for key, name in zip(keys, names, strict=True):
            counted.people.setdefault(key, [name, number, number])[2] = number


def _labels(people: dict[str, list[Any]]) -> dict[str, str]:
    """Each person's line: the name, or where two people used one name (compared without case), the
    name and the hands they were dealt into."""
    shared: dict[str, int] = {}
    for name, _, _ in people.values():
        shared[name.casefold()] = shared.get(name.casefold(), 0) + 1
    return {
        key: name if shared[name.casefold()] == 1 else f"{name} (hands {first}-{last})"
        for key, (name, first, last) in people.items()
    }
