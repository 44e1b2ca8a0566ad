"""The command line's argument types and help: each bad value is one line naming it, before any work."""

from __future__ import annotations

import argparse
import difflib
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from holdem.errors import HoldemError

__all__ = [
    "SEED_HELP",
    "Help",
    "Parser",
    "blinds",
    "check_plot",
    "fresh_seed",
    "install_hint",
    "integer",
    "numbers",
    "players",
    "png",
    "positive_int",
    "seconds",
    "subcommand",
]  # fmt: skip


def check_plot(path: Path) -> None:
    """--plot needs matplotlib and a folder to write in: checked before any work."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise HoldemError(f"--plot needs matplotlib: {install_hint('plot')}") from None
    if not path.resolve().parent.is_dir():
        raise HoldemError(f"--plot: no folder {str(path.resolve().parent)!r} to save {path.name!r} in")


def numbers(kind: type[int] | type[float]) -> Callable[[str], list[Any]]:
    """A comma-separated list of whole numbers (`int`) or numbers (`float`)."""

    def parse(text: str) -> list[Any]:
        try:
            values = [kind(part) for part in text.split(",") if part.strip()]
        except ValueError:
            what = "whole numbers" if kind is int else "numbers"
            raise argparse.ArgumentTypeError(f"expected comma-separated {what}, got {text!r}") from None
        if not values:
            raise argparse.ArgumentTypeError(f"expected at least one number, got {text!r}")
        return values

    return parse


def blinds(text: str) -> tuple[int, int]:
    small, sep, big = text.partition("/")
    if not sep or not small.isdecimal() or not big.isdecimal() or int(big) <= 0:
        raise argparse.ArgumentTypeError(f"expected blinds like 1/2, got {text!r}")
    if int(small) > int(big):
        raise argparse.ArgumentTypeError(f"the small blind is more than the big blind in {text!r}")
    return int(small), int(big)


def fresh_seed(seed: int | None) -> int:
    """The given seed, or a fresh random one (printed with the results, so a run can be repeated)."""
    return seed if seed is not None else secrets.randbelow(2**31)


def png(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"the plot is saved as PNG: name a .png file, got {text!r}")
    return path


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


class Parser(argparse.ArgumentParser):
    """Usage errors as one line (and exit status 2), pointing to --help instead of printing it."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def parse(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """Parse `argv`; an unknown argument is refused by the subcommand it was given to (``holdem
    match: error: ... (see holdem match --help)``), with the nearest option it has, if one is near."""
    args, extra = parser.parse_known_args(argv)
    if not extra:
        return args
    owner = parser
    while (choices := _subcommands(owner)) is not None and (name := getattr(args, choices[0], None)):
        owner = choices[1][name]
    options = [o for action in owner._actions for o in action.option_strings if o.startswith("--")]
    words = [word.split("=")[0] for word in extra if word.startswith("-")]
    near = [match for word in words for match in difflib.get_close_matches(word, options, 1)]
    hint = f"; did you mean {near[0]}?" if near else ""
    owner.error(f"unrecognized arguments: {' '.join(extra)}{hint}")


def _subcommands(parser: argparse.ArgumentParser) -> tuple[str, dict[str, argparse.ArgumentParser]] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.dest, action.choices
    return None


class Help(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default, except where there is none to show (flags, "none given")."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default in (None, False) or "default" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def subcommand(sub: Any, name: str, help: str, description: str) -> argparse.ArgumentParser:
    """A subcommand whose --help shows every option's default."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=help, description=description, formatter_class=Help
    )
    return parser


def add_parallel_options(parser: argparse.ArgumentParser) -> None:
    """``--workers`` and ``--dask``, as every command that spreads its work takes them."""
    parser.add_argument(
        "--workers", type=positive_int, default=1, help="processes (same results for any number)"
    )
    parser.add_argument(
        "--dask", metavar="local|ADDRESS", default=None,
        help="run on Dask: 'local' starts a LocalCluster of --workers processes; or a scheduler's "
        "address, e.g. tcp://10.0.0.5:8786 (needs holdem-engine[dask])",
    )  # fmt: skip


SEED_HELP = "random seed (default: a fresh one, printed with the results so the run can be repeated)"


def players(text: str) -> int:
    value = positive_int(text)
    if not 2 <= value <= 10:
        raise argparse.ArgumentTypeError(f"expected 2 to 10 players, got {text!r}")
    return value


def counted(count: int, thing: str) -> str:
    """``1 hand``, ``2 hands``, ``1,000 tournaments``: a count with its noun, singular where one."""
    return f"{count:,} {thing}" if count == 1 else f"{count:,} {thing}s"


def install_hint(extra: str) -> str:
    """How to install an optional extra, from the package index or from a clone of the repository."""
    return f"pip install 'holdem-engine[{extra}]' (from a clone of the repository: pip install '.[{extra}]')"
