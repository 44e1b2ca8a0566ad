"""A solved spot: the strategy, expected value and equity of every hand at any node, the range as a
13x13 grid, JSON, and a file that loads again without solving.

A node is reached by a path of actions and cards, space-separated: ``x`` check, ``c`` call, ``f``
fold, ``b75`` a bet of 75 chips, ``r225`` a raise to 225 chips (amounts are the street's totals),
``allin`` the all-in, and a card such as ``Td`` where the dealer turns one: ``"b40 c Td x b92"``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from holdem.cards.card import RANK_CHARS, Card, format_cards, parse_cards
from holdem.errors import InvalidCardError, SolverError
from holdem.solver.build import build_game
from holdem.solver.cfr import Game
from holdem.solver.deals import swap_card
from holdem.solver.spot import Spot
from holdem.solver.tree import STREETS, Kind, Sizes, TreeConfig

__all__ = ["NodeResult", "Solution", "config_from_dict", "config_to_dict", "load"]

F64 = npt.NDArray[np.float64]
_FORMAT = "holdem-solution-1"


@attrs.frozen
class NodeResult:
    """One decision: who acts, the actions, and for each hand in the acting player's range its
    weight here (its range weight times the chance the player's own actions led here), the chance of
    each action, its expected value and its equity.

    `ev` is the hand's expected share of the pot less the chips it puts in from this node on; `equity`
    its share of the pot if the board were run out now against the other's range here.
    """

    path: str
    player: int
    street: str
    board: tuple[Card, ...]
    pot: int
    actions: tuple[str, ...]
    hands: tuple[str, ...]
    weights: F64
    strategy: F64  # (hands, actions)
    ev: F64
    equity: F64

    def frequencies(self) -> dict[str, float]:
        """Each action's share of the range here (weights included)."""
        total = float(self.weights.sum())
        shares = (self.weights[:, None] * self.strategy).sum(axis=0) / (total or 1)
        return {action: float(share) for action, share in zip(self.actions, shares, strict=True)}

    def to_dict(self) -> dict[str, Any]:
        """The node as JSON-ready data: hands with weight zero left out."""
        return {
            "path": self.path,
            "player": ("oop", "ip")[self.player],
            "street": self.street,
            "board": format_cards(self.board),
            "pot": self.pot,
            "actions": list(self.actions),
            "frequencies": self.frequencies(),
            "hands": {
                hand: {
                    "weight": round(float(w), 6),
                    "strategy": [round(float(p), 6) for p in row],
                    "ev": round(float(ev), 4),
                    "equity": None if np.isnan(eq) else round(float(eq), 6),
                }
                for hand, w, row, ev, eq in zip(
                    self.hands, self.weights, self.strategy, self.ev, self.equity, strict=True
                )
                if w > 0
            },
        }


@attrs.frozen
class Solution:
    """The average strategies of a solve, its exploitability (% of the pot) and each player's value."""

    game: Game = attrs.field(repr=False)
    config: TreeConfig
    exploitability: float
    seconds: float
    interrupted: bool
    values: tuple[float, float]

    @classmethod
    def of(
        cls,
        game: Game,
        config: TreeConfig,
        seconds: float,
        interrupted: bool,
        measured: tuple[float, tuple[float, float]] | None = None,
    ) -> Solution:
        """The solution of `game` as it stands; `measured` is its exploitability and values when
        they were just measured (else they are measured here)."""
        if measured is None:
            exploitability, values, _ = game.exploitability()
            measured = (exploitability, values)
        return cls(game, config, measured[0], seconds, interrupted, measured[1])

    @property
    def spot(self) -> Spot:
        return self.game.spot

    @property
    def iterations(self) -> int:
        return self.game.iterations

    def node(self, path: str = "") -> NodeResult:
        """The decision reached by `path` (the root by default)."""
        spot = _walk(self.game, path)
        node = self.game.nodes[spot.index]
        player, deal, mine = node.player, spot.deal, spot.renamed[node.player]
        (reach, values) = self.game.at_node(spot.index)
        hands = self.spot.ranges[player].cards
        weights = reach[player][deal].astype(np.float64)
        live_against = self.game.folds[player].live(reach[1 - player][deal : deal + 1])[0]
        with np.errstate(invalid="ignore", divide="ignore"):
            ev = values[player][deal] / live_against + node.put_in[player]
        equity = self.game.equity(player, node.level, reach[1 - player])[deal]
        strategy = self.game.average(spot.index)[:, deal, :].T.astype(np.float64)
        return NodeResult(
            path=" ".join(path.split()),
            player=player,
            street=STREETS[node.street],
            board=(*self.spot.board, *(Card.from_index(c) for c in spot.dealt)),
            pot=self.spot.pot + sum(node.put_in),
            actions=node.actions,
            hands=tuple(format_cards((Card.from_index(int(a)), Card.from_index(int(b)))) for a, b in hands),
            weights=weights[mine],
            strategy=strategy[mine],
            ev=np.where(weights > 0, ev, np.nan).astype(np.float64)[mine],
            equity=equity.astype(np.float64)[mine],
        )

    def reach(self, path: str = "") -> tuple[F64, F64]:
        """Both players' ranges at the decision `path` leads to: each hand's range weight times the
        chance that player's own actions led there (the other's range, for each player)."""
        spot = _walk(self.game, path)
        (reach, _) = self.game.at_node(spot.index)
        first, second = (reach[p][spot.deal].astype(np.float64)[spot.renamed[p]] for p in (0, 1))
        return first, second

    def to_dict(self, path: str = "") -> dict[str, Any]:
        """The solve and one node as JSON-ready data."""
        return {
            "spot": _spot_dict(self.spot),
            "tree": config_to_dict(self.config),
            "iterations": self.iterations,
            "exploitability": self.exploitability,
            "seconds": round(self.seconds, 3),
            "interrupted": self.interrupted,
            "values": {"oop": self.values[0], "ip": self.values[1]},
            "node": self.node(path).to_dict(),
        }

    def save(self, path: str | Path) -> None:
        """Write the solution to `path` (NumPy's .npz): `load` reads it back without solving."""
        meta = {
            "format": _FORMAT,
            "spot": _spot_dict(self.spot),
            "tree": config_to_dict(self.config),
            "iterations": self.iterations,
            "exploitability": self.exploitability,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
        }
        arrays = {f"sums{i}": sums for i, sums in self.game.sums.items()}
        with open(path, "wb") as out:
            np.savez_compressed(out, meta=np.array(json.dumps(meta)), **arrays)  # type: ignore[arg-type]


def load(path: str | Path, *, max_memory: int | None = None) -> Solution:
    """A solution written by `Solution.save`."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != _FORMAT:
                raise SolverError(f"{str(path)!r} is not a saved holdem solution")
            spot = Spot.parse(**meta["spot"])
            config = config_from_dict(meta["tree"])
            game = build_game(spot, config, max_memory=max_memory)
            for i in game.sums:
                game.sums[i][...] = data[f"sums{i}"]
    except (OSError, ValueError, KeyError) as error:
        if isinstance(error, SolverError):
            raise
        raise SolverError(f"cannot read the solution {str(path)!r}: {error}") from None
    game.iterations = int(meta["iterations"])
    return Solution.of(game, config, float(meta["seconds"]), bool(meta["interrupted"]))


@attrs.frozen
class _Place:
    """Where a path leads: the node, the deal standing for its cards (suits maybe renamed), each
    player's hands renamed into that deal's names, and the cards truly dealt."""

    index: int
    deal: int
    renamed: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
    dealt: tuple[int, ...]


def _walk(game: Game, path: str) -> _Place:
    """The node and deal a path leads to."""
    index, deal = 0, 0
    renamed = tuple(np.arange(len(r)) for r in game.spot.ranges)
    swaps: list[tuple[int, int]] = []
    real = [card.index for card in game.spot.board]
    for token in path.split():
        node = game.nodes[index]
        if node.kind == Kind.CHANCE:
            card = _card(token, path)
            if card in real:
                raise SolverError(f"{token!r} in {path!r} is already on the board")
            real.append(card)
            named = card
            for swap in swaps:
                named = swap_card(named, swap)
            deal, mirror = game.deals.child(node.level, deal, named)
            if mirror is not None:
                swaps.append(mirror)
                renamed = tuple(game.deals.renamed[mirror][p][renamed[p]] for p in (0, 1))
            index = node.children[0]
            continue
        if node.kind != Kind.ACTION:
            raise SolverError(f"the path {path!r} goes on after the hand ended at {token!r}")
        wanted = _action(token, node.actions)
        if wanted not in node.actions:
            choices = ", ".join(node.actions)
            raise SolverError(f"{token!r} is not an action at that point of {path!r}: choose from {choices}")
        index = node.children[node.actions.index(wanted)]
    node = game.nodes[index]
    if node.kind == Kind.CHANCE:
        raise SolverError(f"the path {path!r} ends where a card is dealt: add the card, e.g. {path} 2c")
    if node.kind != Kind.ACTION:
        raise SolverError(f"the path {path!r} ends the hand: a node is a decision")
    return _Place(index, deal, (renamed[0], renamed[1]), tuple(real[len(game.spot.board) :]))


def _card(token: str, path: str) -> int:
    try:
        (card,) = parse_cards(token)
    except (InvalidCardError, ValueError):
        raise SolverError(
            f"a card is dealt here: expected a card such as Td in {path!r}, got {token!r}"
        ) from None
    return card.index


def _action(token: str, actions: tuple[str, ...]) -> str:
    lowered = token.lower()
    if lowered in ("allin", "all-in"):
        sized = [a for a in actions if a[0] in "br"]
        return max(sized, key=lambda a: int(a[1:])) if sized else lowered
    return lowered


def _spot_dict(spot: Spot) -> dict[str, Any]:
    return {
        "board": format_cards(spot.board),
        "pot": spot.pot,
        "stack": spot.stack,
        "oop": spot.range_texts[0],
        "ip": spot.range_texts[1],
        "rake": spot.rake,
        "rake_cap": spot.rake_cap,
    }


def config_to_dict(config: TreeConfig) -> dict[str, Any]:
    """The tree's settings as JSON-ready data."""

    def sizes(s: Sizes) -> dict[str, Any]:
        return {"bets": list(s.bets), "raises": [list(r) for r in s.raises],
                "donks": None if s.donks is None else list(s.donks), "allin": s.allin}  # fmt: skip

    return {
        "streets": [{"oop": sizes(a), "ip": sizes(b)} for a, b in config.sizes],
        "raise_cap": config.raise_cap,
        "allin_threshold": config.allin_threshold,
    }


def config_from_dict(data: dict[str, Any]) -> TreeConfig:
    """The settings written by `config_to_dict`."""

    def sizes(d: dict[str, Any]) -> Sizes:
        donks = d.get("donks")
        return Sizes(tuple(d["bets"]), tuple((str(f), float(v)) for f, v in d["raises"]),
                     None if donks is None else tuple(donks), bool(d["allin"]))  # fmt: skip

    streets = tuple((sizes(s["oop"]), sizes(s["ip"])) for s in data["streets"])
    return TreeConfig(streets, int(data["raise_cap"]), float(data["allin_threshold"]))


RANKS_DOWN = RANK_CHARS[::-1]
"""Ranks from the ace down: the grid's rows and columns."""


def grid(result: NodeResult) -> dict[str, F64]:
    """For each action, a 13x13 array of its frequency in each hand class (NaN where the range has
    no weight): pairs on the diagonal, suited above it, offsuit below, aces first."""
    out = {a: np.zeros((13, 13)) for a in result.actions}
    weight = np.zeros((13, 13))
    for hand, w, row in zip(result.hands, result.weights, result.strategy, strict=True):
        high, low = RANKS_DOWN.index(hand[0]), RANKS_DOWN.index(hand[2])
        if high > low:
            high, low = low, high
        cell = (high, low) if hand[1] == hand[3] else (low, high)
        weight[cell] += w
        for action, p in zip(result.actions, row, strict=True):
            out[action][cell] += w * p
    with np.errstate(invalid="ignore", divide="ignore"):
        return {a: np.where(weight > 0, v / weight, np.nan) for a, v in out.items()}
