"""What a new user meets in the first hour: Ctrl-C, bad options, the play screen, bots, tables, JSON."""

import argparse
import contextlib
import fcntl
import inspect
import io
import json
import os
import pty
import random
import re
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import holdem
import holdem.errors
from holdem import Action, Hand, Stakes, Table, equity
from holdem.bots.confidence import RunningMean, mean_ci
from holdem.bots.match import MatchConfig, play_match
from holdem.bots.report import format_table
from holdem.bots.session import play_table
from holdem.bots.simple import CallingStation, RandomBot
from holdem.cards.ranges import parse_range, preflop_order
from holdem.cli import build_parser, main
from holdem.cli.play import play
from holdem.console.progress import counter
from holdem.hand.views import SeatView
from tests.strategies import cards_in

HOLDEM = [sys.executable, "-m", "holdem"]


def _interruptible() -> None:
    """In the child: Ctrl-C at its default, even when the tests run where SIGINT is ignored (under
    nohup or `&`), so that Python turns it into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(
    args: list[str], *, ready: str | None, stdin: str | None = None, together: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run a holdem command in its own process group and press Ctrl-C (SIGINT to the group) once it
    is under way: once `ready` (a regular expression) appears in what it has printed, standard error
    being a terminal so that progress bars are drawn; or, for a command that prints nothing before
    it ends, once its processes have used more CPU time than starting up takes. Waits are bounded
    (60 s), the group is killed in any case and must be gone when this returns, and the workloads
    are bounded, so that a missed signal still ends in seconds."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns for the bar
    trace = stop_trace()
    process = subprocess.Popen(
        [*HOLDEM, *args], stdout=terminal if together else subprocess.PIPE, stderr=terminal,
        start_new_session=True, env={**os.environ, "HOLDEM_STOP_TRACE": str(trace)},
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL, preexec_fn=_interruptible,
    )  # fmt: skip
    os.close(terminal)
    out, err = bytearray(), bytearray()
    readers = [threading.Thread(target=_drain, args=(controller, err), daemon=True)]
    if process.stdout is not None:  # else it shares the terminal (`together`)
        readers.append(threading.Thread(target=_drain, args=(process.stdout.fileno(), out), daemon=True))
    for reader in readers:
        reader.start()
    try:
        deadline = time.monotonic() + 60
        while not (
            re.search(ready, (out + err).decode(errors="replace"))
            if ready is not None
            else cpu_seconds(process.pid) > STARTUP_CPU_SECONDS
        ):
            assert process.poll() is None, f"it ended before it was under way: {(out + err).decode()}"
            assert time.monotonic() < deadline, f"not under way after 60 s: {(out + err).decode()}"
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGINT)
        if process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                process.stdin.write((stdin or "").encode())
                process.stdin.close()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running 60 s after Ctrl-C: {(out + err).decode()[-2000:]}") from None
        for reader in readers:
            reader.join(timeout=10)
        for _ in range(100):  # workers exit with the parent; give them a moment
            if not group_alive(process.pid):
                break
            time.sleep(0.05)
        assert not group_alive(process.pid), "a process of the interrupted command is still running"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        os.close(controller)
        landed = read_stop_trace(trace)
    text = (out.decode(errors="replace"), err.decode(errors="replace").replace("\r\n", "\n"))
    return subprocess.CompletedProcess(
        process.args, process.returncode, text[0], with_stop_trace(text[1], landed)
    )


def stop_trace() -> Path:
    """A new file for HOLDEM_STOP_TRACE: where each stop lands in a stopped command, and every
    thread's stack if the command had to be ended (`holdem.cli._give_up`), to find a lost stop."""
    fd, name = tempfile.mkstemp(prefix="holdem-stop-", suffix=".txt")
    os.close(fd)
    return Path(name)


def read_stop_trace(trace: Path) -> str:
    """What the stopped command wrote to its stop trace; the file removed."""
    try:
        return trace.read_text() if trace.exists() else ""
    finally:
        trace.unlink(missing_ok=True)


def with_stop_trace(err: str, landed: str) -> str:
    """`err`, with the stop trace added where the command had to be ended (so that a failing test
    shows where the stop was lost)."""
    return f"{err}\n[HOLDEM_STOP_TRACE]\n{landed}" if "still stopping after" in err else err


STARTUP_CPU_SECONDS = 1.5
"""More CPU time than importing holdem and parsing the command take (about 0.5 s here)."""


def _drain(fd: int, into: bytearray) -> None:
    """Read `fd` into `into` until it ends (a terminal whose processes are gone reads as an error)."""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return
        if not chunk:
            return
        into += chunk


def cpu_seconds(group: int) -> float:
    """The CPU time used so far by the running processes of a process group, from /proc."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group:
            total += int(fields[11]) + int(fields[12])  # utime and stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def group_alive(group: int) -> bool:
    """Whether any process of the process group is still running (zombies aside), from /proc."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # it ended while being read
        if int(fields[2]) == group and fields[0] != "Z":
            return True
    return False


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_in_a_match_prints_the_results_so_far(workers: str) -> None:
    """Interrupted, a match reports the hands played, marked as interrupted, exits 130, no traceback."""
    args = ["match", "random", "random", "--hands", "300000", "--seed", "3", "--workers", workers]
    done = interrupt(args, ready=r"\b[1-9]\d*/300000 hands")
    assert 130 == done.returncode, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "(interrupted: the results of the hands played so far)" in done.stdout
    assert int(done.stdout.split()[0].replace(",", "")) > 0  # "N hands (plain)…"


SOME = r"[1-9]\d*"
MANY = r"(?:[2-9]\d{3}|[1-9]\d{4,})"
"""2,000 or more: eliminations are counted as they happen, inside tournaments still running (at most
2 workers x 32 tournaments x 8 eliminations, 512 of them); more than that and some tournament has
finished, so the interrupted series has results to print."""


@pytest.mark.parametrize("command", ["match", "tournament", "ladder"])
def test_ctrl_c_at_a_terminal_leaves_the_bar_on_its_own_line_and_never_redraws_it(command: str) -> None:
    """With the bar and the results on one terminal, the results began on the bar's line and the
    bar was drawn again after them; now the bar stays as it stood, a line of its own."""
    args, unit = {
        "match": (["match", "random", "random", "--hands", "300000", "--seed", "3"], "hands"),
        "tournament": (["tournament", "random", "calling-station", "--runs", "6000", "--seed", "1"],
                       "eliminations"),
        "ladder": (["ladder", "random", "rock", "maniac", "--hands", "100000", "--seed", "1"], "hands"),
    }[command]  # fmt: skip
    done = interrupt(args, ready=rf"\b{SOME if unit == 'hands' else MANY}/[\d,]+ {unit}", together=True)
    assert 130 == done.returncode, done.stderr
    screen = done.stderr.replace("\r\n", "\n")
    results = screen.index("(interrupted")
    heads = ("hands (plain)", "tournaments of", "ladder of")
    first = min(screen.find(head) for head in heads if head in screen)
    line_start = screen[:first].rsplit("\n", 1)[-1]  # what precedes the results on their line
    assert "|" not in line_start and "%" not in line_start, screen[:first][-300:]
    assert f" {unit} [" not in screen[results:] and "left]" not in screen[results:], screen[results:]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_in_a_tournament_series_reports_the_finished_runs(workers: str) -> None:
    """As a match does: the tournaments finished so far, marked as interrupted, exit 130."""
    done = interrupt(
        ["tournament", "random", "calling-station", "--runs", "6000", "--seed", "1", "--workers", workers],
        ready=rf"\b{MANY}/[\d,]+ eliminations",
    )
    assert 130 == done.returncode, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "(interrupted: the results of the tournaments finished so far)" in done.stdout
    assert 0 < int(done.stdout.split()[0].replace(",", "")) < 6000  # "N tournaments of …"
    assert "share the better place" in done.stdout  # what the mean place counts, said under it


@pytest.mark.parametrize(
    ("args", "ready", "stdin"),
    [
        (["equity", "any", "any", "any", "--samples", "12000000"], None, None),
        (["bench", "engine", "--hands", "300000", "--repeat", "1"], None, None),
        (["play", "--bots", "calling-station"], r"your action \[", ""),
    ],
)
def test_ctrl_c_elsewhere_is_one_line_and_exit_130(
    args: list[str], ready: str | None, stdin: str | None
) -> None:
    done = interrupt(args, ready=ready, stdin=stdin)
    assert 130 == done.returncode, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stderr.strip().endswith("interrupted")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "random", "random", "--blinds", "2/1"], "small blind is more than the big blind"),
        (["match", "random", "random", "--time-limit", "-1"], "positive number of seconds"),
        (["match", "random", "random", "--plot", "out.txt"], "name a .png file"),
        (["match", "equity[samples=abc]", "random"], "samples must be int, got 'abc'"),
        (["match", "equity[sample=3]", "random"], "has no argument 'sample'"),
        (["bench", "match", "--players", "11"], "2 to 10 players"),
        (["replay", "empty-folder"], "no .phh or .phhs files"),
        (["equity", "AsAh", "KsKh", "--board", "7d"], "a board has 0, 3, 4 or 5 cards"),
        (["equity", "AsAh", "KsKh", "--board", "7d8d"], "got 2"),
        (["match", "random", "random", "--stack", "1"], "the stack 1 is below the big blind 2"),
    ],
)
def test_wrong_input_is_one_clear_line_before_any_work(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty-folder").mkdir()
    args = [str(tmp_path / a) if a == "empty-folder" else a for a in args]
    assert 2 == status(args)  # before any work: the command returning is the event (no clock here)
    err = capsys.readouterr().err
    assert message in err and 1 == len(err.strip().splitlines()), err


def status(args: list[str]) -> int:
    """The exit status of `holdem ARGS`, whether argparse exits or the command returns."""
    try:
        return main(args)
    except SystemExit as exit:
        return int(exit.code or 0)


def test_every_option_has_help_and_the_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    commands = [("holdem", parser)]
    while commands:  # every command and subcommand (holdem acpc play, …)
        name, command = commands.pop()
        for action in command._actions:
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
            if isinstance(action, argparse._SubParsersAction):
                commands += [(f"{name} {sub}", p) for sub, p in action.choices.items()]
        assert "%%" not in command.format_help()
    with pytest.raises(SystemExit):
        main(["--version"])
    assert f"holdem {holdem.__version__}" == capsys.readouterr().out.strip()


def test_a_random_seed_is_printed_and_repeats_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert 0 == main(["match", "random", "random", "--hands", "60"])
    first = capsys.readouterr().out
    seed = first.split("seed ")[1].split()[0]
    assert 0 == main(["match", "random", "random", "--hands", "60", "--seed", seed])
    assert first == capsys.readouterr().out


def test_match_results_do_not_hold_every_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Statistics stream: a result keeps a thinned winnings curve, not a list per hand."""
    import holdem.bots.match

    monkeypatch.setattr(holdem.bots.match, "CURVE_POINTS", 10)
    result = play_match(MatchConfig(("random", "calling-station"), seed=2), 700)
    assert len(result.curve) <= 2 * 10
    assert (700, tuple(b.chips for b in result.bots)) == result.curve[-1]
    assert not hasattr(result, "winnings") and not hasattr(result, "histories")


def test_running_mean_agrees_with_the_textbook_interval() -> None:
    samples = [random.Random(k).randint(-500, 500) for k in range(300)]
    running = RunningMean()
    for x in samples:
        running.add(x)
    assert pytest.approx(mean_ci(samples)) == running.ci()


def test_histories_stream_to_a_phhs_file_that_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert 0 == main(["match", "random", "random", "random", "--hands", "120", "--seed", "1",
                      "--history", str(tmp_path), "--workers", "2"])  # fmt: skip
    capsys.readouterr()
    assert 0 == main(["replay", str(tmp_path / "match.phhs")])
    assert "120 hands: 120 replayed" in capsys.readouterr().out


def _play(inputs: str, bots: list[Any], seed: int = 1) -> str:
    out = io.StringIO()
    play(io.StringIO(inputs), out, bots, seed=seed)
    return out.getvalue()


def test_play_names_bets_raises_and_all_ins_as_they_were_applied() -> None:
    """An all-in shows its amount, an opening bet reads 'bets', and the person is 'you'."""
    out = _play("c\nr 2\n" + "a\n" * 4 + "q\n", ["calling-station"], seed=1)
    assert "raises to None" not in out
    assert "you: bet 2" in out or "you: bets" not in out
    assert "(all-in)" in out
    assert "you wins" not in out and "you shows" not in out
    assert "you win" in out or "calling-station wins" in out


class Raiser:
    def act(self, view: SeatView) -> Action:
        raise ValueError("no idea")


def test_play_says_when_a_bot_fails() -> None:
    out = _play("c\nq\n", ["tests.test_first_hour:Raiser"], seed=2)
    assert "failed (act raised ValueError: no idea) and checks or folds" in out


def test_equity_takes_the_random_sources_hands_take() -> None:
    first = equity(["AKs", "QQ"], samples=5000, rng=random.Random(7))
    assert first == equity(["AKs", "QQ"], samples=5000, rng=random.Random(7))


def test_any_two_cards_and_percentage_ranges() -> None:
    """'any', 'random' and 'XX' are all 1,326 hands; '10%' the strongest classes by the shipped order."""
    assert 1326 == len(parse_range("any")) == len(parse_range("XX")) == len(parse_range("random"))
    order = preflop_order()
    assert (169, "AA", "KK") == (len(order), order[0], order[1]) and "32o" == order[-1]
    top = parse_range("10%")
    assert 0.10 <= len(top) / 1326 < 0.11
    assert {(51, 50, 1.0)} <= set(top) and len(parse_range("100%")) == 1326
    with pytest.raises(holdem.InvalidRangeError, match="above 0%"):
        parse_range("0%")


def test_every_public_exception_is_exported_from_holdem() -> None:
    for name in holdem.errors.__all__:
        assert getattr(holdem, name) is getattr(holdem.errors, name)
        assert name in holdem.__all__


def test_replay_names_players_as_the_file_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
                   "starting_stacks = [200, 200, 200]\nactions = ['p1 f']\n")  # fmt: skip
    assert 1 == main(["replay", str(bad)])
    out = capsys.readouterr().out
    assert "p1 acted out of turn; p3 is to act" in out


class Counter:
    """A bot with state, given as an instance."""

    def __init__(self, calls: int = 0) -> None:
        self.calls = calls

    def act(self, view: SeatView) -> Action:
        self.calls += 1
        return Action.check() if view.legal is not None and view.legal.can_check else Action.call()


def make_station() -> CallingStation:
    return CallingStation()


def test_play_match_takes_instances_and_factories_in_any_number_of_workers() -> None:
    config = MatchConfig((Counter(), make_station, RandomBot), seed=3)
    one, two = play_match(config, 120), play_match(config, 120, workers=2)
    assert one == two and ["Counter", "make_station", "RandomBot"] == [b.name for b in one.bots]
    with pytest.raises(holdem.HoldemError, match="use workers=1"):
        play_match(MatchConfig((lambda: CallingStation(), "random")), 10, workers=2)


class Crasher:
    def act(self, view: SeatView) -> Action:
        raise RuntimeError("boom")


def test_a_raising_bot_shows_its_traceback_in_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    result = play_match(MatchConfig(("tests.test_first_hour:Crasher", "random"), seed=1), 4)
    trace = result.faults[0].traceback
    assert trace is not None and 'raise RuntimeError("boom")' in trace
    assert trace in format_table(result, debug=True) and trace not in format_table(result)
    assert 0 == main(["match", "tests.test_first_hour:Crasher", "random", "--hands", "4", "--debug"])
    assert 'raise RuntimeError("boom")' in capsys.readouterr().out


def test_format_table_needs_nothing_but_the_result() -> None:
    result = play_match(MatchConfig(("random", "random"), stakes=Stakes(5, 10), stack=500, seed=1), 10)
    assert "blinds 5/10, stacks 500, seed 1" in format_table(result)


def test_a_table_ends_a_finished_hand_by_itself_and_maps_players_to_seats() -> None:
    table = Table(6, Stakes(1, 2), rng=random.Random(2))
    for seat in (1, 3, 4):
        table.sit(seat, f"p{seat}", 100)
    hand = table.start_hand()
    while not hand.is_complete:
        hand.act(Action.fold())
    assert hand.result is not None
    settled = dict(zip(table.hand_seats, hand.result.final_stacks, strict=True))
    table.start_hand()  # no end_hand(): the table settles the finished hand first
    assert settled == {s: p.stack for s, p in enumerate(table.seats) if p is not None}
    for player, seat in enumerate(table.hand_seats):
        assert (seat, player) == (table.seat_of(player), table.player_at(seat))
    assert table.player_at(0) is None


def test_a_view_says_where_the_button_is_and_the_position() -> None:
    hand = Hand.start([100] * 6, Stakes(1, 2), rng=random.Random(1))
    assert ["SB", "BB", "UTG", "HJ", "CO", "BTN"] == [hand.view(p).position for p in range(6)]
    assert 5 == hand.view(0).button
    table = Table(6, Stakes(1, 2), rng=random.Random(1))  # a dead button: seat 0 empties
    for seat in range(3):
        table.sit(seat, f"p{seat}", 100)
    table.start_hand()
    table.hand.act(Action.fold())  # type: ignore[union-attr]
    table.hand.act(Action.fold())  # type: ignore[union-attr]
    table.end_hand()
    table.leave(0)
    table.sit(3, "p3", 100)
    hand = table.start_hand()
    assert (table.button in table.hand_seats) == (hand.view(0).button is not None)


def test_views_and_events_have_a_json_form_without_hidden_cards() -> None:
    rng = random.Random(5)
    hand = Hand.start([100, 100, 100], Stakes(1, 2), rng=rng)
    while not hand.is_complete:
        hand.act(Action.call() if not hand.legal_actions().can_check else Action.check())  # type: ignore[union-attr]
    for player in range(3):
        data = json.loads(json.dumps(hand.view(player).to_dict()))
        visible = {str(c) for c in cards_in(hand.view(player))}
        mentioned = {c for c in json.dumps(data).replace('"', " ").split() if len(c) == 2 and c[1] in "cdhs"}
        assert mentioned <= visible | {str(c) for c in hand.board}
    assert "preflop" == hand.events(0)[0].to_dict()["phase"]


def test_play_table_plays_bots_for_many_hands_with_rebuys_or_busts() -> None:
    cash = Table(6, Stakes(1, 2), button="moving", rng=random.Random(3))
    for seat in range(4):
        cash.sit(seat, f"p{seat}", 100)
    session = play_table(cash, dict.fromkeys(range(4), "random"), 200, rebuy=100, rng=random.Random(1))
    assert 200 == session.hands and 0 == sum(s.net for s in session.seats)
    assert sum(s.rebuys for s in session.seats) > 0
    tournament = Table(6, Stakes(10, 20), rng=random.Random(3))
    for seat in range(6):
        tournament.sit(seat, f"p{seat}", 200)
    session = play_table(tournament, dict.fromkeys(range(6), "random"), 10_000, rng=random.Random(1))
    assert 1 == sum(not s.busted for s in session.seats) and 5 == len(tournament.eliminated)


def test_the_acpc_dealer_listens_on_loopback_unless_told_otherwise() -> None:
    """Like `holdem serve`: 127.0.0.1 by default, every interface only when asked for."""
    from holdem.acpc.dealer import run_dealer

    args = build_parser().parse_args(
        ["acpc", "dealer", "m", "holdem.limit.2p.reverse_blinds.game", "10", "1", "a", "b"]
    )
    assert "127.0.0.1" == args.host
    assert "127.0.0.1" == inspect.signature(run_dealer).parameters["host"].default


def test_a_bar_runs_no_monitor_thread_so_closing_it_never_waits() -> None:
    """Ctrl-C between the two locks tqdm takes around a redraw left one held; tqdm's monitor thread
    then waited on it for ever, and closing the bar (as an interrupted command does) joined the
    monitor: a push/fold solve once hung after Ctrl-C. The bars run no monitor, so a lock left held
    by an interrupted redraw no longer stops the bar from closing."""
    controller, terminal = pty.openpty()
    saved = sys.stderr
    sys.stderr = open(terminal, "w", closefd=True)  # noqa: SIM115 (closed in finally)
    try:
        show = counter("hands")
        assert show is not None, "standard error is a terminal: a bar is drawn"
        show(0, 10)
        from tqdm import tqdm

        assert not [t for t in threading.enumerate() if type(t).__name__ == "TMonitor"]

        def interrupted_then_closed() -> None:  # in one thread, as the command runs
            tqdm.get_lock().locks[0].acquire()  # as a redraw interrupted between its two locks leaves it
            show(10, 10)

        closing = threading.Thread(target=interrupted_then_closed, daemon=True)
        closing.start()
        closing.join(timeout=10)
        assert not closing.is_alive(), "closing the bar waited on a lock an interrupted redraw held"
    finally:
        sys.stderr.close()
        sys.stderr = saved
        os.close(controller)


def test_a_push_fold_end_game_shows_its_bar_from_the_start_and_stops_on_ctrl_c() -> None:
    """An ICM end-game solve ran for minutes on a busy machine with nothing on the screen; now a bar
    counts its iterations from the start, and Ctrl-C ends it in one line. Six players: about 30 s of
    solving (four players' end-game is now done in 2 s, sometimes before the signal arrived)."""
    stacks = "3000,2500,2000,1500,1000,800"
    args = ["pushfold", "--stacks", stacks, "--blinds", "100/200", "--prizes", "50,30,20"]
    done = interrupt(args, ready=r"\b\d+/400 iterations")
    assert 130 == done.returncode, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.strip().endswith("holdem pushfold: interrupted")


def test_a_stop_that_lands_where_python_drops_exceptions_still_stops_the_command() -> None:
    """SIGTERM reached a command while Dask's garbage-collector callback ran: Python printed
    "Exception ignored in ... KeyboardInterrupt" and the tournaments ran on until the test killed
    them (CI, once). A stop dropped so (here from a ``__del__``) is raised again, and reaches the
    command."""
    script = (
        "import time\n"
        "from holdem.cli import _catch_stops\n"
        "_catch_stops()\n"
        "class Dropped:\n"
        "    def __del__(self):\n"
        "        raise KeyboardInterrupt  # as a stop landing in a garbage collector's callback\n"
        "try:\n"
        "    Dropped()\n"
        "    deadline = time.monotonic() + 10\n"
        "    while time.monotonic() < deadline:\n"
        "        pass\n"
        "    print('ran on')\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "stopped" == done.stdout.strip(), done.stdout + done.stderr
    assert "Exception ignored" not in done.stderr


_SWALLOWS_STOPS = """
import sys, threading, time
import holdem.cli as cli
cli.STOP_GRACE = 1.0
cli._catch_stops("demo")
deadline = time.monotonic() + 30
try:
    print("ready", flush=True)
    while time.monotonic() < deadline:
        time.sleep(0.01)
except KeyboardInterrupt:
    if sys.argv[1] == "hangs":
        lock = threading.Lock()
        lock.acquire()
        lock.acquire(timeout=30)  # a clean-up that waits on a lock nobody will release
    else:
        while time.monotonic() < deadline:  # the stop swallowed: the work goes on
            time.sleep(0.01)
print("ran on", flush=True)
"""


@pytest.mark.parametrize("how", ["swallowed", "hangs"])
def test_a_stopped_command_ends_even_when_its_stop_is_swallowed_or_its_clean_up_hangs(how: str) -> None:
    """Under load in CI a push/fold solve once ran on for 60 s after Ctrl-C. Whatever keeps a command
    from ending after a stop (the KeyboardInterrupt caught where it landed, a clean-up waiting on a
    lock), it ends STOP_GRACE seconds after the stop, saying so in one line, with exit status 130."""
    untraced = {k: v for k, v in os.environ.items() if k != "HOLDEM_STOP_TRACE"}
    process = subprocess.Popen(
        [sys.executable, "-c", _SWALLOWS_STOPS, how], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, preexec_fn=_interruptible, env=untraced,
    )  # fmt: skip
    try:
        assert process.stdout is not None and "ready" == process.stdout.readline().strip()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
        assert 130 == process.returncode, out + err
        assert "ran on" not in out
        assert "holdem demo: interrupted; still stopping after 1 s, so ended at once" == err.strip()
    finally:
        process.kill()
        process.wait()


def test_play_table_refuses_a_rebuy_at_a_tournament_table_and_changes_nothing() -> None:
    """At a dead-button (tournament) table a broke player leaves at once, so a rebuy could never be
    taken: the session is refused, naming the cash table it needs, before any hand is dealt."""
    from holdem.errors import TableError

    table = Table(2, Stakes(1, 2), rng=random.Random(3))
    table.sit(0, "ann", 200)
    table.sit(1, "bob", 200)
    with pytest.raises(TableError, match="button='moving'"):
        play_table(table, {0: "random", 1: "random"}, 10, rebuy=200)
    assert table.hand is None and [s.stack for s in table.seats if s is not None] == [200, 200]
