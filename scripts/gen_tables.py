"""Rebuild holdem/cards/tables.bin, the evaluator's lookup tables (see holdem/cards/_tables.py)."""

from __future__ import annotations

from pathlib import Path

from holdem.cards import _tables


def main() -> None:
    path = Path(__file__).resolve().parent.parent / "holdem" / "tables.bin"
    ranks, flush = _tables.build()
    _tables.save(str(path), ranks, flush)
    print(f"wrote {path} ({path.stat().st_size:,} bytes, {len(ranks):,} rank entries)")


if __name__ == "__main__":
    main()
