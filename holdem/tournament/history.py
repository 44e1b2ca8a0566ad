"""Tournament hands as PHH: the standard fields, plus where and when each hand was played.

Each hand carries `event`, `table` (its number), `hand` (its number in the run), `level` (from 1),
`seats` (1-based, one per player), `seat_count` and `players` (entrant names, unique in a run), so
every entrant can be followed from hand to hand, and `_bots` (a user field: the bot each player of
the hand plays, for ``holdem stats --by bot``); every hand replays with ``holdem replay``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from holdem.formats import phh
from holdem.tournament.run import HandPlayed, TournamentConfig, TournamentRun, play_tournament

__all__ = ["hand_document", "run_history", "stack_trace"]


def hand_document(played: HandPlayed, event: str) -> dict[str, Any]:
    """The PHH document of one tournament hand."""
    return phh.export(played.hand) | {
        "event": event,
        "table": played.table,
        "hand": played.number,
        "level": played.level,
        "seats": list(played.seats),
        "seat_count": played.seat_count,
        "players": list(played.players),
        "_bots": list(played.bots),
    }


def run_history(
    config: TournamentConfig, run: int, *, on_hand: Callable[[HandPlayed], None] | None = None
) -> tuple[TournamentRun, str]:
    """Play run `run` of `config`, returning it and its hands as .phhs text (in the order they
    started); `on_hand` sees every finished hand too."""
    structure, seed = config.structure.name, config.seed
    event = f"holdem tournament: {config.entrants} entrants, {structure}, seed {seed}, run {run}"
    parts: list[str] = []

    def record(played: HandPlayed) -> None:
        parts.append(f"[{played.number}]\n{phh.dumps(hand_document(played, event))}")
        if on_hand is not None:
            on_hand(played)

    result = play_tournament(config, run, on_hand=record)
    return result, "\n".join(parts)


def stack_trace(config: TournamentConfig, run: int) -> dict[str, list[tuple[float, int]]]:
    """Replay run `run` of `config` and return each entrant's (minute, chips) after every hand it
    played, starting from (0, starting stack); a busted entrant's trace ends at 0."""
    start = config.structure.starting_stack
    trace: dict[str, list[tuple[float, int]]] = {}

    def record(played: HandPlayed) -> None:
        result = played.hand.result
        assert result is not None  # the hand is finished
        for name, chips in zip(played.players, result.final_stacks, strict=True):
            trace.setdefault(name, [(0.0, start)]).append((played.minute, chips))

    play_tournament(config, run, on_hand=record)
    return trace
