"""Presenting a match: a readable table, JSON-ready data, and the winnings-over-time plot."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from holdem.bots.match import MAX_FAULTS, MatchResult
from holdem.console.arguments import counted
from holdem.console.progress import counter

__all__ = ["as_dict", "format_table", "plot_winnings"]


def as_dict(result: MatchResult) -> dict[str, Any]:
    """The result as JSON-ready data (faults with the bot's traceback where it raised)."""
    return {
        "hands": result.hands,
        "deals": result.deals,
        "duplicate": result.duplicate,
        "seed": result.seed,
        "blinds": list(result.blinds),
        "stack": result.stack,
        "interrupted": result.interrupted,
        "bots": [
            {
                "name": b.name,
                "hands": b.hands,
                "chips": b.chips,
                "bb_per_100": b.bb_per_100,
                "ci95": list(b.ci95),
                "vpip": b.vpip,
                "pfr": b.pfr,
                "aggression": b.aggression,
                "faults": b.faults,
                **(
                    {}
                    if b.adjusted_bb_per_100 is None or b.adjusted_ci95 is None
                    else {
                        "adjusted_bb_per_100": b.adjusted_bb_per_100,
                        "adjusted_ci95": list(b.adjusted_ci95),
                    }
                ),
            }
            for b in result.bots
        ],
        **({} if result.all_in_hands is None else {"all_in_hands": result.all_in_hands}),
        "faults": [
            {"hand": f.hand, "bot": result.bots[f.bot].name, "reason": f.reason, "traceback": f.traceback}
            for f in result.faults
        ],
    }


def format_table(result: MatchResult, *, faults_shown: int = 10, debug: bool = False) -> str:
    """A readable table: one row per bot, then the first faults (`debug`: with the bots' tracebacks)."""
    mode = f"duplicate, {result.deals:,} deals" if result.duplicate else "plain"
    small, big = result.blinds
    lines = [
        f"{counted(result.hands, 'hand')} ({mode}), blinds {small}/{big}, stacks {result.stack},"
        f" seed {result.seed}"
    ]
    if result.interrupted:
        lines[0] += " (interrupted: the results of the hands played so far)"
    width = max(12, *(len(b.name) for b in result.bots))
    head = f"{'bot':<{width}} {'chips':>9} {'bb/100':>9}  {'95% interval':<21}"
    lines.append(f"{head} {'VPIP':>5} {'PFR':>5} {'AF':>5} {'faults':>6}")
    adjusted = result.all_in_hands is not None
    if adjusted:
        lines[-1] += f"  {'adjusted':>9}  95% interval"
    for b in result.bots:
        low, high = b.ci95
        af = f"{b.aggression:.1f}" if b.aggression is not None else "-"
        row = f"{b.name:<{width}} {b.chips:>9,} {b.bb_per_100:>9.1f}  [{low:>8.1f}, {high:>8.1f}]"
        row = f"{row}  {b.vpip:>5.0%} {b.pfr:>5.0%} {af:>5} {b.faults:>6}"
        if b.adjusted_bb_per_100 is not None and b.adjusted_ci95 is not None:
            low, high = b.adjusted_ci95
            row += f"  {b.adjusted_bb_per_100:>9.1f}  [{low:>8.1f}, {high:>8.1f}]"
        lines.append(row)
    if adjusted:
        lines.append(
            f"adjusted: {result.all_in_hands:,} all-in hands credited at their exact equity"
            " (holdem.bots.luck)"
        )
    for fault in result.faults[:faults_shown]:
        lines.append(f"fault: hand {fault.hand}, {result.bots[fault.bot].name}: {fault.reason}")
        if debug and fault.traceback:
            lines.append(fault.traceback.rstrip())
    total = sum(b.faults for b in result.bots)
    if total > faults_shown:
        lines.append(f"… and {total - faults_shown} more faults (--json lists the first {MAX_FAULTS:,})")
    elif result.faults and not debug and any(f.traceback for f in result.faults[:faults_shown]):
        lines.append("(--debug shows the bots' tracebacks)")
    return "\n".join(lines)


def plot_winnings(result: MatchResult, path: Path) -> None:
    """Save each bot's cumulative winnings over the hands as a PNG (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    hands = [0] + [h for h, _ in result.curve]
    for b, bot in enumerate(result.bots):
        ax.plot(hands, [0] + [chips[b] for _, chips in result.curve], label=bot.name)
    ax.set_xlabel("hand")
    ax.set_ylabel("chips won")
    ax.set_title("Winnings over the match")
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.legend()
    fig.tight_layout()
    fig.savefig(str(path), format="png")
    plt.close(fig)


def progress_bar(stream: Any = None, unit: str = "hands") -> Callable[[int, int], None] | None:
    """Deprecated (goes in 0.3): `holdem.console.progress.counter` (`stream` was never used)."""
    warnings.warn(
        "holdem.bots.report.progress_bar is deprecated and goes in holdem 0.3: use"
        " holdem.console.progress.counter",
        DeprecationWarning,
        stacklevel=2,
    )
    return counter(unit)
