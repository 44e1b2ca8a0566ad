"""PHH hand histories: the Pluribus hands replay to their records; bad files are clear errors."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem.cards.deck import Deck
from holdem.cli import main
from holdem.errors import InvalidHistoryError
from holdem.formats import phh
from holdem.hand.actions import Action
from holdem.hand.stakes import Stakes
from holdem.hand.state import Hand
from tests.strategies import examples, random_action


def rule_18_stacks(recorded: list[float]) -> list[int]:
    """Half-chip stacks rounded by rule 18: the odd chip to the first tied winner left of the button."""
    halves = [i for i, s in enumerate(recorded) if s != int(s)]
    return [int(s) + (1 if i == halves[0] else 0) if i in halves else int(s) for i, s in enumerate(recorded)]


def test_all_pluribus_hands_replay_to_their_finishing_stacks(pluribus_files: list[Path]) -> None:
    """All 2,502 real hands replay, every action legal, to the recorded finishing stacks."""
    files = pluribus_files
    assert 2502 == len(files)
    mismatches = []
    for path in files:
        (data,) = phh.load(path)
        result = phh.replay(data, str(path))
        recorded = data["finishing_stacks"]
        expected = rule_18_stacks(recorded) if any(s != int(s) for s in recorded) else recorded
        if not result.settled or list(result.finishing_stacks or ()) != expected:
            mismatches.append((path.name, expected, result.finishing_stacks))
    assert [] == mismatches


HAND = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 ????', 'p3 f', 'p1 cbr 6', 'p2 cc',
           'd db 2c7h9s', 'p1 cbr 10', 'p2 f']
_note = 'kept'
"""


def test_exported_hand_round_trips_through_text() -> None:
    """A played hand exports to PHH text that parses and replays to the same stacks."""
    hand = Hand.start([100, 100, 100], Stakes(1, 2), deck=Deck.stacked("AsKsQsAdKdQd"))
    for action in (Action.raise_to(6), Action.call(), Action.fold()):
        hand.act(action)
    hand.act(Action.check())
    hand.act(Action.raise_to(10))
    hand.act(Action.fold())
    text = phh.dumps(phh.export(hand))
    (data,) = phh.loads(text)
    assert hand.result is not None
    assert list(hand.result.final_stacks) == list(phh.replay(data).finishing_stacks or ())
    assert data == phh.loads(phh.dumps(data))[0]


def test_user_fields_survive_a_round_trip() -> None:
    """Fields starting with _ are preserved by loads/dumps."""
    (data,) = phh.loads(HAND)
    assert "kept" == phh.loads(phh.dumps(data))[0]["_note"]


def test_unknown_cards_do_not_matter_when_nobody_shows() -> None:
    """A hand won without showdown settles even with unknown hole cards."""
    (data,) = phh.loads(HAND)
    assert [106, 94, 100] == list(phh.replay(data).finishing_stacks or ())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"variant": "PO"}, "not a hold'em variant"),
        ({"starting_stacks": [100, -5, 100]}, "negative"),
        ({"min_bet": 0}, "min_bet"),
        ({"actions": ["d dh p1 AsAd", "p9 f"]}, "no player p9"),
        ({"actions": ["d dh p1 AsAs", "p3 f"]}, "dealt twice"),
        ({"actions": ["p1 f"]}, "action 1 'p1 f'"),
        ({"actions": ["p3 cbr 3"]}, "below the minimum 4"),
        ({"actions": ["p3 cbr 3.5"]}, "whole-number"),
        ({"actions": ["p3 f", "p1 f"]}, None),
        ({"actions": ["p3 f"]}, "ends before the hand is over"),
        ({"actions": ["p3 xx"]}, "not a hold'em action"),
    ],
)
def test_broken_histories_name_the_problem(change: dict[str, Any], message: str | None) -> None:
    """Each kind of broken history raises InvalidHistoryError naming the action or field."""
    (data,) = phh.loads(HAND)
    data |= change
    if message is None:
        assert phh.replay(data).settled
        return
    with pytest.raises(InvalidHistoryError, match=message):
        phh.replay(data)


def test_malformed_toml_is_a_clear_error() -> None:
    """Text that is not TOML is an InvalidHistoryError."""
    with pytest.raises(InvalidHistoryError, match="not valid TOML"):
        phh.loads("variant = 'NT\n")


def test_replay_cli_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """holdem replay --json prints one object per hand and exits 1 when any hand is invalid."""
    (tmp_path / "good.phh").write_text(HAND)
    (tmp_path / "bad.phh").write_text(HAND.replace("'p2 f'", "'p2 cbr 1'"))
    (tmp_path / "many.phhs").write_text(f"[1]\n{HAND}\n[2]\n{HAND}")
    assert 1 == main(["replay", str(tmp_path), "--json"])
    records = {r["source"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    assert {"ok": False} == {"ok": records[str(tmp_path / "bad.phh")]["ok"]}
    assert "action 9 'p2 cbr 1'" in records[str(tmp_path / "bad.phh")]["error"]
    good = records[str(tmp_path / "good.phh")]
    assert (True, [106, 94, 100], [6, -6, 0]) == (good["ok"], good["finishing_stacks"], good["payoffs"])
    assert {f"{tmp_path / 'many.phhs'}#1", f"{tmp_path / 'many.phhs'}#2"} <= set(records)
    assert 0 == main(["replay", str(tmp_path / "good.phh")])


@given(data=st.data())
@settings(max_examples=examples(300), deadline=None)
def test_fuzzed_histories_replay_or_fail_clearly(data: st.DataObject) -> None:
    """Random edits of a valid history either replay or raise InvalidHistoryError: nothing else."""
    text = HAND
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        edit = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        piece = data.draw(
            st.sampled_from(["p1", "p2", "p3", " ", "f", "cc", "cbr", "9", "-", "'", ",", "As", "??", "\n"])
        )
        if edit == "delete":
            text = text[:at] + text[at + len(piece) :]
        elif edit == "insert":
            text = text[:at] + piece + text[at:]
        else:
            text = text[:at] + piece + text[at + len(piece) :]
    try:
        for hand in phh.loads(text):
            phh.replay(hand)
    except InvalidHistoryError:
        pass


@given(
    stacks=st.lists(st.integers(min_value=1, max_value=5_000), min_size=2, max_size=10),
    structure=st.sampled_from(["no-limit", "pot-limit", "fixed-limit"]),
    ante=st.sampled_from([0, 1, 3]),
    big_blind_ante=st.sampled_from([0, 2]),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=examples(200), deadline=None)
def test_every_played_hand_exports_and_replays_to_the_same_stacks(
    stacks: list[int], structure: str, ante: int, big_blind_ante: int, seed: int
) -> None:
    """Export any hand the engine plays, parse it back, replay it: the same final stacks."""
    import random

    from holdem import Hand, Stakes, Structure

    rng = random.Random(seed)
    stakes = Stakes(1, 2, ante=ante if not big_blind_ante else 0, big_blind_ante=big_blind_ante,
                    structure=Structure(structure))  # fmt: skip
    hand = Hand.start(stacks, stakes, rng=rng)
    while not hand.is_complete:
        hand.act(random_action(hand, rng))
    (data,) = phh.loads(phh.dumps(phh.export(hand)))
    assert hand.result is not None
    assert hand.result.final_stacks == phh.replay(data).finishing_stacks
