"""Progress of long commands on standard error: a bar with a count, a rate and the time left.

Drawn by tqdm (a small, pure-Python, dependency-free library that estimates the time left from the
rate so far and redraws at most a few times a second, which a home-made bar did not), and only when
standard error is a terminal and the command's output is not JSON: piped or logged, nothing is
written.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from typing import NoReturn, TypeVar

__all__ = ["close_bars", "counter", "each", "showing"]

T = TypeVar("T")
_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} {unit} [{elapsed} so far, {remaining} left]"


def _no_monitor() -> None:
    """tqdm without its monitor thread. Ctrl-C can land between the two locks tqdm takes around a
    redraw and leave one held; the monitor then waits on it for ever, and closing the last bar (as
    an interrupted command does) joins the monitor: the command hung after Ctrl-C."""
    from tqdm import tqdm

    tqdm.monitor_interval = 0


def showing(quiet: bool = False) -> bool:
    """Whether a bar is drawn: standard error is a terminal, and not `quiet` (``--json``)."""
    return not quiet and sys.stderr.isatty()


def counter(unit: str, *, quiet: bool = False) -> Callable[[int, int], None] | None:
    """A callback ``show(done, total)`` drawing a bar of `unit`s (None when none is drawn); the bar
    appears at the first call, which a caller makes with 0 before the work starts."""
    if not showing(quiet):
        return None
    from tqdm import tqdm

    _no_monitor()
    bars: list[tqdm[NoReturn]] = []

    def show(done: int, total: int) -> None:
        if not bars:
            bars.append(tqdm(total=total, unit=unit, bar_format=_FORMAT, file=sys.stderr, dynamic_ncols=True))
        bar = bars[0]
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return show


def each(items: Iterable[T], total: int, unit: str, *, quiet: bool = False) -> Iterator[T]:
    """`items`, counted on a bar of `total` `unit`s as they are taken (nothing drawn when
    `showing` is false)."""
    if not showing(quiet):
        yield from items
        return
    from tqdm import tqdm

    _no_monitor()
    with tqdm(items, total=total, unit=unit, bar_format=_FORMAT, file=sys.stderr, dynamic_ncols=True) as bar:
        yield from bar


def close_bars() -> None:
    """Close the bars still drawn (a command stopped by Ctrl-C), so that nothing is redrawn after
    the line that says so."""
    if "tqdm" in sys.modules:
        from tqdm import tqdm

        for bar in list(getattr(tqdm, "_instances", ())):
            bar.close()
