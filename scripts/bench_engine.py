"""Engine speed: complete random-policy no-limit hands at 2, 3, 6 and 9 players, holdem against the peers.

Policy (the same for every library): uniform over fold / check-or-call / raise, a raise going to
the minimum or all-in 50/50; stacks 200 big blinds, blinds 1/2. holdem and texasholdem both allow
folding when checking is free (rule 15); pokerkit does not, so there the policy checks instead and
its hands run a little longer. The contenders take turns and
the best of `--repeat` rounds counts. Also times a JSON snapshot plus restore of a 6-max hand
on the river, and `Hand.start` alone at each table size (seeded with `random.Random`, and with
the default CSPRNG deck). A benchmark, never a timed test.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

from holdem import Action, Hand, Stakes
from holdem.cli.bench import random_policy_hands
from holdem.table.snapshot import from_json, to_json


def texasholdem_hands(players: int, hands: int, seed: int) -> float:
    """Hands per second of texasholdem's TexasHoldEm with the same policy."""
    from texasholdem import ActionType, TexasHoldEm

    rng = random.Random(seed)
    random.seed(seed)
    done = 0
    start = time.perf_counter()
    while done < hands:
        # A fresh game per hand: every hand starts with all players at 200 big blinds, as in holdem's run
        # (a long game would shrink as players bust, and shorter hands would flatter the rate).
        game = TexasHoldEm(buyin=400, big_blind=2, small_blind=1, max_players=players)
        if game.is_game_running():
            game.start_hand()
            while game.is_hand_running():
                moves = game.get_available_moves()
                choice = rng.randrange(3)
                if choice == 2 and ActionType.RAISE in moves.action_types:
                    totals = sorted(moves.raise_range)
                    game.take_action(ActionType.RAISE, total=totals[0] if rng.random() < 0.5 else totals[-1])
                elif choice == 0 and ActionType.FOLD in moves.action_types:
                    game.take_action(ActionType.FOLD)
                elif ActionType.CHECK in moves.action_types:
                    game.take_action(ActionType.CHECK)
                else:
                    game.take_action(ActionType.CALL)
            done += 1
    return done / (time.perf_counter() - start)


def pokerkit_hands(players: int, hands: int, seed: int) -> float:
    """Hands per second of pokerkit's NoLimitTexasHoldem with the same policy (dealing automated)."""
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = tuple(a for a in Automation if a is not Automation.RUNOUT_COUNT_SELECTION)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(hands):
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (400,) * players, players)
        while state.status:
            choice = rng.randrange(3)
            if choice == 2 and state.can_complete_bet_or_raise_to():
                lo = state.min_completion_betting_or_raising_to_amount
                hi = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(lo if rng.random() < 0.5 else hi)
            elif choice == 0 and state.can_fold():
                state.fold()
            elif state.can_check_or_call():
                state.check_or_call()
            else:
                state.fold()
    return hands / (time.perf_counter() - start)


def river_hand(seed: int) -> Hand:
    """A 6-max hand on the river after betting on every street (20 actions)."""
    hand = Hand.start([400] * 6, Stakes(1, 2), rng=random.Random(seed))
    for action in [Action.raise_to(6)] + [Action.call()] * 5:
        hand.act(action)
    for _ in range(2):
        hand.act(Action.raise_to(10))
        for _ in range(5):
            hand.act(Action.call())
    return hand


def snapshot_us(repeat: int) -> float:
    """Best time of to_json plus from_json, in microseconds."""
    hand = river_hand(3)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        from_json(to_json(hand))
        best = min(best, time.perf_counter() - start)
    return best * 1e6


def start_us(players: int, seeded: bool, repeat: int, count: int = 20_000) -> float:
    """Best time of `Hand.start` (stacks 200, blinds 1/2), in microseconds."""
    stacks, stakes = [200] * players, Stakes(1, 2)
    rng = random.Random(1) if seeded else None
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(count):
            Hand.start(stacks, stakes, rng=rng)
        best = min(best, (time.perf_counter() - start) / count)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,6,9", help="table sizes, comma-separated")
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--peer-hands", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    # The snapshot first: after the peers have filled the heap, the same timing reads about 40% slower.
    report: dict[str, object] = {"snapshot_restore_us": snapshot_us(2000)}
    for players in (int(n) for n in args.players.split(",")):
        runs: dict[str, Callable[[], float]] = {
            "holdem": lambda n=players: random_policy_hands(n, args.hands, args.seed),
            "texasholdem": lambda n=players: texasholdem_hands(n, args.peer_hands, args.seed),
            "pokerkit": lambda n=players: pokerkit_hands(n, args.peer_hands // 5, args.seed),
        }
        results: dict[str, float | str] = {}
        for _ in range(args.repeat):  # the contenders take turns; best of the runs
            for name, run in runs.items():
                if isinstance(results.get(name), str):
                    continue
                try:
                    rate = run()
                except Exception as error:  # a missing peer or a peer's bug must not stop the benchmark
                    results[name] = f"unavailable: {type(error).__name__}: {error}"
                    continue
                results[name] = max(rate, float(results.get(name, 0.0)))
        results["start_seeded_us"] = start_us(players, True, args.repeat)
        results["start_default_us"] = start_us(players, False, args.repeat)
        report[str(players)] = results
    if args.json:
        print(json.dumps(report))
        return
    for players, results in report.items():
        if not isinstance(results, dict):
            continue
        ours = float(results["holdem"])
        print(f"{players} players:")
        seeded, default = results.pop("start_seeded_us"), results.pop("start_default_us")
        print(f"  Hand.start   {seeded:6.2f} µs seeded, {default:6.2f} µs with the default CSPRNG deck")
        for name, value in results.items():
            if isinstance(value, float):
                print(f"  {name:12s} {value:10,.0f} hands/s   holdem is {ours / value:6.2f}x")
            else:
                print(f"  {name:12s} {value}")
    print(f"JSON snapshot + restore, 6-max hand on the river: {report['snapshot_restore_us']:.0f} µs")


if __name__ == "__main__":
    main()
