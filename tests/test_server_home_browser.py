"""A home game in headless Chromium (Debian's package), driven by Playwright, from the lobby to the
settle-up: the host creates the game, two players ask for seats by the link (one on a phone by
keyboard alone, one on a desktop by mouse on a slow line), the host approves them; they chat, go
all-in and run it twice, the busted player rebuys from the prompt, a player shows a hand won without
a showdown; the host pauses, changes the blinds, seats a bot, removes a player and ends the game;
the settle-up equals the stored ledger; the stored hands are replayed and downloaded. Throughout: no
console error, nothing wider than the phone, and no card of another player in any page's WebSocket
frames before it was shown."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "starlette", reason="the server extra is not installed: pip install 'holdem-engine[server]'"
)
pytest.importorskip("playwright", reason="playwright is not installed (the test extra brings it)")

from playwright.sync_api import Browser, Page, expect, sync_playwright

from holdem.server.room import HOST_LINE
from tests.server_support import ADMIN, ThreadServer
from tests.test_server_browser import CHROMIUM, DESKTOP, FLAGS, PHONE, shots
from tests.test_server_home import phh_cards

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Chromium is not installed (apt-get install chromium; .ci/run does)"
)

__all__ = ["shots"]  # the fixture, shared with the table's browser test

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


class Player:
    """One browser page at the table: its name (None: a spectator), its frames, its errors."""

    def __init__(
        self, browser: Browser, name: str | None, size: dict[str, int], errors: list[str], latency: int = 0
    ) -> None:
        self.name, self.size = name, size
        self.page = browser.new_context(viewport=size, accept_downloads=True).new_page()  # type: ignore[arg-type]
        if latency:  # a slow line: every request and WebSocket frame `latency` ms late, and a thin pipe
            cdp = self.page.context.new_cdp_session(self.page)
            cdp.send("Network.enable")
            conditions = {
                "offline": False,
                "latency": latency,
                "downloadThroughput": 50_000,
                "uploadThroughput": 20_000,
            }
            cdp.send("Network.emulateNetworkConditions", conditions)
        self.frames: list[str] = []
        self.page.on("console", lambda m: errors.append(f"{name}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def fits(self) -> None:
        """Nothing on the page is wider than its window."""
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= self.size["width"], f"{self.name}'s page is {width}px wide"


def tab_to(page: Page, selector: str, presses: int = 150) -> None:
    """Move the focus with the Tab key alone until it is on `selector`."""
    for _ in range(presses):
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


Move = Callable[[Player], None]


def by_mouse(player: Player) -> None:
    """Check if free, else fold, with the mouse."""
    check = player.page.locator('#actions [data-action="check"]')
    (check if check.is_visible() else player.page.locator('#actions [data-action="fold"]')).click()


def by_keys(player: Player) -> None:
    """Check if free, else fold, by keyboard."""
    free = player.page.locator('#actions [data-action="check"]').is_visible()
    player.page.keyboard.press("c" if free else "f")


def play_until(
    players: dict[str, Player], moves: dict[str, Move], done: Callable[[], bool], seconds: float = 60
) -> None:
    """Let each player whose controls are shown move, until `done()`."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the table did not get there in time"
        for player in players.values():  # outside a showdown, no other player's card face up
            others = "document.querySelectorAll('.seat:not(.me) .card:not(.back)').length === 0"
            faces = f"() => holdemPage.holding || {others}"
            assert player.page.evaluate(faces) is True, f"{player.name} sees another's card"
        for name, move in moves.items():
            page = players[name].page
            if page.locator("#actions").is_visible():
                turn = page.evaluate("[holdemPage.state.hand, holdemPage.state.steps]")
                move(players[name])
                try:  # taken: the page draws a later turn (its controls may come back at once, after a bot)
                    page.wait_for_function(
                        "(turn) => holdemPage.latest.hand !== turn[0] || holdemPage.latest.steps !== turn[1]",
                        arg=turn,
                        timeout=5000,
                    )
                except Exception:
                    raise AssertionError(
                        f"{name}'s move was not taken: {page.locator('#error').inner_text()!r}"
                    ) from None
                page.wait_for_function("() => !holdemPage.holding", timeout=5000)
        time.sleep(0.1)


def stored_hands(server: ThreadServer, table: str) -> dict[int, dict[str, Any]]:
    """Each stored hand's players, hole cards by name and the cards shown at its showdown."""
    found = {}
    for row in server.hands(table):
        text = row["phh"]
        names = json.loads(re.search(r"^players = (\[.*\])$", text, re.M)[1].replace("'", '"'))  # type: ignore[index]
        holes = {
            names[int(k) - 1]: {c[i : i + 2] for i in range(0, 4, 2)}
            for k, c in re.findall(r"d dh p(\d+) (\w{4})", text)
        }
        shown = {c[i : i + 2] for c in re.findall(r"p\d+ sm (\w{4})", text) for i in range(0, 4, 2)}
        found[row["number"]] = {"names": names, "holes": holes, "shown": shown}
    return found


def bracketed(text: str) -> set[str]:
    """The cards of a PokerStars hand history: those in brackets ("Dealt to ann [As Kd]")."""
    return {card for group in re.findall(r"\[([^\]]*)\]", text) for card in group.split()}


def leaks(player: Player, hands: dict[int, dict[str, Any]]) -> list[str]:
    """Cards of another player in this page's frames before they were shown: in the hand in progress
    (every field but the last hand and the chat) every other player's; in the hand just finished those
    neither shown down nor shown after it (in the chat)."""
    found = []
    for text in player.frames:
        message = json.loads(text)
        if message.get("type") != "state":
            continue
        last, chat = message.pop("last_hand"), message.pop("chat")
        parts = [(message["hand"], message, set())] if message["phase"] is not None else []
        if last is not None:
            shown = {c for entry in chat if entry.get("cards") for c in entry["cards"]}
            parts.append((last["number"], last, shown))
        for number, part, shown in parts:
            hand = hands[number]
            hidden = {c for name, held in hand["holes"].items() if name != player.name for c in held}
            hidden -= shown | (hand["shown"] if part is last else set())
            seen = set(CARD.findall(json.dumps(part))) & hidden
            if seen:
                found.append(f"{player.name} saw {sorted(seen)} of hand {number}")
    return found


def settled_nets(page: Page, expected: dict[str, int], seconds: float = 5.0) -> dict[str, int]:
    """The nets the settle-up on `page` shows, once they are `expected` or after `seconds` (the page
    reads the settle-up again after each change)."""
    deadline = time.monotonic() + seconds
    while True:
        rows = page.locator("#settle-rows tr").evaluate_all(
            "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
        )
        nets = {r[0]: int(r[4]) for r in rows}
        if nets == expected or time.monotonic() > deadline:
            return nets
        time.sleep(0.1)


@contextlib.contextmanager
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        opened = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield opened
        finally:
            opened.close()


def test_a_home_game_from_the_lobby_to_the_settle_up(tmp_path: Path, shots: Path) -> None:
    errors: list[str] = []
    with ThreadServer(f"sqlite:///{tmp_path / 'holdem.db'}") as server, browser() as opened:
        host = Player(opened, "Hana", DESKTOP, errors)
        dev = Player(opened, "Dev", DESKTOP, errors, latency=400)  # on a slow line
        pia = Player(opened, "Pia", PHONE, errors)
        watcher = Player(opened, None, PHONE, errors)
        players = {"host": host, "dev": dev, "pia": pia, "watcher": watcher}

        # The host makes the game in the lobby: run it twice, and sits with 200.
        host.page.goto(f"{server.base}/")
        host.page.fill("#host-name", "Hana")
        host.page.fill("#host-seats", "6")
        host.page.check("#host-twice")
        host.page.click("#host-form button[type=submit]")
        expect(host.page.locator("#host-tools")).to_be_visible()
        link = host.page.locator("#invite").input_value()
        table = link.rsplit("=", 1)[1]
        assert "host" not in host.page.url  # the host token is kept by the browser, not shown

        # Dev asks for a seat with the mouse, Pia on her phone by keyboard alone; a spectator watches.
        watcher.page.goto(link)
        dev.page.goto(link)
        dev.page.locator("button.sit").first.click()
        dev.page.fill("#seat-name", "Dev")
        dev.page.fill("#seat-buy", "150")
        dev.page.click("#seat-form button[type=submit]")
        expect(dev.page.locator("#asking")).to_contain_text("Waiting for the host")
        pia.page.goto(link)
        expect(pia.page.locator("button.sit").first).to_be_visible()
        tab_to(pia.page, "button.sit")
        pia.page.keyboard.press("Enter")
        pia.page.keyboard.type("Pia")
        pia.page.keyboard.press("Tab")
        pia.page.keyboard.press("Control+A")
        pia.page.keyboard.type("150")
        pia.page.keyboard.press("Enter")
        expect(pia.page.locator("#asking")).to_contain_text("Waiting for the host")
        pia.fits()
        expect(host.page.locator("#requests li")).to_have_count(2)
        for name in ("Dev", "Pia"):
            host.page.click(f'#requests button[aria-label="approve {name}"]')
        for player in (dev, pia):
            expect(player.page.locator("#seat-tools")).to_be_visible()
            expect(player.page.locator("#status")).to_contain_text("seat")

        # Chat, typed as markup: everyone, the spectator too, reads it as text.
        dev.page.fill("#chat-text", "<b>hi</b> <img src=x onerror=alert(1)>")
        dev.page.click("#chat-form button")
        tab_to(pia.page, "#chat-text")
        pia.page.keyboard.type("hello from the phone")
        pia.page.keyboard.press("Enter")
        pia.page.keyboard.press("Tab")  # out of the chat box: keys play again
        for player in (host, dev, pia, watcher):
            expect(player.page.locator("#chat-lines")).to_contain_text(
                "Dev: <b>hi</b> <img src=x onerror=alert(1)>"
            )
            expect(player.page.locator("#chat-lines")).to_contain_text("Pia: hello from the phone")
            expect(player.page.locator("#chat-lines img")).to_have_count(0)
        expect(watcher.page.locator("#chat-form")).to_be_hidden()  # spectators read only

        # All-in: Dev moves in whenever he acts, Pia calls an all-in, the host folds; run twice, until
        # one of them is out of chips and asked to rebuy.
        def shove(player: Player) -> None:
            page = player.page
            if page.locator('#actions [data-preset="max"]').is_visible():
                page.locator('#actions [data-preset="max"]').click()
                page.locator('#actions [data-action="raise"]').click()
            else:
                page.locator('#actions [data-action="call"], #actions [data-action="check"]').locator(
                    "visible=true"
                ).first.click()

        def calls_all_in(player: Player) -> None:
            facing = player.page.locator(".seat:not(.me) .stack", has_text="all-in").count() > 0
            free = player.page.locator('#actions [data-action="check"]').is_visible()
            player.page.keyboard.press("c" if facing or free else "f")

        def busted() -> Player | None:
            return next((p for p in (dev, pia) if p.page.locator("#rebuy-form").is_visible()), None)

        play_until(
            players, {"host": by_mouse, "dev": shove, "pia": calls_all_in}, lambda: busted() is not None, 120
        )
        out = busted()
        assert out is not None
        expect(out.page.locator("#rebuy-range")).to_have_text("40 to 200")
        expect(out.page.locator("#error")).to_contain_text("out of chips")
        expect(out.page.locator("#rebuy-amount")).to_be_focused()  # the prompt puts the focus there
        out.page.keyboard.press("Control+A")  # by keyboard (Pia's phone has nothing else)
        out.page.keyboard.type("100")
        out.page.keyboard.press("Enter")
        expect(out.page.locator(".seat.me .stack")).to_contain_text("100")
        for player in (dev, pia):
            player.page.locator("#history-toggle").click()
        history = str(dev.page.locator("#hands").text_content()) + str(
            pia.page.locator("#hands").text_content()
        )
        assert "second board:" in history  # an all-in before the river was run twice
        pia.fits()

        # A hand won without a showdown: its players may show their cards; here the first who can does.
        quiet = {"host": by_mouse, "dev": by_mouse, "pia": by_keys}
        play_until(
            players, quiet, lambda: any(p.page.locator("#show-cards").is_visible() for p in (dev, pia))
        )
        shower = next(p for p in (dev, pia) if p.page.locator("#show-cards").is_visible())
        shower.page.locator("#show-cards").click()
        expect(watcher.page.locator("#chat-lines")).to_contain_text(f"{shower.name} shows")

        # Pause and resume; then new blinds from the next hand.
        host.page.click("#pause")
        expect(pia.page.locator("#status")).to_contain_text("paused by the host")
        host.page.click("#resume")
        expect(pia.page.locator("#status")).not_to_contain_text("paused")
        host.page.fill("#new-sb", "2")
        host.page.fill("#new-bb", "4")
        host.page.click("#blinds-form button")
        expect(host.page.locator("#next-blinds")).to_have_text("next hand: 2/4")
        play_until(players, quiet, lambda: "blinds 2/4" in pia.page.locator("#status").inner_text())

        # The host seats a bot, which plays its hands.
        host.page.select_option("#bot-kind", "calling-station")
        host.page.click("#bot-form button")
        expect(watcher.page.locator(".seat .name", has_text="calling-station bot")).to_have_count(1)
        play_until(
            players, quiet, lambda: "calling-station bot calls" in watcher.page.locator("#log").inner_text()
        )
        host.page.evaluate("window.scrollTo(0, 0)")
        host.page.screenshot(path=str(shots / "home-desktop.png"))
        pia.page.screenshot(path=str(shots / "home-phone.png"))

        # The host removes Pia: her chips go to the ledger, and her page watches.
        options = host.page.locator("#remove-seat option").all_inner_texts()
        host.page.select_option("#remove-seat", label=next(t for t in options if t.startswith("Pia")))
        host.page.click("#remove-form button")
        play_until(players, quiet, lambda: "watching" in pia.page.locator("#status").inner_text())
        expect(pia.page.locator("#seat-tools")).to_be_hidden()

        # The host ends the game: everyone is cashed out and the settle-up equals the stored ledger.
        host.page.click("#end-game")
        host.page.click("#end-game")
        cashed_out = lambda: all("watching" in p.page.locator("#status").inner_text() for p in (host, dev))  # noqa: E731
        play_until(players, {"host": by_mouse, "dev": by_mouse}, cashed_out)
        expect(watcher.page.locator("#status")).to_contain_text("the game has ended")
        status, ledger = server.http("GET", f"/api/tables/{table}/ledger", token=ADMIN)
        assert 200 == status and 0 == ledger["chips_on_table"]
        nets: dict[str, int] = {}
        shown = {
            "calling-station bot": f"{HOST_LINE}: calling-station bot"
        }  # the host's bot: the host's chips
        for row in ledger["ledger"]:
            name = shown.get(row["name"], row["name"])
            nets[name] = nets.get(name, 0) + row["chips"] * (1 if row["kind"] == "cash_out" else -1)
        for player in (host, dev, pia, watcher):
            expect(player.page.locator("#settle")).to_be_visible()
            expect(player.page.locator("#settle-rows tr")).to_have_count(len(nets))
            assert nets == settled_nets(player.page, nets)
        owed = dict(nets)
        for line in host.page.locator("#payments li").all_inner_texts():
            payer, payee, chips = re.fullmatch(r"(.+) pays (.+) (\d+)", line).groups()  # type: ignore[union-attr]
            assert "calling-station bot" not in (payer, payee)  # a bot is never paid, nor pays
            payer, payee = (shown["calling-station bot"] if p == HOST_LINE else p for p in (payer, payee))
            owed[payer] += int(chips)
            owed[payee] -= int(chips)
        assert set(owed.values()) == {0}
        host.page.evaluate("window.scrollTo(0, 0)")
        host.page.screenshot(path=str(shots / "settle-desktop.png"))
        pia.page.locator("#settle").scroll_into_view_if_needed()
        pia.page.screenshot(path=str(shots / "settle-phone.png"))
        pia.fits()
        watcher.fits()

        # Stored hands: Dev replays one step by step and downloads it as PHH and PokerStars text.
        hands = stored_hands(server, table)
        dev.page.locator("#history-toggle").click()
        dev.page.locator("#history-toggle").click()
        expect(dev.page.locator("#stored li").first).to_be_visible()
        first = dev.page.locator("#stored li").last  # the oldest
        first.locator("button", has_text="Replay").click()
        expect(dev.page.locator("#replay-title")).to_contain_text("step 1 of")
        dev.page.click("#replay-next")
        dev.page.click("#replay-next")
        expect(dev.page.locator("#replay-title")).to_contain_text("step 3 of")
        number = int(re.match(r"Hand (\d+)", first.inner_text())[1])  # type: ignore[index]
        for label in ("PHH", "PokerStars"):
            with dev.page.expect_download() as download:
                first.locator("button", has_text=label).click()
            text = Path(download.value.path()).read_text()
            own = hands[number]["holes"]["Dev"]
            others = {c for n, held in hands[number]["holes"].items() if n != "Dev" for c in held}
            cards = phh_cards(text) if label == "PHH" else bracketed(text)
            assert own <= cards and not (others - hands[number]["shown"]) & cards, label

        assert [] == [leak for player in (host, dev, pia, watcher) for leak in leaks(player, hands)]
        assert sum(len(p.frames) for p in (host, dev, pia, watcher)) > 100
    assert [] == errors
