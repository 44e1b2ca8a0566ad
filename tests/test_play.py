"""holdem play: a person against bots, driven here by a pipe of inputs, bad ones included."""

import io
import subprocess
import sys

from holdem.cli import main
from holdem.cli.play import play


def run(inputs: str, bots: tuple[str, ...] = ("calling-station",), seed: int = 1) -> str:
    out = io.StringIO()
    assert 0 == play(io.StringIO(inputs), out, list(bots), seed=seed)
    return out.getvalue()


def test_play_shows_the_table_and_quits() -> None:
    """The display shows stacks, pot, board, own cards and whose turn; q quits."""
    out = run("q\n")
    assert "=== Hand 1" in out and "Pot:" in out and "→" in out and "your action" in out
    assert "Bye.\nSession: 0 hands played; you started with 200 and have 200 (+0, +0.0 big blinds)\n" in out


def test_bad_input_gets_a_reason_and_a_new_prompt() -> None:
    """Unknown commands, missing amounts and illegal raises are explained, not fatal."""
    out = run("hello\nr\nr 1\n?\nq\n")
    assert "unknown command 'hello'" in out
    assert "'r' needs an amount" in out
    assert "not allowed: raise to 1 is below the minimum" in out
    assert "commands: f = fold" in out
    assert out.count("your action") == 5


def test_a_hand_is_played_to_the_end() -> None:
    """Calling down against a calling station reaches a showdown and the next hand starts."""
    out = run("c\n" * 12 + "q\n")
    assert "River:" in out and "shows" in out and "wins" in out and "=== Hand 2" in out


def test_the_showdown_names_each_hand_and_your_own_cards_are_shown_again() -> None:
    """At showdown each hand shown is named ("shows Js 8c — One Pair, Eights"); a player who did not
    show sees their own cards again; q ends with a summary of the session."""
    out = run("c\n" * 12 + "q\n")
    shown = [line for line in out.splitlines() if " shows " in line or line.startswith("you show ")]
    assert shown and all(" — " in line for line in shown), shown
    folded = run("f\n" * 3 + "q\n")
    assert "you had " in folded
    assert "Session: 3 hands played; you started with 200 and have 196 (-4, -2.0 big blinds)" in folded


def test_end_of_input_ends_the_game_cleanly() -> None:
    """Running out of input is a clean exit, not a traceback."""
    assert (
        run("")
        .rstrip()
        .endswith("Bye.\nSession: 0 hands played; you started with 200 and have 200 (+0, +0.0 big blinds)")
    )


def test_all_in_and_folding_against_several_bots() -> None:
    """'a' goes all-in; play continues against several bots until the input ends."""
    out = run("a\nf\nf\nf\nf\n", bots=("random", "equity[samples=30]"), seed=3)
    assert "raises to" in out or "calls" in out
    assert "Traceback" not in out


def test_play_from_a_pipe_end_to_end() -> None:
    """The real command reads a pipe of commands."""
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "play", "--bots", "calling-station", "--seed", "2"],
        input="x\nc\nk\nk\nk\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (0, "") == (done.returncode, done.stderr)
    assert "unknown command 'x'" in done.stdout and "Bye." in done.stdout


def test_play_rejects_a_bad_bot_in_one_line(capsys: object) -> None:
    """An unknown bot is one clear line and exit status 2."""
    assert 2 == main(["play", "--bots", "nosuch"])


def test_a_bot_file_in_the_current_folder_loads_from_the_command_line(tmp_path: object) -> None:
    """holdem match mybot:MyBot works from the folder holding mybot.py (the README's promise)."""
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "mybot.py").write_text(
        "from holdem import Action\n"
        "class MyBot:\n"
        "    def act(self, view):\n"
        "        return Action.check() if view.legal.can_check else Action.call()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from holdem.cli import main; sys.exit(main())",
         "match", "mybot:MyBot", "folder", "--hands", "20", "--json"],
        capture_output=True, text=True, cwd=folder, timeout=60,
    )  # fmt: skip
    assert (0, "") == (done.returncode, done.stderr)
    assert '"name": "mybot:MyBot"' in done.stdout
