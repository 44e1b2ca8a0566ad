"""The ``holdem`` command line: eval, equity, replay, match, tournament, pushfold, solve, acpc, convert, play
and bench."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from holdem.console.arguments import (
    SEED_HELP,
    Parser,
    blinds,
    check_plot,
    counted,
    fresh_seed,
    integer,
    parse,
    players,
    png,
    positive_int,
    seconds,
    subcommand,
)
from holdem.console.progress import close_bars
from holdem.errors import HoldemError

__all__ = ["main"]


def _cmd_eval(args: argparse.Namespace) -> int:
    from holdem.cards.evaluator import evaluate

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
    from holdem.cards.odds import equity

    seed = fresh_seed(args.seed)
    result = equity(args.players, args.board, args.dead, samples=args.samples, rng=seed)
    mc = result.method == "monte-carlo"
    if args.json:
        print(
            json.dumps(
                {
                    "method": result.method,
                    "deals": result.deals,
                    "seed": seed if mc else None,
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
    print(f"{'holding':<{width}}  {'win':>7}  {'tie':>7}  {'equity':>7}" + ("  ±stderr" if mc else ""))
    for p in result.players:
        line = f"{p.holding:<{width}}  {p.win:7.2%}  {p.tie:7.2%}  {p.equity:7.2%}"
        print(line + (f"  ±{p.stderr:.2%}" if mc and p.stderr is not None else ""))
    what = "boards (exact)" if not mc else f"samples (Monte Carlo, seed {seed})"
    print(f"{result.deals:,} {what}")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from holdem.console.progress import each
    from holdem.formats import phh

    ok = invalid = unsettled = 0
    files = list(phh.iter_files(args.paths))
    for path in each(files, len(files), "files", quiet=args.json):
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
    if ok + invalid == 0:
        raise HoldemError(f"no hands found in {', '.join(map(repr, args.paths))}")
    if not args.json:
        print(
            f"{counted(ok + invalid, 'hand')}: {ok} replayed"
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
    from holdem.cli.bench import command

    return command(args)


def _cmd_match(args: argparse.Namespace) -> int:
    from holdem.bots.match import MatchConfig, play_match
    from holdem.bots.report import as_dict, format_table, plot_winnings
    from holdem.console.progress import counter
    from holdem.hand.stakes import Stakes

    # Check the outputs before playing, so that a long match is not lost to a typo.
    if args.plot:
        check_plot(args.plot)
    if args.history is not None and args.history.exists() and not args.history.is_dir():
        raise HoldemError(f"--history: {str(args.history)!r} is a file, not a folder")
    small, big = args.blinds
    config = MatchConfig(
        tuple(args.bots), stakes=Stakes(small, big), stack=args.stack, seed=fresh_seed(args.seed),
        duplicate=args.duplicate, time_limit=args.time_limit, all_in_adjusted=args.all_in_adjusted,
    )  # fmt: skip
    with contextlib.ExitStack() as stack:
        writer = None
        if args.history is not None:
            args.history.mkdir(parents=True, exist_ok=True)
            out = stack.enter_context((args.history / "match.phhs").open("w", encoding="utf-8"))
            writer = _phhs_writer(out)
        progress = counter("hands", quiet=args.json)
        if progress is not None:
            progress(0, args.hands)
        result = play_match(config, args.hands, workers=args.workers, progress=progress, history=writer)
        close_bars()  # stopped early, the bar is left as it stands, and the results start below it
    if args.plot and result.hands:
        plot_winnings(result, args.plot)
    print(json.dumps(as_dict(result)) if args.json else format_table(result, debug=args.debug))
    return 130 if result.interrupted else 0


def _phhs_writer(out: TextIO) -> Callable[[dict[str, Any]], None]:
    """Writes hands one at a time as the tables [1], [2], … of a .phhs file."""
    from holdem.formats import phh

    count = 0

    def write(document: dict[str, Any]) -> None:
        nonlocal count
        count += 1
        out.write(f"{'' if count == 1 else chr(10)}[{count}]\n{phh.dumps(document)}")

    return write


def _cmd_play(args: argparse.Namespace) -> int:
    from holdem.cli.play import play
    from holdem.hand.stakes import Stakes

    small, big = args.blinds
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not 1 <= len(bots) <= 9:
        raise HoldemError(f"--bots needs 1 to 9 bots, got {len(bots)}")
    return play(
        sys.stdin, sys.stdout, bots, stack=args.stack, stakes=Stakes(small, big), seed=fresh_seed(args.seed)
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``holdem`` command: one subcommand each, in the order ``--help``
    lists them."""
    from holdem import __version__
    from holdem.bots.commands import add_command as add_ladder
    from holdem.docs import add_command as add_docs
    from holdem.formats.pokerstars.commands import add_command as add_convert
    from holdem.pushfold.commands import add_command as add_pushfold
    from holdem.server.commands import add_command as add_serve
    from holdem.solver.commands import add_command as add_solve
    from holdem.stats.commands import add_command as add_stats
    from holdem.tournament.commands import add_commands as add_tournament_commands

    parser = Parser(
        prog="holdem",
        description="Texas Hold'em: evaluate hands, compute equity, replay hand histories, "
        "and play bots against each other or against you.",
    )
    parser.add_argument("--version", action="version", version=f"holdem {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="one of these:")
    for add in (_add_eval, _add_equity, _add_replay, _add_bench, _add_match, add_ladder,
                add_tournament_commands, add_pushfold, add_solve, _add_acpc, add_convert, add_stats,
                add_serve, add_docs, _add_play):  # fmt: skip
        add(sub)
    return parser


def _add_eval(sub: argparse._SubParsersAction[Parser]) -> None:
    ev = subcommand(sub, "eval", "best five of 5-7 cards and the hand's name",
              "Print the best five of 5 to 7 cards and the hand's name.")  # fmt: skip
    ev.add_argument("cards", nargs="+", help="cards, e.g. As Kd Qh Jc Ts 2d 3c (or AsKdQh...)")
    ev.add_argument("--json", action="store_true", help="print JSON")
    ev.set_defaults(run=_cmd_eval)


def _add_equity(sub: argparse._SubParsersAction[Parser]) -> None:
    eq = subcommand(sub, "equity", "win/tie/equity of 2-10 hands or ranges",
              "All-in equity of 2-10 holdings: exact hole cards (AsAh) or ranges (TT+,AKs,A5s-A2s:0.5, "
              "20%, any). Exact when feasible, Monte Carlo otherwise.")  # fmt: skip
    eq.add_argument("players", nargs="+", help="one holding or range per player")
    eq.add_argument("--board", default="", help="0, 3, 4 or 5 board cards, e.g. 7d5h9d")
    eq.add_argument("--dead", default="", help="cards known to be out of play")
    eq.add_argument("--samples", type=positive_int, help="force Monte Carlo with this many samples")
    eq.add_argument("--seed", type=integer, help="seed for Monte Carlo (default: a fresh one, printed)")
    eq.add_argument("--json", action="store_true", help="print JSON")
    eq.set_defaults(run=_cmd_equity)


def _add_replay(sub: argparse._SubParsersAction[Parser]) -> None:
    rp = subcommand(sub, "replay", "replay PHH hand histories and check them against the rules",
              "Replay every hand in .phh/.phhs files (folders are searched recursively), validating "
              "each action. Exit status 0 when every hand is valid, 1 otherwise, 2 when there is "
              "nothing to replay.")  # fmt: skip
    rp.add_argument("paths", nargs="+", help="files or folders")
    rp.add_argument("--json", action="store_true", help="one JSON object per hand per line")
    rp.add_argument("-v", "--verbose", action="store_true", help="a line for every hand, not only problems")
    rp.set_defaults(run=_cmd_replay)


def _add_bench(sub: argparse._SubParsersAction[Parser]) -> None:
    bench = subcommand(sub, "bench", "measure the engine's speed",
                 "Benchmarks. 'engine': complete no-limit hands with a random policy (fold / check-call "
                 "/ raise to the minimum or all-in). 'match': bots of the same policy through the bot "
                 "interface, beside the bare engine in the same run, and the equity bot heads-up. "
                 "'vector': holdem.vector's tables stepped at once, random masked actions "
                 "(--tables, --steps), or with --sng ENTRANTS its sit-and-gos under the engine's policy. "
                 "All warm up first.")  # fmt: skip
    bench.add_argument("what", choices=["engine", "match", "vector"], help="what to measure")
    bench.add_argument("--players", type=players, default=6, help="players at the table (2-10; vector: 2-9)")
    bench.add_argument("--hands", type=positive_int, default=20_000, help="hands to play")
    bench.add_argument("--seed", type=integer, default=0, help="random seed (fixed, so runs compare)")
    bench.add_argument("--repeat", type=positive_int, default=3, help="runs, taken in turn; the best is kept")
    bench.add_argument("--tables", type=positive_int, default=4096, help="vector: tables stepped at once")
    bench.add_argument("--steps", type=positive_int, default=300, help="vector: calls of step to time")
    bench.add_argument("--observe", action="store_true", help="vector: also build the observations")
    bench.add_argument("--sng", type=players, help="vector: sit-and-gos of this many entrants (turbo)")
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.set_defaults(run=_cmd_bench)


def _add_match(sub: argparse._SubParsersAction[Parser]) -> None:
    from holdem.bots import BUILT_IN

    match = subcommand(sub, "match", "play bots against each other and report the results",
                 f"Play N hands between 2-10 bots (built-in names: {', '.join(BUILT_IN)}; or "
                 "package.module:ClassName; arguments as name[key=value,...]). "
                 "Reports chips, big blinds per 100 hands with a 95% interval, VPIP, PFR, aggression "
                 "and faults. Ctrl-C stops early and reports the hands played so far.")  # fmt: skip
    match.add_argument("bots", nargs="+", help="2 to 10 bots")
    match.add_argument("--hands", type=positive_int, default=1000, help="hands to play")
    match.add_argument("--seed", type=integer, default=None, help=SEED_HELP)
    match.add_argument("--duplicate", action="store_true", help="replay each deal with the seats rotated")
    match.add_argument("--workers", type=positive_int, default=1,
                       help="processes (the results are the same for any number)")  # fmt: skip
    match.add_argument("--stack", type=positive_int, default=200, help="starting stack of every hand")
    match.add_argument("--blinds", type=blinds, default="1/2", help="small/big blinds")
    match.add_argument("--time-limit", type=seconds, default=None,
                       help="seconds per decision; slower is a fault (default: no limit)")  # fmt: skip
    match.add_argument("--all-in-adjusted", action="store_true",
                       help="also report results with all-in hands credited at their exact equity "
                            "(less luck, same expectation; a preflop all-in costs ~50 ms)")  # fmt: skip
    match.add_argument("--json", action="store_true", help="print JSON")
    match.add_argument(
        "--plot", type=png, metavar="PNG", help="save winnings over time as a PNG (matplotlib)"
    )
    match.add_argument("--history", type=Path, metavar="DIR", help="write every hand to DIR/match.phhs")
    match.add_argument("--debug", action="store_true", help="show the traceback of a bot that raised")
    match.set_defaults(run=_cmd_match)


def _add_acpc(sub: argparse._SubParsersAction[Parser]) -> None:
    from holdem.acpc.commands import add_commands

    acpc = subcommand(sub, "acpc", "the ACPC protocol: play a bot at a dealer, or deal a match",
                "The ACPC protocol 2.0.0: `holdem acpc play` connects a bot to a dealer; `holdem acpc "
                "dealer` deals a match to ACPC agents, as the reference dealer does.")  # fmt: skip
    add_commands(acpc)


def _add_play(sub: argparse._SubParsersAction[Parser]) -> None:
    play = subcommand(sub, "play", "play against bots in the terminal",
                "Play hold'em against bots. Commands: f fold, k check, c call, r N raise to N, a all-in, "
                "? help, q quit. Reads standard input, so a pipe of commands works too.")  # fmt: skip
    play.add_argument("--bots", default="equity", help="comma-separated bots, e.g. equity,random")
    play.add_argument("--stack", type=positive_int, default=200, help="everyone's starting stack")
    play.add_argument("--blinds", type=blinds, default="1/2", help="small/big blinds")
    play.add_argument("--seed", type=integer, default=None, help=SEED_HELP)
    play.set_defaults(run=_cmd_play)


def _joined_negative_lists(argv: Sequence[str]) -> list[str]:
    """``--stacks -1,2`` as ``--stacks=-1,2``: argparse takes a list starting with a minus for an
    option, so the value would be lost and its own check never reached."""
    out: list[str] = []
    for token in argv:
        if (
            out
            and out[-1].startswith("--")
            and "=" not in out[-1]
            and re.fullmatch(r"-[0-9.][0-9.,]*,[0-9.,-]*", token)
        ):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def _stop(signum: int, frame: object) -> None:
    """Ctrl-C and SIGTERM: stop the command (its results so far, its workers ended, exit 130), and
    make sure it ends (`_stop_watch`)."""
    _stop_watch()
    if trace := os.environ.get("HOLDEM_STOP_TRACE"):  # where each stop landed, to find a lost one
        import traceback

        with open(trace, "a") as file:
            print(f"{signal.Signals(signum).name} landed at:", file=file)
            traceback.print_stack(frame, file=file)  # type: ignore[arg-type]
    raise KeyboardInterrupt


def _stop_watch() -> None:
    """Start, at the first stop, a clock that ends the process `STOP_GRACE` seconds later if the
    command has not ended by then: a stop swallowed where it landed, or a clean-up that hangs, must
    not leave a process running that the user asked to stop (under load in CI, a push/fold solve
    once ran on for 60 s after Ctrl-C)."""
    global _watching
    if _watching is None:
        _watching = threading.Timer(STOP_GRACE, _give_up)
        _watching.daemon = True
        _watching.start()


def _give_up() -> None:
    """The end of `_stop_watch`'s grace: say so in one line, end the worker processes, and exit 130.
    With HOLDEM_STOP_TRACE naming a file, every thread's stack is added to it first (to find where
    a stop was lost)."""
    import faulthandler
    import multiprocessing

    if trace := os.environ.get("HOLDEM_STOP_TRACE"):
        with open(trace, "a") as file:
            faulthandler.dump_traceback(file, all_threads=True)
    line = f"\nholdem {_command}: interrupted; still stopping after {STOP_GRACE:g} s, so ended at once\n"
    os.write(2, line.encode())  # not sys.stderr: the main thread may hold its lock
    for child in multiprocessing.active_children():
        with contextlib.suppress(Exception):
            child.kill()
    os._exit(130)


STOP_GRACE = 20.0
"""Seconds a stopped command has to end before `_give_up` ends it."""
_watching: threading.Timer | None = None
_command = ""


def _stop_again(unraisable: Any) -> None:
    """A stop (Ctrl-C, SIGTERM) that landed where Python drops exceptions (a garbage collector's
    callback, a ``__del__``) is raised again, so that it reaches the command: once, Dask's GC
    callback swallowed it ("Exception ignored in ... KeyboardInterrupt") and the command ran on.
    Anything else goes to the hook as it was."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        # Sent again a moment later from another thread: raised here (any way of raising it in this
        # thread runs `_stop` at once) it would be dropped again; sent so, it lands where the main
        # thread has gone on (or, dropped once more, comes back here).
        resend = threading.Timer(RESEND, os.kill, args=(os.getpid(), signal.SIGTERM))
        resend.daemon = True
        resend.start()
        return
    _DROPPED_BEFORE(unraisable)


_DROPPED_BEFORE = sys.unraisablehook
RESEND = 0.05
"""Seconds after which a dropped stop is sent again (the hook has long returned by then)."""


def _catch_stops(command: str = "") -> Callable[[], None]:
    """SIGTERM (what systemd and docker send) handled as Ctrl-C is, no stop dropped, and none that
    does not end the process (`_stop_watch`). Ctrl-C is left ignored where it was (``nohup``).
    Returns what puts the handlers back as they were (for a caller running `main` in-process)."""
    global _command
    _command = command
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    hook = sys.unraisablehook
    signal.signal(signal.SIGTERM, _stop)
    if handlers[signal.SIGINT] is signal.default_int_handler:
        signal.signal(signal.SIGINT, _stop)
    sys.unraisablehook = _stop_again

    def restore() -> None:
        for number, handler in handlers.items():
            signal.signal(number, handler)
        sys.unraisablehook = hook

    return restore


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (130 when interrupted by Ctrl-C)."""
    args = parse(build_parser(), _joined_negative_lists(sys.argv[1:] if argv is None else argv))
    if os.getcwd() not in sys.path:  # so that bots given as mybot:MyBot load from the current folder
        sys.path.insert(0, os.getcwd())
    command = " ".join(filter(None, (args.command, getattr(args, "acpc_command", None))))
    restore = _catch_stops(command)
    try:
        return _run(args, command)
    finally:
        restore()


def _run(args: argparse.Namespace, command: str) -> int:
    """Run the parsed command; returns its exit status, each way a command ends said in one line."""
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        close_bars()
        print(f"\nholdem {command}: interrupted", file=sys.stderr)
        return 130
    except HoldemError as error:
        print(f"holdem {command}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped early (| head): quiet, as the shell's own tools are
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush at exit
        return 128 + signal.SIGPIPE
    except OSError as error:
        where = f": {error.filename!r}" if error.filename else ""
        print(f"holdem {command}: error: {error.strerror or error}{where}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
