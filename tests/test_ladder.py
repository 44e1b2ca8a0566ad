"""`holdem ladder`: each cell is exactly the duplicate match it summarises, the ranking follows the
cells, and the command prints, writes JSON and a heat map, and refuses bad input in one line."""

import json
from pathlib import Path

import pytest

from holdem.bots.ladder import Ladder, format_ladder, ladder_dict, play_ladder
from holdem.bots.match import BotResult, MatchConfig, MatchResult, play_match
from holdem.cli import main
from holdem.hand.stakes import Stakes

BOTS = ["equity[samples=50]", "rock", "calling-station"]


def test_each_cell_of_the_ladder_is_the_duplicate_match_it_summarises() -> None:
    ladder = play_ladder(BOTS, 300, stack=100, seed=5)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        alone = play_match(MatchConfig((BOTS[i], BOTS[j]), stack=100, seed=5, duplicate=True), 300)
        assert alone == ladder.matches[(i, j)]
        assert ladder.score(i, j) == (alone.bots[0].bb_per_100, *alone.bots[0].ci95)
        assert ladder.score(j, i) == (alone.bots[1].bb_per_100, *alone.bots[1].ci95)
    assert ladder.hands == 300 and not ladder.interrupted


def test_the_ladder_is_the_same_on_worker_processes_and_on_dask() -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    here = play_ladder(BOTS[1:], 200, seed=2)
    assert here.matches == play_ladder(BOTS[1:], 200, seed=2, workers=2).matches
    assert here.matches == play_ladder(BOTS[1:], 200, seed=2, workers=2, dask="local").matches


def result(first: str, second: str, bb_per_100: float) -> MatchResult:
    """A made-up heads-up result: `first` wins `bb_per_100`, with an interval of +-10."""

    def bot(name: str, bb: float) -> BotResult:
        return BotResult(name, 100, int(bb), bb, (bb - 10, bb + 10), 0.5, 0.2, 1.0, 0, 100, 0.0)

    return MatchResult((bot(first, bb_per_100), bot(second, -bb_per_100)), 100, 50, True, (), ())


def test_the_ranking_is_an_instant_runoff_not_the_mean_against_the_field() -> None:
    """The bully crushes the fish but loses to the shark and to the rock: the highest mean against
    the field, yet the fish goes out first, and then the bully has the lowest mean."""
    names = ("bully", "shark", "rock", "fish")
    matches = {
        (0, 1): result("bully", "shark", -50), (0, 2): result("bully", "rock", -30),
        (0, 3): result("bully", "fish", 900), (1, 2): result("shark", "rock", 20),
        (1, 3): result("shark", "fish", 100), (2, 3): result("rock", "fish", 50),
    }  # fmt: skip
    ladder = Ladder(names, matches, 100)
    assert max(range(4), key=ladder.field_mean) == 0
    assert ["shark", "rock", "bully", "fish"] == [names[i] for i in ladder.ranking()]
    text = format_ladder(ladder, seed=1, stack=200, blinds=(1, 2))
    assert " 1. shark" in text and "beats rock (+20 [+10, +30])" in text
    assert "rock" in text.split(" 2. ")[1] and "beats bully (+30 [+20, +40])" in text


def test_the_ranking_of_a_played_ladder_says_who_beats_the_next() -> None:
    ladder = play_ladder(BOTS, 400, seed=1)
    order = ladder.ranking()
    means = [ladder.field_mean(i) for i in range(3)]
    assert sorted(order) == [0, 1, 2] and means[order[-1]] == min(means)
    text = format_ladder(ladder, seed=1, stack=200, blinds=(1, 2))
    first, second = ladder.names[order[0]], ladder.names[order[1]]
    verdict = "beats" if ladder.beats(order[0], order[1]) else "not separated from"
    assert f" 1. {first}" in text and f"{verdict} {second}" in text
    data = ladder_dict(ladder, seed=1, stack=200, blinds=(1, 2))
    assert [r["bot"] for r in data["ranking"]] == [ladder.names[i] for i in order]
    assert len(data["pairs"]) == 6 and all(p["hands"] == 400 for p in data["pairs"])


def test_the_ladder_command_prints_json_and_a_heat_map(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib", reason="the plot extra is not installed")
    png = tmp_path / "ladder.png"
    args = ["ladder", "rock", "calling-station", "--hands", "100", "--seed", "3", "--blinds", "1/2"]
    assert 0 == main([*args, "--plot", str(png)])
    out = capsys.readouterr().out
    assert "ladder of 2 bots: 100 duplicate hands a pair, blinds 1/2, stacks 200, seed 3" in out
    assert f"heat map saved to {png}" in out and png.read_bytes()[:4] == b"\x89PNG"
    assert 0 == main([*args, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 3 and {p["bot"] for p in data["pairs"]} == {"rock", "calling-station"}
    again = play_ladder(["rock", "calling-station"], 100, stakes=Stakes(1, 2), seed=3)
    assert data["pairs"][0]["bb_per_100"] == again.score(0, 1)[0]  # type: ignore[index]


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (["rock"], "a ladder needs at least 2 bots, got 1"),
        (["rock", "rock"], "a ladder plays each bot once; 'rock' is named twice"),
        (["rock", "shark"], "unknown bot 'shark'"),
    ],
)
def test_a_bad_ladder_is_one_clear_line(
    bots: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert 2 == main(["ladder", *bots, "--hands", "10"])
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_an_interrupted_ladder_says_not_played_where_a_pair_never_played_never_nan() -> None:
    """Issue 63, item 5: bots that never played had `nan` as their mean, and their cells the same "-"
    as the diagonal."""
    import json

    from holdem.bots.ladder import ladder_dict

    names = ("shark", "rock", "fish")
    ladder = Ladder(names, {(0, 1): result("shark", "rock", 20)}, 100, interrupted=True)
    text = format_ladder(ladder, seed=1, stack=200, blinds=(1, 2))
    assert "nan" not in text and "n/p" in text and "(n/p: not played" in text
    (fish,) = [line for line in text.splitlines() if line.startswith(" 3. ")]
    assert "fish" in fish and fish.endswith("not played")  # its mean
    ranking = ladder_dict(ladder, seed=1, stack=200, blinds=(1, 2))["ranking"]
    assert {"bot": "fish", "mean_bb_per_100": None} in ranking
    json.dumps(ranking, allow_nan=False)  # strict JSON


def test_a_gauntlet_plays_each_bot_against_each_opponent_alone_and_ranks_by_the_mean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--against`: each of the bots meets each opponent in exactly their duplicate match, never the
    other bots nor the opponents each other; the table shows every interval."""
    gauntlet = play_ladder(["rock", "random"], 200, seed=4, against=["calling-station", "folder"])
    assert set(gauntlet.matches) == {(0, 2), (0, 3), (1, 2), (1, 3)}
    alone = play_match(MatchConfig(("random", "folder"), seed=4, duplicate=True), 200)
    assert alone == gauntlet.matches[(1, 3)]
    means = [gauntlet.field_mean(i, [2, 3]) for i in (0, 1)]
    assert gauntlet.ranking() == sorted((0, 1), key=lambda i: -means[i])
    assert 0 == main(["ladder", "rock", "random", "--against", "calling-station", "folder",
                      "--hands", "200", "--seed", "4"])  # fmt: skip
    out = capsys.readouterr().out
    assert "gauntlet of 2 bots against 2: 200 duplicate hands a pair" in out
    low, high = alone.bots[0].ci95
    assert f"{alone.bots[0].bb_per_100:+.0f} [{low:+.0f}, {high:+.0f}]" in out
    assert 0 == main(["ladder", "rock", "--against", "folder", "--hands", "20", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["against"] == ["folder"] and [p["bot"] for p in data["ranking"]] == ["rock"]
