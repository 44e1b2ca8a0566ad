"""What the command line says: documented defaults that work, errors that say why, a port already
taken, an admin token an option parser could misread, plurals, prizes in order, and one rule for a
call with nothing to call."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from holdem import Action, Hand, SeatView, Stakes
from holdem.bots.match import MatchConfig, play_match
from holdem.bots.report import format_table
from holdem.cli import main
from holdem.console.arguments import install_hint
from holdem.errors import InvalidConfigError
from holdem.tournament.icm import icm
from holdem.tournament.structure import load_structure, structure

HOLDEM = [sys.executable, "-m", "holdem"]


def test_a_level_without_duration_lasts_ten_minutes_as_documented(tmp_path: Path) -> None:
    """TOML, JSON and plain data alike (it failed with "duration must be a positive number")."""
    (tmp_path / "s.toml").write_text("starting_stack = 1000\n[[levels]]\nsmall_blind = 10\nbig_blind = 20\n")
    (tmp_path / "s.json").write_text(
        json.dumps({"starting_stack": 1000, "levels": [{"small_blind": 10, "big_blind": 20}]})
    )
    for made in (load_structure(tmp_path / "s.toml"), load_structure(tmp_path / "s.json"),
                 structure("plain", 1000, [{"small_blind": 10, "big_blind": 20}])):  # fmt: skip
        assert [10.0] == [level.duration for level in made.levels]


def test_errors_say_why_a_holding_or_a_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert 2 == main(["equity", "AsXh", "KsKd"])
    assert "'Xh' is not a card" in capsys.readouterr().err
    assert 2 == main(["equity", "AsAh", "AsKd"])
    assert "As is in both AsAh and AsKd" in capsys.readouterr().err
    assert 2 == main(["acpc", "dealer", "m1", "no-such.game", "10", "1", "a", "b"])
    assert "holdem.nolimit.2p.reverse_blinds.game" in capsys.readouterr().err  # the shipped ones listed


def test_prizes_that_pay_a_lower_place_more_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InvalidConfigError, match="place 2 pays 50, more than place 1's 30"):
        icm([100, 200], [30, 50])
    assert 2 == main(["icm", "--stacks", "100,200", "--prizes", "30,50"])
    assert "place 2 pays 50" in capsys.readouterr().err


def test_one_of_a_thing_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from holdem.formats import phh

    result = play_match(MatchConfig(("calling-station", "calling-station"), seed=1), 1)
    assert format_table(result).startswith("1 hand (plain)")
    hand = Hand.start([50, 50], Stakes(1, 2))
    hand.act(Action.fold())
    (tmp_path / "one.phh").write_text(phh.dumps(phh.export(hand)))
    assert 0 == main(["replay", str(tmp_path / "one.phh")])
    assert capsys.readouterr().out.startswith("1 hand: 1 replayed")


class AlwaysCalls:
    """Calls whatever it faces, nothing included."""

    def act(self, view: SeatView) -> Action:
        return Action.call()


def test_a_call_with_nothing_to_call_is_a_check_for_bots_as_for_people() -> None:
    """A bot that calls when checking is free is not at fault: the call is taken as a check, as `c`
    is in `holdem play` and a call message at a served table."""
    result = play_match(MatchConfig((AlwaysCalls, AlwaysCalls), seed=3), 50)
    assert [0, 0] == [bot.faults for bot in result.bots]
    hand = Hand.start([50, 50], Stakes(1, 2))
    hand.act(Action.call())
    hand.act(Action.call())  # the big blind's option: a check
    assert Action.check() == hand.history[-1][1]


def test_seat_view_is_importable_from_the_package() -> None:
    import holdem

    assert holdem.SeatView is SeatView and "SeatView" in holdem.__all__


def test_the_missing_extra_hint_says_both_installs() -> None:
    assert "pip install 'holdem-engine[plot]'" in install_hint("plot")
    assert "pip install '.[plot]'" in install_hint("plot")


def test_a_generated_admin_token_never_begins_with_a_dash() -> None:
    """One token in 64 would: an option parser then reads `--admin-token -x…` as an option."""
    pytest.importorskip("uvicorn", reason="the server extra is not installed")
    from holdem.server.commands import admin_token

    tokens = [admin_token() for _ in range(3000)]
    assert not [t for t in tokens if t.startswith("-")]
    assert len(set(tokens)) == 3000 and all(len(t) == 43 for t in tokens)


def test_serve_on_a_port_already_taken_says_so_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn", reason="the server extra is not installed")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*HOLDEM, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'h.db'}"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert 2 == done.returncode
    assert [f"holdem serve: error: port {port} is taken: another program listens on 127.0.0.1:{port}"] == (
        done.stderr.strip().splitlines()
    )
    assert "serving" not in done.stdout and "http://" not in done.stdout


def test_the_pages_have_their_icon_and_readable_links(tmp_path: Path) -> None:
    """Every page asked for /favicon.ico, a 404 in each console: they name a shipped icon now; the
    lobby's links are light on the dark felt (they were dark blue on dark green)."""
    pytest.importorskip("uvicorn", reason="the server extra is not installed")
    import urllib.request

    from tests.server_support import ThreadServer

    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        for page in ("/", "/tournament?id=x"):
            with urllib.request.urlopen(server.base + page, timeout=10) as answer:
                assert '<link rel="icon" href="/static/favicon.svg"' in answer.read().decode()
        with urllib.request.urlopen(server.base + "/static/favicon.svg", timeout=10) as answer:
            assert answer.headers["content-type"].startswith("image/svg+xml")
        with urllib.request.urlopen(server.base + "/static/table.css", timeout=10) as answer:
            assert "a { color: #fde68a; }" in answer.read().decode()
        # Asked again each time (a 304 when unchanged): after an upgrade a browser kept an old page
        # beside new modules, or the other way round, and drew nothing.
        for path in ("/", "/tournament?id=x", "/static/main.js", "/static/table.js", "/static/protocol.js"):
            with urllib.request.urlopen(server.base + path, timeout=10) as answer:
                assert "no-cache" == answer.headers["cache-control"], path
                assert answer.headers["etag"] or answer.headers["last-modified"], path


def _sigint_default() -> None:
    """In the child: Ctrl-C at its default even when the test runner ignores SIGINT (nohup, `&`)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def group_size(group: int) -> int:
    """Processes of a process group still running (zombies aside), from /proc."""
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        count += int(fields[2]) == group and fields[0] != "Z"
    return count


def catches(pid: int, signum: int) -> bool:
    """Whether process `pid` has a handler for `signum` yet (Linux: the SigCgt mask in its status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True  # gone: nothing to wait for
    mask = next((line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), "0")
    return bool(int(mask, 16) >> (signum - 1) & 1)


def stopped(args: list[str], signum: int, *, processes: int = 1, settle: float = 2.0) -> tuple[int, str, str]:
    """Run a holdem command in its own process group; once `processes` of its group run (the pool
    has started) and `settle` seconds more have passed (for some work to finish), send `signum`:
    SIGINT to the whole group as a terminal does, SIGTERM to the main process alone as systemd and
    docker do. It must end within 20 s and leave nothing of its group; (exit status, out, err)."""
    import os
    import signal
    import time

    from tests.test_first_hour import read_stop_trace, stop_trace, with_stop_trace

    trace = stop_trace()
    process = subprocess.Popen([*HOLDEM, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=_sigint_default,
                               env={**os.environ, "HOLDEM_STOP_TRACE": str(trace)})  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while group_size(process.pid) < processes and time.monotonic() < deadline:
            time.sleep(0.05)
        assert group_size(process.pid) >= processes, "the command's workers did not start"
        while not catches(process.pid, signum) and time.monotonic() < deadline:
            time.sleep(0.05)  # still importing, on a busy machine: the signal would kill it outright
        time.sleep(settle)
        if signum == signal.SIGINT:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        out, err = process.communicate(timeout=60)  # closing a Dask cluster takes longer on a busy machine
        for _ in range(100):  # the workers end with the parent; a moment for the last of them
            if not group_size(process.pid):
                break
            time.sleep(0.05)
        assert 0 == group_size(process.pid), "a process of the stopped command is still running"
        return process.returncode, out, with_stop_trace(err, read_stop_trace(trace))
    finally:
        import contextlib

        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        trace.unlink(missing_ok=True)


TOURNAMENTS = ["tournament", "random", "calling-station", "--runs", "100000", "--seed", "1"]
MATCH = ["match", "random", "random", "--hands", "3000000", "--seed", "3"]


@pytest.mark.parametrize(
    ("args", "signum", "processes"),
    [
        (TOURNAMENTS, "SIGINT", 1),  # one worker: the runs finished so far (it reported none)
        ([*TOURNAMENTS, "--workers", "2"], "SIGINT", 3),
        ([*TOURNAMENTS, "--workers", "2"], "SIGTERM", 3),  # it ran on, workers at 100% CPU
        ([*MATCH, "--workers", "2"], "SIGTERM", 3),
        (MATCH, "SIGTERM", 1),
        ([*TOURNAMENTS, "--workers", "2", "--dask", "local"], "SIGINT", 3),
        ([*TOURNAMENTS, "--workers", "2", "--dask", "local"], "SIGTERM", 3),
    ],
    ids=["tournament-1-sigint", "tournament-2-sigint", "tournament-2-sigterm", "match-2-sigterm",
         "match-1-sigterm", "tournament-dask-sigint", "tournament-dask-sigterm"],
)  # fmt: skip
def test_a_long_command_stopped_reports_what_it_finished_and_leaves_no_worker(
    args: list[str], signum: str, processes: int
) -> None:
    import signal

    settle = 6.0 if "--dask" in args else 2.0  # a Dask cluster takes seconds to start on a busy machine
    status, out, err = stopped(args, getattr(signal, signum), processes=processes, settle=settle)
    assert 130 == status, err
    assert "Traceback" not in out + err
    assert "(interrupted: the results of the" in out
    assert int(out.split()[0].replace(",", "")) > 0  # "N tournaments of …" / "N hands (plain)…"


@pytest.mark.parametrize("settle", [0.0, 0.7])
def test_a_command_stopped_while_its_dask_cluster_starts_says_interrupted_and_leaves_no_worker(
    settle: float,
) -> None:
    """SIGTERM while `LocalCluster` was starting: distributed's clean-up of the cluster half made
    failed (AssertionError: Status.init), and again as the process exited, each as a traceback.
    On a quick machine the cluster may be up by the later stop: then the tournaments finished so
    far are reported as interrupted, which is as right (found so: this test failed on a quiet
    machine whose cluster started within 1.5 s). The stop comes once the cluster's first process
    runs, not at a fixed time from the start: on a busy machine the command was stopped at 0.8 s,
    still importing, before it could catch the signal (status -15)."""
    import signal

    args = [*TOURNAMENTS, "--workers", "2", "--dask", "local"]
    status, out, err = stopped(args, signal.SIGTERM, processes=2, settle=settle)
    assert 130 == status, err
    assert "Traceback" not in out + err
    started = "(interrupted: the results of the tournaments finished so far)" in out
    assert started or "holdem tournament: interrupted" in err, (out, err)
    assert started != bool(err), (out, err)  # one or the other, never both, never neither


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_a_stop_to_holdem_join_leaves_the_seat_and_prints_the_summary(tmp_path: Path, signame: str) -> None:
    """SIGTERM (as systemd sends) and Ctrl-C alike: the bot leaves the table, then reports. For
    Ctrl-C, asyncio cancels the bot's task only while Python's own handler is in place, which the
    command line's stop handler had taken over (the summary was lost)."""
    pytest.importorskip("uvicorn", reason="the server extra is not installed")
    import signal

    from tests.server_support import ThreadServer

    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        table = server.table(seats=2)
        status, out, err = stopped(
            ["join", server.base, "--table", table, "--bot", "calling-station", "--name", "cal"],
            getattr(signal, signame), settle=2.0,
        )  # fmt: skip
        assert 130 == status, err
        assert out.startswith("cal at table ") and out.strip().endswith("(interrupted)"), out
        (listed,) = server.http("GET", "/api/tables")[1]["tables"]
        assert [] == listed["players"]  # it left: the table does not wait on its clock


def under_a_terminal(args: list[str], cwd: Path | None = None) -> tuple[int, str, str]:
    """Run a holdem command with standard error on a pseudo-terminal (as at a terminal) and standard
    output piped; (exit status, output, what the terminal showed)."""
    import fcntl
    import os
    import pty
    import struct
    import termios

    main_end, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a terminal's size
    process = subprocess.Popen([*HOLDEM, *args], stdout=subprocess.PIPE, stderr=terminal,
                               stdin=subprocess.DEVNULL, cwd=cwd)  # fmt: skip
    os.close(terminal)
    shown = b""
    try:
        while True:
            try:
                data = os.read(main_end, 65536)
            except OSError:  # the command closed the terminal's last end
                break
            if not data:
                break
            shown += data
        out = process.stdout.read().decode() if process.stdout else ""
        process.wait(timeout=60)
    finally:
        os.close(main_end)
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, out, shown.decode(errors="replace")


@pytest.mark.parametrize(
    ("args", "count"),
    [
        (["tournament", "random", "random", "--runs", "40", "--seed", "2"], "320/320 eliminations"),
        (["match", "random", "random", "--hands", "4000", "--seed", "2"], "4000/4000 hands"),
        (["bench", "engine", "--hands", "300", "--repeat", "3"], "3/3 runs"),
        (
            [
                "icm",
                "--stacks",
                ",".join(str(1000 + 37 * k) for k in range(16)),
                "--prizes",
                "50,30,20",
                "--samples",
                "3000000",
            ],
            "3000000/3000000 finishing orders",
        ),
    ],
)
def test_long_commands_show_a_count_and_the_time_left_at_a_terminal_only(args: list[str], count: str) -> None:
    status, out, shown = under_a_terminal(args)
    assert 0 == status, shown
    assert count in shown and "00:00 left]" in shown  # the count, and the time left (none at the end)
    status, out, shown = under_a_terminal([*args, "--json"])
    assert 0 == status and "/3" not in shown and "/4" not in shown and json.loads(out)  # no bar with --json
    piped = subprocess.run([*HOLDEM, *args], capture_output=True, text=True, timeout=60)
    assert "" == piped.stderr  # not a terminal: nothing


def test_replay_and_convert_over_many_files_show_their_progress(tmp_path: Path) -> None:
    import tarfile

    from tests.conftest import unpack

    with tarfile.open(Path(__file__).parent / "data" / "pluribus.tar.xz") as archive:
        members = [m for m in archive.getmembers() if m.name.endswith(".phh")][:30]
        unpack(archive, tmp_path, members)
    files = sorted(str(p) for p in tmp_path.rglob("*.phh"))
    status, out, shown = under_a_terminal(["replay", *files])
    assert 0 == status and "30/30 files" in shown and "30 hands: 30 replayed" in out
    status, _, shown = under_a_terminal(
        ["convert", *files, "--to", "pokerstars", "--out", str(tmp_path / "o.txt")]
    )
    assert 0 == status and "30/30 files" in shown


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["match", "equity", "random", "--dupe"],
         "holdem match: error: unrecognized arguments: --dupe; did you mean --duplicate? (see holdem match"),
        (["ladder", "rock", "maniac", "--workrs", "2"],
         "holdem ladder: error: unrecognized arguments: --workrs 2; did you mean --workers?"),
        (["match", "equity", "random", "--zzz"],
         "holdem match: error: unrecognized arguments: --zzz (see holdem match --help)"),
        (["join", "127.0.0.1:18765", "--table", "t", "--bot", "random"],
         "the server's URL starts with http:// or https://, e.g. http://127.0.0.1:18765"),
    ],
)  # fmt: skip
def test_a_usage_error_names_the_subcommand_and_what_was_meant(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert 2 == stop.value.code and expected in err and err.count("\n") == 1


def test_replaying_a_pokerstars_file_says_to_convert_it_first(capsys: pytest.CaptureFixture[str]) -> None:
    source = Path(__file__).parent / "data" / "pokerstars" / "posts.txt"
    assert 1 == main(["replay", str(source)])
    out = capsys.readouterr().out
    assert "PokerStars text, not PHH: convert it first (holdem convert FILE --to phh" in out
    assert "TOML" not in out


def test_a_reader_that_stops_early_ends_the_command_quietly() -> None:
    """`holdem eval ... | head -0`: the pipe closes before the answer is written; no "error: Broken
    pipe", the shell's status for SIGPIPE (141), as the shell's own tools."""
    command = " ".join(HOLDEM) + " eval As Ks Qs Js Ts | head -0; echo status ${PIPESTATUS[0]}"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    assert "status 141" in done.stdout and "" == done.stderr, done.stderr


def test_holdings_that_can_never_be_dealt_say_never_at_once() -> None:
    """Three pairs of aces need six aces: never, not "almost never", and without sampling first."""
    from holdem import equity
    from holdem.errors import ImpossibleSpotError

    for holdings in (["AA", "AA", "AA"], ["AA", "AA", "AK"]):
        with pytest.raises(
            ImpossibleSpotError, match=r"can never be dealt at once: every deal needs a card twice"
        ):
            equity(holdings, samples=1000)
    assert equity(["AA", "AA"], samples=1000).players[0].equity == pytest.approx(0.5, abs=0.05)


def test_a_bot_playing_itself_has_distinct_names_in_its_history_which_converts(tmp_path: Path) -> None:
    """`holdem match random random --history`: the hands name `random` and `random#2`, so that
    `holdem convert` takes them (it refused hands that named one player twice)."""
    assert 0 == main(["match", "random", "random", "--hands", "4", "--seed", "1", "--history", str(tmp_path)])
    text = (tmp_path / "match.phhs").read_text(encoding="utf-8")
    assert 4 == text.count("'random#2'") == text.count("'random'")  # each named once a hand
    out = tmp_path / "hands.txt"
    assert 0 == main(["convert", str(tmp_path / "match.phhs"), "--to", "pokerstars", "--out", str(out)])
    assert (
        "Seat 2: random#2 (200 in chips)" in out.read_text(encoding="utf-8") or "random#2" in out.read_text()
    )


def test_a_bot_module_that_is_not_found_gets_a_hint_about_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`mybot:PairHunter` from the wrong folder: say where bots are imported from. A bot module that
    is found but fails on an import of its own gets no such hint (it would mislead)."""
    monkeypatch.chdir(tmp_path)
    assert 2 == main(["match", "nowhere_bot:PairHunter", "random", "--hands", "1"])
    err = capsys.readouterr().err
    assert "No module named 'nowhere_bot' (bots are imported from the current folder" in err
    assert "and from PYTHONPATH: run where nowhere_bot.py is, or add its folder to PYTHONPATH)" in err
    (tmp_path / "needy_bot.py").write_text("import not_installed_anywhere\n", encoding="utf-8")
    assert 2 == main(["match", "needy_bot:Bot", "random", "--hands", "1"])
    err = capsys.readouterr().err
    assert "No module named 'not_installed_anywhere'" in err and "PYTHONPATH" not in err


SLOW_SERIES = ["tournament", "equity", "random", "--entrants", "9", "--runs", "5000", "--seed", "1", "--json"]


@pytest.mark.parametrize(
    ("settle", "backend"), [(5.0, ()), (15.0, ()), (5.0, ("--dask", "local"))], ids=["5s", "15s", "dask-5s"]
)
def test_ctrl_c_with_two_workers_reports_every_finished_tournament(
    settle: float, backend: tuple[str, ...]
) -> None:
    """Interrupted 5 s or 15 s in, two workers report the tournaments they finished, each as it
    would be alone: they once came back in chunks of up to 32, and Ctrl-C before a chunk was whole
    printed "holdem tournament: interrupted" and nothing else (issue 63). So do two Dask workers
    (their finished tournaments come as Dask events; they too were lost with their chunk)."""
    import json
    import signal

    if backend:
        pytest.importorskip("distributed", reason="the dask extra is not installed")
    args = [*SLOW_SERIES, "--workers", "2", *backend]
    status, out, err = stopped(args, signal.SIGINT, processes=3, settle=settle)
    assert 130 == status, err
    series = json.loads(out)
    runs = [result["run"] for result in series["results"]]
    assert series["interrupted"] and runs and len(set(runs)) == len(runs) == series["runs"]
    assert runs == sorted(runs)
    alone = subprocess.run(
        [*HOLDEM, *SLOW_SERIES[:5], "--runs", "1", *SLOW_SERIES[7:]],
        capture_output=True,
        text=True,
        timeout=120,
    )
    first = json.loads(alone.stdout)["results"][0]
    assert 0 in runs and first == series["results"][0]
