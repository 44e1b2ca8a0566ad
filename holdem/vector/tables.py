"""`VectorTables`: N no-limit tables stepped at once, one decision per table per call, on NumPy arrays.

The rules are the engine's (`holdem.hand.Hand`), written for arrays: every table's state is a column
and a player's a row, in dealing order (row 0 left of the button, the button last), so that what is
summed or compared over the players of each table is a few operations on whole rows; each rule is
a few whole-array operations over the tables that need it. A differential test keeps the
two in lockstep. Seats, which the caller sees, are fixed; the button moves one seat per hand, so
the player in row ``p`` sits in seat ``(button + 1 + p) % players``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from holdem.errors import IllegalActionError, InvalidConfigError
from holdem.stakes import Stakes, Structure
from holdem.vector import record
from holdem.vector.observe import observation_size, observe
from holdem.vector.settle import payouts, strengths

__all__ = ["VectorTables"]

Ints = npt.NDArray[np.int64]
_NONE = -1  # "has not acted this round" and "nobody to act yet"
# The rows of a table's state block; the first five are those a new street sets.
_TABLE = (
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


class VectorTables:
    """`n` heads-up or ring tables of no-limit hold'em, stepped together.

    ``stacks`` (a number, or an ``(n, players)`` array by seat) is what every player starts each
    hand with: a table whose hand ends starts the next one at once, stacks reset and the button
    one seat on. Stacks so short that some hand would have no decision are refused.
    Actions are those of `holdem.env.encoding`: fold, check/call, a raise to each pot fraction
    (after calling) and the largest raise. `record` keeps each finished hand as a PHH document.
    """

    def __init__(
        self,
        n: int,
        players: int = 2,
        stacks: int | npt.ArrayLike = 200,
        stakes: Stakes | None = None,
        *,
        seed: int | None = None,
        record: bool = False,
        fractions: Sequence[float] = (0.5, 1.0, 2.0),
    ) -> None:
        stakes = stakes if stakes is not None else Stakes(1, 2)
        if type(n) is not int or n < 1:
            raise InvalidConfigError(f"the number of tables must be a positive whole number, got {n!r}")
        if type(players) is not int or not 2 <= players <= 9:
            raise InvalidConfigError(f"players must be 2 to 9, got {players!r}")
        if not isinstance(stakes, Stakes) or stakes.structure is not Structure.NO_LIMIT or stakes.straddles:
            raise InvalidConfigError(f"VectorTables plays no-limit without straddles, got {stakes!r}")
        values = tuple(fractions)
        if (
            not values
            or not all(type(f) in (int, float) and f > 0 for f in values)
            or len(set(values)) != len(values)
        ):
            raise InvalidConfigError(f"pot fractions must be distinct positive numbers, got {fractions!r}")
        self.fractions: tuple[float, ...] = tuple(sorted(float(f) for f in values))
        self.actions: tuple[str, ...] = (
            "fold", "check/call", *(f"raise {f:g} pot" for f in self.fractions), "raise max",
        )  # fmt: skip
        self.n, self.players, self.stakes, self.recording = n, players, stakes, bool(record)
        try:
            seat_stacks = np.broadcast_to(np.asarray(stacks), (n, players))
        except ValueError:
            raise InvalidConfigError(
                f"stacks must be a number or an ({n}, {players}) array, got {stacks!r}"
            ) from None
        if seat_stacks.dtype.kind not in "iu":
            raise InvalidConfigError(f"stacks must be whole numbers of chips, got dtype {seat_stacks.dtype}")
        if seat_stacks.min() <= 0:
            raise InvalidConfigError(f"stacks must be positive, got {seat_stacks.min()}")
        self._seat_stacks: Ints = seat_stacks.astype(np.int64)
        self._seed = seed
        blinds = (
            [stakes.big_blind, stakes.small_blind] if players == 2 else [stakes.small_blind, stakes.big_blind]
        )
        self._blinds: Ints = np.array(blinds + [0] * (players - 2), dtype=np.int64)
        self._big = 0 if players == 2 else 1  # the big blind's column: who posts a big-blind ante
        self._opener = 1 if players == 2 else 2 % players  # first to act preflop (rule 1)
        self._fraction_array = np.array(self.fractions)
        self._columns = np.arange(players)[:, None]  # a player's row number, against a row of tables
        self._every = np.arange(n)
        bb = stakes.big_blind
        # Rule 7: a hand's level is the full blind, even if it is all-in for less.
        self._new_hand = np.array([bb, bb, bb, 0, _NONE, 0, players, 0, 0, 0])[:, None]
        self._new_street = np.array([0, bb, 0, 0, _NONE])[:, None]
        self._seat_of = (self._columns + 1 + np.arange(players)) % players  # [player, button]: seat
        self._dealt: tuple[Ints, Ints] | None = None
        self.reset()
        same = bool((self._seat_stacks == self._seat_stacks[0]).all())
        dealt = {int(self.button[0]): self._state_after_deal()}
        for _ in range(players - 1):  # every button position: somebody must have a decision
            self._deal(np.arange(n))
            dealt[int(self.button[0])] = self._state_after_deal()
        if same:  # the state blocks after the forced bets, by button
            seats_state, table_state = zip(*(dealt[b] for b in range(players)), strict=True)
            self._dealt = np.stack(seats_state, axis=2), np.stack(table_state, axis=1)
        self.reset()

    # ------------------------------------------------------------------ public
    def reset(self) -> npt.NDArray[np.float32]:
        """Start over: fresh random source, every button on the last seat, new hands; the observations."""
        n, p = self.n, self.players
        self._rng = np.random.default_rng(self._seed)
        self._pool, self._pool_used = np.zeros((2 * p + 8, 0), dtype=np.int8), 0
        # The state is two blocks, so that a hand dealt or a street opened is a copy or two: by
        # player (a row each) and table (a column each), and by table (a column each).
        self._seats = np.zeros((5, p, n), np.int64)
        self._start, self._stack, self._bet, self._contrib, self._acted = self._seats
        self._table = np.zeros((len(_TABLE), n), np.int64)
        (self._level, self._increment, self._reopen, self._raise_actions, self._actor, self._street,
         self._live, self._with_chips, self._dead, self._chips) = self._table  # fmt: skip
        self._folded = np.zeros((p, n), dtype=bool)
        self._raises = np.zeros((n, 4), dtype=np.int64)
        self._deck = np.zeros((2 * p + 8, n), dtype=np.int8)  # a column per table
        self.button: Ints = np.full(n, p - 1, dtype=np.int64)
        self.hands_played: Ints = np.zeros(n, dtype=np.int64)
        self.final_stacks: Ints = np.zeros((n, p), dtype=np.int64)
        self.legal = np.zeros((n, len(self.actions)), dtype=bool)
        self._mask = np.zeros((len(self.actions), n), dtype=bool)  # `legal`, an action per row
        self._mask[:2] = True  # fold and check/call, always
        self._tos = np.zeros((len(self.actions), n), dtype=np.int64)  # the raises' totals
        self._log: list[list[str]] = [[] for _ in range(n)] if self.recording else []
        self._histories: list[dict[str, Any]] = []
        self._obs: npt.NDArray[np.float32] | None = None
        self._deal(np.arange(n), first=True)
        return self.observe()

    @property
    def actor(self) -> Ints:
        """The seat of the player to act at each table."""
        out: Ints = (self.button + 1 + self._actor) % self.players
        return out

    @property
    def obs_size(self) -> int:
        return observation_size(self.players)

    @property
    def decks(self) -> npt.NDArray[np.int8]:
        """The current hand's cards at each table, in dealing order (hole cards twice round, then
        burn and flop, burn and turn, burn and river), as card indices; read-only."""
        view = self._deck.T
        view.setflags(write=False)
        return view

    def observe(self) -> npt.NDArray[np.float32]:
        """The observation of the player to act at each table (`holdem.env.encoding`), ``(n, obs_size)``."""
        if self._obs is None:
            self._obs = observe(self, np.arange(self.n))
        return self._obs

    def step(
        self, actions: npt.ArrayLike, where: npt.ArrayLike | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Apply one action per table (only at the tables `where` says, if given).

        Returns the chips each seat won in big blinds at tables whose hand ended, and which ended;
        those tables are already dealt their next hand. A masked action refuses the whole call.
        """
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,) or chosen.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions must be {self.n} whole numbers, got shape {chosen.shape} {chosen.dtype}"
            )
        if where is None:
            rows = np.arange(self.n)
        else:
            mask = np.asarray(where)
            if mask.shape != (self.n,) or mask.dtype != bool:
                raise IllegalActionError(
                    f"where must be {self.n} booleans, got shape {mask.shape} {mask.dtype}"
                )
            rows = np.flatnonzero(mask)
        a = chosen[rows].astype(np.int64)
        ok = (a >= 0) & (a < len(self.actions))
        ok[ok] = self.legal[rows[ok], a[ok]]
        if not ok.all():
            t = int(rows[np.argmin(ok)])
            legal = ", ".join(f"{i} {name}" for i, name in enumerate(self.actions) if self.legal[t, i])
            raise IllegalActionError(f"table {t}: action {int(chosen[t])} is not legal; legal: {legal}")
        self._obs = None
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        self._apply(rows, a)
        ended = self._advance(rows)
        if ended.size:
            self._finish(ended, rewards, done)
            self._deal(ended)
        self._legal_for()
        return rewards, done

    def histories(self) -> list[dict[str, Any]]:
        """The finished hands recorded since the last call, as PHH documents (`holdem.phh.dumps`)."""
        out, self._histories = self._histories, []
        return out

    # ------------------------------------------------------------ dealing
    def _deal(self, rows: Ints, first: bool = False) -> None:
        """Start the next hand at `rows`: move the button, shuffle, post antes and blinds (rules 3-5),
        and find the first player to act. With the same stacks at every table, what the forced bets
        leave depends on the button alone and is copied from the hands dealt when the tables were made."""
        p = self.players
        if not first:
            self.button[rows] = (self.button[rows] + 1) % p
        self._deck[:, rows] = self._shuffled(len(rows))
        self._folded[:, rows] = False
        self._raises[rows] = 0
        if self._dealt is None:
            self._acted[:, rows] = _NONE
            self._table[:, rows] = self._new_hand
            self._post(rows)
        else:
            seats, table = self._dealt
            b = self.button[rows]
            self._seats[:, :, rows] = seats[:, :, b]
            self._table[:, rows] = table[:, b]
        if self.recording:
            record.start(self, rows)
        if first:
            self._legal_for()

    def _post(self, rows: Ints) -> None:
        """Post the forced bets at `rows` from the seats' stacks and find the first player to act."""
        stakes = self.stakes
        seats = self._seat_of[:, self.button[rows]]
        start = self._seat_stacks[rows, seats]
        self._start[:, rows] = start
        self._chips[rows] = start.sum(axis=0)
        ante = np.minimum(start, stakes.ante)
        blind = np.minimum(start - ante, self._blinds[:, None])
        stack = start - ante - blind
        bb_ante = np.minimum(stack[self._big], stakes.big_blind_ante)  # rule 5: after the blind
        stack[self._big] -= bb_ante
        self._stack[:, rows], self._bet[:, rows], self._contrib[:, rows], self._dead[rows] = (
            stack,
            blind,
            ante,
            bb_ante,
        )
        self._with_chips[rows] = (stack > 0).sum(axis=0)
        over = self._advance(rows)
        if over.size:  # found when the tables are made, so never in a step
            r = int(over[0])
            raise InvalidConfigError(
                f"table {r}: with the button on seat {self.button[r]}, "
                f"stacks {self._seat_stacks[r].tolist()} leave nobody a decision after the forced bets; "
                "give the players deeper stacks"
            )

    def _state_after_deal(self) -> tuple[Ints, Ints]:
        """Table 0's state after its forced bets: what `_deal` copies by button position."""
        return self._seats[:, :, 0].copy(), self._table[:, 0].copy()

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
            record.actions(self, rows, i, a, new_bet)

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
        reopened = (acted == _NONE) | ((added > 0) & (added >= increment))  # rules 8, 9
        can_raise = (all_in > level) & callers & reopened
        low = np.minimum(level + increment, all_in)
        pot = self._chips - self._stack.sum(axis=0)
        tos, mask = self._tos, self._mask
        for j, fraction in enumerate(self.fractions, start=2):
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
            winner = _first(~self._folded[:, won], self._columns)
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
            self._actor[acting] = _first(playing, self._columns)
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
        waiting = (self._acted[:, cols] == _NONE) & (self._with_chips[cols] > 1)  # rule 11
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
        first = np.where(self._street[cols] == 0, self._opener, 0)
        begin = np.where(actor == _NONE, first, actor + 1)  # from 0 to p
        # The first candidate clockwise from `begin`: the least distance from it.
        distance = self._columns - begin
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
        self._acted[:, rows] = _NONE
        self._table[:5, rows] = self._new_street  # level, increment, reopen, raise actions, actor
        if self.recording:
            record.board(self, rows)

    def _finish(self, rows: Ints, rewards: npt.NDArray[np.float32], done: npt.NDArray[np.bool_]) -> None:
        """Report the hands over at `rows`: rewards by seat in big blinds, final stacks, histories."""
        seats = self._seat_of[:, self.button[rows]]
        final = self._stack[:, rows]
        self.final_stacks[rows, seats] = final
        rewards[rows, seats] = (final - self._start[:, rows]) / self.stakes.big_blind
        done[rows] = True
        self.hands_played[rows] += 1
        if self.recording:
            self._histories += record.finish(self, rows)
