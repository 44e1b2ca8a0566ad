"""Hand ranges in standard notation: ``AKs``, ``KQo``, ``TT+``, ``A5s-A2s``, ``22-55``, ``AK``,
any two cards (``any``, ``random``, ``XX``) and the strongest share of hands (``20%``).

A range is a set of two-card combinations, each with a weight (default 1):
``"AKs:0.5, QQ+, AsKd"``. Items are comma-separated; a later item overrides the weight
an earlier one gave the same combination.

A percentage takes the strongest starting-hand classes in the order of ``holdem/cards/preflop.txt``
(all-in equity against one random hand; see `preflop_order`) until they hold at least that share
of the 1,326 combinations: ``10%`` is the 21 strongest classes (AA down to A8s, 134 combinations).
"""

from __future__ import annotations

import itertools
import re
from functools import cache
from importlib import resources

from holdem.cards.card import RANK_CHARS, parse_cards
from holdem.errors import InvalidCardError, InvalidRangeError

__all__ = ["ANY_TWO", "Combo", "parse_range", "preflop_order"]

Combo = tuple[int, int, float]
"""A two-card holding as (card index, card index, weight), higher card first."""

ANY_TWO = ("any", "random", "xx")
"""Names of the range of every two cards (case does not matter)."""
_PERCENT = re.compile(r"([0-9]+(?:\.[0-9]+)?)%")
_ITEM = re.compile(r"([2-9TJQKA])([2-9TJQKA])([so]?)(\+?)", re.IGNORECASE)


def _rank(char: str) -> int:
    return RANK_CHARS.index(char.upper())


def _combos(high: int, low: int, kind: str) -> list[tuple[int, int]]:
    """The card pairs of one hand class: a pair, or suited (s), offsuit (o) or both ('')."""
    if high == low:
        return [(4 * high + b, 4 * high + a) for a, b in itertools.combinations(range(4), 2)]
    pairs = [(4 * high + s, 4 * low + t) for s in range(4) for t in range(4)]
    if kind == "s":
        return [(a, b) for a, b in pairs if a & 3 == b & 3]
    if kind == "o":
        return [(a, b) for a, b in pairs if a & 3 != b & 3]
    return pairs


def _why_not(item: str) -> str:
    """Why `item` is neither two cards nor a hand class, in words a player reads."""
    if len(item) == 4:  # two cards, one of them not a card
        for token in (item[:2], item[2:]):
            if len(token) != 2 or token[0].upper() not in "23456789TJQKA" or token[1].lower() not in "cdhs":
                return f"{token!r} is not a card (a rank 2-9, T, J, Q, K or A, then a suit c, d, h or s)"
        return "the two cards are the same"
    return (
        "write two cards (AsKd), two ranks with s (suited) or o (offsuit) and + for 'and better'"
        " (AKs, 77+), or a span (A5s-A2s)"
    )


def _classes(item: str) -> list[tuple[int, int, str]]:
    """The hand classes (high, low, kind) named by one range item without its weight."""
    if "-" in item:
        first, last = (_ITEM.fullmatch(part.strip()) for part in item.split("-", 1))
        if not first or not last or first[4] or last[4] or first[3].lower() != last[3].lower():
            raise InvalidRangeError(f"bad span {item!r}")
        (a, b), (c, d) = (sorted(map(_rank, m.group(1, 2)), reverse=True) for m in (first, last))
        kind = first[3].lower()
        if a == b and c == d:
            return [(r, r, "") for r in range(min(a, c), max(a, c) + 1)]
        if a == c and a not in (b, d):
            return [(a, r, kind) for r in range(min(b, d), max(b, d) + 1)]
        raise InvalidRangeError(f"bad span {item!r}: ends must be pairs, or share their top card")
    match = _ITEM.fullmatch(item)
    if not match:
        raise InvalidRangeError(f"bad range item {item!r}: {_why_not(item)}")
    high, low = sorted(map(_rank, match.group(1, 2)), reverse=True)
    kind, plus = match[3].lower(), match[4]
    if high == low and kind:
        raise InvalidRangeError(f"a pair cannot be suited or offsuit: {item!r}")
    if not plus:
        return [(high, low, kind)]
    if high == low:
        return [(r, r, "") for r in range(high, 13)]
    return [(high, r, kind) for r in range(low, high)]


@cache
def preflop_order() -> tuple[str, ...]:
    """The 169 starting-hand classes (``AA``, ``AKs``, ``AKo``, …), strongest first, from ``preflop.txt``."""
    text = resources.files("holdem.cards").joinpath("preflop.txt").read_text()
    return tuple(line.split()[0] for line in text.splitlines() if line and not line.startswith("#"))


def _top(percent: float, item: str) -> list[tuple[int, int, str]]:
    """The strongest classes holding at least `percent`% of all 1,326 combinations."""
    if not 0 < percent <= 100:
        raise InvalidRangeError(f"a percentage range must be above 0% and at most 100%, got {item!r}")
    chosen, combos = [], 0
    for name in preflop_order():
        if combos >= percent / 100 * 1326:
            break
        ((high, low, kind),) = _classes(name)
        chosen.append((high, low, kind))
        combos += 6 if high == low else 4 if kind == "s" else 12
    return chosen


def parse_range(text: str) -> list[Combo]:
    """All combinations of a range, each with its weight, in first-mention order."""
    weights: dict[tuple[int, int], float] = {}
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        item, _, weight_text = item.partition(":")
        weight = _weight(weight_text, raw) if weight_text else 1.0
        item = item.strip()
        try:
            cards = parse_cards(item)
        except InvalidCardError:
            cards = ()
        if len(cards) == 2:
            a, b = sorted((c.index for c in cards), reverse=True)
            weights[(a, b)] = weight
            continue
        if item.lower() in ANY_TWO:
            for a, b in itertools.combinations(range(51, -1, -1), 2):
                weights[(a, b)] = weight
            continue
        percent = _PERCENT.fullmatch(item)
        classes = _top(float(percent[1]), item) if percent else _classes(item)
        for high, low, kind in classes:
            for combo in _combos(high, low, kind):
                weights[combo] = weight
    if not weights:
        raise InvalidRangeError(f"empty range {text!r}")
    return [(a, b, w) for (a, b), w in weights.items() if w > 0]


def _weight(text: str, item: str) -> float:
    try:
        weight = float(text)
    except ValueError:
        raise InvalidRangeError(f"bad weight in {item.strip()!r}") from None
    if not 0 <= weight <= 1:
        raise InvalidRangeError(f"weight must be between 0 and 1 in {item.strip()!r}")
    return weight
