"""Real servers for the server tests and the load script: uvicorn in a thread or a process, a throwaway
PostgreSQL started with initdb/pg_ctl, and a small HTTP client. Loopback only, every wait bounded."""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from http.client import HTTPConnection, HTTPException
from pathlib import Path
from typing import Any

ADMIN = "admin-token-for-tests"
PAIRS_BOT = '''
from holdem import Action


class Pairs:
    """Raises pairs, calls small bets, checks when free, folds the rest."""

    def act(self, view):
        legal = view.legal
        low, high = sorted(card.rank for card in view.hole)
        if low == high and legal.min_raise_to is not None:
            return Action.raise_to(legal.min_raise_to)
        if legal.can_check:
            return Action.check()
        return Action.call() if legal.to_call <= 4 * view.big_blind else Action.fold()
'''
"""A small bot, written to a module of its own by the tests that need one."""
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A loopback port free a moment ago. Another process may take it before the server binds it,
    so the servers started here on one (PostgreSQL, nginx) try another when theirs is taken."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PORT_ATTEMPTS = 5
"""How many ports a server started on a `free_port` tries before the test fails."""


def http(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """(status, JSON answer) of one request; `body` None sends none, a str or bytes is sent as is."""
    data = body if isinstance(body, bytes) else body.encode() if isinstance(body, str) else None
    if body is not None and data is None:
        data = json.dumps(body).encode()
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


class Server:
    """What the tests need of a running server: its addresses and the admin calls."""

    port: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def http(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        return http(self.base, method, path, body, token)

    def table(self, **settings: Any) -> str:
        status, answer = self.http("POST", "/api/tables", settings, ADMIN)
        assert 200 == status, answer
        return str(answer["id"])

    def join(self, table: str, name: str, buy_in: int, **extra: Any) -> tuple[int, str]:
        status, answer = self.http(
            "POST", f"/api/tables/{table}/players", {"name": name, "buy_in": buy_in} | extra
        )
        assert 200 == status, answer
        return int(answer["seat"]), str(answer["token"])

    def hands(self, table: str, after: int = 0) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        while True:
            status, answer = self.http("GET", f"/api/tables/{table}/hands?after={after}", token=ADMIN)
            assert 200 == status, answer
            if not answer["hands"]:
                return found
            found += answer["hands"]
            after = found[-1]["number"]

    def chips_conserved(self, table: str) -> tuple[int, int]:
        """(chips bought in minus chips cashed out by the stored ledger, chips on the table now)."""
        status, answer = self.http("GET", f"/api/tables/{table}/ledger", token=ADMIN)
        assert 200 == status, answer
        net = sum(row["chips"] * (-1 if row["kind"] == "cash_out" else 1) for row in answer["ledger"])
        return net, int(answer["chips_on_table"])

    def wait_healthy(self, seconds: float = 20.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if self.http("GET", "/api/health")[0] == 200:
                    return
            time.sleep(0.05)
        raise TimeoutError(f"no server on port {self.port} after {seconds} s")


class ThreadServer(Server):
    """uvicorn serving the app in a thread of this process."""

    def __init__(
        self,
        url: str,
        *,
        tick: float = 0.02,
        rate: float = 10_000.0,
        limits: Any = None,
        idle: float | None = None,
        guard: Any = None,
    ) -> None:
        import uvicorn

        from holdem.server.app import build_app
        from holdem.server.commands import WS_MAX_SIZE
        from holdem.server.guard import guarded_protocol
        from holdem.server.hub import IDLE_SECONDS

        # Bound here, on a port the system chooses, and handed to uvicorn: no port is chosen, closed
        # and then taken by someone else before the server binds it.
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.socket.getsockname()[1])
        self.app = build_app(url, ADMIN, tick=tick, rate=rate, limits=limits, idle=idle or IDLE_SECONDS)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1", port=self.port,
            ws_max_size=WS_MAX_SIZE, log_level="warning", lifespan="on",
            **({} if guard is None else {"http": guarded_protocol(guard)}),
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        self.wait_healthy()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()


class ProcessServer(Server):
    """``holdem serve`` in a child process, which the crash test kills with SIGKILL."""

    def __init__(
        self,
        url: str,
        port: int | None = None,
        rate: float = 10_000.0,
        args: tuple[str, ...] = (),
        log: Path | None = None,
        open_files: tuple[int, int] | None = None,
    ) -> None:
        self.url, self.port, self.rate, self.args = url, port or 0, rate, args
        self.open_files = open_files  # the process's (soft, hard) open-file limits (`ulimit -n`), if given
        self.log = (
            log  # where its stderr goes (kept after the test, for its log lines), else a temporary file
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ProcessServer:
        """Start the server; the first start binds a port the system chooses (``--port 0``), read from
        the line the server prints, and a restart binds the same one."""
        command = [sys.executable, "-m", "holdem", "serve", "--port", str(self.port), "--db", self.url]
        opened = self.log.open("a+b") if self.log is not None else tempfile.TemporaryFile()  # noqa: SIM115
        with opened as errors:  # a file, not a pipe nobody reads: a full pipe blocks
            self.process = subprocess.Popen(
                [*command, "--admin-token", ADMIN, "--rate", str(self.rate), *self.args],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=errors,
                preexec_fn=self._limit if self.open_files is not None else None,
            )
            assert self.process.stdout is not None
            line = self.process.stdout.readline().decode()  # "holdem serve: http://127.0.0.1:PORT/  (…)"
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found is None:
                self.process.kill()
                self.process.wait(10)
                errors.seek(0)
                raise RuntimeError(f"holdem serve did not start: {line!r} {errors.read().decode()}")
        threading.Thread(target=self.process.stdout.read, daemon=True).start()  # drained to its end
        self.port = int(found[1])
        self.wait_healthy()
        return self

    def _limit(self) -> None:
        """In the child, before it runs: its open-file limits, as `ulimit -n` would set them."""
        import resource

        assert self.open_files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, self.open_files)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def postgres_tool(name: str) -> str | None:
    """A PostgreSQL server program (initdb, pg_ctl): on PATH, or where Debian's postgresql-NN puts it
    (/usr/lib/postgresql/NN/bin, which is not on PATH), the newest version first."""
    found = shutil.which(name)
    if found is not None:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: p.parent.parent.name)
    candidates = sorted(
        versions, key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0
    )
    return str(candidates[-1]) if candidates else None


def postgres_missing() -> str | None:
    """Why a throwaway PostgreSQL cannot be started here, or None."""
    if postgres_tool("initdb") is None or postgres_tool("pg_ctl") is None:
        return "PostgreSQL's initdb and pg_ctl are not installed (Debian: apt-get install postgresql)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'holdem-engine[server]')"
    return None


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A new PostgreSQL cluster on a loopback port, removed afterwards; yields its URL."""
    folder = Path(tempfile.mkdtemp(prefix="holdem-pg-"))
    data = folder / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as the postgres user
        runuser = shutil.which("runuser", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")
        assert runuser is not None, "runuser (util-linux) is needed to start PostgreSQL as root"
        as_user = [runuser, "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "check": True, "timeout": 120}
    initdb, pg_ctl = postgres_tool("initdb"), postgres_tool("pg_ctl")
    assert initdb is not None and pg_ctl is not None, postgres_missing()
    subprocess.run([*as_user, initdb, "-D", str(data), "-U", "postgres", "-A", "trust"], **quiet)  # type: ignore[call-overload]
    stop = [*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]
    try:
        for attempt in range(PORT_ATTEMPTS):
            port = free_port()
            options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=on"
            started = subprocess.run(
                [*as_user, pg_ctl, "-D", str(data), "-o", options, "-w", "-l", str(folder / "log"), "start"],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
            )  # fmt: skip
            if started.returncode == 0:
                break
            log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else ""
            if "already in use" not in log or attempt == PORT_ATTEMPTS - 1:
                raise RuntimeError(f"PostgreSQL did not start: {started.stderr.decode()} {log}")
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(stop, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        shutil.rmtree(folder, ignore_errors=True)


def seen(runs: list[Any]) -> dict[int, dict[str, Any]]:
    """The last state each seat received, by seat."""
    return {run.last["seat"]: run.last for run in runs if run.last is not None}


def progress(state: dict[str, Any]) -> tuple[int, float]:
    """How far a state is into the table's history: the hand, then its step; a hand that ended with
    no next hand dealt (a player out of chips, a rebuy on its way) is after every step of it."""
    return state["hand"], state["steps"] if state["phase"] is not None else math.inf


def check_hands(hands: list[dict[str, Any]]) -> None:
    """Hands are numbered 1, 2, … and each PHH replays to its recorded finishing stacks."""
    from holdem.formats import phh

    assert list(range(1, len(hands) + 1)) == [hand["number"] for hand in hands]
    for hand in hands:
        document = phh.loads(str(hand["phh"]))[0]
        assert document["finishing_stacks"] == list(phh.replay(document).finishing_stacks or ())


def play_bots(
    server: Server,
    tokens: list[str],
    *,
    hands: int,
    seconds: float = 60.0,
    record: bool = False,
    rebuy: int | None = None,
    acting: list[bool] | None = None,
    until: Callable[[list[Any]], bool] | None = None,
) -> list[Any]:
    """Random bots on these seats until hand `hands` is over, `until(runs)` holds or `seconds`
    pass; their `SeatRun`s."""
    import asyncio
    import random

    from holdem.server.client import SeatRun, play_seat

    async def main() -> list[SeatRun]:
        stop, runs = asyncio.Event(), [SeatRun() for _ in tokens]
        tasks = [
            asyncio.create_task(
                play_seat(
                    server.ws, token, stop=stop, run=run, record=record, rng=random.Random(k), rebuy=rebuy,
                    acting=(lambda k=k: acting is None or acting[k]),
                )
            )
            for k, (token, run) in enumerate(zip(tokens, runs, strict=True))
        ]  # fmt: skip
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not all(task.done() for task in tasks):
            if max((run.last or {}).get("hand", 0) for run in runs) > hands or (until and until(runs)):
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)  # let the last broadcasts arrive
        stop.set()
        await asyncio.gather(*tasks)
        return runs

    return asyncio.run(main())


def nginx_missing() -> str | None:
    """Why nginx cannot be started here, or None."""
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        return "nginx is not installed (apt-get install nginx; .ci/run does)"
    return None


@contextlib.contextmanager
def nginx(backends: list[int]) -> Iterator[int]:
    """nginx on a loopback port with the shipped `docs/deploy/nginx.conf`, its two backends replaced by
    `backends` (more are added in the same form); yields its port. Stopped and removed afterwards."""
    shipped = (ROOT / "docs" / "deploy" / "nginx.conf").read_text()
    folder = Path(tempfile.mkdtemp(prefix="holdem-nginx-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        for attempt in range(PORT_ATTEMPTS):
            port = free_port()
            process = _start_nginx(shipped, backends, folder, port)
            error = _wait_listening(process, port)
            if error is None:
                break
            log = folder / "error.log"
            error += log.read_text(errors="replace") if log.exists() else ""
            if "Address already in use" not in error or attempt == PORT_ATTEMPTS - 1:
                raise RuntimeError(f"nginx did not start: {error}")
        yield port
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def _start_nginx(shipped: str, backends: list[int], folder: Path, port: int) -> subprocess.Popen[bytes]:
    """nginx in the foreground with the shipped site on `port` and `backends` behind it."""
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;\n" for p in backends)
    lines = [
        line for line in shipped.splitlines(keepends=True) if not line.startswith("    server 127.0.0.1:")
    ]
    at = next(k for k, line in enumerate(lines) if line.startswith("    hash $holdem_table")) + 1
    site = "".join([*lines[:at], servers, *lines[at:]]).replace(
        "listen 127.0.0.1:8000;", f"listen 127.0.0.1:{port};"
    )
    assert f"listen 127.0.0.1:{port};" in site and servers in site  # the shipped file has the expected shape
    (folder / "holdem.conf").write_text(site)
    (folder / "nginx.conf").write_text(
        f"worker_processes 1;\npid {folder}/nginx.pid;\nevents {{ worker_connections 1024; }}\n"
        f"http {{\n    access_log off;\n    client_body_temp_path {folder}/body;\n"
        f"    proxy_temp_path {folder}/proxy;\n    include {folder}/holdem.conf;\n}}\n"
    )
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    return subprocess.Popen(
        [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log"),
         "-g", "daemon off;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def _wait_listening(process: subprocess.Popen[bytes], port: int) -> str | None:
    """None once `process` answers HTTP on `port` as nginx (another server may hold the port: nginx
    then retries the bind for a few seconds and ends); what it said, if it ends first (20 s)."""
    deadline = time.monotonic() + 20
    while True:
        connection = HTTPConnection("127.0.0.1", port, timeout=1)
        with contextlib.suppress(OSError, HTTPException):
            connection.request("GET", "/")
            if "nginx" in (connection.getresponse().getheader("Server") or ""):
                connection.close()
                return None
        connection.close()
        if process.poll() is not None:
            return process.stderr.read().decode(errors="replace") if process.stderr else "it ended"
        if time.monotonic() > deadline:
            return "not answering after 20 s"
        time.sleep(0.05)


class Through(Server):
    """A server as reached through a load balancer on `port`."""

    def __init__(self, port: int) -> None:
        self.port = port
