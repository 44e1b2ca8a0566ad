"""A node for a person: the range's action frequencies as 13x13 grids in 80 columns, or a PNG."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from holdem.cards.card import format_cards
from holdem.solver.result import RANKS_DOWN, NodeResult, grid

__all__ = ["format_node", "plot_node"]


def _title(result: NodeResult) -> str:
    who = ("out of position", "in position")[result.player]
    where = f"after {result.path!r}" if result.path else "at the root"
    return f"{result.street} {format_cards(result.board, ' ')}, pot {result.pot}: {who} acts {where}"


def _cell(value: float) -> str:
    return "    ." if math.isnan(value) else f"{round(100 * value):5d}"


def format_node(result: NodeResult) -> str:
    """Each action's share of the range, then a grid per action of its percentage in each hand
    class (rows and columns A to 2; suited above the diagonal, offsuit below; '.' not in range)."""
    lines = [_title(result)]
    frequencies = result.frequencies()
    lines.append("  ".join(f"{a}: {100 * f:.1f}%" for a, f in frequencies.items()))
    header = "  " + "".join(f"{r:>5} " for r in RANKS_DOWN)
    for action, cells in grid(result).items():
        lines += [
            "",
            f"{action} ({100 * frequencies[action]:.1f}% of the range), percent of each class:",
            header,
        ]
        lines += [f"{RANKS_DOWN[i]} " + "".join(_cell(v) + " " for v in row) for i, row in enumerate(cells)]
    return "\n".join(line.rstrip() for line in lines)


def plot_node(result: NodeResult, path: str | Path) -> None:
    """Save the grids as a PNG: one panel an action, darker where the action is taken more."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grids = grid(result)
    count = len(grids)
    fig, axes = plt.subplots(1, count, figsize=(4.2 * count, 4.6), squeeze=False)
    for ax, (action, cells) in zip(axes[0], grids.items(), strict=True):
        ax.imshow(np.nan_to_num(cells, nan=-0.05), cmap="Greens", vmin=-0.05, vmax=1)
        ax.set_title(f"{action}: {100 * result.frequencies()[action]:.1f}%")
        ax.set_xticks(range(13), list(RANKS_DOWN))
        ax.set_yticks(range(13), list(RANKS_DOWN))
        for i in range(13):
            for j in range(13):
                if not math.isnan(cells[i, j]):
                    ax.text(j, i, f"{round(100 * cells[i, j])}", ha="center", va="center", fontsize=6)
    fig.suptitle(_title(result))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
