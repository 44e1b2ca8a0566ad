"""Player statistics: each one counted on hands worked out by hand (its chances and its actions),
the corner cases trackers get wrong, and the invariants over random hands."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import Hand, Stakes, Structure
from holdem.bots.luck import all_in_adjusted
from holdem.formats import phh
from holdem.hand.actions import ActionKind
from holdem.hand.stakes import Rules
from holdem.stats import Collection, facts_from_hand
from holdem.stats.facts import CALL, CHECK, FOLD, NO_RAISE, RAISE
from holdem.stats.report import PlayerStats, Rate
from tests.strategies import examples, random_action

HOLES = ["2c3d", "4h5s", "6c7d", "8h9s", "Tc2d", "3h4s", "5c6d", "7h8s", "9cTd", "2h3s"]
BOARD = ["KsQsJd", "9d", "2s"]


def hand(
    actions: list[str],
    *,
    n: int = 3,
    blinds: tuple[int, ...] = (1, 2),
    stacks: int | list[int] = 200,
    holes: dict[int, str] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A PHH hand of `n` players named by position from `actions` (``d db`` deals the next street
    of the board), its finishing stacks worked out by the engine."""
    cards = [(holes or {}).get(k + 1, HOLES[k]) for k in range(n)]
    streets = iter(BOARD)
    doc = {
        "variant": "NT", "antes": [0] * n, "blinds_or_straddles": [*blinds, *[0] * (n - len(blinds))],
        "min_bet": blinds[1], "starting_stacks": stacks if isinstance(stacks, list) else [stacks] * n,
        "actions": [f"d dh p{k + 1} {c}" for k, c in enumerate(cards)]
        + [f"d db {next(streets)}" if a == "d db" else a for a in actions],
        "players": [f"p{k + 1}" for k in range(n)],
    } | fields  # fmt: skip
    doc["finishing_stacks"] = list(phh.replay(doc).finishing_stacks or ())
    return doc


def stats(*docs: dict[str, Any], by_position: bool = False) -> dict[str, PlayerStats]:
    """Each player's statistics over `docs`, checked to be the same read fast and replayed."""
    fast, replayed = Collection(), Collection(check=True)
    for doc in docs:
        assert fast.add_document(doc) and replayed.add_document(doc)
    assert fast.players(by_position=by_position) == replayed.players(by_position=by_position)
    return {row.player: row for row in fast.players()}


def rate(row: PlayerStats, key: str) -> tuple[int, int]:
    """(done, chances) of one statistic."""
    return row.rates[key].done, row.rates[key].chances


# --- before the flop ----------------------------------------------------------------------------


def test_vpip_counts_a_call_or_a_raise_before_the_flop_and_never_a_blind() -> None:
    """Six players: UTG folds, HJ limps, CO raises, the rest fold, HJ calls. HJ and CO put money
    in voluntarily; the blinds only posted."""
    s = stats(hand(["p3 f", "p4 cc", "p5 cbr 6", "p6 f", "p1 f", "p2 f", "p4 cc", "d db", "p4 cc",
                    "p5 cbr 8", "p4 f"], n=6))  # fmt: skip
    assert [rate(s[p], "vpip") for p in ("p1", "p2", "p3", "p4", "p5", "p6")] == [
        (0, 1), (0, 1), (0, 1), (1, 1), (1, 1), (0, 1)]  # fmt: skip
    assert [rate(s[p], "pfr")[0] for p in ("p1", "p2", "p3", "p4", "p5", "p6")] == [0, 0, 0, 0, 1, 0]


def test_a_walk_is_no_chance_to_put_money_in() -> None:
    """Everyone folds to the big blind: its hand is a walk, no VPIP or PFR chance for it."""
    s = stats(hand(["p3 f", "p1 f"]))
    assert (s["p2"].walks, rate(s["p2"], "vpip"), rate(s["p2"], "pfr")) == (1, (0, 0), (0, 0))
    assert rate(s["p1"], "vpip") == (0, 1)


def test_the_big_blind_checking_its_option_is_not_voluntary() -> None:
    """The button limps, the small blind completes, the big blind checks: two voluntary players."""
    checks = [
        "d db",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "d db",
        "p1 cc",
        "p2 cc",
        "p3 cc",
        "d db",
        "p1 cc",
        "p2 cc",
        "p3 cc",
    ]
    s = stats(hand(["p3 cc", "p1 cc", "p2 cc", *checks]))
    assert [rate(s[p], "vpip")[0] for p in ("p1", "p2", "p3")] == [1, 0, 1]
    assert [rate(s[p], "pfr")[0] for p in ("p1", "p2", "p3")] == [0, 0, 0]


def test_a_limper_facing_a_raise_has_a_three_bet_chance_and_the_raiser_a_fold_to_it() -> None:
    """UTG limps, the button raises, the blinds fold, UTG re-raises, the button folds."""
    s = stats(hand(["p3 cc", "p4 cbr 8", "p1 f", "p2 f", "p3 cbr 24", "p4 f"], n=4))
    assert rate(s["p3"], "three_bet") == (1, 1)
    assert [rate(s[p], "three_bet") for p in ("p1", "p2")] == [(0, 1), (0, 1)]
    assert rate(s["p4"], "fold_to_three_bet") == (1, 1)
    assert rate(s["p4"], "four_bet") == (0, 1)
    assert rate(s["p4"], "steal") == (0, 0)  # UTG had limped: not a steal chance


def test_an_all_in_short_of_a_raise_is_a_raise_that_does_not_reopen_the_betting() -> None:
    """UTG raises to 10; the button, with 13, goes all-in: short of a full raise (to 18), but more
    than the call, so a 3-bet for the button. It does not reopen the betting for UTG (rule 8):
    UTG may fold to it, but had no chance to raise again."""
    s = stats(hand(["p3 cbr 10", "p4 cbr 13", "p1 f", "p2 f", "p3 cc", "d db", "d db", "d db"], n=4,
                   stacks=[200, 200, 200, 13]))  # fmt: skip
    assert (rate(s["p4"], "pfr"), rate(s["p4"], "three_bet")) == ((1, 1), (1, 1))
    assert rate(s["p3"], "fold_to_three_bet") == (0, 1)
    assert rate(s["p3"], "four_bet") == (0, 0)


def test_an_all_in_for_less_than_the_call_is_a_call_and_no_chance_to_raise() -> None:
    """The button raises to 20; the small blind has 10 and calls all-in: voluntary, no raise, and
    no 3-bet chance (it could not raise)."""
    s = stats(hand(["p3 cbr 20", "p1 cc", "p2 f", "d db", "d db", "d db"], stacks=[10, 200, 200]))
    assert (rate(s["p1"], "vpip"), rate(s["p1"], "pfr"), rate(s["p1"], "three_bet")) == (
        (1, 1),
        (0, 1),
        (0, 0),
    )
    assert rate(s["p2"], "three_bet") == (0, 1)


def test_a_straddle_is_not_voluntary_and_the_first_raise_over_it_is_the_open() -> None:
    """Blinds 1/2 and a straddle of 4 (UTG): HJ raises to 12 (the first raise), all fold to UTG,
    who re-raises: a 3-bet. Its straddle was not voluntary; the re-raise is."""
    s = stats(hand(["p4 cbr 12", "p5 f", "p6 f", "p1 f", "p2 f", "p3 cbr 36", "p4 f"], n=6, blinds=(1, 2, 4)))
    assert rate(s["p4"], "pfr") == (1, 1)
    assert rate(s["p3"], "three_bet") == (1, 1)
    assert rate(s["p4"], "fold_to_three_bet") == (1, 1)


def test_a_straddle_checking_its_option_is_not_voluntary() -> None:
    """Everyone calls the straddle of 4; the straddler checks: it put no money in voluntarily."""
    s = stats(
        hand(["p4 cc", "p1 cc", "p2 cc", "p3 cc", "d db", "p1 f", "p2 f", "p3 f"], n=4, blinds=(1, 2, 4))
    )
    assert [rate(s[p], "vpip")[0] for p in ("p1", "p2", "p3", "p4")] == [1, 1, 0, 1]


def test_a_dead_blind_is_not_voluntary() -> None:
    """A player back from missing the blinds posts the big blind live and a dead small blind
    (rule 3), then checks its option: not voluntary. A later call is."""
    doc = hand(["p4 cc", "p1 cc", "p2 cc", "p3 cc", "d db", "p1 cc", "p2 cc", "p3 cbr 4", "p4 f", "p1 f",
                "p2 f"], n=4, blinds=(1, 2, 2, 0), _dead=[0, 0, 1, 0], _first_to_act=4)  # fmt: skip
    s = stats(doc)
    assert rate(s["p3"], "vpip") == (0, 1)
    assert rate(s["p4"], "vpip") == (1, 1)


def test_a_steal_is_an_open_raise_from_the_cutoff_button_or_small_blind() -> None:
    """Folded to the button, who raises; the small blind folds, the big blind calls."""
    s = stats(hand(["p3 f", "p4 f", "p5 cbr 5", "p6 f", "p1 f", "p2 cc", "d db", "p2 cc", "p5 cc", "d db",
                    "p2 cc", "p5 cc", "d db", "p2 cc", "p5 cc"], n=6))  # fmt: skip
    assert rate(s["p4"], "steal") == (0, 0)  # the hijack is not a stealing position
    assert rate(s["p5"], "steal") == (1, 1)  # p5 is the cut-off in six
    assert [rate(s[p], "fold_to_steal") for p in ("p1", "p2")] == [(1, 1), (0, 1)]
    assert rate(s["p6"], "fold_to_steal") == (0, 0)  # the button is no blind


def test_a_hand_that_ends_before_the_flop_has_no_flop_chances() -> None:
    """The button raises and both blinds fold: nobody saw a flop, went to showdown or could c-bet."""
    s = stats(hand(["p3 cbr 6", "p1 f", "p2 f"]))
    for row in s.values():
        assert rate(row, "went_to_showdown") == rate(row, "won_saw_flop") == rate(row, "flop_cbet") == (0, 0)
    assert s["p3"].won == 1.5  # the blinds: 3 chips, 1.5 big blinds


def test_the_three_bet_and_the_fold_to_a_steal_are_counted_by_the_raisers_position_too() -> None:
    """HM3's positional tables (issue 62, item 5): six-handed, UTG opens and the button 3-bets: the
    hijack, the cut-off and the button had a 3-bet chance against a UTG open (the blinds then faced a
    3-bet, a 4-bet chance). In a second hand the cut-off steals,
    the small blind folds and the big blind calls: fold-to-steal chances against the cut-off."""
    opened = hand(["p3 cbr 6", "p4 f", "p5 f", "p6 cbr 18", "p1 f", "p2 f", "p3 f"], n=6)
    stole = hand(["p3 f", "p4 f", "p5 cbr 6", "p6 f", "p1 f", "p2 cc", "d db", "p2 cc", "p5 cc", "d db",
                  "p2 cc", "p5 cc", "d db", "p2 cc", "p5 cc"], n=6)  # fmt: skip
    s = stats(opened, stole)
    assert Rate(1, 1) == s["p6"].versus["three_bet"]["UTG"]
    assert all(Rate(0, 1) == s[p].versus["three_bet"]["UTG"] for p in ("p4", "p5"))
    assert "UTG" not in s["p1"].versus["three_bet"] and "UTG" not in s["p2"].versus["three_bet"]
    assert (
        Rate(1, 1) == s["p1"].versus["fold_to_steal"]["CO"]
        and Rate(0, 1) == s["p2"].versus["fold_to_steal"]["CO"]
    )
    for row in s.values():  # by position, they add up to the whole
        for key in ("three_bet", "fold_to_steal"):
            by = row.versus[key].values()
            assert (sum(r.done for r in by), sum(r.chances for r in by)) == rate(row, key)


# --- after the flop -----------------------------------------------------------------------------


def test_a_continuation_bet_and_a_fold_to_it() -> None:
    """The button raised before the flop; checked to, it bets the flop (a c-bet), the big blind
    calls; the turn checks to it and it bets again (a turn c-bet); the big blind folds."""
    s = stats(hand(["p3 cbr 6", "p1 f", "p2 cc", "d db", "p2 cc", "p3 cbr 6", "p2 cc", "d db", "p2 cc",
                    "p3 cbr 12", "p2 f"]))  # fmt: skip
    assert (rate(s["p3"], "flop_cbet"), rate(s["p3"], "turn_cbet")) == ((1, 1), (1, 1))
    assert (rate(s["p2"], "fold_to_flop_cbet"), rate(s["p2"], "fold_to_turn_cbet")) == ((0, 1), (1, 1))
    assert rate(s["p2"], "check_raise") == (0, 2)  # checked, then faced a bet, on two streets


def test_a_fold_to_a_river_bet_counts_anyone_facing_the_rivers_first_bet_until_it_is_raised() -> None:
    """HM3's default HUD shows it; it was missing (issue 62, item 5). On the river the small blind
    bets: the big blind calls (a chance, not taken), the button raises (a chance, not taken); the
    small blind then faces a raise, which is no river-bet chance, and folds."""
    checked = ["p1 cc", "p2 cc", "p3 cc"]
    actions = ["p3 cc", "p1 cc", "p2 cc", "d db", *checked, "d db", *checked, "d db", "p1 cbr 6", "p2 cc",
               "p3 cbr 20", "p1 f", "p2 f"]  # fmt: skip
    s = stats(hand(actions))
    assert (rate(s["p2"], "fold_to_river_bet"), rate(s["p3"], "fold_to_river_bet")) == ((0, 1), (0, 1))
    assert rate(s["p1"], "fold_to_river_bet") == (0, 0)
    folded = stats(hand([*actions[:13], "p2 f", "p3 f"]))
    assert (rate(folded["p2"], "fold_to_river_bet"), rate(folded["p3"], "fold_to_river_bet")) == (
        (1, 1),
        (1, 1),
    )


def test_a_bet_into_the_raiser_takes_its_continuation_bet_chance() -> None:
    """The big blind bets the flop first (a donk bet): the raiser had no chance to c-bet."""
    s = stats(hand(["p3 cbr 6", "p1 f", "p2 cc", "d db", "p2 cbr 6", "p3 f"]))
    assert rate(s["p3"], "flop_cbet") == (0, 0)
    assert rate(s["p3"], "fold_to_flop_cbet") == (0, 0)


def test_a_check_raise() -> None:
    """The big blind checks the flop, the raiser bets, the big blind raises."""
    s = stats(hand(["p3 cbr 6", "p1 f", "p2 cc", "d db", "p2 cc", "p3 cbr 6", "p2 cbr 20", "p3 f"]))
    assert rate(s["p2"], "check_raise") == (1, 1)
    assert (s["p2"].bets_raises, s["p2"].calls, s["p2"].folds) == (1, 0, 0)
    assert (s["p3"].bets_raises, s["p3"].folds) == (1, 1)


def test_aggression_counts_bets_and_raises_against_calls_after_the_flop() -> None:
    """Two bets and a call after the flop: factor 2, frequency 2 of 3 actions (checks not counted)."""
    s = stats(hand(["p3 cc", "p1 cc", "p2 cc", "d db", "p1 cbr 2", "p2 f", "p3 cc", "d db", "p1 cbr 4",
                    "p3 f"]))  # fmt: skip
    assert (s["p1"].aggression_factor, s["p1"].aggression_frequency) == (None, 100.0)
    assert (s["p3"].bets_raises, s["p3"].calls, s["p3"].folds) == (0, 1, 1)
    assert s["p3"].aggression_frequency == 0.0


def test_showdown_counts_and_a_split_pot_won_by_both() -> None:
    """Two players check it down with the same straight on the board's help: both went to
    showdown and both took chips from the pot (split); the folded player did neither."""
    board_straight = {1: "AhTh", 2: "AcTc"}
    s = stats(hand(["p3 f", "p1 cc", "p2 cc", "d db", "p1 cc", "p2 cc", "d db", "p1 cc", "p2 cc", "d db",
                    "p1 cc", "p2 cc"], holes=board_straight))  # fmt: skip
    assert [rate(s[p], "went_to_showdown") for p in ("p1", "p2")] == [(1, 1), (1, 1)]
    assert [rate(s[p], "won_at_showdown") for p in ("p1", "p2")] == [(1, 1), (1, 1)]
    assert rate(s["p3"], "went_to_showdown") == (0, 0)


def test_showdown_winner_and_loser() -> None:
    """Aces against a pair of twos, checked down: both went to showdown, one won."""
    checks = ["d db", "p1 cc", "p2 cc", "d db", "p1 cc", "p2 cc", "d db", "p1 cc", "p2 cc"]
    s = stats(hand(["p3 f", "p1 cc", "p2 cc", *checks], holes={1: "AsAh", 2: "2d7c"}))
    assert (rate(s["p1"], "won_at_showdown"), rate(s["p2"], "won_at_showdown")) == ((1, 1), (0, 1))
    assert (rate(s["p1"], "won_saw_flop"), rate(s["p2"], "won_saw_flop")) == ((1, 1), (0, 1))
    assert (s["p1"].won, s["p1"].won_at_showdown) == (1.0, 1.0)


def test_an_uncalled_bet_given_back_is_not_a_pot_won() -> None:
    """A player all-in for 200 called for 50 by a short stack that wins: the bigger stack took no
    chips from a pot (its 150 came back uncalled)."""
    s = stats(hand(["p3 f", "p1 cbr 200", "p2 cc", "d db", "d db", "d db"], stacks=[200, 50, 200],
                   holes={1: "2d7c", 2: "AsAh"}))  # fmt: skip
    assert rate(s["p1"], "won_at_showdown") == (0, 1)
    assert s["p1"].won == -25.0


# --- winnings -----------------------------------------------------------------------------------


def test_big_blinds_per_100_hands() -> None:
    """Two hands of three players: the button wins the blinds twice (1.5 big blinds each)."""
    s = stats(hand(["p3 cbr 6", "p1 f", "p2 f"]), hand(["p3 cbr 6", "p1 f", "p2 f"]))
    assert (s["p3"].hands, s["p3"].bb_per_100) == (2, 150.0)
    assert s["p1"].bb_per_100 == -50.0


def test_all_in_adjusted_winnings_value_an_all_in_at_its_equity() -> None:
    """An all-in before the flop counts at the equity in the pot, as `holdem.bots.luck` gives it."""
    doc = hand(["p3 f", "p1 cbr 200", "p2 cc", "d db", "d db", "d db"], holes={1: "AsAh", 2: "KdKc"})
    collection = Collection(adjust=True)
    assert collection.add_document(doc)
    (row,) = [r for r in collection.players() if r.player == "p1"]
    played = phh.replay(doc).hand
    assert played is not None
    expected = all_in_adjusted(played)
    assert expected is not None
    assert row.adjusted == pytest.approx(expected[0] / 2)
    assert row.adjusted != row.won


# --- reading ------------------------------------------------------------------------------------


def test_a_hand_that_cannot_be_read_is_named_and_skipped() -> None:
    """A hand with an action of an unknown player is skipped with its source and the reason."""
    good = hand(["p3 f", "p1 f"])
    bad = good | {"actions": [*good["actions"][:3], "p9 f"]}
    collection = Collection()
    assert collection.add_document(good, "good.phh")
    assert not collection.add_document(bad, "bad.phh")
    assert (collection.hands, [(s.source, "p9" in s.reason) for s in collection.skipped]) == (
        1,
        [("bad.phh", True)],
    )


def test_check_mode_skips_a_hand_that_breaks_the_rules() -> None:
    """Read fast, a raise out of turn is counted as written; replayed (`check`), it is refused."""
    doc = hand(["p3 f", "p1 f"])
    broken = doc | {"actions": [*doc["actions"][:3], "p1 f", "p3 f"]}
    assert not Collection(check=True).add_document(broken)


# --- the engine as the oracle -------------------------------------------------------------------

_CODES = {ActionKind.FOLD: FOLD, ActionKind.CHECK: CHECK, ActionKind.CALL: CALL, ActionKind.RAISE: RAISE}


def _played(seed: int) -> tuple[Hand, list[tuple[int, int, int]]]:
    """A random hand and, for each action, what the engine saw: the street, the player, the kind,
    and whether the player could have raised instead."""
    rng = random.Random(seed)
    n = rng.randint(2, 9)
    stakes = Stakes(1, 2, structure=rng.choice(list(Structure)), ante=rng.choice([0, 0, 1]),
                    straddles=(4,) if n > 3 and rng.random() < 0.3 else ())  # fmt: skip
    rules = rng.choice([Rules(), Rules.pokerstars()])
    played = Hand.start([rng.randint(1, 300) for _ in range(n)], stakes, rng=rng, rules=rules)
    seen = []
    while not played.is_complete:
        legal, player, street = played.legal_actions(), played.actor, int(played.phase)
        assert legal is not None and player is not None
        played.act(random_action(played, rng))
        code = _CODES[played.history[-1][1].kind]
        seen.append(
            (street, player, code + NO_RAISE if code in (FOLD, CALL) and legal.min_raise_to is None else code)
        )
    return played, seen


@given(seed=st.integers(0, 2**32))
@settings(max_examples=examples(300), deadline=None)
def test_the_facts_read_from_a_history_are_what_the_engine_saw(seed: int) -> None:
    """Every action's street, player, kind and whether a raise was possible, and every payoff,
    read from the exported history without replaying it, are the engine's own."""
    played, seen = _played(seed)
    facts = facts_from_hand(played, [f"p{k}" for k in range(len(played.starting_stacks))])
    assert played.result is not None
    assert (list(facts.actions), facts.net) == (seen, played.result.payoffs)


@given(seeds=st.lists(st.integers(0, 2**32), min_size=1, max_size=12))
@settings(max_examples=examples(60), deadline=None)
def test_invariants_over_random_hands(seeds: list[int]) -> None:
    """PFR never above VPIP, every count at most its chances, chances at most the hands, every rate
    between 0 and 100, and the winnings summing to minus the rake."""
    collection = Collection()
    rake = 0.0
    for seed in seeds:
        played, _ = _played(seed)
        assert played.result is not None
        names = [f"p{k}" for k in range(len(played.starting_stacks))]
        collection.add_hand(played, names)
        rake += played.result.rake / played.stakes.big_blind
    rows = collection.players(by_position=True)
    for row in rows:
        assert row.rates["pfr"].done <= row.rates["vpip"].done
        for key, r in row.rates.items():
            assert 0 <= r.done <= r.chances, key
            assert r.percent is None or 0 <= r.percent <= 100
        assert row.rates["vpip"].chances == row.hands - row.walks
        assert row.rates["went_to_showdown"].done <= row.rates["won_saw_flop"].chances
    assert sum(r.won for r in rows if r.position is None) == pytest.approx(-rake)
