"""Where each field of a learning agent's observation lies: the one definition that
`holdem.env.encoding` (one `SeatView`), `holdem.vector.observe` (many tables at once) and
`holdem.learn.features` (features read back from observations) use. The fields and their meaning
are documented in `holdem.env.encoding`; for N players the vector has ``FIXED + 5 N`` float32
fields."""

from __future__ import annotations

__all__ = ["BOARD", "FIXED", "HOLE", "POSITION", "STREET", "observation_size", "seats_at"]

HOLE = 0
"""Own hole cards, 52 one-hot fields by `Card.index`."""
BOARD = 52
"""The board cards, 52 one-hot fields."""
STREET = 104
"""Preflop, flop, turn, river: 4 one-hot fields."""
POSITION = 108
"""Own place in dealing order: N one-hot fields."""
FIXED = 116
"""The fields whatever the players: hole, board, street, then pot, to call, the two raise bounds
and the 4 raise counts after the seats."""


def seats_at(players: int) -> int:
    """Where the seats' fields begin (4 a seat: stack, bet, folded, all-in), then the 8 fixed
    fields that end the vector."""
    return POSITION + players


def observation_size(players: int) -> int:
    """The length of the observation vector at a table of `players`."""
    return FIXED + 5 * players
