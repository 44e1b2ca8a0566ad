"""What a new user hit in round 6 (issue 63, item 5), each as they met it."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from holdem.bots import load_bot
from holdem.errors import BotLoadError


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("equty", "unknown bot 'equty' (did you mean 'equity'?)"),
        ("holdem.bots.styles:Rok", "has no 'Rok' (did you mean 'Rock'?)"),
        (
            "holdem.learn:PolicyBot",
            "bot 'holdem.learn:PolicyBot' needs path: e.g. 'holdem.learn:PolicyBot[path=...]'",
        ),
    ],
)
def test_a_mistyped_or_incomplete_bot_is_one_line_that_says_what_was_meant(spec: str, said: str) -> None:
    with pytest.raises(BotLoadError) as error:
        load_bot(spec)
    assert said in str(error.value) and "\n" not in str(error.value)


def test_a_name_far_from_every_bot_gets_no_guess() -> None:
    with pytest.raises(BotLoadError) as error:
        load_bot("zzzzzz")
    assert "did you mean" not in str(error.value)


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"seconds": -1}, "seconds must be above 0, got -1"),
        ({"seconds": math.nan}, "seconds must be above 0, got nan"),
        ({"hands": -5}, "hands must be a whole number from 1 up, got -5"),
        ({"hands": 2.5}, "hands must be a whole number from 1 up, got 2.5"),
    ],
)
def test_training_for_no_time_or_no_hands_is_refused_not_silently_untrained(
    settings: dict[str, float], said: str
) -> None:
    """`train(seconds=-1)` returned an untrained policy and said nothing."""
    from holdem.learn import train

    with pytest.raises(ValueError, match=said):
        train(**settings)  # type: ignore[arg-type]


def test_stats_on_a_file_that_is_no_hand_history_says_so_in_one_line_and_prints_no_empty_tables(
    tmp_path: Path,
) -> None:
    """`holdem stats junk.txt` said "not valid TOML", printed two empty tables and "1 hand: 0 counted"."""
    junk = tmp_path / "junk.txt"
    junk.write_text("junk\n")
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "stats", str(junk)], capture_output=True, text=True, timeout=60
    )
    assert 2 == done.returncode and "" == done.stdout
    lines = done.stderr.strip().splitlines()
    assert 2 == len(lines)
    assert "junk.txt: skipped: not a hand history (neither PokerStars text nor PHH" in lines[0]
    assert "holdem stats: error: no hand counted in" in lines[1]


def test_stats_reads_hands_through_a_pipe_and_names_an_empty_file(tmp_path: Path) -> None:
    """`holdem stats <(zcat hands.txt.gz)` said "no such file or folder: '/dev/fd/63'" (a pipe is no
    regular file), and an empty file "missing required field 'variant'"."""
    sample = Path(__file__).parent / "data" / "pokerstars" / "posts.txt"
    piped = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m holdem stats <(cat "{sample}")'],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert 0 == piped.returncode, piped.stderr
    assert "3 hands: 3 counted, 0 skipped" in piped.stdout
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "stats", str(empty)], capture_output=True, text=True, timeout=60
    )
    assert 2 == done.returncode and "empty.txt: skipped: the file is empty" in done.stderr
