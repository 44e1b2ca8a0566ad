"""Push/fold charts as people read them: 13 x 13, aces first, pairs on the diagonal, suited hands
above it; as text, as JSON-ready data, and as a PNG."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from holdem.pushfold.classes import NAMES
from holdem.pushfold.headsup import HeadsUp

__all__ = ["as_dict", "chart_lines", "format_chart", "hand_share", "plot_chart"]


def _cell(name: str, weight: float) -> str:
    """A class played always (its name), never (``.``), or sometimes (its name and ``*``; the
    percentage is listed under the chart)."""
    if weight >= 0.995:
        return name
    if weight < 0.005:
        return "."
    return f"{name}*"


def _grid(weights: npt.NDArray[np.float64], near: npt.NDArray[np.bool_] | None = None) -> list[str]:
    """13 rows of 13 cells, 64 columns: fits a terminal of 80. A class `near` indifference is its
    name and ``~``, whatever it plays."""
    cells = [
        f"{NAMES[k]}~" if near is not None and near[k] else _cell(NAMES[k], weights[k]) for k in range(169)
    ]
    return [" ".join(f"{cells[13 * r + c]:>4}" for c in range(13)) for r in range(13)]


def chart_lines(
    weights: npt.NDArray[np.float64],
    gaps: npt.NDArray[np.float64] | None = None,
    near: npt.NDArray[np.bool_] | None = None,
) -> list[str]:
    """A 13 x 13 chart of how often each class is played, in 80 columns, and under it the classes
    played sometimes with their shares; given each class's `gaps` (the gain of playing over
    folding, in shares of the prize pool) and which are `near` indifference, those are marked and
    listed with their gaps instead."""
    if gaps is None or near is None:
        mixed = _mixed(weights)
        return _grid(weights) + ([] if mixed is None else mixed.split("\n"))
    listed = [
        f"{NAMES[k]} {100 * np.nan_to_num(gaps[k]):+.1f} ({weights[k]:.0%})" for k in range(169) if near[k]
    ]
    clear = np.where(near, 0.0, weights)
    mixed = _mixed(clear)
    lines = _grid(weights, near) + ([] if mixed is None else mixed.split("\n"))
    if listed:
        text = (
            "~ near indifference, with the gain of playing over folding in % of the prize pool and"
            f" how often the solver plays it: {', '.join(listed)}"
        )
        lines += textwrap.wrap(text, width=78, subsequent_indent="  ")
    return lines


def _mixed(weights: npt.NDArray[np.float64]) -> str | None:
    """The classes played sometimes, with how often (None when there are none)."""
    mixed = [f"{NAMES[k]} {weights[k]:.0%}" for k in range(169) if 0.005 <= weights[k] < 0.995]
    if not mixed:
        return None
    return "\n".join(
        textwrap.wrap(
            f"* sometimes: {', '.join(mixed)} (near indifference: the solver's mix, within its"
            " tolerance; the exact one may differ)",
            width=78,
            subsequent_indent="  ",
        )
    )


def hand_share(weights: npt.NDArray[np.float64]) -> float:
    """The share of the 1,326 hands a range holds."""
    combos = np.array([6 if n[0] == n[1] else 4 if n.endswith("s") else 12 for n in NAMES])
    return float((weights * combos).sum() / 1326)


def format_chart(solution: HeadsUp) -> str:
    """Both sides' charts, one above the other (80 columns), the classes played sometimes under
    each, with the stack, the value and the exploitability."""
    ante = f", ante {solution.ante:g}" if solution.ante else ""
    lines = [
        f"heads-up push/fold at {solution.stack:g} big blinds{ante}:",
        f"the small blind pushes {hand_share(solution.push):.1%} of hands, the big blind calls"
        f" {hand_share(solution.call):.1%}",
    ]
    for title, weights in (("small blind: push", solution.push), ("big blind: call", solution.call)):
        lines += ["", title, *chart_lines(weights)]
    lines += [
        "",
        f"value to the small blind {solution.value:+.4f} BB a hand; a best response gains at most",
        f"{solution.push_exploitability:.6f} BB against the pushes, {solution.call_exploitability:.6f} "
        f"against the calls ({solution.iterations:,} CFR+ iterations)",
    ]
    return "\n".join(lines)


def as_dict(solution: HeadsUp) -> dict[str, Any]:
    """The solution as JSON-ready data: each class's push and call probability, the ranges, the value."""
    return {
        "stack": solution.stack,
        "ante": solution.ante,
        "push": {n: round(float(w), 6) for n, w in zip(NAMES, solution.push, strict=True)},
        "call": {n: round(float(w), 6) for n, w in zip(NAMES, solution.call, strict=True)},
        "push_range": solution.push_range,
        "call_range": solution.call_range,
        "value": solution.value,
        "exploitability": {"push": solution.push_exploitability, "call": solution.call_exploitability},
        "iterations": solution.iterations,
    }


def plot_chart(solution: HeadsUp, path: Path) -> None:
    """Both charts as a PNG: each cell shaded by how often the class is played (the scale beside
    them), and named in a colour that reads on its shade."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(13, 6.5))
    for ax, weights, title in (
        (axes[0], solution.push, "small blind: push"),
        (axes[1], solution.call, "big blind: call"),
    ):
        image = ax.imshow(weights.reshape(13, 13), cmap="Greens", vmin=0, vmax=1)
        for k, name in enumerate(NAMES):
            colour = "white" if weights[k] > 0.6 else "black"  # dark green takes white letters
            ax.text(k % 13, k // 13, name, ha="center", va="center", fontsize=7, color=colour)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(title)
    figure.colorbar(image, ax=list(axes), shrink=0.8, label="share of the class played (push or call)")
    figure.suptitle(
        f"heads-up push/fold, {solution.stack:g} big blinds"
        + (f", ante {solution.ante:g}" if solution.ante else "")
    )
    figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(figure)
