"""Where rooms live between restarts: SQLite (the standard library's) or PostgreSQL (psycopg), one schema.

Three tables: ``rooms`` (each room's whole state as JSON, replaced on every change), ``hands``
(each finished hand's PHH) and ``ledger`` (every buy-in, rebuy and cash-out). `commit` writes
many rooms' changes in one transaction, so that the server can group the changes that arrive
together into one durable write (SQLite in WAL mode with ``synchronous=FULL``; PostgreSQL with
its default synchronous commit). A `Storage` is used from one thread at a time.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from holdem.errors import HoldemError
from holdem.server.room import LedgerRow

__all__ = ["SCHEMA", "Storage", "Write", "open_storage"]

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, state TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hands (room TEXT NOT NULL, number BIGINT NOT NULL, phh TEXT NOT NULL,"
    " PRIMARY KEY (room, number))",
    "CREATE TABLE IF NOT EXISTS ledger (room TEXT NOT NULL, seq BIGINT NOT NULL, hand BIGINT NOT NULL,"
    " seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, chips BIGINT NOT NULL,"
    " PRIMARY KEY (room, seq))",
)

Write = tuple[str, str, Sequence[tuple[int, str]], Sequence[LedgerRow]]
"""One room's change: (room id, its state as JSON, finished hands as (number, PHH), ledger rows)."""


class _Connection(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
    def close(self) -> None: ...


class Storage:
    """Rooms, hands and the ledger in a SQL database (`open_storage` makes one from a URL)."""

    def __init__(self, connection: _Connection, placeholder: str, url: str) -> None:
        self._db = connection
        self._mark = placeholder
        self.url = url
        for statement in SCHEMA:
            self._db.execute(statement)
        self._db.commit()

    def _sql(self, sql: str) -> str:
        return sql.replace("?", self._mark)

    def commit(self, writes: Sequence[Write]) -> None:
        """Store these changes in one transaction: all of them, or (on an error) none."""
        try:
            for room, state, hands, ledger in writes:
                self._db.execute(
                    self._sql(
                        "INSERT INTO rooms (id, state) VALUES (?, ?)"
                        " ON CONFLICT (id) DO UPDATE SET state = excluded.state"
                    ),
                    (room, state),
                )
                for number, text in hands:
                    self._db.execute(
                        self._sql("INSERT INTO hands (room, number, phh) VALUES (?, ?, ?)"),
                        (room, number, text),
                    )
                for row in ledger:
                    self._db.execute(
                        self._sql(
                            "INSERT INTO ledger (room, seq, hand, seat, name, kind, chips)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?)"
                        ),
                        (room, *row),
                    )
            self._db.commit()
        except BaseException:
            self._db.rollback()
            raise

    def rooms(self) -> list[tuple[str, str]]:
        """Every stored room: (id, state JSON)."""
        rows = self._db.execute("SELECT id, state FROM rooms ORDER BY id").fetchall()
        self._db.commit()
        return [(str(ident), str(state)) for ident, state in rows]

    def room(self, ident: str) -> str | None:
        row = self._db.execute(self._sql("SELECT state FROM rooms WHERE id = ?"), (ident,)).fetchone()
        self._db.commit()  # end the read transaction (PostgreSQL opens one)
        return None if row is None else str(row[0])

    def hands(self, room: str, after: int = 0, limit: int = 1000) -> list[tuple[int, str]]:
        """Finished hands of `room` numbered above `after`, oldest first: (number, PHH text)."""
        rows = self._db.execute(
            self._sql("SELECT number, phh FROM hands WHERE room = ? AND number > ? ORDER BY number LIMIT ?"),
            (room, after, limit),
        ).fetchall()
        self._db.commit()
        return [(int(n), str(text)) for n, text in rows]

    def ledger(self, room: str) -> list[LedgerRow]:
        rows = self._db.execute(
            self._sql("SELECT seq, hand, seat, name, kind, chips FROM ledger WHERE room = ? ORDER BY seq"),
            (room,),
        ).fetchall()
        self._db.commit()
        return [(int(a), int(b), int(c), str(d), str(e), int(f)) for a, b, c, d, e, f in rows]

    def close(self) -> None:
        self._db.close()


def open_storage(url: str) -> Storage:
    """``sqlite:///PATH`` (a relative path; ``sqlite:////abs/path`` for an absolute one) or
    ``postgresql://user@host:port/db``."""
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        if not path.parent.is_dir():
            raise HoldemError(f"cannot open {url}: folder {str(path.parent)!r} does not exist")
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("BEGIN")
        except sqlite3.Error as error:
            raise HoldemError(f"cannot open {url}: {error}") from None
        return Storage(_SQLite(db), "?", url)
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg
        except ImportError:
            raise HoldemError(
                "a PostgreSQL database needs psycopg: pip install 'holdem-engine[server]'"
            ) from None
        try:
            connection = psycopg.connect(url)
        except psycopg.Error as error:
            raise HoldemError(f"cannot connect to {url}: {error}".strip()) from None
        return Storage(connection, "%s", url)
    raise HoldemError(f"--db must be sqlite:///PATH or postgresql://…, got {url!r}")


class _SQLite:
    """A SQLite connection with explicit transactions (BEGIN … COMMIT), shaped like psycopg's."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self._db.execute(sql, params)

    def commit(self) -> None:
        self._db.execute("COMMIT")
        self._db.execute("BEGIN")

    def rollback(self) -> None:
        self._db.execute("ROLLBACK")
        self._db.execute("BEGIN")

    def close(self) -> None:
        self._db.execute("ROLLBACK")
        self._db.close()
