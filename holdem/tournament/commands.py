"""``holdem icm`` and ``holdem tournament``: tournament equity, and tournaments of bots simulated."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from holdem.console.arguments import (
    SEED_HELP,
    Parser,
    add_parallel_options,
    check_plot,
    fresh_seed,
    integer,
    numbers,
    players,
    png,
    positive_int,
    subcommand,
)
from holdem.errors import HoldemError

__all__ = ["add_commands"]


def add_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``holdem icm`` and ``holdem tournament`` to the command line."""
    ic = subcommand(sub, "icm", "tournament equity of stacks for prizes (ICM)",
              "Each player's share of the prizes by the Malmuth-Harville model (rule 31): exact up to "
              "14 players with chips, sampled beyond (with a standard error).")  # fmt: skip
    ic.add_argument("--stacks", type=numbers(int), required=True, help="chips, e.g. 5000,3000,2000")
    ic.add_argument("--prizes", type=numbers(float), required=True, help="prizes by place, e.g. 50,30,20")
    ic.add_argument("--samples", type=positive_int, default=200_000, help="finishing orders when sampled")
    ic.add_argument("--seed", type=integer, default=None, help="seed when sampled (default: a fresh one)")
    ic.add_argument("--json", action="store_true", help='print {"equities", "method", "stderr"}')
    ic.set_defaults(run=_cmd_icm)

    tour = subcommand(sub, "tournament", "simulate tournaments of bots on many tables",
                "Play R tournaments of N entrants (entrant i plays BOT[i mod len(BOTs)]) on tables of K "
                "seats under a blind structure on a simulated clock, by rules 22-30 ('holdem docs "
                "rules'), and "
                "report per bot: entries, mean place, ITM, ROI with a 95% interval.")  # fmt: skip
    tour.add_argument("bots", nargs="+", help="the bots, e.g. equity random")
    tour.add_argument("--entrants", type=positive_int, default=9, help="entrants per tournament")
    tour.add_argument("--table-size", type=players, default=9, help="seats per table (2-10)")
    tour.add_argument(
        "--structure", default="turbo", help="hyper, turbo, regular, deep, or a .toml/.json file"
    )
    tour.add_argument("--runs", type=positive_int, default=10, help="tournaments to play")
    tour.add_argument("--buy-in", type=positive_int, default=100, help="buy-in of each entrant")
    add_parallel_options(tour)
    tour.add_argument("--history", type=Path, metavar="DIR", help="write run i's hands to DIR/run-NNNN.phhs")
    tour.add_argument(
        "--plot", type=png, metavar="PNG", help="save finishes and run 0's chip stacks as a PNG"
    )
    tour.add_argument("--seed", type=integer, default=None, help=SEED_HELP)
    tour.add_argument("--json", action="store_true", help="print JSON")
    tour.set_defaults(run=_cmd_tournament)


def _cmd_icm(args: argparse.Namespace) -> int:
    from holdem.console.progress import counter
    from holdem.tournament import icm

    result = icm(args.stacks, args.prizes, samples=args.samples, rng=fresh_seed(args.seed),
                 progress=counter("finishing orders", quiet=args.json))  # drawn when sampled  # fmt: skip
    if args.json:
        print(json.dumps({"equities": list(result.equities), "method": result.method,
                          "stderr": list(result.stderr)}))  # fmt: skip
        return 0
    players = sum(1 for s in args.stacks if s)
    pool = sum(args.prizes[:players])
    sampled = result.method == "sampled"
    print(f"{'player':>6}  {'stack':>10}  {'equity':>10}  {'share':>7}" + ("  ±stderr" if sampled else ""))
    for k, (stack, value, error) in enumerate(zip(args.stacks, result.equities, result.stderr, strict=True)):
        share = value / pool if pool else 0.0
        line = f"{k + 1:>6}  {stack:>10,}  {value:>10.2f}  {share:>7.2%}"
        print(line + (f"  ±{error:.2f}" if sampled else ""))
    print(f"method: {result.method}" + (f" ({args.samples:,} finishing orders)" if sampled else ""))
    if len(args.prizes) > players:
        print(f"note: {len(args.prizes)} prizes but {players} players with chips: the prizes of places "
              f"{players + 1} and beyond are not in play (those places are already decided)")  # fmt: skip
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from holdem.bots import load_bot
    from holdem.bots.parallel import require_dask
    from holdem.console.progress import close_bars, counter
    from holdem.tournament import load_structure
    from holdem.tournament.run import TournamentConfig
    from holdem.tournament.series import as_dict, format_series, run_tournaments

    # Everything that can be wrong is found before any work, so that a long series is not lost.
    if args.dask is not None:
        require_dask()
    if args.plot:
        check_plot(args.plot)
    if args.history is not None and args.history.exists() and not args.history.is_dir():
        raise HoldemError(f"--history: {str(args.history)!r} is a file, not a folder")
    for spec in args.bots:
        load_bot(spec)
    config = TournamentConfig(
        tuple(args.bots), args.entrants, load_structure(args.structure), table_size=args.table_size,
        buy_in=args.buy_in, seed=fresh_seed(args.seed),
    )  # fmt: skip
    history = None
    if args.history is not None:
        args.history.mkdir(parents=True, exist_ok=True)
        folder: Path = args.history

        def history(run: int, text: str) -> None:
            (folder / f"run-{run:04d}.phhs").write_text(text, encoding="utf-8")

    # Counted in eliminations (each tournament's entrants but the winner), reported by the workers as
    # they happen: a series of a few big tournaments is not left at 0 for its first minutes.
    progress = counter("eliminations", quiet=args.json)
    if progress is not None:
        progress(0, args.runs * (config.entrants - 1))  # the bar from the start: never silent
    series = run_tournaments(
        config, args.runs, workers=args.workers, dask=args.dask, history=history, progress=progress
    )
    close_bars()  # stopped early, the bar is left as it stands, and the results start below it
    if not series.runs:
        raise KeyboardInterrupt  # interrupted before any tournament finished: nothing to report
    if args.plot:
        from holdem.tournament.history import stack_trace
        from holdem.tournament.plot import plot_series

        plot_series(series, stack_trace(config, 0), args.plot)
    print(json.dumps(as_dict(series)) if args.json else format_series(series))
    return 130 if series.interrupted else 0
