"""The built-in bots a host seats from the page, played by the process serving their table.

Each bot lives as it does wherever it plays (`holdem.bots.decide`): ``set_random`` once, ``start_hand``
for each hand it is dealt into, ``act`` on its turns (in a worker thread, after `PAUSE` seconds so
that people can follow the table) and ``end_hand`` with its view of the hand as it ended. Its action
goes through the room like a player's; a failing or illegal answer checks or folds instead. The
seats are stored with the room (`Home.bots`), so a restarted or new serving process picks them up
with fresh bots.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

import attrs

from holdem.bots import load_bot
from holdem.bots.decide import Hooks
from holdem.errors import RefusedError, RequestError
from holdem.hand.actions import Action, check_or_fold
from holdem.hand.views import SeatView, view
from holdem.server.change import Change
from holdem.server.registry import Registry
from holdem.server.room import Room
from holdem.table.table import Seat

__all__ = ["PAUSE", "HouseBots"]

PAUSE = 0.4
"""Seconds a bot waits before it acts."""


class BotHost(Protocol):
    """What the bots need of the hub (`holdem.server.hub.Hub`): its registry (the rooms, and those with
    a host's bot), tasks and change."""

    registry: Registry

    def later(self, work: Coroutine[Any, Any, None]) -> None: ...

    def change(self, ident: str, fn: Callable[[Room, float], Change | None]) -> Awaitable[None]: ...


@attrs.define
class _Player:
    name: str
    bot: Any
    hooks: Hooks
    started: set[int] = attrs.Factory(set)
    ended: set[int] = attrs.Factory(set)


class HouseBots:
    """The bots seated by hosts at the tables this process serves."""

    def __init__(self, hub: BotHost) -> None:
        self.hub = hub
        self.players: dict[tuple[str, int], _Player] = {}
        self.busy: set[tuple[str, int]] = set()

    def tick(self) -> None:
        """Tell each bot of its hands beginning and ending, and set off the decision of each bot to act."""
        for key in [k for k in self.players if not self._seated(*k)]:
            del self.players[key]
        for ident in list(self.hub.registry.with_bots):
            room = self.hub.registry.rooms.get(ident)
            if room is None or room.home is None or not room.home.bots:
                continue
            for seat, spec in room.home.bots.items():
                player = self._player(room, seat, spec)
                if player is not None:
                    self._step(room, seat, player)

    def _seated(self, ident: str, seat: int) -> bool:
        room = self.hub.registry.rooms.get(ident)
        return room is not None and room.home is not None and seat in room.home.bots and seat in room.members

    def _player(self, room: Room, seat: int, spec: str) -> _Player | None:
        member = room.members.get(seat)
        if member is None:
            return None
        player = self.players.get((room.id, seat))
        if player is None or player.name != member.name:
            bot = load_bot(spec)
            player = self.players[room.id, seat] = _Player(member.name, bot, Hooks(bot))
            player.hooks.seed(random.Random(secrets.randbits(64)))
        return player

    def _step(self, room: Room, seat: int, player: _Player) -> None:
        last, hand = room.last_hand, room.table.hand
        end = last.ends.get(seat) if last is not None else None
        if last is not None and last.number in player.started - player.ended and end is not None:
            player.ended.add(last.number)
            player.hooks.end_seen(end.view, last.result)
        if hand is None or seat not in room.table.hand_seats:
            return
        k = room.table.hand_seats.index(seat)
        if room.number not in player.started:
            player.started.add(room.number)
            seats = room.table.seats
            player.hooks.meet_players(tuple(_seat_name(seats[s]) for s in room.table.hand_seats))
            player.hooks.start_seen(view(hand, k))
        key = (room.id, seat)
        paused = room.home is not None and room.home.paused
        if room.actor_seat() == seat and not paused and key not in self.busy:
            self.busy.add(key)
            self.hub.later(self._act(room.id, seat, player, room.number, room.steps(), view(hand, k)))

    async def _act(
        self, ident: str, seat: int, player: _Player, number: int, steps: int, seen: SeatView
    ) -> None:
        try:
            await asyncio.sleep(PAUSE)
            try:
                action = await asyncio.get_running_loop().run_in_executor(None, player.bot.act, seen)
            except Exception:
                action = None
            fallback = check_or_fold(seen.legal)
            answers = [action] if isinstance(action, Action) else []
            for answer in [*answers, fallback]:
                if await self._apply(ident, seat, number, steps, answer):
                    return
        finally:
            self.busy.discard((ident, seat))

    async def _apply(self, ident: str, seat: int, number: int, steps: int, action: Action) -> bool:
        """Whether the room took `action` (it refuses an illegal or a stale one)."""
        try:
            await self.hub.change(ident, lambda r, now: r.act(seat, number, action, now, steps))
        except (RequestError, RefusedError):
            return False
        return True


def _seat_name(seat: Seat | None) -> str:
    return "" if seat is None else seat.name
