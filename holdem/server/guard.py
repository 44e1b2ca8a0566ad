"""What keeps one client from starving the others at the connection level, below the app: a cap on
the connections each address holds open, a deadline for a request's headers (so a slow or silent
socket is closed), the process's file-descriptor limit raised as far as it goes, and log lines that
repeat said once with a count.

`guarded_protocol` makes uvicorn's HTTP protocol (h11) that asks a `Guard` before it takes a
connection and closes one that has sent no complete request head within `Guard.header_seconds` of
opening or of its last answer. A connection upgraded to a WebSocket leaves the deadline behind (its
pings keep it honest) and still counts against its address until it closes. Addresses in `trusted`
(the proxy in front, ``--forwarded-allow-ips``) are not capped here: the proxy caps its clients
(the shipped nginx file does), and the app's own limits read the address it forwards.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
import time
import weakref
from collections.abc import Callable, Collection
from typing import Any

__all__ = [
    "HEADER_SECONDS",
    "PER_ADDRESS",
    "Guard",
    "RepeatFilter",
    "guarded_protocol",
    "quiet_repeats",
    "raise_descriptor_limit",
]

HEADER_SECONDS = 5.0
"""A connection that has not sent a whole request head this long after it opened, or after its last
answer, is closed."""
PER_ADDRESS = 64
"""Connections (HTTP and WebSocket) one address may hold open at once; more are answered 429."""
LOW_DESCRIPTORS = 4096
"""Below this many file descriptors, `holdem serve` says so at start."""

_REFUSAL = b'{"error": "too many connections open from your address: close some and try again"}\n'
_TOO_MANY = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b"content-length: %d\r\n\r\n%s" % (len(_REFUSAL), _REFUSAL)
)


class Guard:
    """The connections each address holds open, and what was refused or timed out."""

    def __init__(
        self,
        per_address: int = PER_ADDRESS,
        header_seconds: float = HEADER_SECONDS,
        trusted: Collection[str] = (),
    ) -> None:
        self.per_address = per_address
        self.header_seconds = header_seconds
        self.trusted = tuple(ipaddress.ip_network(t, strict=False) for t in trusted)
        self._is_trusted: dict[str, bool] = {}
        self.refused = 0
        self.timed_out = 0
        self._open: dict[str, list[weakref.ref[asyncio.BaseTransport]]] = {}  # weak: a closed one goes
        self._admitted = 0

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        """Whether `address` may open one more connection (`transport`); counted if so."""
        if self.trusted and self._trusted(address):
            return True
        held = [t for t in self._open.get(address, ()) if _open(t)]
        self._open[address] = held
        if len(held) >= self.per_address:
            self.refused += 1
            return False
        held.append(weakref.ref(transport))
        self._admitted += 1
        if self._admitted % 4096 == 0:  # forget the addresses with nothing open
            self._open = {a: ts for a, ts in self._open.items() if any(map(_open, ts))}
        return True

    def _trusted(self, address: str) -> bool:
        known = self._is_trusted.get(address)
        if known is None:
            try:
                ip = ipaddress.ip_address(address)
                known = any(ip in network for network in self.trusted)
            except ValueError:
                known = False
            if len(self._is_trusted) > 10_000:
                self._is_trusted.clear()
            self._is_trusted[address] = known
        return known

    def open_from(self, address: str) -> int:
        """Connections `address` holds open now."""
        return sum(map(_open, self._open.get(address, ())))


def _open(ref: weakref.ref[asyncio.BaseTransport]) -> bool:
    transport = ref()
    return transport is not None and not transport.is_closing()


def guarded_protocol(guard: Guard) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with `guard`'s cap and header deadline (give it as ``Config(http=…)``)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(H11Protocol):
        """Refuses a connection past its address's cap; closes one whose request head is late."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.refused = False
            self.answered: Any = None  # the request cycle last answered: a new one means a new head
            self.deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            if not guard.admit(str(peer[0]) if peer else "", transport):
                self.refused = True
                transport.write(_TOO_MANY)
                transport.close()
                return
            super().connection_made(transport)
            self._wait_for_head()

        def data_received(self, data: bytes) -> None:
            if not self.refused:
                super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            if self.refused:
                return
            if self.deadline is not None:
                self.deadline.cancel()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.answered = self.cycle
            self._wait_for_head()

        def _wait_for_head(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
            self.deadline = self.loop.call_later(guard.header_seconds, self._head_due)

        def _head_due(self) -> None:
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a WebSocket now
            if self.cycle is None or self.cycle is self.answered:  # no new request head has arrived
                guard.timed_out += 1
                transport.close()

    return GuardedH11


def raise_descriptor_limit() -> tuple[int, int]:
    """Raise this process's open-file limit to its hard limit; (the limit now, the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft, hard


class RepeatFilter(logging.Filter):
    """Lets a log line through once per `window` seconds for each message (and exception type); the
    next one let through says how many were held back, so an error repeated in a loop is a few
    lines with counts, never hundreds of thousands."""

    def __init__(self, window: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window, self.clock = window, clock
        self._seen: dict[tuple[str, str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        key = (record.name, str(record.msg), kind)
        now = self.clock()
        since, held = self._seen.get(key, (-self.window, 0))
        if now - since < self.window:
            self._seen[key] = (since, held + 1)
            return False
        if held:
            record.msg = f"{record.msg} (and {held} more like it in the last {now - since:.0f} s)"
        self._seen[key] = (now, 0)
        if len(self._seen) > 10_000:
            self._seen.clear()
        return True


def quiet_repeats(window: float = 60.0) -> RepeatFilter:
    """Put one `RepeatFilter` on the loggers a server under attack repeats itself on."""
    repeat = RepeatFilter(window)
    for name in ("asyncio", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).addFilter(repeat)
    return repeat
