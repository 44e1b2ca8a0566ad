"""PHH to PokerStars: a hand history document written as PokerStars text.

The hand is replayed through the engine first (`holdem.formats.phh.replay`), so what is written is what
the rules give: posts, amounts called, ``raises X to Y``, all-ins, uncalled bets, showdown,
``collected`` lines per pot, and the summary. Every hole card the document knows is written as a
``Dealt to`` line, so the text converts back to the same hand. Nothing is made up: a document
without a date, table name or table size is written without one (PokerStars text must name its
players, seats, hand number and a tournament's level, so those default to p1…, seats 1…, the
hand's place in the file and level I).
"""

from __future__ import annotations

import datetime
import re
import zoneinfo
from collections.abc import Collection, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from holdem.cards.card import Card, Rank
from holdem.cards.evaluator import HandCategory, evaluate
from holdem.errors import InvalidHistoryError
from holdem.formats.phh import replay
from holdem.hand.events import EventKind, Phase
from holdem.hand.pots import Pot
from holdem.hand.showdown import by_board
from holdem.hand.stakes import Structure
from holdem.hand.state import Hand
from holdem.hand.views import chips_put_in

__all__ = ["money_formatter", "write_hand"]

_SHOWS = re.compile(r"p[0-9]{1,2} sm (?:[2-9TJQKA][cdhs]|\?\?){2}")  # a show of two cards (?? unknown)

SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "$", "AUD": "$"}
_GAMES = {
    Structure.NO_LIMIT: "No Limit", Structure.POT_LIMIT: "Pot Limit", Structure.FIXED_LIMIT: "Limit",
    Structure.POT_LIMIT_PREFLOP: "Pot Limit Pre-Flop, No Limit Post-Flop",
}  # fmt: skip
_STREETS = {Phase.FLOP: "FLOP", Phase.TURN: "TURN", Phase.RIVER: "RIVER"}
_FOLDED_ON = {Phase.PREFLOP: "before Flop", Phase.FLOP: "on the Flop", Phase.TURN: "on the Turn"}


def money_formatter(currency: str | None) -> Any:
    """Chips as text: whole cents as ``$0.25``/``$1`` with a currency, plain numbers without."""
    if not currency:
        return str
    symbol = SYMBOLS.get(currency, "")

    def money(cents: int) -> str:
        whole, part = divmod(cents, 100)
        return f"{symbol}{whole}" if not part else f"{symbol}{whole}.{part:02d}"

    return money


def _cards(cards: Sequence[Card]) -> str:
    return "[" + " ".join(map(str, cards)) + "]"


def write_hand(doc: Mapping[str, Any], number: int = 1, *, dealt_to: Collection[int] | None = None) -> str:
    """One PHH document as a PokerStars hand (raises `InvalidHistoryError` when it cannot be).
    `dealt_to`: the players (by index) whose hole cards are written as dealt, as in a history a site
    gives one player (None: every player whose cards the document knows); cards shown are written
    whatever it says."""
    result = replay(doc)
    hand = result.hand
    if hand is None or not result.settled or hand.result is None:
        raise InvalidHistoryError("the showdown cards are unknown, so the hand cannot be written out")
    unknown = {
        int(line.split(" ")[2][1:]) - 1
        for line in doc["actions"]
        if line.startswith("d dh p") and "?" in line
    }  # hole cards the document does not know (the replay dealt stand-ins): no Dealt to line
    n = len(hand.starting_stacks)
    names = [str(x) for x in doc.get("players", [f"p{i + 1}" for i in range(n)])]
    seats = [int(x) for x in doc.get("seats", range(1, n + 1))]
    if len(names) != n or len(seats) != n or len(set(names)) != n:
        raise InvalidHistoryError(f"players and seats must name {n} distinct players")
    money = money_formatter(doc.get("currency"))
    lines = _header(doc, hand, names, seats, money, number)
    lines += _posts(hand, names, money, _players(doc, "_blinds_apart", n))
    lines.append("*** HOLE CARDS ***")
    known = [p for p in range(n) if p not in unknown and (dealt_to is None or p in dealt_to)]
    lines += [f"Dealt to {names[p]} {_cards(hand.holes[p])}" for p in known]
    # A showdown settled by the document (cards nobody knows): its own shows, not the stand-ins'.
    shown = _shown(doc) if result.by_history else None
    lines += _play(hand, names, money, shown)
    won, rake = _winnings(doc, hand, checked=result.by_history)
    boards = _by_board(hand, won) if hand.second_board else None
    lines += (
        _collected(hand, won, rake, names, money) if boards is None else _twice(hand, boards, names, money)
    )
    live = [p for p, folded in enumerate(hand.folded) if not folded]
    if len(live) == 1:  # won without a showdown: the site says the winner kept their cards hidden
        lines.append(f"{names[live[0]]}: doesn't show hand")
    lines += _summary(hand, won, rake, names, seats, money, shown, unknown, boards)
    return "\n".join(lines) + "\n"


def _first_line(doc: Mapping[str, Any], game: str, stakes: tuple[int, int], money: Any, number: int) -> str:
    """The hand's first line: a cash game's stakes or a tournament's level, with what the site named
    beside the game (a buy-in, a home game's club, a mixed table's name) when the document keeps it."""
    low, high = stakes
    when, ident = _when(doc), doc.get("hand", number)
    club, buy_in, mixed = (_words(doc, field) for field in ("_club", "_buy_in", "_mixed"))
    site = f"PokerStars Home Game Hand #{ident}: {{{club}}}" if club else f"PokerStars Hand #{ident}: "
    if doc.get("event") is not None:  # a tournament: chips without currency
        level = _words(doc, "_level") or "I"
        head = f"{site.rstrip()} Tournament #{doc['event']}, {buy_in + ' ' if buy_in else ''}{game}"
        return head + f" - Level {level} ({low}/{high}){when}"
    currency = f" {doc['currency']}" if doc.get("currency") else ""
    stakes_text = f"{money(low)}/{money(high)}{currency}"
    return f"{site} {f'{mixed} ({game}, {stakes_text})' if mixed else f'{game} ({stakes_text})'}{when}"


def _words(doc: Mapping[str, Any], field: str) -> str | None:
    """A user field of text the first line carries (`_club`, `_buy_in`, `_mixed`, `_level`): one line,
    without the braces that frame a club's name."""
    value = doc.get(field)
    if value is None:
        return None
    if type(value) is int and field == "_level":
        return str(value)  # a level by number
    if not isinstance(value, str) or not value.strip() or any(c in value for c in "\n\r{}"):
        raise InvalidHistoryError(f"{field} must be a line of text without braces, got {value!r:.40}")
    return value


def _players(doc: Mapping[str, Any], field: str, n: int) -> set[int]:
    """A user field listing players by index in dealing order (`_sitting_out`, `_blinds_apart`)."""
    value = doc.get(field, [])
    if not isinstance(value, list) or not all(type(p) is int and 0 <= p < n for p in value):
        raise InvalidHistoryError(f"{field} must be a list of players 0 to {n - 1}, got {value!r:.40}")
    return set(value)


def _header(
    doc: Mapping[str, Any], hand: Hand, names: list[str], seats: list[int], money: Any, number: int
) -> list[str]:
    stakes = hand.stakes
    low, high = (
        stakes.bet_sizes
        if stakes.structure is Structure.FIXED_LIMIT
        else (stakes.small_blind, stakes.big_blind)
    )
    head = _first_line(doc, f"Hold'em {_GAMES[stakes.structure]}", (low, high), money, number)
    n = len(names)
    table = str(doc.get("table", ""))  # no name is made up (`holdem convert` gives the file's), nor a size
    size = f"{doc['seat_count']}-max " if "seat_count" in doc else ""
    lines = [head, f"Table '{table}' {size}Seat #{seats[n - 1]} is the button"]
    order = sorted(range(n), key=seats.__getitem__)
    away = _players(doc, "_sitting_out", n)
    lines += [
        f"Seat {seats[p]}: {names[p]} ({money(hand.starting_stacks[p])} in chips)"
        + (" is sitting out" if p in away else "")
        for p in order
    ]
    return lines


def _when(doc: Mapping[str, Any]) -> str:
    """The first line's date and time: as PokerStars writes them, in ET, and for a hand timed in
    another zone (PHH's ``time_zone``, as `holdem serve` stores in UTC) that zone's time first with ET's
    in brackets. Nothing is made up: a document without a date is written without one."""
    if not all(key in doc for key in ("year", "month", "day")):
        return ""
    date = f"{doc['year']:04d}/{doc['month']:02d}/{doc['day']:02d}"
    clock = str(doc.get("time", "00:00:00"))
    zone = doc.get("time_zone")
    if zone is None or zone in _EASTERN:
        return f" - {date} {clock} ET"
    try:
        at = datetime.datetime.strptime(f"{date} {clock}", "%Y/%m/%d %H:%M:%S")
        eastern = at.replace(tzinfo=zoneinfo.ZoneInfo(str(zone))).astimezone(zoneinfo.ZoneInfo(_EASTERN[0]))
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return f" - {date} {clock} {zone}"  # a zone this machine does not know: its own time alone
    short = doc.get("_zone_label") or at.replace(tzinfo=zoneinfo.ZoneInfo(str(zone))).tzname() or zone
    return f" - {date} {clock} {short} [{eastern:%Y/%m/%d} {eastern.hour}:{eastern:%M:%S} ET]"


_EASTERN = ("America/New_York", "ET", "US/Eastern")
"""PHH ``time_zone`` values that are PokerStars' own ET."""


def _posts(hand: Hand, names: list[str], money: Any, apart: Collection[int] = ()) -> list[str]:
    """Antes, then blinds, the small blind first (heads-up too, where the button posts it); a dead
    small blind with a big blind is ``posts small & big blinds`` (two lines, small then big, for the
    players in `apart`, as older texts have it), a blind over the big blind (a straddle, from the
    third seat on) ``posts straddle``."""
    stakes, antes, blinds = hand.stakes, list[str](), list[str]()
    posted = dict.fromkeys(range(len(names)), 0)
    anted: set[int] = set()  # the players whose ante is posted (a later ante event is dead money)
    for event in hand.events():
        if event.kind not in (EventKind.ANTE, EventKind.BLIND):
            continue
        p, amount = event.player, event.amount or 0
        assert p is not None
        posted[p] += amount
        all_in = " and is all-in" if posted[p] == hand.starting_stacks[p] else ""
        if event.kind == EventKind.BLIND:
            if p >= 2 and hand.declared_blinds[p] > stakes.big_blind:  # a blind over the big blind
                blinds.append(f"{names[p]}: posts straddle {money(amount)}{all_in}")
                continue
            kind = "small" if _is_small_blind(hand, p) else "big"
            blinds.append(f"{names[p]}: posts {kind} blind {money(amount)}{all_in}")
        elif hand.declared_dead[p] and not hand.declared_blinds[p] and (p in anted or not stakes.ante):
            blinds.append(
                f"{names[p]}: posts small blind {money(amount)}{all_in}"
            )  # a dead small blind alone
        elif posted[p] > amount and hand.declared_dead[p]:  # the dead part, after the player's blind
            if hand.declared_blinds[p] != stakes.big_blind:
                raise InvalidHistoryError("dead money without a big blind has no PokerStars form")
            if p in apart:
                blinds[-1:] = [f"{names[p]}: posts small blind {money(amount)}",
                               f"{names[p]}: posts big blind {money(stakes.big_blind)}{all_in}"]  # fmt: skip
            else:
                blinds[-1] = (
                    f"{names[p]}: posts small & big blinds {money(amount + stakes.big_blind)}{all_in}"
                )
        else:
            anted.add(p)
            antes.append(f"{names[p]}: posts the ante {money(amount)}{all_in}")
    if len(names) == 2:
        blinds.sort(key=lambda line: " posts small blind " not in line)
    return antes + blinds


def _is_small_blind(hand: Hand, p: int) -> bool:
    """Whether player `p`'s blind is the small blind: posted from the small blind's place (the first
    player, heads-up the button) and less than a big blind. A big blind short of chips, even one
    above the small blind's amount, is still the big blind ("posts big blind 180 and is all-in")."""
    place = 1 if len(hand.starting_stacks) == 2 else 0
    return p == place and hand.declared_blinds[p] < hand.stakes.big_blind


def _shown(doc: Mapping[str, Any]) -> dict[int, str]:
    """The players a document shows at the showdown (``pN sm CARDS``)."""
    return {int(line.split(" ")[0][1:]) - 1: line[-4:] for line in doc["actions"] if _SHOWS.fullmatch(line)}


def _face(cards: str) -> str:
    """Two cards a document shows, as written: ``[XX Qs]`` for ``??Qs`` (a card hidden by hand)."""
    return "[" + " ".join("XX" if c == "??" else c for c in (cards[:2], cards[2:])) + "]"


def _play(hand: Hand, names: list[str], money: Any, shown: dict[int, str] | None = None) -> list[str]:
    """The betting, the streets, uncalled bets and the showdown (`shown`: who shows, when the
    engine's showdown was played on stand-in cards)."""
    put_in = chips_put_in(hand)
    lines: list[str] = []
    board: list[Card] = []
    showdown = False
    level = max(hand.declared_blinds)  # a short blind posts less, but the others call the full blind
    rerun, run = _rerun_from(hand), "FIRST "
    for k, event in enumerate(hand.events()):
        p = event.player
        if event.kind == EventKind.BOARD:
            if rerun is not None and len(board) == 5:  # run twice: the second run-out, after the all-in
                board, run = list(hand.board[:rerun]), "SECOND "
            before, board = list(board), board + list(event.cards)
            street = _STREETS[Phase(len(board) - 2 if len(board) > 3 else 1)]
            new = f" {_cards(event.cards)}" if before else ""
            label = run if rerun is not None and len(board) > rerun else ""
            lines.append(f"*** {label}{street} *** {_cards(before or board)}{new}")
            level = 0
        elif event.kind == EventKind.ACTION and p is not None and event.action is not None:
            kind = event.action.kind.value
            if kind in ("fold", "check"):
                lines.append(f"{names[p]}: {kind}s")
                continue
            paid, all_in = put_in[k]
            if kind == "call":
                text = f"calls {money(paid)}"
            else:
                to = event.action.amount or 0
                text = f"bets {money(to)}" if level == 0 else f"raises {money(to - level)} to {money(to)}"
                level = max(level, to)
            lines.append(f"{names[p]}: {text}{' and is all-in' if all_in else ''}")
        elif event.kind == EventKind.UNCALLED and p is not None:
            lines.append(f"Uncalled bet ({money(event.amount or 0)}) returned to {names[p]}")
        elif event.kind in (EventKind.SHOW, EventKind.MUCK) and p is not None and rerun is None:
            if not showdown:
                lines.append("*** SHOW DOWN ***")
                showdown = True
            if event.kind == EventKind.MUCK if shown is None else p not in shown:
                lines.append(f"{names[p]}: mucks hand")
            elif shown is not None and "?" in shown[p]:  # a card hidden: no hand to name
                lines.append(f"{names[p]}: shows {_face(shown[p])}")
            else:
                lines.append(f"{names[p]}: shows {_cards(hand.holes[p])} ({_describe(hand, p)})")
    return lines


def _rerun_from(hand: Hand) -> int | None:
    """A hand run twice: how many board cards both run-outs share (None: run once)."""
    if not hand.second_board:
        return None
    return next(k for k, (a, b) in enumerate(zip(hand.board, hand.second_board, strict=True)) if a != b)


def _by_board(hand: Hand, won: list[int]) -> list[list[int]]:
    """A hand run twice: what each player collected on each board. The engine pays each board its
    half of every pot; a player's collected chips (less any rake) are split between the boards in
    the proportion of those payouts (read back, the two are added up again)."""
    assert hand.result is not None
    holes = [(a.index, b.index) for a, b in hand.holes]
    live = [p for p, folded in enumerate(hand.folded) if not folded]
    boards = ([c.index for c in hand.board], [c.index for c in hand.second_board])
    paid = [payouts for payouts, _ in by_board(hand.result.pots, live, holes, boards)]
    second = [w * b // (a + b) if a + b else 0 for w, a, b in zip(won, *paid, strict=True)]
    return [[w - s for w, s in zip(won, second, strict=True)], second]


def _twice(hand: Hand, boards: list[list[int]], names: list[str], money: Any) -> list[str]:
    """The two showdowns of a hand run twice, each with the hands on its board and what it paid."""
    shows = [e.player for e in hand.events() if e.kind == EventKind.SHOW and e.player is not None]
    lines = []
    for run, board, paid in (("FIRST", hand.board, boards[0]), ("SECOND", hand.second_board, boards[1])):
        lines.append(f"*** {run} SHOW DOWN ***")
        lines += [f"{names[p]}: shows {_cards(hand.holes[p])} ({_describe(hand, p, board)})" for p in shows]
        lines += [f"{names[p]} collected {money(c)} from pot" for p, c in enumerate(paid) if c]
    return lines


def _describe(hand: Hand, p: int, board: Sequence[Card] | None = None) -> str:
    """A player's best hand in PokerStars' words, from ``high card Ace`` through ``a pair of Deuces``
    and ``a straight, Ace to Five`` to ``a Royal Flush`` (as its own histories word them), on the
    hand's board or on `board` (a second run-out)."""
    best = evaluate([*hand.holes[p], *(hand.board if board is None else board)])
    ranks = [card.rank for card in best.best_five]  # by group size, then rank; the wheel's ace last
    top, second, low = ranks[0], ranks[2], ranks[4]
    match best.category:
        case HandCategory.HIGH_CARD:
            return f"high card {_rank(top)}"
        case HandCategory.ONE_PAIR:
            return f"a pair of {_rank(top, plural=True)}"
        case HandCategory.TWO_PAIR:
            return f"two pair, {_rank(top, plural=True)} and {_rank(second, plural=True)}"
        case HandCategory.THREE_OF_A_KIND:
            return f"three of a kind, {_rank(top, plural=True)}"
        case HandCategory.STRAIGHT:
            return f"a straight, {_rank(low)} to {_rank(top)}"
        case HandCategory.FLUSH:
            return f"a flush, {_rank(top)} high"
        case HandCategory.FULL_HOUSE:
            return f"a full house, {_rank(top, plural=True)} full of {_rank(ranks[3], plural=True)}"
        case HandCategory.FOUR_OF_A_KIND:
            return f"four of a kind, {_rank(top, plural=True)}"
        case _:
            return (
                "a Royal Flush"
                if best.name == "Royal Flush"
                else f"a straight flush, {_rank(low)} to {_rank(top)}"
            )


def _rank(rank: int, *, plural: bool = False) -> str:
    """A rank as PokerStars names it: the two is a Deuce; Sixes, Deuces, Aces."""
    word = "Deuce" if rank == Rank.TWO else Rank(rank).name.title()
    return word if not plural else word + ("es" if word.endswith("x") else "s")


def _winnings(doc: Mapping[str, Any], hand: Hand, *, checked: bool = False) -> tuple[list[int], int]:
    """Each player's collected chips and the rake: the document's own (``winnings``, ``_rake``) when
    it states them, checked against the engine's payouts (each player collects at most their payout,
    and the rake is the difference), else the engine's payouts. `checked`: the replay settled the
    hand from the document (`settlement_problem`), whose winnings are then its finishing stacks'."""
    assert hand.result is not None
    payouts = list(hand.result.payouts)
    rake = int(doc.get("_rake", 0))
    if checked:
        before = [f - p for f, p in zip(hand.result.final_stacks, payouts, strict=True)]
        return [end - start for end, start in zip(doc["finishing_stacks"], before, strict=True)], rake
    won = [int(x) for x in doc["winnings"]] if "winnings" in doc else payouts
    over = len(won) != len(payouts) or any(w > p for w, p in zip(won, payouts, strict=False))
    if over or sum(payouts) - sum(won) != rake:
        raise InvalidHistoryError("winnings and _rake do not add up to the pots")
    return won, rake


def _pot_shares(hand: Hand) -> list[list[tuple[int, int]]] | None:
    """(player, chips) per pot, odd chips to the first winners listed; None if that does not add
    up to the engine's payouts (then the lines are written per player)."""
    result = hand.result
    assert result is not None
    shares, totals = [], [0] * len(hand.starting_stacks)
    for pot, winners in zip(result.pots, result.winners, strict=True):
        base, odd = divmod(pot.amount, len(winners))
        split = [(w, base + (k < odd)) for k, w in enumerate(winners)]
        for w, chips in split:
            totals[w] += chips
        shares.append(split)
    return shares if totals == list(result.payouts) else None


def _collected(hand: Hand, won: list[int], rake: int, names: list[str], money: Any) -> list[str]:
    assert hand.result is not None
    shares = (
        _pot_shares(hand) if not rake and won == list(hand.result.payouts) else None
    )  # else the document's
    if shares is None or len(shares) == 1:
        return [f"{names[p]} collected {money(c)} from pot" for p, c in enumerate(won) if c]
    lines = []
    for k, split in reversed(list(enumerate(shares))):  # as PokerStars awards them: the last side pot first
        label = "main pot" if k == 0 else ("side pot" if len(shares) == 2 else f"side pot-{k}")
        lines += [f"{names[p]} collected {money(c)} from {label}" for p, c in split if c]
    return lines


def _summary(
    hand: Hand,
    won: list[int],
    rake: int,
    names: list[str],
    seats: list[int],
    money: Any,
    shown: AbstractSet[int] | dict[int, str] | None = None,
    unknown: AbstractSet[int] = frozenset(),
    boards: list[list[int]] | None = None,
) -> list[str]:
    result = hand.result
    assert result is not None
    lines = ["*** SUMMARY ***", f"{_total(result.pots, rake, money)} | Rake {money(rake)}"]
    if boards is not None:
        lines += [
            "Hand was run twice",
            f"FIRST Board {_cards(hand.board)}",
            f"SECOND Board {_cards(hand.second_board)}",
        ]
    elif hand.board:
        lines.append(f"Board {_cards(hand.board)}")
    n = len(names)
    folded = _folds(hand)
    if shown is None:
        shown = {p for e in hand.events() if e.kind == EventKind.SHOW and (p := e.player) is not None}
    for p in sorted(range(n), key=seats.__getitem__):
        roles = " (button)" if p == n - 1 else ""
        if hand.declared_blinds[p] and p < 2:  # the blinds' seats: not a blind posted out of turn
            roles += " (small blind)" if _is_small_blind(hand, p) else " (big blind)"
        head = f"Seat {seats[p]}: {names[p]}{roles}"
        if p in folded:
            lines.append(f"{head} {folded[p]}")
        elif p in shown and boards is not None:  # each board's outcome, as the site writes it
            lines.append(f"{head} showed {_cards(hand.holes[p])} and {_outcomes(hand, p, boards, money)}")
        elif p in shown:
            outcome = f"won ({money(won[p])})" if won[p] else "lost"
            if isinstance(shown, dict) and "?" in shown[p]:  # a card hidden: no hand to name
                lines.append(f"{head} showed {_face(shown[p])} and {outcome}")
            else:
                lines.append(f"{head} showed {_cards(hand.holes[p])} and {outcome} with {_describe(hand, p)}")
        elif won[p]:
            lines.append(f"{head} collected ({money(won[p])})")
        else:  # with the cards where the document knows them, as the site writes its player's
            lines.append(f"{head} mucked" + ("" if p in unknown else f" {_cards(hand.holes[p])}"))
    return lines


def _folds(hand: Hand) -> dict[int, str]:
    """How the summary says each player who folded did: "folded on the Flop", and before the flop
    "(didn't bet)" for a player who put in no blind and neither called nor raised."""
    events = [e for e in hand.events() if e.kind == EventKind.ACTION and e.action is not None]
    put_in = {e.player for e in events if e.action is not None and e.action.kind in ("call", "raise")}
    folds = {}
    for e in events:
        if e.player is None or e.action is None or e.action.kind != "fold":
            continue
        phase = Phase(e.phase) if e.phase is not None else Phase.PREFLOP
        quiet = phase == Phase.PREFLOP and not hand.declared_blinds[e.player] and not hand.stakes.ante
        quiet = quiet and e.player not in put_in
        where = _FOLDED_ON.get(phase, "on the River")
        folds[e.player] = f"folded {where}" + (" (didn't bet)" if quiet else "")
    return folds


def _total(pots: Sequence[Pot], rake: int, money: Any) -> str:
    """The summary's pots: the total, and with side pots the main pot (less the rake) and each side pot."""
    amounts = [pot.amount for pot in pots]
    total = f"Total pot {money(sum(amounts))}"
    if len(amounts) > 1:
        total += " Main pot " + money(amounts[0] - rake) + "."
        total += "".join(
            f" Side pot{'' if len(amounts) == 2 else f'-{k}'} {money(amount)}."
            for k, amount in enumerate(amounts[1:], 1)
        )
    return total


def _outcomes(hand: Hand, p: int, boards: list[list[int]], money: Any) -> str:
    """A hand run twice: a player's outcome on each board ("lost with A, and won ($Y) with B")."""
    return ", and ".join(
        f"{f'won ({money(paid[p])})' if paid[p] else 'lost'} with {_describe(hand, p, board)}"
        for paid, board in zip(boards, (hand.board, hand.second_board), strict=True)
    )
