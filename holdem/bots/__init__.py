"""Bots: the interface, the built-in bots, and loading a bot by name or import path.

A bot is any object with ``act(view) -> Action``; it sees only its `SeatView`. Optional hooks:
``set_random(rng)`` (a seeded random source to use, so matches are reproducible whatever the
number of worker processes), ``start_hand(view)`` and ``end_hand(view, result)`` (the cards
shown at showdown are in ``view.shown``).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from holdem.actions import Action
from holdem.errors import BotLoadError
from holdem.hand import HandResult
from holdem.views import SeatView

__all__ = ["BUILT_IN", "Bot", "BotLoadError", "BotSpec", "bot_name", "load_bot", "parse_spec"]


@runtime_checkable
class Bot(Protocol):
    """What a bot must do: choose an action from what it may see."""

    def act(self, view: SeatView) -> Action: ...


class HandHooks(Protocol):
    """The optional hooks a bot may define."""

    def set_random(self, rng: random.Random) -> None: ...

    def start_hand(self, view: SeatView) -> None: ...

    def end_hand(self, view: SeatView, result: HandResult) -> None: ...


BUILT_IN = {
    "random": "holdem.bots.simple:RandomBot",
    "calling-station": "holdem.bots.simple:CallingStation",
    "folder": "holdem.bots.simple:Folder",
    "scripted": "holdem.bots.simple:ScriptedBot",
    "equity": "holdem.bots.equity:EquityBot",
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


BotSpec = str | Callable[..., Bot]
"""A bot by name or import path (``equity``, ``mybot:MyBot``, ``equity[samples=200]``), or a factory."""


def bot_name(spec: BotSpec) -> str:
    """How a bot is named in results."""
    return spec if isinstance(spec, str) else getattr(spec, "__name__", repr(spec))


def _resolve(name: str) -> Callable[..., Any]:
    """The factory behind a built-in name or a ``package.module:ClassName`` path."""
    path = BUILT_IN.get(name, name)
    if ":" not in path:
        known = ", ".join(sorted(BUILT_IN))
        raise BotLoadError(f"unknown bot {name!r} (built-in bots: {known}; or package.module:ClassName)")
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise BotLoadError(f"cannot import {module_name!r} for bot {name!r}: {error}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise BotLoadError(f"module {module_name!r} has no {attr!r} (bot {name!r})")
    return factory  # type: ignore[no-any-return]


def load_bot(spec: BotSpec, **kwargs: Any) -> Bot:
    """A bot from a built-in name (``equity``), an import path (``package.module:ClassName``) or a factory.

    Arguments may come in the spec (``equity[samples=200]``) or as keywords.
    """
    if isinstance(spec, str):
        name, spec_kwargs = parse_spec(spec)
        factory, kwargs = _resolve(name), {**spec_kwargs, **kwargs}
    else:
        name, factory = bot_name(spec), spec
    try:
        bot = factory(**kwargs)
    except Exception as error:
        raise BotLoadError(f"cannot build bot {name!r}: {type(error).__name__}: {error}") from None
    if not isinstance(bot, Bot):
        raise BotLoadError(f"{name!r} built a {type(bot).__name__}, which has no act(view) method")
    return bot
