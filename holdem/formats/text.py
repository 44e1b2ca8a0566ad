"""Hand-history files as text: UTF-8, with or without a byte-order mark, or Windows-1252.

PokerStars writes its histories in UTF-8, some with a byte-order mark; older clients and many
trackers' exports use Windows-1252 ("cp1252"), where a non-breaking space is byte 0xA0. Bytes that
are not UTF-8 are read as Windows-1252 rather than skipping the whole file.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["decode", "read_history"]


def decode(raw: bytes) -> str:
    """The text of a hand-history file's bytes (raises `UnicodeDecodeError` when neither encoding
    reads them: Windows-1252 leaves five bytes undefined)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252")


def read_history(path: str | Path) -> str:
    """A hand-history file's text (`decode`); raises `OSError` or `UnicodeDecodeError`."""
    return decode(Path(path).read_bytes())
