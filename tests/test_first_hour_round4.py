"""What a user met in their first hour, round 4: documented defaults that failed, errors that did not
say why, a port already taken, an admin token an option parser misreads, plurals, prizes out of
order, and one rule for a call with nothing to call."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from holdem import Action, Hand, SeatView, Stakes
from holdem.cli import main
from holdem.errors import InvalidConfigError, install_hint
from holdem.match import MatchConfig, play_match
from holdem.report import format_table
from holdem.tournament.icm import icm
from holdem.tournament.structure import load_structure, structure

HOLDEM = [sys.executable, "-m", "holdem"]


def test_a_level_without_duration_lasts_ten_minutes_as_documented(tmp_path: Path) -> None:
    """TOML, JSON and plain data alike (it failed with "duration must be a positive number")."""
    (tmp_path / "s.toml").write_text("starting_stack = 1000\n[[levels]]\nsmall_blind = 10\nbig_blind = 20\n")
    (tmp_path / "s.json").write_text(
        json.dumps({"starting_stack": 1000, "levels": [{"small_blind": 10, "big_blind": 20}]})
    )
    for made in (load_structure(tmp_path / "s.toml"), load_structure(tmp_path / "s.json"),
                 structure("plain", 1000, [{"small_blind": 10, "big_blind": 20}])):  # fmt: skip
        assert [10.0] == [level.duration for level in made.levels]


def test_errors_say_why_a_holding_or_a_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert 2 == main(["equity", "AsXh", "KsKd"])
    assert "'Xh' is not a card" in capsys.readouterr().err
    assert 2 == main(["equity", "AsAh", "AsKd"])
    assert "As is in both AsAh and AsKd" in capsys.readouterr().err
    assert 2 == main(["acpc", "dealer", "m1", "no-such.game", "10", "1", "a", "b"])
    assert "holdem.nolimit.2p.reverse_blinds.game" in capsys.readouterr().err  # the shipped ones listed


def test_prizes_that_pay_a_lower_place_more_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InvalidConfigError, match="place 2 pays 50, more than place 1's 30"):
        icm([100, 200], [30, 50])
    assert 2 == main(["icm", "--stacks", "100,200", "--prizes", "30,50"])
    assert "place 2 pays 50" in capsys.readouterr().err


def test_one_of_a_thing_is_singular() -> None:
    result = play_match(MatchConfig(("calling-station", "calling-station"), seed=1), 1)
    assert format_table(result).startswith("1 hand (plain)")


class AlwaysCalls:
    """Calls whatever it faces, nothing included."""

    def act(self, view: SeatView) -> Action:
        return Action.call()


def test_a_call_with_nothing_to_call_is_a_check_for_bots_as_for_people() -> None:
    """A bot that calls when checking is free is not at fault: the call is taken as a check, as `c`
    is in `holdem play` and a call message at a served table."""
    result = play_match(MatchConfig((AlwaysCalls, AlwaysCalls), seed=3), 50)
    assert [0, 0] == [bot.faults for bot in result.bots]
    hand = Hand.start([50, 50], Stakes(1, 2))
    hand.act(Action.call())
    hand.act(Action.call())  # the big blind's option: a check
    assert Action.check() == hand.history[-1][1]


def test_seat_view_is_importable_from_the_package() -> None:
    import holdem

    assert holdem.SeatView is SeatView and "SeatView" in holdem.__all__


def test_the_missing_extra_hint_says_both_installs() -> None:
    assert "pip install 'holdem-engine[plot]'" in install_hint("plot")
    assert "pip install '.[plot]'" in install_hint("plot")


def test_a_generated_admin_token_never_begins_with_a_dash() -> None:
    """One token in 64 would: an option parser then reads `--admin-token -x…` as an option."""
    pytest.importorskip("uvicorn", reason="the server extra is not installed")
    from holdem.server.commands import admin_token

    tokens = [admin_token() for _ in range(3000)]
    assert not [t for t in tokens if t.startswith("-")]
    assert len(set(tokens)) == 3000 and all(len(t) == 43 for t in tokens)


def test_serve_on_a_port_already_taken_says_so_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn", reason="the server extra is not installed")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*HOLDEM, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'h.db'}"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert 2 == done.returncode
    assert [f"holdem serve: error: port {port} is taken: another program listens on 127.0.0.1:{port}"] == (
        done.stderr.strip().splitlines()
    )
    assert "serving" not in done.stdout and "http://" not in done.stdout


def test_the_pages_have_their_icon_and_readable_links(tmp_path: Path) -> None:
    """Every page asked for /favicon.ico, a 404 in each console: they name a shipped icon now; the
    lobby's links are light on the dark felt (they were dark blue on dark green)."""
    pytest.importorskip("uvicorn", reason="the server extra is not installed")
    import urllib.request

    from tests.server_support import ThreadServer

    with ThreadServer(f"sqlite:///{tmp_path / 'h.db'}") as server:
        for page in ("/", "/tournament?id=x"):
            with urllib.request.urlopen(server.base + page, timeout=10) as answer:
                assert '<link rel="icon" href="/static/favicon.svg"' in answer.read().decode()
        with urllib.request.urlopen(server.base + "/static/favicon.svg", timeout=10) as answer:
            assert answer.headers["content-type"].startswith("image/svg+xml")
        with urllib.request.urlopen(server.base + "/static/table.css", timeout=10) as answer:
            assert "a { color: #fde68a; }" in answer.read().decode()
