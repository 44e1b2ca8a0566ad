"""``holdem pushfold``: the heads-up push/fold equilibrium at a stack, as charts, JSON or a PNG."""

from __future__ import annotations

import argparse
import json

from holdem.arguments import Parser, check_plot, png, subcommand
from holdem.errors import HoldemError

__all__ = ["add_command"]


def _big_blinds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of big blinds, got {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of big blinds, got {text!r}")
    return value


def add_command(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``holdem pushfold`` to the command line."""
    pf = subcommand(sub, "pushfold", "heads-up push/fold equilibrium charts",
                    "The small blind moves all-in or folds, the big blind calls or folds: the equilibrium "
                    "over the 169 starting-hand classes (card removal, exact all-in equities), with what a "
                    "best response would gain against each side.")  # fmt: skip
    pf.add_argument(
        "--stack", type=_big_blinds, required=True, help="effective stack in big blinds (1 to 100)"
    )
    pf.add_argument(
        "--ante", type=_big_blinds, default=0.0, help="each player's ante in big blinds (default 0)"
    )
    pf.add_argument("--json", action="store_true", help="print JSON")
    pf.add_argument("--plot", type=png, metavar="PNG", help="save both charts as a PNG")
    pf.set_defaults(run=_cmd_pushfold)


def _cmd_pushfold(args: argparse.Namespace) -> int:
    from holdem.pushfold.chart import as_dict, format_chart, plot_chart
    from holdem.pushfold.headsup import solve_headsup

    if args.plot:
        check_plot(args.plot)
    try:
        solution = solve_headsup(args.stack, args.ante)
    except HoldemError:
        raise
    print(json.dumps(as_dict(solution)) if args.json else format_chart(solution))
    if args.plot:
        plot_chart(solution, args.plot)
    return 0
