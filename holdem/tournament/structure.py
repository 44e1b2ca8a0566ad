"""Tournament structures (rule 23): levels of blinds and antes with their durations on the tournament
clock, and the starting stack. Shipped ones by name (`turbo`, `regular`, `deep`, `hyper`), custom
ones from a TOML or JSON file; anything malformed is a `StructureError` naming the level.
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
import tomllib
import warnings
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from holdem.console.fields import Field, check_object, read_fields
from holdem.errors import InvalidConfigError, StructureError
from holdem.hand.stakes import CHIP_LIMIT, Stakes, check_chips

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["SHIPPED", "BlindStructure", "Level", "check_clock", "load_structure"]

SHIPPED = ("hyper", "turbo", "regular", "deep")
"""The structures shipped with holdem (holdem/tournament/structures/NAME.toml)."""


def check_clock(hand_seconds: object, action_seconds: object, buy_in: object) -> None:
    """Refuse a tournament clock (seconds a hand, and an action) or a buy-in that cannot be: the
    checks every tournament of holdem makes, scalar or vector."""
    for name, value in (("hand_seconds", hand_seconds), ("action_seconds", action_seconds)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
            raise InvalidConfigError(f"{name} must be a non-negative number, got {value!r}")
    if type(buy_in) is not int or buy_in < 0:
        raise InvalidConfigError(f"the buy-in must be a non-negative whole number, got {buy_in!r}")


@attrs.frozen
class Level:
    """One level: blinds, an ante (everyone's, or the big blind's for the table when
    `big_blind_ante`), and how many minutes it lasts on the tournament clock."""

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    duration: float = 10.0

    def stakes(self) -> Stakes:
        """The stakes of a hand started at this level."""
        if self.big_blind_ante:
            return Stakes(self.small_blind, self.big_blind, big_blind_ante=self.ante)
        return Stakes(self.small_blind, self.big_blind, ante=self.ante)


@attrs.frozen
class BlindStructure:
    """A starting stack and the levels, in order. Past its last level a structure goes on doubling
    the last level's blinds and ante every (last level's) duration, so that every tournament ends,
    whatever the players do."""

    name: str
    starting_stack: int
    levels: tuple[Level, ...]
    ends: tuple[float, ...] = attrs.field(init=False, eq=False, repr=False)
    """The minute each listed level ends on the tournament clock (computed once)."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "ends", tuple(itertools.accumulate(level.duration for level in self.levels)))

    def level_at(self, minutes: float) -> int:
        """The level (0-based; past the listed ones, the doubled ones) in force `minutes` after the
        start (rule 23): a binary search of the levels' ends. The one place this rule is computed;
        `levels_at` is the same for an array of clocks."""
        ends = self.ends
        if minutes < ends[-1]:
            return bisect.bisect_right(ends, minutes)
        return len(ends) + int((minutes - ends[-1]) // self.levels[-1].duration)

    def levels_at(self, minutes: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
        """`level_at` of each clock in `minutes` (a NumPy array), for many tables at once."""
        import numpy as np

        ends = np.asarray(self.ends)
        past = (minutes - ends[-1]) // self.levels[-1].duration
        found: npt.NDArray[np.int64] = np.where(
            minutes < ends[-1], np.searchsorted(ends, minutes, side="right"), len(ends) + np.maximum(past, 0)
        ).astype(np.int64)
        return found

    def level(self, number: int) -> Level:
        """Level `number` (0-based): a listed one, or past them the last one doubled per level."""
        if number < len(self.levels):
            return self.levels[number]
        last, factor = self.levels[-1], 2 ** (number - len(self.levels) + 1)
        return attrs.evolve(last, small_blind=last.small_blind * factor, big_blind=last.big_blind * factor,
                            ante=last.ante * factor)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """The structure as JSON-ready data (as `holdem tournament --json` reports it)."""
        return {
            "name": self.name,
            "starting_stack": self.starting_stack,
            "levels": [attrs.asdict(level) for level in self.levels],
        }


DEFAULT_MINUTES = 10
"""A level's duration when its file gives none (`holdem docs structures`)."""

LEVEL_FIELDS = {
    "small_blind": Field("whole", None, 0, CHIP_LIMIT),
    "big_blind": Field("whole", None, 1, CHIP_LIMIT),
    "ante": Field("whole", 0, 0, CHIP_LIMIT),
    "big_blind_ante": Field("flag", False),
}
"""A level's blinds and ante, checked as the server's settings are (`holdem.console.fields`); its
duration, in minutes, is checked apart."""


def _minutes(duration: Any) -> float:
    """A level's duration as a float (NaN when it is not a number, infinity when past a double)."""
    if isinstance(duration, bool) or not isinstance(duration, int | float):
        return math.nan
    try:
        return float(duration)
    except OverflowError:
        return math.inf


def structure(name: str, starting_stack: int, levels: Sequence[Mapping[str, Any]]) -> BlindStructure:
    """A checked `BlindStructure` from plain data (the contents of a structure file)."""
    check_chips("starting_stack", starting_stack, positive=True, error=StructureError)
    if not isinstance(levels, Sequence) or isinstance(levels, str) or not levels:
        raise StructureError("a structure needs at least one level")
    checked: list[Level] = []
    for k, data in enumerate(levels, start=1):
        where = f"level {k}"
        if not isinstance(data, Mapping):
            raise StructureError(f"{where} must be a table of small_blind, big_blind, ante, duration")

        def refused(message: str, where: str = where) -> StructureError:
            return StructureError(f"{where}: {message}")

        check_object(dict(data), "fields", (*LEVEL_FIELDS, "duration"), refused)
        fields = read_fields(dict(data), LEVEL_FIELDS, refused)
        small, big, ante, bb_ante = (fields[name] for name in LEVEL_FIELDS)
        duration = data.get("duration", DEFAULT_MINUTES)
        if small > big:
            raise StructureError(f"{where}: the small blind {small} is more than the big blind {big}")
        if ante > big or (ante == big and not bb_ante):  # a big-blind ante is often the big blind itself
            most = "at most" if bb_ante else "less than"
            raise StructureError(f"{where}: the ante {ante} must be {most} the big blind {big}")
        minutes = _minutes(duration)
        if not 0 < minutes < math.inf:
            raise StructureError(f"{where}: duration must be a positive number of minutes, got {duration!r}")
        level = Level(small, big, ante, bb_ante, minutes)
        if checked:
            before = checked[-1]
            if big < before.big_blind or small < before.small_blind:
                raise StructureError(f"{where}: blinds {small}/{big} are lower than the level before")
            if (small, big, ante) == (before.small_blind, before.big_blind, before.ante):
                raise StructureError(f"{where}: the same blinds and ante as the level before")
        checked.append(level)
    return BlindStructure(name, starting_stack, tuple(checked))


def load_structure(name_or_path: str | Path) -> BlindStructure:
    """A shipped structure by name (`SHIPPED`), or one read from a .toml or .json file."""
    text = str(name_or_path)
    if text in SHIPPED:
        source = resources.files("holdem.tournament").joinpath("structures", f"{text}.toml").read_text()
        return _from_text(source, text, toml=True)
    path = Path(name_or_path)
    if path.suffix not in (".toml", ".json"):
        raise StructureError(
            f"unknown structure {text!r}: give one of {', '.join(SHIPPED)}, or a .toml or .json file"
        )
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StructureError(f"cannot read {text!r}: {error}") from None
    return _from_text(source, path.stem, toml=path.suffix == ".toml")


def _from_text(source: str, name: str, *, toml: bool) -> BlindStructure:
    try:
        data = tomllib.loads(source) if toml else json.loads(source)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, ValueError, RecursionError) as error:
        raise StructureError(
            f"structure {name!r} is not valid {'TOML' if toml else 'JSON'}: {error}"
        ) from None
    if not isinstance(data, dict):
        raise StructureError(f"structure {name!r} must be a table with starting_stack and levels")
    return structure(str(data.get("name", name)), data.get("starting_stack"), data.get("levels", ()))  # type: ignore[arg-type]


def __getattr__(name: str) -> Any:
    """`Structure`, this class's old name (it clashed with `holdem.Structure`, the betting structure):
    still there for a release, with a DeprecationWarning."""
    if name == "Structure":
        warnings.warn(
            "holdem.tournament.Structure is now BlindStructure (holdem.Structure is the betting structure);"
            " the old name goes in a later release",
            DeprecationWarning,
            stacklevel=2,
        )
        return BlindStructure
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
