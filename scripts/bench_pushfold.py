"""Push/fold speed: the heads-up equilibrium at every stack from 1 to 25 big blinds in half-big-blind
steps, timed, with the worst exploitability; and a four-player ICM end-game (stacks 3,000, 2,000,
1,500 and 1,000, blinds 100/200, prizes 50/30/20) at 100,000 deals and at the default, with the share
of the charts' classes left near indifference; with --spots, the end-games the pushfold bot solves at 3
to 9 players. A benchmark, not a test."""

from __future__ import annotations

import argparse
import time

from holdem.pushfold import solve_headsup
from holdem.pushfold.endgame import DEALS, EndGame, solve_endgame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ante", type=float, default=0.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--spots", action="store_true", help="instead: the pushfold bot's end-games at 3 to 9 players"
    )
    parser.add_argument(
        "--nine", type=int, metavar="DEALS", help="instead: a 9-player end-game at DEALS deals"
    )
    args = parser.parse_args()
    if args.spots:
        bot_spots()
        return
    if args.nine:
        nine(args.nine)
        return
    solve_headsup(10)  # the equity table read and the hand-by-hand deals built once, outside the timing
    best, worst = float("inf"), 0.0
    stacks = [1 + k / 2 for k in range(49) if k / 2 >= args.ante]  # the blind and the ante posted in full
    for _ in range(args.repeat):
        start = time.perf_counter()
        for stack in stacks:
            solution = solve_headsup(stack, args.ante)
            worst = max(worst, solution.push_exploitability, solution.call_exploitability)
        best = min(best, time.perf_counter() - start)
    print(f"{len(stacks)} heads-up stacks ({stacks[0]:g} to 25 big blinds, ante {args.ante:g}): {best:.2f} s,"
          f" best of {args.repeat}; worst exploitability {worst:.2e} big blinds a hand")  # fmt: skip
    for deals in (100_000, DEALS):  # the goal's measure, then the default
        start = time.perf_counter()
        solution = solve_endgame(EndGame((3000, 2000, 1500, 1000), 100, 200, (50.0, 30.0, 20.0)), deals=deals)
        near = sum(len(solution.near(key)) for key in solution.strategies if len(key) <= 2)
        charts = sum(1 for key in solution.strategies if len(key) <= 2)
        print(f"a 4-player ICM end-game ({solution.deals:,} deals, {solution.iterations} iterations):"
              f" {time.perf_counter() - start:.1f} s; worst exploitability {max(solution.exploitability):.1e}"
              f" of the prize pool (in the sampled game); {near / charts / 169:.0%} of the charts' classes"
              " near indifference")  # fmt: skip


def nine(deals: int) -> None:
    """A 9-player end-game at `deals` deals and the default accuracy: stacks 3,000 down to 800,
    blinds 100/200, seven prizes (30/20/15/11/8/6/5), timed with its set-up and an iteration's cost."""
    game = EndGame((3000, 2800, 2500, 2200, 2000, 1700, 1400, 1100, 800), 100, 200, (30, 20, 15, 11, 8, 6, 5))
    start = time.perf_counter()
    solution = solve_endgame(game, deals=deals)
    seconds, worst = time.perf_counter() - start, max(solution.exploitability)
    print(f"a 9-player ICM end-game ({deals:,} deals, {solution.iterations} iterations): {seconds:.1f} s;"
          f" worst exploitability {worst:.1e}")  # fmt: skip


def bot_spots() -> None:
    """The end-games the `pushfold` bot solves for a decision (3,000 deals, at most 100 iterations,
    tolerance 1e-5), at 3 to 9 players: stacks from 3,000 down, blinds 100/200, prizes 50/30/20."""
    stacks = (3000, 2800, 2500, 2200, 2000, 1700, 1400, 1100, 800)
    for n in range(3, 10):
        game = EndGame(stacks[:n], 100, 200, (50.0, 30.0, 20.0))
        start = time.perf_counter()
        solution = solve_endgame(game, deals=3000, iterations=100, seed=0, tolerance=1e-5)
        print(f"{n} players: {time.perf_counter() - start:.2f} s, {solution.iterations} iterations,"
              f" worst exploitability {max(solution.exploitability):.1e}")  # fmt: skip


if __name__ == "__main__":
    main()
