"""The browser table in headless Chromium (Debian's package), driven by Playwright: full hands at a
desktop and a phone size (the phone by keyboard alone), what each seat shows, and screenshots."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip("playwright", reason="playwright is not installed (the test extra brings it)")

from playwright.sync_api import Page, expect, sync_playwright

from tests.server_support import ThreadServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
DESKTOP, PHONE = {"width": 1440, "height": 900}, {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Chromium is not installed (apt-get install chromium; .ci/run does)"
)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("HOLDEM_ARTIFACTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def two_seats(tmp_path: Path) -> Iterator[tuple[ThreadServer, str, dict[str, str]]]:
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as server:
        table = server.table(seats=6, action_seconds=60)
        tokens = {name: server.join(table, name, 200)[1] for name in ("ann", "bob")}
        yield server, table, tokens


@contextlib.contextmanager
def pages(server: ThreadServer, tokens: dict[str, str], size: dict[str, int]) -> Iterator[dict[str, Page]]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            opened = {}
            for name, token in tokens.items():
                page = browser.new_context(viewport=size).new_page()  # type: ignore[arg-type]
                page.goto(f"{server.base}/?token={token}")
                opened[name] = page
            yield opened
        finally:
            browser.close()


def overlap(a: Any, b: Any) -> bool:
    """Whether two bounding boxes (x, y, width, height) share any area."""
    return bool(
        a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]
    )  # fmt: skip


def own_cards(page: Page) -> list[str]:
    return [
        str(c)
        for c in page.locator(".seat.me .card:not(.back)").evaluate_all("els => els.map(e => e.dataset.card)")
    ]


def check_what_each_seat_shows(seen: dict[str, Page]) -> None:
    """Own cards face up, two backs for the other player, and never the other's cards in the page."""
    cards = {name: own_cards(page) for name, page in seen.items()}
    for name, page in seen.items():
        other = next(n for n in seen if n != name)
        assert 2 == len(cards[name]), name
        expect(page.locator(".seat:not(.me):not(.empty) .card.back")).to_have_count(2)
        shown = page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        assert not set(cards[other]) & set(shown) - set(page.locator("#board [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)")), f"{name} sees {other}'s cards"  # fmt: skip


def actor(seen: dict[str, Page], timeout: float = 10.0) -> Page:
    """The page whose player is to act (its controls are shown)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in seen.values():
            if page.locator("#actions").is_visible():
                return page
        time.sleep(0.05)
    raise AssertionError("nobody's controls appeared")


def play_hand(seen: dict[str, Page], move: Any) -> str:
    """Play one hand to its end with `move(page, step)`; returns the result text shown."""
    hand = seen["ann"].locator("[data-testid=status]").inner_text()
    check_what_each_seat_shows(seen)
    deadline = time.monotonic() + 90  # a bound, not a pace: a busy machine's pages answer slowly
    step = 0
    while time.monotonic() < deadline:
        page = actor(seen)
        turn = page.evaluate("[window.holdemPage.state.hand, window.holdemPage.state.steps]")
        move(page, step)
        step += 1
        # Wait for the move to land before looking for the next turn: clicking a turn again and again
        # while a busy machine's page is behind sends stale actions, each refused.
        page.wait_for_function(
            """turn => { const s = window.holdemPage.state, out = document.querySelector("#actions").hidden;
                return out || s.hand !== turn[0] || s.steps !== turn[1] }""",
            arg=turn,
            timeout=30_000,
        )
        for page in seen.values():
            if "wins" in page.locator("[data-testid=result]").inner_text():
                text = page.locator("[data-testid=result]").inner_text()
                for other in seen.values():  # everyone sees the winner named
                    expect(other.locator("[data-testid=result]")).to_contain_text("wins")
                return text
        time.sleep(0.15)
    raise AssertionError(f"the hand {hand} did not end")


def test_full_hands_at_a_desktop_size_with_the_mouse(two_seats: Any, shots: Path) -> None:
    """Seats around the oval, own cards face up and backs for the other, a dealer button, controls
    only on one's turn, the winner named at showdown, a pre-action, and the session's hands."""
    server, table, tokens = two_seats
    with pages(server, tokens, DESKTOP) as seen:
        expect(seen["ann"].locator("[data-testid=dealer]")).to_have_count(1)
        expect(seen["ann"].locator(".seat")).to_have_count(6)
        expect(seen["ann"].locator(".seat.me")).to_contain_text("ann (you)")
        waiting = next(page for page in seen.values() if not page.locator("#actions").is_visible())
        expect(waiting.locator("#pre-actions")).to_be_visible()
        seen_first = actor(seen)
        seen_first.screenshot(path=str(shots / "table-desktop.png"))
        controls = seen_first.locator("#actions").bounding_box()
        for seat in seen_first.locator(".seat:not(.empty)").all():  # the raise box once covered the clock
            assert not overlap(controls, seat.bounding_box()), (controls, seat.bounding_box())

        def click(page: Page, step: int) -> None:
            for kind in ("check", "call"):
                button = page.locator(f'#actions [data-action="{kind}"]')
                if button.is_visible():
                    button.click()
                    return

        first = play_hand(seen, click)
        assert "wins" in first
        seen["ann"].screenshot(path=str(shots / "table-desktop-showdown.png"))
        actor(seen, timeout=30)  # the showdown pause, then the next hand's turn
        waiting = next(page for page in seen.values() if not page.locator("#actions").is_visible())
        waiting.locator("#pre-check-fold").check()  # chosen before the turn, played on it
        play_hand(seen, click)
        page = seen["bob"]
        page.locator("#history-toggle").click()
        expect(page.locator("#hands > li").nth(1)).to_be_attached(timeout=30_000)  # both hands, once held
        expect(page.locator("#hands > li").first).to_contain_text("wins")
        page.locator("#rebuy-toggle").click()  # the rebuy form offers what this player may add
        error = page.locator("[data-testid=error]")
        page.wait_for_function(  # the form opened, or the page said why not
            "!document.getElementById('rebuy-form').hidden || document.getElementById('error').textContent"
        )
        if error.inner_text():  # bob holds 200 or more: no rebuy is offered, and the page says why
            expect(error).to_have_text("You hold the most this table allows: there is nothing to rebuy.")
            expect(page.locator("#rebuy-form")).to_be_hidden()
        else:
            expect(page.locator("#rebuy-amount")).to_be_focused()
            expect(page.locator("#rebuy-range")).to_have_text(re.compile(r"\d+ to \d+( \(you have \d+\))?"))
            page.locator("#rebuy-form button").click()  # topped up to the maximum, now or when the hand ends
            expect(page.locator(".seat.me .stack")).to_have_text(
                re.compile(r"^200$|^(\d+|all-in) \(\+\d+\)$")
            )
        page.locator("#sit-out").click()
        expect(page.locator("#sit-in")).to_be_visible()
        page.locator("#leave").click()
        expect(page.locator("[data-testid=error]")).to_contain_text(
            re.compile("You (left the table|leave when)")
        )
    hands = server.hands(table)
    assert len(hands) >= 2 and any(" f" in line or " cc" in line for line in hands[1]["phh"].splitlines())


def test_full_hands_at_a_phone_size_by_keyboard_alone(two_seats: Any, shots: Path) -> None:
    """390x844, no mouse: c checks or calls, r then Enter raises, a goes all-in, f folds; every
    control can be reached with Tab, and each has a name a screen reader reads."""
    server, table, tokens = two_seats
    with pages(server, tokens, PHONE) as seen:
        page = actor(seen)
        names = page.locator("#actions button:visible").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label') || e.textContent.trim())"
        )
        assert names and all(names), names
        reached = set()
        for _ in range(30):
            page.keyboard.press("Tab")
            reached.add(page.evaluate("document.activeElement.dataset.action || document.activeElement.id"))
        assert {"fold", "call", "raise", "amount-box"} <= reached, reached
        page.screenshot(path=str(shots / "table-phone.png"))

        def keys(page: Page, step: int) -> None:
            page.locator("body").focus()
            if step == 0:
                page.keyboard.press("r")  # the smallest raise is filled in: Enter confirms it
                page.keyboard.press("Enter")
            else:
                page.keyboard.press("c")

        assert "wins" in play_hand(seen, keys)
        page.screenshot(path=str(shots / "table-phone-showdown.png"))
        folding = actor(seen, timeout=30)  # the showdown pause, then the next hand's turn
        folding.locator("body").focus()
        folding.keyboard.press("f")
        other = next(p for p in seen.values() if p is not folding)
        expect(other.locator("[data-testid=result]")).to_contain_text("wins")
    assert len(server.hands(table)) >= 2


def test_the_lobby_and_a_tournament_page_and_a_moved_player_in_the_browser(
    tmp_path: Path, shots: Path
) -> None:
    """The lobby lists a table and a tournament; the tournament page shows its level, payouts and,
    once it is over, the places; a player's page follows them when the director moves them."""
    from tests.server_support import ADMIN, play_bots

    levels = [
        {"small_blind": 10, "big_blind": 20, "duration": 0.2},
        {"small_blind": 20, "big_blind": 40, "duration": 0.2},
    ]
    structure = {"starting_stack": 200, "levels": levels}
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as server:
        server.table(seats=6)
        status, made = server.http(
            "POST",
            "/api/tournaments",
            {"structure": structure, "seats": 3, "entrants": 4, "buy_in": 5},
            ADMIN,
        )
        assert 200 == status, made
        tournament = made["id"]
        tokens = []
        for name in ("ann", "bob", "cid", "dee"):
            status, entry = server.http("POST", f"/api/tournaments/{tournament}/entries", {"name": name})
            tokens.append(entry["token"])
        status, running = server.http("GET", f"/api/tournaments/{tournament}")
        first, second = running["tables"]  # two tables of two; the second is broken first (rule 24)
        watched = [t for t in tokens if _table_of(server, t) == second]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                lobby = browser.new_context(viewport=DESKTOP).new_page()  # type: ignore[arg-type]
                lobby.goto(server.base + "/")
                expect(lobby.locator("[data-testid=tournaments] a")).to_contain_text(
                    f"tournament {tournament}"
                )
                expect(lobby.locator("[data-testid=tables] a")).to_have_count(3)  # the cash table and two
                page = browser.new_context(viewport=DESKTOP).new_page()  # type: ignore[arg-type]
                page.goto(f"{server.base}/tournament?id={tournament}")
                expect(page.locator("[data-testid=level]")).to_contain_text("blinds 10/20")
                expect(page.locator("[data-testid=payouts]")).to_contain_text("1. ")
                expect(page.locator("[data-testid=entrants]")).to_contain_text("4 of 4 registered")
                player = browser.new_context(viewport=DESKTOP).new_page()  # type: ignore[arg-type]
                errors: list[str] = []
                player.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                player.on("pageerror", lambda e: errors.append(str(e)))
                player.goto(f"{server.base}/?token={watched[0]}")
                expect(player.locator("[data-testid=felt]")).to_be_visible()
                with ThreadPoolExecutor(1) as pool:  # the bots in a thread: Playwright holds this one's loop
                    pool.submit(
                        play_bots, server, tokens, hands=10**6, seconds=40, until=over_at(server, tournament)
                    ).result(60)
                expect(page.locator("[data-testid=status]")).to_have_text("finished", timeout=10_000)
                expect(page.locator("[data-testid=results] tr")).to_have_count(4)
                page.screenshot(path=str(shots / "tournament.png"))
                said, deadline = "", time.monotonic() + 15  # the player's page catches up with the end
                while time.monotonic() < deadline:
                    said = (
                        player.locator("[data-testid=error]").inner_text()
                        + player.locator("[data-testid=status]").inner_text()
                    )
                    if f"moved to table {first}" in said or "you finished in place" in said:
                        break
                    time.sleep(0.1)
                assert f"moved to table {first}" in said or "you finished in place" in said, (said, errors)
                assert [] == errors
            finally:
                browser.close()


def test_a_player_out_within_the_showdown_hold_still_reads_their_place(tmp_path: Path) -> None:
    """A heads-up tournament whose last hand ends within the 2.5 s that a showdown stays on screen:
    both players' pages say their place, and still say it once every pending showdown has been
    drawn (before, the held showdown's timer drew the old table over "you finished in place")."""
    from tests.server_support import ADMIN, play_bots

    levels = [{"small_blind": 50, "big_blind": 100, "duration": 5}]
    structure = {"starting_stack": 300, "levels": levels}
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as server:
        status, made = server.http(
            "POST",
            "/api/tournaments",
            {"structure": structure, "seats": 2, "entrants": 2, "buy_in": 5},
            ADMIN,
        )
        assert 200 == status, made
        tournament = made["id"]
        tokens = [
            server.http("POST", f"/api/tournaments/{tournament}/entries", {"name": name})[1]["token"]
            for name in ("ann", "bob")
        ]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                pages = []
                for token in tokens:
                    page = browser.new_context(viewport=DESKTOP).new_page()  # type: ignore[arg-type]
                    page.goto(f"{server.base}/?token={token}")
                    expect(page.locator("[data-testid=felt]")).to_be_visible()
                    pages.append(page)
                with ThreadPoolExecutor(1) as pool:  # the bots in a thread: Playwright holds this one's loop
                    pool.submit(
                        play_bots, server, tokens, hands=10**6, seconds=40, until=over_at(server, tournament)
                    ).result(60)
                for page in pages:
                    expect(page.locator("[data-testid=status]")).to_contain_text(
                        "you finished in place", timeout=10_000
                    )
                time.sleep(3.0)  # past any showdown still held on screen
                for page in pages:
                    expect(page.locator("[data-testid=status]")).to_contain_text(
                        "you finished in place", timeout=1
                    )
            finally:
                browser.close()


def _table_of(server: ThreadServer, token: str) -> str:
    """The table a token's seat is at now."""
    import json

    from websockets.sync.client import connect

    with connect(f"{server.ws}/ws?token={token}") as ws:
        return str(json.loads(ws.recv(timeout=5))["table"])


def over_at(server: ThreadServer, tournament: str) -> Any:
    """`play_bots`'s stop condition: the tournament is over."""
    return lambda runs: server.http("GET", f"/api/tournaments/{tournament}")[1]["status"] == "finished"


def test_the_raise_amount_being_chosen_stays_when_the_table_is_drawn_again_for_the_same_turn(
    tmp_path: Path,
) -> None:
    """The player to act picks the most (all-in) and has not clicked yet; the other player sits out
    from the next hand, so the table is drawn again on the first page for the same turn: the amount
    chosen stays (it went back to the least raise, and a click then raised the wrong amount)."""
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as server:
        table = server.table(seats=2, action_seconds=60)
        tokens = {name: server.join(table, name, 200)[1] for name in ("ann", "bob")}
        with pages(server, tokens, DESKTOP) as seen:
            first = actor(seen)
            other = next(page for page in seen.values() if page is not first)
            first.locator('#actions [data-preset="max"]').click()
            expect(first.locator("#raise-to")).to_have_text("200 (all-in)")
            other.locator("#sit-out").click()
            expect(first.locator(".seat:not(.me):not(.empty) .role")).to_contain_text("sitting out")
            expect(first.locator("#raise-to")).to_have_text("200 (all-in)")
            first.locator('#actions [data-action="raise"]').click()
            expect(other.locator("#log")).to_contain_text("raises to 200 (all-in)")


def test_rule_32_a_table_that_runs_it_twice_shows_both_boards_at_the_showdown(tmp_path: Path) -> None:
    """A table made with `run_twice`: one player moves all-in by mouse (the raise button, the plate and
    the caller's button all say all-in), the other calls; the caller's
    page shows the first board and the second (five cards each, none shared) while the showdown is
    held, each page's list of hands keeps both boards with the winners, and the stored PHH says so."""
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as server:
        table = server.table(seats=2, action_seconds=60, run_twice=True)
        tokens = {name: server.join(table, name, 200)[1] for name in ("ann", "bob")}
        with pages(server, tokens, DESKTOP) as seen:
            first = actor(seen)
            first.locator('#actions [data-preset="max"]').click()
            expect(first.locator("#raise-to")).to_have_text("200 (all-in)")  # all-in is said so
            first.locator('#actions [data-action="raise"]').click()
            expect(first.locator("#actions")).to_be_hidden()  # the all-in is in: the other's turn
            other = next(page for page in seen.values() if page is not first)
            expect(other.locator(".seat:not(.me):not(.empty) .stack")).to_have_text("all-in")
            expect(other.locator("#call-amount")).to_have_text("198 (all-in)")  # all the caller has
            expect(other.locator("#log")).to_contain_text("raises to 200 (all-in)")  # and the log says so
            other.locator('#actions [data-action="call"]').click()
            # The showdown is held on screen for 2.5 s (then the next hand is drawn): read it at once.
            expect(other.locator("#second-board [data-card]")).to_have_count(5)
            expect(other.locator("#board [data-card]")).to_have_count(5)
            first_board, second_board = (
                other.locator(f"#{where} [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
                for where in ("board", "second-board")
            )
            assert not set(first_board) & set(second_board)
            for page in seen.values():  # and each page's list of hands keeps both boards
                page.locator("#history-toggle").click()
                kept = page.locator("#hands > li").first
                expect(kept).to_contain_text("wins")
                expect(kept).to_contain_text(
                    f"Board: {' '.join(first_board)} · second board: {' '.join(second_board)}"
                )
        first_hand = server.hands(table)[0]  # stored with the rule: its PHH replays both boards
        assert "_run_twice = true" in first_hand["phh"]
