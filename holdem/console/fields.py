"""Settings declared once: each field's kind and bounds in one table, checked by one function with
one set of words. The server's tables and tournaments read their JSON settings with it, and the
blind structures, the vector tables, sit-and-gos and the push/fold bot and end-game their arguments.

A refusal names the field and quotes the value: ``seats must be a whole number from 2 to 10, got
11``. It is raised as the caller's error type (the server's `RequestError`, with status 400; a tournament
structure's `StructureError`, naming the level).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

__all__ = ["DAY", "SHORTEST", "Field", "check_object", "read_fields"]

DAY = 86_400.0
"""The longest clock a setting may give, in seconds."""
SHORTEST = 1.0
"""The shortest clock a setting may give, in seconds: a decision clock of 1e-300 s timed every
decision out at once."""

Refusal = Callable[[str], Exception]
"""What makes the caller's error from a message: an exception class, or a function adding where."""


@attrs.frozen
class Field:
    """One setting: `kind` is "whole" (an int from `low` to `high`), "count" (an int of at least
    `low`), "seconds" (a number from `SHORTEST` to a day) or "flag" (true or false); `default` when it
    is missing."""

    kind: str = attrs.field(validator=attrs.validators.in_(("whole", "count", "seconds", "flag")))
    default: Any = None
    low: int = 0
    high: int = 0


def check_object(
    data: Any, what: str, names: tuple[str, ...], error: Refusal, shape: str | None = None
) -> dict[str, Any]:
    """`data` as a JSON object of `what` (e.g. "table settings") with no field but `names`: the one
    check for unknown fields, wherever JSON comes in. `shape` names the object when it is not one."""
    if not isinstance(data, dict):
        raise error(f"{shape or what} must be a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise error(f"unknown {what} {unknown}; known: {', '.join(names)}")
    return data


def read_fields(data: dict[str, Any], fields: Mapping[str, Field], error: Refusal) -> dict[str, Any]:
    """The values of `fields` in `data`, each checked in turn, defaults filled in."""
    return {name: _check(name, data.get(name, field.default), field, error) for name, field in fields.items()}


def _check(name: str, value: Any, field: Field, error: Refusal) -> Any:
    if field.kind == "whole":
        if type(value) is not int or not field.low <= value <= field.high:
            raise error(f"{name} must be a whole number from {field.low} to {field.high:,}, got {value!r}")
        return value
    if field.kind == "count":
        if type(value) is not int or value < field.low:
            raise error(f"{name} must be a whole number of at least {field.low:,}, got {value!r}")
        return value
    if field.kind == "seconds":
        if isinstance(value, bool) or not isinstance(value, int | float) or not SHORTEST <= value <= DAY:
            raise error(f"{name} must be a number of seconds from 1 to a day (86,400), got {value!r}")
        return value
    if not isinstance(value, bool):
        raise error(f"{name} must be true or false, got {value!r}")
    return value
