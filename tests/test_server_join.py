"""Any bot at a served table: `holdem join` and `play_bot`, views equal to the local ones, faults
handled as in a local match, reconnection after a server restart."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip(
    "uvicorn", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)

from holdem import Action, Hand, Stakes
from holdem.errors import IllegalActionError
from holdem.formats import phh
from holdem.hand.views import SeatView, view
from holdem.server.join import JoinSummary, message_for, run_bot
from tests.server_support import PAIRS_BOT, ProcessServer, ThreadServer, check_hands
from tests.strategies import examples, random_action


def bots_at(server: Any, table: str, specs: list[Any], **options: Any) -> list[JoinSummary]:
    """Run `run_bot` for each spec at once, bounded in time. A bot that missed hands (broke, it waits
    for the big blind after its rebuy) would wait alone once the others have left: the others stop
    two seconds after the first is done."""

    async def main() -> list[JoinSummary]:
        stop = asyncio.Event()
        runs = [asyncio.create_task(run_bot(server.base, table, spec, seed=k, stop=stop, **options))
                for k, spec in enumerate(specs)]  # fmt: skip
        try:
            await asyncio.wait_for(asyncio.wait(runs, return_when=asyncio.FIRST_COMPLETED), 90)
            await asyncio.sleep(2.0)
        finally:
            stop.set()
        return list(await asyncio.wait_for(asyncio.gather(*runs), 30))

    return asyncio.run(main())


def test_a_built_in_and_a_module_class_bot_play_200_hands_from_the_command_line(tmp_path: Path) -> None:
    """`holdem join` with `equity` and with `mypairs:Pairs`: 200 hands each, then both leave; every
    stored hand replays and the chips are conserved."""
    (tmp_path / "mypairs.py").write_text(textwrap.dedent(PAIRS_BOT))
    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        table = server.table(seats=2)
        command = [sys.executable, "-m", "holdem", "join", server.base, "--table", table, "--hands", "200",
                   "--rebuy", "200", "--seed", "1"]  # fmt: skip
        pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True, "cwd": tmp_path}
        players = [
            subprocess.Popen([*command, "--bot", bot], **pipes)  # type: ignore[call-overload]
            for bot in ("equity[samples=40]", "mypairs:Pairs")
        ]
        try:
            outputs = [player.communicate(timeout=150) for player in players]
        finally:
            for player in players:
                player.kill()
                player.wait(10)
        for player, (out, err) in zip(players, outputs, strict=True):
            assert 0 == player.returncode, err
            assert ": 200 hands, chips won " in out and ", 0 faults," in out, out
            assert out.rstrip().endswith(", seed 1"), out  # the seed is printed with the results
            assert "seated at table " in err and "(seed 1); Ctrl-C leaves" in err, err  # said at once
        hands = server.hands(table)
        assert len(hands) >= 200
        check_hands(hands)
        assert [] == server.http("GET", "/api/tables")[1]["tables"][0]["players"]  # both left
        net, on_table = server.chips_conserved(table)
        assert (net, on_table) == (0, 0)


def test_a_bot_at_a_served_table_gets_the_view_it_would_get_locally(tmp_path: Path) -> None:
    """For every decision, the view the bot was given equals, field for field, the view of the
    stored hand replayed locally to that point."""
    given_views: list[tuple[int, SeatView]] = []
    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        table = server.table(seats=3, ante=1)
        bots_at(server, table, ["random", "equity[samples=30]", "calling-station"], hands=25, rebuy=200,
                on_decision=lambda hand, seen, action: given_views.append((hand, seen)))  # fmt: skip
        stored = {hand["number"]: phh.loads(hand["phh"])[0] for hand in server.hands(table)}
    assert len(given_views) > 50
    for number, seen in given_views:
        replayed = phh.replay(stored[number]).hand
        assert replayed is not None
        local = view(replayed.rewound(len(seen.history)), seen.player)
        assert tuple(local) == tuple(seen) and local.legal == seen.legal, number


class Unruly:
    """Raises now and then, answers with nonsense or an illegal raise now and then, else calls."""

    def __init__(self) -> None:
        self.count = 0

    def act(self, view: SeatView) -> Any:
        self.count += 1
        legal = view.legal
        assert legal is not None
        match self.count % 4:
            case 0:
                raise RuntimeError("boom")
            case 1:
                return "raise!"
            case 2:
                return Action.raise_to(10**9)
        return Action.check() if legal.can_check else Action.call()


def test_a_bot_that_raises_or_answers_illegally_checks_or_folds_and_nothing_illegal_is_sent(
    tmp_path: Path,
) -> None:
    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        table = server.table(seats=2)
        unruly, other = bots_at(server, table, [Unruly, "calling-station"], hands=15, rebuy=200)
    assert unruly.faults and 0 == unruly.refused and 0 == other.refused
    assert any("act raised RuntimeError: boom" in f for f in unruly.faults)
    assert any("not an Action" in f for f in unruly.faults)
    assert any(
        "illegal action raise 1000000000: raise to 1000000000 is not allowed" in f for f in unruly.faults
    )
    assert 15 == max(unruly.hands, other.hands)


def test_bots_reconnect_with_their_tokens_after_a_server_restart(tmp_path: Path) -> None:
    """`kill -9` of the server mid-session: the bots reconnect when it is back and play on."""
    server = ProcessServer(f"sqlite:///{tmp_path / 'h.db'}").start()
    try:
        table = server.table(seats=2)

        async def main() -> list[JoinSummary]:
            runs = [asyncio.create_task(run_bot(server.base, table, spec, hands=150, rebuy=200, seed=k))
                    for k, spec in enumerate(["random", "calling-station"])]  # fmt: skip
            for _ in range(200):  # until some hands are stored, at most 20 s
                await asyncio.sleep(0.1)
                if len(server.hands(table)) >= 20:
                    break
            await asyncio.get_running_loop().run_in_executor(None, server.kill)
            await asyncio.sleep(0.5)
            await asyncio.get_running_loop().run_in_executor(None, server.start)
            return list(await asyncio.wait_for(asyncio.gather(*runs), 120))

        summaries = asyncio.run(main())
        assert all(s.reconnects >= 1 and s.hands == 150 for s in summaries), [s.line() for s in summaries]
        check_hands(server.hands(table))
        assert (0, 0) == server.chips_conserved(table)
    finally:
        server.stop()


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["fold", "check", "call", "raise", "all_in"]),
       frac=st.floats(-0.5, 1.5))  # fmt: skip
def test_what_is_sent_is_exactly_what_the_engine_accepts(seed: int, kind: str, frac: float) -> None:
    """`message_for` accepts an answer exactly when the hand would, and the message it makes applies
    the same action (an all-in as the raise or call it amounts to)."""
    rng = random.Random(seed)
    stacks = [rng.choice([rng.randint(1, 30), rng.randint(30, 400)]) for _ in range(rng.randint(2, 6))]
    hand = Hand.start(stacks, Stakes(1, 2), rng=rng)
    for _ in range(rng.randint(0, 10)):
        if hand.is_complete:
            return
        hand.act(random_action(hand, rng))
    if hand.is_complete:
        return
    legal = hand.legal_actions()
    assert legal is not None
    low = legal.min_raise_to or 2
    size = max(1, int(low + frac * ((legal.max_raise_to or low) - low)))
    simple = {
        "fold": Action.fold(),
        "check": Action.check(),
        "call": Action.call(),
        "all_in": Action.all_in(),
    }
    action = Action.raise_to(size) if kind == "raise" else simple[kind]
    seen = view(hand, legal.player)
    try:
        message = message_for(action, seen, 1)
    except IllegalActionError:
        assert not hand.is_legal(action)
        return
    sent = Action.raise_to(message["amount"]) if message["action"] == "raise" else Action(message["action"])
    before = len(hand.history)
    hand.act(action)
    assert sent == hand.history[before][1]
