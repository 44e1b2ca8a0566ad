"""Counts turned into what a player reads: rates with their chances, aggression, winnings; as a
table for the terminal and as JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from holdem.hand.positions import position_names
from holdem.stats.tally import AGG, CALLS, FOLDS, HANDS, SD_HANDS, STATISTICS, WALKS, Counts

__all__ = ["PlayerStats", "Rate", "format_table", "player_stats"]

_POSITION_ORDER = {name: k for k, name in enumerate(("SB", "BB", *position_names(10)[2:]))}


@attrs.frozen
class Rate:
    """`done` out of `chances`."""

    done: int
    chances: int

    @property
    def percent(self) -> float | None:
        """The rate in percent (None with no chance)."""
        return 100 * self.done / self.chances if self.chances else None

    def to_dict(self) -> dict[str, Any]:
        return {"done": self.done, "chances": self.chances, "percent": _rounded(self.percent)}


@attrs.frozen
class PlayerStats:
    """One player's statistics, over all positions (`position` None) or one."""

    player: str
    position: str | None
    hands: int
    walks: int
    rates: Mapping[str, Rate]
    """By `Statistic.key`, in `STATISTICS` order."""
    bets_raises: int
    calls: int
    folds: int
    won: float
    """Big blinds won in all (each hand in its own big blind)."""
    won_at_showdown: float
    showdowns: int
    adjusted: float | None
    """All-in adjusted big blinds won (`holdem.bots.luck`), when counted."""
    versus: Mapping[str, Mapping[str, Rate]] = attrs.field(factory=dict)
    """``three_bet`` by the opener's position, ``fold_to_steal`` by the stealer's: position -> rate."""

    @property
    def aggression_factor(self) -> float | None:
        """Bets and raises per call after the flop (None with no call)."""
        return self.bets_raises / self.calls if self.calls else None

    @property
    def aggression_frequency(self) -> float | None:
        """Bets and raises in percent of the actions after the flop other than checks."""
        acts = self.bets_raises + self.calls + self.folds
        return 100 * self.bets_raises / acts if acts else None

    @property
    def bb_per_100(self) -> float | None:
        """Big blinds won per 100 hands."""
        return 100 * self.won / self.hands if self.hands else None

    @property
    def adjusted_bb_per_100(self) -> float | None:
        """All-in adjusted big blinds won per 100 hands, when counted."""
        return None if self.adjusted is None or not self.hands else 100 * self.adjusted / self.hands

    def to_dict(self) -> dict[str, Any]:
        """As JSON: every count, rate and result."""
        return {
            "player": self.player,
            "position": self.position,
            "hands": self.hands,
            "walks": self.walks,
            **{key: rate.to_dict() for key, rate in self.rates.items()},
            "aggression": {
                "bets_raises": self.bets_raises, "calls": self.calls, "folds": self.folds,
                "factor": _rounded(self.aggression_factor), "frequency": _rounded(self.aggression_frequency),
            },
            "won_bb": _rounded(self.won),
            "bb_per_100": _rounded(self.bb_per_100),
            "showdown_won_bb": _rounded(self.won_at_showdown),
            "non_showdown_won_bb": _rounded(self.won - self.won_at_showdown),
            "all_in_adjusted_bb_per_100": _rounded(self.adjusted_bb_per_100),
            "versus": {key: {pos: r.to_dict() for pos, r in by.items()} for key, by in self.versus.items()},
        }  # fmt: skip


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def player_stats(
    counts: Mapping[tuple[str, str], Counts],
    *,
    by_position: bool = False,
    min_hands: int = 0,
    adjusted: bool = False,
) -> list[PlayerStats]:
    """Each player's statistics from `counts` kept per (player, position), most hands first, each
    followed by its positions when `by_position`; players with fewer than `min_hands` left out."""
    players: dict[str, Counts] = {}
    for (name, _), row in counts.items():
        players.setdefault(name, Counts()).merge(row)
    out = []
    for name, row in sorted(players.items(), key=lambda kv: (-kv[1].ints[HANDS], kv[0])):
        if row.ints[HANDS] < min_hands:
            continue
        out.append(_stats(name, None, row, adjusted))
        if by_position:
            mine = sorted(
                (pos for who, pos in counts if who == name), key=lambda p: _POSITION_ORDER.get(p, 99)
            )
            out.extend(_stats(name, pos, counts[name, pos], adjusted) for pos in mine)
    return out


def _stats(name: str, position: str | None, row: Counts, adjusted: bool) -> PlayerStats:
    c = row.ints
    rates = {}
    for stat in STATISTICS:
        chances = row[stat.chances] - (c[WALKS] if stat.chances == "hands" else 0)
        rates[stat.key] = Rate(row[stat.done], chances)
    versus: dict[str, dict[str, Rate]] = {key: {} for key in _VERSUS}
    for (key, pos), (chances, done) in sorted(
        row.versus.items(), key=lambda kv: _POSITION_ORDER.get(kv[0][1], 99)
    ):
        versus[key][pos] = Rate(done, chances)
    return PlayerStats(
        name, position, c[HANDS], c[WALKS], rates, c[AGG], c[CALLS], c[FOLDS], row.won, row.won_at_showdown,
        c[SD_HANDS], row.adjusted if adjusted else None, versus,
    )  # fmt: skip


_VERSUS = {"three_bet": "3B", "fold_to_steal": "FSt"}
"""The statistics counted by the raiser's position, and their labels."""


def format_versus(rows: list[PlayerStats]) -> str:
    """The 3-bet by the opener's position and the fold to a steal by the stealer's: a line per
    player and statistic, a column per position (in seat order, the blinds last)."""
    order = {**_POSITION_ORDER, "SB": 98, "BB": 99}  # the opener's seat order: UTG first, the blinds last
    positions = sorted({pos for r in rows for by in r.versus.values() for pos in by}, key=order.__getitem__)
    cells = [
        [_percent(r.versus[key].get(pos, Rate(0, 0))) for pos in positions] for r in rows for key in _VERSUS
    ]
    names = [f"{r.player} {label}" for r in rows for label in _VERSUS.values()]
    return _grid(names, [f"v {pos}" for pos in positions], cells)


def _percent(rate: Rate) -> str:
    value = rate.percent
    return "-" if value is None else f"{value:.1f}"


def _number(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


_PREFLOP = ("vpip", "pfr", "three_bet", "fold_to_three_bet", "four_bet", "steal", "fold_to_steal")
_POSTFLOP = (
    "flop_cbet",
    "turn_cbet",
    "fold_to_flop_cbet",
    "fold_to_turn_cbet",
    "fold_to_river_bet",
    "check_raise",
)
_SHOWDOWN = ("went_to_showdown", "won_at_showdown", "won_saw_flop")
_LABELS = {stat.key: stat.label for stat in STATISTICS}


def format_table(rows: list[PlayerStats]) -> str:
    """Two tables that fit 80 columns: before the flop with the winnings, then after the flop."""
    adjusted = any(r.adjusted is not None for r in rows)
    head = ["hands", *(_LABELS[k] for k in _PREFLOP), "bb/100", *(["adj"] if adjusted else [])]
    first = [
        [f"{r.hands:,}", *(_percent(r.rates[k]) for k in _PREFLOP), _number(r.bb_per_100),
         *([_number(r.adjusted_bb_per_100)] if adjusted else [])]
        for r in rows
    ]  # fmt: skip
    head2 = [*(_LABELS[k] for k in _POSTFLOP), "AF", "AFq", *(_LABELS[k] for k in _SHOWDOWN)]
    second = [
        [*(_percent(r.rates[k]) for k in _POSTFLOP), _number(r.aggression_factor, 2),
         _number(r.aggression_frequency), *(_percent(r.rates[k]) for k in _SHOWDOWN)]
        for r in rows
    ]  # fmt: skip
    names = [_name(r) for r in rows]
    return _grid(names, head, first) + "\n\n" + _grid(names, head2, second)


def _name(row: PlayerStats) -> str:
    return row.player if row.position is None else f"  {row.position}"


def _grid(names: list[str], head: list[str], cells: list[list[str]]) -> str:
    """Rows of cells under `head`, each column right-aligned, one space or more apart."""
    name_width = max([6, *map(len, names)])
    widths = [max(5, len(h), *(len(row[k]) for row in cells)) + 1 for k, h in enumerate(head)]
    lines = [f"{'player':<{name_width}}" + "".join(f"{h:>{w}}" for h, w in zip(head, widths, strict=True))]
    for name, row in zip(names, cells, strict=True):
        lines.append(f"{name:<{name_width}}" + "".join(f"{c:>{w}}" for c, w in zip(row, widths, strict=True)))
    return "\n".join(lines)
