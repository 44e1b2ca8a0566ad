"""Matches between bots: heads-up or ring, plain or duplicate, in one or many processes.

Hands are played in fixed chunks (in duplicate mode, whole deals), each with fresh bots seeded
by (seed, chunk, bot) and decks drawn from a source seeded by (seed, chunk), so the results are
the same whatever the number of worker processes. The bots rotate one seat per hand; in
duplicate mode each deal is played once per rotation, so that every bot holds every hand. Statistics
are gathered as hands stream in, so memory does not grow with the number of hands; Ctrl-C
ends a match early with the results of the hands played so far (`MatchResult.interrupted`).
"""

from __future__ import annotations

import pickle
import random
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from itertools import accumulate
from multiprocessing.pool import AsyncResult
from operator import itemgetter
from operator import sub as _sub
from typing import Any

import attrs

from holdem.bots import Bot, BotSpec, bot_name, load_bot
from holdem.bots.confidence import RunningMean
from holdem.bots.decide import Hooks, apply_answer, guarded, raised
from holdem.bots.luck import all_in_adjusted
from holdem.bots.parallel import worker_pool
from holdem.cards.deck import Deck, derive_seed
from holdem.errors import HoldemError, IllegalActionError
from holdem.hand.actions import Action, ActionKind
from holdem.hand.events import Phase
from holdem.hand.stakes import Rules, Stakes
from holdem.hand.state import Hand
from holdem.hand.views import actor_view
from holdem.hand.voluntary import entered

_PREFLOP, _RAISE, _CALL, _ALL_IN = Phase.PREFLOP, ActionKind.RAISE, ActionKind.CALL, ActionKind.ALL_IN
_clock = time.perf_counter
_MICRO = 1_000_000

__all__ = ["BotResult", "Fault", "MatchConfig", "MatchResult", "play_hand", "play_match"]


@attrs.frozen
class Fault:
    """A bot's failure in one hand: it raised, returned an illegal action or ran out of time.

    `traceback` is the bot's own traceback when it raised (None otherwise).
    """

    hand: int
    bot: int
    reason: str
    traceback: str | None = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class BotResult:
    """One bot's results. `bb_per_100` with its 95% interval `ci95`; VPIP and PFR as shares of the
    hands but walks and `aggression` as bets and raises per call after the flop, as `holdem stats`
    counts them (its VPIP, PFR and AF)."""

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
    adjusted_bb_per_100: float | None = None
    """All-in adjusted bb/100 (`holdem.bots.luck`), when the match was played with `all_in_adjusted`."""
    adjusted_ci95: tuple[float, float] | None = None


MAX_FAULTS = 1000
"""Faults kept in full in a result (every fault is counted in `BotResult.faults`)."""
CURVE_POINTS = 2000
"""About how many points of the winnings curve a result keeps, evenly spaced over the match."""


@attrs.frozen
class MatchResult:
    """The whole match: per-bot results, the first `MAX_FAULTS` faults, and the winnings curve.

    `curve` holds (hands played, each bot's cumulative chips) at evenly spaced points, the last
    hand included. `interrupted` is True when the match was stopped (Ctrl-C) before its end.
    """

    bots: tuple[BotResult, ...]
    hands: int
    deals: int
    duplicate: bool
    faults: tuple[Fault, ...]
    curve: tuple[tuple[int, tuple[int, ...]], ...]
    blinds: tuple[int, int] = (1, 2)
    stack: int = 200
    seed: int = 0
    interrupted: bool = False
    all_in_hands: int | None = None
    """Hands credited at their all-in equity (None when not asked for)."""


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
    all_in_adjusted: bool = False
    """Also report all-in adjusted results (`holdem.bots.luck`; an exact equity per all-in hand)."""


@attrs.define
class _Chunk:
    """What a chunk of hands contributes, per bot index: counters summed over its hands, each hand's
    chip deltas (for the interval and the curve), faults, and PHH records when asked for."""

    first: int
    vpip: list[int]
    pfr: list[int]
    raises: list[int]
    calls: list[int]
    decisions: list[int]
    seconds: list[float]
    walks: list[int]
    deltas: list[list[int]] = attrs.field(factory=list)
    adjusted: list[list[float]] = attrs.field(factory=list)
    all_ins: int = 0
    faults: list[Fault] = attrs.field(factory=list)
    histories: list[dict[str, Any]] = attrs.field(factory=list)

    @classmethod
    def empty(cls, first: int, bots: int) -> _Chunk:
        return cls(
            first, [0] * bots, [0] * bots, [0] * bots, [0] * bots, [0] * bots, [0.0] * bots, [0] * bots
        )


def play_hand(
    config: MatchConfig,
    bots: Sequence[Bot],
    index: int,
    *,
    export: bool = False,
    deck: Deck | None = None,
    chunk: _Chunk | None = None,
) -> _Chunk:
    """Play hand `index` of the match with these bot instances, adding it to `chunk` (a new one if
    None, which is returned); `export` keeps its PHH record. Without a `deck`, the hand draws one
    seeded by (seed, deal)."""
    n = len(bots)
    chunk = chunk if chunk is not None else _Chunk.empty(index, n)
    if deck is None:
        deal = index // n if config.duplicate else index
        deck = Deck.sampled(random.Random(derive_seed(0, config.seed, deal)), 2 * n + 8)
    _play_hands(config, bots, [(index, deck)], chunk, export)
    return chunk


def _play_hands(
    config: MatchConfig, bots: Sequence[Bot], hands: Iterable[tuple[int, Deck]], chunk: _Chunk, export: bool
) -> None:
    """Play each (hand index, deck) with these bots and add the hands to `chunk`: the match's hot
    path. Each decision is `decide`'s, with its usual case inline, and timed; the statistics are read
    from each hand's history when it ends (`_count`)."""
    n = len(bots)
    seatings = _SEATINGS[n]
    acts = [[bots[b].act for b in seat_bot] for seat_bot, _, _ in seatings]  # per rotation and position
    starts, ends, meets = _hooks(bots)
    names = seat_names(config.specs)
    dealt_names = [tuple(names[b] for b in seat_bot) for seat_bot, _, _ in seatings]
    stacks, stakes, rules, time_limit = [config.stack] * n, config.stakes, config.rules, config.time_limit
    clock, view_of, seconds, faults, deltas = _clock, actor_view, chunk.seconds, chunk.faults, chunk.deltas
    for index, deck in hands:
        rotation = index % n
        seat_bot, bot_seat, in_bot_order = seatings[rotation]  # the bot at each position, each bot's position
        hand = Hand.start(stacks, stakes, rules=rules, deck=deck)
        if meets is not None or starts is not None:
            _begin(hand, index, seat_bot, dealt_names[rotation], meets, starts, faults)
        history, act, preflop = hand.history, acts[rotation], 0
        while (actor := hand.actor) is not None:
            preflop += hand.phase is _PREFLOP  # every decision adds one action to the history
            seen = view_of(hand, actor, hand.legal_actions(), len(history))
            start = clock()
            try:
                action = act[actor](seen)
            except Exception as error:
                seconds[seat_bot[actor]] += clock() - start
                faults.append(Fault(index, seat_bot[actor], *raised(hand, actor, error)))
                continue
            seconds[seat_bot[actor]] += (elapsed := clock() - start)
            try:
                if type(action) is not Action or (time_limit is not None and elapsed > time_limit):
                    raise IllegalActionError  # not the usual case: `apply_answer` says why
                hand.act(action)  # the player to act is `actor`
            except IllegalActionError:
                if (fault := apply_answer(hand, actor, action, elapsed, time_limit)) is not None:
                    faults.append(Fault(index, seat_bot[actor], *fault))
        _count(hand, preflop, seat_bot, chunk)
        won = list(map(_sub, in_bot_order(hand.stacks), stacks))
        deltas.append(won)
        if ends is not None:
            _end(hand, index, seat_bot, ends, faults)
        if config.all_in_adjusted:
            adjusted = all_in_adjusted(hand)
            chunk.all_ins += adjusted is not None
            by_bot = [float(w) for w in won] if adjusted is None else [adjusted[p] for p in bot_seat]
            chunk.adjusted.append(by_bot)
        if export:
            from holdem.formats.phh import export as export_phh

            chunk.histories.append(export_phh(hand) | {"players": list(dealt_names[rotation]), "hand": index})


def _count(hand: Hand, preflop: int, seat_bot: Sequence[int], chunk: _Chunk) -> None:
    """Add a finished hand's counts to `chunk`, read from its history (its first `preflop` actions
    before the flop) as `holdem stats` reads them: each bot's decisions (a fault's check or fold too),
    VPIP, PFR and a walk as `holdem.hand.voluntary` defines them, and the calls and raises after the
    flop (aggression)."""
    history, decisions = hand.history, chunk.decisions
    before = history[:preflop]
    vpip, pfr, walk = entered(before, len(seat_bot), bool(hand.board))
    for p, _ in before:
        decisions[seat_bot[p]] += 1
    for p in vpip:
        chunk.vpip[seat_bot[p]] += 1
    for p in pfr:
        chunk.pfr[seat_bot[p]] += 1
    if walk >= 0:
        chunk.walks[seat_bot[walk]] += 1
    if preflop < len(history):
        calls, raises = chunk.calls, chunk.raises
        for p, action in history[preflop:]:
            decisions[seat_bot[p]] += 1
            kind = action.kind
            if kind is _CALL:
                calls[seat_bot[p]] += 1
            elif kind is _RAISE:
                raises[seat_bot[p]] += 1


def _begin(
    hand: Hand,
    index: int,
    seat_bot: Sequence[int],
    names: tuple[str, ...],
    meets: list[Any] | None,
    starts: list[Any] | None,
    faults: list[Fault],
) -> None:
    """Steps 2 and 3 of the life cycle for hand `index`: every bot dealt in meets the players, then is
    told the hand begins (its view made only for a bot that asked)."""
    if meets is not None:
        _tell(meets, seat_bot, index, faults, lambda _: (names,))
    if starts is not None:
        _tell(starts, seat_bot, index, faults, lambda p: (hand.view(p),))


def _end(hand: Hand, index: int, seat_bot: Sequence[int], ends: list[Any], faults: list[Fault]) -> None:
    """Step 5 for hand `index`: every bot dealt in that asked is told the hand is over."""
    _tell(ends, seat_bot, index, faults, lambda p: (hand.view(p), hand.result))


def _tell(
    hooks: list[Any],
    seat_bot: Sequence[int],
    index: int,
    faults: list[Fault],
    args: Callable[[int], tuple[Any, ...]],
) -> None:
    """Call the hook of each bot dealt in that has one, in dealing order, with `args(position)`; each
    failure a fault of hand `index`."""
    for p, b in enumerate(seat_bot):
        if hooks[b] is not None and (fault := guarded(hooks[b], *args(p))) is not None:
            faults.append(Fault(index, b, *fault))


def seat_names(specs: Sequence[BotSpec]) -> list[str]:
    """The bots' names in hand histories, made distinct where a bot plays itself (``random``,
    ``random#2``): a hand history names each player once."""
    names = [bot_name(spec) for spec in specs]
    return [name if names[:k].count(name) == 0 else f"{name}#{names[:k].count(name) + 1}"
            for k, name in enumerate(names)]  # fmt: skip


def _seating(n: int, r: int) -> tuple[tuple[int, ...], tuple[int, ...], itemgetter[Any]]:
    """With n bots rotated r seats: the bot at each hand position, each bot's position, and a
    getter of per-position values in bot order."""
    seats = tuple((b - r) % n for b in range(n))
    return tuple((p + r) % n for p in range(n)), seats, itemgetter(*seats)


_SEATINGS = [[_seating(n, r) for r in range(n)] for n in range(11)]


def _hooks(bots: Sequence[Bot]) -> tuple[list[Any] | None, list[Any] | None, list[Any] | None]:
    """Each bot's optional `start_hand`, `end_hand` and `meet` hooks (`holdem.bots.decide.Hooks`; None
    where it has none; None for all of them when no bot has that hook)."""
    hooks = [Hooks(b) for b in bots]
    starts, ends, meets = [h.start_hand for h in hooks], [h.end_hand for h in hooks], [h.meet for h in hooks]
    return (starts if any(starts) else None), (ends if any(ends) else None), (meets if any(meets) else None)


CHUNK = 200
"""Hands per chunk (in duplicate mode rounded up to whole deals). Each chunk starts with new bots,
random sources seeded by (seed, chunk, bot) and a deck source seeded by (seed, chunk), whatever
the number of workers, so results never depend on it (even for bots that learn within a chunk)."""


def _chunk_size(config: MatchConfig) -> int:
    n = len(config.specs)
    return -(-CHUNK // n) * n if config.duplicate else CHUNK


def _play_chunk(config: MatchConfig, first: int, stop: int, export: bool) -> _Chunk:
    """Play hands first..stop-1 with fresh bots, freshly seeded random sources and the chunk's decks."""
    bots = [load_bot(spec) for spec in config.specs]
    n = len(bots)
    chunk = _Chunk.empty(first, n)
    for b, bot in enumerate(bots):
        if (fault := Hooks(bot).seed(random.Random(derive_seed(1, config.seed, first, b)))) is not None:
            chunk.faults.append(Fault(first, b, *fault))
    _play_hands(config, bots, enumerate(_decks(config, first, stop), first), chunk, export)
    return chunk


def _decks(config: MatchConfig, first: int, stop: int) -> list[Deck]:
    """The decks of hands first..stop-1, drawn from a source seeded by (seed, first): one per hand,
    or in duplicate mode one per deal (every n hands), dealt again from the top each time."""
    n = len(config.specs)
    source = random.Random(derive_seed(0, config.seed, first))
    if not config.duplicate:
        return [Deck.sampled(source, 2 * n + 8) for _ in range(first, stop)]
    decks: list[Deck] = []
    for i in range(first, stop):
        decks.append(Deck.sampled(source, 2 * n + 8) if i == first or not i % n else decks[-1].copy())
    return decks


def _chunks(config: MatchConfig, hands: int, workers: int, export: bool) -> Generator[_Chunk]:
    """Each chunk's records, in hand order; with workers, a few chunks are in flight at a time."""
    size = _chunk_size(config)
    starts = range(0, hands, size)
    if workers <= 1:
        for first in starts:
            yield _play_chunk(config, first, min(first + size, hands), export)
        return
    with worker_pool(workers) as pool:
        pending: deque[AsyncResult[_Chunk]] = deque()
        for first in starts:
            pending.append(pool.apply_async(_play_chunk, (config, first, min(first + size, hands), export)))
            if len(pending) < 2 * workers:
                continue
            yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


class _Tally:
    """The running totals of a match, fed a chunk at a time in hand order."""

    def __init__(self, n: int, group: int) -> None:
        self.n, self.group, self.hands = n, group, 0
        self.chips, self.vpip, self.pfr = [0] * n, [0] * n, [0] * n
        self.raises, self.calls, self.decisions, self.walks = [0] * n, [0] * n, [0] * n, [0] * n
        self.seconds, self.fault_counts = [0.0] * n, [0] * n
        self.faults: list[Fault] = []
        self.samples = [RunningMean() for _ in range(n)]  # per bot, one sample per deal
        self.adjusted = [RunningMean() for _ in range(n)]  # in millionths of a chip, to stay exact
        self.all_ins = 0
        self.curve: list[tuple[int, tuple[int, ...]]] = []
        self.stride = 1

    def add(self, chunk: _Chunk) -> None:
        """Add a chunk's counters and its hands, which are whole deals (see `_chunk_size`)."""
        for name in ("vpip", "pfr", "raises", "calls", "decisions", "seconds", "walks"):
            mine, theirs = getattr(self, name), getattr(chunk, name)
            setattr(self, name, [a + b for a, b in zip(mine, theirs, strict=True)])
        for fault in chunk.faults:
            self.fault_counts[fault.bot] += 1
            if len(self.faults) < MAX_FAULTS:
                self.faults.append(fault)
        self.all_ins += chunk.all_ins
        hands, group = len(chunk.deltas), self.group
        if not hands:
            return
        assert self.hands % group == 0 and hands % group == 0, "a chunk of whole deals"
        columns = list(zip(*chunk.deltas, strict=True))  # per bot, its chips in each hand
        for b, column in enumerate(columns):
            self.samples[b].add_all(_per_deal(column, group))
        if chunk.adjusted:
            for b, values in enumerate(zip(*chunk.adjusted, strict=True)):
                self.adjusted[b].add_all(_per_deal([round(v * _MICRO) for v in values], group))
        # The winnings curve: a point every `stride` hands, read off each hand's running totals.
        first, stride = self.hands, self.stride
        running = (accumulate(column, initial=c) for c, column in zip(self.chips, columns, strict=True))
        totals = list(zip(*running, strict=True))  # each bot's chips after each hand
        point = (first // stride + 1) * stride  # the chunk's first point (the curve is stride, 2 stride, ...)
        points = range(point, first + hands + 1, stride)
        self.curve += zip(points, totals[point - first :: stride], strict=True)
        while len(self.curve) >= 2 * CURVE_POINTS:  # thin out: keep every other point
            self.curve = self.curve[1::2]
            self.stride *= 2
        self.hands = first + hands
        self.chips = list(totals[-1])

    def result(self, config: MatchConfig, interrupted: bool) -> MatchResult:
        scale = 100 / (self.group * config.stakes.big_blind)  # a sample is chips per deal
        bots = []
        for b in range(self.n):
            mean, low, high = self.samples[b].ci(scale)
            adjusted = self.adjusted[b].ci(scale / _MICRO) if config.all_in_adjusted else None
            bots.append(
                BotResult(
                    name=bot_name(config.specs[b]),
                    hands=self.hands,
                    chips=self.chips[b],
                    bb_per_100=mean,
                    ci95=(low, high),
                    vpip=self.vpip[b] / max(self.hands - self.walks[b], 1),
                    pfr=self.pfr[b] / max(self.hands - self.walks[b], 1),
                    aggression=self.raises[b] / self.calls[b] if self.calls[b] else None,
                    faults=self.fault_counts[b],
                    decisions=self.decisions[b],
                    seconds=self.seconds[b],
                    adjusted_bb_per_100=adjusted[0] if adjusted else None,
                    adjusted_ci95=adjusted[1:] if adjusted else None,
                )
            )
        curve = self.curve
        if self.hands and (not curve or curve[-1][0] != self.hands):
            curve = [*curve, (self.hands, tuple(self.chips))]
        return MatchResult(
            bots=tuple(bots),
            hands=self.hands,
            deals=self.hands // self.group,
            duplicate=config.duplicate,
            faults=tuple(self.faults),
            curve=tuple(curve),
            blinds=(config.stakes.small_blind, config.stakes.big_blind),
            stack=config.stack,
            seed=config.seed,
            interrupted=interrupted,
            all_in_hands=self.all_ins if config.all_in_adjusted else None,
        )


def _per_deal(values: Sequence[int], group: int) -> Sequence[int]:
    """Sums of consecutive runs of `group` values (a duplicate deal's hands); the values if 1."""
    return values if group == 1 else [sum(values[i : i + group]) for i in range(0, len(values), group)]


def play_match(
    config: MatchConfig,
    hands: int,
    *,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    history: Callable[[dict[str, Any]], None] | None = None,
) -> MatchResult:
    """Play `hands` hands (rounded up to whole deals in duplicate mode) and sum up.

    `history`, if given, is called with each hand's PHH document, in hand order, as it is played.
    Bots may be names, classes, factories or instances (copied for every chunk); with `workers`
    above 1 they must be picklable (module-level classes and functions, not lambdas).

    >>> result = play_match(MatchConfig(("calling-station", "folder"), seed=1), hands=100)
    >>> result.hands, [(bot.name, bot.chips) for bot in result.bots]
    (100, [('calling-station', 42), ('folder', -42)])
    """
    n = len(config.specs)
    if not 2 <= n <= 10:
        raise HoldemError(f"a match needs 2 to 10 bots, got {n}")
    if type(hands) is not int or hands <= 0:
        raise HoldemError(f"a match needs at least one hand, got {hands!r}")
    if type(workers) is not int or workers <= 0:
        raise HoldemError(f"workers must be a positive whole number, got {workers!r}")
    if type(config.stack) is not int or config.stack < config.stakes.big_blind:
        raise HoldemError(
            f"the stack {config.stack!r} is below the big blind {config.stakes.big_blind}: every player"
            " starts with at least a big blind"
        )
    for spec in config.specs:  # fail fast, in this process, on a bad spec
        load_bot(spec)
    if workers > 1:
        try:
            pickle.dumps(config)
        except Exception as error:
            raise HoldemError(
                f"the bots cannot be sent to worker processes ({type(error).__name__}: {error});"
                " use workers=1, or bots defined at module level (not lambdas or local classes)"
            ) from None
    if config.duplicate:
        hands = -(-hands // n) * n
    tally = _Tally(n, n if config.duplicate else 1)
    chunks = _chunks(config, hands, workers, history is not None)
    interrupted = False
    try:
        for chunk in chunks:
            tally.add(chunk)
            if history is not None:
                for document in chunk.histories:
                    history(document)
            if progress:
                progress(tally.hands, hands)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        chunks.close()
    return tally.result(config, interrupted)
