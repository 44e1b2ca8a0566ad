"""The command line: eval and equity."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from holdem.cli import main


def test_eval_prints_best_five_and_name(capsys: pytest.CaptureFixture[str]) -> None:
    """holdem eval prints the best five and the hand's description."""
    assert 0 == main(["eval", "As", "Kd", "Qh", "Jc", "Ts", "2d", "3c"])
    assert "As Kd Qh Jc Ts  Straight, Ace high\n" == capsys.readouterr().out


def test_equity_json(capsys: pytest.CaptureFixture[str]) -> None:
    """holdem equity --json prints machine-readable results."""
    assert 0 == main(["equity", "AsAh", "KsKh", "--board", "7d5h9d", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert ("exact", 990) == (out["method"], out["deals"])


def test_bad_input_is_one_line_and_nonzero(capsys: pytest.CaptureFixture[str]) -> None:
    """A bad card is one clear line on stderr and exit status 2, no traceback."""
    assert 2 == main(["eval", "As", "Xx", "Qh", "Jc", "Ts"])
    err = capsys.readouterr().err
    assert "holdem eval: error: invalid card 'Xx'" in err
    assert "Traceback" not in err


def test_python_dash_m_runs() -> None:
    """python -m holdem is the same command."""
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "eval", "AsKsQsJsTs"], capture_output=True, text=True
    )
    assert (0, "As Ks Qs Js Ts  Royal Flush\n") == (done.returncode, done.stdout)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["match", "nosuch", "random"], "unknown bot 'nosuch'"),
        (["match", "random"], "a match needs 2 to 10 bots"),
        (["match", "random", "random", "--plot", "/no/such/folder/x.png"], "--plot: no folder"),
        (["replay", "/no/such/file.phh"], "no such file or folder"),
        (["play", "--bots", "nosuch"], "unknown bot 'nosuch'"),
    ],
)
def test_command_errors_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unknown bots, bad options and missing files: one line on stderr, exit status 2, no traceback."""
    assert 2 == main(argv)
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and 1 == len(err.strip().splitlines())


def test_history_must_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--history naming a file is refused before any hand is played."""
    target = tmp_path / "file"
    target.write_text("")
    assert 2 == main(["match", "random", "random", "--history", str(target)])
    assert "is a file, not a folder" in capsys.readouterr().err


def test_match_json_and_history(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """holdem match --json reports every bot; --history writes replayable hands; --plot a PNG."""
    assert 0 == main(["match", "equity[samples=30]", "random", "--hands", "12", "--seed", "3", "--json",
                      "--history", str(tmp_path), "--plot", str(tmp_path / "w.png")])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert (12, ["equity[samples=30]", "random"]) == (out["hands"], [b["name"] for b in out["bots"]])
    assert 0 == sum(b["chips"] for b in out["bots"])
    assert (tmp_path / "w.png").read_bytes().startswith(b"\x89PNG")
    assert 0 == main(["replay", str(tmp_path / "match.phhs")])
