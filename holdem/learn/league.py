"""Opponents to learn against, many tables at once: the panel's styles, the ``random`` bot, and
past versions of the policy (a league).

A style here plays by `holdem.bots.styles.STYLES` on observations alone: before the flop the same
shares of starting hands open, limp, call and re-raise; after it, by its equity against a random
hand sampled as the panel bot samples it (32 deals where the panel's bot takes 200), so the vector
opponents are the panel's styles, not their exact decisions. (Until 0.2 a made hand's category
stood in for that equity: a flush draw counted as nothing, and a policy trained against those
opponents learned to shove rivers into them and lost to the panel itself.)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from holdem.bots.equity import ordered_combos, starting_hand_percentiles
from holdem.bots.observation import BOARD, FIXED, HOLE, POSITION, STREET, seats_at
from holdem.bots.reads import SEEN, blended
from holdem.bots.styles import STYLES, Style
from holdem.cards.batch import strengths_of
from holdem.env.reads import TableReads
from holdem.env.vector import Opponent
from holdem.learn.features import features
from holdem.learn.policy import LinearPolicy

__all__ = ["EquityStandIn", "League", "policy_opponent", "random_bot", "sampled_equity", "style_opponent"]

Obs = npt.NDArray[np.float32]
Floats = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


@cache
def _percentiles() -> npt.NDArray[np.float64]:
    return np.array(starting_hand_percentiles(), dtype=np.float64)


def _holes(obs: Obs) -> npt.NDArray[np.int64]:
    rows, cards = np.nonzero(obs[:, HOLE:BOARD])
    holes = np.zeros((len(obs), 2), dtype=np.int64)
    holes[rows[0::2], 0], holes[rows[1::2], 1] = cards[0::2], cards[1::2]
    return holes


SAMPLES = 32
"""Deals behind each vector style's equity after the flop (the panel bots sample 200)."""


def sampled_equity(
    obs: Obs, rng: np.random.Generator, samples: int = SAMPLES, shares: npt.NDArray[np.float64] | None = None,
) -> npt.NDArray[np.float64]:  # fmt: skip
    """Equity against one hand, as the panel's bots sample it (ties half): `samples` deals per row
    of the opponent's hand and the rest of the board from the cards not seen. The opponent holds a
    random hand, or (`shares`, per row) one of the strongest `shares` of starting hands, and then
    every row is sampled, before the flop too; without `shares` rows before the flop are 0."""
    out = np.zeros(len(obs))
    count = obs[:, BOARD:STREET].sum(axis=1).astype(np.int64)
    holes = _holes(obs)
    for n in (0, 3, 4, 5) if shares is not None else (3, 4, 5):
        at = np.nonzero(count == n)[0]
        if len(at):
            board = np.nonzero(obs[at, BOARD:STREET])[1].reshape(len(at), n)
            share = None if shares is None else np.repeat(shares[at], samples)
            won, valid = _deals(holes[at], board, rng, samples, share)
            dealt = valid.reshape(len(at), samples).sum(axis=1)
            out[at] = np.where(
                dealt > 0, won.reshape(len(at), samples).sum(axis=1) / np.maximum(dealt, 1), 0.5
            )
    return out


def _deals(
    holes: npt.NDArray[np.int64], board: npt.NDArray[np.int64], rng: np.random.Generator, samples: int,
    share: npt.NDArray[np.float64] | None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:  # fmt: skip
    """Pot shares won in `samples` deals per row, and which deals count (an opponent's hand drawn
    from a range that clashes with the known cards does not)."""
    known = np.repeat(np.concatenate([holes, board], axis=1), samples, axis=0)
    order = rng.random((len(known), 52))  # an order of the cards per deal: the unseen first
    np.put_along_axis(order, known, 9.0, axis=1)
    valid = np.ones(len(known), dtype=bool)
    if share is None:
        theirs = np.argpartition(order, 2, axis=1)[:, :2]
    else:
        ordered, percentiles, _ = ordered_combos()
        top = np.maximum(np.searchsorted(percentiles, share, side="right"), 1)
        theirs = ordered[(rng.random(len(known)) * top).astype(np.int64)]
        valid = ~(theirs[:, :1] == known).any(axis=1) & ~(theirs[:, 1:] == known).any(axis=1)
    np.put_along_axis(order, theirs, 9.0, axis=1)
    need = 5 - board.shape[1]
    rest = np.concatenate(
        [np.repeat(board, samples, axis=0), np.argpartition(order, need, axis=1)[:, :need]], axis=1
    )
    mine = strengths_of(np.concatenate([known[:, :2], rest], axis=1))
    other = strengths_of(np.concatenate([theirs, rest], axis=1))
    return ((mine > other) + 0.5 * (mine == other)) * valid, valid


def style_opponent(style: str | Style, rng: np.random.Generator) -> Opponent:
    """A panel style (a name in `STYLES`, or a `Style`) as a vector opponent."""
    s = STYLES[style] if isinstance(style, str) else style

    def act(obs: Obs, mask: Mask) -> npt.ArrayLike:
        n, actions = len(obs), mask.shape[1]
        players = (obs.shape[1] - FIXED) // 5
        rest = seats_at(players) + 4 * players
        pot, to_call, stack = obs[:, rest], obs[:, rest + 1], obs[:, seats_at(players)]
        preflop = obs[:, STREET] > 0
        holes = _holes(obs)
        rank = _percentiles()[holes[:, 0] * 52 + holes[:, 1]]
        raises = obs[:, rest + 4] + (to_call * 3 >= stack + obs[:, seats_at(players) + 1]) * (to_call > 0)
        wide = np.minimum(1.0, 3 * s.open)  # heads-up: one player behind, or none
        reraise = np.where(raises >= 2, s.threebet / 3, s.threebet)
        calls = np.where(raises >= 2, s.threebet, np.maximum(s.call, s.threebet))
        pre_raise = np.where(raises == 0, rank <= wide, rank <= reraise)
        pre_call = np.where(raises == 0, rank <= min(1.0, wide + s.limp), rank <= calls)
        equity = sampled_equity(obs, rng)
        price = to_call / np.maximum(pot + to_call, 1e-9)
        bluff = rng.random(n) < np.where(obs[:, STREET + 1] > 0, (s.bluff + s.cbet) / 2, s.bluff)
        post_raise = np.where(to_call > 0, equity >= s.value + 0.15, (equity >= s.value) | bluff)
        post_call = equity >= price + s.margin
        want_raise = np.where(preflop, pre_raise, post_raise)
        want_call = np.where(preflop, pre_call, post_call) | (to_call == 0)
        size = 3 if s.size > 0.6 else 2  # the pot fraction nearest the style's bet (1.0 or 0.5)
        size = min(size, actions - 2)
        raise_at = np.where(mask[:, size], size, np.where(mask[:, actions - 1], actions - 1, 1))
        chosen = np.where(want_raise, raise_at, np.where(want_call, 1, 0))
        chosen = np.where(mask[np.arange(n), chosen], chosen, 1)
        return chosen.astype(np.int64)

    return act


class EquityStandIn:
    """The ``equity`` bot's way of playing, heads-up, on observations and what it has read of the
    agent (`holdem.bots.reads.SEEN` rates, the priors when not given), as `holdem.bots.equity` plays:

    - its equity against the range the agent's actions leave: a preflop raiser's strongest share by
      their preflop raises (``pfr``; a re-raise by ``threebet``, halved for each raise more), a
      preflop caller's by ``vpip``, and each bet or raise after the flop keeps 0.1 + 0.6 times
      their ``aggression`` of it (kept within 0.4-0.9); 0.03 more in position after the flop;
    - a bet or raise of about three quarters of the pot from 0.625 equity (its value threshold
      heads-up), or without it where the agent's folds make it pay (its expectation counted as the
      bot counts it: the agent's folds, raises back, and the equity realised when called);
    - a call when the equity beats the price by 0.02.

    A stand-in for its kind of player, as the styles are (`samples` deals behind each equity)."""

    reads_agent = True

    def __init__(self, rng: np.random.Generator, samples: int = SAMPLES) -> None:
        self.rng, self.samples = rng, samples

    def __call__(self, obs: Obs, mask: Mask, agent: npt.ArrayLike | None = None) -> npt.ArrayLike:
        n, actions = len(obs), mask.shape[1]
        rates = np.broadcast_to(np.asarray(agent if agent is not None else blended(0, 0)), (n, len(SEEN)))
        them = dict(zip(SEEN, rates.T, strict=True))
        rest = seats_at(2) + 8
        to_call, pot = obs[:, rest + 1], obs[:, rest]
        street = np.argmax(obs[:, STREET : STREET + 4], axis=1)
        equity = sampled_equity(
            obs, self.rng, self.samples, np.maximum(_agent_share(obs, street, them), 0.005)
        )
        equity += 0.03 * ((street > 0) & (obs[:, POSITION + 1] > 0))  # the button acts last
        size = np.where(self.rng.random(n) < 0.5, 2, 3)  # half a pot or a pot: about 0.75
        raise_at = np.where(mask[np.arange(n), size], size, np.where(mask[:, actions - 1], actions - 1, 1))
        bet = (equity >= 0.625) | _pressure_pays(obs, street, them, equity)
        price = to_call / np.maximum(pot + to_call, 1e-9)
        chosen = np.where(bet, raise_at, np.where((to_call == 0) | (equity >= price + 0.02), 1, 0))
        return np.where(mask[np.arange(n), chosen], chosen, 1).astype(np.int64)


def _agent_share(obs: Obs, street: npt.NDArray[np.int64], them: dict[str, npt.NDArray[np.float64]]) -> Floats:
    """The share of starting hands the agent plausibly holds. Heads-up the raises of a street
    alternate, so facing a bet the agent made the last of them; on earlier streets after the flop,
    whose order the observation does not keep, half of them are counted as the agent's."""
    rest = seats_at(2) + 8
    n = len(obs)
    raises = obs[:, rest + 4 : rest + 8]
    facing = obs[:, rest + 1] > 0
    now = raises[np.arange(n), street]
    theirs_now = np.where(facing, np.ceil(now / 2), np.floor(now / 2))
    preflop = np.where(street == 0, theirs_now, np.ceil(raises[:, 0] / 2))
    called = (street > 0) | facing  # before the flop, a big blind facing a limp or a raise
    share = np.where(
        preflop >= 2, them["threebet"] / 2 ** np.maximum(preflop - 2, 0),
        np.where(preflop == 1, them["pfr"], np.where(called & (raises[:, 0] == 0), them["vpip"], 1.0)),
    )  # fmt: skip
    earlier = (raises[:, 1:] * (np.arange(1, 4) < street[:, None])).sum(axis=1)
    later = np.where(street > 0, theirs_now + np.floor(earlier / 2), 0)
    keep = np.clip(0.1 + 0.6 * them["aggression"], 0.4, 0.9)
    result: Floats = share * keep**later
    return result


def _pressure_pays(
    obs: Obs, street: npt.NDArray[np.int64], them: dict[str, npt.NDArray[np.float64]], equity: Floats
) -> npt.NDArray[np.bool_]:
    """Whether a bet of three quarters of the pot made without value is expected to win more than
    checking or calling, as `EquityBot._pressure_pays` counts it (amounts in big blinds)."""
    rest, seats = seats_at(2) + 8, seats_at(2)
    pot, to_call = obs[:, rest], obs[:, rest + 1]
    mine, stack, theirs = obs[:, seats + 1], obs[:, seats], obs[:, seats + 5]
    after = street > 0
    folds = np.where(after, them["fold_post"] * 0.8, them["fold_pre"])
    raised = np.where(after, them["raise_back"], them["threebet"])
    target = mine + to_call + 0.75 * (pot + to_call)
    cost = target - mine
    called_pot = pot + cost + np.maximum(0, target - theirs)
    realised = np.where(stack - cost > 3 * called_pot, 0.0, 0.8)
    called = np.maximum(0.0, 1 - folds - raised)
    bet = folds * pot + called * (realised * equity * called_pot - cost) - raised * cost
    passive = np.where(to_call == 0, equity * pot, np.maximum(0.0, equity * (pot + to_call) - to_call))
    pays: npt.NDArray[np.bool_] = bet > passive + 0.1
    return pays


def random_bot(rng: np.random.Generator) -> Opponent:
    """The ``random`` bot's choice: fold (only when facing a bet), check or call, or raise, each
    kind alike; a raise to one of the legal raises, alike."""

    def act(obs: Obs, mask: Mask) -> npt.ArrayLike:
        n = len(obs)
        players = (obs.shape[1] - FIXED) // 5
        facing = obs[:, seats_at(players) + 4 * players + 1] > 0
        can_fold, can_raise = mask[:, 0] & facing, mask[:, 2:].any(axis=1)
        kinds = 1 + can_fold.astype(np.int64) + can_raise
        pick = (rng.random(n) * kinds).astype(np.int64)  # 0 .. kinds - 1
        kind = np.where(can_fold, pick, pick + 1)  # 0 fold, 1 check or call, 2 raise
        raise_at = np.argmax(rng.random(mask[:, 2:].shape) * mask[:, 2:], axis=1) + 2
        return np.where(kind == 2, raise_at, np.where(kind == 0, 0, 1)).astype(np.int64)

    return act


def policy_opponent(policy: LinearPolicy, rng: np.random.Generator) -> Opponent:
    """A policy (a past version of the one learning) drawing its actions from its probabilities."""

    def act(obs: Obs, mask: Mask) -> npt.ArrayLike:
        probs = policy.probabilities(features(obs), mask)
        chosen: npt.NDArray[np.int64] = (probs.cumsum(axis=1) < rng.random((len(obs), 1))).sum(axis=1)
        last: npt.NDArray[np.int64] = np.minimum(chosen, probs.shape[1] - 1)
        return last

    return act


class League:
    """The opponents of a training run, a table each in turn: fixed ones (the panel, ``random``),
    and `past` slots that hold earlier versions of the policy, renewed as it learns."""

    def __init__(self, fixed: Sequence[Opponent], past: int, rng: np.random.Generator) -> None:
        self.rng = rng
        self.fixed = list(fixed)
        self.past: list[Opponent] = []
        self.slots = past
        self.opponents = self.fixed + [self.fixed[0]] * past
        self.agent: TableReads | None = None
        """The tables' reads of the agent, given to the opponents that read it (`reads_agent`)."""

    def remember(self, policy: LinearPolicy) -> None:
        """Put this version of the policy in the oldest past slot (all of them at first)."""
        if not self.slots:
            return
        opponent = policy_opponent(policy, self.rng)
        if not self.past:
            self.past = [opponent] * self.slots
        else:
            self.past = [*self.past[1:], opponent]
        self.opponents[len(self.fixed) :] = self.past

    def __call__(self, obs: Obs, mask: Mask) -> npt.ArrayLike:
        chosen = np.empty(len(obs), dtype=np.int64)
        k = len(self.opponents)
        rates = self.agent.rates() if self.agent is not None else None
        for i, opponent in enumerate(self.opponents):
            rows = np.arange(i, len(obs), k)
            if not len(rows):
                continue
            if rates is not None and getattr(opponent, "reads_agent", False):
                chosen[rows] = np.asarray(opponent(obs[rows], mask[rows], rates[rows]))  # type: ignore[call-arg]
            else:
                chosen[rows] = np.asarray(opponent(obs[rows], mask[rows]))
        return chosen
