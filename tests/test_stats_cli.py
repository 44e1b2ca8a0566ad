"""``holdem stats`` at the command line: the shipped Pluribus hands, a match's history, JSON, the
bar, the plot, and bad input named and skipped."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from holdem.cli import main
from holdem.formats import phh
from holdem.formats.pokerstars.write import write_hand
from tests.test_cli_messages import under_a_terminal

PLURIBUS = Path(__file__).parent / "data" / "pluribus.tar.xz"


def stats_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert 0 == main(["stats", *args, "--json"])
    return dict(json.loads(capsys.readouterr().out))


def test_the_pluribus_hands_read_from_their_archive(capsys: pytest.CaptureFixture[str]) -> None:
    """All 2,502 hands counted; Pluribus played every one, VPIP and PFR as counted by hand below."""
    out = stats_json(capsys, str(PLURIBUS), "--player", "Pluribus")
    (row,) = out["players"]  # type: ignore[misc]
    assert (out["hands"], row["hands"], row["walks"]) == (2502, 2502, 46)
    assert (row["vpip"]["done"], row["vpip"]["chances"], row["pfr"]["done"]) == (655, 2456, 423)


def test_the_fold_to_a_river_bet_equals_an_independent_count_on_the_pluribus_hands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Counted again here from the PHH action lines alone: after the third board deal, the first
    ``cbr`` is the river bet; each other player's action up to the first raise of it faces it."""
    chances: dict[str, int] = {}
    folds: dict[str, int] = {}
    with tarfile.open(PLURIBUS) as archive:
        for member in archive.getmembers():
            handle = archive.extractfile(member)
            if handle is None or not member.name.endswith(".phh"):
                continue
            (doc,) = phh.loads(handle.read().decode())
            deals, bettor = 0, None
            for line in doc["actions"]:
                words = line.split(" ")
                if words[:2] == ["d", "db"]:
                    deals += 1
                elif deals == 3 and words[0].startswith("p") and words[1] != "sm":
                    name = doc["players"][int(words[0][1:]) - 1]
                    if bettor is not None and name != bettor:  # facing it: folds, calls or raises
                        chances[name] = chances.get(name, 0) + 1
                        folds[name] = folds.get(name, 0) + (words[1] == "f")
                    if words[1] == "cbr" and bettor is not None:
                        break  # raised: no more river-bet chances
                    if words[1] == "cbr":
                        bettor = name
    out = stats_json(capsys, str(PLURIBUS))
    counted = {row["player"]: (row["fold_to_river_bet"]["done"], row["fold_to_river_bet"]["chances"])
               for row in out["players"]}  # type: ignore[attr-defined]  # fmt: skip
    assert counted == {name: (folds.get(name, 0), chances.get(name, 0)) for name in counted}
    assert sum(chances.values()) == 487  # the count is not empty: 487 chances, 13 players


def test_the_table_fits_80_columns_and_names_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """The readable table: two parts, each line within 80 columns, and the hands counted."""
    assert 0 == main(["stats", str(PLURIBUS), "--min-hands", "1000"])
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert out.splitlines()[0].split() == [
        "player",
        "hands",
        "VPIP",
        "PFR",
        "3B",
        "F3B",
        "4B",
        "Steal",
        "FSt",
        "bb/100",
    ]
    assert "Pluribus" in out and "Gogo" not in out  # 488 hands: under --min-hands
    assert out.rstrip().endswith("2,502 hands: 2,502 counted, 0 skipped")


def test_a_match_history_and_its_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A heads-up match's history, by position: each player's positions add up to their hands."""
    assert 0 == main(["match", "calling-station", "random", "--hands", "200", "--seed", "4", "--history",
                      str(tmp_path), "--json"])  # fmt: skip
    capsys.readouterr()
    out = stats_json(capsys, str(tmp_path / "match.phhs"), "--by", "position")
    rows = out["players"]
    assert ["calling-station", "BB", "BTN", "random", "BB", "BTN"] == [
        r["position"] or r["player"] for r in rows
    ]  # type: ignore[union-attr]
    assert rows[0]["hands"] == rows[1]["hands"] + rows[2]["hands"] == 200  # type: ignore[index]
    assert rows[0]["pfr"]["done"] == 0  # a calling station never raises  # type: ignore[index]


def test_the_same_hands_as_pokerstars_text_count_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A session of Pluribus hands written as PokerStars text and read back: the same numbers."""
    with tarfile.open(PLURIBUS) as opened:
        texts = [opened.extractfile(m).read().decode() for m in opened if m.isfile() and "/30/" in m.name]  # type: ignore[union-attr]
    docs = [phh.loads(text)[0] for text in texts]
    (tmp_path / "ps").mkdir()
    (tmp_path / "30.phhs").write_text(phh.dumps(docs))
    (tmp_path / "ps" / "30.txt").write_text("\n\n".join(write_hand(doc, k + 1) for k, doc in enumerate(docs)))
    from_phh = stats_json(capsys, str(tmp_path / "30.phhs"))
    from_text = stats_json(capsys, str(tmp_path / "ps"))
    assert from_phh["players"] == from_text["players"] and from_phh["hands"] == len(docs) > 50


def test_a_broken_hand_is_named_and_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One .phhs table that does not read and one with an unknown action: both named with their
    reason on standard error, the rest counted, exit status 1, no traceback."""
    good = {"variant": "NT", "antes": [0, 0], "blinds_or_straddles": [1, 2], "min_bet": 2,
            "starting_stacks": [100, 100], "actions": ["d dh p1 AsKs", "d dh p2 QhQd", "p2 f"],
            "finishing_stacks": [101, 99], "players": ["ann", "bob"]}  # fmt: skip
    text = phh.dumps([good, good | {"actions": ["p2 xx"]}, good])
    (tmp_path / "h.phhs").write_text(text + "\n[4]\nvariant = \n")
    assert 1 == main(["stats", str(tmp_path / "h.phhs")])
    captured = capsys.readouterr()
    assert "h.phhs#2: skipped: action 'p2 xx': not a hold'em action" in captured.err
    assert "h.phhs#4: skipped: not valid TOML" in captured.err
    assert "Traceback" not in captured.err
    assert "4 hands: 2 counted, 2 skipped" in captured.out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere"], "no such file or folder: 'nowhere'"),
        ([str(PLURIBUS), "--player", "pluribus"], "no player 'pluribus' in these hands"),
        ([str(PLURIBUS), "--plot", "out.pdf"], "the plot is saved as PNG"),
        ([str(PLURIBUS), "--by", "seat"], "invalid choice: 'seat'"),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(["stats", *args])
    except SystemExit as stop:  # refused by the argument parser
        status = int(stop.code or 0)
    assert 2 == status
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_plot_is_saved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib (the plot extra)")
    target = tmp_path / "won.png"
    assert 0 == main(["stats", str(PLURIBUS), "--player", "Pluribus", "--plot", str(target)])
    err = capsys.readouterr().err
    assert (
        target.stat().st_size > 10_000 and f"plot of Pluribus (most hands first) saved to {target}\n" in err
    )


def test_the_plot_names_the_players_it_draws_and_how_to_choose_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It drew the six players with most hands and said only "plot saved" (issue 62, item 5)."""
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib (the plot extra)")
    target = tmp_path / "won.png"
    main(["stats", str(PLURIBUS), "--plot", str(target)])
    said = capsys.readouterr().err.splitlines()[-1]
    drawn = said.removeprefix("plot of ").split(" (most hands first)")[0].split(", ")
    assert 6 == len(drawn) and "Pluribus" in drawn
    assert said.endswith("more not drawn: choose players with --player")


def test_a_bar_is_drawn_at_a_terminal(tmp_path: Path) -> None:
    """At a terminal, the bytes read go by on a bar; piped (the output), the table alone."""
    status, out, shown = under_a_terminal(["stats", str(PLURIBUS)])
    assert 0 == status and "MB" in shown and "|" in shown
    assert out.startswith("player")


def test_a_large_history_moves_the_bar_as_it_is_read(tmp_path: Path) -> None:
    """A .phhs file of several chunks reports its progress chunk by chunk, not only at its end."""
    from holdem.stats.sources import documents

    hand = {"variant": "NT", "antes": [0, 0], "blinds_or_straddles": [1, 2], "min_bet": 2,
            "starting_stacks": [100, 100], "actions": ["d dh p1 AsKs", "d dh p2 QhQd", "p2 f"],
            "finishing_stacks": [101, 99]}  # fmt: skip
    path = tmp_path / "big.phhs"
    path.write_text(phh.dumps([hand] * 12_000))  # about 3 MB
    seen: list[tuple[int, int]] = []
    assert 12_000 == sum(
        1 for _ in documents([path], progress=lambda done, total: seen.append((done, total)))
    )
    size = path.stat().st_size
    assert seen[0] == (0, size) and seen[-1] == (size, size) and len(seen) > 3
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_ctrl_c_prints_what_was_counted_and_says_so(tmp_path: Path) -> None:
    """Stopped while it reads a large history, it prints the numbers of the hands counted so far,
    says it was interrupted after how many, exits 130 and leaves no process behind."""
    from tests.test_first_hour import interrupt

    hand = {"variant": "NT", "antes": [0, 0], "blinds_or_straddles": [1, 2], "min_bet": 2,
            "starting_stacks": [100, 100], "actions": ["d dh p1 AsKs", "d dh p2 QhQd", "p2 cbr 6", "p1 f"],
            "finishing_stacks": [98, 102], "players": ["ann", "bob"]}  # fmt: skip
    (tmp_path / "big.phhs").write_text(phh.dumps([hand] * 200_000))
    done = interrupt(["stats", str(tmp_path / "big.phhs")], ready=r"[1-9][0-9]*/[0-9]+ MB")  # some read
    assert 130 == done.returncode, done.stderr
    assert "holdem stats: interrupted after" in done.stderr and "Traceback" not in done.stderr
    first = done.stdout.splitlines()
    assert first[0].split()[:3] == ["player", "hands", "VPIP"] and "counted, 0 skipped" in done.stdout


def test_a_matchs_report_and_holdem_stats_agree_on_vpip_pfr_and_af(tmp_path: Path) -> None:
    """The same match: its report said VPIP 72% for a maniac and AF 3.8, `holdem stats` on its
    history 85.1 and 1.71 (the match counted walks as chances and preflop raises as aggression);
    one definition now (issue 62 item 3, issue 60 item 2)."""
    from holdem.bots.match import MatchConfig, play_match
    from holdem.formats import phh
    from holdem.stats import Collection

    docs: list[dict[str, object]] = []
    config = MatchConfig(("tight-aggressive", "maniac", "rock"), seed=3)
    result = play_match(config, hands=600, history=docs.append)
    collection = Collection()
    for doc in docs:
        assert collection.add_document(phh.loads(phh.dumps(doc))[0], "match")
    stats = {row.player: row for row in collection.players()}
    for bot in result.bots:
        row = stats[bot.name]
        assert bot.vpip == pytest.approx(row.rates["vpip"].done / row.rates["vpip"].chances)
        assert bot.pfr == pytest.approx(row.rates["pfr"].done / row.rates["pfr"].chances)
        assert bot.aggression == pytest.approx(row.aggression_factor)


def test_the_plot_takes_each_players_hands_in_the_order_they_were_played() -> None:
    """Its x-axis was file order: a database read folder by folder drew last month after this one.
    Hands that all have a date go by it (in UTC where the history names its zone); where any has
    none, they stay as read."""
    from holdem.stats.collect import Results, _when

    late = _when({"year": 2024, "month": 3, "day": 2, "time": "1:00:00", "time_zone": "Europe/Paris"})
    early = _when({"year": 2024, "month": 3, "day": 1, "time": "20:00:00", "time_zone": "America/New_York"})
    assert early is not None and late is not None and late < early  # 00:00 UTC on the 2nd, before 01:00
    dated = Results(when=[early, late, early])
    assert [1, 0, 2] == dated.in_order()
    assert [0, 1, 2] == Results(when=[early, None, late]).in_order()
    assert None is _when({"month": 3}) and None is _when({"year": 2024, "month": 13, "day": 1})


def test_stats_by_bot_add_up_the_entrants_of_a_tournament_that_play_each_bot(tmp_path: Path) -> None:
    """Tournament histories name entrants e1…e9 with no link to their bot, so a series could not be
    reported per bot (issue 62, item 5). Each hand now records its players' bots (``_bots``), and
    ``holdem stats --by bot`` gives one row per bot: the sum of its entrants' rows."""
    from holdem.stats import Collection
    from holdem.tournament.history import run_history
    from holdem.tournament.run import TournamentConfig
    from holdem.tournament.structure import load_structure

    bots = ("tight-aggressive", "calling-station", "random")
    config = TournamentConfig(bots, 9, load_structure("hyper"), table_size=9, seed=4)
    _, text = run_history(config, 0)
    docs = phh.loads(text, many=True)
    assert all(len(doc["_bots"]) == len(doc["players"]) for doc in docs)
    by_name, by_bot = Collection(), Collection(by_bot=True)
    for doc in docs:
        assert by_name.add_document(doc) and by_bot.add_document(doc)
    names = {row.player: row for row in by_name.players()}
    rows = {row.player: row for row in by_bot.players()}
    assert set(rows) == set(bots)
    for k, bot in enumerate(bots):  # entrant i plays bots[i mod 3]
        entrants = [names[f"e{i + 1}"] for i in range(9) if i % 3 == k and f"e{i + 1}" in names]
        assert rows[bot].hands == sum(row.hands for row in entrants)
        assert rows[bot].rates["vpip"].done == sum(row.rates["vpip"].done for row in entrants)
    (tmp_path / "run.phhs").write_text(text, encoding="utf-8")
    assert 0 == main(["stats", str(tmp_path / "run.phhs"), "--by", "bot"])


def test_by_raiser_prints_the_positional_three_bet_and_fold_to_steal_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """On the Pluribus hands: a line per player and statistic, a column per raiser's position, and in
    JSON the same rates, adding up to the player's whole 3-bet and fold to a steal."""
    assert 0 == main(["stats", str(PLURIBUS), "--by", "raiser", "--player", "Pluribus"])
    out = capsys.readouterr().out
    table = out.split("3-bet by the opener's position, fold to a steal by the stealer's:\n")[1].splitlines()
    assert table[0].split() == ["player", "v", "UTG", "v", "HJ", "v", "CO", "v", "BTN", "v", "SB", "v", "BB"]
    assert table[1].startswith("Pluribus 3B") and table[2].startswith("Pluribus FSt")
    (row,) = stats_json(capsys, str(PLURIBUS), "--player", "Pluribus")["players"]  # type: ignore[misc]
    for key in ("three_bet", "fold_to_steal"):
        by = row["versus"][key].values()
        assert sum(r["chances"] for r in by) == row[key]["chances"] > 0
        assert sum(r["done"] for r in by) == row[key]["done"]


def test_by_repeats_for_positions_and_raisers_together(capsys: pytest.CaptureFixture[str]) -> None:
    """`--by` took one value: the positional rows and the raisers' table could not be read together."""
    assert 0 == main(["stats", str(PLURIBUS), "--player", "Pluribus", "--by", "position", "--by", "raiser"])
    out = capsys.readouterr().out
    assert "  BTN" in out and "Pluribus 3B" in out
