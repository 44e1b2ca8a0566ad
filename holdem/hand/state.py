"""One hand of hold'em as a state machine: posting, four betting rounds, showdown, settlement.

Players are numbered in dealing order: player 0 sits left of the button (the small blind in a
ring game) and the last player is the button. Heads-up, player 1 is the button and posts the
small blind (rule 1). A `Hand` is driven by `act`; dealing, the end of each betting round,
run-outs, showdown and settlement happen by themselves in `_advance`, the one transition
function. Every rejected action leaves the hand exactly as it was.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from operator import add as _add
from operator import sub as _sub

from holdem.cards.card import Card
from holdem.cards.deck import Deck, RandomSource
from holdem.errors import IllegalActionError
from holdem.hand.actions import Action, ActionKind, LegalActions
from holdem.hand.betting import BettingRound, is_covered, second_deepest
from holdem.hand.checks import check_action, plainly_legal
from holdem.hand.events import NEXT_STREET, Event, EventKind, HandResult, LogEntry, Phase
from holdem.hand.posting import post, posted_in_full, setup
from holdem.hand.runout import run_again
from holdem.hand.showdown import Settlement, result_of, settle
from holdem.hand.stakes import Rules, Stakes
from holdem.hand.views import redacted_log
from holdem.hand.views import view as seat_view

__all__ = ["Hand"]

_LOG_ACTION, _LOG_BOARD, _LOG_HOLE, _LOG_MUCK, _LOG_SHOW, _LOG_UNCALLED, _LOG_WIN = (
    EventKind.ACTION,
    EventKind.BOARD,
    EventKind.HOLE,
    EventKind.MUCK,
    EventKind.SHOW,
    EventKind.UNCALLED,
    EventKind.WIN,
)
# (log kinds bound once: a global costs 30 ns where EventKind.X costs 100 ns, per entry of every hand)


# Per-street layout as data: the next street, and the board cards dealt at its start.
# Seat orders, precomputed: _ROTATIONS[n][k] is players k, k+1, …, n-1, 0, …, k-1.
_ROTATIONS = [[tuple((k + j) % n for j in range(n)) for k in range(n)] for n in range(11)]
# The hole-card events as everybody sees them (no cards), for n players.
_HOLE_EVENTS = [tuple((_LOG_HOLE, i, (), None, None, Phase.PREFLOP) for i in range(n)) for n in range(11)]
_DEFAULT_RULES = Rules()
# Enum members as module constants: a global lookup takes 7 ns, `ActionKind.FOLD` 73 ns (measured
# 2026-11-27, Python 3.11, under load: ratios hold, not the nanoseconds).
_FOLD = ActionKind.FOLD
_CHECK = ActionKind.CHECK
_CALL = ActionKind.CALL
_RAISE = ActionKind.RAISE
_ALL_IN = ActionKind.ALL_IN
_PREFLOP = Phase.PREFLOP
_RIVER = Phase.RIVER
_SHOWDOWN = Phase.SHOWDOWN
_COMPLETE = Phase.COMPLETE
_new_tuple = tuple.__new__


class Hand:
    """A hand of hold'em in progress. Create with `Hand.start`, drive with `act`.

    The attributes are readable state; change it only through `act`.

    >>> from holdem import Action, Stakes
    >>> hand = Hand.start([200, 200], Stakes(1, 2))  # heads-up: player 1 is the button
    >>> hand.legal_actions()
    LegalActions(player=1, can_fold=True, can_check=False, to_call=1, min_raise_to=4, max_raise_to=200)
    >>> hand.act(Action.raise_to(6))
    >>> hand.act(Action.fold())
    >>> hand.is_complete, hand.result.payoffs
    (True, (-2, 2))
    """

    stakes: Stakes
    rules: Rules
    deck: Deck
    button: int | None
    starting_stacks: tuple[int, ...]
    chips: int
    declared_blinds: tuple[int, ...]
    declared_dead: tuple[int, ...]
    big_blind_player: int
    hole_events_at: int
    opener: int | None
    stacks: list[int]
    bets: list[int]
    contributions: list[int]
    dead_money: int
    folded: list[bool]
    acted: list[int | None]
    board: list[Card]
    second_board: list[Card]
    holes: list[tuple[Card, ...]]
    history: list[tuple[int, Action]]
    log: list[LogEntry]
    live: int
    with_chips: int
    phase: Phase
    actor: int | None
    aggressor: int | None
    round: BettingRound
    first_preflop: int
    shown: tuple[tuple[Card, ...] | None, ...] | None
    _legal: LegalActions | None
    _second: int | None
    _deep: int
    _covering: bool
    _settlement: Settlement | None
    _result: HandResult | None
    __slots__ = tuple(__annotations__)  # every attribute above, and no others

    def __init__(self) -> None:
        raise TypeError("use Hand.start(...) to begin a hand")

    # ------------------------------------------------------------------ set-up
    @classmethod
    def start(
        cls,
        stacks: Sequence[int],
        stakes: Stakes,
        *,
        rules: Rules | None = None,
        deck: Deck | None = None,
        rng: RandomSource | None = None,
        blinds: Sequence[int] | None = None,
        dead: Sequence[int] | None = None,
        first_to_act: int | None = None,
        dead_button: bool = False,
        big_blind_player: int | None = None,
    ) -> Hand:
        """Post antes and blinds, deal hole cards, and wait for the first action.

        `stacks` are in dealing order (player 0 left of the button, the button last). `blinds`
        gives each player's blind explicitly (a table uses it for dead buttons and missing
        small blinds); by default it follows `stakes` and seat order. `dead` is money each player
        puts in the pot without it counting as a bet (a missed small blind, rule 3), and
        `first_to_act` names the first player preflop when live posts would mislead the default
        (left of the largest blind). `dead_button` says that no player of the hand holds the button
        (a table's dead button); otherwise the last player does. `big_blind_player` is the player in
        the big blind's position, who posts a big-blind ante (rule 5); by default player 1
        (heads-up player 0) when it posts the big blind. The deck is shuffled by `rng`
        (cryptographically secure by default) unless a `deck` is given.
        """
        n = len(stacks)
        self = object.__new__(cls)
        self.rules = rules or _DEFAULT_RULES
        fast = (
            posted_in_full(stacks, stakes, self.rules)
            if blinds is None
            and dead is None
            and first_to_act is None
            and big_blind_player is None
            and (deck is None or (type(deck) is Deck and deck.remaining >= 2 * n + 8))  # as `setup` asks
            and dead_button is False
            else None
        )
        if fast is not None:  # the usual hand: its forced bets worked out once for these stakes
            posted, first, self.big_blind_player = fast.blinds, fast.first, fast.big
            self.stacks = list(map(_sub, stacks, fast.paid))
            self.bets, self.contributions = list(fast.bets), list(fast.contributions)
            self.dead_money, self.log = fast.dead, list(fast.log)
            self.declared_blinds, self.declared_dead = posted, (0,) * n
            self.with_chips = n
        else:
            blinds_given, dead_money, first, big = setup(
                stacks, stakes, rules, deck, blinds, dead, first_to_act, dead_button, big_blind_player
            )
            posted = tuple(blinds_given)
            self.declared_blinds, self.declared_dead = posted, tuple(dead_money)
            self.big_blind_player = big
            self.stacks = list(stacks)
            self.bets = [0] * n
            self.contributions = [0] * n  # chips moved from bets into the pots, antes included
            self.dead_money, self.log = post(
                self.stacks, self.bets, self.contributions, posted, dead_money, stakes, self.rules, big
            )
            self.with_chips = sum(1 for stack in self.stacks if stack)
        self.stakes = stakes
        self.deck = deck if deck is not None else Deck.sampled(rng, 2 * n + 8 + 8 * self.rules.run_twice)
        self.starting_stacks = tuple(stacks)
        self.chips = sum(stacks)  # on the table in all: the stacks plus the pot, until settlement
        self.opener = first_to_act
        self.button = None if dead_button else n - 1
        self.folded = [False] * n
        self.board, self.second_board = [], []  # the second: a hand run twice (rule 32)
        self.history = []
        self.live = n
        self.actor = None
        self.shown = self._legal = self._settlement = self._result = None
        self._deal_holes()
        self.first_preflop = first
        self.round = BettingRound(stakes, self.rules, posted)
        self._open_street(_PREFLOP)  # the phase, who has acted (nobody) and the aggressor (none)
        self._advance()
        return self

    def events(self, player: int | None = None, **old: int | None) -> list[Event]:
        """Everything that happened, as `player` (dealing order) may see it (None: a spectator).

        Hole cards are shown only to their owner until they are shown down. (``seat=``, 0.1's name
        for `player`, is taken until 0.3, with a DeprecationWarning.)
        """
        if old:
            player = _renamed_seat(old)
        return [Event(*entry) for entry in redacted_log(self, player)]

    view = seat_view
    """``hand.view(player)``: what `player` may know now (`holdem.hand.views.view`, bound as a method)."""

    def _deal_holes(self) -> None:
        n = len(self.stacks)
        cards = self.deck.deal(2 * n)
        self.holes = list(zip(cards[:n], cards[n:], strict=False))  # one card at a time, twice round
        # The hole events are the next n entries. The log holds only what everybody may see: a
        # player's own cards are filled in when their events or view are made (holdem.hand.views).
        self.hole_events_at = len(self.log)
        self.log += _HOLE_EVENTS[n]

    # ------------------------------------------------------------ the street
    def _open_street(self, phase: Phase) -> None:
        """Reset the betting state for a new round (preflop: the blinds stand as bets)."""
        self.phase = phase
        self.acted = [None] * len(self.stacks)
        self.aggressor = None
        self.round.open(phase, self.live)
        self._second, self._covering = None, False
        if phase is _PREFLOP and self.round.level >= self._set_depth_floor():
            self._measure_depth()  # the blinds may reach a short stack: find who is covered

    # ------------------------------------------------------------- queries
    @property
    def pot(self) -> int:
        """All chips in the middle: collected pots plus the bets in front of the players."""
        if self.phase is not _COMPLETE:
            return self.chips - sum(self.stacks)  # every chip is in a stack or in the middle
        return sum(self.contributions) + self.dead_money

    @property
    def street(self) -> Phase:
        """0.1's second `Phase` (the street the board has reached, kept once the hand is over): the
        board says it. Warns, and goes in 0.3."""
        warnings.warn(
            "Hand.street is the board's street: len(hand.board); it goes in 0.3",
            DeprecationWarning,
            stacklevel=2,
        )
        return {0: Phase.PREFLOP, 3: Phase.FLOP, 4: Phase.TURN}.get(len(self.board), Phase.RIVER)

    @property
    def dead(self) -> int:
        """0.1's name for `dead_money` (the total; `start`'s ``dead=`` is each player's), until 0.3."""
        warnings.warn(
            "Hand.dead is now Hand.dead_money; Hand.dead goes in 0.3", DeprecationWarning, stacklevel=2
        )
        return self.dead_money

    @property
    def is_complete(self) -> bool:
        return self.phase is _COMPLETE

    @property
    def result(self) -> HandResult | None:
        """How the hand ended (None until it is complete); built on first use."""
        if self._result is None and self.phase is _COMPLETE:
            self._result = self._build_result()
        return self._result

    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do (None when nobody is to act); computed once per decision."""
        if self._legal is None and self.actor is not None:
            self._legal = self._legal_for(self.actor)
        return self._legal

    def _legal_for(self, i: int) -> LegalActions:
        """The legal actions of player `i`, who is to act (computed once per decision)."""
        betting = self.round
        bet, stack, level = self.bets[i], self.stacks[i], betting.level
        can_check = bet >= level
        to_call = 0 if can_check else (level - bet if level - bet < stack else stack)
        if bet + stack <= level:
            lo = hi = None  # all-in is a call at most
        else:
            # Rule 11: a raise needs another player in the hand who could put in more than the
            # level. As this player could, that is: the second-deepest player could. `_second`
            # is a lower bound on that depth; only a level that reaches it is looked at closely.
            if not level:
                callers = self.with_chips > 1
            elif self.rules.raise_uncallable:
                callers = True
            else:
                second = self._second if self._second is not None else self._set_depth_floor()
                callers = self.with_chips > 1 and (level < second or self._has_caller(level))
            pot = self.pot if betting.pot_limited else 0
            lo, hi = betting.bounds(bet, stack, self.acted[i], callers, pot)
        can_fold = not (can_check and self.rules.forbid_free_fold)
        return _new_tuple(
            LegalActions, (i, can_fold, can_check, to_call, lo, hi)
        )  # LegalActions(...) without its generated __new__: 104 ns against 235, once per decision

    def _set_depth_floor(self) -> int:
        """Set and return a cheap lower bound on the second-deepest player's bet plus stack (rule 11): the
        shallowest player's, every player in the hand being at least that deep. Bets plus stacks
        do not change within a street, so the bound holds while `_deep`, the players in the hand
        at least `_second` deep, stays at two or more (a fold of one of them lowers it)."""
        self._second, self._deep = min(map(_add, self.bets, self.stacks)), self.live
        return self._second

    def _has_caller(self, level: int) -> bool:
        """Whether some player could put in more than `level`, the bound having been reached."""
        return self.rules.raise_against_covered or level < self._measure_depth()

    def _measure_depth(self) -> int:
        """Find the second-deepest player's bet plus stack exactly (see `_set_depth_floor`). Preflop
        before any raise, a level that reaches it may leave a player covered (`_covering`:
        `_next_actor` then checks each player)."""
        self._second, self._deep = second_deepest(self.bets, self.stacks, self.folded)
        self._covering = (
            self.phase is _PREFLOP
            and not self.round.raise_actions
            and self.round.level >= self._second
            and not self.rules.raise_against_covered
        )
        return self._second

    def rewound(self, actions: int) -> Hand:
        """A new hand equal to this one after its first `actions` actions (replayed from the start)."""
        hand = Hand.start(
            self.starting_stacks, self.stakes, rules=self.rules, deck=self.deck.copy(),
            blinds=self.declared_blinds, dead=self.declared_dead, first_to_act=self.opener,
            dead_button=self.button is None, big_blind_player=self.big_blind_player,
        )  # fmt: skip
        for player, action in self.history[:actions]:
            hand.act(action, player)
        return hand

    def is_legal(self, action: Action, player: int | None = None) -> bool:
        """Whether `act(action, player)` would be accepted."""
        try:
            check_action(self, action, player)
        except IllegalActionError:
            return False
        return True

    # -------------------------------------------------------------- actions
    def act(self, action: Action, player: int | None = None) -> None:
        """Apply `action` for the player to act (`player`, if given, must be that player).

        Raises a specific `IllegalActionError` and changes nothing when the action is illegal.
        """
        i = self.actor
        # `plainly_legal` accepts calls, checks, folds and raises within bounds; anything else (all-in,
        # anything refused, odd inputs) goes through `check_action`, the one check `is_legal` asks too.
        if (
            i is None
            or type(action) is not Action
            or not (player is None or (type(player) is int and player == i))
            or not plainly_legal(self, i, action)
        ):
            i, action = check_action(self, action, player)
        assert i is not None  # accepted: there is a player to act
        # Move the chips.
        self.history.append((i, action))
        self.log.append((_LOG_ACTION, i, (), None, action, self.phase))
        kind = action.kind
        stacks = self.stacks
        if kind is _CALL:
            owed = self.round.level - self.bets[i]
            paid = owed if owed < stacks[i] else stacks[i]
            stacks[i] -= paid
            self.bets[i] += paid
            if not stacks[i]:
                self.with_chips -= 1
        elif kind is _FOLD:
            self.folded[i] = True
            self.live -= 1
            self.with_chips -= 1  # the player to act always has chips
            if self._second is not None and self.bets[i] + stacks[i] >= self._second:
                self._deep -= 1  # one of the deepest players left
                if self._deep < 2 and self.live > 1:
                    self._measure_depth()
        elif kind is _RAISE:
            to = action.amount
            assert to is not None
            stacks[i] -= to - self.bets[i]
            self.bets[i] = to
            self.round.record_raise(to)
            self._covering = False  # the raiser can put in more than anyone they face
            self.aggressor = i
            if not stacks[i]:
                self.with_chips -= 1
        self.acted[i] = self.round.level
        self._advance()

    # ------------------------------------------------------ the transition
    def _advance(self) -> None:
        """The one transition function: move the hand on until someone must act or it is over."""
        self._legal = None
        while True:
            match self.phase:
                case phase if phase <= _RIVER:  # a betting round
                    if self.live == 1:
                        self._end_round()
                        self._settle()
                        return
                    nxt = self._next_actor()
                    if nxt is not None:
                        self.actor = nxt  # its legal actions are computed when first asked for
                        return
                    self._end_round()
                    self.actor = None
                    if phase is _RIVER:
                        self.phase = _SHOWDOWN
                        continue
                    street, count = NEXT_STREET[phase]
                    self._open_street(street)
                    cards = self.deck.burn_and_deal(count)
                    self.board.extend(cards)
                    self.log.append((_LOG_BOARD, None, cards, None, None, street))
                case Phase.SHOWDOWN:
                    self._settle()
                    return
                case Phase.COMPLETE:
                    return

    def _next_actor(self) -> int | None:
        """The next player who must act this round, or None when the round is over."""
        stacks, folded, bets, acted, level = self.stacks, self.folded, self.bets, self.acted, self.round.level
        n = len(stacks)
        if self.actor is not None:
            start = self.actor + 1 if self.actor + 1 < n else 0
        else:
            start = self.first_preflop if self.phase is _PREFLOP else 0  # rule 1
        with_chips = self.with_chips
        covering = self._covering  # rule 11: a covered player is not asked (see `_measure_depth`)
        for j in _ROTATIONS[n][start]:
            if folded[j] or not stacks[j]:
                continue
            if covering and is_covered(j, bets, stacks, folded):
                continue
            if bets[j] < level:
                return j
            # Rule 11: nobody acts when no other player still in the hand has chips.
            if acted[j] is None and with_chips > 1:
                return j
        return None

    def _end_round(self) -> None:
        """Return an uncalled bet (rule 16) and move the bets into the pots."""
        bets = self.bets
        ordered = sorted(bets)
        highest, second = ordered[-1], ordered[-2]
        if not highest:
            return  # checked round: nothing to move
        if highest > second:  # only the top bet can be above all others: the rest is uncalled
            top = bets.index(highest)
            bets[top] = second
            if not self.stacks[top]:
                self.with_chips += 1  # an all-in player gets chips back
            self.stacks[top] += highest - second
            self.log.append((_LOG_UNCALLED, top, (), highest - second, None, self.phase))
        self.contributions = list(map(_add, self.contributions, bets))
        self.bets = [0] * len(bets)

    def _settle(self) -> None:
        """Run out the board if needed, show down, split the pots (rules 17–20).

        A hand folded to one player (and not raked) just pays that player; the pots and the rest
        of the `HandResult` are built only when `result` is read.
        """
        n = len(self.stacks)
        self.actor = self._legal = None
        if self.live == 1 and not (self.rules.rake_percent and self.board):
            winner = self.folded.index(False)
            won = sum(self.contributions) + self.dead_money
            self.stacks[winner] += won
            if won:
                self.log.append((_LOG_WIN, winner, (), won, None, self.phase))
            self.shown = (None,) * n
            self.phase = _COMPLETE
            return
        log, phase = self.log, self.phase
        holes = [(a.index, b.index) for a, b in self.holes]
        # Rule 19: with players all-in and no more betting, every hand is turned face up.
        all_in = self.with_chips <= 1
        if all_in and self.rules.run_twice and self.live > 1:  # rule 32: the rest dealt again
            self.second_board = run_again(self.deck, self.board, log)
        aggressor = self.aggressor if len(self.board) == 5 else None  # a river bettor shows first
        board = [card.index for card in self.board]
        outcome = settle(
            self.contributions, self.folded, self.dead_money, holes, board,
            aggressor=aggressor, all_in=all_in, rules=self.rules,
            again=[card.index for card in self.second_board],
        )  # fmt: skip
        shown: list[tuple[Card, ...] | None] = [None] * n
        for j, showed in outcome.order:
            if showed:
                shown[j] = self.holes[j]
                log.append((_LOG_SHOW, j, self.holes[j], None, None, phase))
            else:
                log.append((_LOG_MUCK, j, (), None, None, phase))
        stacks = self.stacks
        for j, won in enumerate(outcome.payouts):
            if won:
                stacks[j] += won
                log.append((_LOG_WIN, j, (), won, None, phase))
        self.shown = tuple(shown)
        self._settlement = outcome
        self.phase = _COMPLETE

    def _build_result(self) -> HandResult:
        """The `HandResult` of a complete hand (see `result`)."""
        outcome = self._settlement
        if outcome is None:  # folded to one player: the same settlement, computed now
            outcome = settle(self.contributions, self.folded, self.dead_money, [], [], aggressor=None,
                             all_in=False, rules=self.rules)  # fmt: skip
        assert self.shown is not None
        return result_of(outcome, self.stacks, self.starting_stacks, self.shown)

    def __repr__(self) -> str:
        board = "".join(map(str, self.board))
        return f"<Hand {self.phase.name.lower()} board={board} pot={self.pot} actor={self.actor}>"


def _renamed_seat(old: dict[str, int | None]) -> int | None:
    """`Hand.events`' ``seat=``: a player in dealing order, called `player` everywhere but at a table."""
    if set(old) != {"seat"}:
        raise TypeError(
            f"Hand.events() got an unexpected keyword argument {next(iter(set(old) - {'seat'}))!r}"
        )
    warnings.warn(
        "Hand.events(seat=) is now Hand.events(player=); seat= goes in 0.3", DeprecationWarning, stacklevel=3
    )
    return old["seat"]
