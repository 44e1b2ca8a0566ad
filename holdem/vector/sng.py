"""`VectorSitAndGos`: N single-table sit-and-gos played at once, one decision per table per call.

The betting is `holdem.vector.engine`'s, on tables whose empty seats are players who folded with no
chips. Around it, each table runs the tournament of `holdem tournament` (rules 22-23, 28-30) as
arrays where it can and in Python where a table's field changes: the seat draw and first button of
`holdem.tournament.run.draw_seats`, the dead button of `holdem.hand.positions.place_blinds`, the levels
of the structure on each table's own clock (a hand takes `hand_seconds` plus `action_seconds` an
action, as in `holdem tournament`), and places and prizes by `holdem.tournament.run.place_busts`.
A finished sit-and-go is kept for `results()` and its table draws a new one at once. A differential
test plays them in lockstep with the engine's `Table` and `Hand`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from numpy.random import default_rng  # imported now, not at first use: see holdem.pushfold.endgame

from holdem.bots.observation import observation_size
from holdem.console.fields import Field, read_fields
from holdem.errors import InvalidConfigError
from holdem.hand.stakes import CHIP_LIMIT
from holdem.tournament.payouts import payout_shares, prizes
from holdem.tournament.run import Finish, TournamentRun, place_busts
from holdem.tournament.structure import BlindStructure, check_clock
from holdem.vector.engine import NONE, Engine, Ints, check_fractions, check_seed
from holdem.vector.observe import observe

__all__ = ["VectorSitAndGos"]

ARGUMENTS = {"n": Field("count", None, 1), "entrants": Field("whole", None, 2, 9)}
"""The sit-and-gos and their entrants, checked as every setting is (`holdem.console.fields`); the seats,
from the entrants to 9, in turn."""


class VectorSitAndGos(Engine):
    """`n` sit-and-gos of `entrants` players each, at one table of `seats` seats (default: as many as
    entrants), played at once.

    Actions: fold, check/call, the smallest raise, a raise to each pot fraction (after calling) and
    the largest raise. ``step(actions)`` returns each seat's prize at tables whose sit-and-go ended
    in the call, and which ended; ``results()`` returns those sit-and-gos as `TournamentRun`s (the
    entrants ``e1``.., bot ``"vector"``). Readable between calls, by table: ``entrant`` (by seat, the
    entrant sitting there, -1 for none), ``seat_stacks`` (by seat, at the start of the current hand),
    ``button``, ``actor`` (seats), ``clock`` (minutes), ``runs`` (which sit-and-go), ``hands_played``;
    ``hand_sizes`` counts finished hands by the players dealt in. `decks` has two cards for every
    seat, an empty one's too, which nobody is dealt.
    """

    def __init__(
        self,
        n: int,
        entrants: int,
        structure: BlindStructure,
        *,
        seats: int | None = None,
        buy_in: int = 100,
        shares: Sequence[float] | None = None,
        hand_seconds: float = 30.0,
        action_seconds: float = 5.0,
        seed: int | None = None,
        fractions: Sequence[float] = (0.5, 1.0, 2.0),
    ) -> None:
        size = entrants if seats is None else seats
        read_fields({"n": n, "entrants": entrants}, ARGUMENTS, InvalidConfigError)
        read_fields({"seats": size}, {"seats": Field("whole", None, entrants, 9)}, InvalidConfigError)
        if not isinstance(structure, BlindStructure):
            raise InvalidConfigError(f"structure must be a BlindStructure, got {structure!r}")
        most = max([structure.starting_stack] + [level.big_blind for level in structure.levels])
        if most > CHIP_LIMIT:
            raise InvalidConfigError(
                f"a structure's stack and blinds must be at most {CHIP_LIMIT:,}, got {most:,}"
            )
        check_clock(hand_seconds, action_seconds, buy_in)
        self.fractions: tuple[float, ...] = check_fractions(fractions)
        self.actions: tuple[str, ...] = (
            "fold", "check/call", "raise min", *(f"raise {f:g} pot" for f in self.fractions), "raise max",
        )  # fmt: skip
        self.n, self.players, self.entrants, self.structure = n, size, entrants, structure
        self.recording = False
        paid = tuple(payout_shares(entrants) if shares is None else shares)
        if not 1 <= len(paid) <= entrants:
            raise InvalidConfigError(f"shares must pay 1 to {entrants} places (the field), got {shares!r}")
        self.prizes = prizes(buy_in * entrants, paid)
        self._hand_seconds, self._action_seconds = float(hand_seconds), float(action_seconds)
        self._names = [f"e{k + 1}" for k in range(entrants)]
        self._prize_of_place = np.array([*self.prizes, *[0] * entrants][:entrants], dtype=np.int64)
        self._blinds_by_level = np.zeros((4, 0), dtype=np.int64)  # small, big, ante, big-blind ante
        self._seed = check_seed(seed)
        self.reset()

    # ------------------------------------------------------------------ public
    def reset(self, seed: int | None = None) -> npt.NDArray[np.float32]:
        """Start over: a new sit-and-go at every table; the observations. The cards go on from the
        random source as it is, or, given a `seed`, start again from it."""
        n, p = self.n, self.players
        if seed is not None or not hasattr(self, "_rng"):
            self._seed = check_seed(seed) if seed is not None else self._seed
            self._rng = default_rng(self._seed)
        self._allocate([None, *self.fractions])
        self.button: Ints = np.zeros(n, dtype=np.int64)
        self.hands_played: Ints = np.zeros(n, dtype=np.int64)
        self.hand_sizes: Ints = np.zeros(p + 1, dtype=np.int64)  # finished hands by players dealt in
        self.runs: Ints = np.full(n, -1, dtype=np.int64)  # which sit-and-go each table plays
        self.entrant: Ints = np.full((n, p), -1, dtype=np.int64)  # by seat: entrant 0.., -1 empty
        self.seat_stacks: Ints = np.zeros((n, p), dtype=np.int64)  # by seat, at the current hand's start
        self.clock = np.zeros(n)  # minutes on each tournament's clock
        self._bb = np.zeros(n, dtype=np.int64)
        self._opener = np.zeros(n, dtype=np.int64)
        self._blind_seats = np.zeros((2, n), dtype=np.int64)  # the current hand's small and big blind
        self._actions_taken = np.zeros(n, dtype=np.int64)  # in the current hand
        self._hands_dealt = np.zeros((n, p), dtype=np.int64)  # hands dealt to each seat this tournament
        self._drawn = np.full((n, p), -1, dtype=np.int64)  # `entrant` as drawn, with the busted
        self._hands = np.zeros(n, dtype=np.int64)  # hands played this tournament
        self._places = np.zeros((n, self.entrants), dtype=np.int64)  # by entrant, once out
        self._won = np.zeros((n, self.entrants), dtype=np.int64)  # prizes by entrant
        self._next_run = 0
        self._results: list[TournamentRun] = []
        self._obs: npt.NDArray[np.float32] | None = None
        every = np.arange(n)
        self._draw_seats(every)
        while (every := self._deal(every)).size:  # hands nobody has a decision in: played out
            self._finish(every, np.zeros((n, p), np.float32), np.zeros(n, bool))
        self._legal_for()
        return self.observe()

    @property
    def obs_size(self) -> int:
        return observation_size(self.players)

    def observe(self) -> npt.NDArray[np.float32]:
        """The observation of the player to act at each table (`holdem.env.encoding`, in big blinds
        of the hand's level; empty seats look like players who folded with no chips)."""
        if self._obs is None:
            self._obs = observe(self, self._every)
        return self._obs

    def step(
        self, actions: npt.ArrayLike, where: npt.ArrayLike | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Apply one action per table (only at the tables `where` says, if given).

        Returns each seat's prize at tables whose sit-and-go ended, and which ended; every hand that
        ended was followed by the next, or by a new sit-and-go. A masked action refuses the whole call.
        """
        rows, a = self._chosen(actions, where)
        self._obs = None
        won = np.zeros((self.n, self.players), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        self._actions_taken[rows] += 1
        self._apply(rows, a)
        ended = self._advance(rows)
        while ended.size:
            self._finish(ended, won, done)
            ended = self._deal(ended)
        self._legal_for()
        return won, done

    def results(self) -> list[TournamentRun]:
        """The sit-and-gos finished since the last call, in the order they finished."""
        out, self._results = self._results, []
        return out

    # ------------------------------------------------------------ tournaments
    def _draw_seats(self, rows: Ints) -> None:
        """Rule 22 at `rows`: new sit-and-gos, every entrant at a random seat and the first button at
        a random entrant's."""
        k, p, e = len(rows), self.players, self.entrants
        seat_of = np.argsort(self._rng.random((k, p)), axis=1)[:, :e]  # entrant i sits at seat_of[:, i]
        index = np.arange(k)[:, None]
        self.entrant[rows] = -1
        self.entrant[rows[:, None], seat_of] = np.arange(e)
        self._drawn[rows] = self.entrant[rows]
        self.seat_stacks[rows] = np.where(self.entrant[rows] >= 0, self.structure.starting_stack, 0)
        self.button[rows] = seat_of[index[:, 0], self._rng.integers(0, e, k)]
        self._blind_seats[:, rows] = NONE  # no hand yet: the first places the blinds from the button
        self.runs[rows] = np.arange(self._next_run, self._next_run + k)
        self._next_run += k
        self.clock[rows] = 0.0
        self._hands_dealt[rows] = 0
        self._hands[rows] = 0
        self._places[rows] = 0
        self._won[rows] = 0

    def _place_blinds(self, rows: Ints) -> None:
        """Rules 2 and 30 at `rows`, as `holdem.hand.positions.place_blinds` places them for a dead button:
        the big blind to the next player after the last one; the small blind on the last big blind's
        seat, the button on the last small blind's (dead if empty; right behind the small blind if
        that would put it at or past the big blind); heads-up the other player has both. A first hand
        keeps the drawn button, with the blinds the next players after it."""
        p = self.players
        present = self.entrant[rows] >= 0
        heads_up = present.sum(axis=1) == 2
        button = self.button[rows]
        last_small, last_big = self._blind_seats[:, rows]
        first = last_big == NONE
        seats = np.arange(p)

        def after(seat: Ints) -> Ints:  # the next seat with a player after `seat`
            distance = (seats - seat[:, None] - 1) % p
            out: Ints = (seat + 1 + np.where(present, distance, p).min(axis=1)) % p
            return out

        following = after(np.where(first, button, last_big))
        big = np.where(first & ~heads_up, after(following), following)
        other = (present * seats).sum(axis=1) - big  # heads-up: the player not in the big blind
        small = np.where(first, np.where(heads_up, button, following), np.where(heads_up, other, last_big))
        behind = (0 < (last_small - big) % p) & ((last_small - big) % p < (last_big - big) % p)
        later = np.where(heads_up, other, np.where(behind, last_small, (last_big - 1) % p))
        self.button[rows] = np.where(first, button, later)
        self._blind_seats[:, rows] = small, big

    def _stakes(self, levels: Ints) -> Ints:
        """Small blind, big blind, ante and big-blind ante of each level (0-based), as rows."""
        known = self._blinds_by_level.shape[1]
        if levels.max() >= known:
            stakes = [self.structure.level(k).stakes() for k in range(int(levels.max()) + 1)]
            self._blinds_by_level = np.array(
                [[s.small_blind, s.big_blind, s.ante, s.big_blind_ante] for s in stakes], dtype=np.int64
            ).T
        out: Ints = self._blinds_by_level[:, levels]
        return out

    def _levels(self, rows: Ints) -> Ints:
        """The level (0-based) in force on each table's clock (rule 23): `BlindStructure.levels_at`."""
        return self.structure.levels_at(self.clock[rows])

    def _deal(self, rows: Ints) -> Ints:
        """The next hand at `rows`: the dead button and blinds placed (rules 2, 30), the cards, and
        the antes and blinds of the table's level posted; returns the tables where nobody has a
        decision (the hand was played out)."""
        p, k = self.players, len(rows)
        self._place_blinds(rows)
        seats = (self.button[rows] + 1 + self._player_rows) % p  # (players, k): the seat of each row
        present = self.entrant[rows, seats] >= 0
        start = self.seat_stacks[rows, seats]
        small_blind, big_blind, ante, bb_ante = self._stakes(self._levels(rows))
        small_col, big_col = (self._blind_seats[:, rows] - self.button[rows] - 1) % p
        index = np.arange(k)
        blinds = np.zeros((p, k), dtype=np.int64)
        blinds[small_col, index] = small_blind  # an empty seat has no chips: it posts nothing
        blinds[big_col, index] = big_blind
        antes = np.minimum(start, ante)
        bets = np.minimum(start - antes, blinds)
        stack = start - antes - bets
        dead = np.minimum(stack[big_col, index], bb_ante)  # rule 5: after the blind
        stack[big_col, index] -= dead
        self._seats[:, :, rows] = np.stack([start, stack, bets, antes, np.full_like(start, NONE)])
        self._folded[:, rows] = ~present
        self._raises[rows] = 0
        self._deck[:, rows] = self._shuffled(k)
        self._table[:, rows] = 0  # no raise yet, preflop
        # Rule 7: the level is the full blind, even if it is all-in for less.
        self._level[rows] = self._increment[rows] = self._reopen[rows] = big_blind
        self._actor[rows] = NONE
        self._live[rows] = present.sum(axis=0)
        self._with_chips[rows] = (stack > 0).sum(axis=0)
        self._dead[rows] = dead
        self._chips[rows] = start.sum(axis=0)
        self._bb[rows] = big_blind
        # The first player preflop is the next one after the big blind who can act (heads-up the
        # button): `_next_actor` looks from the seat after the big blind on.
        self._opener[rows] = (big_col + 1) % p
        self._actions_taken[rows] = 0
        self._hands_dealt[rows, seats] += present
        return self._advance(rows)

    def _finish(self, rows: Ints, won: npt.NDArray[np.float32], done: npt.NDArray[np.bool_]) -> None:
        """The hands over at `rows`: stacks back to the seats, the clock on, busted players placed
        (rules 28, 29); a table down to one player ends its sit-and-go and draws the next."""
        p = self.players
        seats = (self.button[rows] + 1 + self._player_rows) % p
        final, start = self._stack[:, rows], self._start[:, rows]
        self.seat_stacks[rows, seats] = final
        self.hands_played[rows] += 1
        self._hands[rows] += 1
        self.clock[rows] += (self._hand_seconds + self._action_seconds * self._actions_taken[rows]) / 60
        dealt = start > 0
        self.hand_sizes += np.bincount(dealt.sum(axis=0), minlength=p + 1)
        busted = (final == 0) & dealt
        count = busted.sum(axis=0)
        if not count.any():
            return
        entrant = self.entrant[rows]  # before the busted players leave
        left = (entrant >= 0).sum(axis=1)  # players still in before them
        one = np.flatnonzero(count == 1)  # rule 29: the place is one more than the players left after
        seat = seats[busted[:, one].argmax(axis=0), one]
        out = entrant[one, seat]
        self._places[rows[one], out] = left[one]
        self._won[rows[one], out] = self._prize_of_place[left[one] - 1]
        for j in np.flatnonzero(count > 1).tolist():  # rule 28: by the stacks they started with
            out = entrant[j, seats[busted[:, j], j]]
            place: dict[str, int] = {}
            prize: dict[str, int] = {}
            names = [self._names[e] for e in out.tolist()]
            stacks = start[busted[:, j], j].tolist()
            place_busts(
                list(zip(names, stacks, strict=True)), int(left[j]), self.prizes, self._names, place, prize
            )
            self._places[rows[j], out] = [place[name] for name in names]
            self._won[rows[j], out] = [prize[name] for name in names]
        self.entrant[np.broadcast_to(rows, seats.shape)[busted], seats[busted]] = -1
        over = rows[left - count == 1]
        if over.size:
            self._end(over, won, done)

    def _end(self, rows: Ints, won: npt.NDArray[np.float32], done: npt.NDArray[np.bool_]) -> None:
        """The sit-and-gos at `rows` are over: the winners placed, the results kept, new ones drawn."""
        winner = (self.entrant[rows] >= 0).argmax(axis=1)
        first = self.entrant[rows, winner]
        self._places[rows, first] = 1
        self._won[rows, first] = self._prize_of_place[0]
        drawn = self._drawn[rows]
        seated = drawn >= 0
        by_seat = self._won[rows[:, None], np.where(seated, drawn, 0)]
        won[rows] = np.where(seated, by_seat, 0)
        done[rows] = True
        entrant_seat = np.argsort(np.where(seated, drawn, self.entrants), axis=1)[:, : self.entrants]
        hands = self._hands_dealt[rows[:, None], entrant_seat]  # by entrant
        for j, r in enumerate(rows.tolist()):
            finishes = tuple(
                Finish(name, "vector", place, prize, dealt)
                for name, place, prize, dealt in zip(
                    self._names,
                    self._places[r].tolist(),
                    self._won[r].tolist(),
                    hands[j].tolist(),
                    strict=True,
                )
            )
            run = TournamentRun(
                int(self.runs[r]), finishes, self.prizes, int(self._hands[r]), float(self.clock[r])
            )
            self._results.append(run)
        self._draw_seats(rows)
