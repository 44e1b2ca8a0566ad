"""`VectorTables`: N no-limit tables stepped at once, one decision per table per call, on NumPy arrays.

The betting is `holdem.vector.engine`'s; this module deals the hands (every player starts each hand
with the same stacks) and reports them. A differential test keeps it and the engine's `Hand` in
lockstep. Seats, which the caller sees, are fixed; the button moves one seat per hand, so the
player in row ``p`` sits in seat ``(button + 1 + p) % players``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from numpy.random import default_rng  # imported now, not at first use: see holdem.pushfold.endgame

from holdem.bots.observation import observation_size
from holdem.console.fields import Field, read_fields
from holdem.errors import InvalidConfigError
from holdem.hand.stakes import CHIP_LIMIT, Stakes, Structure
from holdem.vector import record
from holdem.vector.engine import NONE, TABLE, Engine, Ints, check_flag, check_fractions, check_seed
from holdem.vector.observe import observe

__all__ = ["VectorTables"]

ARGUMENTS = {"n": Field("count", None, 1), "players": Field("whole", None, 2, 9)}
"""The tables and their players, checked as every setting is (`holdem.console.fields`)."""


def _seat_stacks(stacks: int | npt.ArrayLike, n: int, players: int) -> Ints:
    """`stacks` as an ``(n, players)`` array of whole chips, each positive and within the limit."""
    try:
        seat_stacks = np.broadcast_to(np.asarray(stacks), (n, players))
    except ValueError:
        raise InvalidConfigError(
            f"stacks must be a number or an ({n}, {players}) array, got {stacks!r}"
        ) from None
    if seat_stacks.dtype.kind not in "iu":
        raise InvalidConfigError(f"stacks must be whole numbers of chips, got dtype {seat_stacks.dtype}")
    if seat_stacks.min() <= 0 or seat_stacks.max() > CHIP_LIMIT:
        low, high = seat_stacks.min(), seat_stacks.max()
        raise InvalidConfigError(
            f"stacks must be positive and at most {CHIP_LIMIT:,} chips, got {low if low <= 0 else high}"
        )
    return seat_stacks.astype(np.int64)


class VectorTables(Engine):
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
        read_fields({"n": n, "players": players}, ARGUMENTS, InvalidConfigError)
        if not isinstance(stakes, Stakes) or stakes.structure is not Structure.NO_LIMIT or stakes.straddles:
            raise InvalidConfigError(f"VectorTables plays no-limit without straddles, got {stakes!r}")
        self.fractions: tuple[float, ...] = check_fractions(fractions)
        self.actions: tuple[str, ...] = (
            "fold", "check/call", *(f"raise {f:g} pot" for f in self.fractions), "raise max",
        )  # fmt: skip
        self.n, self.players, self.stakes = n, players, stakes
        self.recording = check_flag("record", record)
        self._seat_stacks: Ints = _seat_stacks(stacks, n, players)
        self._seed = check_seed(seed)
        blinds = (
            [stakes.big_blind, stakes.small_blind] if players == 2 else [stakes.small_blind, stakes.big_blind]
        )
        self._blinds: Ints = np.array(blinds + [0] * (players - 2), dtype=np.int64)
        self._big = 0 if players == 2 else 1  # the big blind's column: who posts a big-blind ante
        self._opener = np.full(n, 1 if players == 2 else 2 % players)  # first to act preflop (rule 1)
        self._bb = np.full(n, stakes.big_blind)
        bb = stakes.big_blind
        # Rule 7: a hand's level is the full blind, even if it is all-in for less.
        self._new_hand = np.array([bb, bb, bb, 0, NONE, 0, players, 0, 0, 0])[:, None]
        assert len(self._new_hand) == len(TABLE)
        columns = np.arange(players)[:, None]
        self._seat_of = (columns + 1 + np.arange(players)) % players  # [player, button]: seat
        self._after_forced_bets: tuple[Ints, Ints] | None = None
        self._try_every_button()
        self.reset()

    def _try_every_button(self) -> None:
        """Deal a hand at every button position, which refuses stacks so short that some hand would
        have no decision, and keep the state after the forced bets by button when every table starts
        alike (each new hand then copies it). Play itself starts from the seed afterwards."""
        n, players = self.n, self.players
        self.reset()
        same = bool((self._seat_stacks == self._seat_stacks[0]).all())
        dealt = {int(self.button[0]): self._state_after_deal()}
        for _ in range(players - 1):  # every button position: somebody must have a decision
            self._deal(np.arange(n))
            dealt[int(self.button[0])] = self._state_after_deal()
        if same:  # the state blocks after the forced bets, by button
            seats_state, table_state = zip(*(dealt[b] for b in range(players)), strict=True)
            self._after_forced_bets = np.stack(seats_state, axis=2), np.stack(table_state, axis=1)
        del self._rng  # the hands above only tried the stacks: play starts from the seed

    # ------------------------------------------------------------------ public
    def reset(self, seed: int | None = None) -> npt.NDArray[np.float32]:
        """Start over: every button on the last seat, new hands; the observations. The cards go on
        from the random source as it is, or, given a `seed`, start again from it (as Gymnasium's
        ``reset(seed=...)`` means: the same seed deals the same hands)."""
        n, p = self.n, self.players
        if seed is not None or not hasattr(self, "_rng"):
            self._seed = check_seed(seed) if seed is not None else self._seed
            self._rng = default_rng(self._seed)
        self._allocate(self.fractions)
        self.button: Ints = np.full(n, p - 1, dtype=np.int64)
        self.hands_played: Ints = np.zeros(n, dtype=np.int64)
        self.final_stacks: Ints = np.zeros((n, p), dtype=np.int64)
        self._log: list[list[str]] = [[] for _ in range(n)] if self.recording else []
        self._histories: list[dict[str, Any]] = []
        self._obs: npt.NDArray[np.float32] | None = None
        self._deal(np.arange(n), first=True)
        return self.observe()

    @property
    def obs_size(self) -> int:
        return observation_size(self.players)

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
        rows, a = self._chosen(actions, where)
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

    def _record_actions(self, rows: Ints, players: Ints, chosen: Ints, bets: Ints) -> None:
        record.actions(self, rows, players, chosen, bets)

    def _record_board(self, rows: Ints) -> None:
        record.board(self, rows)

    def histories(self, *, clear: bool = False) -> list[dict[str, Any]]:
        """Every finished hand recorded since the tables were made or reset, oldest first, as PHH
        documents (`holdem.formats.phh.dumps`). The record keeps them all; `clear` hands them over and
        forgets them, so that a long run's memory stays bounded."""
        out = list(self._histories)
        if check_flag("clear", clear):
            self._histories = []
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
        if self._after_forced_bets is None:
            self._acted[:, rows] = NONE
            self._table[:, rows] = self._new_hand
            self._post(rows)
        else:
            seats, table = self._after_forced_bets
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
