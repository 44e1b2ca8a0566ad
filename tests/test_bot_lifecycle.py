"""One bot life cycle everywhere (`holdem.bots.decide`): the same calls, at the same moments, in a match,
a tournament, `play_table`, `holdem play`, the ACPC client and `holdem join`; and a failing hook
is a fault everywhere, never a crash."""

from __future__ import annotations

import io
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from holdem import Action, Stakes, Table
from holdem.acpc.client import play_acpc
from holdem.bots.match import MatchConfig, play_match
from holdem.bots.session import play_table
from holdem.cli.play import play
from holdem.hand.events import HandResult
from holdem.hand.views import SeatView
from holdem.tournament.run import TournamentConfig, play_tournament
from holdem.tournament.structure import load_structure
from tests.server_support import ThreadServer

CALLS: list[tuple[int, str, tuple[str, ...] | None]] = []
"""Every recorded call: (the bot instance's id, the call, the hand's hole cards)."""
SPEC = "tests.test_bot_lifecycle:Recorder"


class Recorder:
    """Calls or folds; records each call of its life cycle with the hand it belongs to (its hole
    cards), and raises in the one named by `fail`."""

    def __init__(self, fail: str = "") -> None:
        self.fail = fail
        self.names: tuple[str, ...] = ()

    def set_random(self, rng: random.Random) -> None:
        self._log("set_random", None)

    def meet(self, names: tuple[str, ...]) -> None:
        assert all(isinstance(name, str) for name in names) and len(set(names)) == len(names), names
        self.names = names
        self._log("meet", None)

    def start_hand(self, view: SeatView) -> None:
        assert len(self.names) == len(view.stacks), (self.names, view.stacks)  # one name a player
        self._log("start_hand", view)

    def act(self, view: SeatView) -> Action:
        self._log("act", view)
        legal = view.legal
        assert legal is not None
        return Action.check() if legal.can_check else Action.call()

    def end_hand(self, view: SeatView, result: HandResult) -> None:
        assert isinstance(result, HandResult) and len(result.payouts) == len(view.stacks)
        assert view.phase.name in ("COMPLETE", "SHOWDOWN") or view.legal is None
        self._log("end_hand", view)

    def _log(self, call: str, view: SeatView | None) -> None:
        CALLS.append((id(self), call, None if view is None else tuple(map(str, view.hole))))
        if call == self.fail:
            raise RuntimeError(f"{call} fails on purpose")


def lives() -> list[list[tuple[str, tuple[str, ...] | None]]]:
    """Each bot's calls, in order, one list per bot instance."""
    by_bot: dict[int, list[tuple[str, tuple[str, ...] | None]]] = {}
    for bot, call, hand in CALLS:
        by_bot.setdefault(bot, []).append((call, hand))
    return list(by_bot.values())


def hands_lived(life: list[tuple[str, tuple[str, ...] | None]], *, may_stop_mid_hand: bool = False) -> int:
    """Check one bot's life: `set_random` once and first, then for each hand `meet`, `start_hand`,
    its decisions and `end_hand`, all of the same hand, one hand at a time; returns the hands."""
    assert ("set_random", None) == life[0] and all(call != "set_random" for call, _ in life[1:]), life[:3]
    hands, current = 0, None
    for k, (call, hand) in enumerate(life[1:], 1):
        if call == "meet":
            assert current is None and life[k + 1][0] == "start_hand", (
                f"meet in {current} or not before a hand"
            )
        elif call == "start_hand":
            assert life[k - 1][0] == "meet", "a hand began without its players named"
            assert current is None, f"a hand began before {current} ended"
            current, hands = hand, hands + 1
        else:
            assert current is not None and hand == current, f"{call} outside its hand: {hand} in {current}"
            current = None if call == "end_hand" else current
    assert current is None or may_stop_mid_hand, f"hand {current} never ended"
    return hands


# --------------------------------------------------------------- the six places a bot plays
def in_a_match(spec: Any) -> int:
    result = play_match(MatchConfig((spec, "calling-station"), seed=3), 30)
    return result.bots[0].faults


def in_a_tournament(spec: Any) -> int:
    config = TournamentConfig((spec, "calling-station"), 4, load_structure("hyper"), table_size=4, seed=2)
    run = play_tournament(config)
    return sum(f.faults for f in run.finishes if f.bot == spec)


def at_a_table(spec: Any) -> int:
    table = Table(3, Stakes(1, 2), button="moving", rng=random.Random(4))
    for seat in range(3):
        table.sit(seat, f"p{seat}", 200)
    session = play_table(table, {0: spec, 1: "calling-station", 2: spec}, 25, rebuy=200, rng=random.Random(5))
    return len(session.faults)


def in_holdem_play(spec: Any) -> int:
    out = io.StringIO()
    play(io.StringIO("c\n" * 60), out, [spec, spec], seed=6)
    return out.getvalue().count("fails on purpose")


def through_the_acpc_client(spec: Any) -> int:
    from holdem.acpc import load_gamedef
    from tests.test_acpc import _dealer_thread

    game = load_gamedef("holdem.nolimit.2p.reverse_blinds.game")
    thread, ports, outcome = _dealer_thread(Path(CLIENT_FOLDER[0]), 20)
    faults: list[int] = []

    def client(port: int) -> None:
        from holdem.bots import load_bot

        faults.append(play_acpc("127.0.0.1", port, load_bot(spec), game, seed=port).faults)

    clients = [threading.Thread(target=client, args=(port,), daemon=True) for port in ports]
    for c in clients:
        c.start()
    for c in [*clients, thread]:
        c.join(60)
    assert "error" not in outcome, outcome
    return sum(faults)


def with_holdem_join(spec: Any) -> int:
    from tests.test_server_join import bots_at

    with ThreadServer(f"sqlite:///{CLIENT_FOLDER[0]}/h.db") as server:
        table = server.table(seats=2)
        summaries = bots_at(server, table, [spec, spec], hands=12, rebuy=200)
    return sum(len(s.faults) for s in summaries)


PLACES: dict[str, Callable[[Any], int]] = {
    "match": in_a_match,
    "tournament": in_a_tournament,
    "play_table": at_a_table,
    "holdem play": in_holdem_play,
    "ACPC client": through_the_acpc_client,
    "holdem join": with_holdem_join,
}
CLIENT_FOLDER: list[str] = [""]


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path) -> None:
    CALLS.clear()
    CLIENT_FOLDER[0] = str(tmp_path)


@pytest.mark.parametrize("place", list(PLACES))
def test_the_same_life_cycle_wherever_a_bot_plays(place: str) -> None:
    """Each bot: `set_random` once, then for each hand it is dealt `meet`, `start_hand`, its
    decisions and `end_hand`, never two hands at once (`holdem play` may stop mid-hand: the person quit)."""
    assert 0 == PLACES[place](SPEC)
    bots = lives()
    assert bots, "no bot was called"
    hands = [hands_lived(life, may_stop_mid_hand=place == "holdem play") for life in bots]
    assert min(hands) >= 1, hands


@pytest.mark.parametrize("hook", ["set_random", "meet", "start_hand", "end_hand"])
@pytest.mark.parametrize("place", list(PLACES))
def test_a_failing_hook_is_a_fault_everywhere(place: str, hook: str) -> None:
    """A hook that raises is counted as a fault, once per call, and play goes on."""
    faults = PLACES[place](f"{SPEC}[fail={hook}]")
    calls = sum(1 for _, call, _ in CALLS if call == hook)
    assert calls >= 1 and faults == calls, (faults, calls)
