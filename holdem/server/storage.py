"""Where rooms live between restarts: SQLite (the standard library's) or PostgreSQL (psycopg), one schema.

Six tables: ``rooms`` (each room's whole state as JSON, replaced on every change), ``hands``
(each finished hand's PHH), ``dealt`` (the token digest of each player dealt into a stored hand:
what decides who may see it), ``ledger`` (every buy-in, rebuy and cash-out) and ``leases`` (which
process serves each room, with ``--cluster``: `holdem.server.cluster`), and ``asked`` (what each
address made lately, so that every process of a cluster counts it against one window). `commit` writes
many rooms' changes in one transaction, so that the server can group the changes that arrive
together into one durable write (SQLite in WAL mode with ``synchronous=FULL``; PostgreSQL with
its default synchronous commit). A `Storage` is used from one thread at a time.
"""

from __future__ import annotations

import asyncio
import sqlite3
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from holdem.console.arguments import install_hint
from holdem.errors import HoldemError, LeaseLost
from holdem.server.change import LedgerRow, StoredHand

__all__ = [
    "LOCK_TIMEOUT",
    "SCHEMA",
    "STATEMENT_TIMEOUT",
    "Database",
    "Lease",
    "Storage",
    "Write",
    "Writer",
    "lease_key",
    "open_storage",
]

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, state TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hands (room TEXT NOT NULL, number BIGINT NOT NULL, phh TEXT NOT NULL,"
    " PRIMARY KEY (room, number))",
    "CREATE TABLE IF NOT EXISTS ledger (room TEXT NOT NULL, seq BIGINT NOT NULL, hand BIGINT NOT NULL,"
    " seat INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, chips BIGINT NOT NULL,"
    " person TEXT NOT NULL DEFAULT '', PRIMARY KEY (room, seq))",
    "CREATE TABLE IF NOT EXISTS leases (room TEXT PRIMARY KEY, owner TEXT NOT NULL, address TEXT NOT NULL,"
    " epoch BIGINT NOT NULL, expires DOUBLE PRECISION NOT NULL)",
    "CREATE TABLE IF NOT EXISTS dealt (room TEXT NOT NULL, number BIGINT NOT NULL, player INTEGER NOT NULL,"
    " token TEXT NOT NULL, PRIMARY KEY (room, number, player))",  # `token` holds a digest (kept from 0.1)
    "CREATE INDEX IF NOT EXISTS dealt_token ON dealt (room, token)",
    "CREATE TABLE IF NOT EXISTS asked (kind TEXT NOT NULL, address TEXT NOT NULL,"
    " at DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX IF NOT EXISTS asked_by ON asked (kind, address, at)",
)

SCHEMA_LOCK = 0x686F6C64656D  # "holdem": PostgreSQL's advisory lock held while the schema is made

LOCK_TIMEOUT = "3s"
"""How long a write of ours waits for a row another session holds (PostgreSQL's ``lock_timeout``):
then the change is refused, nothing is stored, and the table goes on serving."""
STATEMENT_TIMEOUT = "10s"
"""The longest any one statement of ours may run (PostgreSQL's ``statement_timeout``)."""

Write = tuple[str, str, Sequence[StoredHand | tuple[int, str]], Sequence[LedgerRow]]
"""One room's change: (room id, its state as JSON, finished hands (`StoredHand`; a bare (number, PHH)
has nobody's digests), ledger rows)."""


Lease = tuple[str, str, int, float]
"""Who serves a room: (owner, its address, the lease's epoch, seconds until it expires)."""


def lease_key(room: str) -> str:
    """Whose lease covers `room`: its own, or its tournament's (a tournament's tables are ``ID-N``)."""
    return room.partition("-")[0]


class _Connection(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
    def close(self) -> None: ...


class Storage:
    """Rooms, hands and the ledger in a SQL database (`open_storage` makes one from a URL)."""

    def __init__(self, connection: _Connection, placeholder: str, url: str, now: str) -> None:
        self._db = connection
        self._mark = placeholder
        self._now = now  # the database's clock, in seconds: leases expire by one clock for all
        self.url = url
        self.owner: str | None = None  # set when rooms are leased: writes are fenced by epoch
        self.ttl = 0.0
        self.epochs: dict[str, int] = {}
        self._taken = 0
        self._make_schema()

    def _make_schema(self) -> None:
        """Create the tables that are missing, safe when many processes start at once on a new
        database: PostgreSQL's ``CREATE TABLE IF NOT EXISTS`` is not (two can both find a table missing,
        and one fails on the catalogue's unique index), so each takes a transaction-scoped advisory
        lock first; SQLite's writers take turns by themselves."""
        try:
            if self._mark == "%s":
                self._db.execute(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
            for statement in SCHEMA:
                self._db.execute(statement)
            self._add_person_column()
            self._db.commit()
        except BaseException:
            self._db.rollback()
            raise

    def _add_person_column(self) -> None:
        """A database made before the ledger kept each row's person (0.1) gets the column, empty."""
        if self._mark == "%s":
            self._db.execute("ALTER TABLE ledger ADD COLUMN IF NOT EXISTS person TEXT NOT NULL DEFAULT ''")
            return
        columns = [row[1] for row in self._db.execute("PRAGMA table_info(ledger)").fetchall()]
        if "person" not in columns:
            self._db.execute("ALTER TABLE ledger ADD COLUMN person TEXT NOT NULL DEFAULT ''")

    def _sql(self, sql: str) -> str:
        return sql.replace("?", self._mark)

    def commit(self, writes: Sequence[Write]) -> None:
        """Store these changes in one transaction: all of them, or (on an error) none."""
        try:
            for room, state, hands, ledger in writes:
                if self.owner is not None:  # the fence: this process still holds the room's lease
                    key = lease_key(room)
                    held = self._db.execute(
                        self._sql(f"UPDATE leases SET expires = {self._now} + ? WHERE room = ? AND owner = ?"
                                  " AND epoch = ?"),
                        (self.ttl, key, self.owner, self.epochs.get(key, -1)),
                    )  # fmt: skip
                    if held.rowcount != 1:
                        raise LeaseLost(room)
                self._db.execute(
                    self._sql(
                        "INSERT INTO rooms (id, state) VALUES (?, ?)"
                        " ON CONFLICT (id) DO UPDATE SET state = excluded.state"
                    ),
                    (room, state),
                )
                for number, text, *digests in hands:
                    self._db.execute(
                        self._sql("INSERT INTO hands (room, number, phh) VALUES (?, ?, ?)"),
                        (room, number, text),
                    )
                    for player, digest in enumerate(digests[0] if digests else ()):
                        self._db.execute(
                            self._sql("INSERT INTO dealt (room, number, player, token) VALUES (?, ?, ?, ?)"),
                            (room, number, player, digest),
                        )
                for row in ledger:
                    self._db.execute(
                        self._sql(
                            "INSERT INTO ledger (room, seq, hand, seat, name, kind, chips, person)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                        ),
                        (room, *row),
                    )
            self._db.commit()
        except BaseException:
            self._db.rollback()
            raise

    def take(self, kind: str, address: str, count: int, seconds: float) -> float | None:
        """Count one `kind` of request from `address` if it made fewer than `count` in the last
        `seconds` (by the database's clock, one for every process); else nothing is counted and the
        answer is the seconds until it may ask again. PostgreSQL takes a lock on the address for the
        transaction, so two processes never both let the last one through."""
        key = f"{kind} {address}"
        try:
            if self._mark == "%s":
                self._db.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (key,))
            self._db.execute(
                self._sql(f"DELETE FROM asked WHERE kind = ? AND address = ? AND at <= {self._now} - ?"),
                (kind, address, seconds),
            )
            times = self._db.execute(
                self._sql(f"SELECT at, {self._now} FROM asked WHERE kind = ? AND address = ? ORDER BY at"),
                (kind, address),
            ).fetchall()
            if len(times) >= count:
                self._db.commit()
                return seconds - (float(times[-1][1]) - float(times[-count][0]))
            self._db.execute(
                self._sql(f"INSERT INTO asked (kind, address, at) VALUES (?, ?, {self._now})"),
                (kind, address),
            )
            self._taken += 1
            if self._taken % 1000 == 0:  # forget the addresses quiet for a day
                self._db.execute(f"DELETE FROM asked WHERE at <= {self._now} - 86400")
            self._db.commit()
            return None
        except BaseException:
            self._db.rollback()
            raise

    def acquire(self, room: str, address: str) -> int | None:
        """Take the lease of `room` if nobody holds it or it has expired; its new epoch, or None."""
        assert self.owner is not None
        row = self._db.execute(
            self._sql(
                "INSERT INTO leases (room, owner, address, epoch, expires) VALUES (?, ?, ?, 1, "
                f"{self._now} + ?) ON CONFLICT (room) DO UPDATE SET owner = excluded.owner,"
                " address = excluded.address, epoch = leases.epoch + 1, expires = excluded.expires"
                f" WHERE leases.expires < {self._now} RETURNING epoch"
            ),
            (room, self.owner, address, self.ttl),
        ).fetchone()
        self._db.commit()
        if row is None:
            return None
        self.epochs[room] = int(row[0])
        return int(row[0])

    def renew(self) -> list[str]:
        """Extend every lease this process holds; the rooms whose lease it has lost."""
        lost = []
        for room, epoch in list(self.epochs.items()):
            held = self._db.execute(
                self._sql(
                    f"UPDATE leases SET expires = {self._now} + ? WHERE room = ? AND owner = ? AND epoch = ?"
                ),
                (self.ttl, room, self.owner, epoch),
            )
            if held.rowcount != 1:
                lost.append(room)
                del self.epochs[room]
        self._db.commit()
        return lost

    def release(self, room: str | None = None) -> None:
        """Give up one lease (or every one) now: the next process asked for the table takes it."""
        for ident in [room] if room is not None else list(self.epochs):
            epoch = self.epochs.pop(ident, None)
            if epoch is not None:
                self._db.execute(
                    self._sql(
                        f"UPDATE leases SET expires = {self._now} WHERE room = ? AND owner = ? AND epoch = ?"
                    ),
                    (ident, self.owner, epoch),
                )
        self._db.commit()

    def lease(self, room: str) -> Lease | None:
        row = self._db.execute(
            self._sql(f"SELECT owner, address, epoch, expires - {self._now} FROM leases WHERE room = ?"),
            (room,),
        ).fetchone()
        self._db.commit()
        return None if row is None else (str(row[0]), str(row[1]), int(row[2]), float(row[3]))

    def unserved(self) -> list[str]:
        """Stored rooms that nobody has served for a lease time: never taken, expired or released (a
        table's clients take it first, wherever the load balancer sends them; this is for the rest)."""
        rows = self._db.execute(
            self._sql(
                "SELECT r.id FROM rooms r LEFT JOIN leases l ON l.room = r.id WHERE l.room IS NULL"
                f" OR l.expires < {self._now} - ? ORDER BY r.id"
            ),
            (self.ttl,),
        ).fetchall()
        self._db.commit()
        return [
            str(row[0]) for row in rows if lease_key(str(row[0])) == str(row[0])
        ]  # tables go with a tournament

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

    def dealt(self, room: str, after: int, upto: int) -> dict[int, tuple[str, ...]]:
        """The token digests of the players dealt into each stored hand of `room` numbered above
        `after` up to `upto`, in the hand's player order (hands stored without them are missing)."""
        rows = self._db.execute(
            self._sql(
                "SELECT number, player, token FROM dealt WHERE room = ? AND number > ? AND number <= ?"
                " ORDER BY number, player"
            ),
            (room, after, upto),
        ).fetchall()
        self._db.commit()
        dealt: dict[int, list[str]] = {}
        for number, _, digest in rows:
            dealt.setdefault(int(number), []).append(str(digest))
        return {number: tuple(digests) for number, digests in dealt.items()}

    def hands_of(
        self, room: str, digest: str, after: int = 0, limit: int = 1000
    ) -> list[tuple[int, str, int]]:
        """The finished hands of `room` numbered above `after` that the token with `digest` was dealt
        into, oldest first: (number, PHH text, that player's index in the hand)."""
        rows = self._db.execute(
            self._sql(
                "SELECT h.number, h.phh, d.player FROM hands h JOIN dealt d ON d.room = h.room"
                " AND d.number = h.number WHERE h.room = ? AND d.token = ? AND h.number > ?"
                " ORDER BY h.number LIMIT ?"
            ),
            (room, digest, after, limit),
        ).fetchall()
        self._db.commit()
        return [(int(n), str(text), int(player)) for n, text, player in rows]

    def ledger(self, room: str) -> list[LedgerRow]:
        rows = self._db.execute(
            self._sql(
                "SELECT seq, hand, seat, name, kind, chips, person FROM ledger WHERE room = ? ORDER BY seq"
            ),
            (room,),
        ).fetchall()
        self._db.commit()
        return [
            LedgerRow(int(a), int(b), int(c), str(d), str(e), int(f), str(g)) for a, b, c, d, e, f, g in rows
        ]

    def close(self) -> None:
        self._db.close()


class Writer:
    """Stores rooms' changes, grouping those that arrive together into one transaction."""

    def __init__(self, storage: Storage, executor: ThreadPoolExecutor) -> None:
        self.storage, self.executor = storage, executor
        self.queue: asyncio.Queue[tuple[list[Write], asyncio.Future[None]]] = asyncio.Queue()

    async def write(self, writes: Write | list[Write]) -> None:
        """Store one room's change, or several rooms' changes together (all of them, or none)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((writes if isinstance(writes, list) else [writes], done))
        await done

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty():
                batch.append(self.queue.get_nowait())
            while batch:
                try:
                    flat = [write for writes, _ in batch for write in writes]
                    await loop.run_in_executor(self.executor, self.storage.commit, flat)
                except LeaseLost as lost:  # that table's changes are refused; the others go again
                    refused = [item for item in batch if any(w[0] == lost.room for w in item[0])]
                    for _, done in refused:
                        done.set_exception(lost)
                    batch = [item for item in batch if item not in refused]
                    continue
                except Exception as error:  # every change of the batch is refused
                    for _, done in batch:
                        done.set_exception(error)
                else:
                    for _, done in batch:
                        done.set_result(None)
                break


T = TypeVar("T")


class Database:
    """The database as the server uses it: `storage`, the connection for writes, which `writer`
    groups, and `reads`, a connection for reads, each on a thread of its own, so that reads never
    wait behind a write the database holds up."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="holdem-db")
        self.read_executor = ThreadPoolExecutor(1, thread_name_prefix="holdem-db-read")

    async def open(self) -> None:
        """Connect twice (making the schema if need be) and get the writer ready (`Writer.run`)."""
        loop = asyncio.get_running_loop()
        self.storage = await loop.run_in_executor(self.executor, open_storage, self.url)
        self.reads = await loop.run_in_executor(self.read_executor, open_storage, self.url)
        self.writer = Writer(self.storage, self.executor)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn` (a method of `storage`) on the writes' thread, in turn with the writer's commits."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn` (a method of `reads`, or a function given it) on the reads' own thread."""
        return await asyncio.get_running_loop().run_in_executor(self.read_executor, fn, *args)

    async def close(self, *, release: bool) -> None:
        """Close both connections and their threads; `release`: hand this process's leases over at
        once rather than when they expire."""
        if release:
            await self.run(self.storage.release)
        await self.run(self.storage.close)
        await self.read(self.reads.close)
        self.executor.shutdown()
        self.read_executor.shutdown()


def __getattr__(name: str) -> Any:
    """0.1's `Store`, now `Database` (beside `Storage`, one connection); warns, and goes in 0.3."""
    if name != "Store":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        "holdem.server.storage.Store is now Database; Store goes in 0.3", DeprecationWarning, stacklevel=2
    )
    return Database


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
        return Storage(_SQLite(db), "?", url, "((julianday('now') - 2440587.5) * 86400.0)")
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg
        except ImportError:
            raise HoldemError(f"a PostgreSQL database needs psycopg: {install_hint('server')}") from None
        try:
            connection = _Postgres(url)
        except psycopg.Error as error:
            raise HoldemError(f"cannot connect to {url}: {error}".strip()) from None
        return Storage(connection, "%s", url, "extract(epoch from clock_timestamp())")
    raise HoldemError(f"--db must be sqlite:///PATH or postgresql://…, got {url!r}")


IDLE_IN_TRANSACTION = "2s"
"""How long PostgreSQL lets a transaction of ours wait for its next statement before it ends the
session. Ours never pause inside a transaction; a process stopped in the middle of a write (SIGSTOP,
a long pause) would otherwise hold its rows' locks, and block the process taking its tables over,
for as long as it is stopped."""


class _Postgres:
    """A psycopg connection that is opened again when PostgreSQL has ended it (see
    `IDLE_IN_TRANSACTION`): a statement that would begin a transaction runs again on a new connection;
    one inside a transaction, or its commit, fails (the transaction is lost, and the caller rolls
    back), and the next runs on a new connection."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._db = self._connect()

    def _connect(self) -> Any:
        import psycopg

        db = psycopg.connect(self._url)
        db.execute(f"SET idle_in_transaction_session_timeout = '{IDLE_IN_TRANSACTION}'")
        db.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
        db.execute(f"SET statement_timeout = '{STATEMENT_TIMEOUT}'")
        db.commit()
        return db

    def _live(self) -> Any:
        if self._db.broken or self._db.closed:
            self._db = self._connect()
        return self._db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        import psycopg

        db = self._live()
        first = db.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        try:
            return db.execute(sql, params)
        except psycopg.OperationalError:
            if not (first and db.broken):  # a transaction under way is lost: its caller rolls back
                raise
            return self._live().execute(sql, params)  # ended while idle: once more, on a new connection

    def commit(self) -> None:
        self._db.commit()

    def rollback(self) -> None:
        if not (self._db.broken or self._db.closed):
            self._db.rollback()

    def close(self) -> None:
        self._db.close()


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
