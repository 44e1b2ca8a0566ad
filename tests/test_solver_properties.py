"""The solver's invariants over random river and turn spots (Hypothesis): every strategy is a
distribution, the two players' values add up to the pot less the rake, a best response never loses
against the average strategy, and every bet or raise in the tree is a legal amount."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem.cards.card import CARDS, format_cards
from holdem.solver import Spot, TreeConfig, build_game
from holdem.solver.tree import Kind, build_tree
from tests.strategies import examples

SIZES = st.sampled_from(["33", "50,allin", "75,150", "100,allin", "allin"])
RAISES = st.sampled_from(["", "allin", "2.5x", "50", "45,allin"])


@st.composite
def spots(draw: st.DrawFn) -> tuple[Spot, TreeConfig]:
    """A spot on a random river or turn, each player holding 2 to 6 random combinations."""
    deck = draw(st.permutations(range(52)))
    board_size = draw(st.sampled_from([4, 5]))
    board = deck[:board_size]
    rest = deck[board_size:]
    ranges = []
    for start in (0, 12):
        count = draw(st.integers(2, 6))
        pairs = [rest[start + 2 * i : start + 2 * i + 2] for i in range(count)]
        ranges.append(",".join(format_cards((CARDS[a], CARDS[b])) for a, b in pairs))
    pot = draw(st.integers(2, 200))
    stack = draw(st.integers(1, 400))
    rake = draw(st.sampled_from([0.0, 5.0]))
    spot = Spot.parse(board=format_cards(CARDS[c] for c in board), pot=pot, stack=stack, oop=ranges[0],
                      ip=ranges[1], rake=rake, rake_cap=3)  # fmt: skip
    config = TreeConfig.uniform(bets=draw(SIZES), raises=draw(RAISES), raise_cap=draw(st.integers(0, 3)))
    return spot, config


@settings(max_examples=examples(25), deadline=None)
@given(spots(), st.integers(1, 12))
def test_strategies_are_distributions_values_are_zero_sum_and_best_responses_never_lose(
    case: tuple[Spot, TreeConfig], iterations: int
) -> None:
    spot, config = case
    game = build_game(spot, config)
    for _ in range(iterations):
        game.iterate()
    for index in game.sums:
        for strategy in (game.average(index), game.current(index)):
            assert np.all(strategy >= 0)
            assert np.allclose(strategy.sum(axis=0), 1, atol=1e-5)
    _, values, bests = game.exploitability()
    if spot.rake == 0:
        assert abs(spot.pot - sum(values)) < 1e-4 * spot.pot
    else:
        assert sum(values) <= spot.pot * (1 + 1e-4)
    for best, value in zip(bests, values, strict=True):
        assert best >= value - 1e-3 * spot.pot


@settings(max_examples=examples(60), deadline=None)
@given(spots())
def test_every_bet_and_raise_is_a_legal_amount(case: tuple[Spot, TreeConfig]) -> None:
    """Within the stack, above what is faced, at least a minimum raise unless all-in, and labelled
    with the street's total."""
    spot, config = case
    tree = build_tree(board_size=len(spot.board), pot=spot.pot, stack=spot.stack, config=config)
    for node in tree.nodes:
        if node.kind != Kind.ACTION:
            continue
        me, other = node.put_in[node.player], node.put_in[1 - node.player]
        for action, child in zip(node.actions, node.children, strict=True):
            after = tree.nodes[child].put_in[node.player]
            if action in ("x", "f"):
                assert after == me
            elif action == "c":
                assert after == other
            else:
                assert other < after <= spot.stack
                assert int(action[1:]) == after - node.base
                assert (action[0] == "b") == (me == other)
                if after < spot.stack:  # the minimum raise: the last bet or raise's size again
                    assert after >= other + max(other - me, 1)
