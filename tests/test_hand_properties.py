"""Hypothesis over random tables and random actions: the invariants hold at every step."""

import contextlib
import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from holdem.errors import IllegalActionError, InvariantError
from holdem.hand.actions import Action, ActionKind
from holdem.hand.checks import check_action, plainly_legal
from holdem.hand.invariants import check_hand
from holdem.hand.stakes import Rules, Stakes, Structure
from holdem.hand.state import Hand
from tests.strategies import examples, random_action

stacks = st.lists(st.integers(min_value=1, max_value=10_000), min_size=2, max_size=10)
structures = st.sampled_from(list(Structure))


def state(hand: Hand) -> tuple[object, ...]:
    """Everything that must not change when an action is rejected."""
    return (
        list(hand.stacks), list(hand.bets), list(hand.contributions), list(hand.folded), list(hand.acted),
        list(hand.board), hand.phase, hand.actor, len(hand.history), len(hand.log), hand.deck.remaining,
        hand.round.level, hand.round.increment, hand.round.reopen_level, hand.round.raises,
    )  # fmt: skip


class HandMachine(RuleBasedStateMachine):
    """Plays random legal and illegal actions on a random table."""

    hand: Hand

    @initialize(
        stacks=stacks,
        structure=structures,
        blinds=st.sampled_from([(1, 2), (5, 10), (50, 100)]),
        ante=st.sampled_from([0, 0, 1, 5]),
        rules=st.sampled_from([Rules(), Rules.acpc(), Rules.pokerstars(), Rules(run_twice=True)]),
        seed=st.integers(0, 2**32),
    )
    def start(
        self,
        stacks: list[int],
        structure: Structure,
        blinds: tuple[int, int],
        ante: int,
        rules: Rules,
        seed: int,
    ) -> None:
        stakes = Stakes(*blinds, ante=ante, structure=structure)
        self.hand = Hand.start(stacks, stakes, rules=rules, rng=random.Random(seed))
        self.steps = 0

    @invariant()
    def invariants_hold(self) -> None:
        check_hand(self.hand)

    @precondition(lambda self: not self.hand.is_complete)
    @rule(kind=st.sampled_from(list(ActionKind)), frac=st.floats(0, 1))
    def legal_action(self, kind: ActionKind, frac: float) -> None:
        legal = self.hand.legal_actions()
        assert legal is not None
        if kind is ActionKind.RAISE and legal.can_raise:
            lo, hi = legal.min_raise_to, legal.max_raise_to
            assert lo is not None and hi is not None
            action = Action.raise_to(lo + round(frac * (hi - lo)))
        elif kind is ActionKind.FOLD and legal.can_fold:  # not when checking is free under ACPC
            action = Action.fold()
        elif kind is ActionKind.ALL_IN and self.hand.is_legal(Action.all_in()):
            action = Action.all_in()
        else:
            action = Action.check() if legal.can_check else Action.call()
        assert self.hand.is_legal(action)
        self.hand.act(action)
        self.steps += 1
        assert self.steps < 500, "a hand must terminate"

    @precondition(lambda self: not self.hand.is_complete)
    @rule(
        amount=st.one_of(st.integers(-10, 10**7), st.floats(allow_nan=True), st.none(), st.text(max_size=3)),
        seat=st.one_of(st.none(), st.integers(-1, 11)),
    )
    def illegal_action_changes_nothing(self, amount: object, seat: int | None) -> None:
        before = state(self.hand)
        try:
            action = Action(ActionKind.RAISE, amount)  # type: ignore[arg-type]
        except IllegalActionError:  # not a positive whole number: refused before reaching the hand
            assert type(amount) is not int or amount <= 0
            return
        legal = self.hand.legal_actions()
        assert legal is not None
        in_bounds = (
            legal.min_raise_to is not None
            and legal.max_raise_to is not None
            and isinstance(amount, int)
            and legal.min_raise_to <= amount <= legal.max_raise_to
        )
        assert (in_bounds and seat in (None, legal.player)) == self.hand.is_legal(action, seat)
        if in_bounds and seat in (None, legal.player):
            return
        with contextlib.suppress(IllegalActionError):
            self.hand.act(action, seat)
        assert before == state(self.hand)

    @precondition(lambda self: self.hand.is_complete)
    @rule()
    def complete_hand_rejects_actions(self) -> None:
        before = state(self.hand)
        assert not self.hand.is_legal(Action.check())
        assert self.hand.result is not None
        assert sum(self.hand.result.payoffs) + self.hand.result.rake == 0
        assert before == state(self.hand)


TestHandMachine = HandMachine.TestCase
TestHandMachine.settings = settings(max_examples=examples(400), stateful_step_count=60, deadline=None)


@given(stacks=stacks, seed=st.integers(0, 2**32))
@settings(max_examples=examples(500), deadline=None)
def test_random_hands_terminate_with_chips_conserved(stacks: list[int], seed: int) -> None:
    """Random legal play always ends, with every chip accounted for."""
    rng = random.Random(seed)
    hand = Hand.start(stacks, Stakes(1, 2), rng=rng)
    for _ in range(500):
        if hand.is_complete:
            break
        hand.act(random_action(hand, rng))
        check_hand(hand)
    assert hand.is_complete
    assert sum(stacks) == sum(copy.copy(hand.stacks))


def test_the_invariant_check_names_a_broken_hand() -> None:
    """The check the properties above rely on does fail: each tampering is named."""
    hand = Hand.start([100, 100, 100], Stakes(1, 2), rng=random.Random(1))
    check_hand(hand)
    hand.stacks[0] += 1
    with pytest.raises(InvariantError, match="chips not conserved"):
        check_hand(hand)
    hand.stacks[0] -= 1
    hand.chips += 1
    with pytest.raises(InvariantError, match="the pot is not the chips in the middle"):
        check_hand(hand)
    hand.chips -= 1
    hand.folded[0] = True
    with pytest.raises(InvariantError, match="live-player count"):
        check_hand(hand)


def _could_put_in_more(hand: Hand, i: int) -> bool:
    """PokerKit's criterion for completing, betting or raising (its
    `_verify_completion_betting_or_raising`): another player still in the hand has a bet plus
    stack above the current bet (the level to call, rule 7)."""
    level = hand.round.level
    others = [k for k in range(len(hand.stacks)) if k != i and not hand.folded[k]]
    return any(hand.bets[k] + hand.stacks[k] > level for k in others)


def _is_covered(hand: Hand, i: int) -> bool:
    return all(hand.bets[k] + hand.stacks[k] <= hand.bets[i] for k in range(len(hand.stacks))
               if k != i and not hand.folded[k])  # fmt: skip


@settings(max_examples=examples(300), deadline=None)
@given(
    stacks=st.lists(
        st.one_of(st.integers(1, 30), st.integers(20, 300), st.integers(100, 5000)), min_size=2, max_size=9
    ),
    ante=st.sampled_from([0, 0, 2, 5]),
    big_blind_ante=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_rule_11_a_raise_is_offered_exactly_when_another_player_could_put_in_more(
    stacks: list[int], ante: int, big_blind_ante: bool, seed: int
) -> None:
    """On random hands with short and all-in stacks and antes, a raise is offered exactly when the
    betting rules allow one and some other player in the hand could put in more than the bet; and
    no player whose bet covers everyone else's bet plus stack is asked to act."""
    stakes = Stakes(10, 20, ante=0 if big_blind_ante else ante, big_blind_ante=ante if big_blind_ante else 0)
    rng = random.Random(seed)
    hand = Hand.start(stacks, stakes, rng=rng)
    while not hand.is_complete:
        legal = hand.legal_actions()
        assert legal is not None
        i = legal.player
        assert not _is_covered(hand, i)
        pot = hand.pot if hand.stakes.structure is Structure.POT_LIMIT else 0
        lo, _ = hand.round.bounds(hand.bets[i], hand.stacks[i], hand.acted[i], True, pot)
        assert (lo is not None and _could_put_in_more(hand, i)) == legal.can_raise
        hand.act(random_action(hand, rng))
        check_hand(hand)


@settings(max_examples=examples(300), deadline=None)
@given(
    stacks=stacks,
    blinds=st.sampled_from([(1, 2), (5, 10), (0, 50)]),
    antes=st.sampled_from([(0, 0), (1, 0), (0, 10), (1, 2)]),
    rules=st.sampled_from([Rules(), Rules(big_blind_ante_order="ante_first"), Rules.pokerstars()]),
    seed=st.integers(0, 2**32),
)
def test_the_usual_hands_set_up_is_the_general_one(
    stacks: list[int], blinds: tuple[int, int], antes: tuple[int, int], rules: Rules, seed: int
) -> None:
    """`Hand.start` works out the forced bets of a hand with default blinds and deep stacks once per
    stakes; the hand it starts is the one the general set-up starts (given the same deck, which
    takes the general path), and stays so through the same random actions."""

    def everything(hand: Hand) -> tuple[object, ...]:
        return (*state(hand), hand.dead_money, hand.log, hand.with_chips, hand.holes, hand.declared_blinds,
                hand.declared_dead, hand.big_blind_player, hand.first_preflop, hand.legal_actions(),
                hand.result)  # fmt: skip

    stakes = Stakes(*blinds, ante=antes[0], big_blind_ante=antes[1])
    usual = Hand.start(stacks, stakes, rules=rules, rng=random.Random(seed))
    general = Hand.start(stacks, stakes, rules=rules, deck=usual.deck.copy())
    rng = random.Random(seed)
    while True:
        assert everything(usual) == everything(general)
        if usual.is_complete:
            break
        action = random_action(usual, rng)
        usual.act(action)
        general.act(action)


def _candidates(hand: Hand) -> list[Action]:
    """Every kind of action, legal or not, with raise sizes around and at the legal bounds."""
    legal = hand.legal_actions()
    assert legal is not None
    sizes = {1, hand.stacks[legal.player] + hand.bets[legal.player] + 1}
    for bound in (legal.min_raise_to, legal.max_raise_to):
        if bound is not None:
            sizes |= {bound - 1, bound, bound + 1}
    raises = [Action.raise_to(size) for size in sorted(sizes) if size > 0]
    return [Action.fold(), Action.check(), Action.call(), Action.all_in(), *raises]


@given(stacks=stacks, seed=st.integers(0, 2**32), forbid=st.booleans())
@settings(max_examples=examples(300), deadline=None)
def test_the_quick_acceptance_and_the_full_check_agree_on_every_action(
    stacks: list[int], seed: int, forbid: bool
) -> None:
    """`plainly_legal` (the path `Hand.act` tries first) accepts an action exactly when `check_action`
    accepts it unchanged, all-ins aside (always resolved by the full check)."""
    rng = random.Random(seed)
    hand = Hand.start(stacks, Stakes(1, 2), rng=rng, rules=Rules(forbid_free_fold=forbid))
    while not hand.is_complete:
        i = hand.actor
        assert i is not None
        for action in _candidates(hand):
            try:
                unchanged = check_action(hand, action, i) == (i, action)
            except IllegalActionError:
                unchanged = False
            assert plainly_legal(hand, i, action) == (unchanged and action.kind is not ActionKind.ALL_IN)
        hand.act(random_action(hand, rng))
