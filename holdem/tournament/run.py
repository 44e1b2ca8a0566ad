"""One tournament played by bots, on many tables and one clock (rules 22-30).

Tables play concurrently on a simulated tournament clock: a hand takes `hand_seconds` plus
`action_seconds` per action, and the table whose clock is earliest plays next, so levels change
mid-session and a table with long hands plays fewer of them. After every hand the tournament
director's work is done: eliminations and places (rules 28, 29), breaking (24) and balancing (25)
tables, moved players (26), and hand-for-hand on the bubble (27). Deterministic for a seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import attrs

from holdem.bots import Bot, BotSpec, bot_name, load_bot
from holdem.bots.decide import Hooks, decide
from holdem.cards.deck import derive_seed
from holdem.errors import InvalidConfigError
from holdem.hand.positions import place_blinds
from holdem.hand.stakes import Stakes
from holdem.hand.state import Hand
from holdem.table.table import Table
from holdem.tournament.payouts import payout_shares, prizes
from holdem.tournament.structure import BlindStructure, check_clock

__all__ = [
    "Finish",
    "HandPlayed",
    "TournamentConfig",
    "TournamentRun",
    "award",
    "draw_seats",
    "place_busts",
    "play_tournament",
    "rebalance",
    "seated",
]  # fmt: skip


@attrs.frozen
class TournamentConfig:
    """What is played: the bots (entrant i plays bots[i mod len(bots)]), the field, the structure,
    the buy-in and payout shares (None: the standard ones for the field), and the clock."""

    bots: tuple[BotSpec, ...]
    entrants: int
    structure: BlindStructure
    table_size: int = 9
    buy_in: int = 100
    shares: tuple[float, ...] | None = None
    hand_seconds: float = 30.0
    action_seconds: float = 5.0
    seed: int = 0

    def __attrs_post_init__(self) -> None:
        if not self.bots:
            raise InvalidConfigError("a tournament needs at least one bot")
        if type(self.entrants) is not int or self.entrants < 2:
            raise InvalidConfigError(f"a tournament needs at least 2 entrants, got {self.entrants!r}")
        if type(self.table_size) is not int or not 2 <= self.table_size <= 10:
            raise InvalidConfigError(f"tables hold 2 to 10 players, got {self.table_size!r}")
        check_clock(self.hand_seconds, self.action_seconds, self.buy_in)


@attrs.frozen
class Finish:
    """An entrant's result: name, bot, place (tied players share the best place of their group),
    prize, hands dealt, and faults (`holdem.bots.decide`: answers replaced, hooks that failed)."""

    entrant: str
    bot: str
    place: int
    prize: int
    hands: int
    faults: int = 0


@attrs.frozen
class TournamentRun:
    """One tournament: every entrant's finish (in entrant order), the prizes by place, hands played
    and the minutes on the tournament clock."""

    run: int
    finishes: tuple[Finish, ...]
    prizes: tuple[int, ...]
    hands: int
    minutes: float


@attrs.frozen
class HandPlayed:
    """A finished hand of a tournament, where and when it was played: the table (numbered from 1),
    the hand's number in the run (from 1, in the order hands started), the level it was played at
    (from 1), and per player of the hand (in the hand's order) the seat (from 1), entrant name and
    the name of the bot the entrant plays."""

    table: int
    number: int
    level: int
    minute: float
    seats: tuple[int, ...]
    seat_count: int
    players: tuple[str, ...]
    hand: Hand
    bots: tuple[str, ...] = ()


def play_tournament(
    config: TournamentConfig, run: int = 0, *, on_hand: Callable[[HandPlayed], None] | None = None
) -> TournamentRun:
    """Play tournament `run` of `config` to the end; `on_hand` sees every finished hand."""
    return _Tournament(config, run, on_hand).play()


class _Tournament:
    """The tournament director: tables, clocks, places."""

    def __init__(
        self, config: TournamentConfig, run: int, on_hand: Callable[[HandPlayed], None] | None
    ) -> None:
        self.config = config
        self.rng = random.Random(derive_seed(config.seed, run))
        self.run = run
        self.on_hand = on_hand
        n = config.entrants
        self.names = [f"e{k + 1:0{len(str(n))}d}" for k in range(n)]
        specs = [config.bots[k % len(config.bots)] for k in range(n)]
        self.bot_names = [bot_name(spec) for spec in specs]
        self.bot_of = dict(zip(self.names, self.bot_names, strict=True))
        self.bots: dict[str, Bot] = {}
        self.hooks: dict[str, Hooks] = {}
        self.faults = dict.fromkeys(self.names, 0)
        for name, spec in zip(self.names, specs, strict=True):
            bot = self.bots[name] = load_bot(spec)
            hooks = self.hooks[name] = Hooks(bot)
            if hooks.set_random is not None:  # a source drawn only for a bot that takes one
                self._fault(name, hooks.seed(random.Random(self.rng.getrandbits(64))))
        self.told = {
            name for name, hooks in self.hooks.items() if hooks.start_hand or hooks.end_hand or hooks.meet
        }
        """The entrants whose bots are told when their hands begin or end."""
        shares = config.shares if config.shares is not None else payout_shares(n)
        self.prizes = prizes(config.buy_in * n, shares[:n])
        self.place: dict[str, int] = {}
        self.prize: dict[str, int] = {}
        self.hands = dict.fromkeys(self.names, 0)
        self.played = 0
        self.stakes: dict[int, Stakes] = {}  # by level
        self.tables = self._draw_seats()  # rule 22
        self.clocks = [0.0] * len(self.tables)

    # ----------------------------------------------------------- set-up
    def _draw_seats(self) -> list[Table]:
        structure = self.config.structure
        return draw_seats(self.names, self.config.table_size, structure.levels[0].stakes(),
                          structure.starting_stack, self.rng, self.rng)  # fmt: skip

    # ----------------------------------------------------------- playing
    def play(self) -> TournamentRun:
        while len(self.place) < len(self.names) - 1:
            if len(self.tables) == 1:  # the final table: no bubble rounds, no moves
                self._place_busts(self._play_hand(0))
                continue
            playable = self._playable()
            if self._left() == len(self.prizes) + 1 and len(playable) > 1:
                self._hand_for_hand_round()  # rule 27
            else:
                t = min(playable, key=lambda k: (self.clocks[k], k))
                self._place_busts(self._play_hand(t))
            self._break_and_balance()
        (winner,) = [name for name in self.names if name not in self.place]
        self._award([winner], 1)
        finishes = tuple(
            Finish(name, bot, self.place[name], self.prize[name], self.hands[name], self.faults[name])
            for name, bot in zip(self.names, self.bot_names, strict=True)
        )
        return TournamentRun(self.run, finishes, self.prizes, self.played, max(self.clocks))

    def _fault(self, name: str, fault: tuple[str, str | None] | None) -> None:
        if fault is not None:
            self.faults[name] += 1

    def _left(self) -> int:
        return len(self.names) - len(self.place)

    def _playable(self) -> list[int]:
        """Tables with two or more players."""
        return [k for k, table in enumerate(self.tables) if seated(table) >= 2]

    def _play_hand(self, t: int) -> list[tuple[str, int]]:
        """One hand at table `t` (rule 23: at the level in force when it starts); returns the players
        it busted, with their stacks at its start."""
        table, structure = self.tables[t], self.config.structure
        level = self.config.structure.level_at(self.clocks[t])
        stakes = self.stakes.get(level)
        if stakes is None:
            stakes = self.stakes[level] = structure.level(level).stakes()
        table.stakes = stakes
        hand = table.start_hand()
        seats = table.hand_seats
        places = table.seats
        players = tuple([places[s].name for s in seats])  # type: ignore[union-attr]
        counts, all_bots = self.hands, self.bots
        for name in players:
            counts[name] += 1
        bots = [all_bots[name] for name in players]
        told = [(p, name, self.hooks[name]) for p, name in enumerate(players) if name in self.told]
        for _, name, hooks in told:
            self._fault(name, hooks.meet_players(players))
        for p, name, hooks in told:
            self._fault(name, hooks.start(hand, p))
        faults = self.faults
        while hand.actor is not None:
            p = hand.actor
            if decide(bots[p], hand)[1] is not None:
                faults[players[p]] += 1
        for p, name, hooks in told:
            self._fault(name, hooks.end(hand, p))
        actions = len(hand.history)
        out = len(table.eliminated)
        table.end_hand()  # busted players leave their seats (dead button), named in `eliminated`
        self.played += 1
        minute = self.clocks[t]
        self.clocks[t] += (self.config.hand_seconds + self.config.action_seconds * actions) / 60
        if self.on_hand is not None:
            self.on_hand(
                HandPlayed(
                    t + 1, self.played, level + 1, minute, tuple(s + 1 for s in seats), table.size,
                    players, hand, tuple(map(self.bot_of.__getitem__, players)),
                )
            )  # fmt: skip
        busted = table.eliminated[out:]
        if not busted:
            return []
        starting = dict(zip(players, hand.starting_stacks, strict=True))
        return [(name, starting[name]) for name in players if name in busted]

    def _hand_for_hand_round(self) -> None:
        """Rule 27: every table plays one hand, and the next starts only when all have finished; the
        players busted in the round finish together (rule 28)."""
        busted: list[tuple[str, int]] = []
        tables = self._playable()
        for t in tables:
            busted += self._play_hand(t)
        latest = max(self.clocks[t] for t in tables)
        for t in tables:
            self.clocks[t] = latest
        self._place_busts(busted)

    # ------------------------------------------------------------ places
    def _place_busts(self, busted: list[tuple[str, int]]) -> None:
        place_busts(busted, self._left(), self.prizes, self.names, self.place, self.prize)

    def _award(self, names: list[str], place: int) -> None:
        award(names, place, self.prizes, self.names, self.place, self.prize)

    # ------------------------------------------------------------ tables
    def _break_and_balance(self) -> None:
        broken = rebalance(self.tables, self._left(), self.config.table_size, self.rng)
        del self.clocks[len(self.clocks) - broken :]


def draw_seats(
    names: Sequence[str],
    size: int,
    stakes: Stakes,
    stack: int,
    rng: random.Random,
    deal: random.Random | None,
) -> list[Table]:
    """Rule 22: a random draw to the fewest tables that hold the field, sizes within one, and a random
    first button at each (dead from then on). `deal` shuffles the tables' decks (None: the system's
    CSPRNG)."""
    names = list(names)
    rng.shuffle(names)
    count = -(-len(names) // size)
    tables = []
    for t in range(count):
        table = Table(size, stakes, button="dead", rng=deal)
        players = names[t::count]
        for seat, name in zip(sorted(rng.sample(range(size), len(players))), players, strict=True):
            table.sit(seat, name, stack)
        table.button = rng.choice([s for s, p in enumerate(table.seats) if p is not None])
        tables.append(table)
    return tables


def place_busts(
    busted: list[tuple[str, int]], left: int, prizes: Sequence[int], order: Sequence[str],
    place: dict[str, int], prize: dict[str, int],
) -> None:  # fmt: skip
    """Rules 28-29: players out together (`busted`: names with their stacks at the start of the hand;
    `left`: players still in before them) finish by those stacks (more chips, higher place); equal
    stacks tie and share the prizes of the places they take. Fills `place` and `prize`."""
    groups: dict[int, list[str]] = {}
    for name, stack in busted:
        groups.setdefault(stack, []).append(name)
    at = left - len(busted) + 1
    for stack in sorted(groups, reverse=True):
        award(groups[stack], at, prizes, order, place, prize)
        at += len(groups[stack])


def award(
    names: list[str], place: int, prizes: Sequence[int], order: Sequence[str], places: dict[str, int],
    won: dict[str, int],
) -> None:  # fmt: skip
    """`names` take places place..place+len-1 together: the best place, and equal shares of the
    prizes (odd units one each, in entrant `order`)."""
    pool = sum(prizes[p - 1] for p in range(place, place + len(names)) if p <= len(prizes))
    share, odd = divmod(pool, len(names))
    for k, name in enumerate(sorted(names, key=order.index)):
        places[name] = place
        won[name] = share + (1 if k < odd else 0)


def rebalance(tables: list[Table], left: int, size: int, rng: random.Random) -> int:
    """Rule 24: break tables (highest number first: removed from `tables`) while the `left` players
    fit at one table fewer; rule 25: then move players from the longest table to the shortest until
    within one. Returns how many tables were broken. Tables change only between hands."""
    broken = 0
    while len(tables) > 1 and left <= (len(tables) - 1) * size:
        movers = [p for p in tables.pop().seats if p is not None]
        broken += 1
        rng.shuffle(movers)
        for mover in movers:  # each by random draw to an open seat at the other tables
            open_seats = [
                (t, s) for t, table in enumerate(tables) for s, p in enumerate(table.seats) if p is None
            ]
            t, s = rng.choice(open_seats)
            tables[t].sit(s, mover.name, mover.stack)
    while True:
        counts = [seated(table) for table in tables]
        if max(counts) - min(counts) < 2:
            return broken
        source = max(range(len(counts)), key=lambda k: (counts[k], -k))
        target = min(range(len(counts)), key=lambda k: (counts[k], k))
        _move(tables[source], tables[target])


def _move(source: Table, target: Table) -> None:
    """Rule 25: the player due the big blind next at `source` moves to the empty seat at `target`
    that will post the big blind soonest."""
    seat = _next_big_blind(source)
    mover = source.leave(seat)
    empty = [s for s, p in enumerate(target.seats) if p is None]
    after = target.big_blind_seat if target.big_blind_seat is not None else (target.button or 0)
    chosen = min(empty, key=lambda s: (s - after - 1) % target.size)
    target.sit(chosen, mover.name, mover.stack)


def seated(table: Table) -> int:
    """How many players sit at `table`."""
    return sum(1 for p in table.seats if p is not None)


def _next_big_blind(table: Table) -> int:
    """The seat that would post the big blind in the table's next hand."""
    ready: Sequence[int] = [s for s, p in enumerate(table.seats) if p is not None and p.stack > 0]
    if len(ready) < 2:
        return ready[0]
    _, _, big = place_blinds(
        ready, table.size, rule="dead", last_button=table.button,
        last_small=table.small_blind_seat, last_big=table.big_blind_seat,
    )  # fmt: skip
    return big
