"""``holdem convert``: PHH files to PokerStars text, and PokerStars files to PHH."""

from __future__ import annotations

import argparse
import datetime
import sys
import zoneinfo
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from holdem.console.arguments import Parser, counted, subcommand
from holdem.console.progress import each
from holdem.errors import HoldemError
from holdem.formats.pokerstars.read import other_games, read_hands
from holdem.formats.pokerstars.write import write_hand
from holdem.formats.text import read_history

__all__ = ["add_command"]


def add_command(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``holdem convert`` to the command line."""
    convert = subcommand(sub, "convert", "convert hand histories between PHH and PokerStars text",
                         "Convert PHH files (.phh, .phhs, or folders of them) to PokerStars text, or "
                         "PokerStars files (.txt, or folders of them) to one .phhs text. A hand with no "
                         "table name takes its file's name (trackers need one). Each hand that "
                         "cannot be converted is reported on standard error with the reason and "
                         "skipped whole; the exit status is 1 when any was.")  # fmt: skip
    convert.add_argument("paths", nargs="+", type=Path, help="files or folders to convert")
    convert.add_argument("--to", required=True, choices=["pokerstars", "phh"], help="the format to write")
    convert.add_argument("--out", type=Path, metavar="PATH", help="write here (default: standard output)")
    convert.add_argument("--date", type=_moment, metavar="YYYY-MM-DD[THH:MM:SS]",
                         help="with --to pokerstars: the date and time of each hand that states none, as "
                              "trackers need one (match and tournament histories have none: the same seed "
                              "gives the same file); nothing else is changed")  # fmt: skip
    convert.add_argument("--time-zone", metavar="ZONE",
                         help="the zone of --date, as an IANA name such as UTC or Europe/Paris (default: "
                              "ET, PokerStars' own)")  # fmt: skip
    convert.set_defaults(run=_cmd_convert)


def _moment(text: str) -> datetime.datetime:
    """A --date: ``2026-11-27`` (midnight) or ``2026-11-27T20:15:00``."""
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is not None:
        raise argparse.ArgumentTypeError(
            f"not a date and time: {text!r} (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS; a zone goes in --time-zone)"
        )
    return moment


def _dating(args: argparse.Namespace) -> dict[str, Any]:
    """The PHH fields --date and --time-zone give a hand with no date (none without --date)."""
    if args.date is None:
        if args.time_zone is not None:
            raise HoldemError("--time-zone is the zone of --date: give --date too")
        return {}
    if args.to != "pokerstars":
        raise HoldemError("--date dates the hands written as PokerStars text: use it with --to pokerstars")
    when: datetime.datetime = args.date
    fields = {"year": when.year, "month": when.month, "day": when.day, "time": when.strftime("%H:%M:%S")}
    if args.time_zone is None:
        return fields
    try:
        zoneinfo.ZoneInfo(args.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise HoldemError(
            f"--time-zone: unknown zone {args.time_zone!r} (an IANA name such as UTC)"
        ) from None
    return fields | {"time_zone": args.time_zone}


def _cmd_convert(args: argparse.Namespace) -> int:
    if args.out is not None and args.out.is_dir():
        raise HoldemError(f"--out: {str(args.out)!r} is a folder, not a file")
    text, done, skipped = _to_text(args) if args.to == "pokerstars" else _to_phh(args)
    if done + skipped == 0:
        raise HoldemError(f"no hands found in {', '.join(repr(str(p)) for p in args.paths)}")
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    print(f"{counted(done + skipped, 'hand')}: {done:,} converted, {skipped:,} skipped", file=sys.stderr)
    return 1 if skipped else 0


def _to_text(args: argparse.Namespace) -> tuple[str, int, int]:
    """PHH files as PokerStars text; the hands converted and skipped (each skip named)."""
    from holdem.formats import phh

    dating = _dating(args)
    chunks, done, skipped = [], 0, 0
    files = list(phh.iter_files(args.paths))
    for path in each(files, len(files), "files"):
        try:
            docs = phh.load(path)
        except HoldemError as error:
            print(f"{path}: skipped: {error}", file=sys.stderr)
            skipped += 1
            continue
        for k, doc in enumerate(docs, 1):
            try:
                named = doc if doc.get("table") else {**doc, "table": path.stem}  # trackers need a name
                dated = named if "year" in named or not dating else {**named, **dating}
                chunks.append(write_hand(dated, k))
                done += 1
            except HoldemError as error:
                print(f"{path}#{k}: skipped: {error}", file=sys.stderr)
                skipped += 1
    return "\n\n".join(chunks), done, skipped


def _to_phh(args: argparse.Namespace) -> tuple[str, int, int]:
    """PokerStars text as PHH; the hands converted and skipped: each refusal named, the hands of games
    the engine does not play summed up by file and game."""
    from holdem.formats import phh

    docs, skipped, others = [], 0, Counter[tuple[str, str]]()
    texts = list(_text_files(args.paths))
    for path in each(texts, len(texts), "files"):
        try:
            text_of_file = read_history(path)
        except (OSError, UnicodeDecodeError) as error:
            print(f"{path}: skipped: cannot read it: {error}", file=sys.stderr)
            skipped += 1
            continue
        for hand in read_hands(text_of_file):
            if hand.doc is not None:
                docs.append(hand.doc)
            elif hand.game is not None:
                others[str(path), hand.game] += 1
            else:
                print(f"{path}: hand #{hand.ident}: skipped: {hand.reason}", file=sys.stderr)
                skipped += 1
    for line in other_games(others):
        print(line, file=sys.stderr)
    return (phh.dumps(docs) if docs else ""), len(docs), skipped + others.total()


def _text_files(paths: list[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.txt") if p.is_file())
        elif path.exists():
            yield path
        else:
            raise HoldemError(f"no such file or folder: {str(path)!r}")
