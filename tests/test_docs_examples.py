"""Every shell example of the README and the shipped docs runs as written, in a scratch folder with
the files it needs (the README's `mybot.py`, the hand histories it unpacks), so that none drifts.

Set-up lines (`python3 -m venv …`) are the two commands CI itself runs, and are not run again here.
Placeholders are filled in as a reader would: the ACPC ports the dealer prints, the server's port,
admin token and table id. `holdem play` is given `q` to quit.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "holdem" / "docs").glob("*.md"))]
BLOCK = re.compile(r"```(?:sh|bash|shell)\n(.*?)```", re.S)


def examples() -> list[tuple[str, list[str]]]:
    """Each shell block of the docs, in order: (where, its command lines)."""
    found = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            lines = [
                line for line in match.group(1).splitlines() if line.strip() and not line.startswith("#")
            ]
            found.append((f"{doc.name}:{text[: match.start()].count(chr(10)) + 1}", lines))
    return found


def run(line: str, cwd: Path, env: dict[str, str], stdin: str | None = None, where: str = "") -> str:
    done = subprocess.run(["bash", "-c", line], cwd=cwd, env=env, input=stdin, capture_output=True,
                          text=True, timeout=180)  # fmt: skip
    assert 0 == done.returncode, f"{where}: {line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def scratch(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder with what the examples read, and an environment whose `holdem` is this one."""
    (tmp_path / "tests" / "data").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "data" / "pluribus.tar.xz", tmp_path / "tests" / "data")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    bot = re.search(r"Save this as `mybot.py`:\n\n```python\n(.*?)```", readme, re.S)
    assert bot is not None, "the README's own bot is where the examples expect it"
    (tmp_path / "mybot.py").write_text(bot.group(1), encoding="utf-8")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("HOLDEM_ADMIN_TOKEN", None)
    return tmp_path, env


def acpc(lines: list[str], cwd: Path, env: dict[str, str]) -> None:
    """The dealer, then one client per port it prints."""
    dealer = subprocess.Popen(["bash", "-c", lines[0]], cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        assert 2 == len(ports), ports
        clients = [
            subprocess.Popen(["bash", "-c", re.sub(r"127\.0\.0\.1 \d+", f"127.0.0.1 {port}", line)], cwd=cwd,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for line, port in zip(lines[1:], ports, strict=True)
        ]  # fmt: skip
        for client in clients:
            _, err = client.communicate(timeout=180)
            assert 0 == client.returncode, err
        dealer.communicate(timeout=60)
        assert 0 == dealer.returncode
    finally:
        if dealer.poll() is None:
            os.killpg(dealer.pid, signal.SIGKILL)
            dealer.wait()


def serve(lines: list[str], cwd: Path, env: dict[str, str]) -> None:
    """`holdem serve` as written (on a free port), then the requests with its token and table."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = f"exec {lines[0].split('#')[0]} --port {port}"
    server = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert server.stdout is not None
        token = server.stdout.readline().strip().removeprefix("admin token: ")
        assert server.stdout.readline().startswith("holdem serve: http://")
        deadline = time.monotonic() + 20
        table = ""
        at = f"localhost:{port}"
        while not table and time.monotonic() < deadline:
            made = subprocess.run(["bash", "-c", lines[1].replace("localhost:8000", at)], cwd=cwd,
                                  env=env | {"TOKEN": token}, capture_output=True, text=True)  # fmt: skip
            table = re.search(r'"id":"(\w+)"', made.stdout)[1] if '"id"' in made.stdout else ""
            time.sleep(0.1)
        assert table, "no table was made"
        seat = run(lines[2].split("#")[0].replace("localhost:8000", at).replace("TABLE", table), cwd, env)
        assert '"token"' in seat and '"seat":0' in seat
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_every_shell_example_of_the_readme_and_the_docs_runs_as_written(tmp_path: Path) -> None:
    cwd, env = scratch(tmp_path)
    ran = 0
    for where, lines in examples():
        if lines[0].startswith("python3 -m venv"):
            continue  # the set-up commands: what CI runs
        if lines[0].startswith("holdem acpc dealer"):
            acpc(lines, cwd, env)
        elif lines[0].startswith("holdem serve"):
            serve(lines, cwd, env)
        else:
            for line in lines:
                run(line, cwd, env, stdin="q\n" if line.startswith("holdem play") else None, where=where)
        ran += len(lines)
    assert ran >= 20  # every block was found
