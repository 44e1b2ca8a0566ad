"""A showdown a player wins against a muck nobody sees (issue 62): counted by `holdem stats`, with and
without ``--check``, converted to PHH and back, and settled from the text's collected amounts, which
must share the pots less the rake. In a player's own database these are exactly the showdowns they
win against a muck: dropping them biased W$SD, WTSD and bb/100 down."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from holdem.errors import InvalidHistoryError
from holdem.formats import phh
from holdem.formats.pokerstars import read_hands, write_hand
from holdem.stats import Collection
from holdem.stats.report import PlayerStats, Rate

HEADER = "PokerStars Home Game Hand #201234567890: {{Friday Night Felt}} Hold'em No Limit (5/10)"
HAND = (
    HEADER
    + """ - 2022/02/04 22:14:09 ET
Table 'Friday Night Felt 1' 6-max Seat #2 is the button
Seat 1: ozzie (1000 in chips)
Seat 2: marta.k (1130 in chips)
Seat 4: Big Jim (870 in chips)
Big Jim: posts small blind 5
ozzie: posts big blind 10
*** HOLE CARDS ***
Dealt to {hero} {hero_cards}
marta.k: raises 20 to 30
Big Jim: calls 25
ozzie: folds
*** FLOP *** [Ah 9c 9d]
Big Jim: checks
marta.k: bets 40
Big Jim: calls 40
*** TURN *** [Ah 9c 9d] [2s]
Big Jim: checks
marta.k: checks
*** RIVER *** [Ah 9c 9d 2s] [Th]
Big Jim: bets 100
marta.k: calls 100
*** SHOW DOWN ***
Big Jim: shows [As Kd] (two pair, Aces and Nines)
marta.k: mucks hand
Big Jim collected {collected} from pot
*** SUMMARY ***
Total pot 350 | Rake 0
Board [Ah 9c 9d 2s Th]
Seat 1: ozzie (big blind) folded before Flop
Seat 2: marta.k (button) mucked{mucked}
Seat 4: Big Jim (small blind) showed [As Kd] and won ({collected}) with two pair, Aces and Nines
"""
)


def hand_text(hero: str = "Big Jim", collected: int = 350) -> str:
    """The hand as `hero`'s file has it: the winner's (the mucker's cards unseen) or the mucker's."""
    mine = hero == "marta.k"
    return HAND.format(
        hero=hero, hero_cards="[Qc Jc]" if mine else "[As Kd]", collected=collected,
        mucked=" [Qc Jc]" if mine else "",
    )  # fmt: skip


def players(text: str, *, check: bool = False) -> dict[str, PlayerStats]:
    """Each player's statistics from `text`, every hand counted (none skipped)."""
    collection = Collection(check=check)
    for imported in read_hands(text):
        assert imported.doc is not None, imported.reason
        collection.add_document(imported.doc, "hand.txt")
    assert [] == collection.skipped
    return {stats.player: stats for stats in collection.players()}


@pytest.mark.parametrize("check", [False, True])
def test_a_showdown_won_against_an_unseen_muck_counts_as_the_same_hand_seen_from_the_loser(
    check: bool,
) -> None:
    """The winner's file and the loser's file give the same statistics for every player, with and
    without ``--check`` (the replay settles the winner's from the collected amounts)."""
    assert players(hand_text("marta.k"), check=check) == players(hand_text("Big Jim"), check=check)


@pytest.mark.parametrize("check", [False, True])
def test_the_winners_own_showdown_counts_to_wtsd_wsd_and_bb_per_100(check: bool) -> None:
    stats = players(hand_text("Big Jim"), check=check)
    jim, marta = stats["Big Jim"], stats["marta.k"]
    assert (Rate(1, 1), Rate(1, 1)) == (jim.rates["went_to_showdown"], jim.rates["won_at_showdown"])
    assert Rate(0, 1) == marta.rates["won_at_showdown"]
    assert (18.0, -17.0) == (jim.won, marta.won)  # big blinds: 350 won for 170 put in, and 170 lost


def test_the_converted_history_deals_and_mucks_the_unseen_cards_and_is_settled_by_its_stacks() -> None:
    (imported,) = read_hands(hand_text("Big Jim"))
    doc = imported.doc
    assert doc is not None
    assert "d dh p3 ????" in doc["actions"] and "p3 sm" in doc["actions"] and "p1 sm AsKd" in doc["actions"]
    assert [1050, 990, 960] == doc["finishing_stacks"]
    replayed = phh.replay(phh.loads(phh.dumps(doc))[0])
    assert replayed.settled and replayed.by_history
    assert (1050, 990, 960) == replayed.finishing_stacks


def test_back_in_pokerstars_words_the_loser_mucks_as_in_the_text() -> None:
    (imported,) = read_hands(hand_text("Big Jim"))
    assert imported.doc is not None
    written = write_hand(imported.doc)
    assert "marta.k: mucks hand" in written and "Seat 2: marta.k (button) mucked\n" in written
    assert hand_text("Big Jim").split("*** HOLE CARDS ***")[1] == written.split("*** HOLE CARDS ***")[1]


def test_collected_amounts_that_do_not_share_the_pots_are_refused_naming_them() -> None:
    (imported,) = read_hands(hand_text("Big Jim", collected=400))
    assert imported.doc is None
    assert "the collected amounts [400, 0, 0] cannot be" in str(imported.reason)
    assert "350 chips" in str(imported.reason)


def test_a_history_whose_unseen_showdown_stacks_do_not_add_up_is_invalid() -> None:
    (imported,) = read_hands(hand_text("Big Jim"))
    assert imported.doc is not None
    broken = dict(imported.doc) | {"finishing_stacks": [1050, 1000, 960]}  # a folded player won 10
    with pytest.raises(InvalidHistoryError, match="showdown's cards are unknown, and the finishing stacks"):
        phh.replay(broken)
    folded = dict(imported.doc) | {"finishing_stacks": [700, 1340, 960]}  # the pots, to the folder
    with pytest.raises(InvalidHistoryError, match="p2 wins 350 chips"):
        phh.replay(folded)


def test_holdem_stats_counts_the_hand_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text(hand_text("Big Jim"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "stats", "--check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert 0 == done.returncode, done.stderr
    assert "1 hand: 1 counted, 0 skipped" in done.stdout


SAMPLES = sorted((Path(__file__).parent / "data" / "pokerstars").glob("*.txt"))


@pytest.mark.parametrize("path", SAMPLES, ids=[path.stem for path in SAMPLES])
def test_every_sample_hand_counts_the_same_read_or_replayed_rake_included(path: Path) -> None:
    """`--check` replays each hand and then counts what the text states (the rake taken out of the
    pots): a raked hand once counted the engine's unraked stacks when replayed (issue 62, item 3)."""
    read, replayed = Collection(), Collection(check=True)
    for imported in read_hands(path.read_text(encoding="utf-8")):
        if imported.doc is not None:
            read.add_document(imported.doc, path.name)
            replayed.add_document(imported.doc, path.name)
    assert [] == replayed.skipped
    assert read.players() == replayed.players()


def test_a_history_whose_stacks_are_not_the_engines_less_its_rake_is_skipped_by_check() -> None:
    (imported,) = read_hands(hand_text("marta.k"))
    assert imported.doc is not None
    wrong = dict(imported.doc) | {"_rake": 10}  # a rake the stacks do not show
    collection = Collection(check=True)
    assert not collection.add_document(wrong, "wrong")
    assert "not the engine's" in collection.skipped[0].reason


@pytest.mark.parametrize("path", SAMPLES, ids=[path.stem for path in SAMPLES])
def test_every_sample_hand_survives_the_round_trip_through_pokerstars_text(path: Path) -> None:
    """PokerStars -> PHH -> PokerStars -> PHH loses nothing (issue 62, item 4): the same document,
    dates included, and the same statistics, for every hand the file's own text lets be read."""
    first = [hand.doc for hand in read_hands(path.read_text(encoding="utf-8")) if hand.doc is not None]
    again = [read_hands(write_hand(doc))[0] for doc in first]
    assert [None] * len(first) == [hand.reason for hand in again]
    assert first == [hand.doc for hand in again]
    before, after = Collection(), Collection()
    for doc, hand in zip(first, again, strict=True):
        before.add_document(doc, path.name)
        after.add_document(hand.doc or {}, path.name)
    assert before.players() == after.players()
