"""A ladder: every pair of bots plays a heads-up duplicate match; a table, a ranking, a heat map.

Each pair's match is exactly ``holdem match A B --duplicate`` with the ladder's hands, stakes,
stack and seed (so any cell can be played again alone), and its chunks of hands are spread over
worker processes or a Dask cluster with `holdem.bots.parallel.ordered_map`. The ranking is an
instant runoff (the bot with the lowest mean bb/100 against those left is out, again and again);
beside each bot it says whether it beat the next one down in their own match with an interval
above zero.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import attrs

from holdem.bots import BotSpec, bot_name, load_bot
from holdem.bots.match import MatchConfig, MatchResult, _Chunk, _chunk_size, _play_chunk, _Tally
from holdem.bots.parallel import ordered_map
from holdem.errors import HoldemError
from holdem.hand.stakes import Stakes

__all__ = ["Ladder", "format_gauntlet", "format_ladder", "ladder_dict", "play_ladder", "plot_ladder"]


@attrs.frozen
class Ladder:
    """The bots' names and each pair's match (`matches[(i, j)]`, i < j, bot i seated first). In a
    gauntlet the last `gauntlet` names are the opponents, and each bot before them plays only them."""

    names: tuple[str, ...]
    matches: dict[tuple[int, int], MatchResult] = attrs.field(eq=False)
    hands: int
    interrupted: bool = False
    gauntlet: int = 0

    @property
    def players(self) -> range:
        """The bots ranked: all of them, or in a gauntlet those that run it."""
        return range(len(self.names) - self.gauntlet)

    @property
    def opponents(self) -> range:
        """The bots every ranked bot meets: the others, or in a gauntlet its opponents."""
        return range(len(self.names) - self.gauntlet if self.gauntlet else 0, len(self.names))

    def score(self, i: int, j: int) -> tuple[float, float, float] | None:
        """Bot i's bb/100 against bot j with its 95% interval (None when they did not play)."""
        if i == j:
            return None
        result = self.matches.get((min(i, j), max(i, j)))
        if result is None or not result.hands:
            return None
        bot = result.bots[0 if i < j else 1]
        return bot.bb_per_100, bot.ci95[0], bot.ci95[1]

    def field_mean(self, i: int, among: Sequence[int] | None = None) -> float:
        """Bot i's mean bb/100 over the opponents it played (of `among`, when given)."""
        others = range(len(self.names)) if among is None else among
        scores = [s[0] for j in others if (s := self.score(i, j)) is not None]
        return sum(scores) / len(scores) if scores else math.nan

    def ranking(self) -> list[int]:
        """The bots, best first, by instant runoff (as the Annual Computer Poker Competition ranks):
        the bot with the lowest mean against those still in is out, and the means are taken again,
        so that winning big against a weak bot does not rank a bot above those it loses to. In a
        gauntlet, by the mean against the opponents."""
        if self.gauntlet:
            return sorted(self.players, key=lambda i: (-_or_low(self.field_mean(i, self.opponents)), i))
        left, out = list(range(len(self.names))), []
        while len(left) > 1:
            means = {i: self.field_mean(i, [j for j in left if j != i]) for i in left}
            worst = min(left, key=lambda i: (_or_low(means[i]), -i))
            left.remove(worst)
            out.append(worst)
        return left + out[::-1]

    def beats(self, i: int, j: int) -> bool:
        """Whether bot i beat bot j with a 95% interval above zero."""
        score = self.score(i, j)
        return score is not None and score[1] > 0


def _or_low(value: float) -> float:
    return -math.inf if math.isnan(value) else value


def play_ladder(
    specs: Sequence[BotSpec],
    hands: int,
    *,
    stakes: Stakes | None = None,
    stack: int = 200,
    seed: int = 0,
    workers: int = 1,
    dask: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    against: Sequence[BotSpec] = (),
) -> Ladder:
    """Play every pair of `specs` for `hands` duplicate hands each, or with `against` (a gauntlet)
    each of `specs` against each of `against` alone; Ctrl-C keeps what was played."""
    if len(specs) < (1 if against else 2):
        raise HoldemError(f"a ladder needs at least 2 bots, got {len(specs)}")
    specs = [*specs, *against]
    names = _distinct_names(specs)
    for spec in specs:  # fail fast, in this process, on a bad spec
        load_bot(spec)
    stakes = stakes if stakes is not None else Stakes(1, 2)
    first = len(specs) - len(against)
    pairs = [(i, j) for i in range(first) for j in range(first, len(specs))] if against else []
    pairs = pairs or list(combinations(range(len(specs)), 2))
    configs = {
        (i, j): MatchConfig((specs[i], specs[j]), stakes=stakes, stack=stack, seed=seed, duplicate=True)
        for i, j in pairs
    }
    per_match = -(-hands // 2) * 2
    size = _chunk_size(configs[pairs[0]])
    jobs = [
        (pair, configs[pair], first, min(first + size, per_match))
        for pair in pairs
        for first in range(0, per_match, size)
    ]
    tallies = {pair: _Tally(2, 2) for pair in pairs}
    done, total, interrupted = 0, per_match * len(pairs), False
    results = ordered_map(_play_job, jobs, workers=workers, dask=dask)
    try:
        for (pair, _, first, stop), chunk in zip(jobs, results, strict=False):
            tallies[pair].add(chunk)
            done += stop - first
            if progress is not None:
                progress(done, total)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        results.close()
    matches = {pair: tallies[pair].result(configs[pair], interrupted) for pair in pairs}
    return Ladder(names, matches, per_match, interrupted, len(against))


def _play_job(job: tuple[tuple[int, int], MatchConfig, int, int]) -> _Chunk:
    _, config, first, stop = job
    return _play_chunk(config, first, stop, False)


def _distinct_names(specs: Sequence[BotSpec]) -> tuple[str, ...]:
    names = [bot_name(spec) for spec in specs]
    seen = {name for name in names if names.count(name) > 1}
    if seen:
        raise HoldemError(f"a ladder plays each bot once; {sorted(seen)[0]!r} is named twice")
    return tuple(names)


def _cell(score: tuple[float, float, float] | None, width: int, diagonal: bool = False) -> str:
    """A cell of the table: "·" on the diagonal, "not played" where an interrupted ladder never got to
    the pair, else the mean with its mark."""
    if score is None:
        return f"{'·' if diagonal else 'n/p':>{width}}"
    mean, low, high = score
    mark = "+" if low > 0 else "-" if high < 0 else " "
    return f"{mean:>{width - 1}.0f}{mark}"


def format_ladder(ladder: Ladder, *, seed: int, stack: int, blinds: tuple[int, int]) -> str:
    """The table of bb/100 (row against column; + or - where the interval excludes zero), then the
    ranking with each bot's mean and whether it beat the next one down (a gauntlet: `format_gauntlet`)."""
    if ladder.gauntlet:
        return format_gauntlet(ladder, seed=seed, stack=stack, blinds=blinds)
    names, order = ladder.names, ladder.ranking()
    small, big = blinds
    lines = [
        f"ladder of {len(names)} bots: {ladder.hands:,} duplicate hands a pair, blinds {small}/{big},"
        f" stacks {stack}, seed {seed}" + (" (interrupted: the hands played so far)" * ladder.interrupted),
        "bb/100 won by the row's bot against the column's (+/-: 95% interval above/below zero)",
        "",
    ]
    label = max(len(name) for name in names)
    width = max(8, *(min(len(name), 12) + 1 for name in names))
    lines.append(" " * label + "".join(f"{names[j][:12]:>{width}}" for j in order))
    for i in order:
        lines.append(
            f"{names[i]:<{label}}" + "".join(_cell(ladder.score(i, j), width, i == j) for j in order)
        )
    if any(ladder.score(i, j) is None for i in order for j in order if i != j):
        lines.append("(n/p: not played; the ladder was interrupted before that pair's hands)")
    lines += ["", "ranking (instant runoff; mean bb/100 against the field; the match with the next down):"]
    for place, i in enumerate(order, 1):
        mean = ladder.field_mean(i)
        line = f"{place:>2}. {names[i]:<{label}} " + (
            f"{mean:>9.1f}" if not math.isnan(mean) else "not played"
        )
        if place < len(order):
            j = order[place]
            score = ladder.score(i, j)
            if score is not None:
                verdict = "beats" if score[1] > 0 else "loses to" if score[2] < 0 else "not separated from"
                line += f"   {verdict} {names[j]} ({score[0]:+.0f} [{score[1]:+.0f}, {score[2]:+.0f}])"
        lines.append(line)
    return "\n".join(lines)


def format_gauntlet(ladder: Ladder, *, seed: int, stack: int, blinds: tuple[int, int]) -> str:
    """A gauntlet's table: each bot (a row, best first by its mean) against each opponent (a column),
    bb/100 with its 95% interval, and the mean."""
    names, small, big = ladder.names, *blinds
    rows, columns = ladder.ranking(), list(ladder.opponents)
    cells = {(i, j): _interval(ladder.score(i, j)) for i in rows for j in columns}
    label = max(len(names[i]) for i in rows)
    width = max(len(cell) for cell in cells.values()) + 2
    width = max(width, *(min(len(names[j]), 16) + 2 for j in columns))
    lines = [
        f"gauntlet of {len(rows)} bots against {len(columns)}: {ladder.hands:,} duplicate hands a pair,"
        f" blinds {small}/{big}, stacks {stack}, seed {seed}"
        + (" (interrupted: the hands played so far)" * ladder.interrupted),
        "bb/100 won by the row's bot against the column's, with its 95% interval",
        "",
        " " * label + "".join(f"{names[j][:16]:>{width}}" for j in columns) + f"{'mean':>8}",
    ]
    for i in rows:
        mean = ladder.field_mean(i, columns)
        line = f"{names[i]:<{label}}" + "".join(f"{cells[i, j]:>{width}}" for j in columns)
        lines.append(line + (f"{mean:>8.0f}" if not math.isnan(mean) else f"{'n/p':>8}"))
    return "\n".join(lines)


def _interval(score: tuple[float, float, float] | None) -> str:
    if score is None:
        return "n/p"
    mean, low, high = score
    return f"{mean:+.0f} [{low:+.0f}, {high:+.0f}]"


def ladder_dict(ladder: Ladder, *, seed: int, stack: int, blinds: tuple[int, int]) -> dict[str, Any]:
    """The ladder as JSON-ready data: every pair's result and the ranking."""
    names = ladder.names
    return {
        "bots": list(names),
        "hands_per_pair": ladder.hands,
        "duplicate": True,
        "seed": seed,
        "stack": stack,
        "blinds": list(blinds),
        "interrupted": ladder.interrupted,
        "against": [names[j] for j in ladder.opponents] if ladder.gauntlet else None,
        "pairs": [
            {
                "bot": names[i],
                "against": names[j],
                "bb_per_100": s[0],
                "ci95": [s[1], s[2]],
                "hands": ladder.matches[(min(i, j), max(i, j))].hands,
            }
            for i in range(len(names))
            for j in range(len(names))
            if (s := ladder.score(i, j)) is not None
        ],
        "ranking": [
            {"bot": names[i], "mean_bb_per_100": None if math.isnan(mean := ladder.field_mean(i)) else mean}
            for i in ladder.ranking()
        ],  # None (null): a bot an interrupted ladder never got to play
    }


def plot_ladder(ladder: Ladder, path: Path) -> None:
    """Save the table as a heat map PNG (needs matplotlib): green wins, red losses, a dot where the
    interval excludes zero."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order, names = ladder.ranking(), ladder.names
    columns = list(ladder.opponents) if ladder.gauntlet else order
    grid = [[(s[0] if (s := ladder.score(i, j)) is not None else math.nan) for j in columns] for i in order]
    limit = max((abs(v) for row in grid for v in row if not math.isnan(v)), default=1.0) or 1.0
    size = 1.2 + 0.8 * len(order)
    fig, ax = plt.subplots(figsize=(max(6.5, 2.7 + 0.8 * len(columns)), size))
    image = ax.imshow(grid, cmap="RdYlGn", vmin=-limit, vmax=limit)
    ax.set_xticks(range(len(columns)), [names[j] for j in columns], rotation=45, ha="right")
    ax.set_yticks(range(len(order)), [names[i] for i in order])
    for r, i in enumerate(order):
        for c, j in enumerate(columns):
            score = ladder.score(i, j)
            if score is not None:
                star = "•" if score[1] > 0 or score[2] < 0 else ""
                ax.text(c, r, f"{score[0]:.0f}{star}", ha="center", va="center", fontsize=8, color="black")
    fig.colorbar(image, ax=ax, label="bb/100, row against column")
    kind = "Gauntlet" if ladder.gauntlet else "Ladder"
    ax.set_title(f"{kind}: {ladder.hands:,} duplicate hands a pair (•: 95% interval clear of zero)")
    fig.tight_layout()
    fig.savefig(str(path), format="png")
    plt.close(fig)
