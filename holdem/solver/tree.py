"""The betting tree of a spot: which sizes each player may bet or raise, street by street.

Sizes are read as players write them: a bet of ``75`` is 75% of the pot; a raise of ``45`` is
the call plus 45% of the pot after the call (TexasSolver's and PioSolver's form); a raise of
``2.5x`` is a raise to 2.5 times the bet faced; ``allin`` adds the all-in. Amounts are rounded to
whole chips, a size at or above the stack becomes the all-in, and two sizes that round to the same
amount are one action. A raise is never below the minimum raise (the last bet or raise's size).

The tree is a flat list of `Node`s, parents before children. A chance node stands for every card
the dealer may turn: the subtree below it is one shape, solved for every card at once.
"""

from __future__ import annotations

import math
from enum import IntEnum, unique

import attrs

from holdem.errors import SolverError

__all__ = ["STREETS", "Kind", "Node", "Sizes", "Tree", "TreeConfig", "build_tree", "parse_sizes"]

STREETS = ("flop", "turn", "river")
"""The postflop streets in order."""


@unique
class Kind(IntEnum):
    """What happens at a node."""

    ACTION = 0
    """A player chooses among the node's actions."""
    CHANCE = 1
    """The dealer turns the next card."""
    FOLD = 2
    """A player folded: the other takes the pot."""
    SHOWDOWN = 3
    """The river is complete (or both players are all-in and the board is run out)."""


@attrs.frozen
class Sizes:
    """One player's sizes on one street: bets as pot fractions, raises as (form, number)."""

    bets: tuple[float, ...] = ()
    raises: tuple[tuple[str, float], ...] = ()
    donks: tuple[float, ...] | None = None
    allin: bool = False

    @classmethod
    def parse(cls, bets: str, raises: str, donks: str | None = None) -> Sizes:
        """Sizes as players write them: ``parse("33,75,allin", "2.5x,45", donks="50")``; no donks
        (None, "" or "none") means the player checks where a donk bet would be."""
        bet_sizes, allin = parse_sizes(bets)
        raise_sizes, raise_allin = parse_sizes(raises, raises=True)
        donk_sizes = None if donks in (None, "", "none") else tuple(v for _, v in parse_sizes(str(donks))[0])
        return cls(tuple(v for _, v in bet_sizes), raise_sizes, donk_sizes, allin or raise_allin)


def parse_sizes(text: str, *, raises: bool = False) -> tuple[tuple[tuple[str, float], ...], bool]:
    """Sizes from ``"33,75,allin"`` (pot percentages) or, for raises, ``"2.5x,45"``: the sizes, and
    whether ``allin`` was among them."""
    sizes: list[tuple[str, float]] = []
    allin = False
    for raw in text.split(","):
        item = raw.strip().lower()
        if not item:
            continue
        if item in ("allin", "all-in", "a"):
            allin = True
            continue
        form, number = ("x", item[:-1]) if raises and item.endswith("x") else ("pot", item.rstrip("%"))
        try:
            value = float(number)
        except ValueError:
            hint = (
                "a pot percentage (75), a multiple of the bet (2.5x) or allin"
                if raises
                else "a pot percentage (75) or allin"
            )
            raise SolverError(f"bad size {raw.strip()!r}: write {hint}") from None
        if not math.isfinite(value) or value <= 0 or (form == "x" and value <= 1):
            raise SolverError(f"bad size {raw.strip()!r}: a size must be above 0 (a multiple above 1)")
        sizes.append((form, value / 100 if form == "pot" else value))
    return tuple(sizes), allin


@attrs.frozen
class TreeConfig:
    """The tree's sizes for each street (flop, turn, river) and player (out of position, in position).

    `raise_cap` is the raises allowed after the street's bet; `allin_threshold` turns a bet or raise
    into the all-in when it would leave behind less than that share of the pot once called (0: never).
    Donk bets (out of position leading into the player who closed the last street by betting) are
    made only with `Sizes.donks`; without them that player checks.
    """

    sizes: tuple[tuple[Sizes, Sizes], ...]
    raise_cap: int = 3
    allin_threshold: float = 0.0

    @classmethod
    def uniform(
        cls,
        *,
        bets: str = "50,100,allin",
        raises: str = "2.5x",
        donks: str | None = None,
        raise_cap: int = 3,
        allin_threshold: float = 0.0,
    ) -> TreeConfig:
        """The same sizes for both players on every street."""
        one = Sizes.parse(bets, raises, donks)
        return cls(((one, one),) * 3, raise_cap, allin_threshold)

    def of(self, street: int, player: int) -> Sizes:
        """The sizes of `player` on `street` (0 flop, 1 turn, 2 river)."""
        return self.sizes[street][player]


@attrs.frozen
class Node:
    """One node: its kind, who acts (ACTION) or folded (FOLD), the street, the chips each player has
    put in since the spot began, and its children with the action that leads to each."""

    kind: Kind
    street: int
    level: int
    put_in: tuple[int, int]
    player: int = -1
    parent: int = -1
    children: tuple[int, ...] = ()
    actions: tuple[str, ...] = ()
    base: int = 0  # what each player had put in when the street began (amounts are named from it)


@attrs.frozen
class Tree:
    """The nodes, root first, every parent before its children."""

    nodes: tuple[Node, ...]

    def count(self, kind: Kind) -> int:
        """How many nodes are of `kind`."""
        return sum(node.kind == kind for node in self.nodes)


@attrs.define
class _Builder:
    """Builds the tree depth first (the state of one street's betting travels in arguments)."""

    config: TreeConfig
    pot: int
    stack: int
    nodes: list[Node] = attrs.Factory(list)

    def add(self, node: Node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def link(self, index: int, children: list[int], actions: list[str]) -> None:
        self.nodes[index] = attrs.evolve(self.nodes[index], children=tuple(children), actions=tuple(actions))

    def street(self, street: int, level: int, put_in: tuple[int, int], parent: int, donk: bool) -> int:
        """A street's first decision (out of position first)."""
        return self.decide(
            street, level, put_in, parent, player=0, facing=None, raises=0, donk=donk, base=put_in[0]
        )

    def decide(
        self,
        street: int,
        level: int,
        put_in: tuple[int, int],
        parent: int,
        *,
        player: int,
        facing: tuple[int, int] | None,
        raises: int,
        base: int,
        donk: bool = False,
    ) -> int:
        """A decision of `player`; `facing` is (the bet's level, its raise size) when there is one."""
        index = self.add(Node(Kind.ACTION, street, level, put_in, player, parent, base=base))
        children: list[int] = []
        actions: list[str] = []
        other = 1 - player
        if facing is None:
            children.append(self.after_check(street, level, put_in, index, player, base))
            actions.append("x")
            for amount in self.bets(street, player, put_in, donk):
                chips = _with(put_in, player, amount)
                children.append(
                    self.decide(street, level, chips, index, player=other,
                                facing=(amount, amount - base), raises=0, base=base)
                )  # fmt: skip
                actions.append(f"b{amount - base}")
            self.link(index, children, actions)
            return index
        children.append(self.add(Node(Kind.FOLD, street, level, put_in, player, index)))
        actions.append("f")
        children.append(self.after_call(street, level, _with(put_in, player, put_in[other]), index))
        actions.append("c")
        if raises < self.config.raise_cap and put_in[other] < self.stack:
            for amount in self.raise_amounts(street, player, put_in, facing, base):
                chips = _with(put_in, player, amount)
                children.append(
                    self.decide(street, level, chips, index, player=other,
                                facing=(amount, amount - put_in[other]), raises=raises + 1, base=base)
                )  # fmt: skip
                actions.append(f"r{amount - base}")
        self.link(index, children, actions)
        return index

    def after_check(
        self, street: int, level: int, put_in: tuple[int, int], parent: int, player: int, base: int
    ) -> int:
        if player == 0:
            return self.decide(street, level, put_in, parent, player=1, facing=None, raises=0, base=base)
        return self.next_street(street, level, put_in, parent, donk=False)

    def after_call(self, street: int, level: int, put_in: tuple[int, int], parent: int) -> int:
        # Out of position calls an in-position bet: in-position closed the street as its aggressor.
        caller = self.nodes[parent].player
        return self.next_street(street, level, put_in, parent, donk=caller == 0)

    def next_street(
        self, street: int, level: int, put_in: tuple[int, int], parent: int, *, donk: bool
    ) -> int:
        """The next street's first decision, or the showdown (a chain of cards when all-in)."""
        if street == len(STREETS) - 1:
            return self.add(Node(Kind.SHOWDOWN, street, level, put_in, parent=parent))
        index = self.add(Node(Kind.CHANCE, street, level, put_in, parent=parent))
        if put_in[0] >= self.stack:
            child = self.next_street(street + 1, level + 1, put_in, index, donk=False)
        else:
            child = self.street(street + 1, level + 1, put_in, index, donk)
        self.link(index, [child], [""])
        return index

    def bets(self, street: int, player: int, put_in: tuple[int, int], donk: bool) -> list[int]:
        sizes = self.config.of(street, player)
        fractions = sizes.bets
        if donk:
            if sizes.donks is None:
                return []
            fractions = sizes.donks
        pot = self.pot + sum(put_in)
        amounts = [put_in[player] + _chips(f * pot) for f in fractions]
        return self.finish(amounts, put_in, player, sizes.allin, floor=put_in[player] + 1)

    def raise_amounts(
        self, street: int, player: int, put_in: tuple[int, int], facing: tuple[int, int], base: int
    ) -> list[int]:
        sizes = self.config.of(street, player)
        level, size = facing
        to_call = level - put_in[player]
        after_call = self.pot + 2 * level
        amounts = []
        for form, number in sizes.raises:
            if form == "pot":
                amounts.append(put_in[player] + to_call + _chips(number * after_call))
            else:
                amounts.append(base + _chips(number * (level - base)))
        return self.finish(amounts, put_in, player, sizes.allin, floor=level + max(size, 1))

    def finish(
        self, amounts: list[int], put_in: tuple[int, int], player: int, allin: bool, floor: int
    ) -> list[int]:
        """Sizes as the tree takes them: at least `floor`, all-in at or above the stack or the
        threshold, the all-in added when asked, no two the same, smallest first."""
        threshold = self.config.allin_threshold
        out = set()
        for amount in amounts:
            amount = min(max(amount, floor), self.stack)
            if self.stack - amount < threshold * (self.pot + 2 * amount):
                amount = self.stack
            out.add(amount)
        if allin:
            out.add(self.stack)
        return sorted(a for a in out if a > put_in[1 - player])


def _chips(amount: float) -> int:
    """Whole chips, halves rounded up."""
    return math.floor(amount + 0.5)


def _with(put_in: tuple[int, int], player: int, amount: int) -> tuple[int, int]:
    return (amount, put_in[1]) if player == 0 else (put_in[0], amount)


def build_tree(*, board_size: int, pot: int, stack: int, config: TreeConfig) -> Tree:
    """The betting tree of a spot whose board has `board_size` cards."""
    if len(config.sizes) != 3:
        raise SolverError(f"a tree config has sizes for 3 streets, got {len(config.sizes)}")
    if config.raise_cap < 0:
        raise SolverError(f"raise_cap must be at least 0, got {config.raise_cap}")
    first = board_size - 3
    builder = _Builder(config, pot, stack)
    builder.street(first, 0, (0, 0), -1, donk=False)
    return Tree(tuple(builder.nodes))
