"""``holdem ladder``: every pair of bots in a heads-up duplicate match; a table, a ranking, a heat map."""

from __future__ import annotations

import argparse
import json

from holdem.console.arguments import (
    SEED_HELP,
    Parser,
    add_parallel_options,
    blinds,
    check_plot,
    fresh_seed,
    integer,
    png,
    positive_int,
    subcommand,
)

__all__ = ["add_command"]


def add_command(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``holdem ladder`` to the command line."""
    from holdem.bots import BUILT_IN

    ladder = subcommand(sub, "ladder", "a round robin of duplicate matches between bots, ranked",
                        "Every pair of the bots plays a heads-up duplicate match (each exactly `holdem "
                        "match A B --duplicate` with the same hands, stacks, blinds and seed). Prints "
                        "bb/100 of each bot against each other with a mark where the 95% interval excludes "
                        f"zero, and a ranking. Built-in bots: {', '.join(BUILT_IN)}; or "
                        "package.module:ClassName. Ctrl-C stops early and reports the hands "
                        "played.")  # fmt: skip
    ladder.add_argument("bots", nargs="+", help="2 or more bots (1 or more with --against)")
    ladder.add_argument(
        "--against", nargs="+", metavar="BOT", default=(),
        help="a gauntlet: each of the bots plays each of these alone (e.g. the panel: tight-aggressive"
        " loose-aggressive rock maniac loose-passive calling-station), ranked by its mean against them",
    )  # fmt: skip
    ladder.add_argument("--hands", type=positive_int, default=4000, help="duplicate hands per pair")
    ladder.add_argument("--stack", type=positive_int, default=200, help="starting stack of every hand")
    ladder.add_argument("--blinds", type=blinds, default="1/2", help="small/big blinds")
    ladder.add_argument("--seed", type=integer, default=None, help=SEED_HELP)
    add_parallel_options(ladder)
    ladder.add_argument("--json", action="store_true", help="print JSON")
    ladder.add_argument(
        "--plot", type=png, metavar="PNG", help="save the table as a heat map PNG (matplotlib)"
    )
    ladder.set_defaults(run=_cmd_ladder)


def _cmd_ladder(args: argparse.Namespace) -> int:
    from holdem.bots.ladder import format_ladder, ladder_dict, play_ladder, plot_ladder
    from holdem.bots.parallel import require_dask
    from holdem.console.progress import close_bars, counter
    from holdem.hand.stakes import Stakes

    if args.plot:
        check_plot(args.plot)
    if args.dask is not None:
        require_dask()
    small, big = args.blinds
    seed = fresh_seed(args.seed)
    progress = counter("hands", quiet=args.json)
    if progress is not None:
        n, k = len(args.bots), len(args.against)
        pairs = n * k if k else n * (n - 1) // 2
        progress(0, -(-args.hands // 2) * 2 * pairs)
    result = play_ladder(
        args.bots, args.hands, stakes=Stakes(small, big), stack=args.stack, seed=seed,
        workers=args.workers, dask=args.dask, progress=progress, against=args.against,
    )  # fmt: skip
    close_bars()  # stopped early, the bar is left as it stands, and the results start below it
    blinds_ = (small, big)
    if args.json:
        print(json.dumps(ladder_dict(result, seed=seed, stack=args.stack, blinds=blinds_)))
    else:
        print(format_ladder(result, seed=seed, stack=args.stack, blinds=blinds_))
    if args.plot and not result.interrupted:
        plot_ladder(result, args.plot)
        if not args.json:
            print(f"heat map saved to {args.plot}")
    return 130 if result.interrupted else 0
