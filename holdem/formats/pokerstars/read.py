"""PokerStars to PHH: hands read from PokerStars text, replayed through the engine, checked against
the amounts the file states, and written as PHH documents.

A file may hold many hands, with Windows line endings or a byte-order mark; cash games, home games,
tournaments and the hold'em hands of mixed games; 2005-era tables without "N-max". Player names
may hold spaces, brackets and colons (each line is matched against the seated names). A player
marked sitting out is in the hand when the hand has a post or an action of theirs (PokerStars
deals sitting-out tournament players in and folds for them), and left out otherwise; chat,
connection and time-out lines are ignored. The board is checked against the cards each street
repeats, and the settlement against the ``collected`` lines and the summary's amounts. Every hand
is imported or skipped whole with its reason (cancelled, not hold'em, a dead button,
a structure the engine does not play, a damaged line, amounts that disagree): one bad hand never
stops the rest of the file.
"""

from __future__ import annotations

import datetime
import re
import zoneinfo
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

import attrs

from holdem.cards.card import Card, parse_cards
from holdem.cards.deck import Deck
from holdem.errors import HoldemError, InvalidHistoryError
from holdem.formats.phh import export, settlement_problem
from holdem.formats.pokerstars.write import SYMBOLS
from holdem.hand.actions import Action
from holdem.hand.stakes import Rules, Stakes, Structure
from holdem.hand.state import Hand

__all__ = ["Imported", "other_games", "read_hands"]

_START = re.compile(r"^PokerStars (?:Home Game |Zoom )?(?:Hand|Game) #(\d+):\s*(.*)$")
_TOURNAMENT = re.compile(r"Tournament #(\d+),")
_LEVEL = re.compile(r"Level (\w+) \((\d+)/(\d+)\)")
_CASH = re.compile(r"(?:\(|, )([^/()\s,]+)/([^/()\s]+)(?: ([A-Z]{3}))?\)")  # mixed: (Hold'em No Limit, $1/$2)
_WHEN = re.compile(
    r" - (\d{4})/(\d{2})/(\d{2})(?: -)? (\d{1,2}:\d{2}:\d{2})"  # 2005: "- 21:13:51"
    r"(?: ([A-Z]{2,5}) \[(\d{4}/\d{2}/\d{2} \d{1,2}:\d{2}:\d{2}) ET\])?"  # "WET [2010/05/06 19:17:07 ET]"
)
_TABLE = re.compile(r"^Table '(.*)' (?:(\d+)-max )?(?:\(Play Money\) )?Seat #(\d+) is the button")
_SEAT = re.compile(r"^Seat (\d+): (.+) \((\S+) in chips(?:, \S+ bounty)?\)(.*)$")
_DEALT = re.compile(r"^Dealt to (.+) \[(\S\S) (\S\S)\]$")
_STREET = re.compile(r"^\*\*\* (?:(FIRST|SECOND) )?(FLOP|TURN|RIVER) \*\*\* \[([^\]]*)\](?: \[(\S\S)\])?")
_UNCALLED = re.compile(r"^Uncalled bet \((\S+)\) returned to (.+)$")
_COLLECTED = re.compile(r"^(.+) collected (\S+) from (?:main |side )?pot(?:-\d+)?$")
_RAKE = re.compile(r"\| Rake (\S+)")
_SHOWED = re.compile(
    r"^Seat \d+: (.+?)(?: \((?:button|small blind|big blind)\))* (?:showed|mucked) \[(\S\S) (\S\S)\]"
)
_WON = re.compile(
    r"^Seat \d+: (.+?)(?: \((?:button|small blind|big blind)\))*(?: (?:showed|mucked) \[[^\]]*\] and"
    r"(?: lost with .*?, and)?)? (?:won|collected) \((\S+)\)"  # run twice: "lost with X, and won (Y)"
)
_WON_AGAIN = re.compile(r", and won \((\S+)\)")
"""A hand run twice: the second board's amount, after the first's ("won (X) with A, and won (Y) with B")."""
_SITE = Rules.pokerstars()
"""The rules the site deals by: a file is replayed under them (rule 11 as PokerStars plays it)."""
_BOARD = re.compile(r"^(?:(FIRST|SECOND) )?Board \[([^\]]*)\]$")
_PLAYING = ("posts ", "folds", "checks", "calls ", "bets ", "raises ", "shows ")
"""What a seated player's line begins with when they are in the hand."""
_IGNORED = re.compile(
    r" (?:is (?:dis)?connected|has timed out.*|has returned|leaves the table|joins the table.*"
    r"|said, \".*\"|will be allowed to play.*|was removed from the table.*|is sitting out|sits out)$"
)


@attrs.frozen
class Imported:
    """One hand of a file: its PHH document, or None with the reason it was skipped."""

    number: int
    ident: str
    doc: dict[str, Any] | None
    reason: str | None = None
    game: str | None = None  # skipped as a game the engine does not play: its name (``Badugi Limit``)


class _OtherGame(InvalidHistoryError):
    """A hand of a game the engine does not play, named by its first line."""

    def __init__(self, message: str, game: str) -> None:
        super().__init__(message)
        self.game = game


def other_games(counts: Mapping[tuple[str, str], int]) -> list[str]:
    """One line for each file and game the engine does not play, from how many hands each had: a
    folder of mixed games is summed up, not listed hand by hand."""
    return [
        f"{file}: skipped {n:,} {'hand' if n == 1 else 'hands'} of {game} (a game this engine does not play)"
        for (file, game), n in counts.items()
    ]


def read_hands(text: str) -> list[Imported]:
    """Every hand in PokerStars `text`, in order."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    blocks: list[list[str]] = []
    for line in text.split("\n"):
        line = line.strip()
        if _START.match(line):
            blocks.append([line])
        elif blocks and line:
            blocks[-1].append(line)
    out = []
    for k, block in enumerate(blocks, 1):
        ident = _START.match(block[0])[1]  # type: ignore[index]
        try:
            out.append(Imported(k, ident, _read(block)))
        except _OtherGame as error:
            out.append(Imported(k, ident, None, str(error), error.game))
        except HoldemError as error:  # InvalidHistoryError, and a card or value the engine refused
            out.append(Imported(k, ident, None, str(error)))
    return out


def _cards(text: str, line: str) -> list[Card]:
    """The cards of a line, such as ``Kd 7c 2h``; a damaged card names the line."""
    try:
        return list(parse_cards(text, distinct=True))
    except HoldemError as error:
        raise InvalidHistoryError(f"{error} in {line!r}") from None


_SITTING_OUT = re.compile(r"\) is sitting out$")
_POST = re.compile(r": posts (small|big) blind (\S+)")
_THOUSANDS = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?")


def _capped_call(hand: Hand, p: int) -> int:
    """A call as PokerStars caps it: no more than the most any other player still in has put in or
    can put in on this street (a full big blind called when every other player is all-in for less
    is called only up to the largest of them; the engine puts in the full call and returns the rest
    uncalled)."""
    legal = hand.legal_actions()
    assert legal is not None
    most = max(
        (hand.bets[q] + hand.stacks[q] for q in range(len(hand.stacks)) if q != p and not hand.folded[q]),
        default=0,
    )
    return max(0, min(legal.to_call, most - hand.bets[p]))


class _Money:
    """Amounts as written: with a currency, whole cents; without, whole chips."""

    def __init__(self, cash: bool) -> None:
        self.cash = cash

    def __call__(self, text: str) -> int:
        raw = text.strip().rstrip(".").lstrip("$€£")
        if _THOUSANDS.fullmatch(raw):  # "$1,920": a separator every three digits, as the site writes
            raw = raw.replace(",", "")
        try:
            value = Decimal(raw) * (100 if self.cash else 1)
        except InvalidOperation:
            raise InvalidHistoryError(f"not an amount: {text!r}") from None
        if value != value.to_integral_value() or value < 0:
            raise InvalidHistoryError(
                f"amount {text!r} is not a whole number of {'cents' if self.cash else 'chips'}"
            )
        return int(value)


def _read(lines: list[str]) -> dict[str, Any]:
    """One hand's lines as a PHH document: the game and stakes, the seats in dealing order, then
    each line replayed (`_Game`)."""
    head = _START.match(lines[0])
    assert head is not None
    rest = head[2]
    structure = _structure(rest, "\n".join(lines))
    money, low, high, meta = _stakes(rest)
    table = _TABLE.match(lines[1]) if len(lines) > 1 else None
    if table is None:
        raise InvalidHistoryError("no Table line after the first line")
    seated, i = _seated(lines, money)
    if not high:  # a tournament's first line without its level: the blinds the players post
        if structure is Structure.FIXED_LIMIT:
            raise InvalidHistoryError("a fixed-limit tournament hand without its level and bets")
        low, high = _posted_blinds(lines[i:], money)
    order = _dealing_order(seated, int(table[3]))
    names = sorted(order, key=len, reverse=True)  # longest first, so "ann b" wins over "ann"
    game = _Game(order, [seated[name][1] for name in order], money, structure, low, high)
    for line in lines[i:]:
        if line == "*** SUMMARY ***":
            game.summary = True
        game.line(line, names)
    doc = game.finish()
    doc |= {"players": order, "seats": [seated[name][0] for name in order]}
    away = [p for p, name in enumerate(order) if _SITTING_OUT.search(_seat_line(lines, seated[name][0]))]
    if away:  # dealt in while sitting out (a tournament's): a user field, written back by the writer
        doc["_sitting_out"] = away
    if table[2] is not None:  # 2005-era tables do not say how many seats they have
        doc["seat_count"] = int(table[2])
    if table[1]:
        doc["table"] = table[1]
    return doc | {"hand": int(head[1]), **meta, **_named(rest)}


def _posted_blinds(lines: list[str], money: _Money) -> tuple[int, int]:
    """The small and big blinds of a hand whose first line does not give them, from its posts: the
    largest of each kind. A big blind posted all-in may be short: then the big blind is the first
    call before any raise by a player who posted no blind, or twice the small blind, if more."""
    posts: dict[str, list[tuple[bool, int]]] = {"small": [], "big": []}
    posters = set()
    dealt = next((k for k, line in enumerate(lines) if line.startswith("*** ")), len(lines))
    for line in lines[:dealt]:
        if post := _POST.search(line):
            posts[post[1]].append((not line.endswith(" and is all-in"), money(post[2])))
            posters.add(line[: post.start()])
    if not posts["big"]:
        raise InvalidHistoryError("a tournament hand without its level and blinds, and no big blind posted")
    full, big = max(posts["big"])
    small = max(posts["small"])[1] if posts["small"] else big // 2
    if not full:
        big = max(big, 2 * small, _first_call(lines[dealt:], posters, money))
    return small, big


def _first_call(lines: list[str], posters: set[str], money: _Money) -> int:
    """The first call before the flop, before any raise, by a player who posted no blind (0: none)."""
    for line in lines:
        name, _, what = line.partition(": ")
        if what.startswith(("raises", "bets")) or line.startswith("*** FLOP"):
            return 0
        if what.startswith("calls ") and name not in posters:
            return money(what.removesuffix(" and is all-in").split(" ")[1])
    return 0


def _structure(rest: str, body: str) -> Structure:
    """The betting structure the first line names; a hand the engine cannot play is refused."""
    if "Hold'em" not in rest:
        raise _OtherGame(f"not hold'em: {_game_name(rest)}", _game_name(rest))
    if _VARIANT.search(rest.split(" - ")[0]):
        raise _OtherGame(f"a hold'em game this engine does not play: {_game_name(rest)}", _game_name(rest))
    if re.search(r"cancell?ed", body, re.IGNORECASE):
        raise InvalidHistoryError("the hand was cancelled")
    if re.search(r"Pot Limit Pre-?Flop", rest, re.IGNORECASE):
        return Structure.POT_LIMIT_PREFLOP
    if "Pot Limit" in rest:
        return Structure.POT_LIMIT
    return Structure.NO_LIMIT if "No Limit" in rest else Structure.FIXED_LIMIT


_VARIANT = re.compile(r"6\+ Hold'em|Short Deck|\bCap\b")  # six-plus (short deck), capped no-limit
_BUY_IN = re.compile(r"^Tournament #\d+, (Freeroll|\S*\+\S*(?: [A-Z]{3})?) ")


def _game_name(rest: str) -> str:
    """The game a first line names: ``Badugi Limit``, ``6+ Hold'em Button Blind``, ``Omaha Pot Limit``
    (a mixed table's game, from its brackets)."""
    first = rest.split(" - ")[0]
    mixed = re.search(r"\(([^,()]+), ", first)
    if mixed:
        return mixed[1]
    return re.sub(r" \(.*\)", "", _BUY_IN.sub("", first)).strip() or first


_CLUB = re.compile(r"^\{([^{}]+)\} ")  # a home game's club: {Friday Night Felt}
_MIXED = re.compile(r"^(Mixed [^(]+?) \(")  # a mixed table's name: Mixed NLH/PLO (Hold'em No Limit, …)


def _named(rest: str) -> dict[str, Any]:
    """What the first line names beyond the game, kept in user fields for the writer: a tournament's
    buy-in (``$10+$1 USD``), a home game's club, a mixed table's name."""
    named = {}
    for field, pattern in (("_buy_in", _BUY_IN), ("_club", _CLUB), ("_mixed", _MIXED)):
        found = pattern.search(rest)
        if found:
            named[field] = found[1]
    return named


def _stakes(rest: str) -> tuple[_Money, int, int, dict[str, Any]]:
    """How amounts are read, the two stakes of the first line (a tournament level's blinds, or a cash
    game's), and what else it says: the event and level, the currency, the date and time."""
    tournament = _TOURNAMENT.search(rest)
    meta: dict[str, Any] = {}
    if tournament:
        level = _LEVEL.search(rest)
        money = _Money(False)
        low, high = (int(level[2]), int(level[3])) if level is not None else (0, 0)  # 0: from the posts
        meta |= {"event": tournament[1]} | ({"_level": level[1]} if level is not None else {})
    else:
        stakes_text = _CASH.search(rest)
        if stakes_text is None:
            raise InvalidHistoryError("no stakes in the first line")
        cash = stakes_text[1][0] in "$€£" or stakes_text[3] is not None
        money = _Money(cash)
        low, high = money(stakes_text[1]), money(stakes_text[2])
        if cash:
            meta["currency"] = stakes_text[3] or next(c for c, s in SYMBOLS.items() if s == stakes_text[1][0])
    when = _WHEN.search(rest)
    if when:
        meta |= {"year": int(when[1]), "month": int(when[2]), "day": int(when[3]), "time": when[4]}
        if when[5] is not None:
            meta |= _zone(when[5], f"{when[1]}/{when[2]}/{when[3]} {when[4]}", when[6])
    return money, low, high, meta


def _zone(label: str, local: str, eastern: str) -> dict[str, Any]:
    """A first line's own zone ("WET") with ET's time in brackets: the zone as PHH's ``time_zone``
    when it is a zone name this machine knows and gives that ET time (the label kept as written in
    ``_zone_label`` when the zone's own name then differs, as WET's is WEST in summer); else the
    date and time in ET, the site's own."""
    form = "%Y/%m/%d %H:%M:%S"
    try:
        at = datetime.datetime.strptime(local, form).replace(tzinfo=zoneinfo.ZoneInfo(label))
        said = datetime.datetime.strptime(eastern, form)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        at = None
    if at is not None and at.astimezone(zoneinfo.ZoneInfo("America/New_York")).replace(tzinfo=None) == said:
        return {"time_zone": label} | ({} if at.tzname() == label else {"_zone_label": label})
    try:
        et = datetime.datetime.strptime(eastern, form)
    except ValueError:
        return {}
    return {"year": et.year, "month": et.month, "day": et.day, "time": f"{et.hour}:{et:%M:%S}"}


def _dealing_order(seated: dict[str, tuple[int, int]], button: int) -> list[str]:
    """The players dealt in, left of the button first and the button last."""
    if len(seated) < 2:
        raise InvalidHistoryError("fewer than two players dealt in")
    order = sorted(seated, key=lambda name: seated[name][0])
    if button not in {seated[name][0] for name in order}:
        raise InvalidHistoryError(f"dead button (seat {button} holds no player in the hand)")
    cut = next(k for k, name in enumerate(order) if seated[name][0] == button) + 1
    return order[cut:] + order[:cut]


def _seated(lines: list[str], money: _Money) -> tuple[dict[str, tuple[int, int]], int]:
    """The players dealt in, name -> (seat, stack), and the index of the first line after the seats.

    A player marked sitting out is dealt in when a line of the hand posts or acts for them
    (PokerStars deals sitting-out tournament players in and folds for them).
    """
    seats: list[tuple[str, int, int, str]] = []
    i = 2
    while i < len(lines) and (seat := _SEAT.match(lines[i])):
        seats.append((seat[2], int(seat[1]), money(seat[3]), seat[4]))
        i += 1
    end = lines.index("*** SUMMARY ***") if "*** SUMMARY ***" in lines else len(lines)
    playing = lines[i:end]

    def plays(name: str) -> bool:
        return any(
            line.startswith(name + ": ") and line[len(name) + 2 :].startswith(_PLAYING) for line in playing
        )

    return {
        name: (number, stack)
        for name, number, stack, note in seats
        if "out of hand" not in note and ("sitting out" not in note or plays(name))
    }, i


def _seat_line(lines: list[str], seat: int) -> str:
    """The line of the seats' list for `seat` (the lines after the first two)."""
    return next((line for line in lines[2:] if line.startswith(f"Seat {seat}: ")), "")


class _Game:
    """The hand as its lines come: posts first, then the engine hand, action by action."""

    def __init__(
        self, order: list[str], stacks: list[int], money: _Money, structure: Structure, low: int, high: int
    ) -> None:
        self.order, self.stacks, self.money, self.structure = order, stacks, money, structure
        self.low, self.high = low, high
        self.index = {name: p for p, name in enumerate(order)}
        n = len(order)
        self.posts: list[str | None] = [None] * n  # "sb", "bb", "sb+bb" (a dead small blind) or "straddle"
        self.paid = [0] * n  # chips posted as blinds
        self.apart: list[int] = []  # who posted a dead small blind and a big blind on two lines
        self.short = [False] * n  # a blind posted all-in
        self.antes = [0] * n
        self.small = 0
        self.straddle = 0  # the straddle posted, if any
        self.holes: list[list[Card | None]] = [[None, None] for _ in range(n)]
        self.shown: set[int] = set()  # the players who showed their cards at the showdown
        self.board: list[Card] = []
        self.again: list[Card] = []  # a hand run twice: the second run-out (rule 32)
        self.rerun_from: int | None = None  # where on the board the second run-out starts
        self.actions: list[tuple[int, str, int | None, str]] = []  # player, verb, amount, line
        self.streets: list[int] = []  # the number of actions before each board card group
        self.collected = [0] * n
        self.won: list[int] | None = None  # the summary's "won (X)" and "collected (X)" amounts
        self.rake = 0
        self.summary = False

    def line(self, line: str, names: list[str]) -> None:
        if self.summary:
            self._summary_line(line)
            return
        if dealt := _DEALT.match(line):
            self._hole(dealt[1], dealt[2], dealt[3], line)
        elif street := _STREET.match(line):
            if street[1] == "SECOND":
                self._second_street(street[2], street[3], street[4], line)
            else:
                if street[1] == "FIRST" and self.rerun_from is None:
                    self.rerun_from = len(self.board)
                self._street(street[2], street[3], street[4], line)
        elif _UNCALLED.match(line):
            pass  # the engine returns uncalled bets itself; the amount is checked through the stacks
        elif collected := _COLLECTED.match(line):
            self.collected[self._player(collected[1], line)] += self.money(collected[2])
        elif line.startswith("***") or _IGNORED.search(line):
            pass
        else:
            name = next((n for n in names if line.startswith(n + ": ")), None)
            if name is None:
                if ": " in line or line.endswith(("folds", "checks")):
                    raise InvalidHistoryError(f"a line for nobody in the hand: {line!r}")
                return
            self._act(self.index[name], line[len(name) + 2 :], line)

    def _street(self, name: str, before: str, new: str | None, line: str) -> None:
        """A street's cards; the turn and river lines repeat the board so far, which must agree."""
        if new is None:
            cards = _cards(before, line)
            if name != "FLOP" or self.board or len(cards) != 3:
                raise InvalidHistoryError(f"a damaged board line: {line!r}")
        else:
            if _cards(before, line) != self.board or len(self.board) != (3 if name == "TURN" else 4):
                shown = " ".join(map(str, self.board))
                raise InvalidHistoryError(f"{line!r} does not repeat the board dealt so far [{shown}]")
            cards = _cards(new, line)
        self.streets.append(len(self.actions))
        self.board.extend(cards)

    def _second_street(self, name: str, before: str, new: str | None, line: str) -> None:
        """A street of the second run-out: its line repeats the second board so far."""
        if self.rerun_from is None:
            raise InvalidHistoryError(f"a second run-out before the first: {line!r}")
        so_far = self.second_board
        size = {"FLOP": 0, "TURN": 3, "RIVER": 4}[name]
        if new is None and (len(so_far) != 0 or name != "FLOP"):
            raise InvalidHistoryError(f"a damaged board line: {line!r}")
        if new is not None and (_cards(before, line) != so_far or len(so_far) != size):
            shown = " ".join(map(str, so_far))
            raise InvalidHistoryError(f"{line!r} does not repeat the second board dealt so far [{shown}]")
        self.again.extend(_cards(before if new is None else new, line))

    @property
    def second_board(self) -> list[Card]:
        """The second run-out's board so far: the cards dealt before the all-in, then its own."""
        return self.board[: self.rerun_from] + self.again

    def _summary_line(self, line: str) -> None:
        """The rake, cards shown, the board and each player's amount won, to check the hand against."""
        if rake := _RAKE.search(line):
            self.rake = self.money(rake[1])
        elif (board := _BOARD.match(line)) and _cards(board[2], line) != (
            self.second_board if board[1] == "SECOND" else self.board
        ):
            raise InvalidHistoryError(f"the summary's {line!r} is not the board dealt")
        if won := _WON.match(line):
            self.won = self.won or [0] * len(self.order)
            again = _WON_AGAIN.findall(line, won.end())
            self.won[self._player(won[1], line)] += sum(map(self.money, [won[2], *again]))
        if shown := _SHOWED.match(line):
            self._hole(shown[1], shown[2], shown[3], line)

    def _player(self, name: str, line: str) -> int:
        if name not in self.index:
            raise InvalidHistoryError(f"a line for nobody in the hand: {line!r}")
        return self.index[name]

    def _hole(self, name: str, a: str, b: str, line: str) -> None:
        """A player's hole cards; a card written ``XX`` (hidden by hand, as some shared histories
        are) is one nobody knows."""
        known = [c for c in (a, b) if c.upper() != "XX"]
        cards = iter(_cards(" ".join(known), line) if known else [])
        self.holes[self._player(name, line)] = [None if c.upper() == "XX" else next(cards) for c in (a, b)]

    def _act(self, p: int, what: str, line: str) -> None:
        what = what.removesuffix(" and is all-in")
        words = what.split(" ")
        if what.startswith("posts "):
            amount = self.money(words[-1])
            all_in = line.endswith(" and is all-in")
            if what.startswith("posts the ante"):
                self.antes[p] = amount
                return
            if what.startswith("posts small & big blinds"):
                self.posts[p] = "sb+bb"
            elif what.startswith("posts small blind"):
                # A returning player's small blind beside their big blind is dead money (rule 3).
                self.posts[p] = "sb+bb" if self.posts[p] == "bb" else "sb"
                self.small = self.small if all_in else max(self.small, amount)
                self.apart += [p] if self.posts[p] == "sb+bb" else []
            elif what.startswith("posts big blind"):
                self.posts[p] = "sb+bb" if self.posts[p] == "sb" else "bb"
                self.apart += [p] if self.posts[p] == "sb+bb" else []
            elif what.startswith("posts straddle") and self.posts[p] is None:  # a blind over the big blind
                self.posts[p], self.straddle = "straddle", amount
            else:
                raise InvalidHistoryError(f"a post that cannot be represented: {line!r}")
            self.paid[p] += amount
            self.short[p] = self.short[p] or all_in
        elif words[0] in ("folds", "checks"):
            self.actions.append((p, words[0], None, line))
        elif words[0] in ("calls", "bets"):
            if len(words) < 2:
                raise InvalidHistoryError(f"{words[0]} without an amount: {line!r}")
            self.actions.append((p, words[0], self.money(words[1]), line))
        elif words[0] == "raises" and len(words) == 4 and words[2] == "to":
            self.actions.append((p, "raises", self.money(words[3]), line))
        elif words[0] == "shows" and len(words) >= 3:
            self._hole(self.order[p], words[1].lstrip("["), words[2].rstrip("]"), line)
            self.shown.add(p)
        elif words[0] in ("mucks", "doesn't", "sits", "is", "has", "leaves", "will", "was"):
            pass
        else:
            raise InvalidHistoryError(f"an action that cannot be represented: {line!r}")

    def finish(self) -> dict[str, Any]:
        n = len(self.order)
        if self.structure is Structure.FIXED_LIMIT:  # the first line gives the bets; blinds are posted
            small, big = self.small or self.low // 2, self.low
        else:
            small, big = self.low, self.high
        # A player whom the ante left without chips posts no blind, though the blind is theirs.
        sb_at, bb_at = (1, 0) if n == 2 else (0, 1)
        for at, kind in ((sb_at, "sb"), (bb_at, "bb")):
            if kind not in self.posts and self.posts[at] is None and 0 < self.stacks[at] <= self.antes[at]:
                self.posts[at] = kind
        nominal = {"sb": small, "bb": big, "sb+bb": big, "straddle": self.straddle, None: 0}
        posted = [nominal[kind] for kind in self.posts]
        dead = [small if kind == "sb+bb" else 0 for kind in self.posts]
        # A second small blind, posted by a returning player away from the small blind, is dead.
        smalls = sorted((p for p in range(n) if self.posts[p] == "sb"), key=lambda p: p != sb_at)
        for p in smalls[1:]:
            posted[p], dead[p] = 0, small
        ante_posts = [a for a in self.antes if a]
        ante = max(ante_posts, default=0)
        bb_ante, big_blind_player = 0, None
        if len(ante_posts) == 1 and n > 2:
            bb_ante, ante = ante, 0
            big_blind_player = next(p for p in range(n) if self.antes[p])
        try:
            if self.structure is Structure.FIXED_LIMIT:
                stakes = Stakes(small, big, ante=ante, big_blind_ante=bb_ante,
                                structure=self.structure, small_bet=self.low, big_bet=self.high)  # fmt: skip
            else:
                stakes = Stakes(small, big, ante=ante, big_blind_ante=bb_ante, structure=self.structure)
        except HoldemError as error:
            raise InvalidHistoryError(f"cannot start the hand: {error}") from None
        bbs = [p for p in range(n) if self.posts[p] in ("bb", "sb+bb")]
        setup = {"blinds": posted, "dead": dead if any(dead) else None, "big_blind_player": big_blind_player,
                 "first_to_act": (bbs[0] + 1) % n if len(bbs) > 1 else None}  # fmt: skip
        try:
            return self._document(self._replay(stakes, setup))
        except InvalidHistoryError:
            # PokerStars lets players call a big blind that is all-in short for what it posted
            # (rule 7 would have them call the full blind): when the file says so, replay it so.
            short = [p for p in bbs if self.short[p] and self.paid[p] < posted[p]]
            if not short:
                raise
        for p in short:
            posted[p] = self.paid[p]
        return self._document(self._replay(stakes, setup))

    def _replay(self, stakes: Stakes, setup: dict[str, Any]) -> Hand:
        """The hand replayed in the engine, action by action, as the file has it: under `holdem`'s
        rules, or when they refuse an action of the file, under the rules the site dealt it by."""
        try:
            return self._replay_under(Rules(), stakes, setup)
        except InvalidHistoryError as error:
            try:
                return self._replay_under(_SITE, stakes, setup)
            except InvalidHistoryError:
                raise error from None

    def _replay_under(self, rules: Rules, stakes: Stakes, setup: dict[str, Any]) -> Hand:
        if self.rerun_from is not None:  # run twice (rule 32): as the site ran it, when the betting ended
            if len(self.second_board) != 5:
                raise InvalidHistoryError("a hand run twice without its whole second run-out")
            rules = attrs.evolve(rules, run_twice=True)
        try:
            deck = Deck.for_hand(self.holes, self.board, self.again)
            hand = Hand.start(self.stacks, stakes, rules=rules, deck=deck, **setup)
        except HoldemError as error:
            raise InvalidHistoryError(f"cannot start the hand: {error}") from None
        for p, verb, amount, line in self.actions:
            self._apply(hand, p, verb, amount, line)
        if not hand.is_complete or hand.result is None:
            raise InvalidHistoryError("the history ends before the hand is over")
        return hand

    def _apply(self, hand: Hand, p: int, verb: str, amount: int | None, line: str) -> None:
        try:
            if verb == "folds" and hand.stacks[p] == 0 and not hand.folded[p]:
                return  # all-in from an ante or a blind, sitting out: the site logs a fold; nothing happens
            if verb == "folds":
                hand.act(Action.fold(), p)
            elif verb == "checks":
                hand.act(Action.check(), p)
            elif verb == "calls":
                legal = hand.legal_actions()
                if (
                    legal is not None
                    and legal.player == p
                    and amount not in (legal.to_call, _capped_call(hand, p))
                ):
                    raise InvalidHistoryError(f"{line!r}: the call is {legal.to_call}, not {amount}")
                hand.act(Action.call(), p)  # a call the site capped: the engine returns the rest uncalled
            else:
                assert amount is not None
                hand.act(Action.raise_to(amount), p)
        except InvalidHistoryError:
            raise
        except HoldemError as error:
            raise InvalidHistoryError(f"{line!r}: {error}") from None

    def _document(self, hand: Hand) -> dict[str, Any]:
        """The hand as a PHH document, settled as the text says: by the engine's settlement where every
        shown hand is known (the collected amounts must equal it, less the rake), else (a winner
        shows, the others muck unseen) from the collected amounts, checked against the pots."""
        result = hand.result
        assert result is not None
        if self.won is not None and self.won != self.collected:
            raise InvalidHistoryError(
                f"the summary's amounts won {self.won} are not the collected amounts {self.collected}"
            )
        live = [p for p, folded in enumerate(hand.folded) if not folded]
        unknown = {p for p in range(len(self.order)) if None in self.holes[p]}
        unseen = len(live) > 1 and bool(unknown & set(live))  # the engine dealt those hands at random
        before = [final - paid for final, paid in zip(result.final_stacks, result.payouts, strict=True)]
        finishing = [start + won for start, won in zip(before, self.collected, strict=True)]
        if unseen:
            problem = settlement_problem(hand, finishing, self.rake)
            if problem is not None:
                raise InvalidHistoryError(f"the collected amounts {self.collected} cannot be: {problem}")
        else:
            kept = [a - b for a, b in zip(result.payouts, self.collected, strict=True)]
            if any(k < 0 for k in kept) or sum(kept) != self.rake:
                raise InvalidHistoryError(
                    f"the collected amounts {self.collected} do not match the engine's settlement"
                    f" {list(result.payouts)} with rake {self.rake}"
                )
        doc = export(hand)
        faces = {p: "".join("??" if c is None else str(c) for c in self.holes[p]) for p in self.shown}
        shown = faces if unseen else None
        doc["actions"] = [_unseen(line, unknown, shown) for line in doc["actions"]]
        doc["winnings"] = list(self.collected)
        doc["finishing_stacks"] = finishing
        if self.rake:
            doc["_rake"] = self.rake
        if self.apart:  # the site's older form, written back so: "posts small blind", "posts big blind"
            doc["_blinds_apart"] = sorted(self.apart)
        return doc


def _unseen(line: str, unknown: set[int], shown: dict[int, str] | None) -> str:
    """A PHH action line with the cards of the players in `unknown` (whose hands the text never shows)
    taken out: dealt as ``????``. With `shown` (a showdown the engine played on stand-in cards), each
    show or muck is the text's: the cards of those who showed, a muck for the others."""
    words = line.split(" ")
    if line.startswith("d dh p") and int(words[2][1:]) - 1 in unknown:
        return f"d dh {words[2]} ????"
    if shown is not None and words[1] == "sm":
        cards = shown.get(int(words[0][1:]) - 1)
        return f"{words[0]} sm" if cards is None else f"{words[0]} sm {cards}"
    return line
