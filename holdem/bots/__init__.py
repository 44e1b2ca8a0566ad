"""Bots: the interface, the built-in bots, and loading a bot by name or import path.

A bot is any object with ``act(view) -> Action``; it sees only its `SeatView`. Optional hooks:
``set_random(rng)`` (a seeded random source to use, so matches are reproducible whatever the
number of worker processes), ``meet(names)`` (who is dealt in, by name in dealing order, before
each hand, so a bot that reads its opponents knows a new player from an old one),
``start_hand(view)`` and ``end_hand(view, result)`` (the cards shown at showdown are in
``view.shown``). They are called at the same moments wherever a bot
plays, and a failing one is a fault: `holdem.bots.decide` holds the life cycle.
"""

from __future__ import annotations

import copy
import difflib
import functools
import importlib
import inspect
import os
import types
import typing
import warnings
from collections.abc import Callable
from typing import Any, Protocol, TypeGuard, cast, runtime_checkable

from holdem.errors import BotLoadError
from holdem.hand.actions import Action
from holdem.hand.views import SeatView

__all__ = ["BUILT_IN", "Bot", "BotLoadError", "BotSpec", "bot_name", "load_bot", "parse_spec"]


@runtime_checkable
class Bot(Protocol):
    """What a bot must do: choose an action from what it may see."""

    def act(self, view: SeatView) -> Action: ...


class _HandHooks(Protocol):
    """The optional hooks a bot may define (deprecated as a name: `holdem.bots.HandHooks`)."""

    def start_hand(self, view: SeatView) -> None: ...


def __getattr__(name: str) -> Any:
    """`HandHooks`, unused by the package, with a DeprecationWarning until 0.3."""
    if name != "HandHooks":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        "holdem.bots.HandHooks is deprecated and goes in holdem 0.3", DeprecationWarning, stacklevel=2
    )
    return _HandHooks


BUILT_IN = {
    "random": "holdem.bots.simple:RandomBot",
    "calling-station": "holdem.bots.simple:CallingStation",
    "folder": "holdem.bots.simple:Folder",
    "scripted": "holdem.bots.simple:ScriptedBot",
    "equity": "holdem.bots.equity:EquityBot",
    "exploit": "holdem.bots.exploit:ExploitBot",
    "pushfold": "holdem.pushfold.bot:PushFoldBot",
    "solver": "holdem.solver.bot:SolverBot",
    "tight-aggressive": "holdem.bots.styles:TightAggressive",
    "loose-aggressive": "holdem.bots.styles:LooseAggressive",
    "rock": "holdem.bots.styles:Rock",
    "maniac": "holdem.bots.styles:Maniac",
    "loose-passive": "holdem.bots.styles:LoosePassive",
}
"""The built-in bots by name."""


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name[key=value,...]`` into the name and keyword arguments (ints, floats, text)."""
    name, _, rest = spec.partition("[")
    kwargs: dict[str, Any] = {}
    if rest:
        if not rest.endswith("]"):
            raise BotLoadError(f"bad bot spec {spec!r}: expected name[key=value,...]")
        for item in filter(None, (part.strip() for part in rest[:-1].split(","))):
            key, eq, value = item.partition("=")
            if not eq or not key.strip().isidentifier():
                raise BotLoadError(f"bad bot argument {item!r} in {spec!r}: expected key=value")
            kwargs[key.strip()] = _value(value.strip())
    return name.strip(), kwargs


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


BotSpec = str | Callable[..., Bot] | Bot
"""A bot by name or import path (``equity``, ``mybot:MyBot``, ``equity[samples=200]``), a class or
factory called with no arguments, or a bot instance (copied afresh wherever a match needs a new one)."""


def bot_name(spec: BotSpec) -> str:
    """How a bot is named in results."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, type) or not _is_bot(spec):
        return getattr(spec, "__name__", type(spec).__name__)
    return type(spec).__name__


def _is_bot(value: object) -> TypeGuard[Bot]:
    """Whether `value` has an ``act`` method (what `isinstance(value, Bot)` asks, many times faster)."""
    return callable(getattr(value, "act", None))


def _resolve(name: str) -> Callable[..., Any]:
    """The factory behind a built-in name or a ``package.module:ClassName`` path."""
    path = BUILT_IN.get(name, name)
    if ":" not in path:
        known = ", ".join(sorted(BUILT_IN))
        raise BotLoadError(
            f"unknown bot {name!r}{_did_you_mean(name, BUILT_IN)} (built-in bots: {known};"
            " or package.module:ClassName)"
        )
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        hint = ""
        if getattr(error, "name", None) == module_name.partition(".")[0]:  # the bot's own module is missing
            hint = (
                f" (bots are imported from the current folder, {os.getcwd()!r}, and from PYTHONPATH:"
                f" run where {module_name.partition('.')[0]}.py is, or add its folder to PYTHONPATH)"
            )
        raise BotLoadError(f"cannot import {module_name!r} for bot {name!r}: {error}{hint}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        public = [key for key in vars(module) if not key.startswith("_")]
        raise BotLoadError(
            f"module {module_name!r} has no {attr!r}{_did_you_mean(attr, public)} (bot {name!r})"
        )
    return factory  # type: ignore[no-any-return]


def _did_you_mean(word: str, known: typing.Iterable[str]) -> str:
    """`` (did you mean 'equity'?)`` for the closest of `known` to a mistyped `word`, or ""."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _fits(value: object, hint: Any) -> bool:
    """Whether `value` is of the annotated type (ints fit floats; unknown annotations accept anything)."""
    if hint is Any:
        return True
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return any(_fits(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


@functools.lru_cache(maxsize=256)
def _signature(factory: Callable[..., Any]) -> tuple[tuple[str, ...], dict[str, Any], tuple[str, ...]] | None:
    """A factory's keyword parameters, their annotations and the ones it cannot be called without
    (None: it takes any keywords). Kept per factory: a match loads its bots again for every chunk."""
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return None
    try:
        hints = typing.get_type_hints(factory.__init__ if isinstance(factory, type) else factory)  # type: ignore[misc]
    except Exception:
        hints = {}
    positional = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    required = tuple(
        key for key, p in parameters.items()
        if p.kind in positional and p.default is inspect.Parameter.empty and key != "self"
    )  # fmt: skip
    return tuple(parameters), hints, required


def _check_arguments(factory: Callable[..., Any], kwargs: dict[str, Any], name: str) -> None:
    """Refuse unknown or missing arguments and values of the wrong type before the bot is built."""
    try:
        signature = _signature(factory)
    except TypeError:  # an unhashable factory: look it up afresh
        signature = _signature.__wrapped__(factory)
    if signature is None:
        return
    parameters, hints, required = signature
    needed = [key for key in required if key not in kwargs]
    if needed:
        example = ",".join(f"{key}=..." for key in needed)
        raise BotLoadError(f"bot {name!r} needs {', '.join(needed)}: e.g. '{name}[{example}]'")
    for key, value in kwargs.items():
        if key not in parameters:
            takes = ", ".join(k for k in parameters if k != "self") or "no arguments"
            raise BotLoadError(f"bot {name!r} has no argument {key!r} (it takes: {takes})")
        hint = hints.get(key)
        if hint is not None and not _fits(value, hint):
            kind = getattr(hint, "__name__", str(hint))
            raise BotLoadError(f"bot {name!r}: {key} must be {kind}, got {value!r}")


def load_bot(spec: BotSpec, **kwargs: Any) -> Bot:
    """A bot from a built-in name (``equity``), an import path (``package.module:ClassName``), a
    factory, or an instance (returned as a fresh copy).

    Arguments may come in the spec (``equity[samples=200]``) or as keywords; unknown arguments and
    values of the wrong type are a `BotLoadError` before the bot is built.
    """
    if isinstance(spec, str):
        name, spec_kwargs = parse_spec(spec)
        factory, kwargs = _resolve(name), {**spec_kwargs, **kwargs}
    elif _is_bot(spec) and not isinstance(spec, type):
        if kwargs:
            raise BotLoadError(f"bot {bot_name(spec)!r} is an instance; it takes no arguments")
        try:
            return copy.deepcopy(spec)
        except Exception as error:
            raise BotLoadError(
                f"cannot copy bot {bot_name(spec)!r}: {type(error).__name__}: {error}"
            ) from None
    else:
        name, factory = bot_name(spec), cast(Callable[..., Any], spec)
    if not callable(factory):
        raise BotLoadError(
            f"{name!r} is not a bot: not a name, a class, a factory or an object with act(view)"
        )
    _check_arguments(factory, kwargs, name)
    try:
        bot = factory(**kwargs)
    except Exception as error:
        raise BotLoadError(f"cannot build bot {name!r}: {type(error).__name__}: {error}") from None
    if not _is_bot(bot):
        raise BotLoadError(f"{name!r} built a {type(bot).__name__}, which has no act(view) method")
    return bot
