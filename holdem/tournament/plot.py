"""The tournament picture: each bot's finish distribution, and chip stacks over one run (needs matplotlib)."""

from __future__ import annotations

from pathlib import Path

from holdem.tournament.series import TournamentSeries

__all__ = ["plot_series"]


def plot_series(series: TournamentSeries, trace: dict[str, list[tuple[float, int]]], path: Path) -> None:
    """Save a PNG: per bot, the share of its entries finishing in each place (left), and every
    entrant's chips over the tournament clock in the run `trace` comes from (right)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, (places, stacks) = plt.subplots(1, 2, figsize=(12, 4.5))
    n, bots = series.config.entrants, series.bots
    width = 0.8 / len(bots)
    colours = {b.name: f"C{k % 10}" for k, b in enumerate(bots)}
    for k, bot in enumerate(bots):
        shares = [count / bot.entries for count in bot.places]
        x = [p + 1 - 0.4 + width * (k + 0.5) for p in range(n)]
        places.bar(x, shares, width=width, label=bot.name, color=colours[bot.name])
    places.xaxis.set_major_locator(MaxNLocator(integer=True))
    places.set_xlabel("place")
    places.set_ylabel("share of entries")
    places.set_title(f"Finishes over {len(series.runs):,} tournaments")
    places.legend()
    entrant_bot = {f.entrant: f.bot for f in series.runs[0].finishes}
    for name, points in trace.items():
        minutes = [m for m, _ in points]
        chips = [c for _, c in points]
        stacks.step(
            minutes, chips, where="post", linewidth=0.8, color=colours.get(entrant_bot.get(name, ""), "C0")
        )
    stacks.set_xlabel("tournament clock (minutes)")
    stacks.set_ylabel("chips")
    stacks.set_title("Chip stacks in run 0 (colour: bot)")
    fig.tight_layout()
    fig.savefig(str(path), format="png")
    plt.close(fig)
