"""Engine speed: complete random-policy 6-max no-limit hands, holdem against texasholdem, one run.

Policy (same for every library): uniform over fold / check-or-call / raise, a raise going to the
minimum or all-in 50/50; stacks 200 big blinds, blinds 1/2. A benchmark, never a timed test.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from holdem.bench import random_policy_hands


def texasholdem_hands(players: int, hands: int, seed: int) -> float:
    """Hands per second of texasholdem's TexasHoldEm with the same policy."""
    from texasholdem import ActionType, TexasHoldEm

    rng = random.Random(seed)
    random.seed(seed)
    done = 0
    start = time.perf_counter()
    while done < hands:
        game = TexasHoldEm(buyin=400, big_blind=2, small_blind=1, max_players=players)
        while game.is_game_running() and done < hands:
            game.start_hand()
            while game.is_hand_running():
                moves = game.get_available_moves()
                choice = rng.randrange(3)
                if choice == 2 and ActionType.RAISE in moves.action_types:
                    totals = sorted(moves.raise_range)
                    total = totals[0] if rng.random() < 0.5 else totals[-1]
                    game.take_action(ActionType.RAISE, total=total)
                elif choice == 0 and ActionType.FOLD in moves.action_types:
                    game.take_action(ActionType.FOLD)
                elif ActionType.CHECK in moves.action_types:
                    game.take_action(ActionType.CHECK)
                else:
                    game.take_action(ActionType.CALL)
            done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--peer-hands", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, float | str] = {"holdem": random_policy_hands(args.players, args.hands, args.seed)}
    try:
        results["texasholdem"] = texasholdem_hands(args.players, args.peer_hands, args.seed)
    except Exception as error:  # a peer's API or bug must not stop the benchmark
        results["texasholdem"] = f"failed: {type(error).__name__}: {error}"
    if args.json:
        print(json.dumps(results))
        return
    ours = float(results["holdem"])
    for name, rate in results.items():
        if isinstance(rate, float):
            print(f"{name:12s} {rate:10,.0f} hands/s   holdem is {ours / rate:5.2f}x")
        else:
            print(f"{name:12s} {rate}")


if __name__ == "__main__":
    main()
