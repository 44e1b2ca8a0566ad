"""Bad requests change nothing and break nothing: NaN, Infinity, -0.0 and numbers past any limit in
every numeric field of every POST route are refused before anything is stored (and every GET still
answers, also after kill -9 and a restart); oversized bodies are refused unread, with the server's
JSON error also through nginx; names are trimmed and compared without case."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip(
    "uvicorn", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)

from tests.server_support import ADMIN, ProcessServer, Server, ThreadServer, nginx, nginx_missing

BAD_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e308", "1e400", "-0.0", str(10**30), str(-(10**30)),
               str(10**400)]  # fmt: skip
NOT_JSON_NUMBERS = {"NaN", "Infinity", "-Infinity", "1e400"}
HOLE = "@@"  # where a bad number goes

TABLE = {"seats": 6, "small_blind": 1, "big_blind": 2, "ante": 0, "min_buy_in": 40, "max_buy_in": 200,
         "action_seconds": 20, "time_bank_seconds": 60}  # fmt: skip
LEVEL = {"small_blind": 10, "big_blind": 20, "ante": 0, "duration": 10}
TOURNEY = {"seats": 6, "entrants": 6, "buy_in": 10, "action_seconds": 20, "time_bank_seconds": 60,
           "late_until_level": 0, "shares": [65, 35], "start_at": 4_000_000_000,
           "structure": {"starting_stack": 1000, "levels": [LEVEL]}}  # fmt: skip


def holes(body: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every number in `body`."""
    if isinstance(body, dict):
        return [p for key, value in body.items() for p in holes(value, (*path, key))]
    if isinstance(body, list):
        return [p for k, value in enumerate(body) for p in holes(value, (*path, k))]
    return [path] if isinstance(body, int | float) else []


def with_number(body: Any, path: tuple[Any, ...], number: str) -> str:
    """`body` as JSON text with the number at `path` written as `number`."""
    copy = json.loads(json.dumps(body))
    place = copy
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = HOLE
    return json.dumps(copy).replace(json.dumps(HOLE), number)


def field_name(path: tuple[Any, ...]) -> str:
    """How an error names the field at `path`: ``structure.levels[0].duration``."""
    name = ""
    for key in path:
        name += f"[{key}]" if isinstance(key, int) else f".{key}" if name else str(key)
    return name


def every_get_answers(server: Server, table: str, tourney: str) -> None:
    for path in ["/api/health", "/api/tables", "/api/tournaments", f"/api/tournaments/{tourney}",
                 f"/api/tables/{table}/hands", f"/api/tables/{table}/ledger",
                 f"/api/tournaments/{tourney}/ledger"]:  # fmt: skip
        status, answer = server.http("GET", path, token=ADMIN)
        assert 200 == status, (path, answer)


def test_bad_numbers_in_every_field_of_every_post_are_refused_and_every_get_still_answers(
    tmp_path: Path,
) -> None:
    server = ProcessServer(f"sqlite:///{tmp_path / 'h.db'}")
    try:
        server.start()
        table = server.table(**TABLE)
        status, made = server.http("POST", "/api/tournaments", TOURNEY, ADMIN)
        assert 200 == status, made
        tourney = made["id"]
        routes = [
            ("/api/tables", TABLE, ADMIN),
            (f"/api/tables/{table}/players", {"name": "ann", "buy_in": 100, "seat": 0}, None),
            ("/api/tournaments", TOURNEY, ADMIN),
            (f"/api/tournaments/{tourney}/entries", {"name": 0}, None),
        ]
        tried = 0
        for path, body, token in routes:
            for hole in holes(body):
                for number in BAD_NUMBERS:
                    status, answer = server.http("POST", path, with_number(body, hole, number), token)
                    tried += 1
                    assert status in (200, 400, 409), (path, hole, number, answer)
                    if number in NOT_JSON_NUMBERS:  # refused naming the field
                        assert 400 == status, (path, hole, number, answer)
                        assert f"{field_name(hole)} must be a finite number" in answer["error"]
        assert tried > 150
        assert [table] == [t["id"] for t in server.http("GET", "/api/tables")[1]["tables"]]  # none made
        every_get_answers(server, table, tourney)
        server.kill()
        server.start()
        every_get_answers(server, table, tourney)
    finally:
        server.stop()


def raw_post(port: int, head: str, chunks: list[bytes], seconds: float = 10.0) -> tuple[int, bytes]:
    """Send a request by hand (`head` without its blank line, then `chunks` while the server reads);
    (status, body) of the answer. The server may answer and close before the body is sent."""
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as sock:
        sock.sendall(head.encode() + b"\r\n\r\n")
        try:
            for chunk in chunks:
                sock.sendall(chunk)
        except OSError:  # refused early: the server closed its side
            pass
        answer = b""
        try:
            while data := sock.recv(65536):
                answer += data
        except OSError:
            pass
    assert answer, "no answer from the server"
    status = int(answer.split(b" ", 2)[1])
    return status, answer.partition(b"\r\n\r\n")[2]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_an_oversized_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A declared 60 MB body is refused on its Content-Length, with nothing of it read; a chunked body
    with no length is refused once 64 KiB have arrived: 20 MB sent that way leave the server's memory
    where it was."""
    server = ProcessServer(f"sqlite:///{tmp_path / 'h.db'}")
    try:
        server.start()
        assert server.process is not None
        head = f"POST /api/tables HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ADMIN}\r\nConnection: close"
        status, body = raw_post(server.port, head + "\r\nContent-Length: 60000000", [])
        assert (413, "request body over 64 KiB") == (status, json.loads(body)["error"])
        before = rss_kib(server.process.pid)
        chunk = b"%x\r\n%s\r\n" % (1 << 20, b" " * (1 << 20))
        status, body = raw_post(server.port, head + "\r\nTransfer-Encoding: chunked", [chunk] * 20)
        assert 413 == status
        assert rss_kib(server.process.pid) - before < 8 * 1024
        assert [] == server.http("GET", "/api/tables")[1]["tables"]
    finally:
        server.stop()


@pytest.mark.skipif(nginx_missing() is not None, reason=str(nginx_missing()))
def test_through_nginx_an_oversized_body_gets_the_servers_json_error(tmp_path: Path) -> None:
    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server, nginx([server.port]) as port:
        head = f"POST /api/tables HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ADMIN}\r\nConnection: close"
        status, body = raw_post(port, head + "\r\nContent-Length: 70000", [b" " * 70_000])
        assert (413, "request body over 64 KiB") == (status, json.loads(body)["error"])
        status, body = raw_post(
            port, head + "\r\nContent-Length: 2\r\nContent-Type: application/json", [b"{}"]
        )
        assert 200 == status, body  # under the limit, passed on


def test_names_are_trimmed_and_compared_without_case(tmp_path: Path) -> None:
    """ "ann", "ann ", " ann" and "Ann" are one player, at a table and in a tournament."""
    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        table = server.table(seats=6)
        assert 200 == server.http("POST", f"/api/tables/{table}/players", {"name": " ann ", "buy_in": 100})[0]
        for name in ("ann", "ann ", " ann", "Ann", "ANN"):
            status, answer = server.http(
                "POST", f"/api/tables/{table}/players", {"name": name, "buy_in": 100}
            )
            assert (409, "'ann' is already at this table") == (status, answer["error"]), name
        (listed,) = server.http("GET", "/api/tables")[1]["tables"]
        assert ["ann"] == [player["name"] for player in listed["players"]]
        status, made = server.http("POST", "/api/tournaments", {"entrants": 3}, ADMIN)
        assert 200 == status, made
        entries = f"/api/tournaments/{made['id']}/entries"
        assert 200 == server.http("POST", entries, {"name": "Ann"})[0]
        for name in ("ann", " ann", "ANN "):
            status, answer = server.http("POST", entries, {"name": name})
            assert (409, "'Ann' is already registered") == (status, answer["error"])


def test_a_tournament_stack_or_blind_past_the_tables_chip_limit_is_refused(tmp_path: Path) -> None:
    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        for structure, named in [
            ({"starting_stack": 10**30, "levels": [LEVEL]},
             "starting_stack must be a positive whole number of chips, at most 1,000,000,000,000"),
            ({"starting_stack": 1000, "levels": [LEVEL | {"small_blind": 1, "big_blind": 10**13}]},
             "level 1: big_blind must be a whole number from 1 to 1,000,000,000,000"),
        ]:  # fmt: skip
            status, answer = server.http("POST", "/api/tournaments", {"structure": structure}, ADMIN)
            assert (400, named) == (status, answer["error"].split(", got")[0])
        assert [] == server.http("GET", "/api/tournaments")[1]["tournaments"]
