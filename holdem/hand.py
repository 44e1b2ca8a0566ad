"""One hand of hold'em as a state machine: posting, four betting rounds, showdown, settlement.

Players are numbered in dealing order: player 0 sits left of the button (the small blind in a
ring game) and the last player is the button. Heads-up, player 1 is the button and posts the
small blind (rule 1). A `Hand` is driven by `act`; dealing, the end of each betting round,
run-outs, showdown and settlement happen by themselves in `_advance`, the one transition
function. Every rejected action leaves the hand exactly as it was.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from holdem.actions import Action, ActionKind, LegalActions
from holdem.betting import BettingRound
from holdem.cards import Card
from holdem.deck import Deck, RandomSource
from holdem.errors import (
    HandOverError,
    IllegalActionError,
    InvalidAmountError,
    InvalidConfigError,
    NotYourTurnError,
)
from holdem.evaluator import strength
from holdem.events import Event, HandResult, LogEntry, Phase
from holdem.positions import big_blind_player, default_blinds, first_to_act_preflop
from holdem.pots import award, build_pots, take_rake
from holdem.showdown import reveal, showdown_order
from holdem.stakes import Rules, Stakes, Structure
from holdem.views import SeatView, redacted_log
from holdem.views import view as seat_view

__all__ = ["Event", "Hand", "HandResult", "Phase"]  # the values are defined in holdem.events


# Per-street layout as data: (board cards dealt at the start of the street).
_BOARD_CARDS = {Phase.FLOP: 3, Phase.TURN: 1, Phase.RIVER: 1}


class Hand:
    """A hand of hold'em in progress. Create with `Hand.start`, drive with `act`.

    The attributes are readable state; change it only through `act`.
    """

    __slots__ = (
        "acted",
        "actor",
        "aggressor",
        "bets",
        "board",
        "button",
        "contributions",
        "dead",
        "deck",
        "declared_blinds",
        "declared_dead",
        "folded",
        "history",
        "hole_events_at",
        "holes",
        "live",
        "log",
        "opener",
        "phase",
        "result",
        "round",
        "rules",
        "stacks",
        "stakes",
        "starting_stacks",
        "street",
        "with_chips",
    )
    stakes: Stakes
    rules: Rules
    deck: Deck
    button: int | None
    starting_stacks: tuple[int, ...]
    declared_blinds: tuple[int, ...]
    declared_dead: tuple[int, ...]
    hole_events_at: int
    opener: int | None
    stacks: list[int]
    bets: list[int]
    contributions: list[int]
    dead: int
    folded: list[bool]
    acted: list[int | None]
    board: list[Card]
    holes: list[tuple[Card, ...]]
    history: list[tuple[int, Action]]
    log: list[LogEntry]
    live: int
    with_chips: int
    phase: Phase
    street: Phase
    actor: int | None
    aggressor: int | None
    result: HandResult | None
    round: BettingRound

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
    ) -> Hand:
        """Post antes and blinds, deal hole cards, and wait for the first action.

        `stacks` are in dealing order (player 0 left of the button, the button last). `blinds`
        gives each player's blind explicitly (a table uses it for dead buttons and missing
        small blinds); by default it follows `stakes` and seat order. `dead` is money each player
        puts in the pot without it counting as a bet (a missed small blind, rule 3), and
        `first_to_act` names the first player preflop when live posts would mislead the default
        (left of the largest blind). `dead_button` says that no player of the hand holds the button
        (a table's dead button); otherwise the last player does. The deck is shuffled by `rng`
        (cryptographically secure by default) unless a `deck` is given.
        """
        n = len(stacks)
        if not 2 <= n <= 10:
            raise InvalidConfigError(f"a hand needs 2 to 10 players, got {n}")
        for i, stack in enumerate(stacks):
            if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
                raise InvalidConfigError(
                    f"stack of player {i} must be a positive whole number, got {stack!r}"
                )
        posted = list(blinds) if blinds is not None else default_blinds(n, stakes)
        if len(posted) != n or any(not isinstance(b, int) or b < 0 for b in posted):
            raise InvalidConfigError(f"blinds must be {n} non-negative whole numbers, got {posted!r}")
        dead_money = list(dead) if dead is not None else [0] * n
        if len(dead_money) != n or any(not isinstance(d, int) or d < 0 for d in dead_money):
            raise InvalidConfigError(f"dead money must be {n} non-negative whole numbers, got {dead_money!r}")
        if first_to_act is not None and (type(first_to_act) is not int or not 0 <= first_to_act < n):
            raise InvalidConfigError(f"first_to_act must be a player 0..{n - 1}, got {first_to_act!r}")
        if not isinstance(dead_button, bool):
            raise InvalidConfigError(f"dead_button must be true or false, got {dead_button!r}")
        if not isinstance(stakes, Stakes):
            raise InvalidConfigError(f"stakes must be a Stakes, got {stakes!r}")
        if rules is not None and not isinstance(rules, Rules):
            raise InvalidConfigError(f"rules must be a Rules, got {rules!r}")
        # A hand uses at most 2n hole cards, 3 burns and 5 board cards: draw just those.
        if deck is not None and (not isinstance(deck, Deck) or deck.remaining < 2 * n + 8):
            size = f"has {deck.remaining} cards" if isinstance(deck, Deck) else f"is {deck!r}"
            raise InvalidConfigError(f"the deck {size}; {n} players need {2 * n + 8}")
        self = object.__new__(cls)
        self.stakes = stakes
        self.rules = rules or Rules()
        self.deck = deck if deck is not None else Deck.sampled(rng or secrets.SystemRandom(), 2 * n + 8)
        self.starting_stacks = tuple(stacks)
        self.declared_blinds = tuple(posted)
        self.declared_dead = tuple(dead_money)
        self.opener = first_to_act
        self.button = None if dead_button else n - 1
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.contributions = [0] * n  # chips moved from bets into the pots, antes included
        self.dead = 0  # big-blind ante: dead money for the main pot (rule 5)
        self.folded = [False] * n
        self.acted = [None] * n  # the bet level each player last acted at
        self.board = []
        self.holes = []
        self.history = []
        self.log = []
        self.live = n
        self.phase = Phase.PREFLOP
        self.actor = None
        self.aggressor = None  # last player to bet or raise this street
        self.result = None
        self._post(posted, dead_money)
        self.with_chips = sum(1 for stack in self.stacks if stack)
        self._deal_holes()
        self._open_street(Phase.PREFLOP)
        self._advance()
        return self

    def _post(self, posted: list[int], dead: list[int]) -> None:
        """Antes, the big-blind ante, blinds and dead money; a short stack posts what it has (rules 3-5)."""
        stakes = self.stakes
        for i in range(len(self.stacks)):
            if stakes.ante:
                paid = min(stakes.ante, self.stacks[i])
                self.stacks[i] -= paid
                self.contributions[i] += paid
                self._log("ante", i, amount=paid)
        big = big_blind_player(posted, stakes)
        for i, blind in enumerate(posted):
            ante = stakes.big_blind_ante if i == big else 0
            if ante and self.rules.big_blind_ante_order == "ante_first":
                self._pay_dead(i, ante)
            paid = min(blind, self.stacks[i])
            if paid:
                self.stacks[i] -= paid
                self.bets[i] = paid
                self.log.append(("blind", i, (), paid, None, Phase.PREFLOP))
            if ante and self.rules.big_blind_ante_order == "blind_first":
                self._pay_dead(i, ante)
            if dead[i]:
                self._pay_dead(i, dead[i])

    def _log(
        self,
        kind: str,
        player: int | None = None,
        *,
        cards: tuple[Card, ...] = (),
        amount: int | None = None,
        action: Action | None = None,
        phase: Phase | None = None,
    ) -> None:
        """Record an event as a plain tuple; `events` builds the public values on request."""
        self.log.append((kind, player, cards, amount, action, self.phase if phase is None else phase))

    def events(self, seat: int | None = None) -> list[Event]:
        """Everything that happened, as `seat` may see it (None: a spectator).

        Hole cards are shown only to their owner until they are shown down.
        """
        return [Event(*entry) for entry in redacted_log(self, seat)]

    def view(self, player: int) -> SeatView:
        """What `player` may know now (see `holdem.views`)."""
        return seat_view(self, player)

    def _pay_dead(self, player: int, amount: int) -> None:
        paid = min(amount, self.stacks[player])
        self.stacks[player] -= paid
        self.dead += paid
        self._log("ante", player, amount=paid)

    def _deal_holes(self) -> None:
        n = len(self.stacks)
        cards = self.deck.deal(2 * n)
        self.holes = [(cards[i], cards[i + n]) for i in range(n)]  # one card at a time, twice round
        self.hole_events_at = len(self.log)  # the hole events are the next n entries
        for i, hole in enumerate(self.holes):
            self.log.append(("hole", i, hole, None, None, Phase.PREFLOP))

    # ------------------------------------------------------------ the street
    def _open_street(self, phase: Phase) -> None:
        """Reset the betting state for a new round (preflop: the blinds stand as bets)."""
        self.phase = self.street = phase
        self.acted = [None] * len(self.stacks)
        self.aggressor = None
        self.round = BettingRound(self.stakes, self.rules, phase, self.declared_blinds, self.live)

    # ------------------------------------------------------------- queries
    @property
    def pot(self) -> int:
        """All chips in the middle: collected pots plus the bets in front of the players."""
        return sum(self.contributions) + self.dead + sum(self.bets)

    @property
    def is_complete(self) -> bool:
        return self.phase is Phase.COMPLETE

    def legal_actions(self) -> LegalActions | None:
        """What the player to act may do (None when nobody is to act)."""
        i = self.actor
        if i is None:
            return None
        bet, stack, level = self.bets[i], self.stacks[i], self.round.level
        can_check = bet >= level
        to_call = 0 if can_check else (level - bet if level - bet < stack else stack)
        lo, hi = self._raise_bounds(i)
        return LegalActions(i, not (can_check and self.rules.forbid_free_fold), can_check, to_call, lo, hi)

    def _raise_bounds(self, i: int) -> tuple[int | None, int | None]:
        """(min, max) raise-to totals for player `i`, or (None, None) when no raise is allowed."""
        stacks, folded, betting = self.stacks, self.folded, self.round
        if self.bets[i] + stacks[i] <= betting.level:
            return None, None  # all-in is a call at most
        others_can_bet = self.with_chips - (1 if stacks[i] and not folded[i] else 0) > 0
        pot = self.pot if betting.structure is Structure.POT_LIMIT else 0
        return betting.bounds(self.bets[i], stacks[i], self.acted[i], others_can_bet, pot)

    def is_legal(self, action: Action, player: int | None = None) -> bool:
        """Whether `act(action, player)` would be accepted."""
        try:
            self._check_action(action, player)
        except IllegalActionError:
            return False
        return True

    # -------------------------------------------------------------- actions
    def act(self, action: Action, player: int | None = None) -> None:
        """Apply `action` for the player to act (`player`, if given, must be that player).

        Raises a specific `IllegalActionError` and changes nothing when the action is illegal.
        """
        i, resolved = self._check_action(action, player)
        self._apply(i, resolved)
        self._advance()

    def _check_action(self, action: Action, player: int | None) -> tuple[int, Action]:
        """Validate an action; returns the acting player and the action with ALL-IN resolved."""
        if self.phase is Phase.COMPLETE or self.actor is None:
            raise HandOverError(f"the hand is over; {action} not accepted")
        i = self.actor
        if player is not None and type(player) is not int:
            raise IllegalActionError(f"player must be a player number, got {player!r} ({self._where(i)})")
        if player is not None and player != i:
            raise NotYourTurnError(
                f"player {player} acted out of turn; player {i} is to act ({self.phase.name.lower()})"
            )
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r} ({self._where(i)})")
        if action.kind is ActionKind.ALL_IN:
            action = self._all_in(i)
        can_check = self.bets[i] >= self.round.level
        match action.kind:
            case ActionKind.FOLD:
                if can_check and self.rules.forbid_free_fold:
                    raise IllegalActionError(f"fold when checking is free is not allowed ({self._where(i)})")
            case ActionKind.CHECK:
                if not can_check:
                    raise IllegalActionError(
                        f"cannot check facing a bet of {self.round.level};"
                        f" call {self.round.level - self.bets[i]} or fold ({self._where(i)})"
                    )
            case ActionKind.CALL:
                if can_check:
                    raise IllegalActionError(f"nothing to call; check instead ({self._where(i)})")
            case ActionKind.RAISE:
                amount = action.amount
                assert amount is not None  # an Action checks its amount when made
                lo, hi = self._raise_bounds(i)
                verb = "bet" if self.round.level == 0 else "raise"
                if lo is None or hi is None:
                    raise IllegalActionError(f"{verb} not allowed; call or fold ({self._where(i)})")
                if amount < lo:
                    raise InvalidAmountError(
                        f"{verb} to {amount} is below the minimum {lo} ({self._where(i)})"
                    )
                if amount > hi:
                    raise InvalidAmountError(
                        f"{verb} to {amount} is above the maximum {hi} ({self._where(i)})"
                    )
            case _:
                raise IllegalActionError(f"unknown action {action!r} ({self._where(i)})")
        return i, action

    def _all_in(self, i: int) -> Action:
        """The raise or call that puts all of player `i`'s chips in, if the rules allow one."""
        total = self.bets[i] + self.stacks[i]
        if total <= self.round.level:
            return Action.call()  # calling takes every chip
        hi = self._raise_bounds(i)[1]
        if hi == total:
            return Action.raise_to(total)
        limit = "no raise is allowed" if hi is None else f"the maximum raise-to is {hi}"
        raise InvalidAmountError(f"all-in to {total} is not allowed: {limit} ({self._where(i)})")

    def _where(self, i: int) -> str:
        """The context named in error messages."""
        return f"player {i}, {self.phase.name.lower()}"

    def _apply(self, i: int, action: Action) -> None:
        """Move chips for a validated action."""
        self.history.append((i, action))
        self.log.append(("action", i, (), None, action, self.phase))
        kind = action.kind
        if kind is ActionKind.CALL:
            owed = self.round.level - self.bets[i]
            paid = owed if owed < self.stacks[i] else self.stacks[i]
            self.stacks[i] -= paid
            self.bets[i] += paid
            if not self.stacks[i]:
                self.with_chips -= 1
        elif kind is ActionKind.FOLD:
            self.folded[i] = True
            self.live -= 1
            self.with_chips -= 1  # the player to act always has chips
        elif kind is ActionKind.RAISE:
            to = action.amount
            assert to is not None
            self.stacks[i] -= to - self.bets[i]
            self.bets[i] = to
            self.round.record_raise(to)
            self.aggressor = i
            if not self.stacks[i]:
                self.with_chips -= 1
        self.acted[i] = self.round.level

    # ------------------------------------------------------ the transition
    def _advance(self) -> None:
        """The one transition function: move the hand on until someone must act or it is over."""
        while True:
            match self.phase:
                case phase if phase <= Phase.RIVER:  # a betting round
                    if self.live == 1:
                        self._end_round()
                        self._settle()
                        return
                    nxt = self._next_actor()
                    if nxt is not None:
                        self.actor = nxt
                        return
                    self._end_round()
                    if self.phase is Phase.RIVER:
                        self.phase = Phase.SHOWDOWN
                        continue
                    self._open_street(Phase(self.phase + 1))
                    self.deck.burn()
                    cards = self.deck.deal(_BOARD_CARDS[self.phase])
                    self.board.extend(cards)
                    self._log("board", cards=cards, phase=self.phase)
                case Phase.SHOWDOWN:
                    self._settle()
                    return
                case Phase.COMPLETE:
                    return

    def _next_actor(self) -> int | None:
        """The next player who must act this round, or None when the round is over."""
        n = len(self.stacks)
        stacks, folded, bets, acted, level = self.stacks, self.folded, self.bets, self.acted, self.round.level
        start = self._first_to_act() if self.actor is None else self.actor + 1
        with_chips = self.with_chips
        for k in range(n):
            j = (start + k) % n
            if folded[j] or not stacks[j]:
                continue
            if bets[j] < level:
                return j
            # Rule 11: nobody acts when no other player still in the hand has chips.
            if acted[j] is None and with_chips > 1:
                return j
        return None

    def _first_to_act(self) -> int:
        """Preflop: left of the largest blind (the button heads-up); later: player 0 (rule 1)."""
        if self.phase is Phase.PREFLOP:
            return self.opener if self.opener is not None else first_to_act_preflop(self.declared_blinds)
        return 0

    def _end_round(self) -> None:
        """Return an uncalled bet (rule 16) and move the bets into the pots."""
        self.actor = None
        bets = self.bets
        *_, second, highest = sorted(bets)
        if highest > second:  # only the top bet can be above all others: the rest is uncalled
            top = bets.index(highest)
            bets[top] = second
            if not self.stacks[top]:
                self.with_chips += 1  # an all-in player gets chips back
            self.stacks[top] += highest - second
            self._log("uncalled", top, amount=highest - second)
        contributions = self.contributions
        for j, bet in enumerate(bets):
            contributions[j] += bet
        self.bets = [0] * len(bets)

    def _settle(self) -> None:
        """Run out the board if needed, show down, split the pots (rules 17–20)."""
        live = [j for j in range(len(self.stacks)) if not self.folded[j]]
        if len(live) > 1:
            while len(self.board) < 5:  # all-in run-out
                self.deck.burn()
                cards = self.deck.deal(3 if not self.board else 1)
                self.board.extend(cards)
                self._log("board", cards=cards, phase=Phase(min(len(self.board) - 2, 3)))
        pots = build_pots(self.contributions, self.folded, self.dead)
        rake = 0
        if self.rules.rake_percent and self.board:  # no flop, no drop
            pots, rake = take_rake(pots, self.rules.rake_percent, self.rules.rake_cap)
        strengths: list[int | None] = [None] * len(self.stacks)
        shown: list[tuple[Card, ...] | None] = [None] * len(self.stacks)
        if len(live) > 1:
            board = [c.index for c in self.board]
            values = {j: strength([self.holes[j][0].index, self.holes[j][1].index, *board]) for j in live}
            order = showdown_order(
                live, len(self.stacks), self.aggressor if self.street is Phase.RIVER else None
            )
            # Rule 19: with players all-in and no more betting, every hand is turned face up.
            all_in = sum(1 for j in live if self.stacks[j]) <= 1
            showing = set(reveal(order, values, pots, show_all=all_in or not self.rules.muck_losers))
            for j in order:
                if j in showing:
                    strengths[j], shown[j] = values[j], self.holes[j]
                    self._log("show", j, cards=self.holes[j])
                else:
                    self._log("muck", j)
        else:
            strengths[live[0]] = 0
        payouts, winners = award(pots, strengths)
        for j, won in enumerate(payouts):
            self.stacks[j] += won
            if won:
                self._log("win", j, amount=won)
        self.phase = Phase.COMPLETE
        self.actor = None
        self.result = HandResult(
            payouts=tuple(payouts),
            final_stacks=tuple(self.stacks),
            pots=tuple(pots),
            winners=tuple(winners),
            shown=tuple(shown),
            rake=rake,
            payoffs=tuple(f - s for f, s in zip(self.stacks, self.starting_stacks, strict=True)),
        )

    # ------------------------------------------------------------ checking
    def _check(self) -> None:
        """Invariants, for tests: chips conserved, pots equal contributions, one actor or none."""
        total = sum(self.starting_stacks)
        if self.result is None:
            assert sum(self.stacks) + self.pot == total, "chips not conserved"
            assert self.live == self.folded.count(False), "live-player count is off"
            in_with_chips = sum(1 for s, f in zip(self.stacks, self.folded, strict=True) if s and not f)
            assert self.with_chips == in_with_chips, "with-chips count is off"
        else:
            assert sum(self.stacks) + self.result.rake == total, "chips not conserved after settlement"
            assert (
                sum(p.amount for p in self.result.pots) + self.result.rake
                == sum(self.contributions) + self.dead
            )
        assert all(s >= 0 for s in self.stacks), "negative stack"
        assert all(b >= 0 for b in self.bets), "negative bet"
        if self.actor is not None:
            i = self.actor
            assert not self.folded[i] and self.stacks[i] > 0, "actor cannot act"
            assert self.phase <= Phase.RIVER
        else:
            assert self.phase is Phase.COMPLETE, "nobody to act in an unfinished hand"

    def __repr__(self) -> str:
        board = "".join(map(str, self.board))
        return f"<Hand {self.phase.name.lower()} board={board} pot={self.pot} actor={self.actor}>"
