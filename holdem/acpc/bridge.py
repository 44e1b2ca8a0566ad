"""ACPC match states and the engine: a state replayed as a `Hand`, and a `Hand` seen as a state.

ACPC positions are the engine's players in dealing order. A no-limit raise in ACPC is the total the
raiser has put in over the whole hand; in the engine it is the raise-to total of the street, so the
two differ by what the player put in on earlier streets. Values follow the reference dealer:
split pots are shared exactly (fractions of a chip), not by odd chips.
"""

from __future__ import annotations

from collections.abc import Sequence

from holdem.acpc.gamedef import GameDef
from holdem.acpc.protocol import MatchState, Move
from holdem.cards.deck import Deck
from holdem.cards.evaluator import strength
from holdem.errors import HoldemError, ProtocolError
from holdem.hand.actions import Action, ActionKind
from holdem.hand.events import ACTION, KIND, PHASE, PLAYER, EventKind
from holdem.hand.state import Hand

__all__ = [
    "betting_of",
    "engine_action",
    "hand_from_state",
    "replay_betting",
    "start_hand",
    "state_of",
    "values",
]


def start_hand(game: GameDef, deck: Deck) -> Hand:
    """A new hand of `game` dealt from `deck`."""
    return Hand.start(
        game.stacks(), game.stakes(), rules=game.rules(), deck=deck, blinds=list(game.blind),
        first_to_act=game.first_to_act,
    )  # fmt: skip


def engine_action(hand: Hand, move: Move) -> Action:
    """The engine's action for an ACPC move by the player to act (no legality check beyond sizing)."""
    kind, size = move
    legal = hand.legal_actions()
    if legal is None:
        raise ProtocolError("the hand is over; no action is due")
    if kind == "f":
        return Action.fold()
    if kind == "c":
        return Action.check() if legal.can_check else Action.call()
    if size is None:  # a limit raise: the one size there is
        if legal.min_raise_to is None:
            raise ProtocolError("no raise is possible here")
        return Action.raise_to(legal.min_raise_to)
    return Action.raise_to(size - hand.contributions[legal.player])


def replay_betting(hand: Hand, betting: Sequence[Sequence[Move]]) -> None:
    """Apply the betting to `hand` (from its start), checking each move and each round break;
    a `ProtocolError` names the first move the engine refuses."""
    for r, moves in enumerate(betting):
        if r and not hand.is_complete and int(hand.phase) != r:
            raise ProtocolError(f"round {r + 1} begins before round {r} is over")
        for move in moves:
            if hand.actor is None:
                raise ProtocolError(f"{_text(moves)}: an action after the hand is over")
            if int(hand.phase) != r:
                raise ProtocolError(f"{_text(moves)}: round {r + 1} is over before its last action")
            try:
                hand.act(engine_action(hand, move))
            except HoldemError as error:
                text = move[0] + ("" if move[1] is None else str(move[1]))
                raise ProtocolError(f"action {text!r} in round {r + 1} is not valid: {error}") from None
        if r + 1 < len(betting) and not hand.is_complete and int(hand.phase) == r:
            raise ProtocolError(f"round {r + 1} is cut short: the betting is not over")


def _text(moves: Sequence[Move]) -> str:
    return "".join(k + str(s or "") for k, s in moves)


def hand_from_state(state: MatchState, game: GameDef) -> Hand:
    """The hand a match state describes, replayed in the engine (unknown cards are stand-ins)."""
    holes = [list(cards) if cards else [None, None] for cards in state.holes]
    board = [c for cards in state.board for c in cards]
    try:
        hand = start_hand(game, Deck.for_hand(holes, board))
    except HoldemError as error:
        raise ProtocolError(str(error)) from None
    replay_betting(hand, state.betting)
    return hand


def acpc_round(hand: Hand) -> int:
    """The ACPC round of a hand: the current one; a finished hand with a showdown is in the last."""
    if hand.is_complete:
        if sum(1 for folded in hand.folded if not folded) > 1:
            return 3
        last = [entry[PHASE] for entry in hand.log if entry[KIND] == EventKind.ACTION]
        return int(last[-1]) if last else 0
    return int(hand.phase)


def betting_of(hand: Hand) -> tuple[tuple[Move, ...], ...]:
    """The hand's betting as ACPC moves per round."""
    rounds: list[list[Move]] = [[] for _ in range(acpc_round(hand) + 1)]
    spent = list(hand.declared_blinds)
    start = [0] * len(spent)  # what each had in before the round (preflop bets include the blinds)
    stacks = hand.starting_stacks
    current = 0
    limit = hand.stakes.structure.value == "fixed-limit"
    for entry in hand.log:
        if entry[KIND] != EventKind.ACTION:
            continue
        player, action, phase = entry[PLAYER], entry[ACTION], int(entry[PHASE])
        assert player is not None and action is not None
        if phase != current:
            start, current = list(spent), phase
        kind = action.kind
        if kind is ActionKind.FOLD:
            rounds[phase].append(("f", None))
        elif kind in (ActionKind.CHECK, ActionKind.CALL):
            spent[player] = min(stacks[player], max(spent))
            rounds[phase].append(("c", None))
        else:
            assert action.amount is not None
            spent[player] = start[player] + action.amount
            rounds[phase].append(("r", None if limit else spent[player]))
    return tuple(tuple(moves) for moves in rounds)


def state_of(hand: Hand, position: int, number: int, *, show_all: bool = False) -> MatchState:
    """What `position` sees of `hand` (hand number `number`): its own cards, and at a showdown the
    cards of every player who did not fold; `show_all` shows every player's cards (the log)."""
    betting = betting_of(hand)
    showdown = hand.is_complete and sum(1 for folded in hand.folded if not folded) > 1
    holes = tuple(
        hand.holes[p] if show_all or p == position or (showdown and not hand.folded[p]) else None
        for p in range(len(hand.holes))
    )
    rounds = len(betting)
    cuts = (0, 0, 3, 4, 5)
    board = tuple(tuple(hand.board[cuts[r] : cuts[r + 1]]) for r in range(rounds))
    return MatchState(position, number, betting, holes, board)


def values(hand: Hand) -> list[float]:
    """Each player's winnings as the reference dealer computes them: pots shared exactly."""
    n = len(hand.holes)
    spent = list(hand.contributions)  # what each put in (an uncalled bet nets nothing either way)
    live = [p for p in range(n) if not hand.folded[p]]
    if len(live) == 1:
        return [sum(spent) - spent[p] if p == live[0] else -float(spent[p]) for p in range(n)]
    board = [c.index for c in hand.board]
    rank = [
        strength([*(c.index for c in hand.holes[p]), *board]) if not hand.folded[p] else -1 for p in range(n)
    ]
    result = [0.0] * n
    left = [p for p in range(n) if spent[p] > 0]
    remaining = {p: spent[p] for p in left}
    while len(left) > 1:
        size = min(remaining[p] for p in left)
        best = max(rank[p] for p in left)
        winners = [p for p in left if rank[p] == best]
        pot = size * len(left)
        for p in left:
            result[p] -= size
        for p in winners:
            result[p] += pot / len(winners)
        for p in left:
            remaining[p] -= size
        left = [p for p in left if remaining[p] > 0]
    return result  # a lone player's uncalled excess nets nothing
