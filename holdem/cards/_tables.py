"""Lookup tables of the evaluator: how they are built, saved and loaded.

A card's key adds up, over a hand, to one integer that says everything the evaluator needs:

* bits 0–16: the counts of ranks 2–8 in base 5 (a count is at most 4);
* bits 17–31: the counts of ranks 9–A in base 5;
* bits 32–47: four 4-bit suit counters that start at 3, so a suit with five or more cards
  sets bit 3 of its counter (`FLUSH_BITS`).

Without a flush the hand's strength depends only on the rank counts (the low 32 bits): one
entry per multiset of 5–7 ranks. With a flush it depends only on the ranks of the flush suit:
one entry per 13-bit rank mask. Both tables are built as "best five of the cards", by
dynamic programming over removing one card at a time, from the ranking of all 7,462 distinct
five-card hands. Building takes about a second, so the result ships as ``tables.bin`` and
`scripts/gen_tables.py` rebuilds it (a test checks that the shipped file is current).
"""

from __future__ import annotations

import itertools
import struct
import zlib
from array import array
from importlib import resources

__all__ = [
    "CARD_KEYS",
    "CATEGORY_STARTS",
    "FLUSH_BITS",
    "HIGH_SHIFT",
    "LOOKUP_MASK",
    "OFFSET",
    "SUIT_BITS",
    "SUIT_SHIFT",
    "build",
    "five_card_classes",
    "load",
    "save",
]  # fmt: skip

HIGH_SHIFT = 17
SUIT_SHIFT = 32
CARD_KEYS: tuple[int, ...] = tuple(
    (5**r if r < 7 else 5 ** (r - 7) << HIGH_SHIFT) + (1 << (SUIT_SHIFT + 4 * s))
    for r in range(13)
    for s in range(4)
)
OFFSET = sum(3 << (SUIT_SHIFT + 4 * s) for s in range(4))
FLUSH_BITS = sum(8 << (SUIT_SHIFT + 4 * s) for s in range(4))
LOOKUP_MASK = (1 << SUIT_SHIFT) - 1 | FLUSH_BITS
SUIT_BITS: tuple[int, ...] = tuple(1 << (16 * (c & 3) + (c >> 2)) for c in range(52))
"""Per card, its rank bit inside a 16-bit field of its suit: summed, the rank mask of every suit."""

# Category numbers (HandCategory) and how many distinct strengths each has, weakest first.
_CLASS_COUNTS = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)
CATEGORY_STARTS: tuple[int, ...] = tuple(1 + sum(_CLASS_COUNTS[:i]) for i in range(len(_CLASS_COUNTS)))
"""The lowest strength of each category; strengths run from 1 to 7,462."""

_DESC = range(12, -1, -1)
_WHEEL = (3, 2, 1, 0, 12)


def _straight_high(ranks: frozenset[int]) -> int:
    """The top rank of the straight made by five distinct `ranks`, or -1."""
    top = max(ranks)
    if len(ranks) == 5 and top - min(ranks) == 4:
        return top
    return 3 if ranks == frozenset(_WHEEL) else -1


def five_card_classes() -> list[tuple[int, tuple[int, ...]]]:
    """All 7,462 distinct five-card hands as (category, deciding ranks), weakest first."""
    classes: list[tuple[int, tuple[int, ...]]] = []
    for five in itertools.combinations(_DESC, 5):
        high = _straight_high(frozenset(five))
        classes += [(8, (high,)), (4, (high,))] if high >= 0 else [(5, five), (0, five)]
    for a, b in itertools.permutations(_DESC, 2):
        classes += [(7, (a, b)), (6, (a, b))]
    for trips in _DESC:
        others = [r for r in _DESC if r != trips]
        classes += [(3, (trips, *kick)) for kick in itertools.combinations(others, 2)]
        classes += [(1, (trips, *kick)) for kick in itertools.combinations(others, 3)]
    for high, low in itertools.combinations(_DESC, 2):
        classes += [(2, (high, low, k)) for k in _DESC if k not in (high, low)]
    return sorted(classes)


def _five_class(ranks: tuple[int, ...], suited: bool) -> tuple[int, tuple[int, ...]]:
    """The (category, deciding ranks) of five cards with these ranks, flush or not."""
    counts = {r: ranks.count(r) for r in set(ranks)}
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if len(counts) == 5:
        high = _straight_high(frozenset(ranks))
        if high >= 0:
            return (8 if suited else 4), (high,)
        return (5 if suited else 0), tuple(order)
    category = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}[tuple(shape)]
    return category, tuple(order)


def build() -> tuple[dict[int, int], list[int]]:
    """Build (rank-multiset table, flush table) from the five-card ranking."""
    strength = {c: i + 1 for i, c in enumerate(five_card_classes())}
    # Non-flush: every multiset of 5–7 ranks, each rank at most four times, as a sorted tuple.
    best: dict[tuple[int, ...], int] = {}
    for size in (5, 6, 7):
        for ranks in itertools.combinations_with_replacement(range(13), size):
            if any(ranks.count(r) > 4 for r in set(ranks)):
                continue
            if size == 5:
                best[ranks] = strength[_five_class(ranks, False)]
            else:
                best[ranks] = max(best[ranks[:i] + ranks[i + 1 :]] for i in range(size))
    ranks_table = {_rank_key(ranks): value for ranks, value in best.items()}
    # Flush: every set of 5–7 distinct ranks of one suit, as a 13-bit mask.
    flush = [0] * 8192
    for size in (5, 6, 7):
        for ranks in itertools.combinations(range(13), size):
            mask = sum(1 << r for r in ranks)
            if size == 5:
                flush[mask] = strength[_five_class(ranks, True)]
            else:
                flush[mask] = max(flush[mask & ~(1 << r)] for r in ranks)
    return ranks_table, flush


def _rank_key(ranks: tuple[int, ...]) -> int:
    """The low 32 bits of the summed card keys of cards with these ranks."""
    return sum(CARD_KEYS[4 * r] for r in ranks) & ((1 << SUIT_SHIFT) - 1)


_MAGIC = b"holdem-tables-1\n"


def save(path: str, ranks_table: dict[int, int], flush: list[int]) -> None:
    """Write the tables as a small compressed binary file."""
    keys = array("q", ranks_table.keys())
    values = array("H", ranks_table.values())
    body = struct.pack("<I", len(keys)) + keys.tobytes() + values.tobytes()
    body += array("H", flush).tobytes()
    with open(path, "wb") as out:
        out.write(_MAGIC + zlib.compress(body, 9))


def load() -> tuple[dict[int, int], list[int]]:
    """Read the shipped tables (built by `build`, saved by `save`)."""
    raw = resources.files("holdem.cards").joinpath("tables.bin").read_bytes()
    if not raw.startswith(_MAGIC):
        raise RuntimeError("holdem/cards/tables.bin is not a holdem table file; run scripts/gen_tables.py")
    body = zlib.decompress(raw[len(_MAGIC) :])
    (count,) = struct.unpack_from("<I", body)
    keys = array("q")
    keys.frombytes(body[4 : 4 + 8 * count])
    values = array("H")
    values.frombytes(body[4 + 8 * count : 4 + 10 * count])
    flush = array("H")
    flush.frombytes(body[4 + 10 * count :])
    return dict(zip(keys, values, strict=True)), flush.tolist()
