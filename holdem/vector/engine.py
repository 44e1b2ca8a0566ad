"""The arrays and the betting of `holdem.vector`: what `VectorTables` and `VectorSitAndGos` share.

The rules are the engine's (`holdem.hand.state.Hand`), written for arrays: every table's state is a column
and a player's a row, in dealing order (row 0 left of the button, the button last), so that what is
summed or compared over the players of each table is a few operations on whole rows; each rule is
a few whole-array operations over the tables that need it. A seat nobody sits in is a player who
folded before the hand with no chips. The subclasses deal the hands and report them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from holdem.errors import IllegalActionError, InvalidConfigError
from holdem.vector.showdown import payouts, strengths

__all__ = ["MAX_FRACTION", "Engine", "Ints", "check_flag", "check_fractions", "check_seed"]

MAX_FRACTION = 1000.0
"""The largest pot fraction a raise action may be: a thousand pots of the largest stacks stay within
64-bit integers."""


def check_fractions(fractions: Sequence[float]) -> tuple[float, ...]:
    """The pot fractions of the raise actions, sorted; refused unless distinct numbers above 0 and at
    most `MAX_FRACTION`."""
    try:
        values = tuple(fractions)
    except TypeError:
        values = ()
    if (
        not values
        or not all(type(f) in (int, float) and 0 < f <= MAX_FRACTION for f in values)
        or len(set(values)) != len(values)
    ):
        raise InvalidConfigError(
            f"pot fractions must be one or more distinct numbers above 0, at most {MAX_FRACTION:g},"
            f" got {fractions!r}"
        )
    return tuple(sorted(float(f) for f in values))


def check_seed(seed: object) -> int | None:
    """A seed for NumPy's generator: None (fresh entropy) or a non-negative whole number."""
    if seed is not None and (type(seed) is not int or seed < 0):
        raise InvalidConfigError(f"seed must be None or a non-negative whole number, got {seed!r}")
    return seed


def check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidConfigError(f"{name} must be True or False, got {value!r}")
    return value


Ints = npt.NDArray[np.int64]

NONE = -1  # "has not acted this round" and "nobody to act yet"
# The rows of a table's state block; the first five are those a new street sets.
TABLE = (
    "level",
    "increment",
    "reopen",
    "raise_actions",
    "actor",
    "street",
    "live",
    "with_chips",
    "dead",
    "chips",
)


def _second_largest(values: Ints) -> Ints:
    """The second-largest value of each column (a tie for the largest counts twice)."""
    top: Ints = np.maximum(values[0], values[1])
    second: Ints = np.minimum(values[0], values[1])
    for row in values[2:]:
        second = np.maximum(second, np.minimum(top, row))
        top = np.maximum(top, row)
    return second


def _first(chosen: npt.NDArray[np.bool_], rows: Ints) -> Ints:
    """The first row that is `chosen` in each column (``len(chosen)`` where none is); `rows` is
    ``arange(len(chosen))`` as a column."""
    out: Ints = np.where(chosen, rows, len(chosen)).min(axis=0)
    return out


_NEW_STREET = np.array([0, 0, 0, 0, NONE])[:, None]  # with the big blind as the increment


class Engine:
    """`n` tables of `players` seats: the state arrays, the validation of actions and the betting
    transition. ``_bb`` (each table's big blind) and ``_opener`` (the first player preflop) are set
    by the subclass, which deals each hand (`_shuffled` gives the cards)."""

    n: int
    players: int
    actions: tuple[str, ...]
    _rng: np.random.Generator  # the dealing's random source, made by the subclass
    recording: bool
    button: Ints
    legal: npt.NDArray[np.bool_]
    _bb: Ints
    _opener: Ints
    _log: list[list[str]]

    def _allocate(self, sizes: Sequence[float | None]) -> None:
        """Fresh arrays (the random source is the caller's, `_rng`); `sizes` are the raises between
        check/call and the largest raise: pot fractions, or None for the smallest raise."""
        n, p = self.n, self.players
        self._sizes = tuple(sizes)
        self._pool, self._pool_used = np.zeros((2 * p + 8, 0), dtype=np.int8), 0
        # The state is two blocks, so that a hand dealt or a street opened is a copy or two: by
        # player (a row each) and table (a column each), and by table (a column each).
        self._seats = np.zeros((5, p, n), np.int64)
        self._start, self._stack, self._bet, self._contrib, self._acted = self._seats
        self._table = np.zeros((len(TABLE), n), np.int64)
        (self._level, self._increment, self._reopen, self._raise_actions, self._actor, self._street,
         self._live, self._with_chips, self._dead, self._chips) = self._table  # fmt: skip
        self._folded = np.zeros((p, n), dtype=bool)
        self._raises = np.zeros((n, 4), dtype=np.int64)
        self._deck = np.zeros((2 * p + 8, n), dtype=np.int8)  # a column per table
        self.legal = np.zeros((n, len(self.actions)), dtype=bool)
        self._mask = np.zeros((len(self.actions), n), dtype=bool)  # `legal`, an action per row
        self._mask[:2] = True  # fold and check/call, always
        self._tos = np.zeros((len(self.actions), n), dtype=np.int64)  # the raises' totals
        self._player_rows = np.arange(p)[:, None]  # a player's row number, against a row of tables
        self._every = np.arange(n)

    @property
    def actor(self) -> Ints:
        """The seat of the player to act at each table."""
        out: Ints = (self.button + 1 + self._actor) % self.players
        return out

    @property
    def decks(self) -> npt.NDArray[np.int8]:
        """The current hand's cards at each table, in dealing order (hole cards twice round, then
        burn and flop, burn and turn, burn and river), as card indices; read-only."""
        view = self._deck.T
        view.setflags(write=False)
        return view

    def _record_actions(self, rows: Ints, players: Ints, chosen: Ints, bets: Ints) -> None:
        """Keep the actions just taken in the hand histories (with ``recording``)."""

    def _record_board(self, rows: Ints) -> None:
        """Keep the board cards of the streets just opened in the hand histories (with ``recording``)."""

    def _chosen(self, actions: npt.ArrayLike, where: npt.ArrayLike | None) -> tuple[Ints, Ints]:
        """The tables to act at and their actions, checked: a masked action refuses the whole call."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,) or chosen.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions must be {self.n} whole numbers, got shape {chosen.shape} {chosen.dtype}"
            )
        if where is None:
            rows = self._every
        else:
            mask = np.asarray(where)
            if mask.shape != (self.n,) or mask.dtype != bool:
                raise IllegalActionError(
                    f"where must be {self.n} booleans, got shape {mask.shape} {mask.dtype}"
                )
            rows = np.flatnonzero(mask)
        a = (chosen if where is None else chosen[rows]).astype(np.int64)
        if not a.size or (0 <= a.min() and a.max() < len(self.actions) and self._mask[a, rows].all()):
            return rows, a
        ok = (a >= 0) & (a < len(self.actions))
        ok[ok] = self.legal[rows[ok], a[ok]]
        if not ok.all():
            t = int(rows[np.argmin(ok)])
            legal = ", ".join(f"{i} {name}" for i, name in enumerate(self.actions) if self.legal[t, i])
            raise IllegalActionError(f"table {t}: action {int(chosen[t])} is not legal; legal: {legal}")
        return rows, a

    def _shuffled(self, k: int) -> npt.NDArray[np.int8]:
        """The first ``2 players + 8`` cards of `k` shuffled decks, taken from a pool shuffled in
        batches of at least 2,048 decks (a call per card dealt for the whole batch: partial
        Fisher-Yates, every order of the cards equally likely)."""
        pool, used = self._pool, self._pool_used
        if used + k > pool.shape[1]:
            m = len(self._deck)
            size = max(k, 2048)
            cards = np.repeat(np.arange(52, dtype=np.int8)[:, None], size, axis=1)  # a deck per column
            flat, index = cards.reshape(-1), np.arange(size)
            picks = (self._rng.random((m, size)) * (52 - np.arange(m))[:, None]).astype(np.int64)
            picks = (picks + np.arange(m)[:, None]) * size + index  # card c swaps with one from c on
            for c in range(m):
                where = picks[c]
                taken = flat[where]
                flat[where] = cards[c]
                cards[c] = taken
            pool, used = self._pool, self._pool_used = cards[:m], 0
        self._pool_used = used + k
        return pool[:, used : used + k]

    # ------------------------------------------------------------ actions
    def _apply(self, rows: Ints, a: Ints) -> None:
        """Move the chips of each table's action (`Hand.act`, on arrays)."""
        i = self._actor[rows]
        fold, raising = a == 0, a >= 2
        bet, stack, level = self._bet[i, rows], self._stack[i, rows], self._level[rows]
        to = self._tos[a, rows]
        called = bet + np.minimum(level - bet, stack)  # the level is the largest bet
        new_bet = np.where(raising, to, np.where(a == 1, called, bet))
        left = stack - (new_bet - bet)
        self._bet[i, rows], self._stack[i, rows] = new_bet, left
        self._with_chips[rows] -= fold | (left == 0)
        if fold.any():
            folders = rows[fold]
            self._folded[i[fold], folders] = True
            self._live[folders] -= 1
        if raising.any():
            r, to = rows[raising], to[raising]
            self._raise_actions[r] += 1
            self._raises[r, self._street[r]] += 1
            increment, level = self._increment[r], self._level[r]
            full = to - self._reopen[r] >= increment  # rules 8, 9: only a full raise reopens
            self._increment[r] = np.where(full, np.maximum(increment, to - level), increment)
            self._reopen[r] = np.where(full, to, self._reopen[r])
            self._level[r] = to
        self._acted[i, rows] = self._level[rows]
        if self.recording:
            self._record_actions(rows, i, a, new_bet)

    def _legal_for(self) -> None:
        """The action mask and raise-to totals of the player to act at every table (`Hand._legal_for`;
        a table's mask depends on its state alone, so unchanged tables keep theirs)."""
        i, every = self._actor, self._every
        bet, stack = self._bet[i, every], self._stack[i, every]
        level, increment = self._level, self._increment
        to_call = np.minimum(level - bet, stack)
        all_in = bet + stack
        depth = np.where(self._folded, -1, self._bet + self._stack)
        # Rule 11: a raise needs another player in the hand who could put in more than the level.
        callers = (self._with_chips > 1) & ((level == 0) | (level < _second_largest(depth)))
        acted = self._acted[i, every]
        added = level - acted
        reopened = (acted == NONE) | ((added > 0) & (added >= increment))  # rules 8, 9
        can_raise = (all_in > level) & callers & reopened
        low = np.minimum(level + increment, all_in)
        pot = self._chips - self._stack.sum(axis=0)
        tos, mask = self._tos, self._mask
        for j, fraction in enumerate(self._sizes, start=2):
            if fraction is None:  # the smallest raise
                tos[j] = low
                mask[j] = can_raise & (low < all_in)
                continue
            to = bet + to_call + (fraction * (pot + to_call)).astype(np.int64)  # rounded down
            tos[j] = to
            mask[j] = can_raise & (low <= to) & (to < all_in)
        tos[-1] = all_in
        mask[-1] = can_raise
        self.legal[...] = mask.T

    # ------------------------------------------------------- the transition
    def _advance(self, rows: Ints) -> Ints:
        """Move the hands at `rows` on until someone must act or the hand is over (`Hand._advance`);
        returns the tables whose hand is over, settled."""
        ended: list[Ints] = []
        alone = self._live[rows] == 1  # folded to one player (only an action does that)
        won, pending = (rows[alone], rows[~alone]) if alone.any() else (rows[:0], rows)
        nxt, found = self._next_actor(pending)
        self._actor[pending[found]] = nxt[found]
        over = pending[~found]
        closing = np.concatenate([won, over]) if won.size else over
        if closing.size:
            self._end_round(closing)
        if won.size:
            winner = _first(~self._folded[:, won], self._player_rows)
            self._stack[winner, won] += self._contrib[:, won].sum(axis=0) + self._dead[won]
            ended.append(won)
        showdowns: list[Ints] = []  # settled together below, whichever street their betting ended on
        if over.size:
            river = self._street[over] == 3
            showdowns.append(over[river])
            opened = over[~river]
            self._open_street(opened)
            # A new street: no bets, nobody has acted. The first player left of the button who is in
            # with chips acts, if another player has chips too; else the board is run out.
            acts = self._with_chips[opened] > 1
            acting = opened[acts]
            playing = ~self._folded[:, acting] & (self._stack[:, acting] > 0)
            self._actor[acting] = _first(playing, self._player_rows)
            run_out = opened[~acts]
            if run_out.size and self.recording:  # a street at a time, to the river
                while (behind := run_out[self._street[run_out] < 3]).size:
                    self._open_street(behind)
            self._street[run_out] = 3
            showdowns.append(run_out)
        if showdowns:
            shown = np.concatenate(showdowns)
            if shown.size:
                value = strengths(self._deck[:, shown], self.players)
                self._stack[:, shown] += payouts(
                    self._contrib[:, shown], self._folded[:, shown], self._dead[shown], value
                )
                ended.append(shown)
        return np.sort(np.concatenate(ended)) if ended else rows[:0]

    def _next_actor(self, rows: Ints) -> tuple[Ints, npt.NDArray[np.bool_]]:
        """The next player who must act at `rows`, and whether there is one (`Hand._next_actor`)."""
        p = self.players
        every = 2 * len(rows) > self.n  # then cheaper for every table than gathering these
        cols: Ints | slice = slice(None) if every else rows
        stack, bet, folded = self._stack[:, cols], self._bet[:, cols], self._folded[:, cols]
        level = self._level[cols]
        waiting = (self._acted[:, cols] == NONE) & (self._with_chips[cols] > 1)  # rule 11
        candidate = ~folded & (stack > 0) & ((bet < level) | waiting)
        # Rule 11: preflop before any raise, a player whose blind covers everyone is not asked.
        covering = (self._street[cols] == 0) & (self._raise_actions[cols] == 0)
        if covering.any():
            depth = np.where(folded, -1, bet + stack)
            second = _second_largest(depth)
            covering &= level >= second
            if covering.any():
                top = depth.max(axis=0)
                others = np.where(depth == top, second, top)  # the deepest other player
                candidate &= ~(covering & (bet >= others))
        actor = self._actor[cols]
        first = np.where(self._street[cols] == 0, self._opener[cols], 0)
        begin = np.where(actor == NONE, first, actor + 1)  # from 0 to p
        # The first candidate clockwise from `begin`: the least distance from it.
        distance = self._player_rows - begin
        distance += np.where(distance < 0, p, 0)
        distance = np.where(candidate, distance, p).min(axis=0)
        nxt = begin + distance
        nxt -= np.where(nxt >= p, p, 0)
        if every:
            return nxt[rows], distance[rows] < p
        return nxt, distance < p

    def _end_round(self, rows: Ints) -> None:
        """Return an uncalled bet (rule 16) and move the bets into the pots."""
        bet = self._bet[:, rows]
        uncalled = bet.max(axis=0) - _second_largest(bet)
        back = uncalled > 0
        if back.any():
            r, u = rows[back], uncalled[back]
            t = bet[:, back].argmax(axis=0)
            self._with_chips[r] += self._stack[t, r] == 0
            self._stack[t, r] += u
            bet[t, back] -= u
        self._contrib[:, rows] += bet
        self._bet[:, rows] = 0

    def _open_street(self, rows: Ints) -> None:
        """The next betting round: no bets, nobody has acted, the first player left of the button."""
        self._street[rows] += 1
        self._acted[:, rows] = NONE
        self._table[:5, rows] = _NEW_STREET  # level, increment, reopen, raise actions, actor
        self._increment[rows] = self._bb[rows]
        if self.recording:
            self._record_board(rows)
