"""The ``holdem`` command line: ``eval``, ``equity`` and ``replay``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from holdem.errors import HoldemError

__all__ = ["main"]


def _cmd_eval(args: argparse.Namespace) -> int:
    from holdem.evaluator import evaluate

    rank = evaluate(" ".join(args.cards))
    five = " ".join(map(str, rank.best_five))
    if args.json:
        print(
            json.dumps(
                {
                    "best_five": five.split(),
                    "name": rank.name,
                    "description": rank.describe(),
                    "category": rank.category.name.lower(),
                    "strength": rank.strength,
                }
            )
        )
    else:
        print(f"{five}  {rank.describe()}")
    return 0


def _cmd_equity(args: argparse.Namespace) -> int:
    from holdem.odds import equity

    result = equity(args.players, args.board, args.dead, samples=args.samples, rng=args.seed)
    if args.json:
        print(
            json.dumps(
                {
                    "method": result.method,
                    "deals": result.deals,
                    "players": [
                        {
                            "holding": p.holding,
                            "win": p.win,
                            "tie": p.tie,
                            "equity": p.equity,
                            "stderr": p.stderr,
                        }
                        for p in result.players
                    ],
                }
            )
        )
        return 0
    width = max(8, *(len(p.holding) for p in result.players))
    mc = result.method == "monte-carlo"
    print(f"{'holding':<{width}}  {'win':>7}  {'tie':>7}  {'equity':>7}" + ("  ±stderr" if mc else ""))
    for p in result.players:
        line = f"{p.holding:<{width}}  {p.win:7.2%}  {p.tie:7.2%}  {p.equity:7.2%}"
        print(line + (f"  ±{p.stderr:.2%}" if mc and p.stderr is not None else ""))
    what = "boards (exact)" if not mc else "samples (Monte Carlo)"
    print(f"{result.deals:,} {what}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from holdem import phh

    ok = invalid = unsettled = 0
    for path in phh.iter_files(args.paths):
        try:
            hands = phh.load(path)
        except HoldemError as error:
            invalid += 1
            _report(args.json, {"source": str(path), "ok": False, "error": str(error)})
            continue
        many = path.suffix == ".phhs"
        for k, data in enumerate(hands):
            source = f"{path}#{k + 1}" if many else str(path)
            try:
                result = phh.replay(data, source)
            except HoldemError as error:
                invalid += 1
                _report(args.json, {"source": source, "ok": False, "error": str(error)})
                continue
            ok += 1
            if not result.settled:
                unsettled += 1
                _report(args.json, {"source": source, "ok": True, "settled": False})
            else:
                stacks, payoffs = list(result.finishing_stacks or ()), list(result.payoffs or ())
                record = {"source": source, "ok": True, "finishing_stacks": stacks, "payoffs": payoffs}
                if args.json:
                    _report(True, record)
                elif args.verbose:
                    print(f"{source}: ok, finishing stacks {record['finishing_stacks']}")
    if not args.json:
        print(
            f"{ok + invalid} hands: {ok} replayed"
            f" ({unsettled} not settled: showdown cards unknown), {invalid} invalid"
        )
    return 0 if invalid == 0 else 1


def _report(as_json: bool, record: dict[str, object]) -> None:
    if as_json:
        print(json.dumps(record))
    elif not record["ok"]:
        print(f"{record['source']}: invalid: {record['error']}")
    else:
        print(f"{record['source']}: replayed, not settled (showdown cards unknown)")


def _cmd_bench(args: argparse.Namespace) -> int:
    from holdem.bench import random_policy_hands

    rate = random_policy_hands(args.players, args.hands, args.seed)
    if args.json:
        print(json.dumps({"hands_per_s": rate, "players": args.players, "hands": args.hands}))
    else:
        print(f"{rate:,.0f} hands/s ({args.players} players, {args.hands:,} hands, random policy)")
    return 0


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``holdem`` command."""
    parser = argparse.ArgumentParser(
        prog="holdem", description="Texas Hold'em: evaluate hands, compute equity."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ev = sub.add_parser(
        "eval",
        help="best five of 5-7 cards and the hand's name",
        description="Print the best five of 5 to 7 cards and the hand's name.",
    )
    ev.add_argument("cards", nargs="+", help="cards, e.g. As Kd Qh Jc Ts 2d 3c (or AsKdQh...)")
    ev.add_argument("--json", action="store_true", help="print JSON")
    ev.set_defaults(run=_cmd_eval)

    eq = sub.add_parser(
        "equity",
        help="win/tie/equity of 2-10 hands or ranges",
        description="All-in equity of 2-10 holdings: exact hole cards (AsAh) or ranges "
        "(TT+,AKs,A5s-A2s:0.5). Exact when feasible, Monte Carlo otherwise.",
    )
    eq.add_argument("players", nargs="+", help="one holding or range per player")
    eq.add_argument("--board", default="", help="0, 3, 4 or 5 board cards, e.g. 7d5h9d")
    eq.add_argument("--dead", default="", help="cards known to be out of play")
    eq.add_argument("--samples", type=_positive_int, help="force Monte Carlo with this many samples")
    eq.add_argument("--seed", type=_int, help="seed for Monte Carlo (reproducible results)")
    eq.add_argument("--json", action="store_true", help="print JSON")
    eq.set_defaults(run=_cmd_equity)

    rp = sub.add_parser(
        "replay",
        help="replay PHH hand histories and check them against the rules",
        description="Replay every hand in .phh/.phhs files (folders are searched recursively), "
        "validating each action. Exit status 0 when every hand is valid, 1 otherwise.",
    )
    rp.add_argument("paths", nargs="+", help="files or folders")
    rp.add_argument("--json", action="store_true", help="one JSON object per hand per line")
    rp.add_argument("-v", "--verbose", action="store_true", help="a line for every hand, not only problems")
    rp.set_defaults(run=_cmd_replay)

    bench = sub.add_parser(
        "bench",
        help="measure the engine's speed",
        description="Benchmarks. 'engine': complete no-limit hands with a random policy "
        "(fold / check-call / raise to the minimum or all-in).",
    )
    bench.add_argument("what", choices=["engine"], help="what to measure")
    bench.add_argument("--players", type=_positive_int, default=6)
    bench.add_argument("--hands", type=_positive_int, default=20_000)
    bench.add_argument("--seed", type=_int, default=0)
    bench.add_argument("--json", action="store_true", help='print {"hands_per_s": ...}')
    bench.set_defaults(run=_cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except HoldemError as error:
        print(f"holdem {args.command}: error: {error}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
