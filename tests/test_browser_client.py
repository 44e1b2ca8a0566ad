"""The browser client (holdem/server/static): ES modules that speak the server's protocol under its
names, share the page's state through one object, unit-tested where they are pure, and a replay
drawn from the table the server works out at each step."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import Hand, Stakes
from holdem.server import BROWSER_SILENCE, Close, Message
from holdem.server.connection import ALIVE
from holdem.server.handlog import hand_log
from holdem.server.replays import with_table
from tests.strategies import random_action

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "holdem" / "server" / "static"
PROTOCOL = (STATIC / "protocol.js").read_text(encoding="utf-8")


def frozen(name: str) -> dict[str, str]:
    """The entries of ``export const NAME = Object.freeze({ KEY: value, ... })`` in protocol.js."""
    found = re.search(rf"export const {name} = Object\.freeze\(\{{(.*?)\}}\);", PROTOCOL, re.DOTALL)
    assert found is not None, f"protocol.js has no {name}"
    return dict(re.findall(r'(\w+): "?([\w.]+)"?', found[1]))


def number(name: str) -> float:
    found = re.search(rf"export const {name} = ([\d.]+);", PROTOCOL)
    assert found is not None, f"protocol.js has no {name}"
    return float(found[1])


def test_protocol_js_holds_the_servers_close_codes_message_types_and_timeouts() -> None:
    """The page's numbers were bare (4404, 4429; 4000 ms of silence, where `holdem.server.SILENCE`
    said 2 s applied to the browser): now protocol.js names them as the server does, with its values."""
    assert {code.name: str(code.value) for code in Close} == frozen("Close")
    assert {kind.name: kind.value for kind in Message} == frozen("Message")
    assert (BROWSER_SILENCE, ALIVE) == (number("BROWSER_SILENCE"), number("ALIVE"))


def test_the_pages_load_es_modules_that_share_state_through_one_object() -> None:
    """Three classic scripts shared one global scope (home.js wrote table.js's globals, `$` was
    defined twice, the storage key built six times). Now every script is a module; what the page
    shares is `page` (state.js); the storage key, the close codes and message types are each
    written once."""
    for html in ("index.html", "tournament.html"):
        scripts = re.findall(r"<script[^>]*>", (STATIC / html).read_text(encoding="utf-8"))
        assert scripts and all('type="module"' in tag for tag in scripts), (html, scripts)
    modules = {path.name: path.read_text(encoding="utf-8") for path in STATIC.glob("*.js")}
    for name, text in modules.items():
        assert not re.search(r"^export (let|var) ", text, re.MULTILINE), f"{name} exports a variable"
        assert "use strict" not in text, f"{name}: a module is strict already"
        if name not in ("protocol.js",):
            assert not re.search(r"\b(1008|1009|1012|4404|4429)\b", text), f"{name}: a bare close code"
            assert not re.search(r'\{ type: "(?![a-z]+/)|\.type === "', text), f"{name}: a bare message type"
        if name != "dom.js":
            assert "const $ =" not in text, f"{name} defines $ again"
        if name != "state.js":
            assert "`holdem.${" not in text and "window." not in text, (
                f"{name} builds a storage key or a global"
            )
    assert "page.hooks = " in modules["home.js"] and "export const page" in modules["state.js"]


def test_the_pure_modules_pass_their_tests_under_node() -> None:
    """render.js (card faces, the oval, log lines, results, a replay step) is tested on its own,
    with no page: `node --test tests/js`."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is not installed (Debian: apt-get install nodejs)")
    done = subprocess.run(
        [node, "--test", str(ROOT / "tests" / "js")], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert 0 == done.returncode, done.stdout + done.stderr
    assert re.search(r"^# pass [1-9]", done.stdout, re.MULTILINE) and "# fail 0" in done.stdout


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_each_replay_step_carries_the_table_the_engine_reaches(seed: int) -> None:
    """The replay worked the stacks out in the browser from the log; the server now sends the table
    after each step. Chips are conserved at every step (stacks and pot), and the last step's stacks
    are the hand's final stacks."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    hand = Hand.start([rng.randint(1, 300) for _ in range(n)], Stakes(1, 2, ante=rng.choice([0, 1])), rng=rng)
    while not hand.is_complete:
        hand.act(random_action(hand, rng))
    seats = tuple(sorted(rng.sample(range(9), n)))
    steps = with_table(hand_log(hand, seats), list(hand.starting_stacks), seats)
    assert all(sum(step["stacks"]) + step["pot"] == sum(hand.starting_stacks) for step in steps)
    assert all(min(step["stacks"]) >= 0 and len(step["board"]) in (0, 3, 4, 5) for step in steps)
    assert hand.result is not None and list(hand.result.final_stacks) == steps[-1]["stacks"]
    assert 0 == steps[-1]["pot"] and [str(c) for c in hand.board] == steps[-1]["board"]
