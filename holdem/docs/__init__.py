"""The documents that ship with holdem, so that an installed user can read them: the rules the
engine follows, the game server's protocol, tournament structures with an example file, statistics
and the postflop solver.

``holdem docs NAME`` prints one; `read` returns its text.
"""

from __future__ import annotations

import argparse
from importlib import resources

from holdem.console.arguments import Parser, subcommand

__all__ = ["DOCUMENTS", "add_command", "read"]

DOCUMENTS = {
    "rules": "rules.md",
    "protocol": "protocol.md",
    "structures": "structures.md",
    "structure-example": "structure-example.toml",
    "stats": "stats.md",
    "solver": "solver.md",
}
"""The documents by name, and their files in this package."""


def read(name: str) -> str:
    """The text of the document `name` (one of `DOCUMENTS`)."""
    return resources.files(__name__).joinpath(DOCUMENTS[name]).read_text(encoding="utf-8")


def add_command(sub: argparse._SubParsersAction[Parser]) -> None:
    """Add ``holdem docs`` to the command line."""
    docs = subcommand(sub, "docs", "print a document: the rules, the server protocol, structures, statistics",
                      "Print a document that ships with holdem: 'rules' (every rule the engine follows, "
                      "with its sources, options and tests), 'protocol' (the game server's HTTP and "
                      "WebSocket protocol), 'structures' (the tournament structure file format) or "
                      "'structure-example' (a structure file to copy) or 'stats' (every player statistic of "
                      "`holdem stats`: its chance, what counts as taking it, an example hand).")  # fmt: skip
    docs.add_argument("name", choices=sorted(DOCUMENTS), help="the document")
    docs.set_defaults(run=lambda args: print(read(args.name), end="") or 0)
