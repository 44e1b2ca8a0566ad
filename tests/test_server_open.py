"""The server in the open (issue 59): slow and silent sockets, connections from one address, log lines
repeated in a loop, the open-file limit. Each test reproduces an attack that once locked everyone out,
on a real server, from real sockets on loopback addresses of their own (127.0.0.2 and on)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import resource
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
from websockets.sync.client import ClientConnection, connect

from holdem.server.guard import Guard, RepeatFilter
from tests.server_support import (
    ProcessServer,
    Server,
    ThreadServer,
    http,
    nginx,
    nginx_missing,
    postgres_missing,
    throwaway_postgres,
)

ATTACKER = "127.0.0.2"


def _open_from(address: str, port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(address, 0))


def _closed_by_server(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes `sock` within `seconds` (what it sent before is read and dropped)."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if not sock.recv(4096):
                return True
    except TimeoutError:
        return False
    except OSError:
        return True
    return False


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[tuple[ThreadServer, Guard]]:
    guard = Guard(per_address=4, header_seconds=1.0)
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}", guard=guard) as running:
        yield running, guard


def test_a_socket_that_never_sends_a_byte_is_closed_after_the_header_deadline(
    guarded: tuple[ThreadServer, Guard],
) -> None:
    server, guard = guarded
    with _open_from(ATTACKER, server.port) as silent, _open_from("127.0.0.3", server.port) as slow:
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        assert _closed_by_server(silent, 5.0) and _closed_by_server(slow, 5.0)
    assert guard.timed_out >= 2


def test_an_idle_connection_after_an_answer_is_closed_and_trickled_headers_do_not_keep_it(
    guarded: tuple[ThreadServer, Guard],
) -> None:
    """One whole request, then a header line every half second of a next one that never ends."""
    server, _ = guarded
    with _open_from(ATTACKER, server.port) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /api/health HTTP/1.1\r\n")
        closed = False
        deadline = time.monotonic() + 6
        while not closed and time.monotonic() < deadline:
            time.sleep(0.5)
            try:
                sock.sendall(b"X-Slow: 1\r\n")
            except OSError:
                closed = True
            closed = closed or _closed_by_server(sock, 0.01)
        assert closed, "a connection that never finishes its request head stayed open"


def test_an_address_past_its_connection_cap_is_answered_429_and_others_are_not(
    guarded: tuple[ThreadServer, Guard],
) -> None:
    server, guard = guarded
    held = [_open_from(ATTACKER, server.port) for _ in range(4)]
    try:
        with _open_from(ATTACKER, server.port) as fifth:
            fifth.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = fifth.recv(4096)
        assert answer.startswith(b"HTTP/1.1 429") and b"too many connections open from your address" in answer
        assert 200 == server.http("GET", "/api/health")[0]  # 127.0.0.1 has its own count
        assert 4 == guard.open_from(ATTACKER) and guard.refused == 1
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 5
    while guard.open_from(ATTACKER) and time.monotonic() < deadline:
        time.sleep(0.05)
    with _open_from(ATTACKER, server.port) as again:  # closed ones no longer count
        again.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert again.recv(4096).startswith(b"HTTP/1.1 200")


def test_an_error_repeated_in_a_loop_is_logged_once_with_a_count() -> None:
    """What the accept loop logged 425,064 times in 45 s when the descriptors ran out."""
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logger = logging.getLogger("holdem.test.repeat")
    logger.propagate = False
    now = [0.0]
    handler, repeat = Keep(), RepeatFilter(window=60.0, clock=lambda: now[0])
    logger.addHandler(handler)
    logger.addFilter(repeat)
    try:
        for k in range(100_000):
            now[0] = k * 45 / 100_000  # 100,000 in 45 s
            logger.error("socket.accept() out of system resource")
        logger.error("another error")
        now[0] = 61.0
        logger.error("socket.accept() out of system resource")
    finally:
        logger.removeHandler(handler)
        logger.removeFilter(repeat)
    assert [
        "socket.accept() out of system resource",
        "another error",
        "socket.accept() out of system resource (and 99999 more like it in the last 61 s)",
    ] == records


def test_holdem_serve_raises_its_open_file_limit_to_the_hard_limit(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard <= 1024:
        pytest.skip(f"this machine's hard open-file limit ({hard}) leaves nothing to raise to")
    server = ProcessServer(f"sqlite:///{tmp_path / 'holdem.db'}", open_files=(1024, hard))
    try:
        server.start()
        assert server.process is not None
        limits = Path(f"/proc/{server.process.pid}/limits").read_text()
        line = next(row for row in limits.splitlines() if row.startswith("Max open files"))
        assert [str(hard), str(hard)] == line.split()[3:5]
    finally:
        server.stop()


def _seated_pair(server: Server) -> tuple[str, str]:
    table = server.table(seats=2, action_seconds=600, time_bank_seconds=600)
    return server.join(table, "ann", 200)[1], server.join(table, "bob", 200)[1]


def _state(ws: ClientConnection, seconds: float) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=seconds))
        if message["type"] == "state":
            return dict(message)


def _act_once(sockets: list[ClientConnection], states: list[dict[str, Any]]) -> float:
    """The player to act checks or calls; seconds until their socket shows the action taken."""
    k = next(k for k, st in enumerate(states) if st["actor"] == st["seat"] and st["legal"])
    st = states[k]
    action = "check" if st["legal"]["check"] else "call"
    start = time.monotonic()
    sockets[k].send(json.dumps({"type": "act", "hand": st["hand"], "steps": st["steps"], "action": action}))
    while True:
        new = _state(sockets[k], 10.0)
        if (new["hand"], new["steps"]) != (st["hand"], st["steps"]):
            break
    took = time.monotonic() - start
    for j, ws in enumerate(sockets):  # both read up to the newest state
        states[j] = new if j == k else _state(ws, 10.0)
        while states[j]["hand"] != new["hand"] or states[j]["steps"] != new["steps"]:
            states[j] = _state(ws, 10.0)
    return took


class _SlowHeaders:
    """`count` sockets from `address`, each sending a partial request and then one header line every
    `every` seconds; one the server closes is opened again (at most once a second each)."""

    def __init__(self, port: int, address: str, count: int, every: float = 5.0) -> None:
        self.port, self.address, self.count, self.every = port, address, count, every
        self.stop = threading.Event()
        self.opened = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self) -> socket.socket | None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), 2, source_address=(self.address, 0))
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            sock.setblocking(False)
            self.opened += 1
            return sock
        except OSError:
            return None

    def _run(self) -> None:
        sockets: list[socket.socket | None] = [self._open() for _ in range(self.count)]
        try:
            while not self.stop.wait(1.0):
                beat = int(time.monotonic()) % int(self.every) == 0
                for k, sock in enumerate(sockets):
                    if self.stop.is_set():
                        break
                    if sock is None or not self._alive(sock, beat):
                        if sock is not None:
                            sock.close()
                        sockets[k] = self._open()
        finally:
            for sock in sockets:
                if sock is not None:
                    sock.close()

    @staticmethod
    def _alive(sock: socket.socket, beat: bool) -> bool:
        try:
            if sock.recv(4096) == b"":
                return False
        except BlockingIOError:
            pass
        except OSError:
            return False
        try:
            if beat:
                sock.send(b"X-Slow: 1\r\n")
        except OSError:
            return False
        return True

    def __enter__(self) -> _SlowHeaders:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(30)


def test_a_slow_header_attack_under_ulimit_1024_leaves_others_answered_at_once(
    tmp_path: Path,
) -> None:
    """Issue 59, item 2: 1,100 sockets from one address, each a partial request and a header line
    every 5 s, took every descriptor of a server under `ulimit -n 1024` for 40 s (health checks timed
    out, 172 MB of log). Now: the health check and a seated player's action are answered at once (a
    median under 0.1 s, never 2 s) throughout, the server holds at most its cap of the attacker's
    sockets, the log stays small."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1300 and (hard == resource.RLIM_INFINITY or hard >= 1300):
        resource.setrlimit(resource.RLIMIT_NOFILE, (1300, hard))  # this process holds the 1,100 sockets
    log = tmp_path / "serve.log"
    server = ProcessServer(f"sqlite:///{tmp_path / 'holdem.db'}", log=log, open_files=(1024, 1024))
    health: list[float] = []
    actions: list[float] = []
    try:
        server.start()
        assert server.process is not None
        ann, bob = _seated_pair(server)
        with (
            connect(f"{server.ws}/ws?token={ann}", open_timeout=5) as a,
            connect(f"{server.ws}/ws?token={bob}", open_timeout=5) as b,
            _SlowHeaders(server.port, ATTACKER, 1100) as attack,
        ):
            sockets, states = [a, b], [_state(a, 10), _state(b, 10)]
            held = []
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                start = time.monotonic()
                assert 200 == http(server.base, "GET", "/api/health")[0]
                health.append(time.monotonic() - start)
                actions.append(_act_once(sockets, states))
                held.append(len(os.listdir(f"/proc/{server.process.pid}/fd")))
                time.sleep(0.2)
            assert attack.opened >= 1100
        # Answered at once as a rule, and never near a time-out: the worst once took 1.003 s in CI
        # (2026-12-06, a quiet machine), so the worst is held to 2 s and the median to 0.1 s.
        for name, took in (("health checks", health), ("actions", actions)):
            assert sorted(took)[len(took) // 2] < 0.1 and max(took) < 2.0, f"{name} took {sorted(took)}"
        # At most the cap of the attacker's sockets, and the server's own, once the first burst of
        # refusals is closed (on a busy machine that burst takes a moment); never at the limit.
        assert sorted(held)[len(held) // 2] < 64 + 40 and max(held) < 1000, f"descriptors held: {held}"
        assert log.stat().st_size < 1_000_000
        assert "only 1024 open files allowed" in log.read_text()
    finally:
        server.stop()
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# ------------------------------------------------------------ addresses behind the shipped proxy
def _from(address: str, port: int, path: str, body: Any = None, headers: dict[str, str] | None = None) -> int:
    """The status of one request to 127.0.0.1:`port` sent from the loopback address `address`."""
    from http.client import HTTPConnection

    connection = HTTPConnection("127.0.0.1", port, timeout=10, source_address=(address, 0))
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request("POST" if data else "GET", path, body=data, headers=headers or {})
        answer = connection.getresponse()
        answer.read()
        return int(answer.status)
    finally:
        connection.close()


def _games_until_refused(address: str, port: int, forged: bool = False, most: int = 12) -> int:
    """Home games `address` makes before a 429 (each with a new forged X-Forwarded-For if `forged`)."""
    for made in range(most):
        headers = {"X-Forwarded-For": f"10.9.{made}.1"} if forged else {}
        status = _from(address, port, "/api/games", {"seats": 2}, headers)
        if status == 429:
            return made
        assert 200 == status
    return most


TRUST = ("--forwarded-allow-ips", "127.0.0.1")
"""How the processes behind the shipped nginx file are started (it says so)."""


@pytest.mark.skipif(nginx_missing() is not None, reason=str(nginx_missing()))
def test_behind_the_shipped_nginx_each_client_address_has_its_own_limit_and_forging_changes_nothing(
    tmp_path: Path,
) -> None:
    """Issue 59, item 3: behind the shipped file every client shared nginx's address (one who had made
    no game got 429), and a forged X-Forwarded-For made 25 games of 25 against a limit of 5."""
    server = ProcessServer(f"sqlite:///{tmp_path / 'h.db'}", args=TRUST)
    try:
        server.start()
        with nginx([server.port]) as port:
            assert 5 == _games_until_refused("127.0.0.2", port)
            assert 5 == _games_until_refused("127.0.0.3", port, forged=True)
            assert 200 == _from("127.0.0.4", port, "/api/games", {"seats": 2})
    finally:
        server.stop()


def test_a_forged_forwarded_header_straight_to_a_process_changes_nothing(tmp_path: Path) -> None:
    """Without --forwarded-allow-ips no address's header is believed, 127.0.0.1's included."""
    server = ProcessServer(f"sqlite:///{tmp_path / 'h.db'}")
    try:
        server.start()
        assert 5 == _games_until_refused("127.0.0.1", server.port, forged=True)
    finally:
        server.stop()


@pytest.mark.skipif(nginx_missing() is not None, reason=str(nginx_missing()))
@pytest.mark.skipif(postgres_missing() is not None, reason=str(postgres_missing()))
def test_two_cluster_processes_behind_nginx_hold_one_limit_of_five_not_ten() -> None:
    """The window was each process's own: a client got 10 games (5 a process) before any 429."""
    with throwaway_postgres() as url:
        servers = [ProcessServer(url, args=("--cluster", *TRUST)) for _ in range(2)]
        try:
            for server in servers:
                server.start()
            statuses = [
                _from("127.0.0.2", servers[k % 2].port, "/api/games", {"seats": 2}) for k in range(8)
            ]  # straight to each process in turn
            assert [200] * 5 + [429] * 3 == statuses
            with nginx([server.port for server in servers]) as port:  # spread at random by nginx
                assert 5 == _games_until_refused("127.0.0.3", port)
        finally:
            for server in servers:
                server.stop()


# ------------------------------------------------------------ spectators
def _watch(server: Server, table: str, address: str) -> ClientConnection:
    """A spectator's socket on `table` from the loopback address `address`."""
    return connect(f"{server.ws}/ws?table={table}", sock=_open_from(address, server.port), open_timeout=5)


def test_spectators_past_an_addresses_cap_are_closed_with_4429_and_told_why(tmp_path: Path) -> None:
    """Issue 59, item 4: 2,000 spectator sockets from one address were all accepted."""
    from websockets.exceptions import ConnectionClosed

    from holdem.server.readers import SPECTATORS_PER_ADDRESS

    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        table = server.table(seats=2)
        with contextlib.ExitStack() as stack:
            watching = [
                stack.enter_context(_watch(server, table, ATTACKER)) for _ in range(SPECTATORS_PER_ADDRESS)
            ]
            for ws in watching:
                assert "state" == json.loads(ws.recv(timeout=5))["type"]
            with _watch(server, table, ATTACKER) as refused:
                message = json.loads(refused.recv(timeout=5))
                with pytest.raises(ConnectionClosed) as closed:
                    refused.recv(timeout=5)
            assert (
                "error" == message["type"] and "too many spectators from your address" in message["message"]
            )
            assert closed.value.rcvd is not None and 4429 == closed.value.rcvd.code
            with _watch(server, table, "127.0.0.3") as other:  # another address still watches
                assert "state" == json.loads(other.recv(timeout=5))["type"]
        deadline = time.monotonic() + 5  # the ones closed no longer count
        while True:
            with _watch(server, table, ATTACKER) as again:
                if json.loads(again.recv(timeout=5))["type"] == "state":
                    break
            assert time.monotonic() < deadline, "closed spectators still counted"
            time.sleep(0.1)


def test_every_spectator_is_sent_one_state_text_built_once_and_players_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator's state is built once per change and shared (the clock in it included), and a
    state request is answered from it; a player's view stays their own (their cards)."""
    from holdem.server import readers

    monkeypatch.setattr(readers, "SHARED_FOR", 60.0)  # shared however slow this machine is
    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        table = server.table(seats=2, action_seconds=30)
        _, ann = server.join(table, "ann", 200)
        server.join(table, "bob", 200)
        with (
            connect(f"{server.ws}/ws?token={ann}") as a,
            _watch(server, table, ATTACKER) as first,
            _watch(server, table, "127.0.0.3") as second,
        ):
            seen_by_a = a.recv(timeout=5)
            texts = [first.recv(timeout=5), second.recv(timeout=5)]
            time.sleep(0.05)  # the clock has moved on: a state built again would say so
            first.send(json.dumps({"type": "state"}))
            texts.append(first.recv(timeout=5))
            assert texts[0] == texts[1] == texts[2]
            state = json.loads(texts[0])
            assert state["clock"] is not None and state["hole"] == [] and json.loads(seen_by_a)["hole"]


def test_holdem_serve_refuses_a_forwarded_allow_ips_that_is_not_addresses_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "holdem", "serve", "--db", f"sqlite:///{tmp_path / 'h.db'}", "--port", "0",
         "--forwarded-allow-ips", "127.0.0.1,nginx"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "--forwarded-allow-ips takes IP addresses or networks" in done.stderr and "'nginx'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
