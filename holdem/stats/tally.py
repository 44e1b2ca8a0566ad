"""Counting hands into player statistics: each statistic is a count of chances and a count of
times taken, as PokerTracker 4 counts them (`holdem docs stats` defines each one).

`tally` adds one hand's facts to running counts kept per player and position; `Stat` rows are
read from those counts. One hand adds at most one chance per player to each statistic, except
the check-raise (one per street) and the aggression counts (one per action).
"""

from __future__ import annotations

from typing import NamedTuple

import attrs

from holdem.hand.actions import ActionKind
from holdem.hand.voluntary import entered
from holdem.stats.facts import CALL, CHECK, FOLD, NO_RAISE, RAISE, HandFacts

__all__ = ["COUNTS", "STATISTICS", "Counts", "Statistic", "tally"]

COUNTS = (
    "hands", "walks", "vpip", "pfr", "three_bet_chances", "three_bets", "fold_to_three_bet_chances",
    "folds_to_three_bet", "four_bet_chances", "four_bets", "steal_chances", "steals", "fold_to_steal_chances",
    "folds_to_steal", "flop_cbet_chances", "flop_cbets", "turn_cbet_chances", "turn_cbets",
    "fold_to_flop_cbet_chances", "folds_to_flop_cbet", "fold_to_turn_cbet_chances", "folds_to_turn_cbet",
    "check_raise_chances", "check_raises", "bets_raises", "calls", "folds", "saw_flop", "showdowns",
    "won_at_showdown", "won_saw_flop", "showdown_hands", "fold_to_river_bet_chances", "folds_to_river_bet",
)  # fmt: skip
"""The whole-number counts kept for each player (and position), in the order `Counts.ints` holds them."""

(HANDS, WALKS, VPIP, PFR, TB_CH, TB, FTB_CH, FTB, FB_CH, FB, ST_CH, ST, FST_CH, FST, CBF_CH, CBF, CBT_CH, CBT,
 FCBF_CH, FCBF, FCBT_CH, FCBT, XR_CH, XR, AGG, CALLS, FOLDS, SAW_FLOP, WTSD, WSD, WWSF,
 SD_HANDS, FRB_CH, FRB) = range(len(COUNTS))  # fmt: skip
_STEALERS = frozenset({"CO", "BTN", "SB"})
_BLINDS = frozenset({"SB", "BB"})


@attrs.define
class Counts:
    """Running counts for one player (or one player in one position): the whole-number counts of
    `COUNTS`, and the big blinds won in all, at showdown, and all-in adjusted."""

    ints: list[int] = attrs.field(factory=lambda: [0] * len(COUNTS))
    won: float = 0.0
    won_at_showdown: float = 0.0
    adjusted: float = 0.0
    versus: dict[tuple[str, str], list[int]] = attrs.field(factory=dict)
    """(statistic, the raiser's position) -> [chances, done]: the 3-bet by the opener's position, the
    fold to a steal by the stealer's."""

    def __getitem__(self, name: str) -> int:
        return self.ints[COUNTS.index(name)]

    def merge(self, other: Counts) -> None:
        """Add `other`'s counts to these."""
        self.ints = [a + b for a, b in zip(self.ints, other.ints, strict=True)]
        self.won += other.won
        self.won_at_showdown += other.won_at_showdown
        self.adjusted += other.adjusted
        for key, (chances, done) in other.versus.items():
            mine = self.versus.setdefault(key, [0, 0])
            mine[0] += chances
            mine[1] += done

    def against(self, statistic: str, position: str, taken: bool) -> None:
        """One chance of `statistic` against a raise from `position`, taken or not."""
        mine = self.versus.setdefault((statistic, position), [0, 0])
        mine[0] += 1
        mine[1] += taken


@attrs.frozen
class Statistic:
    """A rate: `done` out of `chances` (names in `COUNTS`), in percent; `chance` and `action` say
    in words what counts, as `holdem docs stats` prints them."""

    key: str
    label: str
    chances: str
    done: str
    chance: str
    action: str


STATISTICS = (
    Statistic("vpip", "VPIP", "hands", "vpip", "every hand but a walk",
              "called or raised before the flop (posting a blind or straddle is not voluntary)"),
    Statistic("pfr", "PFR", "hands", "pfr", "every hand but a walk", "raised before the flop"),
    Statistic("three_bet", "3B", "three_bet_chances", "three_bets", "acted before the flop facing one raise",
              "re-raised"),
    Statistic("fold_to_three_bet", "F3B", "fold_to_three_bet_chances", "folds_to_three_bet",
              "made the first raise before the flop and faced a re-raise", "folded to it"),
    Statistic("four_bet", "4B", "four_bet_chances", "four_bets", "acted before the flop facing a re-raise",
              "raised again"),
    Statistic("steal", "Steal", "steal_chances", "steals",
              "in the cut-off, on the button or in the small blind, with every player before folded",
              "raised"),
    Statistic("fold_to_steal", "FSt", "fold_to_steal_chances", "folds_to_steal",
              "in a blind, facing a steal that nobody else has called or raised", "folded"),
    Statistic("flop_cbet", "CBf", "flop_cbet_chances", "flop_cbets",
              "made the last raise before the flop, and nobody bet the flop before them", "bet the flop"),
    Statistic("turn_cbet", "CBt", "turn_cbet_chances", "turn_cbets",
              "bet the flop as its continuation bet, and nobody bet the turn before them", "bet the turn"),
    Statistic("fold_to_flop_cbet", "FCBf", "fold_to_flop_cbet_chances", "folds_to_flop_cbet",
              "faced a continuation bet on the flop that nobody had raised", "folded"),
    Statistic("fold_to_turn_cbet", "FCBt", "fold_to_turn_cbet_chances", "folds_to_turn_cbet",
              "faced a continuation bet on the turn that nobody had raised", "folded"),
    Statistic("fold_to_river_bet", "FRB", "fold_to_river_bet_chances", "folds_to_river_bet",
              "faced a bet on the river that nobody had raised", "folded"),
    Statistic("check_raise", "XR", "check_raise_chances", "check_raises",
              "checked on the flop, turn or river, then faced a bet on that street (one per street)",
              "raised"),
    Statistic("went_to_showdown", "WTSD", "saw_flop", "showdowns", "saw the flop",
              "was still in the hand at its showdown"),
    Statistic("won_at_showdown", "W$SD", "showdowns", "won_at_showdown", "went to showdown after the flop",
              "took chips from a pot"),
    Statistic("won_saw_flop", "WWSF", "saw_flop", "won_saw_flop", "saw the flop",
              "took chips from a pot, at showdown or not"),
)  # fmt: skip
"""Every rate `holdem stats` reports, in its column order."""


def tally(facts: HandFacts, into: dict[tuple[str, str], Counts]) -> None:
    """Add one hand's `facts` to the counts `into`, kept per (player name, position)."""
    rows = [into.setdefault(key, Counts()) for key in zip(facts.names, facts.positions, strict=True)]
    counts = [row.ints for row in rows]
    raiser = _preflop(facts, counts, rows)
    live = _postflop(facts, counts, raiser)
    showdown = len(live) > 1
    seen = _seen_flop(facts) if facts.streets else set()
    for p, c in enumerate(counts):
        won = facts.net[p] / facts.big_blind
        row = rows[p]
        row.won += won
        row.adjusted += won if facts.adjusted is None else facts.adjusted[p] / facts.big_blind
        c[HANDS] += 1
        if showdown and p in live:
            c[SD_HANDS] += 1
            row.won_at_showdown += won
        if p in seen:
            c[SAW_FLOP] += 1
            c[WWSF] += facts.won[p]
            if showdown and p in live:
                c[WTSD] += 1
                c[WSD] += facts.won[p]


def _seen_flop(facts: HandFacts) -> set[int]:
    """Players who had not folded when the flop came."""
    out = {k for k in range(len(facts.names))}
    for street, p, kind in facts.actions:
        if street:
            break
        if kind & 3 == FOLD:
            out.discard(p)
    return out


def _preflop(facts: HandFacts, c: list[list[int]], rows: list[Counts]) -> int:
    """Count the chances and actions before the flop (the 3-bet and the fold to a steal also by
    the raiser's position); the player who made its last raise (-1: none)."""
    raises, opener, last, stealer = 0, -1, -1, -1
    somebody_in = False  # somebody called or raised
    for street, p, code in facts.actions:
        if street:
            break
        position, kind, may = facts.positions[p], code & 3, code < NO_RAISE
        if raises == 0 and not somebody_in and position in _STEALERS and may:
            c[p][ST_CH] += 1
            c[p][ST] += kind == RAISE
        elif raises == 1 and stealer >= 0 and p != stealer and position in _BLINDS:
            c[p][FST_CH] += 1
            c[p][FST] += kind == FOLD
            rows[p].against("fold_to_steal", facts.positions[stealer], kind == FOLD)
        if raises == 1 and p != opener and may:
            c[p][TB_CH] += 1
            c[p][TB] += kind == RAISE
            rows[p].against("three_bet", facts.positions[opener], kind == RAISE)
        elif raises == 2 and p == opener:
            c[p][FTB_CH] += 1
            c[p][FTB] += kind == FOLD
        if raises == 2 and p != last and may:
            c[p][FB_CH] += 1
            c[p][FB] += kind == RAISE
        if kind == RAISE:
            raises += 1
            stealer = p if raises == 1 and not somebody_in and position in _STEALERS else -1
            opener, last = (p if raises == 1 else opener), p
        elif kind == CALL:
            stealer = -1
        if kind in (CALL, RAISE):
            somebody_in = True
    _voluntary(facts, c)
    return last


class _Kind(NamedTuple):
    kind: ActionKind


_KINDS = tuple(_Kind(k) for k in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.RAISE))
"""The kind of each action code (`code & 3`: FOLD, CHECK, CALL, RAISE), as `entered` reads it."""


def _voluntary(facts: HandFacts, c: list[list[int]]) -> None:
    """VPIP and PFR as `holdem.hand.voluntary` defines them; a walk is nobody's chance."""
    preflop = ((p, _KINDS[code & 3]) for street, p, code in facts.actions if not street)
    vpip, pfr, walk = entered(preflop, len(facts.names), facts.streets > 0)
    for p in range(len(facts.names)):
        if p == walk:
            c[p][WALKS] += 1
            continue
        c[p][VPIP] += p in vpip
        c[p][PFR] += p in pfr


def _postflop(facts: HandFacts, c: list[list[int]], raiser: int) -> set[int]:
    """Count the chances and actions after the flop; the players left at the end."""
    live = set(range(len(facts.names)))
    checked: set[int] = set()  # who checked on this street
    street, bets, cbettor, flop_cbettor, bettor = -1, 0, -1, -1, -1
    for s, p, code in facts.actions:
        kind = code & 3
        if kind == FOLD:
            live.discard(p)
        if not s:
            continue
        if s != street:
            street, bets, cbettor, checked = s, 0, -1, set()
        if bets == 0 and s <= 2 and p == (raiser if s == 1 else flop_cbettor) and p >= 0:
            index = CBF_CH if s == 1 else CBT_CH
            c[p][index] += 1
            c[p][index + 1] += kind == RAISE
            if kind == RAISE:
                cbettor = p
                flop_cbettor = p if s == 1 else flop_cbettor
        elif bets == 1 and cbettor >= 0 and p != cbettor:
            index = FCBF_CH if s == 1 else FCBT_CH
            c[p][index] += 1
            c[p][index + 1] += kind == FOLD
        if s == 3 and bets == 1 and p != bettor:  # the river's bet, not raised
            c[p][FRB_CH] += 1
            c[p][FRB] += kind == FOLD
        if bets and p in checked and code < NO_RAISE:
            checked.discard(p)
            c[p][XR_CH] += 1
            c[p][XR] += kind == RAISE
        if kind == CHECK:
            checked.add(p)
        elif kind == RAISE:
            bets, bettor = bets + 1, p if bets == 0 else bettor
            c[p][AGG] += 1
        elif kind == CALL:
            c[p][CALLS] += 1
        else:
            c[p][FOLDS] += 1
    return live
