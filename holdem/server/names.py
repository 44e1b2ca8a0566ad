"""Players' names that cannot pass for someone else's: normalised (NFKC), refused when they hold an
invisible character or a pile of combining marks, and refused when they look like a name in use at
the same table without being it (Unicode's confusable skeletons, UTS #39 section 4).

The skeleton of a name maps each character to the prototype it is confusable with
(`confusables.txt`, Unicode's data, shipped beside this module), after NFD, and NFD again: "аlice"
with a Cyrillic а and "alice" have one skeleton. Names are compared without case, as before.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from pathlib import Path

__all__ = ["MARKS_IN_A_ROW", "looks_like", "name_problem", "skeleton"]

MARKS_IN_A_ROW = 3
"""Most combining marks on one character (scripts that write vowels as marks use two or three)."""

_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u00ad\u034f\u180e\u17b4\u17b5")
"""Characters that print as nothing though their category says otherwise: the Hangul fillers, the blank
Braille pattern, the soft hyphen, the grapheme joiner, the Mongolian vowel separator, the Khmer
inherent vowels."""


def _is_invisible(char: str) -> bool:
    category = unicodedata.category(char)
    if char in _INVISIBLE or category in ("Cf", "Cc", "Co", "Cn", "Cs", "Zl", "Zp"):
        return True
    return category == "Zs" and char != " "  # spaces other than the plain one


def name_problem(text: str) -> str | None:
    """What is wrong with a name already in NFKC and stripped, in a few words, or None: an invisible
    character (only the plain space inside), a name starting with a combining mark, or a character
    under more than `MARKS_IN_A_ROW` of them."""
    hidden = next((c for c in text if _is_invisible(c)), None)
    if hidden is not None:
        return f"has an invisible character (U+{ord(hidden):04X} {unicodedata.name(hidden, 'unnamed')})"
    run = 0
    for k, char in enumerate(text):
        run = run + 1 if unicodedata.category(char).startswith("M") else 0
        if run and k == run - 1:
            return "starts with a combining mark, not a letter, digit or sign"
        if run > MARKS_IN_A_ROW:
            return f"has more than {MARKS_IN_A_ROW} combining marks on one character"
    return None


@functools.cache
def _prototypes() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in (Path(__file__).with_name("confusables.txt")).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, target = line.split(";")
            table[chr(int(source, 16))] = "".join(chr(int(h, 16)) for h in target.split())
    return table


def skeleton(name: str) -> str:
    """UTS #39's skeleton of `name`: NFD, each character to its prototype, NFD."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFD", name))
    return unicodedata.normalize("NFD", mapped)


def _skeletons(name: str) -> set[str]:
    """The skeletons that tell whether `name` looks like another, case aside: of the name in lower
    case ("ALІCE" with a Cyrillic І is "alice"), and in lower case after (a capital I passes for an l)."""
    return {skeleton(name.casefold()), skeleton(name).casefold()}


def looks_like(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that `name` looks like without being it, or None (the same name, without
    case, is the same name: somebody else may take it once it is free)."""
    mine = _skeletons(name)
    for other in others:
        if other.casefold() != name.casefold() and mine & _skeletons(other):
            return other
    return None
