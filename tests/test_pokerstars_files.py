"""Real PokerStars files' edge cases, as sample files in their style (tests/data/pokerstars/):
each hand is imported to what the file states, or skipped whole with its reason."""

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import Hand, Stakes
from holdem.errors import InvalidHistoryError
from holdem.formats import phh
from holdem.formats.pokerstars import Imported, read_hands, write_hand
from tests.strategies import examples, random_action

FILES = Path(__file__).resolve().parent / "data" / "pokerstars"


def read(name: str) -> dict[str, Imported]:
    return {hand.ident: hand for hand in read_hands((FILES / name).read_text(encoding="utf-8"))}


def replays_to_the_file(imported: Imported) -> bool:
    """The engine's settlement, less the rake the file took, gives the stacks the document records."""
    doc = imported.doc
    assert doc is not None, imported.reason
    replayed = phh.replay(doc)
    assert replayed.hand is not None and replayed.hand.result is not None
    kept = [p - w for p, w in zip(replayed.hand.result.payouts, doc["winnings"], strict=True)]
    finishing = [s - k for s, k in zip(replayed.finishing_stacks or (), kept, strict=True)]
    return bool(doc.get("_rake", 0) == sum(kept) and doc["finishing_stacks"] == finishing)


def test_sitting_out_tournament_players_are_dealt_in_and_fold() -> None:
    """PokerStars deals sitting-out tournament players in: they post and fold, and may hold the
    button; a player out of hand (just moved in) is not dealt in."""
    hands = read("sitting-out.txt")
    first, second = hands["230000000101"], hands["230000000102"]
    assert first.doc is not None and second.doc is not None
    assert ["R0ck", "anna77", "KingKong", "sleepy"] == first.doc[
        "players"
    ]  # sleepy, sitting out, is the button
    assert [3275, 2735, 1495, 1495] == first.doc["finishing_stacks"]
    assert (
        "Mika_M" not in second.doc["players"] and [2800, 1440, 1490, 3270] == second.doc["finishing_stacks"]
    )
    assert replays_to_the_file(first) and replays_to_the_file(second)


def test_one_damaged_line_skips_only_its_own_hand() -> None:
    """An unreadable card, a cut-off line, a board whose flop line was lost, or summary amounts
    that disagree: that hand is skipped with the reason, and the file's other hands import. A card
    written "XX" (hidden by hand) is a card nobody knows: that hand imports, settled as collected."""
    hands = read("damaged.txt")
    reasons = {ident: hand.reason for ident, hand in hands.items()}
    hidden = hands["240000000201"].doc  # settled by its collected amounts, checked against the pots
    assert hidden is not None and "p2 sm ??Qs" in hidden["actions"]
    assert phh.replay(hidden).by_history and hidden["finishing_stacks"] == list(
        phh.replay(hidden).finishing_stacks
    )
    assert "invalid card '1s'" in str(reasons["240000000202"])
    assert "calls without an amount: 'Zed: calls'" == reasons["240000000203"]
    assert "does not repeat the board dealt so far []" in str(reasons["240000000204"])
    assert "the summary's amounts won" in str(reasons["240000000205"])
    assert reasons["240000000206"] is None and replays_to_the_file(hands["240000000206"])


def test_convert_writes_the_good_hands_of_a_damaged_file(tmp_path: Path) -> None:
    out = tmp_path / "good.phhs"
    run = [
        sys.executable,
        "-m",
        "holdem",
        "convert",
        str(FILES / "damaged.txt"),
        "--to",
        "phh",
        "--out",
        str(out),
    ]
    done = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert 1 == done.returncode and "Traceback" not in done.stderr
    assert "6 hands: 2 converted, 4 skipped" in done.stderr  # 201's card written XX: a card nobody knows
    assert [240000000201, 240000000206] == [doc["hand"] for doc in phh.load(out)]


def test_old_home_game_and_mixed_game_headers_are_read() -> None:
    """A 2005 table without "N-max", a home game, and the hold'em hand of a mixed game."""
    hands = read("headers.txt")
    old, home, mixed = hands["2760417338"], hands["201234567890"], hands["245100000001"]
    assert old.doc is not None and "Teucer II" == old.doc["table"] and "seat_count" not in old.doc
    assert (2005, 8, 14, "21:13:51") == tuple(old.doc[k] for k in ("year", "month", "day", "time"))
    assert home.doc is not None and ["Big Jim", "ozzie", "marta.k"] == home.doc["players"]
    assert mixed.doc is not None and (10, 25) == tuple(mixed.doc["blinds_or_straddles"][:2])
    assert all(replays_to_the_file(hand) for hand in (old, home, mixed))


def test_rule_12_pot_limit_preflop_no_limit_postflop_is_read_as_that_structure_and_written_back() -> None:
    """It was refused ("not a structure the engine plays"). The button raises the pot before the
    flop (to $0.85, the most) and moves all in on the flop for 10 pots: read, both replay under the
    mixed structure; a raise above the pot before the flop is refused; written back, the text is
    the file's. PHH keeps the structure in a user field (``_pot_limit = "preflop"``)."""
    assert "preflop" == read("headers.txt")["245100000002"].doc["_pot_limit"]  # type: ignore[index]
    text = (FILES / "pot-limit-preflop.txt").read_text(encoding="utf-8")
    (hand,) = read_hands(text)
    assert hand.doc is not None and replays_to_the_file(hand), hand.reason
    assert text == write_hand(hand.doc, dealt_to={2})
    over = text.replace("raises $0.60 to $0.85", "raises $0.75 to $1").replace("calls $0.60", "calls $0.75")
    assert "raise to 100 is above the maximum 85" in str(read_hands(over)[0].reason)


def test_rule_03_a_returning_players_small_blind_is_dead_money() -> None:
    """A small blind posted beside one's own big blind (in two lines or as "small & big blinds")
    goes into the pot as dead money; only the big blind is a live bet."""
    hands = read("posts.txt")
    for ident in ("241500000301", "241500000302"):
        doc = hands[ident].doc
        assert doc is not None, hands[ident].reason
        assert [25] == [d for d in doc["_dead"] if d] and replays_to_the_file(hands[ident])


def test_a_call_of_a_short_all_in_big_blind_is_taken_as_the_file_states() -> None:
    """PokerStars lets the others call what a short big blind posted (`calls 180` at blinds
    150/300): the hand is replayed with that blind, and its chips agree with the file."""
    imported = read("posts.txt")["3620000401"]
    assert imported.doc is not None, imported.reason
    assert [150, 180, 0] == imported.doc["blinds_or_straddles"] and [3820, 540, 4820] == imported.doc[
        "finishing_stacks"
    ]
    assert replays_to_the_file(imported)


def test_rule_07_the_others_call_the_full_big_blind_of_a_short_all_in_big_blind() -> None:
    """A tournament big blind posted short and all-in (20 at 15/30; 360 at 300/600 with antes): the
    others call the full big blind or their whole stack (`calls 30`, `calls 480 and is all-in`), as
    rule 7 says, and the hand replays to the file's pots."""
    hands = read("tournament-all-in.txt")
    for ident, blinds, stacks in (
        ("240000000501", [15, 30, 0, 0], [840, 60, 1650, 1450]),
        ("240000000502", [300, 600, 0, 0], [7495, 1680, 240, 8895]),
    ):
        imported = hands[ident]
        assert imported.doc is not None, imported.reason
        assert blinds == imported.doc["blinds_or_straddles"] and stacks == imported.doc["finishing_stacks"]
        assert replays_to_the_file(imported)


def test_a_fold_written_for_a_player_all_in_from_the_ante_changes_nothing() -> None:
    """PokerStars writes `Player12: folds` for a sitting-out player whom the ante put all-in, out of
    turn; nothing happens at the table (the player still shows down for the main pot), and the
    reader refused the hand. It is read as the site played it."""
    imported = read("tournament-all-in.txt")["240000000601"]
    assert imported.doc is not None, imported.reason
    assert not any(action.startswith("p3 f") for action in imported.doc["actions"])
    assert [5850, 2850, 0, 6550] == imported.doc["finishing_stacks"] and replays_to_the_file(imported)


def test_rule_11_a_raise_nobody_could_call_is_replayed_under_the_sites_rules() -> None:
    """The site let the button raise an all-in of 1,195 to 3,600 although the two blinds left
    could not put in 1,195 (rule 11 forbids it): the file is replayed under `Rules.pokerstars()`,
    the blinds' all-in calls of 770 and 1,045 follow, and 2,405 goes back uncalled."""
    imported = read("site-rules.txt")["230000000201"]
    assert imported.doc is not None, imported.reason
    assert "pokerstars" == imported.doc["_rules"] and replays_to_the_file(imported)
    assert [0, 0, 0, 2995, 2495, 8110] == imported.doc["finishing_stacks"]
    under_holdems_rules = {k: v for k, v in imported.doc.items() if k != "_rules"}
    with pytest.raises(InvalidHistoryError, match=r"p6 cbr 3600.*raise not allowed; call or fold"):
        phh.replay(under_holdems_rules)


def test_rule_11_a_covering_small_blind_asked_to_act_may_fold() -> None:
    """The small blind's 50 covers the big blind, all-in for 30. The site asked the small blind
    anyway, and they folded: 20 goes back to them and the big blind takes 60. Another hand of the
    same file, where the site did not ask, is read under `holdem`'s own rules."""
    hands = read("site-rules.txt")
    asked, not_asked = hands["230000000202"], hands["230000000203"]
    assert asked.doc is not None and not_asked.doc is not None, (asked.reason, not_asked.reason)
    assert "pokerstars" == asked.doc["_rules"] and "_rules" not in not_asked.doc
    assert [1970, 60, 4000, 3000] == asked.doc["finishing_stacks"]
    assert replays_to_the_file(asked) and replays_to_the_file(not_asked)


def test_hands_dealt_by_the_sites_rules_write_back_the_same() -> None:
    """Written out again, each hand of the file reads back to the same document, rules included."""
    for imported in read_hands((FILES / "site-rules.txt").read_text(encoding="utf-8")):
        assert imported.doc is not None, imported.reason
        (again,) = read_hands(write_hand(imported.doc))
        assert imported.doc == again.doc


def test_a_document_naming_unknown_rules_is_refused() -> None:
    doc = read("site-rules.txt")["230000000201"].doc
    assert doc is not None
    for name in ("wsop", ["pokerstars"], 3):
        with pytest.raises(InvalidHistoryError, match="field '_rules' names unknown rules"):
            phh.replay(doc | {"_rules": name})


ALWAYS_IN_POKERSTARS = {"players", "seats", "hand", "winnings"}
"""What every PokerStars hand states, so a converted document always has it."""


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), keep=st.sets(st.sampled_from(["table", "seat_count", "year", "currency"]))
)
def test_exports_invent_nothing(seed: int, keep: set[str]) -> None:
    """PHH -> PokerStars -> PHH: no date, table name or table size comes back unless the source had it."""
    rng = random.Random(seed)
    hand = Hand.start([rng.randint(50, 500) for _ in range(rng.randint(2, 6))], Stakes(1, 2), rng=rng)
    while not hand.is_complete:
        hand.act(random_action(hand, rng))
    doc = phh.export(hand)
    extra = {"table": "Vega II", "seat_count": 9, "currency": "USD", "year": 2024}
    doc |= {k: extra[k] for k in keep}
    if "year" in keep:
        doc |= {"month": 3, "day": 1, "time": "20:00:00"}
    (back,) = read_hands(write_hand(doc))
    assert back.doc is not None, back.reason
    assert set() == set(back.doc) - set(doc) - ALWAYS_IN_POKERSTARS


LINE_DAMAGE = ["delete", "cut", "card", "amount", "double", "swap"]


def damaged(text: str, rng: random.Random) -> str:
    """Text with a few lines deleted, cut short, doubled, swapped, or with a card or amount spoiled."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(len(lines))
        kind = rng.choice(LINE_DAMAGE)
        if kind == "delete":
            del lines[k]
        elif kind == "cut":
            lines[k] = lines[k][: rng.randrange(len(lines[k]) + 1)]
        elif kind == "card":
            lines[k] = lines[k].replace(
                rng.choice(["s]", "h ", "c]", "d "]), rng.choice(["X]", "1 ", "s ", "]"]), 1
            )
        elif kind == "amount":
            lines[k] = lines[k].replace(
                rng.choice(["0", "5", "$", " to "]), rng.choice(["", "x", "-", "  "]), 1
            )
        elif kind == "double":
            lines.insert(k, lines[k])
        else:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        if not lines:
            break
    return "\n".join(lines)


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(sorted(p.name for p in FILES.glob("*.txt"))))
def test_damaged_files_import_or_skip_each_hand_and_nothing_else(seed: int, name: str) -> None:
    """Fuzz: whatever lines are damaged, `read_hands` returns every hand imported or skipped with its
    reason; it never raises, and every imported hand replays."""
    for hand in read_hands(damaged((FILES / name).read_text(encoding="utf-8"), random.Random(seed))):
        assert (hand.doc is None) != (hand.reason is None)
        if hand.doc is not None:
            phh.replay(hand.doc)
