"""The learning curve of `holdem.learn`: train one policy from scratch, and play it at checkpoints in
duplicate `holdem match`es against every panel bot and ``equity``, at 100 and 20 big blinds.

Training runs for ``--seconds`` (seed ``--seed``); the policy is kept at 10 s (or sooner) and
every ``--every`` seconds (60 by default), and, once training is over, each kept policy plays
``--hands`` duplicate hands against each opponent at each depth (seed 7, the same deals for every
checkpoint). Prints a Markdown table: seconds of training, hands trained, the training reward, and
bb/100 with its 95% interval against each opponent at each depth. Needs ``pip install -e '.[rl]'``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from holdem.bots.match import BotResult, MatchConfig, play_match
from holdem.learn import LinearPolicy, Progress, train

OPPONENTS = (
    "tight-aggressive",
    "loose-aggressive",
    "rock",
    "maniac",
    "loose-passive",
    "calling-station",
    "equity",
)
STACKS = (200, 40)  # 100 and 20 big blinds at blinds 1/2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="training time (default 120)")
    parser.add_argument("--hands", type=int, default=4000, help="duplicate hands per evaluation match")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--every", type=float, default=60.0, help="seconds between checkpoints (after one at 10 s)"
    )
    args = parser.parse_args()
    kept: list[tuple[float, int, float, LinearPolicy]] = [(0.0, 0, float("nan"), LinearPolicy.untrained())]
    due = sorted(
        {min(10.0, args.every), *(args.every * k for k in range(1, int(args.seconds // args.every) + 1))}
    )
    due = [c for c in due if c <= args.seconds]

    def keep(point: Progress) -> None:
        if due and point.seconds >= due[0]:
            while due and point.seconds >= due[0]:
                due.pop(0)
            kept.append((point.seconds, point.hands, point.reward, point.policy))

    final = train(seconds=args.seconds, seed=args.seed, on_progress=keep)
    print(f"trained {args.seconds:g} s from scratch (seed {args.seed}); final policy kept\n")
    columns = [f"{name}, {stack // 2} bb" for stack in STACKS for name in OPPONENTS]
    print("| training | hands trained | training reward (BB/hand) | " + " | ".join(columns) + " |")
    print("| --- " * (3 + len(columns)) + "|")
    with tempfile.TemporaryDirectory() as folder:
        if kept[-1][0] < 0.99 * args.seconds:  # the final policy, unless a checkpoint holds it
            kept.append((args.seconds, -1, float("nan"), final))
        for k, (seconds, hands, reward, policy) in enumerate(kept):
            path = Path(folder) / f"policy-{k}.npz"
            policy.save(path)
            cells = [
                _play(path, opponent, stack, args.hands, args.workers)
                for stack in STACKS
                for opponent in OPPONENTS
            ]
            trained = "final" if hands < 0 else f"{hands:,}"
            shown = "" if reward != reward else f"{reward:.2f}"
            print(f"| {seconds:.1f} s | {trained} | {shown} | " + " | ".join(cells) + " |", flush=True)


def _play(path: Path, opponent: str, stack: int, hands: int, workers: int) -> str:
    spec = f"holdem.learn:PolicyBot[path={path}]"
    config = MatchConfig((spec, opponent), stack=stack, seed=7, duplicate=True)
    bot: BotResult = play_match(config, hands, workers=workers).bots[0]
    low, high = bot.ci95
    return f"{bot.bb_per_100:,.0f} [{low:,.0f}, {high:,.0f}]"


if __name__ == "__main__":
    main()
