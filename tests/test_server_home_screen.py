"""A home game's screen, round 2 (issue 46), in headless Chromium (Debian's package) driven by
Playwright: the invitation draws its open seats whatever script arrives late; a paused game asks
nobody to act and says so on the clock; a game ended during a hand shows a provisional settle-up until
the hand is over, and nobody an error after it; the host link hosts from another device; the words on
the controls and plates."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip("playwright", reason="playwright is not installed (the test extra brings it)")

from playwright.sync_api import Page, Route, expect

from tests.server_support import ThreadServer
from tests.test_server_browser import CHROMIUM, DESKTOP, PHONE
from tests.test_server_home_browser import Player, browser

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Chromium is not installed (apt-get install chromium; .ci/run does)"
)

LATE = 2.0
"""How late a delayed script arrives, in seconds (the issue's bound)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as running:
        yield running


def hosted(server: ThreadServer, bot: str | None = None, **settings: Any) -> dict[str, Any]:
    """A home game whose host sits in seat 1 with 200 chips, and `bot` (a built-in) in seat 2; the
    game as `POST /api/games` answers, with the host's seat token as ``"seat_token"``."""
    status, game = server.http("POST", "/api/games", {"seats": 6} | settings)
    assert 200 == status, game
    sitting = {"name": "Hana", "buy_in": 200, "seat": 0}
    status, seat = server.http("POST", f"/api/tables/{game['id']}/players", sitting, game["host_token"])
    assert 200 == status and not seat["pending"], seat
    if bot is not None:
        command = {"command": "bot", "bot": bot, "seat": 1}
        status, answer = server.http("POST", f"/api/tables/{game['id']}/host", command, game["host_token"])
        assert 200 == status, answer
    return game | {"seat_token": seat["token"]}


def host_page(server: ThreadServer, game: dict[str, Any]) -> str:
    """The host's own page: the seat by its token, the host tools by the host link."""
    return f"{server.base}/?table={game['id']}&token={game['seat_token']}#host={game['host_token']}"


def late(page: Page, script: str, seconds: float) -> None:
    """Serve `script` (a file under /static/) `seconds` late to this page."""

    def handler(route: Route) -> None:
        time.sleep(seconds)
        route.continue_()

    page.route(f"**/static/{script}", handler)


def my_turn(page: Page, seconds: float = 20) -> None:
    expect(page.locator("#actions")).to_be_visible(timeout=seconds * 1000)


def check_or_call(page: Page) -> None:
    """Click Check, or Call when there is a bet to call."""
    free = page.locator('#actions [data-action="check"]')
    (free if free.is_visible() else page.locator('#actions [data-action="call"]')).click()


@pytest.mark.parametrize("script", ["table.js", "home.js", "table.css"])
def test_the_invitation_draws_every_open_seat_whatever_script_arrives_late(
    server: ThreadServer, script: str
) -> None:
    """An idle table sends no second state: the first one must be drawn whole, whenever it arrives."""
    errors: list[str] = []
    game = hosted(server)
    with browser() as opened:
        friend = Player(opened, "friend", PHONE, errors)
        late(friend.page, script, LATE)
        friend.page.goto(f"{server.base}{game['player_link']}")
        expect(friend.page.locator("button.sit")).to_have_count(5, timeout=10_000)
        expect(friend.page.locator(".seat .name", has_text="Hana")).to_have_count(1)
    assert [] == errors


def test_a_table_is_drawn_even_when_the_home_games_script_never_arrives(server: ThreadServer) -> None:
    errors: list[str] = []
    game = hosted(server)
    with browser() as opened:
        friend = Player(opened, "friend", DESKTOP, errors)
        friend.page.route("**/static/home.js", lambda route: route.abort())
        friend.page.goto(f"{server.base}{game['player_link']}")
        expect(friend.page.locator(".seat .name", has_text="Hana")).to_have_count(1, timeout=10_000)
        expect(friend.page.locator(".seat.empty")).to_have_count(5)
    assert all("home.js" in e or "Failed to load" in e for e in errors), errors  # only the missing file


def test_a_paused_game_offers_no_action_and_its_clock_says_paused(server: ThreadServer) -> None:
    errors: list[str] = []
    game = hosted(server, bot="calling-station")
    with browser() as opened:
        host = Player(opened, "Hana", DESKTOP, errors)
        host.page.goto(host_page(server, game))
        my_turn(host.page)
        host.page.click("#pause")
        expect(host.page.locator("#status")).to_contain_text("paused by the host")
        expect(host.page.locator("#actions")).to_be_hidden()
        expect(host.page.locator(".seat.actor .seconds")).to_have_text("paused")
        host.page.click("#resume")
        my_turn(host.page)
        expect(host.page.locator(".seat.actor .seconds")).to_contain_text(" s")
    assert [] == errors


def test_a_game_ended_during_a_hand_settles_provisionally_then_finally_and_shows_nobody_an_error(
    server: ThreadServer,
) -> None:
    errors: list[str] = []
    game = hosted(server, bot="calling-station", name="Friday game")
    with browser() as opened:
        host = Player(opened, "Hana", DESKTOP, errors)
        watcher = Player(opened, None, PHONE, errors)
        host.page.goto(host_page(server, game))
        watcher.page.goto(f"{server.base}{game['player_link']}")
        my_turn(host.page)
        expect(watcher.page.locator("#status")).to_contain_text("Friday game · hand")  # by its name
        host.page.click("#end-game")
        host.page.click("#end-game")  # confirmed
        for page in (host.page, watcher.page):
            expect(page.locator("#settle")).to_be_visible()
            expect(page.locator("#settle-note")).to_contain_text("Provisional")
        host.page.locator('#actions [data-action="fold"]').click()  # the hand the game ended in is over
        for page in (host.page, watcher.page):
            expect(page.locator("#settle-note")).to_have_text("The game has ended.")
            expect(page.locator("#status")).to_contain_text("the game has ended")
            expect(page.locator("#status")).not_to_contain_text("waiting for players")
            expect(page.locator("#log li.hand").first).to_have_text("The game has ended")
        time.sleep(1.5)  # any late refusal of the host's old seat token would show by now
        for page in (host.page, watcher.page):
            expect(page.locator("#error")).to_have_text("")
            expect(page.locator("body")).not_to_contain_text("no longer hold a seat")
    assert [] == errors


def test_the_host_link_hosts_from_another_device(server: ThreadServer) -> None:
    errors: list[str] = []
    game = hosted(server)
    with browser() as opened:
        desk = Player(opened, "Hana", DESKTOP, errors)
        desk.page.goto(host_page(server, game))
        expect(desk.page.locator("#host-tools")).to_be_visible()
        link = desk.page.locator("#host-link").input_value()
        assert link.endswith(f"#host={game['host_token']}") and game["id"] in link
        phone = Player(opened, "Hana's phone", PHONE, errors)  # a new browser: nothing stored
        phone.page.goto(link)
        expect(phone.page.locator("#host-tools")).to_be_visible()
        phone.page.click("#pause")
        expect(desk.page.locator("#status")).to_contain_text("paused by the host")
        assert "host" not in phone.page.url  # out of the address bar once kept
    assert [] == errors


def test_the_controls_and_plates_say_what_a_player_expects(server: ThreadServer) -> None:
    """ "Bet" when nobody has bet, "Raise to" after a bet; a long name written whole; the bot form's
    seat list named for what it is."""
    errors: list[str] = []
    game = hosted(server, bot="calling-station")
    with browser() as opened:
        host = Player(opened, "Hana", DESKTOP, errors)
        host.page.goto(host_page(server, game))
        raise_button = host.page.locator('#actions [data-action="raise"]')
        my_turn(host.page)
        expect(raise_button).to_contain_text("Raise to")  # preflop: the blinds are bets
        check_or_call(host.page)
        host.page.wait_for_function("() => holdemPage.latest.phase === 'flop' && holdemPage.latest.legal")
        expect(raise_button).to_contain_text("Bet")
        assert "raise" not in str(raise_button.get_attribute("aria-label"))
        name = host.page.locator(".seat .name", has_text="calling-station bot")
        expect(name).to_have_text("calling-station bot")
        assert name.evaluate("el => el.scrollWidth <= el.clientWidth")  # not cut
        expect(host.page.get_by_role("combobox", name="seat for the bot")).to_be_visible()
    assert [] == errors


def test_the_lobby_lists_only_games_their_hosts_list_by_name_and_marks_an_ended_one(
    server: ThreadServer,
) -> None:
    errors: list[str] = []
    hosted(server)  # unlisted: only its link opens it
    with browser() as opened:
        visitor = Player(opened, None, PHONE, errors)
        visitor.page.goto(f"{server.base}/")
        expect(visitor.page.locator("#no-tables")).to_be_visible()
        expect(visitor.page.locator("#tournaments-title")).to_be_hidden()  # no empty heading
        expect(visitor.page.locator("body")).not_to_contain_text("TOKEN")  # no developer text
        host = Player(opened, "Hana", DESKTOP, errors)
        host.page.goto(f"{server.base}/")
        host.page.fill("#host-name", "Hana")
        host.page.fill("#host-game-name", "Friday poker")
        host.page.check("#host-listed")
        host.page.click("#host-form button[type=submit]")
        expect(host.page.locator("#host-tools")).to_be_visible()
        visitor.page.reload()
        game = visitor.page.locator("#tables a")
        expect(game).to_have_count(1)
        expect(game).to_contain_text("Friday poker")
        host.page.click("#end-game")
        host.page.click("#end-game")
        expect(host.page.locator("#settle-note")).to_have_text("The game has ended.")
        visitor.page.reload()
        expect(visitor.page.locator("#tables li.ended")).to_contain_text("Friday poker")
        expect(visitor.page.locator("#tables a")).to_contain_text("ended")
        visitor.fits()
    assert [] == errors


def test_on_a_desktop_the_hosts_tools_sit_beside_the_table_and_a_request_above_it(
    server: ThreadServer,
) -> None:
    errors: list[str] = []
    game = hosted(server)
    with browser() as opened:
        host = Player(opened, "Hana", DESKTOP, errors)
        host.page.goto(host_page(server, game))
        expect(host.page.locator("#host-tools")).to_be_visible()
        expect(host.page.locator("#requests-box")).to_be_hidden()  # nothing asked: no empty box
        asked = {"name": "Dev", "buy_in": 100}
        assert 200 == server.http("POST", f"/api/tables/{game['id']}/players", asked)[0]
        expect(host.page.locator("#requests-box")).to_be_visible()
        felt, tools, box = (
            host.page.locator(s).bounding_box() for s in ("#felt", "#host-tools", "#requests-box")
        )
        assert felt and tools and box
        beside = tools["x"] >= felt["x"] + felt["width"] and tools["y"] < felt["y"] + felt["height"]
        assert beside
        assert box["y"] + box["height"] <= felt["y"] and box["y"] < DESKTOP["height"]  # above it, in view
        host.page.click('#requests button[aria-label="approve Dev"]')
        expect(host.page.locator(".seat .name", has_text="Dev")).to_have_count(1)
        host.fits()
    assert [] == errors


def test_a_stored_hand_is_replayed_on_a_table_step_by_step(server: ThreadServer) -> None:
    errors: list[str] = []
    game = hosted(server, bot="calling-station")
    with browser() as opened:
        host = Player(opened, "Hana", DESKTOP, errors)
        host.page.goto(host_page(server, game))
        while server.http("GET", f"/api/tables/{game['id']}")[1]["hand"] < 2:  # hand 1 played out
            my_turn(host.page)
            check_or_call(host.page)
            host.page.wait_for_function(
                "() => !holdemPage.latest.legal || holdemPage.latest.steps !== holdemPage.state.steps"
            )
        host.page.click("#history-toggle")
        expect(host.page.locator("#stored li")).not_to_have_count(0)
        host.page.locator("#stored li").last.locator("button", has_text="Replay").click()
        felt = host.page.locator("#replay-felt")
        expect(felt.locator(".seat")).to_have_count(2)  # the hand's two players, no empty seat
        expect(felt.locator(".seat.me .card:not(.back)")).to_have_count(2)  # Hana's own cards
        expect(felt.locator(".board .card")).to_have_count(0)  # before the flop
        while host.page.locator("#replay-next").is_enabled():
            host.page.click("#replay-next")
        expect(felt.locator(".board .card")).to_have_count(5)  # checked down to the river
        expect(felt.locator(".seat.winner")).not_to_have_count(0)
        expect(felt.locator(".seat:not(.me) .card:not(.back)")).to_have_count(2)  # shown down at the end
        # Back over the awards: a split pot is awarded in two steps, each winner's (found by a CI run
        # whose random deal tied: one step back still showed the first winner, rightly).
        for _ in range(4):
            host.page.click("#replay-prev")
            if felt.locator(".seat.winner").count() == 0:
                break
        expect(felt.locator(".seat.winner")).to_have_count(0)
        expect(felt.locator(".board .card")).to_have_count(5)  # still at the river: only the awards undone
    assert [] == errors
