"""A cash table's settings, read from the JSON of ``POST /api/tables`` with every field checked, and a
process's part in a cluster."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

import attrs

from holdem.console.fields import Field, check_object, read_fields
from holdem.errors import RefusedError, RequestError, SnapshotError
from holdem.hand.stakes import CHIP_LIMIT
from holdem.server.names import looks_like, name_problem

__all__ = [
    "NAME_LIMIT",
    "Cluster",
    "TableConfig",
    "check_lookalike",
    "player_name",
    "status_of",
    "table_config",
]


def status_of(error: RequestError | RefusedError | SnapshotError) -> int:
    """The HTTP status of a refused request: a `RefusedError` is a conflict with the state (409), a
    `SnapshotError` a stored table the server cannot read (500, its own fault)."""
    if isinstance(error, RequestError):
        return error.status
    return 409 if isinstance(error, RefusedError) else 500


NAME_LIMIT = 32


def player_name(name: Any) -> str:
    """A player's name in NFKC, less spaces at either end: 1 to 32 printable characters, none of them
    invisible, no pile of combining marks (`holdem.server.names.normal_name`). Names are compared
    without case (`name.casefold()`): "Ann" and " ann " are the same player."""
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise RequestError(f"name must be 1 to {NAME_LIMIT} printable characters, got {name!r}")
    text = unicodedata.normalize("NFKC", name).strip()
    if not text or len(text) > NAME_LIMIT:
        raise RequestError(f"name must be 1 to {NAME_LIMIT} printable characters, got {name!r}")
    problem = name_problem(text)
    if problem is not None:
        raise RequestError(f"name {name!r} {problem}: choose another")
    return text


def check_lookalike(name: str, others: Iterable[str], where: str) -> None:
    """Refuse `name` (`RefusedError`) if it looks like one of `others`, the names in use or seen
    lately `where`, without being it (Unicode's confusable skeletons: `holdem.server.names.looks_like`)."""
    other = looks_like(name, others)
    if other is not None:
        raise RefusedError(f"name {name!r} looks like {other!r}, a player {where}: choose another")


@attrs.frozen
class Cluster:
    """This process's part in a cluster (`holdem.server.cluster`): the address other processes reach it
    at, and the lease time."""

    address: str
    lease_seconds: float = 5.0


@attrs.frozen
class TableConfig:
    """Seats, stakes, buy-in limits and the clock (seconds per decision, then the time bank)."""

    seats: int = 6
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    min_buy_in: int = 40
    max_buy_in: int = 200
    action_seconds: float = 20.0
    time_bank_seconds: float = 60.0
    run_twice: bool = False  # rule 32: an all-in before the river has the rest of the board dealt twice
    straddle: bool = False  # a forced straddle of two big blinds after the big blind (4 players or more)

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


_DEFAULTS = TableConfig()
TABLE_FIELDS = {
    **{name: Field("whole", getattr(_DEFAULTS, name), 0, CHIP_LIMIT)
       for name in ("seats", "small_blind", "big_blind", "ante", "min_buy_in", "max_buy_in")},
    **{name: Field("seconds", getattr(_DEFAULTS, name)) for name in ("action_seconds", "time_bank_seconds")},
    **{name: Field("flag", getattr(_DEFAULTS, name)) for name in ("run_twice", "straddle")},
}  # fmt: skip
"""A table's settings, each with its kind, default and bounds (`holdem.console.fields`)."""


def table_config(data: Any) -> TableConfig:
    """The settings in `data` (a JSON object; missing fields take their defaults)."""
    data = check_object(data, "table settings", tuple(TABLE_FIELDS), RequestError)
    config = TableConfig(**read_fields(data, TABLE_FIELDS, RequestError))
    if not 2 <= config.seats <= 10:
        raise RequestError(f"seats must be 2 to 10, got {config.seats}")
    if not 0 < config.small_blind <= config.big_blind:
        raise RequestError(
            f"blinds must satisfy 0 < small_blind <= big_blind, got {config.small_blind}/{config.big_blind}"
        )
    if not config.big_blind <= config.min_buy_in <= config.max_buy_in:
        raise RequestError(
            "buy-ins must satisfy big_blind <= min_buy_in <= max_buy_in,"
            f" got {config.min_buy_in}..{config.max_buy_in} at big blind {config.big_blind}"
        )
    return config
