"""A stored hand as one of its players may see it: its PHH and PokerStars text with no hole card but
their own and those shown down, and its steps for the browser's replay.

The stored PHH holds every hole card (the server keeps the whole hand). A player gets the hand with
the other players' unshown cards written ``????``, as PHH writes a card nobody knows; the PokerStars
text has "Dealt to" for that player alone, as a site's history for one player does. The host and the
admin see it as a spectator would after the hand: the cards shown, nobody's else.
"""

from __future__ import annotations

import re
from typing import Any

from holdem.errors import HoldemError, RequestError
from holdem.formats import phh
from holdem.formats.pokerstars.write import write_hand
from holdem.server.handlog import hand_log

__all__ = ["as_seen_by", "player_names", "with_table"]

_DEALT = re.compile(r"^d dh p(\d+) (\S+)(.*)$")


def player_names(text: str) -> list[str]:
    """The names of the players a stored hand dealt in."""
    return [str(name) for name in phh.loads(text)[0].get("players", [])]


def as_seen_by(text: str, me: int | None) -> dict[str, Any]:
    """The stored hand `text` as its player `me` (an index in its players) sees it (None: as a
    spectator sees it once it is over): ``phh``, ``pokerstars`` (None, with ``pokerstars_error``,
    when the hand cannot be written in that form), and for the replay ``players``, ``seats``,
    ``seat_count``, ``button`` (a seat, or None under a dead button), ``stacks`` (at the start),
    ``blinds``, ``you`` (the player's index or None) and ``steps`` (the log as that player saw it,
    each step with the table after it: ``stacks`` and ``bets`` by player, ``pot``, ``board``)."""
    try:
        doc = phh.loads(text)[0]
        hand = phh.replay(doc).hand
    except HoldemError as error:  # pragma: no cover - the server wrote it
        raise RequestError(f"the stored hand cannot be read: {error}", 500) from None
    assert hand is not None and hand.result is not None
    names = [str(n) for n in doc.get("players", [])]
    keep = {k for k, cards in enumerate(hand.result.shown) if cards} | ({me} if me is not None else set())
    hidden = dict(doc) | {"actions": [_hide(line, keep) for line in doc["actions"]]}
    seats = tuple(int(s) - 1 for s in doc.get("seats", range(1, len(names) + 1)))
    seen: dict[str, Any] = {
        "number": doc.get("hand"),
        "phh": phh.dumps(hidden),
        "pokerstars": None,
        "players": names,
        "seats": list(seats),
        "seat_count": int(doc.get("seat_count", max(seats) + 1)),
        "button": seats[hand.button] if hand.button is not None else None,
        "stacks": list(hand.starting_stacks),
        "blinds": [int(b) for b in doc.get("blinds_or_straddles", [])],
        "you": me,
        "steps": with_table(hand_log(hand, seats, me), list(hand.starting_stacks), seats),
    }
    try:
        number = int(doc.get("hand", 1))
        seen["pokerstars"] = write_hand(doc, number, dealt_to=() if me is None else (me,))
    except HoldemError as error:
        seen["pokerstars_error"] = str(error)
    return seen


def with_table(
    steps: list[dict[str, Any]], stacks: list[int], seats: tuple[int, ...]
) -> list[dict[str, Any]]:
    """Each step of a hand's log with the table as it stands after it: every player's stack and bet
    this street, the pot (bets included) and the board (the browser's replay draws these; it
    worked them out itself before). A blind, an ante, a call or a raise moves chips from the stack
    to the bet (an ante straight to the pot); a board collects the bets; an uncalled bet and a win
    go back to the stack."""
    stacks, bets, pot, board = list(stacks), [0] * len(stacks), 0, list[str]()
    out = []
    for step in steps:
        k = seats.index(step["seat"]) if step["seat"] is not None else None
        put = step["amount"] if step["kind"] in ("blind", "ante") else step.get("chips") or 0
        back = step["amount"] if step["kind"] in ("uncalled", "win") else 0
        if k is not None:
            stacks[k] += back - put
            bets[k] += (put if step["kind"] != "ante" else 0) - (back if step["kind"] == "uncalled" else 0)
        pot += put - back
        if step["kind"] == "board":
            board, bets = board + step["cards"], [0] * len(bets)
        out.append(step | {"stacks": list(stacks), "bets": list(bets), "pot": pot, "board": list(board)})
    return out


def _hide(line: str, keep: set[int]) -> str:
    """A hole-card deal of a player not in `keep` (by index), with the cards written unknown."""
    found = _DEALT.match(line)
    if found is None or int(found[1]) - 1 in keep:
        return line
    return f"d dh p{found[1]} {'??' * (len(found[2]) // 2)}{found[3]}"
