"""The tracker's graph: a player's big blinds won over their hands, split into the hands that went to
showdown and those that did not (needs matplotlib: ``holdem[plot]``)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import accumulate
from pathlib import Path

from holdem.stats.collect import Results

__all__ = ["MOST_PANELS", "plot_results"]

MOST_PANELS = 6
"""Players drawn at most, one panel each (those with the most hands)."""


def plot_results(results: Mapping[str, Results], path: Path) -> list[str]:
    """Save the graph of each player in `results` (the `MOST_PANELS` with most hands) as a PNG;
    the players drawn, one panel each, in order."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    players = sorted(results, key=lambda name: (-len(results[name].won), name))[:MOST_PANELS]
    figure, axes = plt.subplots(len(players), 1, figsize=(9, 3.2 * len(players)), squeeze=False)
    for ax, name in zip(axes[:, 0], players, strict=True):
        mine = results[name]
        order = mine.in_order()
        won = [mine.won[k] for k in order]
        at_showdown = [mine.won[k] if mine.showdown[k] else 0.0 for k in order]
        without = [mine.won[k] if not mine.showdown[k] else 0.0 for k in order]
        hands = range(1, len(won) + 1)
        ax.plot(hands, list(accumulate(won)), color="tab:green", label="all hands")
        ax.plot(hands, list(accumulate(at_showdown)), color="tab:blue", label="at showdown")
        ax.plot(hands, list(accumulate(without)), color="tab:red", label="without showdown")
        ax.axhline(0, color="grey", linewidth=0.5)
        ax.set_title(name)
        ax.set_ylabel("big blinds won")
        ax.legend(loc="upper left", fontsize=8)
    dated = all(None not in results[name].when for name in players)
    axes[-1, 0].set_xlabel("hands, by date" if dated else "hands, in the order read (some have no date)")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return players
