"""Every seat-order rule in one place: who posts, who acts first, where the button goes (rules 1-3).

Pure functions of seat numbers and stakes; `Hand` and `Table` call them. Seats run clockwise
0..size-1; in a hand, players are numbered in dealing order from the first seat left of the
button, so the button is the last player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from holdem.errors import InvalidConfigError
from holdem.hand.stakes import Stakes

__all__ = [
    "big_blind_player",
    "dealing_order",
    "default_blinds",
    "first_to_act_preflop",
    "next_seat",
    "place_blinds",
    "position_names",
    "previous_seat",
]


def position_names(players: int) -> tuple[str, ...]:
    """Position names in dealing order: SB, BB, UTG, …, LJ, HJ, CO, BTN (heads-up: BB, BTN).

    Named by seat order from the button, as players use them; with a dead button or a missing
    small blind the names still follow the dealing order.
    """
    if players == 2:
        return ("BB", "BTN")
    middle = players - 3  # the seats between the big blind and the button
    late = ("LJ", "HJ", "CO")[3 - min(3, max(middle - 1, 0)) :]  # up to three, never the first
    early = ["UTG", *(f"UTG+{k}" for k in range(1, middle - len(late)))] if middle else []
    return ("SB", "BB", *early, *late, "BTN")


def default_blinds(players: int, stakes: Stakes) -> list[int]:
    """Blinds by position in dealing order; heads-up the button (player 1) posts the small blind (rule 1)."""
    if players == 2:
        if stakes.straddles:
            raise InvalidConfigError("straddles need at least three players")
        return [stakes.big_blind, stakes.small_blind]
    posted = [stakes.small_blind, stakes.big_blind, *stakes.straddles]
    if len(posted) > players:
        raise InvalidConfigError(f"{len(stakes.straddles)} straddles need more than {players} players")
    return posted + [0] * (players - len(posted))


def big_blind_player(blinds: Sequence[int], stakes: Stakes) -> int:
    """The player in the big blind's position (who also posts a big-blind ante, rule 5), for
    blinds given without it: the position after the small blind (player 1; heads-up player 0) when
    it posts the big blind, whatever the other blinds and straddles; else, as when a dead small
    blind leaves the big blind first, the first player posting the big blind; else the largest blind."""
    position = 0 if len(blinds) == 2 else 1
    if blinds[position] == stakes.big_blind:
        return position
    if stakes.big_blind in blinds:
        return list(blinds).index(stakes.big_blind)
    return max(range(len(blinds)), key=lambda i: blinds[i])


def first_to_act_preflop(blinds: Sequence[int]) -> int:
    """The player left of the largest blind or straddle (heads-up: the button, rule 1)."""
    top = max(blinds)
    last = max(i for i, b in enumerate(blinds) if b == top)
    return (last + 1) % len(blinds)


def next_seat(seat: int, among: Sequence[int], size: int) -> int:
    """The first seat of `among` clockwise after `seat` at a table of `size` seats."""
    return min(among, key=lambda s: (s - seat - 1) % size)


def previous_seat(seat: int, among: Sequence[int], size: int) -> int:
    """The first seat of `among` counter-clockwise before `seat` at a table of `size` seats."""
    return min(among, key=lambda s: (seat - s - 1) % size)


def dealing_order(seats: Sequence[int], button: int, size: int) -> list[int]:
    """`seats` in dealing order: from the first seat left of the button, the button last."""
    return sorted(seats, key=lambda s: (s - button - 1) % size)


def place_blinds(
    ready: Sequence[int],
    size: int,
    *,
    rule: Literal["dead", "moving"],
    last_button: int | None,
    last_small: int | None,
    last_big: int | None,
) -> tuple[int, int, int]:
    """(button, small-blind position, big blind) seats for the next hand.

    `ready` are the seats of players who are in. The small blind is posted only if a player
    who is in sits at its position; with the dead button the button may be an empty seat.
    """
    if last_big is None:  # the first hand
        button = last_button if last_button is not None and last_button in ready else ready[0]
        if len(ready) == 2:
            return button, button, next_seat(button, ready, size)
        small = next_seat(button, ready, size)
        return button, small, next_seat(small, ready, size)
    big = next_seat(last_big, ready, size)
    if len(ready) == 2:
        # Rule 1: heads-up the button posts the small blind, and the big blind goes to the
        # player who did not post it last hand.
        other = next(s for s in ready if s != big)
        return other, other, big
    if rule == "dead":
        # Rule 2: the small blind is at the last big blind's seat and the button at the last
        # small blind's, even when those seats are now empty (dead small blind, dead button).
        # When that would put the button at or past the big blind (after a heads-up hand, or
        # with newcomers beyond the old small blind), the button is dead right behind the small blind.
        assert last_small is not None
        button = last_small
        if not 0 < (button - big) % size < (last_big - big) % size:
            button = (last_big - 1) % size
        return button, last_big, big
    # Moving button (cash): the big blind still advances one player, and the small blind and the
    # button are the two players before it, so nobody posts the big blind twice or skips it.
    small = previous_seat(big, ready, size)
    return previous_seat(small, ready, size), small, big
