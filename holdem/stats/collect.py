"""Statistics gathered over many hands: from files, from PHH documents, or from hands just played.

`Collection` keeps the counts per player and position, the hands it skipped and why, and (when
asked, for a plot) each player's results hand by hand.
"""

from __future__ import annotations

import datetime
import zoneinfo
from array import array
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from holdem.bots.luck import all_in_adjusted
from holdem.errors import HoldemError, InvalidHistoryError
from holdem.formats import phh
from holdem.hand.state import Hand
from holdem.stats.facts import FOLD, HandFacts, facts_from_document, facts_from_hand, names_of
from holdem.stats.report import PlayerStats, player_stats
from holdem.stats.sources import Document, Skipped, documents, files
from holdem.stats.tally import Counts, tally

__all__ = ["Collection", "read"]


@attrs.define
class Results:
    """One player's results hand by hand: big blinds won, and whether the hand went to showdown."""

    won: array[float] = attrs.field(factory=lambda: array("d"))
    showdown: bytearray = attrs.field(factory=bytearray)
    when: list[datetime.datetime | None] = attrs.field(factory=list)
    """Each hand's date and time (UTC where the history names its zone), None where it has none."""

    def in_order(self) -> list[int]:
        """The hands in the order they were played: by date when every one has it, else as read."""
        dates = [w for w in self.when if w is not None]
        if len(dates) < len(self.when):
            return list(range(len(self.when)))
        return sorted(range(len(dates)), key=dates.__getitem__)


@attrs.define
class Collection:
    """Player statistics over a set of hands.

    `check` replays every hand by the rules before counting it (a hand that breaks them is
    skipped); otherwise a hand is read from its actions and finishing stacks, and replayed only
    when it records no finishing stacks. `adjust` also counts all-in adjusted winnings (each
    all-in before the river replayed and valued exactly: about 50 ms a preflop all-in).
    `results` keeps each player's hand-by-hand results, for `holdem stats --plot`.

    >>> from holdem import Action, Hand, Stakes
    >>> from holdem.formats import phh
    >>> hand = Hand.start([200, 200], Stakes(1, 2))
    >>> hand.act(Action.raise_to(6))
    >>> hand.act(Action.fold())
    >>> stats = Collection()
    >>> stats.add_document(phh.export(hand) | {"players": ["ann", "bob"]}, "example")  # counted
    True
    >>> [(p.player, p.rates["vpip"].done, p.won) for p in stats.players()]
    [('ann', 0, -1.0), ('bob', 1, 1.0)]
    """

    check: bool = False
    adjust: bool = False
    results: dict[str, Results] | None = None
    by_bot: bool = False
    """Count each player under the bot they play (a tournament history's ``_bots``), not their name:
    a bot's row adds up every entrant that played it."""
    counts: dict[tuple[str, str], Counts] = attrs.field(factory=dict)
    hands: int = 0
    skipped: list[Skipped] = attrs.field(factory=list)

    def add_document(self, doc: Mapping[str, Any], source: str = "<phh>") -> bool:
        """Count one PHH hand; False (and the hand in `skipped`) when it cannot be read."""
        try:
            facts = self._facts(doc, source)
        except HoldemError as error:
            self.skipped.append(Skipped(source, str(error)))
            return False
        bots = doc.get("_bots")
        if self.by_bot and isinstance(bots, list) and len(bots) == len(facts.names):
            facts = attrs.evolve(facts, names=tuple(map(str, bots)))
        self.add(facts, _when(doc))
        return True

    def add_hand(self, hand: Hand, names: Sequence[str]) -> None:
        """Count a complete `hand` its players `names` played."""
        adjusted = all_in_adjusted(hand) if self.adjust else None
        self.add(facts_from_hand(hand, names, adjusted=adjusted))

    def add(self, facts: HandFacts, when: datetime.datetime | None = None) -> None:
        """Count one hand's facts (`when`: its date and time, for the plot's order)."""
        tally(facts, self.counts)
        self.hands += 1
        if self.results is not None:
            live = _at_showdown(facts)
            for p, name in enumerate(facts.names):
                results = self.results.setdefault(name, Results())
                results.won.append(facts.net[p] / facts.big_blind)
                results.showdown.append(p in live)
                results.when.append(when)

    def add_all(self, items: Iterable[Document | Skipped]) -> None:
        """Count every document of `items`, and keep the sources skipped."""
        for item in items:
            if isinstance(item, Skipped):
                self.skipped.append(item)
            else:
                self.add_document(item.doc, item.source)

    def players(self, *, by_position: bool = False, min_hands: int = 0) -> list[PlayerStats]:
        """Each player's statistics (and by position, when asked), most hands first."""
        return player_stats(self.counts, by_position=by_position, min_hands=min_hands, adjusted=self.adjust)

    def _facts(self, doc: Mapping[str, Any], source: str) -> HandFacts:
        facts = None if self.check else facts_from_document(doc)
        if facts is not None and not (self.adjust and _could_be_adjusted(facts)):
            return facts
        played = phh.replay(doc, source)
        if played.hand is None or not played.settled:
            raise InvalidHistoryError("the showdown's cards are unknown and no finishing stacks are given")
        if played.by_history:  # cards nobody knows: the history's stacks, checked against the pots
            by_history = facts_from_document(doc)
            assert by_history is not None  # it gives finishing stacks
            return by_history
        adjusted = all_in_adjusted(played.hand) if self.adjust else None
        stated = facts_from_document(doc)
        if stated is None:  # no finishing stacks: the engine's settlement is the only one
            return facts_from_hand(
                played.hand, names_of(doc, len(played.hand.starting_stacks)), adjusted=adjusted
            )
        _check_settlement(doc, played.finishing_stacks or ())
        return stated if adjusted is None else attrs.evolve(stated, adjusted=tuple(adjusted))


def _when(doc: Mapping[str, Any]) -> datetime.datetime | None:
    """A history's date and time (PHH's ``year``, ``month``, ``day``, ``time``), in UTC when it
    names its ``time_zone``; None when it has no date or an unreadable one."""
    try:
        at = datetime.datetime(int(doc["year"]), int(doc["month"]), int(doc["day"]))
        clock = datetime.time.fromisoformat(str(doc.get("time", "00:00:00")).zfill(8))
        at = datetime.datetime.combine(at.date(), clock)
        if doc.get("time_zone"):
            zone = zoneinfo.ZoneInfo(str(doc["time_zone"]))
            at = at.replace(tzinfo=zone).astimezone(datetime.UTC).replace(tzinfo=None)
    except (KeyError, TypeError, ValueError, zoneinfo.ZoneInfoNotFoundError):
        return None
    return at


def _check_settlement(doc: Mapping[str, Any], engine: Sequence[int]) -> None:
    """The history's finishing stacks are the engine's less the rake it states (``_rake``): each
    player keeps at most what the engine paid them, and the difference is the rake. So a hand counts
    the same read or replayed, rake included."""
    stated, rake = doc["finishing_stacks"], doc.get("_rake", 0)
    kept = [paid - left for paid, left in zip(engine, stated, strict=False)]
    if len(stated) != len(engine) or any(k < 0 for k in kept) or sum(kept) != rake:
        raise InvalidHistoryError(
            f"the finishing stacks {list(stated)} are not the engine's {list(engine)} less the rake {rake}"
        )


def _at_showdown(facts: HandFacts) -> set[int]:
    """The players still in at the end, when two or more are (a showdown); else none."""
    live = set(range(len(facts.names))) - {p for _, p, kind in facts.actions if kind & 3 == FOLD}
    return live if len(live) > 1 else set()


def _could_be_adjusted(facts: HandFacts) -> bool:
    """Whether a hand may have ended all-in before the river: a showdown, with no action on the river."""
    return bool(_at_showdown(facts)) and all(street < 3 for street, _, _ in facts.actions)


def read(
    paths: Sequence[str | Path], *, check: bool = False, adjust: bool = False, results: bool = False
) -> Collection:
    """The statistics of every hand in `paths` (files, folders, archives; see `holdem.stats.sources`)."""
    collection = Collection(check=check, adjust=adjust, results={} if results else None)
    collection.add_all(documents(files(paths)))
    return collection
