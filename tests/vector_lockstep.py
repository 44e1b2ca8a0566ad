"""The differential check of `holdem.vector`: `VectorTables` and the scalar `Hand` in lockstep.

Both get the same decks (the scalar hand is dealt each table's `decks` row) and the same action
indices (random among the legal ones); they must agree on every actor, every mask, every final
stack and, where asked, every observation. Used by the tests (short) and `scripts/bench_vector.py`
(long).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from holdem import Deck, Hand, Stakes
from holdem.cards.card import CARDS
from holdem.env.encoding import ActionSpace, observation
from holdem.formats import phh
from holdem.vector import VectorTables


def scalar_hand(t: VectorTables, r: int, stacks: npt.NDArray[np.int64]) -> Hand:
    """The engine's hand for table `r`'s current deal: its deck, and the seats' stacks in dealing order."""
    p = t.players
    seats = [(int(t.button[r]) + 1 + i) % p for i in range(p)]
    deck = Deck([CARDS[c] for c in t.decks[r].tolist()])
    return Hand.start([int(stacks[r, s]) for s in seats], t.stakes, deck=deck)


def lockstep(
    tables: int,
    players: int,
    hands: int,
    *,
    stacks: int | npt.NDArray[np.int64] = 200,
    stakes: Stakes | None = None,
    seed: int = 0,
    observe_every: int = 0,
    record: bool = False,
) -> int:
    """Play until `hands` hands have finished; returns the number compared. Fails on any difference.
    With `record`, each hand's PHH record must also say what the engine's own export says, and replay
    (`holdem.formats.phh.replay`) to the same finishing stacks."""
    t = VectorTables(tables, players, stacks, stakes, seed=seed, record=record)
    space = ActionSpace(t.fractions)
    rng = np.random.default_rng(seed + 1)
    seat_stacks = np.broadcast_to(np.asarray(stacks, dtype=np.int64), (tables, players))
    scalar = [scalar_hand(t, r, seat_stacks) for r in range(tables)]
    finished = steps = 0
    while finished < hands:
        steps += 1
        observed = t.observe() if observe_every and steps % observe_every == 0 else None
        views = []
        for r, hand in enumerate(scalar):
            actor = hand.actor
            assert actor is not None, f"table {r}: the scalar hand is over, the vector one is not"
            seat = (int(t.button[r]) + 1 + actor) % players
            assert seat == t.actor[r], f"table {r}: actor {t.actor[r]} vs the engine's seat {seat}"
            view = hand.view(actor)
            mask = space.mask(view).astype(bool)
            assert (mask == t.legal[r]).all(), (
                f"table {r}: mask {t.legal[r]} vs the engine's {mask}\n{hand.history}"
            )
            if observed is not None:
                assert np.array_equal(observation(view), observed[r]), f"table {r}: observations differ"
            views.append(view)
        actions = np.argmax(rng.random(t.legal.shape) * t.legal, axis=1)
        for r, hand in enumerate(scalar):
            move = space.action(views[r], actions[r])
            assert move is not None
            hand.act(move)
        _, done = t.step(actions)
        records = {doc["table"] - 1: doc for doc in t.histories(clear=True)} if record else {}
        for r, hand in enumerate(scalar):
            assert hand.is_complete == done[r], (
                f"table {r}: over {done[r]} vs the engine's {hand.is_complete}"
            )
            if done[r]:
                result = hand.result
                assert result is not None
                p = len(hand.stacks)
                button = (int(t.button[r]) - 1) % p  # the finished hand's button: one seat back
                by_seat = [0] * p
                for i, stack in enumerate(result.final_stacks):
                    by_seat[(button + 1 + i) % p] = stack
                assert by_seat == t.final_stacks[r].tolist(), (
                    f"table {r}: final stacks differ\n{hand.history}"
                )
                if record:
                    check_record(records.pop(r), hand)
                scalar[r] = scalar_hand(t, r, seat_stacks)
                finished += 1
    assert not records, "a record for a hand that did not end"
    return finished


def check_record(doc: dict[str, object], hand: Hand) -> None:
    """A vector table's record of a hand says what the engine's export of the same hand says, and
    replays to its finishing stacks."""
    exported = phh.export(hand)
    for key in ("antes", "blinds_or_straddles", "min_bet", "starting_stacks", "finishing_stacks"):
        assert exported[key] == doc[key], (key, exported[key], doc[key], hand.history)
    assert list(phh.replay(doc).finishing_stacks or ()) == doc["finishing_stacks"], doc
