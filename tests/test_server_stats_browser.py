"""The players' statistics in the browser (headless Chromium from Debian's package, driven by
Playwright): the host reads them from the Stats button, the guests see no button until the host
shows them, then read the same numbers as the API on a phone, the table scrolling inside the page."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip("playwright", reason="playwright is not installed (the test extra brings it)")

from playwright.sync_api import expect

from holdem.server import housebots
from tests.server_support import ADMIN, ThreadServer
from tests.test_server_browser import CHROMIUM, DESKTOP, PHONE
from tests.test_server_home_browser import Player, browser

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Chromium is not installed (apt-get install chromium; .ci/run does)"
)


def test_the_host_shows_the_players_statistics_and_a_guest_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(housebots, "PAUSE", 0.0)  # the host's bots act at once: hands in seconds
    errors: list[str] = []
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as server, browser() as opened:
        status, game = server.http("POST", "/api/games", {"seats": 6})
        assert 200 == status, game
        ident, token = game["id"], game["host_token"]
        for bot in ("calling-station", "equity", "folder"):
            assert (
                200
                == server.http("POST", f"/api/tables/{ident}/host", {"command": "bot", "bot": bot}, token)[0]
            )
        deadline = time.monotonic() + 60
        while len(server.http("GET", f"/api/tables/{ident}/hands", token=ADMIN)[1]["hands"]) < 8:
            assert time.monotonic() < deadline, "the bots did not play"
            time.sleep(0.2)
        assert 200 == server.http("POST", f"/api/tables/{ident}/host", {"command": "pause"}, token)[0]
        host, guest = Player(opened, "host", DESKTOP, errors), Player(opened, None, PHONE, errors)
        host.page.goto(f"{server.base}{game['host_link']}")
        guest.page.goto(f"{server.base}{game['player_link']}")
        expect(host.page.locator("#stats-toggle")).to_be_visible(timeout=10_000)
        expect(guest.page.locator("#felt")).to_be_visible(timeout=10_000)
        expect(guest.page.locator("#stats-toggle")).to_be_hidden()
        host.page.locator("#stats-toggle").click()
        rows = host.page.locator("#stats-rows tr")
        expect(rows).to_have_count(3, timeout=10_000)
        status, answer = server.http("GET", f"/api/tables/{ident}/stats", token=token)
        assert 200 == status
        first = answer["players"][0]
        expect(rows.first).to_contain_text(first["player"])
        expect(rows.first.locator("td").nth(1)).to_have_text(str(first["hands"]))
        host.page.locator("#stats-shown").check()
        expect(guest.page.locator("#stats-toggle")).to_be_visible(timeout=10_000)
        guest.page.locator("#stats-toggle").click()
        guest_rows = guest.page.locator("#stats-rows tr")
        expect(guest_rows).to_have_count(3, timeout=10_000)
        vpip = first["vpip"]["percent"]
        expect(guest_rows.first.locator("td").nth(2)).to_have_text("-" if vpip is None else f"{vpip:.1f}")
        expect(guest.page.locator("#stats-note")).to_contain_text(f"Over the {answer['hands']} hands")
        guest.fits()
        host.page.locator("#stats-shown").uncheck()
        expect(guest.page.locator("#stats-toggle")).to_be_hidden(timeout=10_000)
        expect(guest.page.locator("#stats")).to_be_hidden()
    assert [] == errors
