"""``holdem pushfold``: push/fold equilibria, heads-up at a stack (charts, JSON, a PNG), or at one
table of a tournament's end valued by ICM."""

from __future__ import annotations

import argparse
import json

from holdem.console.arguments import Parser, blinds, check_plot, numbers, png, positive_int, subcommand

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
    pf = subcommand(sub, "pushfold", "push/fold equilibria: heads-up charts, or ICM at a table's end",
                    "With --stack: heads-up, the small blind moves all-in or folds and the big blind calls "
                    "or folds; the equilibrium over the 169 starting-hand classes (card removal, exact "
                    "all-in equities) and what a best response would gain against each side. With "
                    "--stacks, --blinds and --prizes: each position's ranges at one table of a "
                    "tournament's end, valued by ICM.")  # fmt: skip
    what = pf.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--stack", type=_big_blinds, help="heads-up: the effective stack in big blinds (1 to 100)"
    )
    seats = "chips of each player from the small blind, the big blind, on to the button"
    what.add_argument("--stacks", type=numbers(int), metavar="S,S,...", help=seats)
    pf.add_argument("--ante", type=_big_blinds, default=0.0,
                    help="each player's ante: big blinds with --stack, chips with --stacks")  # fmt: skip
    pf.add_argument("--blinds", type=blinds, metavar="SB/BB", help="with --stacks: the blinds in chips")
    pf.add_argument("--prizes", type=numbers(float), metavar="P,P,...", help="with --stacks: prizes by place")
    pf.add_argument(
        "--deals", type=positive_int, default=400_000, help="with --stacks: deals sampled (400,000)"
    )
    pf.add_argument("--seed", type=int, default=0, help="with --stacks: the deals' seed (0)")
    pf.add_argument("--json", action="store_true", help="print JSON")
    pf.add_argument("--plot", type=png, metavar="PNG", help="heads-up: save both charts as a PNG")
    pf.set_defaults(run=_cmd_pushfold)


def _cmd_pushfold(args: argparse.Namespace) -> int:
    if args.stacks is not None:
        return _endgame(args)
    from holdem.pushfold.chart import as_dict, format_chart, plot_chart
    from holdem.pushfold.headsup import solve_headsup

    if args.plot:
        check_plot(args.plot)
    solution = solve_headsup(args.stack, args.ante)
    print(json.dumps(as_dict(solution)) if args.json else format_chart(solution))
    if args.plot:
        plot_chart(solution, args.plot)
        if not args.json:
            print(f"charts saved to {args.plot}")
    return 0


def _endgame(args: argparse.Namespace) -> int:
    from holdem.console.progress import counter
    from holdem.errors import HoldemError
    from holdem.pushfold.endgame import EndGame, describe, solve_endgame

    if args.blinds is None or args.prizes is None:
        raise HoldemError("--stacks needs --blinds SB/BB and --prizes P,P,... as well")
    if args.plot:
        raise HoldemError("--plot draws the heads-up charts (--stack); an end-game prints its ranges")
    if args.ante != int(args.ante):
        raise HoldemError(f"--ante with --stacks is in chips: a whole number, got {args.ante:g}")
    small, big = args.blinds
    game = EndGame(tuple(args.stacks), small, big, tuple(args.prizes), int(args.ante))
    progress = counter("iterations", quiet=args.json)  # a bar from the first second: a solve takes long
    solution = solve_endgame(game, deals=args.deals, seed=args.seed, progress=progress)
    if args.json:
        print(json.dumps({
            "stacks": list(game.stacks), "blinds": list(args.blinds), "ante": game.ante,
            "prizes": list(game.prizes),
            "equities": list(solution.equities), "exploitability": list(solution.exploitability),
            "deals": solution.deals, "iterations": solution.iterations,
            "push": {str(q + 1): solution.push_range(q) for q in game.order[:-1]},
            "call": {f"{q + 1} vs {p + 1}": solution.call_range(q, p)
                     for q in game.order[1:] for p in game.order[: game.order.index(q)]},
            "near": {" vs ".join(str(q + 1) for q in key): solution.near(key)
                     for key in solution.strategies if len(key) <= 2},
        }))  # fmt: skip
        return 0
    print("\n".join(describe(solution)))
    return 0
