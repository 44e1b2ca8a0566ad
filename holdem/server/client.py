"""A bot that plays a seat over the network: for load runs, tests, and as a start for your own.

``await play_seat("ws://127.0.0.1:8000", token, stop=event)`` answers every ``state`` in which the
seat is to act with ``policy(state, rng)`` (a random legal action by default) until `stop` is
set or the connection closes (a silent server is connected to again), and measures each action's
round trip: from sending it to the first state that shows it applied.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from typing import Any

import attrs

from holdem.server import OPEN_TIMEOUT, SERVER_HINT, SILENCE

try:
    import websockets
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(SERVER_HINT) from error

__all__ = ["Policy", "SeatRun", "play_seat", "random_policy"]

Policy = Callable[[dict[str, Any], random.Random], dict[str, Any]]
"""A seat's decision: the state message in, the ``act`` message out."""


def random_policy(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action chosen at random (never a fold when checking is free)."""
    legal = state["legal"]
    choices = ["check"] if legal["check"] else ["call", "fold"] if legal["call"] else ["fold"]
    if legal["raise"] is not None:
        choices.append("raise")
    action = rng.choice(choices)
    message = {"type": "act", "hand": state["hand"], "action": action}
    if action == "raise":
        low, high = legal["raise"]["min"], legal["raise"]["max"]
        message["amount"] = min(high, low + int(rng.expovariate(1.0) * (high - low) / 4))
    return message


@attrs.define
class SeatRun:
    """What happened on one connection: actions sent, their round trips (seconds), errors, messages,
    the last state received, and the action awaiting its answer."""

    actions: int = 0
    latencies: list[float] = attrs.Factory(list)
    errors: list[str] = attrs.Factory(list)
    messages: list[dict[str, Any]] = attrs.Factory(list)
    last: dict[str, Any] | None = None
    closed: bool = False
    reconnects: int = 0
    """Times the server fell silent and was connected to again."""
    pending: tuple[int, int, float] | None = None
    """The action sent and not yet seen applied or refused: (hand, steps, when sent)."""


async def play_seat(
    url: str,
    token: str,
    *,
    stop: asyncio.Event,
    policy: Policy = random_policy,
    rng: random.Random | None = None,
    record: bool = False,
    run: SeatRun | None = None,
    acting: Callable[[], bool] = lambda: True,
    rebuy: int | None = None,
    think: float = 0.0,
) -> SeatRun:
    """Play the seat of `token` at the server `url` (``ws://host:port``) until `stop` is set.

    `record` keeps every message received; `acting()` False makes the bot hold its turn (the
    clock runs); pass the same `run` again to go on counting after a reconnect. With `rebuy`,
    a busted bot buys that many chips again. `think` seconds pass before each action. A server
    silent for `SILENCE` seconds (stopped, or too busy to send its sign of life) is connected to
    again; a closed connection ends the run.
    """
    seat = _Playing(run or SeatRun(), policy, rng or random.Random(), record, acting, rebuy, think)
    while not stop.is_set():
        try:
            await _play_connection(url, token, stop, seat)
        except _Silent:
            seat.run.reconnects += 1
            seat.run.pending = None  # the action in flight may be lost: the next state says
            continue
        except (websockets.ConnectionClosed, OSError):
            seat.run.closed = True
        break
    return seat.run


class _Silent(Exception):
    """The server sent nothing for `SILENCE` seconds."""


async def _play_connection(url: str, token: str, stop: asyncio.Event, seat: _Playing) -> None:
    """One connection of `play_seat`, until `stop` is set or the server falls silent."""
    async with websockets.connect(
        f"{url}/ws?token={token}&alive=1", max_size=2**22, open_timeout=OPEN_TIMEOUT, close_timeout=1
    ) as ws:
        heard = time.monotonic()
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), seat.wait())
                heard = time.monotonic()
            except TimeoutError:
                if time.monotonic() - heard > SILENCE:
                    raise _Silent from None
                text = None
            if text is None or await seat.take(ws, json.loads(text)):
                await seat.act(ws)


class _Playing:
    """A seat being played: what it received, rebuys, and a turn waiting for its thinking time."""

    def __init__(
        self, run: SeatRun, policy: Policy, rng: random.Random, record: bool, acting: Callable[[], bool],
        rebuy: int | None, think: float,
    ) -> None:  # fmt: skip
        self.run, self.policy, self.rng, self.record = run, policy, rng, record
        self.acting, self.rebuy, self.think = acting, rebuy, think
        self.rebuying = False
        self.turn_seen: tuple[int, int, float] | None = None  # (hand, steps, when): waiting for `think`

    def wait(self) -> float:
        """How long to wait for a message: a tenth of a second, less while a turn's thinking ends."""
        if self.turn_seen is None:
            return 0.1
        return max(min(0.1, self.turn_seen[2] + self.think - time.perf_counter()), 0.001)

    async def take(self, ws: Any, message: dict[str, Any]) -> bool:
        """Take in a message (an error forgets the answer sent; a state may call for a rebuy); True
        for a state, after which the seat may act."""
        run = self.run
        if message["type"] == "alive":  # the server's sign of life: nothing to take in
            return False
        if self.record:
            run.messages.append(message)
        if message["type"] == "error":
            run.errors.append(message["message"])
            run.pending = None
            return False
        if message["type"] != "state":
            return False
        sent = run.pending
        if sent is not None and (message["hand"], message["steps"]) != sent[:2]:
            run.latencies.append(time.perf_counter() - sent[2])
            run.pending = None
        run.last = message
        me = message["seats"][message["seat"]] if message["seat"] is not None else None
        broke = me is not None and me["stack"] + me["pending"] == 0 and not me["in_hand"]
        if self.rebuy and broke and not self.rebuying:
            await ws.send(json.dumps({"type": "rebuy", "amount": self.rebuy}))
        self.rebuying = broke
        return True

    async def act(self, ws: Any) -> None:
        """Answer the seat's turn, if it is one and nothing is awaiting an answer, once `think`
        seconds have passed since the turn was first seen."""
        run, state = self.run, self.run.last
        if (
            run.pending is not None
            or state is None
            or state["legal"] is None
            or state["actor"] != state["seat"]
        ):
            self.turn_seen = None
            return
        if not self.acting():
            self.turn_seen = None
            return
        if self.turn_seen is None or self.turn_seen[:2] != (state["hand"], state["steps"]):
            self.turn_seen = (state["hand"], state["steps"], time.perf_counter())
        if time.perf_counter() < self.turn_seen[2] + self.think:
            return
        self.turn_seen = None
        run.pending = (state["hand"], state["steps"], time.perf_counter())
        await ws.send(json.dumps(self.policy(state, self.rng)))
        run.actions += 1
