"""``holdem stats``: player statistics from hand histories of every format."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from holdem.console.arguments import Parser, check_plot, counted, png, positive_int, subcommand
from holdem.console.progress import close_bars, counter
from holdem.errors import HoldemError
from holdem.formats.pokerstars import other_games
from holdem.stats.collect import Collection, Results
from holdem.stats.report import PlayerStats
from holdem.stats.sources import Skipped, documents, files

__all__ = ["add_command"]


def add_command(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``holdem stats`` to the command line."""
    stats = subcommand(sub, "stats", "player statistics from hand histories (VPIP, PFR, 3-bet, ...)",
                       "Player statistics from hand histories, as the trackers count them: VPIP, PFR, "
                       "3-bet, fold to 3-bet, 4-bet, steal, fold to steal, continuation bets, fold to "
                       "them, check-raise, aggression, went to and won at showdown, won when saw the "
                       "flop, and big blinds won per 100 hands (`holdem docs stats` defines each). "
                       "Reads .phh and .phhs files (match and tournament histories, a server's stored "
                       "hands), PokerStars text, folders of them and .tar archives. A hand that cannot "
                       "be read is named on standard error and skipped; the exit status is 1 when any "
                       "was.")  # fmt: skip
    stats.add_argument("paths", nargs="+", type=Path, help="files, folders or archives of hands")
    stats.add_argument("--player", action="append", metavar="NAME",
                       help="only this player, named as the histories write it (repeat for "
                            "more)")  # fmt: skip
    stats.add_argument(
        "--by",
        choices=["position", "raiser", "bot"],
        action="append",
        default=[],
        help="position: also each player's numbers by position; raiser: also the 3-bet by the "
        "opener's position and the fold to a steal by the stealer's; bot: a row per bot, adding up "
        "the entrants of a tournament history that played it (other histories: by name); repeat "
        "for more than one",
    )
    stats.add_argument(
        "--min-hands", type=positive_int, default=1, metavar="N", help="leave out players with fewer hands"
    )
    stats.add_argument("--check", action="store_true",
                       help="replay every hand by the rules first, and skip the hands that break them "
                            "(slower)")  # fmt: skip
    stats.add_argument("--all-in-adjusted", action="store_true",
                       help="also all-in adjusted bb/100 (each all-in before the river valued exactly; "
                            "about 50 ms a preflop all-in)")  # fmt: skip
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.add_argument("--plot", type=png, metavar="PNG",
                       help="save each player's winnings over the hands, with showdown and "
                            "non-showdown lines")  # fmt: skip
    stats.set_defaults(run=_cmd_stats)


def _cmd_stats(args: argparse.Namespace) -> int:
    """Read, count, then print: the table or JSON, and the plot. Stopped by Ctrl-C, it prints what
    it had counted, says so, and exits 130."""
    if args.plot:
        check_plot(args.plot)
    collection, stopped = _count(args)
    if stopped:
        print(
            f"holdem stats: interrupted after {counted(collection.hands, 'hand')}; counted so far:",
            file=sys.stderr,
        )
    _say_skipped(collection.skipped)
    if collection.hands == 0:
        if stopped:
            return 130
        where = ", ".join(repr(str(p)) for p in args.paths)
        if collection.skipped:
            raise HoldemError(f"no hand counted in {where}: each one read was skipped (above)")
        raise HoldemError(f"no hands found in {where}")
    rows = _chosen(args, collection)
    _print(args, collection, rows)
    if args.plot:
        from holdem.stats.plot import plot_results

        assert collection.results is not None
        chosen = {row.player for row in rows if row.position is None}
        drawn = plot_results({k: v for k, v in collection.results.items() if k in chosen}, args.plot)
        left_out = len(chosen) - len(drawn)
        more = f"; {left_out} more not drawn: choose players with --player" if left_out > 0 else ""
        print(f"plot of {', '.join(drawn)} (most hands first) saved to {args.plot}{more}", file=sys.stderr)
    return 130 if stopped else 1 if collection.skipped else 0


def _say_skipped(skipped: list[Skipped]) -> None:
    """Each hand or file refused, one by one; hands of games the engine does not play only summed up,
    a line for each file and game."""
    others: Counter[tuple[str, str]] = Counter()
    for item in skipped:
        if item.game is not None and item.file is not None:
            others[item.file, item.game] += 1
        else:
            print(f"{item.source}: skipped: {item.reason}", file=sys.stderr)
    for line in other_games(others):
        print(line, file=sys.stderr)


def _count(args: argparse.Namespace) -> tuple[Collection, bool]:
    """Every hand of the files counted, with a bar at a terminal; and whether Ctrl-C stopped it."""
    paths = files(args.paths)
    results: dict[str, Results] | None = {} if args.plot else None
    collection = Collection(
        check=args.check, adjust=args.all_in_adjusted, results=results, by_bot="bot" in args.by
    )
    show = counter("MB", quiet=args.json)
    progress = None if show is None else (lambda done, total: show(done >> 20, max(total >> 20, 1)))
    try:
        collection.add_all(documents(paths, progress=progress))
    except KeyboardInterrupt:
        close_bars()
        return collection, True
    return collection, False


def _chosen(args: argparse.Namespace, collection: Collection) -> list[PlayerStats]:
    """The rows asked for: by position or not, enough hands, the players named (each must be there)."""
    rows = collection.players(by_position="position" in args.by, min_hands=args.min_hands)
    if args.player:
        known = {name for name, _ in collection.counts}
        missing = [name for name in args.player if name not in known]
        if missing:
            raise HoldemError(f"no player {missing[0]!r} in these hands ({_some(sorted(known))})")
        rows = [row for row in rows if row.player in args.player]
    return rows


def _print(args: argparse.Namespace, collection: Collection, rows: list[PlayerStats]) -> None:
    if args.json:
        skipped = [[s.source, s.reason] for s in collection.skipped]
        print(
            json.dumps(
                {"hands": collection.hands, "skipped": skipped, "players": [r.to_dict() for r in rows]}
            )
        )
        return
    from holdem.stats.report import format_table, format_versus

    print(format_table(rows))
    if "raiser" in args.by:
        print("\n3-bet by the opener's position, fold to a steal by the stealer's:\n" + format_versus(rows))
    total = counted(collection.hands + len(collection.skipped), "hand")
    print(f"\n{total}: {collection.hands:,} counted, {len(collection.skipped):,} skipped")


def _some(names: list[str], shown: int = 8) -> str:
    """A few of `names`, for a message."""
    listed = ", ".join(map(repr, names[:shown]))
    return listed + (f" and {len(names) - shown} more" if len(names) > shown else "")
