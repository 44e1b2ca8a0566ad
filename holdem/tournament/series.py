"""Many tournaments of one configuration, in one or many processes, summed up per bot.

Run r is seeded by (seed, r) alone, so the results are the same whatever the number of workers.
Per bot: entries, mean place, in-the-money share, return on investment with a 95% interval (over
entries), and the finish distribution.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import attrs

from holdem.bots import bot_name
from holdem.bots.confidence import mean_ci
from holdem.bots.parallel import hand_over, ordered_map, report
from holdem.console.arguments import counted
from holdem.errors import InvalidConfigError
from holdem.tournament.history import run_history
from holdem.tournament.run import HandPlayed, TournamentConfig, TournamentRun, play_tournament

__all__ = ["BotSummary", "TournamentSeries", "as_dict", "format_series", "run_tournaments"]


@attrs.frozen
class BotSummary:
    """One bot over every run: `places[k]` counts its finishes in place k + 1 (ties at their best place)."""

    name: str
    entries: int
    mean_place: float
    itm: float
    roi: float
    roi_ci95: tuple[float, float]
    places: tuple[int, ...]
    faults: int = 0
    """Answers replaced and hooks that failed, over every entry (`holdem.bots.decide`)."""


@attrs.frozen
class TournamentSeries:
    """The configuration, every run, and each bot's summary; `interrupted` when Ctrl-C stopped the
    series, which then holds the runs finished before it."""

    config: TournamentConfig
    runs: tuple[TournamentRun, ...]
    bots: tuple[BotSummary, ...]
    interrupted: bool = False


CHUNK = 32
"""The most tournaments a job of worker processes plays (each finished one is handed over at once)."""
DASK_CHUNK = 128
"""The most a job on Dask plays. Each job's result is fetched from its worker by the client, through
the scheduler: at 32 a job, the client and the scheduler (in the command's own process, beside two
workers on two cores) used 3.3 s of CPU in a 14 s series of 20,000 SNGs, and the series ran 1.2x
slower than on `--workers 2`; at 128, 1.04x (scripts/bench_tournament.py). The runs are seeded by
their number, so the results do not depend on it; finished runs are handed over as events every
quarter of a second, so an interruption loses no more."""


def run_tournaments(
    config: TournamentConfig,
    runs: int,
    *,
    workers: int = 1,
    dask: str | None = None,
    history: Callable[[int, str], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentSeries:
    """Play runs 0..runs-1 of `config` and sum them up: here, in `workers` processes, or on Dask
    (`dask="local"` or a scheduler's address). `history(run, text)`, if given, receives each run's
    hands as .phhs text, in run order."""
    if type(runs) is not int or runs < 1:
        raise InvalidConfigError(f"runs must be a positive whole number, got {runs!r}")
    if type(workers) is not int or workers < 1:
        raise InvalidConfigError(f"workers must be a positive whole number, got {workers!r}")
    # Short tournaments go several at a time to a worker (fewer round trips), but never so many that
    # an interruption loses much: in this process they go one at a time.
    size = (
        1
        if workers == 1 and dask is None
        else max(1, min(runs // (8 * workers), CHUNK if dask is None else DASK_CHUNK))
    )
    chunks = [range(first, min(runs, first + size)) for first in range(0, runs, size)]
    job = functools.partial(_play_runs, config, history is not None, progress is not None)
    # Each run a worker process finishes is handed over at once (`hand_over`), so that Ctrl-C keeps
    # every finished run, whatever chunk it was in; the others come with their chunk's result.
    finished: dict[int, tuple[TournamentRun, str | None]] = {}
    interrupted = False
    # Progress in eliminations (entrants - 1 a tournament), as the workers report them: a series of
    # a few big tournaments moves from its first minute. A chunk's finish counts it whole (a report
    # that arrives later is left out).
    busts, each = [0] * len(chunks), config.entrants - 1

    def heard(k: int, n: int) -> None:
        if busts[k] < len(chunks[k]) * each:
            busts[k] = min(busts[k] + n, len(chunks[k]) * each)
            progress(sum(busts), runs * each)  # type: ignore[misc]  # set when reports are asked for

    def took(k: int, part: tuple[TournamentRun, str | None]) -> None:
        finished[part[0].run] = part

    reporter = heard if progress is not None else None
    chunk_results = ordered_map(job, chunks, workers=workers, dask=dask, on_report=reporter, on_part=took)
    written = 0  # histories are written in run order, as soon as every run before is in
    try:
        for k, results in enumerate(chunk_results):
            finished.update((run.run, (run, text)) for run, text in results)
            written = _write(history, finished, written, chunks[k].stop)
            busts[k] = len(chunks[k]) * each
            if progress:
                progress(sum(busts), runs * each)
    except KeyboardInterrupt:
        interrupted = True  # Ctrl-C: the runs finished so far are the result, gaps and all
    finally:
        chunk_results.close()
    _write(history, finished, written, runs)
    played = [finished[r][0] for r in sorted(finished)]
    return TournamentSeries(config, tuple(played), _summaries(config, played), interrupted)


def _write(
    history: Callable[[int, str], None] | None,
    finished: dict[int, tuple[TournamentRun, str | None]],
    start: int,
    stop: int,
) -> int:
    """Hand `history` the texts of the finished runs from `start` up to `stop`; where it got to."""
    for r in range(start, stop):
        run_text = finished.get(r)
        if run_text is not None and history is not None and run_text[1] is not None:
            history(r, run_text[1])
    return stop


def _play_runs(
    config: TournamentConfig, with_history: bool, reporting: bool, runs: range
) -> list[tuple[TournamentRun, str | None]]:
    """Play `runs` (in a worker), each with its hands as .phhs text when asked for; `reporting`:
    each hand's eliminations are reported (`holdem.bots.parallel.report`). Each run is handed over
    as it finishes where the caller listens from another process; the rest are the result."""
    hook = _report_busts if reporting else None
    kept: list[tuple[TournamentRun, str | None]] = []
    for r in runs:
        played = (
            run_history(config, r, on_hand=hook)
            if with_history
            else (play_tournament(config, r, on_hand=hook), None)
        )
        if not hand_over(played):
            kept.append(played)
    return kept


def _report_busts(played: HandPlayed) -> None:
    """The players a finished hand knocked out (no chips left), reported to the series."""
    result = played.hand.result
    assert result is not None  # the hand is finished
    out = sum(1 for chips in result.final_stacks if chips == 0)
    if out:
        report(out)


def _summaries(config: TournamentConfig, runs: list[TournamentRun]) -> tuple[BotSummary, ...]:
    names = list(dict.fromkeys(bot_name(spec) for spec in config.bots))
    summaries = []
    for name in names:
        finishes = [f for run in runs for f in run.finishes if f.bot == name]
        if not finishes:
            continue  # interrupted before any run finished
        places = [0] * config.entrants
        for f in finishes:
            places[f.place - 1] += 1
        buy_in = config.buy_in
        rois = [(f.prize - buy_in) / buy_in for f in finishes] if buy_in else [0.0 for _ in finishes]
        roi, low, high = mean_ci(rois)
        summaries.append(
            BotSummary(
                name=name,
                entries=len(finishes),
                mean_place=sum(f.place for f in finishes) / len(finishes),
                itm=sum(1 for f in finishes if f.prize > 0) / len(finishes),
                roi=roi,
                roi_ci95=(low, high),
                places=tuple(places),
                faults=sum(f.faults for f in finishes),
            )
        )
    return tuple(summaries)


def as_dict(series: TournamentSeries) -> dict[str, Any]:
    """The series as JSON-ready data (what ``holdem tournament --json`` prints)."""
    config = series.config
    return {
        "entrants": config.entrants,
        "table_size": config.table_size,
        "runs": len(series.runs),
        "interrupted": series.interrupted,
        "seed": config.seed,
        "buy_in": config.buy_in,
        "prize_pool": config.buy_in * config.entrants,
        "structure": config.structure.to_dict(),
        "prizes": list(series.runs[0].prizes),
        "bots": [
            {
                "name": b.name,
                "entries": b.entries,
                "mean_place": b.mean_place,
                "itm": b.itm,
                "roi": b.roi,
                "roi_ci95": list(b.roi_ci95),
                "places": list(b.places),
                "faults": b.faults,
            }
            for b in series.bots
        ],
        "results": [
            {
                "run": run.run,
                "hands": run.hands,
                "minutes": run.minutes,
                "places": [
                    {
                        "entrant": f.entrant,
                        "bot": f.bot,
                        "place": f.place,
                        "prize": f.prize,
                        "hands": f.hands,
                        "faults": f.faults,
                    }
                    for f in run.finishes
                ],
            }
            for run in series.runs
        ],
    }


def format_series(series: TournamentSeries) -> str:
    """A readable table: one row per bot."""
    config = series.config
    lines = [
        f"{counted(len(series.runs), 'tournament')} of {config.entrants} entrants, {config.table_size}-max, "
        f"structure {config.structure.name}, buy-in {config.buy_in}, prizes {list(series.runs[0].prizes)}, "
        f"seed {config.seed}"
    ]
    width = max(12, *(len(b.name) for b in series.bots))
    lines.append(f"{'bot':<{width}} {'entries':>8} {'mean place':>10} {'ITM':>6} {'ROI':>8}  95% interval")
    for b in series.bots:
        low, high = b.roi_ci95
        lines.append(
            f"{b.name:<{width}} {b.entries:>8,} {b.mean_place:>10.2f} {b.itm:>6.1%} {b.roi:>+8.1%}  "
            f"[{low:+.1%}, {high:+.1%}]"
        )
    lines.append(
        "mean place: players out in the same hand with equal stacks share the better place (rule 28)"
    )
    faulty = [f"{b.name} {b.faults:,}" for b in series.bots if b.faults]
    if faulty:
        lines.append(f"faults (answers replaced by check or fold, hooks that failed): {', '.join(faulty)}")
    if series.interrupted:
        lines.append("(interrupted: the results of the tournaments finished so far)")
    return "\n".join(lines)
