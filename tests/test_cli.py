"""The command line: eval and equity."""

import json
import subprocess
import sys

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
