"""Hand-history files as the sites and trackers write them (issue 62): amounts with thousands
separators, files in Windows-1252 and files that start with a byte-order mark are read, not skipped."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from holdem.errors import InvalidHistoryError
from holdem.formats import phh
from holdem.formats.pokerstars import read_hands, write_hand
from holdem.stats import Collection

FILES = Path(__file__).parent / "data" / "pokerstars"
HOLDEM = [sys.executable, "-m", "holdem"]
CASH = (FILES / "headers.txt").read_text(encoding="utf-8").split("\n\n\n")[0] + "\n"


def holdem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HOLDEM, *args], capture_output=True, text=True, timeout=60)


def test_amounts_with_thousands_separators_are_read() -> None:
    """ "$1,104.50" is 110,450 cents; the hand is the one with "$104.50" and "$100", richer."""
    rich = CASH.replace("($104.50 in chips)", "($1,104.50 in chips)").replace(
        "($100 in chips)", "($2,100 in chips)"
    )
    (plain,), (read,) = read_hands(CASH), read_hands(rich)
    assert read.doc is not None and plain.doc is not None, read.reason
    assert sorted([110450, 9725, 210000, 4400]) == sorted(read.doc["starting_stacks"])
    gained = [b - a for a, b in zip(read.doc["starting_stacks"], read.doc["finishing_stacks"], strict=True)]
    plain_gained = [
        b - a for a, b in zip(plain.doc["starting_stacks"], plain.doc["finishing_stacks"], strict=True)
    ]
    assert plain_gained == gained


def test_a_file_in_windows_1252_is_read_by_stats_and_convert(tmp_path: Path) -> None:
    """A non-breaking space (byte 0xA0 in Windows-1252) in the table's name skipped the whole file
    ("'utf-8' codec can't decode byte 0xa0")."""
    path = tmp_path / "cp1252.txt"
    path.write_bytes(CASH.replace("Teucer II", "Teucer\u00a0II").encode("cp1252"))
    stats = holdem("stats", str(path))
    assert 0 == stats.returncode, stats.stderr
    assert "1 hand: 1 counted, 0 skipped" in stats.stdout
    converted = holdem("convert", "--to", "phh", str(path))
    assert 0 == converted.returncode, converted.stderr
    assert "table = 'Teucer\u00a0II'" in converted.stdout


def test_a_byte_order_mark_is_no_part_of_the_history(tmp_path: Path) -> None:
    """A PokerStars file with a byte-order mark given to `holdem replay` is named as PokerStars text
    (it said "not valid TOML"), and a PHH file with one replays."""
    stars = tmp_path / "hands.phh"
    stars.write_bytes(b"\xef\xbb\xbf" + CASH.encode())
    answer = holdem("replay", str(stars))
    assert "PokerStars text, not PHH: convert it first" in answer.stdout, answer.stdout + answer.stderr
    (imported,) = read_hands(CASH)
    assert imported.doc is not None
    marked = tmp_path / "hand.phh"
    marked.write_bytes(b"\xef\xbb\xbf" + phh.dumps(imported.doc).encode())
    assert phh.replay(phh.load(marked)[0]).settled
    stats = holdem("stats", str(marked))
    assert 0 == stats.returncode and "1 hand: 1 counted" in stats.stdout, stats.stderr


def test_holdem_convert_reads_thousands_separators(tmp_path: Path) -> None:
    """`holdem convert` refused "$1,104.50" ("not an amount") and skipped the hand (issue 63, item 5)."""
    path = tmp_path / "rich.txt"
    path.write_text(CASH.replace("($104.50 in chips)", "($1,104.50 in chips)"), encoding="utf-8")
    converted = holdem("convert", "--to", "phh", str(path))
    assert 0 == converted.returncode, converted.stderr
    assert "1 hand: 1 converted, 0 skipped" in converted.stderr and "110450" in converted.stdout


@pytest.mark.parametrize(
    ("when", "written"),
    [
        ("2010/05/07 0:17:07 WET [2010/05/06 19:17:07 ET]", None),  # WET's own name is WEST in May
        ("2026/01/02 03:04:05 CET [2026/01/01 21:04:05 ET]", None),
        ("2010/05/07 0:17:07 XYZ [2010/05/06 19:17:07 ET]", "2010/05/06 19:17:07 ET"),  # a zone unknown here
    ],
)
def test_a_first_lines_own_time_zone_survives_the_round_trip(when: str, written: str | None) -> None:
    """ "0:17:07 WET [2010/05/06 19:17:07 ET]" came back as "0:17:07 ET": five hours and a day off
    (issue 62, item 4). A zone this machine does not know keeps the site's ET time."""
    first = CASH.splitlines()[0]
    text = CASH.replace(first, f"PokerStars Hand #2760417338: Hold'em No Limit ($0.50/$1 USD) - {when}")
    (imported,) = read_hands(text)
    assert imported.doc is not None, imported.reason
    assert write_hand(imported.doc).splitlines()[0].endswith(f" - {written or when}")


SAMPLES = sorted(FILES.glob("*.txt"))


@pytest.mark.parametrize("path", SAMPLES, ids=[path.stem for path in SAMPLES])
def test_every_sample_hand_survives_pokerstars_to_phh_to_pokerstars(path: Path) -> None:
    """Read, written back in PokerStars' words and read again: the same statistics and the same date.
    A big blind short of chips but above the small blind ("posts big blind 180 and is all-in") came
    back as a second small blind, which the reader refused (issue 62, item 4)."""
    dated = ("year", "month", "day", "time", "time_zone")
    for imported in read_hands(path.read_text(encoding="utf-8")):
        if imported.doc is None:
            continue
        (again,) = read_hands(write_hand(imported.doc))
        assert again.doc is not None, (imported.ident, again.reason)
        first, second = Collection(), Collection()
        first.add_document(imported.doc, "read")
        second.add_document(again.doc, "again")
        assert first.players() == second.players(), imported.ident
        assert [imported.doc.get(k) for k in dated] == [again.doc.get(k) for k in dated], imported.ident


def _hands_of(text: str) -> dict[str, str]:
    """Each hand's own text in a file, by its number."""
    blocks = re.split(r"\n\s*\n(?=PokerStars )", text.strip())
    return {re.search(r"#(\d+):", block)[1]: block for block in blocks}  # type: ignore[index]


@pytest.mark.parametrize("path", SAMPLES, ids=[path.stem for path in SAMPLES])
def test_the_writer_writes_each_sample_hands_first_line_and_posts_as_the_site_did(path: Path) -> None:
    """Through PHH text and back, the first line and every "posts" line are the site's. A returning
    player who posted a dead small blind and a big blind on two lines ("Zed: posts small blind
    $0.25", "Zed: posts big blind $0.50") got one "posts small & big blinds $0.75"; a tournament's
    buy-in ("$10+$1 USD"), a home game's club ("{Friday Night Felt}") and a mixed table's name
    ("Mixed NLH/PLO") were left out (issue 62, item 4). The 2005 form of the first line ("PokerStars
    Game #…") is written in today's."""
    text = path.read_text(encoding="utf-8")
    own = _hands_of(text)
    for imported in read_hands(text):
        if imported.doc is None:
            continue
        (doc,) = phh.loads(phh.dumps(imported.doc))
        written = write_hand(doc).splitlines()
        site = [line.strip() for line in own[imported.ident].splitlines()]
        if not site[0].startswith("PokerStars Game #"):
            assert site[0] == written[0], imported.ident
        posts = sorted(line for line in written if ": posts " in line)
        assert sorted(line for line in site if ": posts " in line) == posts, imported.ident


def test_a_returning_players_dead_small_blind_comes_back_as_a_small_blind() -> None:
    """ "t0mmy: posts small blind $0.50" away from the small blind's place is dead money; it was
    written back as "posts the ante $0.50" (issue 62, item 4)."""
    dead = CASH.replace(
        "Ferdinand: posts big blind $1\n", "Ferdinand: posts big blind $1\nt0mmy: posts small blind $0.50\n"
    )
    dead = dead.replace("$8.95", "$9.45").replace("Total pot $9.50", "Total pot $10")
    (imported,) = read_hands(dead)
    assert imported.doc is not None, imported.reason
    written = write_hand(imported.doc)
    assert "t0mmy: posts small blind $0.50\n*** HOLE CARDS ***" in written and "posts the ante" not in written
    (again,) = read_hands(written)
    assert again.doc is not None and again.doc["finishing_stacks"] == imported.doc["finishing_stacks"]


def test_a_tournament_hand_whose_first_line_has_no_level_takes_its_blinds_from_the_posts() -> None:
    """Refused as "a tournament hand without its level and blinds" (issue 62, item 2). Each sample
    tournament hand, its level taken out of the first line, reads as it did with it: among them a
    big blind posted all-in short of the level ("posts big blind 20 and is all-in" at 15/30, where
    the first caller's "calls 30" gives the big blind)."""
    text = (FILES / "tournament-all-in.txt").read_text(encoding="utf-8")
    hands = [hand.strip() + "\n" for hand in text.split("\n\n\n") if hand.strip()]
    kept = ("blinds_or_straddles", "antes", "min_bet", "starting_stacks", "finishing_stacks", "actions")
    for hand in hands:
        header = hand.splitlines()[0]
        bare = re.sub(r" - Level \w+ \(\d+/\d+\)", "", header)
        assert bare != header
        (with_level,), (without,) = read_hands(hand), read_hands(hand.replace(header, bare))
        assert with_level.doc is not None and without.doc is not None, without.reason
        assert [with_level.doc[k] for k in kept] == [without.doc[k] for k in kept]


def test_the_writer_keeps_the_sites_sitting_out_and_doesnt_show_lines() -> None:
    """A tournament player dealt in while sitting out is "Seat 2: KingKong (1500 in chips) is
    sitting out", and a player who wins without a showdown "doesn't show hand": the writer dropped
    both (issue 62, item 4)."""
    text = (FILES / "sitting-out.txt").read_text(encoding="utf-8")
    hands = [hand for hand in read_hands(text) if hand.doc is not None]
    written = "\n".join(write_hand(hand.doc) for hand in hands if hand.doc is not None)
    for line in text.splitlines():
        if line.endswith((") is sitting out", ": doesn't show hand")) and not line.startswith(
            "Seat 9: Mika_M"
        ):
            assert line in written.splitlines(), line


def _as_game(first_line: str, text: str = CASH) -> str:
    """`text` with its first line's game and stakes replaced (the hand itself is hold'em)."""
    head, _, rest = text.partition("\n")
    number = head.split(":")[0]
    return f"{number}: {first_line} - 2024/04/02 19:40:55 ET\n{rest}"


@pytest.mark.parametrize(
    ("first_line", "game"),
    [
        ("Tournament #1000001, $5+$0.50 USD Badugi Limit - Level I (10/20)", "Badugi Limit"),
        ("Omaha Pot Limit ($0.25/$0.50 USD)", "Omaha Pot Limit"),
        ("6+ Hold'em Button Blind (Button Blind $1 USD)", "6+ Hold'em Button Blind"),
        ("Hold'em No Limit ($0.25/$0.50 USD) Cap", "Hold'em No Limit Cap"),
        ("Mixed NLH/PLO (Omaha Pot Limit, $0.25/$0.50 USD)", "Omaha Pot Limit"),
    ],
)
def test_a_game_the_engine_does_not_play_is_named_by_its_game(first_line: str, game: str) -> None:
    """Six-plus and capped no-limit hold'em were refused as "no stakes in the first line"; another game
    said "not hold'em: Tournament #1000001, $5+$0.50 USD Badugi Limit"."""
    (hand,) = read_hands(_as_game(first_line))
    assert hand.doc is None and game == hand.game
    assert hand.reason is not None and hand.reason.endswith(f": {game}")


def test_hands_of_other_games_are_summed_up_by_file_and_game_and_refusals_listed(tmp_path: Path) -> None:
    """A folder of a Badugi tournament beside hold'em: one line for its 3 hands, not three; a damaged
    hold'em hand is still named on its own line, and a hold'em hand is counted."""
    badugi = "\n\n".join(
        _as_game("Tournament #1000001, $5+$0.50 USD Badugi Limit - Level I (10/20)").replace("#", f"#9{k}", 1)
        for k in range(3)
    )
    (tmp_path / "badugi.txt").write_text(badugi, encoding="utf-8")
    damaged = CASH.replace("posts big blind $1", "posts big blind $1x")
    (tmp_path / "holdem.txt").write_text(CASH + "\n\n" + damaged.replace("#", "#8", 1), encoding="utf-8")
    for command in (("stats",), ("convert", "--to", "phh")):
        ran = holdem(*command, str(tmp_path))
        assert 1 == ran.returncode, ran.stderr
        lines = ran.stderr.strip().splitlines()
        summed = (
            f"{tmp_path / 'badugi.txt'}: skipped 3 hands of Badugi Limit (a game this engine does not play)"
        )
        assert summed in lines
        assert not any("hand #9" in line for line in lines)  # no line for each Badugi hand
        assert [line for line in lines if "holdem.txt: hand #8" in line and "skipped" in line], lines
        assert "5 hands: 1 " in ran.stdout + ran.stderr and ", 4 skipped" in ran.stdout + ran.stderr


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("_blinds_apart", 3, "_blinds_apart must be a list of players 0 to 3"),
        ("_blinds_apart", [7], "_blinds_apart must be a list of players 0 to 3"),
        ("_sitting_out", "p1", "_sitting_out must be a list of players 0 to 3"),
        ("_club", "Friday}\nPokerStars Hand #1:", "_club must be a line of text without braces"),
        ("_buy_in", 11, "_buy_in must be a line of text without braces"),
    ],
)
def test_a_user_field_the_writer_cannot_write_is_named_and_nothing_is_written(
    field: str, value: object, said: str
) -> None:
    """A PHH file's own `_blinds_apart = 3` stopped `holdem convert --to pokerstars` with a traceback
    ("'int' object is not iterable"); a club with a line break would have written a second hand."""
    (hand,) = (
        h for h in read_hands((FILES / "posts.txt").read_text(encoding="utf-8")) if h.ident == "241500000301"
    )
    assert hand.doc is not None
    with pytest.raises(InvalidHistoryError, match=re.escape(said)):
        write_hand(hand.doc | {field: value})
