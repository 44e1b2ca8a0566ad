"""The public names, listed: what `from holdem import X` and the concept packages give, so that
moving a module never loses a name by accident, and every `from holdem… import …` that the README
and the documents show still imports."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import holdem

ROOT = Path(__file__).resolve().parent.parent

PUBLIC = {
    "holdem": [
        "Action", "ActionKind", "BotLoadError", "CARDS", "Card", "CardCountError", "ClientError",
        "DealerError", "Deck", "GameDefError", "InvariantError", "LeaseLost", "ProtocolError", "RefusedError",
        "RequestError",
        "StructureError",
        "DuplicateCardError", "EmptyDeckError", "EquityResult", "Hand", "HandCategory", "HandOverError",
        "HandRank", "HandResult",
        "HoldemError", "IllegalActionError", "ImpossibleSpotError", "InvalidAmountError", "InvalidCardError",
        "InvalidConfigError", "InvalidHistoryError", "InvalidPlayerError", "InvalidRangeError",
        "LegalActions", "NotFoundError", "NotYourTurnError",
        "Phase", "PlayerEquity", "Pot", "Rank", "Rules", "Seat", "SeatView", "SnapshotError", "SolverError",
        "Stakes",
        "Structure", "Suit", "Table", "TableError", "best_hands", "compare_hands", "equity", "evaluate",
        "evaluate_many", "format_cards", "parse_card", "parse_cards", "parse_range", "strength",
    ],
    "holdem.cards": [
        "CARDS", "RANK_CHARS", "SUIT_CHARS", "Card", "Rank", "Suit", "format_cards", "parse_card",
        "parse_cards",
    ],
    "holdem.hand": ["Hand", "HandResult", "Phase"],
    "holdem.table": ["ButtonRule", "Seat", "Table"],
    "holdem.stats": [
        "COUNTS", "STATISTICS", "Collection", "Counts", "HandFacts", "PlayerStats", "Rate", "Statistic",
        "facts_from_document", "facts_from_hand", "read", "tally",
    ],
}  # fmt: skip
"""Each package's public names, as its ``__all__`` lists them."""

ROOT_ENTRIES = {
    "__init__.py", "__main__.py", "py.typed", "errors.py", "console", "cards", "hand", "formats", "table",
    "bots", "tournament", "stats", "pushfold", "solver", "vector", "acpc", "env", "learn", "server", "docs",
    "cli", "_moved.py",
}  # fmt: skip
"""What the package's root holds: what a user imports first, one folder a concept, and (private, until
0.3) the old module paths of 0.1."""


def test_every_public_name_is_listed_and_imports() -> None:
    for package, names in PUBLIC.items():
        module = importlib.import_module(package)
        assert sorted(names) == sorted(module.__all__), package
        for name in names:
            assert getattr(module, name) is not None, f"{package}.{name}"


def test_the_package_root_holds_only_its_concepts() -> None:
    entries = {p.name for p in (ROOT / "holdem").iterdir() if p.name != "__pycache__"}
    assert ROOT_ENTRIES == entries


IMPORT = re.compile(r"^\s*(?:>>> )?from (holdem[\w.]*) import ([\w, ]+)$", re.MULTILINE)


def test_every_import_the_readme_and_the_documents_show_works() -> None:
    texts = [ROOT / "README.md", *sorted((ROOT / "holdem" / "docs").glob("*.md"))]
    found = 0
    for path in texts:
        for module, names in IMPORT.findall(path.read_text()):
            imported = importlib.import_module(module)
            for name in (n.strip() for n in names.split(",")):
                if name:
                    found += 1
                    assert hasattr(imported, name) or importlib.util.find_spec(f"{module}.{name}"), (
                        f"{path.name}: from {module} import {name}"
                    )
    assert found > 20  # the README shows many
    assert holdem.__version__
