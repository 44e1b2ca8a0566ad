"""The hands of every source, as PHH documents: .phh and .phhs files, PokerStars text, folders of
them, and .tar archives (.tar.gz, .tar.xz) holding them.

A source that cannot be read at all, and each hand in it that cannot, is reported as a `Skipped`
with its name (``file#3`` for the third hand of a .phhs file, ``file: hand #123`` for a PokerStars
hand) and the reason; the rest is read.
"""

from __future__ import annotations

import re
import tarfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from holdem.errors import HoldemError, InvalidHistoryError
from holdem.formats import phh
from holdem.formats.pokerstars.read import read_hands
from holdem.formats.text import decode

__all__ = ["Document", "Skipped", "documents", "files"]

_SUFFIXES = (".phh", ".phhs", ".txt")
_ARCHIVES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2")
_CHUNK = 1 << 20
"""Characters of a .phhs file read at a time (about 3,000 hands): memory stays flat on any size."""
_HEADER = re.compile(r"^\[([^\]\n]*)\][ \t]*$", re.M)


@attrs.frozen
class Document:
    """One hand: where it came from, and its PHH document."""

    source: str
    doc: dict[str, Any]


@attrs.frozen
class Skipped:
    """A hand or a file that could not be read, and why."""

    source: str
    reason: str
    game: str | None = None  # a game the engine does not play (``Badugi Limit``), summed up by file
    file: str | None = None  # the file it was in, when `source` names a hand in it


def _is_archive(path: Path) -> bool:
    return path.name.endswith(_ARCHIVES)


def files(paths: Sequence[str | Path]) -> list[Path]:
    """The files `paths` name, folders searched for .phh, .phhs, .txt and archives, in sorted order."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(
                p for p in path.rglob("*") if p.is_file() and (p.suffix in _SUFFIXES or _is_archive(p))
            )
            if not found:
                raise HoldemError(f"no .phh, .phhs or PokerStars .txt files in {str(path)!r}")
            out.extend(found)
        elif path.exists():  # a file, or a pipe: `holdem stats <(zcat hands.txt.gz)`
            out.append(path)
        else:
            raise HoldemError(f"no such file or folder: {str(path)!r}")
    return out


def documents(
    paths: Sequence[Path], *, progress: Callable[[int, int], None] | None = None
) -> Iterator[Document | Skipped]:
    """Every hand of the files `paths` (from `files`), in order; `progress(done, total)` is called
    with the bytes read so far."""
    sizes = [path.stat().st_size for path in paths]
    total, done = max(sum(sizes), 1), 0
    if progress:
        progress(0, total)
    for path, size in zip(paths, sizes, strict=True):
        if _is_archive(path):
            yield from _archive(path)
        else:
            try:
                text = decode(path.read_bytes())  # (read_text's newline translation: 20x slower)
            except (OSError, UnicodeDecodeError) as error:
                yield Skipped(str(path), f"cannot read it: {error}")
            else:
                moved = None if progress is None else _mover(progress, done, total)
                yield from _text(str(path), path.name, text, moved)
        done += size
        if progress:
            progress(done, total)


def _mover(progress: Callable[[int, int], None], done: int, total: int) -> Callable[[int], None]:
    """A callback for the characters of a file read so far, which moves the bar (a character is
    about a byte in a hand history)."""
    return lambda read: progress(done + read, total)


def _archive(path: Path) -> Iterator[Document | Skipped]:
    """The hands of the files in a .tar archive, by their names in sorted order (read in the
    archive's order first: a compressed archive read out of order is decompressed again each time)."""
    try:
        with tarfile.open(path) as archive:
            texts = []
            for member in archive:
                data = (
                    archive.extractfile(member)
                    if member.isfile() and member.name.endswith(_SUFFIXES)
                    else None
                )
                if data is not None:
                    texts.append((member.name, data.read()))
    except (OSError, tarfile.TarError, EOFError) as error:
        yield Skipped(str(path), f"cannot read the archive: {error}")
        return
    for name, raw in sorted(texts):
        source = f"{path}:{name}"
        try:
            text = decode(raw)
        except UnicodeDecodeError as error:
            yield Skipped(source, f"cannot read it: {error}")
            continue
        yield from _text(source, name, text)


def _text(
    source: str, name: str, text: str, moved: Callable[[int], None] | None = None
) -> Iterator[Document | Skipped]:
    """The hands of one file's text: PokerStars when it says so, else PHH (one hand, or many in a
    .phhs, read a chunk at a time: `moved` is told how far)."""
    head = text[:300]
    if not text.strip():
        yield Skipped(source, "the file is empty")
    elif "PokerStars " in head and (" Hand #" in head or " Game #" in head):
        for hand in read_hands(text):
            where = f"{source}: hand #{hand.ident}"
            yield (
                Document(where, hand.doc)
                if hand.doc is not None
                else Skipped(where, str(hand.reason), hand.game, source)
            )
    elif name.endswith(".phhs"):
        yield from _many(source, text, moved)
    else:
        try:
            (doc,) = phh.loads(text)
        except HoldemError as error:
            if name.endswith(".phh"):
                yield Skipped(source, str(error))
            else:  # a file named otherwise that is not PokerStars text either
                yield Skipped(source, f"not a hand history (neither PokerStars text nor PHH: {error})")
        else:
            yield Document(source, doc)


def _many(source: str, text: str, moved: Callable[[int], None] | None = None) -> Iterator[Document | Skipped]:
    """The hands of a .phhs text, read a chunk of whole tables at a time; a chunk that does not
    read is read table by table, so that only the broken hands are skipped."""
    start = 0
    while start < len(text):
        end = text.find("\n[", start + _CHUNK)
        end = len(text) if end < 0 else end + 1
        chunk = text[start:end]
        try:
            hands = phh.tables(chunk)
        except InvalidHistoryError:
            yield from _one_by_one(source, chunk)
        else:
            for key, doc in hands:
                yield Document(f"{source}#{key}", doc)
        start = end
        if moved is not None:
            moved(end)


def _one_by_one(source: str, chunk: str) -> Iterator[Document | Skipped]:
    """The tables of a .phhs chunk read one at a time."""
    heads = list(_HEADER.finditer(chunk))
    if not heads:
        yield Skipped(source, "not a .phhs text: no tables [1], [2], …")
        return
    for k, head in enumerate(heads):
        body = chunk[head.end() : heads[k + 1].start() if k + 1 < len(heads) else len(chunk)]
        where = f"{source}#{head[1]}"
        try:
            (doc,) = phh.loads(body)
        except HoldemError as error:
            yield Skipped(where, str(error))
        else:
            yield Document(where, doc)
