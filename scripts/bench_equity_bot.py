"""The equity bot against its previous version (scripts/equity_bot_v1.py): speed and strength.

Speed: decisions per second of each, heads-up against the random bot, in the same run (both at
their default 300 samples; the new bot's preflop equities are computed once per process, and the
first run, which computes them, is reported separately as "cold"). Strength: a duplicate match
between the two; the new bot keeps its strength if the 95% interval of its winnings includes
zero or lies above it. Then duplicate matches against round 4's bot (scripts/equity_bot_round4.py,
before it read its opponents) at 100 and 20 big blinds. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from equity_bot_round4 import EquityBotRound4
from equity_bot_v1 import EquityBotV1

from holdem.bots.equity import EquityBot
from holdem.bots.match import MatchConfig, play_match


def decisions_per_second(bot: type, hands: int, seed: int) -> float:
    """The bot's decisions per second (its own time only), heads-up against the random bot."""
    result = play_match(MatchConfig((bot, "random"), seed=seed), hands)
    return result.bots[0].decisions / result.bots[0].seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=600, help="hands per speed run")
    parser.add_argument("--duel", type=int, default=4000, help="hands of the duplicate match (0: skip)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--round4", type=int, default=20000, help="hands against round 4's bot (0: skip)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, object] = {"cold_new": decisions_per_second(EquityBot, args.hands, args.seed)}
    old = new = 0.0
    for round_ in range(3):  # interleaved, best of three
        old = max(old, decisions_per_second(EquityBotV1, args.hands, args.seed + round_))
        new = max(new, decisions_per_second(EquityBot, args.hands, args.seed + round_))
    report |= {"old": old, "new": new, "speedup": new / old}
    if args.duel:
        start = time.perf_counter()
        duel = play_match(MatchConfig((EquityBot, EquityBotV1), seed=args.seed, duplicate=True), args.duel,
                          workers=args.workers)  # fmt: skip
        report["duel"] = {
            "hands": duel.hands,
            "new_bb_per_100": duel.bots[0].bb_per_100,
            "ci95": list(duel.bots[0].ci95),
            "seconds": time.perf_counter() - start,
        }
    if args.round4:
        for stack in (200, 40):
            config = MatchConfig((EquityBot, EquityBotRound4), stack=stack, seed=args.seed, duplicate=True)
            bot = play_match(config, args.round4, workers=args.workers).bots[0]
            report[f"round4_{stack // 2}bb"] = {"bb_per_100": bot.bb_per_100, "ci95": list(bot.ci95)}
    if args.json:
        print(json.dumps(report))
        return
    print(f"equity bot decisions/s, heads-up vs random: old {old:,.0f}, new {new:,.0f} "
          f"({report['speedup']:.1f}x); new on a cold start {report['cold_new']:,.0f}")  # fmt: skip
    if args.duel:
        d = report["duel"]
        assert isinstance(d, dict)
        low, high = d["ci95"]
        print(f"duplicate match, {d['hands']:,} hands: new bot {d['new_bb_per_100']:+.1f} bb/100 "
              f"against the old, 95% interval [{low:+.1f}, {high:+.1f}] ({d['seconds']:.0f} s)")  # fmt: skip
    for stack in (100, 20) if args.round4 else ():
        r = report[f"round4_{stack}bb"]
        assert isinstance(r, dict)
        low, high = r["ci95"]
        print(
            f"against round 4's bot, {args.round4:,} duplicate hands at {stack} bb: {r['bb_per_100']:+.1f}"
            f" bb/100, 95% interval [{low:+.1f}, {high:+.1f}]"
        )


if __name__ == "__main__":
    main()
