"""RL environment speed: random masked-action steps per second of `holdem.env.env` against
PettingZoo's own `texas_holdem_no_limit_v6`, side by side in one run with the same loop
(``agent_iter``, ``last``, a masked sample of the action space, ``step``; the steps that retire
finished agents count in both). A benchmark, not a test. Needs ``pip install -e '.[bench,rl]'``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from typing import Any

from holdem.env import env as holdem_env


def steps_per_second(make: Any, seconds: float) -> tuple[float, float]:
    """(steps/s, hands/s) of random masked play for about `seconds`, best of 3 thirds."""
    best = (0.0, 0.0)
    for _ in range(3):
        e = make()
        steps = hands = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            for _ in range(50):
                e.reset(seed=hands)
                hands += 1
                for agent in e.agent_iter():
                    obs, _, terminated, truncated, _ = e.last()
                    e.step(
                        None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
                    )
                    steps += 1
        best = max(best, (steps / elapsed, hands / elapsed))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per measurement (default 6)")
    parser.add_argument("--players", default="2,6", help="table sizes (default 2,6)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    from pettingzoo.classic import texas_holdem_no_limit_v6

    head = f"{'players':>7} {'holdem steps/s':>15} {'pettingzoo steps/s':>19} {'ratio':>6}"
    print(f"{head}   hands/s (holdem, pz)")
    for n in (int(text) for text in args.players.split(",")):
        ours, our_hands = steps_per_second(lambda n=n: holdem_env(players=n, stacks=200), args.seconds)
        theirs, their_hands = steps_per_second(
            lambda n=n: texas_holdem_no_limit_v6.env(num_players=n), args.seconds
        )
        print(
            f"{n:>7} {ours:>15,.0f} {theirs:>19,.0f} {ours / theirs:>5.1f}x"
            f"   {our_hands:,.0f}, {their_hands:,.0f}"
        )


if __name__ == "__main__":
    main()
