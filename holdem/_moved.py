"""The module paths 0.1 documented that 0.2 moved: each still imports, for one minor version, as the
module at its new path (the very same module, so every object is identical), with a
`DeprecationWarning` naming the new path. 0.3 removes them (the README's "What is public").

`install` puts a finder first on ``sys.meta_path``: it answers only for the old paths below (none of
which holds a module any more), so that a moved package's submodules are the same modules too. Old
names that packages took over (``holdem.hand.Event``, ``holdem.table.TableError``,
``holdem.stats.mean_ci``…) are answered by `moved_name`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Any

__all__ = ["MOVED", "REMOVED_IN", "install", "moved_name", "warn_moved"]

REMOVED_IN = "0.3"
"""The release that removes the old paths."""

MOVED: dict[str, str] = {
    "holdem.actions": "holdem.hand.actions",
    "holdem.arguments": "holdem.console.arguments",
    "holdem.batch": "holdem.cards.batch",
    "holdem.bench": "holdem.cli.bench",
    "holdem.betting": "holdem.hand.betting",
    "holdem.bots.stats": "holdem.bots.confidence",
    "holdem.checks": "holdem.hand.checks",
    "holdem.decide": "holdem.bots.decide",
    "holdem.deck": "holdem.cards.deck",
    "holdem.evaluator": "holdem.cards.evaluator",
    "holdem.events": "holdem.hand.events",
    "holdem.invariants": "holdem.hand.invariants",
    "holdem.luck": "holdem.bots.luck",
    "holdem.match": "holdem.bots.match",
    "holdem.odds": "holdem.cards.odds",
    "holdem.parallel": "holdem.bots.parallel",
    "holdem.phh": "holdem.formats.phh",
    "holdem.play": "holdem.cli.play",
    "holdem.pokerstars": "holdem.formats.pokerstars",
    "holdem.pokerstars.commands": "holdem.formats.pokerstars.commands",
    "holdem.pokerstars.read": "holdem.formats.pokerstars.read",
    "holdem.pokerstars.write": "holdem.formats.pokerstars.write",
    "holdem.positions": "holdem.hand.positions",
    "holdem.posting": "holdem.hand.posting",
    "holdem.pots": "holdem.hand.pots",
    "holdem.progress": "holdem.console.progress",
    "holdem.ranges": "holdem.cards.ranges",
    "holdem.report": "holdem.bots.report",
    "holdem.runout": "holdem.hand.runout",
    "holdem.session": "holdem.bots.session",
    "holdem.settleup": "holdem.table.settleup",
    "holdem.showdown": "holdem.hand.showdown",
    "holdem.snapshot": "holdem.table.snapshot",
    "holdem.stakes": "holdem.hand.stakes",
    "holdem.vector.settle": "holdem.vector.showdown",
    "holdem.views": "holdem.hand.views",
}
"""Old module path -> new module path."""

MOVED_NAMES: dict[str, dict[str, str]] = {
    "holdem.hand": {"Event": "holdem.hand.events"},  # 0.1's holdem.hand module; a package now
    "holdem.table": {"TableError": "holdem.errors"},
    "holdem.stats": {"mean_ci": "holdem.bots.confidence", "RunningMean": "holdem.bots.confidence"},
}
"""Names 0.1's modules held that the packages of the same path do not: package -> name -> module."""


def _caller_level() -> int:
    """The stack level, seen from `warn_moved`, of the first frame outside the import machinery, this
    module and a package's ``__getattr__``: the code that imported the old path. The import
    machinery's own frames are not counted: `warnings.warn` steps over them by itself."""
    level, frame = 1, sys._getframe(1)
    while frame.f_back is not None and (
        frame.f_code.co_filename.startswith("<frozen importlib")
        or frame.f_globals.get("__name__") == __name__
        or frame.f_code.co_name == "__getattr__"
    ):
        frame = frame.f_back
        level += not frame.f_code.co_filename.startswith("<frozen importlib")
    return level


def warn_moved(old: str, new: str, how: str = "") -> None:
    """Say that `old` moved to `new` and goes in `REMOVED_IN`; `how`: what to write instead."""
    instead = how or f"import {new}"
    warnings.warn(
        f"{old} moved to {new} in holdem 0.2; the old path goes in {REMOVED_IN}: {instead}",
        DeprecationWarning,
        stacklevel=_caller_level(),
    )


def moved_name(package: str, name: str) -> Any:
    """A package's module ``__getattr__``: an old name it no longer holds, with the warning."""
    where = MOVED_NAMES.get(package, {}).get(name)
    if where is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    warn_moved(f"{package}.{name}", f"{where}.{name}", f"from {where} import {name}")
    return getattr(importlib.import_module(where), name)


class _Alias(importlib.abc.Loader):
    """Loads an old path as the module at its new one (that module's own spec is kept)."""

    def __init__(self, new: str) -> None:
        self.new = new
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warn_moved(spec.name, self.new)
        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self.spec  # the import system wrote the old path's there


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.util.spec_from_loader(fullname, _Alias(new))


def install() -> None:
    """Answer the old paths (once per process)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())  # first: a moved package's submodules are found in its new folder
