"""Any bot of the bot interface at a served table: `holdem join` and `play_bot`.

The bot joins with a buy-in, connects with its seat's token and asks the server for its `SeatView`
in each state message (``/ws?token=…&view=1``): the very view `holdem.hand.views.view` gives a local
bot, rebuilt with `SeatView.from_dict`. On its turn the bot's ``act(view)`` is checked against
the legal actions before anything is sent: an exception, a non-action or an illegal action is
played as check-or-fold and counted as a fault, as in a local match (`holdem.bots.decide`), so the
server never receives an illegal action. The hooks are called as locally (`holdem.bots.decide`):
``set_random`` once, ``start_hand`` at the first state of each hand the seat is dealt into, and
``end_hand`` when the server says the hand is over, with the seat's own view of it as it ended and
its `HandResult` (the server sends both to that seat alone). A dropped connection or a server
restart is survived by reconnecting with the same token.

The bot leaves the table when it has played the hands asked for (sitting out of the next one
first, so that it is not dealt a hand it will not finish), when it is stopped, or when it is
broke with no rebuy; the server cashes it out.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

import attrs

from holdem.bots import BotSpec, bot_name, load_bot
from holdem.bots.decide import Hooks
from holdem.console.arguments import counted
from holdem.errors import HoldemError, IllegalActionError
from holdem.hand.actions import Action, ActionKind, check_or_fold
from holdem.hand.events import HandResult
from holdem.hand.views import SeatView
from holdem.server import OPEN_TIMEOUT, SERVER_HINT, SILENCE

try:
    import websockets
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(SERVER_HINT) from error

__all__ = ["JoinSummary", "message_for", "play_bot", "run_bot"]

RECHECK = 2.0
"""Seconds of silence after which a seat asks the server for the table's state again."""

Decision = Callable[[int, SeatView, Action], None]
"""Called with the hand number, the view and the action sent, at each decision (for tests and logs)."""


@attrs.define
class JoinSummary:
    """What a bot did at a served table: hands finished, chips bought and held, faults."""

    table: str
    seat: int
    name: str
    hands: int = 0
    decisions: int = 0
    bought: int = 0
    stack: int = 0
    faults: list[str] = attrs.Factory(list)
    refused: int = 0
    """Messages the server answered with an error (a stale action after a reconnect, say)."""
    reconnects: int = 0
    left: bool = False
    bank: float | None = None
    """The seat's time bank in seconds as last seen: less than the table's means a decision outran
    the decision clock."""
    tournament: str | None = None
    """The tournament entered (`table` and `seat` then follow the player from table to table)."""
    place: int | None = None
    prize: int = 0
    entrants: int | None = None
    seed: int | None = None
    """The seed of the bot's random source (the same seed, the same choices at the same states)."""

    @property
    def won(self) -> int:
        """Chips won: what the bot holds (or took away) less what it bought."""
        return self.stack - self.bought

    def line(self) -> str:
        """The one-line summary `holdem join` prints."""
        if self.tournament is not None:
            where = (
                f"place {self.place} of {self.entrants}, prize {self.prize}"
                if self.place is not None
                else f"still in, {self.stack} chips at table {self.table or '-'}"
            )
            return (
                f"{self.name} in tournament {self.tournament}: {where}; {counted(self.hands, 'hand')},"
                f" {counted(self.decisions, 'decision')}, {counted(len(self.faults), 'fault')},"
                f" {counted(self.reconnects, 'reconnect')}{self._seed()}"
            )
        return (
            f"{self.name} at table {self.table} seat {self.seat}: {counted(self.hands, 'hand')},"
            f" chips won {self.won:+d}"
            f" (bought {self.bought}, holds {self.stack}), {counted(self.decisions, 'decision')},"
            f" {counted(len(self.faults), 'fault')}, {counted(self.reconnects, 'reconnect')}{self._seed()}"
        )

    def _seed(self) -> str:
        return "" if self.seed is None else f", seed {self.seed}"


def message_for(action: object, view: SeatView, hand: int, steps: int | None = None) -> dict[str, Any]:
    """The ``act`` message for a bot's answer in hand `hand` (after `steps` actions, if given: the
    server then refuses it at any other step), checked against `view.legal` exactly as the engine
    checks it (an all-in becomes the raise or call it amounts to); `IllegalActionError` otherwise."""
    legal = view.legal
    if legal is None:
        raise IllegalActionError("it is not this player's turn")
    if not isinstance(action, Action):
        raise IllegalActionError(f"act returned {action!r}, not an Action")
    kind, amount = action.kind, action.amount
    if kind is ActionKind.ALL_IN:
        stack = view.stacks[view.player]
        total = view.bets[view.player] + stack
        if not legal.can_check and legal.to_call == stack:
            kind = ActionKind.CALL  # calling takes every chip
        elif legal.max_raise_to == total:
            kind, amount = ActionKind.RAISE, total
        else:
            limit = "no raise" if legal.max_raise_to is None else f"raises up to {legal.max_raise_to}"
            raise IllegalActionError(f"all-in to {total} is not allowed: {limit}")
    if kind is ActionKind.FOLD and not legal.can_fold:
        raise IllegalActionError("fold when checking is free is not allowed")
    if kind is ActionKind.CHECK and not legal.can_check:
        raise IllegalActionError(f"cannot check: call {legal.to_call} or fold")
    if kind is ActionKind.CALL and legal.can_check:
        kind = ActionKind.CHECK  # nothing is owed: a call is a check, as the engine takes it
    if kind is ActionKind.RAISE:
        low, high = legal.min_raise_to, legal.max_raise_to
        if low is None or high is None or amount is None or not low <= amount <= high:
            allowed = "no raise is allowed" if low is None else f"raise to {low}..{high}"
            raise IllegalActionError(f"raise to {amount} is not allowed: {allowed}")
        message = {"type": "act", "hand": hand, "action": "raise", "amount": amount}
    else:
        message = {"type": "act", "hand": hand, "action": kind.value}
    return message if steps is None else message | {"steps": steps}


def play_bot(url: str, table: str | None = None, bot: BotSpec = "", **options: Any) -> JoinSummary:
    """Play `bot` at table `table` of the server at `url` (``http://host:port``) until it has played
    `hands` hands (all of them if None), is broke without `rebuy`, or is stopped; with
    ``tournament=ID`` instead of a table, enter that tournament and play it to the end (or until
    stopped). The synchronous form of `run_bot`, for scripts and embedding."""
    return asyncio.run(run_bot(url, table, bot, **options))


async def run_bot(
    url: str,
    table: str | None,
    bot: BotSpec,
    *,
    tournament: str | None = None,
    name: str | None = None,
    buy_in: int | None = None,
    rebuy: int | None = None,
    hands: int | None = None,
    seed: int | None = None,
    stop: asyncio.Event | None = None,
    reconnect_seconds: float = 60.0,
    on_decision: Decision | None = None,
    on_seated: Callable[[JoinSummary], None] | None = None,
) -> JoinSummary:
    """Join table `table` at `url` with `bot` and play (see the module's text); or, with `tournament`
    (and `table` None), enter the tournament and play wherever it seats the bot until it is out or
    wins. `buy_in` defaults to the table's maximum; `name` to the bot's name and a random suffix;
    `reconnect_seconds` is how long a lost server is waited for; `on_seated` hears of the seat (or
    the entry) as soon as it is taken."""
    if (table is None) == (tournament is None):
        raise HoldemError("give a table or a tournament to join, not both")
    if tournament is not None and (buy_in, rebuy, hands) != (None, None, None):
        raise HoldemError("a tournament has no buy-in, rebuy or hand count of the player's choosing")
    player = load_bot(bot)
    rng = random.Random(seed)
    base = url.rstrip("/")
    label = name or f"{bot_name(bot).split(':')[-1].split('[')[0][:23]}-{secrets.token_hex(2)}"
    summary, token = await _enter(base, table, tournament, label, buy_in)
    summary.seed = seed
    if on_seated is not None:
        on_seated(summary)
    seat = _Seat(summary, token, player, rebuy, hands, on_decision)
    if seat.hooks.set_random is not None:  # a failure is a fault, as in a local match
        seat.fault(None, seat.hooks.seed(random.Random(rng.getrandbits(64))))
    stop = stop or asyncio.Event()
    ws_url = "ws" + base[4:] if base.startswith("http") else base
    lost_since: float | None = None
    while not (summary.left or stop.is_set()):
        try:
            async with websockets.connect(
                f"{ws_url}/ws?token={seat.token}&view=1&alive=1",
                max_size=2**22,
                open_timeout=OPEN_TIMEOUT,
                close_timeout=1,
            ) as ws:
                lost_since = None
                await seat.play(ws, stop, base)
        except (websockets.ConnectionClosed, OSError):
            pass
        if summary.left or stop.is_set():
            break
        lost_since = lost_since or time.monotonic()
        if time.monotonic() - lost_since > reconnect_seconds:
            raise HoldemError(f"lost the server at {base} for over {reconnect_seconds:g} s")
        summary.reconnects += 1
        await asyncio.sleep(0.3)
    if not summary.left and tournament is None:
        await seat.leave(base)
    return summary


async def _enter(
    base: str, table: str | None, tournament: str | None, label: str, buy_in: int | None
) -> tuple[JoinSummary, str]:
    """Take a seat at `table` (with `buy_in`, by default the table's maximum) or enter `tournament`;
    the bot's summary so far and its token."""
    if tournament is not None:
        entered = await _http(base, "POST", f"/api/tournaments/{tournament}/entries", {"name": label})
        return JoinSummary("", -1, entered["name"].strip(), tournament=tournament), entered["token"]
    assert table is not None
    found = await _listed(base, table)
    if found is None:
        raise HoldemError(f"no table {table!r} at {base}")
    chips = found["config"]["max_buy_in"] if buy_in is None else buy_in
    joined = await _http(base, "POST", f"/api/tables/{table}/players", {"name": label, "buy_in": chips})
    if joined.get("pending"):  # a home game: the host approves or declines each player asking to sit
        await _approved(base, table, joined["seat"], label)
    return JoinSummary(table, joined["seat"], label, bought=chips, stack=chips), joined["token"]


APPROVAL_SECONDS = 300.0
"""How long a bot waits for a home game's host to seat it."""


async def _approved(base: str, table: str, seat: int, label: str) -> None:
    """Wait until the host of home game `table` seats `label` in `seat`; a `HoldemError` when the host
    declines, or does not answer within `APPROVAL_SECONDS`."""
    deadline = time.monotonic() + APPROVAL_SECONDS
    while time.monotonic() < deadline:
        found = await _listed(base, table)
        if found is None:
            raise HoldemError(f"table {table} is gone")
        if any(p["seat"] == seat and p["name"] == label for p in found["players"]):
            return
        if not any(p["seat"] == seat and p["name"] == label for p in found.get("asking", [])):
            raise HoldemError(f"the host of table {table} did not seat {label}")
        await asyncio.sleep(0.5)
    raise HoldemError(f"the host of table {table} did not answer within {APPROVAL_SECONDS:g} s")


async def _listed(base: str, table: str) -> dict[str, Any] | None:
    """The table as the lobby lists it, listed or not (a home game's id is its link); None if none."""
    try:
        found: dict[str, Any] = await _http(base, "GET", f"/api/tables/{urllib.parse.quote(table, safe='')}")
    except HoldemError as error:
        if f"no table {table!r}" in str(error):
            return None
        raise
    return found


class _Seat:
    """One bot's seat across connections: its token, what it has answered, and its counts."""

    def __init__(
        self,
        summary: JoinSummary,
        token: str,
        bot: Any,
        rebuy: int | None,
        hands: int | None,
        on_decision: Decision | None,
    ) -> None:
        self.summary, self.token, self.bot, self.rebuy, self.hands = summary, token, bot, rebuy, hands
        self.tournament = summary.tournament
        self.on_decision = on_decision
        self.answered: tuple[str, int, int] | None = None  # (table, hand, steps) of the last decision sent
        self.sent: dict[str, Any] | None = None  # the message sent for it
        self.resend = False  # the seat asked for the state again: an answered turn still waiting is resent
        self.rechecked = 0.0  # when it last asked
        self.dealt: set[tuple[str, int]] = set()  # (table, hand): hands this seat was dealt into
        self.counted: set[tuple[str, int]] = set()  # finished hands counted
        self.started: set[tuple[str, int]] = set()  # hands the bot was told began (`start_hand`)
        self.ended: set[tuple[str, int]] = set()  # and ended (`end_hand`)
        self.hooks = Hooks(bot)
        self.rebuying = self.asked = self.sitting_out = False  # a rebuy awaited; asked on this connection

    async def play(self, ws: Any, stop: asyncio.Event, base: str) -> None:
        """Answer this connection's states until it closes, the bot is done, or `stop` is set.

        One receive is kept waiting for the whole connection and never cancelled while the seat
        plays, so no message is lost. After `RECHECK` seconds of silence, or an error, the seat asks
        for the table's state again: a turn it answered that is still waiting gets the same answer
        again (the server refuses it as stale if the first was stored after all)."""
        # A new connection's states are the truth: an answer sent before the connection dropped
        # was stored (the state has moved on) or not (the same turn comes again, to be answered).
        self.answered, self.asked, self.resend = None, False, False
        stopped = asyncio.ensure_future(stop.wait())
        receiving: asyncio.Future[Any] | None = None
        heard = time.monotonic()
        try:
            while True:
                receiving = receiving or asyncio.ensure_future(ws.recv())
                done, _ = await asyncio.wait(
                    {receiving, stopped},
                    timeout=min(RECHECK, SILENCE / 2),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if stopped in done:
                    return
                if receiving not in done:  # silence: has the table moved on without telling us?
                    if time.monotonic() - heard > SILENCE:  # a stopped server: connect again
                        raise ConnectionError(f"nothing from the server for {SILENCE:g} s")
                    await self.recheck(ws)
                    continue
                message, receiving, heard = json.loads(receiving.result()), None, time.monotonic()
                if message["type"] == "error":  # refused: ask what is true now
                    self.summary.refused += 1
                    self.rebuying = False  # a refused rebuy is not awaited
                    await self.recheck(ws)
                    continue
                if message["type"] == "finished":  # out of the tournament, or its winner
                    self.end(message.get("last_table"), message.get("last_number"), message)
                    summary = self.summary
                    summary.hands += len(self.dealt - self.counted)  # the last hand, which ended it
                    summary.place, summary.prize = message["place"], message["prize"]
                    summary.entrants, summary.left = message.get("entrants"), True
                    return
                if message["type"] != "state":  # moved (the new table's state follows), waiting, pong
                    continue
                last = message["last_hand"]  # the hand before this one ends before this one begins
                if last is not None:
                    given = {"last_view": message.get("last_view"), "last_result": last.get("result")}
                    self.end(message["table"], last["number"], given)
                self.begin(message)
                if await self.track(ws, message, base):
                    return
                decision = self.decide(message)
                if decision is not None:
                    await ws.send(json.dumps(decision))
        finally:
            for task in (receiving, stopped):
                if task is not None:
                    task.cancel()

    async def recheck(self, ws: Any) -> None:
        """Ask for the table's state again (at most twice a second: a refused request is not repeated
        at once); an answered turn still waiting in the answer is resent."""
        self.resend = True
        if time.monotonic() - self.rechecked >= 0.5:
            self.rechecked = time.monotonic()
            await ws.send(json.dumps({"type": "state"}))

    async def track(self, ws: Any, state: dict[str, Any], base: str) -> bool:
        """Count finished hands, rebuy or leave when broke, sit out before the last hand; True when done."""
        summary = self.summary
        if self.tournament is not None and state["seat"] is not None:  # moved with the tournament
            summary.table, summary.seat = state["table"], state["seat"]
        me, table = state["seats"][summary.seat], state["table"]
        if me is None and self.tournament is not None:  # between tables: never left during a move
            await self.recheck(ws)  # the server answers with where the entrant is now, or `finished`
            return False
        if me is None:
            summary.left = True  # the server let the seat go
            return True
        if me["in_hand"]:
            self.dealt.add((table, state["hand"]))
        last = state["last_hand"]
        done_hand = None if last is None else (table, last["number"])
        if done_hand is not None and done_hand in self.dealt and done_hand not in self.counted:
            self.counted.add(done_hand)
            summary.hands += 1
        held = me["stack"] + me["pending"]
        if self.tournament is not None:  # no rebuys, sitting out or leaving: played to the end
            summary.stack, summary.bank = held, state.get("bank", summary.bank)
            return False
        if self.rebuying and held:  # the rebuy arrived (refused, an error would have come instead)
            summary.bought += self.rebuy or 0
            self.rebuying = self.asked = False
        summary.stack = held
        summary.bank = state.get("bank", summary.bank)
        done = self.hands is not None and summary.hands >= self.hands
        refused = self.asked and not self.rebuying  # the server refused the rebuy
        if not me["in_hand"] and (done or (held == 0 and (not self.rebuy or refused))):
            await self.leave(base)
            return True
        if held == 0 and self.rebuy and not self.asked and not me["in_hand"]:
            self.rebuying = self.asked = True  # asked once a connection: a lost answer is asked again
            await ws.send(json.dumps({"type": "rebuy", "amount": self.rebuy}))
        last_hand = self.hands is not None and summary.hands == self.hands - 1 and me["in_hand"]
        if last_hand and not self.sitting_out:
            self.sitting_out = True  # out of the hand after this one: it is the last to play
            await ws.send(json.dumps({"type": "sit_out"}))
        return False

    def decide(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The act message for this state, if it is the bot's turn: the bot's answer, or the answer
        already given to this turn when the seat asked again (it was lost or refused)."""
        data = state.get("view")
        if data is None or state["legal"] is None or state["actor"] != self.summary.seat:
            return None
        turn = (state["table"], state["hand"], state["steps"])
        if turn == self.answered:
            again, self.resend = self.resend, False
            return self.sent if again else None
        self.resend = False
        seen = SeatView.from_dict(data)
        self.answered = turn
        self.summary.decisions += 1
        _, hand, steps = turn
        try:
            action = self.bot.act(seen)
        except Exception as error:  # the bot raised: check or fold for it, as in a local match
            fault = f"act raised {type(error).__name__}: {error}"
        else:
            try:
                return self._sent(hand, seen, action, message_for(action, seen, hand, steps))
            except IllegalActionError as error:  # as holdem.bots.decide words it
                fault = str(error) if not isinstance(action, Action) else f"illegal action {action}: {error}"
        self.summary.faults.append(f"hand {hand}: {fault}")
        action = check_or_fold(seen.legal)
        return self._sent(hand, seen, action, message_for(action, seen, hand, steps))

    def begin(self, state: dict[str, Any]) -> None:
        """Step 2 of the life cycle: the first state of a hand the seat is dealt into."""
        key = (state["table"], state["hand"])
        if state.get("view") is not None and key not in self.started:
            self.started.add(key)
            seats = state["seats"]
            names = tuple(seats[s]["name"] if seats[s] is not None else "" for s in state.get("dealt", ()))
            self.fault(key[1], self.hooks.meet_players(names))
            self.fault(key[1], self.hooks.start_seen(SeatView.from_dict(state["view"])))

    def end(self, table: str | None, number: int | None, given: dict[str, Any]) -> None:
        """Step 4: a hand the bot was told began is over, and the server sent its view and result."""
        key = (table, number)
        seen, result = given.get("last_view"), given.get("last_result")
        if key in self.started and key not in self.ended and seen is not None and result is not None:
            self.ended.add(key)
            self.fault(number, self.hooks.end_seen(SeatView.from_dict(seen), HandResult.from_dict(result)))

    def fault(self, hand: int | None, found: tuple[str, str | None] | None) -> None:
        """Count a failing hook as a fault, as a local match does."""
        if found is not None:
            self.summary.faults.append(found[0] if hand is None else f"hand {hand}: {found[0]}")

    def _sent(self, hand: int, seen: SeatView, action: Action, message: dict[str, Any]) -> dict[str, Any]:
        if self.on_decision is not None:
            self.on_decision(hand, seen, action)
        self.sent = message
        return message

    async def leave(self, base: str) -> None:
        """Leave the table (the server cashes the seat out at the end of the hand in progress)."""
        path = f"/api/tables/{self.summary.table}/players/{self.summary.seat}"
        try:
            await _http(base, "DELETE", path, token=self.token)
        except HoldemError as error:
            if "needs that seat's token" not in str(error):  # already gone: nothing to leave
                raise
        self.summary.left = True  # now, or at the end of the hand in progress


async def _http(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """One JSON request to the server (in a thread: urllib blocks); a refusal is a `HoldemError`."""

    def call() -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        if token is not None:
            request.add_header("authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            try:
                reason = json.loads(error.read()).get("error", error.reason)
            except ValueError:
                reason = error.reason
            raise HoldemError(f"{method} {path}: {reason}") from None
        except (urllib.error.URLError, OSError) as error:
            raise HoldemError(f"cannot reach {base}: {getattr(error, 'reason', error)}") from None

    return await asyncio.get_running_loop().run_in_executor(None, call)
