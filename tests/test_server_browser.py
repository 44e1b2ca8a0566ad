"""The browser table in headless Chromium (Debian's package), driven by Playwright."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip("playwright", reason="playwright is not installed (the test extra brings it)")

from playwright.sync_api import expect, sync_playwright
from websockets.sync.client import connect

from tests.server_support import ThreadServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Chromium is not installed (apt-get install chromium; .ci/run does)"
)


def test_a_seat_sees_its_cards_clicks_an_action_and_sees_it_applied(tmp_path: Path) -> None:
    shots = Path(os.environ.get("HOLDEM_ARTIFACTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as server:
        table = server.table(seats=2, action_seconds=60)
        players = dict([server.join(table, "ann", 100), server.join(table, "bob", 100)])
        with connect(f"{server.ws}/ws?table={table}") as watch:
            actor = json.loads(watch.recv(timeout=5))["actor"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page()
            page.goto(f"{server.base}/?token={players[actor]}")
            expect(page.locator("[data-testid=hole] .card")).to_have_count(2)
            expect(page.locator("[data-testid=board]")).to_be_attached()
            # Heads-up, the button acts first preflop and owes a call: fold, call and raise are offered.
            expect(page.locator('[data-action="call"]')).to_be_visible()
            expect(page.locator('[data-action="check"]')).to_be_hidden()
            page.screenshot(path=str(shots / "browser-table-before.png"))
            page.locator('[data-action="call"]').click()
            expect(page.locator("[data-testid=log]")).to_contain_text(
                "ann call" if actor == 0 else "bob call"
            )
            expect(page.locator('[data-action="call"]')).to_be_hidden()  # now the other player's turn
            page.screenshot(path=str(shots / "browser-table.png"))
            browser.close()
        with connect(f"{server.ws}/ws?table={table}") as watch:
            state = json.loads(watch.recv(timeout=5))
        assert (1, 1) == (state["hand"], state["steps"]) and state["actor"] != actor
    assert (shots / "browser-table.png").stat().st_size > 10_000
