"""Crash safety: ``kill -9`` the server mid-hand, again and again; every table resumes where it was."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip(
    "uvicorn", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)

from websockets.sync.client import connect

from tests.server_support import ProcessServer, check_hands, play_bots, progress, seen

KILLS = 6


def settled(runs: list[Any]) -> bool:
    """Every seat has seen the same step of the same hand, no action awaits its answer and no seat
    is broke (a rebuy may be on its way): nothing is in flight."""
    states = [run.last for run in runs]
    if any(state is None for state in states) or any(run.pending is not None for run in runs):
        return False
    mine = [state["seats"][state["seat"]] for state in states]
    return len({(state["hand"], state["steps"]) for state in states}) == 1 and all(
        seat["stack"] + seat["pending"] > 0 or seat["in_hand"] for seat in mine
    )


def public(state: dict[str, Any]) -> tuple[Any, ...]:
    return state["hand"], state["steps"], state["hole"], state["board"], state["pot"], state["actor"]


def test_kill_9_mid_hand_loses_nothing_and_the_hand_carries_on(tmp_path: Path) -> None:
    rng = random.Random(9)
    server = ProcessServer(f"sqlite:///{tmp_path / 'crash.db'}").start()
    try:
        table = server.table(seats=3, action_seconds=30)
        tokens = [server.join(table, name, 200)[1] for name in ("ann", "bob", "cid")]
        for kill in range(KILLS):
            # Kill while the bots play, at a random moment.
            killer = threading.Timer(rng.uniform(0.2, 1.0), server.kill)
            killer.start()
            runs = play_bots(server, tokens, hands=10**6, seconds=5, rebuy=200)
            killer.join()
            assert all(run.closed for run in runs)
            before = seen(runs)
            server.start()
            # Every stored hand replays to its finishing stacks; numbers have no gap; no chip is lost.
            check_hands(server.hands(table))
            net, on_table = server.chips_conserved(table)
            assert net == on_table
            # Each seat's last acknowledged state is where the table is, or the table has moved on
            # from it (an action stored but not yet broadcast when the server died).
            for seat, token in enumerate(tokens):
                with connect(f"{server.ws}/ws?token={token}") as ws:
                    now = json.loads(ws.recv(timeout=5))
                old = before[seat]
                assert progress(now) >= progress(old), kill
                if now["hand"] == old["hand"] and now["phase"] is not None:
                    assert (now["hole"], now["board"][: len(old["board"])]) == (old["hole"], old["board"])
        # Quiet, then kill: the hand in progress comes back exactly (cards, actor, pot). The bots
        # stop acting after half a second; the kill waits until nothing is in flight.
        acting = [True] * 3
        threading.Timer(0.5, lambda: acting.__setitem__(slice(None), [False] * 3)).start()
        runs = play_bots(
            server, tokens, hands=10**6, seconds=20, rebuy=200, acting=acting,
            until=lambda runs: not any(acting) and settled(runs),
        )  # fmt: skip
        assert settled(runs), "the table did not settle within 20 s"
        before = seen(runs)
        server.kill()
        server.start()
        for seat, token in enumerate(tokens):
            with connect(f"{server.ws}/ws?token={token}") as ws:
                assert public(before[seat]) == public(json.loads(ws.recv(timeout=5)))
        # And play carries on from there.
        runs = play_bots(server, tokens, hands=before[0]["hand"] + 3, seconds=20, rebuy=200)
        assert [] == [error for run in runs for error in run.errors]
        assert max(run.last["hand"] for run in runs) > before[0]["hand"] + 3
    finally:
        server.stop()
