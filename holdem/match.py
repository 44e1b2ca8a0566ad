"""Matches between bots: heads-up or ring, plain or duplicate, in one or many processes.

Hand ``h`` is dealt from a deck seeded by (seed, deal) and played with the bots rotated one
seat per hand; in duplicate mode each deal is played once per rotation, so that every bot
holds every hand. Each bot gets a fresh random source per hand, seeded by (seed, hand, bot),
so the results are the same whatever the number of worker processes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs

from holdem.actions import Action, ActionKind
from holdem.bots import Bot, BotSpec, bot_name, load_bot
from holdem.deck import Deck
from holdem.errors import HoldemError, IllegalActionError
from holdem.hand import Hand, Phase
from holdem.stakes import Rules, Stakes
from holdem.stats import mean_ci

__all__ = ["BotResult", "Fault", "MatchConfig", "MatchResult", "play_match"]


@attrs.frozen
class Fault:
    """A bot's failure in one hand: it raised, returned an illegal action or ran out of time."""

    hand: int
    bot: int
    reason: str


@attrs.frozen
class BotResult:
    """One bot's results. `bb_per_100` with its 95% interval `ci95`; VPIP/PFR as shares of hands."""

    name: str
    hands: int
    chips: int
    bb_per_100: float
    ci95: tuple[float, float]
    vpip: float
    pfr: float
    aggression: float | None
    faults: int
    decisions: int
    seconds: float = attrs.field(eq=False)
    """Time spent deciding (measured, so not part of equality between results)."""


@attrs.frozen
class MatchResult:
    """The whole match: per-bot results, every fault, and each bot's winnings per hand (chips)."""

    bots: tuple[BotResult, ...]
    hands: int
    deals: int
    duplicate: bool
    faults: tuple[Fault, ...]
    winnings: tuple[tuple[int, ...], ...]
    histories: tuple[dict[str, Any], ...] = ()


@attrs.frozen
class MatchConfig:
    """What is played: the bots (specs), stakes, starting stack, rules, seed and limits."""

    specs: tuple[BotSpec, ...]
    stakes: Stakes = attrs.field(factory=lambda: Stakes(1, 2))
    stack: int = 200
    rules: Rules = attrs.field(factory=Rules)
    seed: int = 0
    duplicate: bool = False
    time_limit: float | None = None
    history: bool = False


@attrs.define
class _Record:
    """What one hand contributes to the result, per bot index."""

    hand: int
    deltas: list[int]
    vpip: list[bool]
    pfr: list[bool]
    raises: list[int]
    calls: list[int]
    decisions: list[int]
    seconds: list[float]
    faults: list[Fault]
    history: dict[str, Any] | None


def _fallback(hand: Hand) -> Action:
    legal = hand.legal_actions()
    return Action.check() if legal is not None and legal.can_check else Action.fold()


def _guarded(method: Callable[..., object], *args: object) -> str | None:
    """Call a bot's hook; a failure is returned as a fault reason instead of stopping the match."""
    try:
        method(*args)
    except Exception as error:
        return f"{getattr(method, '__name__', 'hook')} raised {type(error).__name__}: {error}"
    return None


def _seed(*parts: int) -> int:
    """A seed from integers; hashes of int tuples are the same in every process."""
    return hash(parts) & ((1 << 62) - 1)


def play_hand(config: MatchConfig, bots: Sequence[Bot], index: int) -> _Record:
    """Play hand `index` of the match with these bot instances."""
    n = len(bots)
    deal, rotation = (index // n, index % n) if config.duplicate else (index, index % n)
    deck = Deck.sampled(random.Random(_seed(0, config.seed, deal)), 2 * n + 8)
    seat_bot = [(p + rotation) % n for p in range(n)]  # the bot playing each hand position
    hand = Hand.start([config.stack] * n, config.stakes, rules=config.rules, deck=deck)
    record = _Record(index, [0] * n, [False] * n, [False] * n, [0] * n, [0] * n, [0] * n, [0.0] * n, [], None)
    for p, b in enumerate(seat_bot):
        start_hand = getattr(bots[b], "start_hand", None)
        if start_hand is not None and (fault := _guarded(start_hand, hand.view(p))) is not None:
            record.faults.append(Fault(index, b, fault))
    while hand.actor is not None:
        p = hand.actor
        b = seat_bot[p]
        start = time.perf_counter()
        try:
            action: Any = bots[b].act(hand.view(p))
            reason = None
        except Exception as error:
            action, reason = None, f"act raised {type(error).__name__}: {error}"
        elapsed = time.perf_counter() - start
        record.decisions[b] += 1
        record.seconds[b] += elapsed
        if reason is None and not isinstance(action, Action):
            reason = f"act returned {action!r}, not an Action"
        if reason is None and config.time_limit is not None and elapsed > config.time_limit:
            reason = f"took {elapsed:.3f}s, over the {config.time_limit}s limit"
        if reason is None:
            preflop = hand.street is Phase.PREFLOP
            try:
                hand.act(action, p)
            except IllegalActionError as error:
                reason = f"illegal action {action}: {error}"
            else:
                _tally(record, b, action, preflop)
                continue
        record.faults.append(Fault(index, b, reason))
        hand.act(_fallback(hand), p)
    assert hand.result is not None
    for p, b in enumerate(seat_bot):
        record.deltas[b] = hand.result.payoffs[p]
        end_hand = getattr(bots[b], "end_hand", None)
        if end_hand is not None and (fault := _guarded(end_hand, hand.view(p), hand.result)) is not None:
            record.faults.append(Fault(index, b, fault))
    if config.history:
        from holdem.phh import export

        record.history = export(hand) | {
            "players": [bot_name(config.specs[b]) for b in seat_bot],
            "hand": index,
        }
    return record


def _tally(record: _Record, bot: int, action: Action, preflop: bool) -> None:
    """VPIP (put money in voluntarily preflop), PFR (raised preflop) and aggression counts."""
    kind = action.kind
    if kind is ActionKind.RAISE:
        record.raises[bot] += 1
    elif kind is ActionKind.CALL:
        record.calls[bot] += 1
    if preflop and kind in (ActionKind.CALL, ActionKind.RAISE):
        record.vpip[bot] = True
        record.pfr[bot] = record.pfr[bot] or kind is ActionKind.RAISE


CHUNK = 50
"""Hands per chunk. Each chunk starts with new bots and random sources seeded by (seed, chunk,
bot), whatever the number of workers, so results never depend on it (even for bots that learn
from hand to hand within a chunk)."""


def _play_indices(config: MatchConfig, indices: Sequence[int]) -> list[_Record]:
    """Play one chunk of hands with fresh bots and freshly seeded random sources."""
    bots = [load_bot(spec) for spec in config.specs]
    setup_faults = []
    for b, bot in enumerate(bots):
        set_random = getattr(bot, "set_random", None)
        if set_random is not None:
            rng = random.Random(_seed(1, config.seed, indices[0], b))
            if (fault := _guarded(set_random, rng)) is not None:
                setup_faults.append(Fault(indices[0], b, fault))
    records = [play_hand(config, bots, i) for i in indices]
    records[0].faults[:0] = setup_faults  # counted with the chunk's first hand
    return records


def play_match(
    config: MatchConfig,
    hands: int,
    *,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """Play `hands` hands (rounded up to whole deals in duplicate mode) and sum up."""
    n = len(config.specs)
    if not 2 <= n <= 10:
        raise HoldemError(f"a match needs 2 to 10 bots, got {n}")
    if hands <= 0:
        raise HoldemError(f"a match needs at least one hand, got {hands}")
    for spec in config.specs:  # fail fast, in this process, on a bad spec
        load_bot(spec)
    if config.duplicate:
        hands = -(-hands // n) * n
    batches = [list(range(s, min(s + CHUNK, hands))) for s in range(0, hands, CHUNK)]
    records: list[_Record] = []
    if workers <= 1:
        for batch in batches:
            records += _play_indices(config, batch)
            if progress:
                progress(len(records), hands)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for done in pool.map(_play_indices, [config] * len(batches), batches):
                records += done
                if progress:
                    progress(len(records), hands)
    records.sort(key=lambda r: r.hand)
    return _summarise(config, records)


def _summarise(config: MatchConfig, records: list[_Record]) -> MatchResult:
    n = len(config.specs)
    big = config.stakes.big_blind
    group = n if config.duplicate else 1  # duplicate: a deal's rotations are one sample
    results = []
    for b in range(n):
        per_hand = [r.deltas[b] for r in records]
        samples = [sum(per_hand[k : k + group]) / group / big * 100 for k in range(0, len(per_hand), group)]
        mean, low, high = mean_ci(samples)
        raises, calls = sum(r.raises[b] for r in records), sum(r.calls[b] for r in records)
        results.append(
            BotResult(
                name=bot_name(config.specs[b]),
                hands=len(records),
                chips=sum(per_hand),
                bb_per_100=mean,
                ci95=(low, high),
                vpip=sum(r.vpip[b] for r in records) / len(records),
                pfr=sum(r.pfr[b] for r in records) / len(records),
                aggression=raises / calls if calls else None,
                faults=sum(1 for r in records for f in r.faults if f.bot == b),
                decisions=sum(r.decisions[b] for r in records),
                seconds=sum(r.seconds[b] for r in records),
            )
        )
    return MatchResult(
        bots=tuple(results),
        hands=len(records),
        deals=len(records) // group,
        duplicate=config.duplicate,
        faults=tuple(f for r in records for f in r.faults),
        winnings=tuple(tuple(r.deltas[b] for r in records) for b in range(n)),
        histories=tuple(r.history for r in records if r.history is not None),
    )
