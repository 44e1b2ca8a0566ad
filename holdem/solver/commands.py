"""``holdem solve``: a postflop spot from options or a TOML file, solved, shown as grids or JSON."""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from holdem.console.arguments import Parser, check_plot, png, positive_int, subcommand
from holdem.errors import SolverError

__all__ = ["add_command", "read_settings"]

_DEFAULTS: dict[str, Any] = {
    "bets": "50,100,allin",
    "raises": "2.5x",
    "donks": None,
    "raise_cap": 3,
    "allin_threshold": 0.0,
    "accuracy": 0.5,
    "max_iterations": 1000,
    "rake": 0.0,
    "rake_cap": 0.0,
}
_SPOT_KEYS = ("board", "pot", "stack", "oop", "ip")
_TREE_KEYS = ("bets", "raises", "donks")


def add_command(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``holdem solve`` to the command line."""
    solve = subcommand(sub, "solve", "solve a heads-up postflop spot (discounted CFR, exact best response)",
                       "Solve a heads-up postflop spot to a target exploitability (percent of the pot) and "
                       "show the strategy at a node as 13x13 grids, JSON or a PNG. Give the spot by "
                       "options or in a TOML file (the same names; [tree.turn.oop] and the like set one "
                       "street's sizes for one player). `holdem docs solver` explains the tree and the "
                       "output.")  # fmt: skip
    solve.add_argument("file", nargs="?", type=Path, help="a TOML file with the spot (options override it)")
    solve.add_argument("--board", help="3 to 5 cards: QsJh2h8d")
    solve.add_argument("--pot", type=positive_int, help="chips in the pot when the spot starts")
    solve.add_argument("--stack", type=positive_int, help="the effective stack behind, in chips")
    solve.add_argument("--oop", metavar="RANGE", help="the out-of-position range: AA-TT,AKs,AQo:0.5")
    solve.add_argument("--ip", metavar="RANGE", help="the in-position range")
    solve.add_argument("--bets", help=f"bet sizes, pot percentages and allin ({_DEFAULTS['bets']})")
    solve.add_argument(
        "--raises", help="raise sizes: 2.5x the bet, or 45 for the call plus 45%% of the pot after it (2.5x)"
    )
    solve.add_argument(
        "--donks", help="out of position's lead sizes after calling a bet (none: no donk bets)"
    )
    solve.add_argument("--raise-cap", type=int, help="raises allowed after a street's bet (3)")
    solve.add_argument(
        "--allin-threshold",
        type=float,
        help="a bet leaving less than this share of the pot behind is all-in (0)",
    )
    solve.add_argument("--rake", type=float, help="rake in percent of the pot (0)")
    solve.add_argument("--rake-cap", type=float, help="the most rake taken, in chips (0: no cap)")
    solve.add_argument("--accuracy", type=float, help="stop at this exploitability, percent of the pot (0.5)")
    solve.add_argument("--max-iterations", type=positive_int, help="stop after this many iterations (1000)")
    solve.add_argument(
        "--node", default="", metavar="PATH", help="the node to show: 'x b75 r225', 'b40 c Td'"
    )
    solve.add_argument("--json", action="store_true", help="print JSON")
    solve.add_argument("--plot", type=png, metavar="PNG", help="save the node's grids as a PNG")
    solve.add_argument(
        "--save", type=Path, metavar="FILE", help="save the solution (.npz) to read again with --load"
    )
    solve.add_argument("--load", type=Path, metavar="FILE", help="show a saved solution without solving")
    solve.add_argument("--quiet", action="store_true", help="no progress lines")
    solve.set_defaults(run=_cmd_solve)  # fmt: skip


def read_settings(file: Path | None, options: dict[str, Any]) -> dict[str, Any]:
    """The settings from the file (if any), the defaults and the options given, in that order of
    strength: options win. Unknown keys in the file are refused by name."""
    settings = dict(_DEFAULTS)
    streets: dict[str, Any] = {}
    if file is not None:
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except OSError as error:
            raise SolverError(f"cannot read {str(file)!r}: {error.strerror or error}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise SolverError(f"{str(file)!r} is not valid TOML: {error}") from None
        tree = data.pop("tree", {})
        streets = {k: tree.pop(k) for k in ("flop", "turn", "river") if k in tree}
        unknown = sorted((set(data) - set(_DEFAULTS) - set(_SPOT_KEYS)) | (set(tree) - set(_DEFAULTS)))
        if unknown:
            raise SolverError(f"unknown setting {unknown[0]!r} in {str(file)!r}")
        settings.update(data)
        settings.update(tree)
    settings.update({k: v for k, v in options.items() if v is not None})
    settings["streets"] = streets
    missing = [k for k in _SPOT_KEYS if settings.get(k) is None]
    if missing:
        raise SolverError(f"the spot needs --{missing[0]} (or {missing[0]} = ... in a TOML file)")
    return settings


def _config(settings: dict[str, Any]) -> Any:
    from holdem.solver.tree import STREETS, Sizes, TreeConfig

    def sizes(values: dict[str, Any]) -> Sizes:
        donks = values.get("donks")
        return Sizes.parse(str(values["bets"]), str(values["raises"]), None if donks is None else str(donks))

    base = {k: settings[k] for k in _TREE_KEYS}
    per_street = []
    for street in STREETS:
        extra = settings["streets"].get(street, {})
        pair = []
        for who in ("oop", "ip"):
            own = {**base, **{k: v for k, v in extra.items() if k in _TREE_KEYS}, **extra.get(who, {})}
            bad = sorted(set(extra) - set(_TREE_KEYS) - {"oop", "ip"}) + sorted(
                set(extra.get(who, {})) - set(_TREE_KEYS)
            )
            if bad:
                raise SolverError(f"unknown setting {bad[0]!r} in [tree.{street}]: use bets, raises or donks")
            pair.append(sizes(own))
        per_street.append((pair[0], pair[1]))
    return TreeConfig(tuple(per_street), int(settings["raise_cap"]), float(settings["allin_threshold"]))


def _progress(quiet: bool) -> Any:
    if quiet:
        return None

    def show(progress: Any) -> None:
        print(f"iteration {progress.iterations}: exploitability {progress.exploitability:.3f}% of the pot "
              f"({progress.seconds:.1f} s)", file=sys.stderr, flush=True)  # fmt: skip

    return show


def _cmd_solve(args: argparse.Namespace) -> int:
    from holdem.solver.build import estimate
    from holdem.solver.report import format_node, plot_node
    from holdem.solver.result import load
    from holdem.solver.solve import solve
    from holdem.solver.spot import Spot
    from holdem.solver.tree import build_tree

    if args.plot:
        check_plot(args.plot)
    if args.load is not None:
        solution = load(args.load)
    else:
        options = {k: getattr(args, k) for k in (*_SPOT_KEYS, *_TREE_KEYS, *_DEFAULTS) if hasattr(args, k)}
        settings = read_settings(args.file, options)
        spot = Spot.parse(**{k: settings[k] for k in (*_SPOT_KEYS, "rake", "rake_cap")})
        config = _config(settings)
        if not args.quiet:
            tree = build_tree(board_size=len(spot.board), pot=spot.pot, stack=spot.stack, config=config)
            print(estimate(spot, tree).describe(), file=sys.stderr, flush=True)
        solution = solve(
            spot,
            config,
            accuracy=float(settings["accuracy"]),
            max_iterations=int(settings["max_iterations"]),
            progress=_progress(args.quiet),
        )
        if solution.interrupted:
            print("stopped: the strategies so far are shown", file=sys.stderr)
        if args.save:
            solution.save(args.save)
    result = solution.node(args.node)
    if args.json:
        print(json.dumps(solution.to_dict(args.node)))
    else:
        print(f"exploitability {solution.exploitability:.3f}% of the pot after {solution.iterations} "
              f"iterations ({solution.seconds:.1f} s); values: out of position {solution.values[0]:.2f}, "
              f"in position {solution.values[1]:.2f}")  # fmt: skip
        print(format_node(result))
    if args.plot:
        plot_node(result, args.plot)
        if not args.json:
            print(f"grids saved to {args.plot}")
    if args.save and not args.json:
        print(f"solution saved to {args.save}")
    return 0
