"""What the learned policy looks at: a few numbers per decision, computed from observations.

The policy is linear in these features, so they carry what a linear rule cannot find alone in
one-hot cards: the starting hand's all-in equity (``holdem/cards/preflop.txt``), the made hand's
category and strength after the flop, the street, position, the price of a call and the pot's
size. Computed for many observations at once (rows of `holdem.env.encoding` vectors); a table of
any size, as the encoding says where each field is.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from holdem.bots.observation import BOARD, FIXED, HOLE, POSITION, STREET, seats_at
from holdem.bots.reads import PRIORS, SEEN
from holdem.cards.batch import strengths_of, tables

__all__ = ["FEATURES", "READS", "features"]

FEATURES = (
    "bias", "preflop equity", "made strength", "pair", "two pair", "trips", "straight or better",
    "preflop", "flop", "turn", "river", "button", "pot odds", "facing a bet", "pot size",
    "stack to pot", "preflop equity facing a bet", "made strength facing a bet", "depth",
    "preflop equity x depth", "raises this street", "preflop equity x raises", "price of the stack",
    "made strength x raises",
    "their vpip", "their pfr", "their 3-bet", "their fold to a raise preflop", "their fold to a bet",
    "their aggression", "their raise to a bet", "preflop equity facing a bet x their pfr",
    "facing a bet preflop x their pfr", "preflop x their fold to a raise",
    "made strength x their fold to a bet", "made strength facing a bet x their aggression",
    "facing a bet after the flop x their aggression",
    "after the flop x their fold to a bet",
)  # fmt: skip
"""The names of the feature columns, in order: the hand's, then the opponent's (`READS` onward)."""

READS = FEATURES.index("their vpip")
"""Where the opponent's features begin: their `holdem.bots.reads.SEEN` rates, less the priors, and
those rates times the hand's features where they change the right play."""

Floats32 = npt.NDArray[np.float32]  # observations and features are float32; the policy works in float64
_RANKS = "23456789TJQKA"


@cache
def _preflop_equity() -> Floats32:
    """A 52 x 52 table: the all-in equity against a random hand of each pair of hole cards."""
    equity: dict[str, float] = {}
    for line in resources.files("holdem.cards").joinpath("preflop.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, value = line.split()
            equity[name] = float(value)
    table = np.zeros((52, 52), dtype=np.float32)
    for a in range(52):
        for b in range(52):
            high, low = max(a // 4, b // 4), min(a // 4, b // 4)
            kind = "" if high == low else "s" if a % 4 == b % 4 else "o"
            table[a, b] = equity[_RANKS[high] + _RANKS[low] + kind]
    return table


def features(obs: Floats32, reads: npt.ArrayLike | None = None) -> Floats32:
    """``(N, len(FEATURES))`` features of ``(N, obs_size)`` observations of the player to act, and of
    ``(N, len(SEEN))`` `reads` of their opponent (`holdem.bots.reads.blended` rates; the priors, a
    stranger's, when not given)."""
    obs = np.atleast_2d(obs)
    rows, width = obs.shape
    players = (width - FIXED) // 5
    out = np.zeros((rows, len(FEATURES)), dtype=np.float32)
    out[:, 0] = 1.0
    hole_rows, hole_cards = np.nonzero(obs[:, HOLE:BOARD])
    holes = np.zeros((rows, 2), dtype=np.int64)
    if len(hole_rows) == 2 * rows:  # every row shows two hole cards (rows without are all-zero)
        holes = hole_cards.reshape(rows, 2)
        out[:, 1] = (_preflop_equity()[holes[:, 0], holes[:, 1]] - 0.5) * 4
    board_count = obs[:, BOARD:STREET].sum(axis=1).astype(np.int64)
    for count in (3, 4, 5):
        at = np.nonzero(board_count == count)[0]
        if len(at) and len(hole_rows) == 2 * rows:
            board = np.nonzero(obs[at, BOARD:STREET])[1].reshape(len(at), count)
            strength = strengths_of(np.concatenate([holes[at], board], axis=1))
            category = np.searchsorted(tables().category_starts, strength, side="right") - 1
            out[at, 2] = (strength - 1) / 7461 * 4 - 2
            out[at, 3] = category == 1
            out[at, 4] = category == 2
            out[at, 5] = category == 3
            out[at, 6] = category >= 4
    out[:, 7:11] = obs[:, STREET:POSITION]
    out[:, 11] = obs[:, POSITION + players - 1]
    rest = seats_at(players) + 4 * players  # pot, to call, raise bounds, raises per street
    pot, to_call = obs[:, rest], obs[:, rest + 1]
    out[:, 12] = to_call / np.maximum(pot + to_call, 1e-9)
    out[:, 13] = to_call > 0
    out[:, 14] = np.log1p(pot) / 5
    out[:, 15] = np.minimum(obs[:, seats_at(players)] / np.maximum(pot, 1.0), 10.0) / 10
    out[:, 16] = out[:, 1] * out[:, 13]
    out[:, 17] = out[:, 2] * out[:, 13]
    seats = seats_at(players)
    own = obs[:, seats] + obs[:, seats + 1]
    others = (obs[:, seats + 4 : seats + 4 * players : 4] + obs[:, seats + 5 : seats + 4 * players : 4]).max(
        axis=1
    )
    out[:, 18] = np.log1p(np.minimum(own, others)) / np.log1p(200.0) * 2 - 1  # -1 none, 1 at 200 bb
    out[:, 19] = out[:, 1] * out[:, 18]
    street_raises = (obs[:, STREET:POSITION] * obs[:, rest + 4 : rest + 8]).sum(axis=1)
    out[:, 20] = np.minimum(street_raises, 3.0) / 3
    out[:, 21] = out[:, 1] * out[:, 20]
    out[:, 22] = np.minimum(to_call / np.maximum(obs[:, seats] + to_call, 1e-9), 1.0)
    out[:, 23] = out[:, 2] * out[:, 20]
    _opponent(out, reads)
    return out


def _opponent(out: Floats32, reads: npt.ArrayLike | None) -> None:
    """The opponent's columns of `out`, from their rates (`SEEN`) less a stranger's."""
    if reads is None:
        return  # a stranger: every column 0
    rates = np.asarray(reads, dtype=np.float32)
    if rates.shape not in ((len(SEEN),), (len(out), len(SEEN))):
        raise ValueError(
            f"reads are ({len(out)}, {len(SEEN)}) rates (holdem.bots.reads.SEEN), got shape {rates.shape}"
        )
    prior = np.array([PRIORS[name][0] for name in SEEN], dtype=np.float32)
    them = (np.broadcast_to(rates, (len(out), len(SEEN))) - prior) * 4
    columns = dict(zip(SEEN, them.T, strict=True))
    pfr, fold_pre, fold_post, aggression = (
        columns[k] for k in ("pfr", "fold_pre", "fold_post", "aggression")
    )
    out[:, READS : READS + len(SEEN)] = them
    preflop, facing, after = out[:, 7], out[:, 13], 1 - out[:, 7]
    k = READS + len(SEEN)
    out[:, k] = out[:, 16] * pfr
    out[:, k + 1] = facing * preflop * pfr
    out[:, k + 2] = preflop * fold_pre
    out[:, k + 3] = out[:, 2] * fold_post
    out[:, k + 4] = out[:, 17] * aggression
    out[:, k + 5] = facing * after * aggression
    out[:, k + 6] = after * fold_post
