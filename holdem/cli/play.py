"""``holdem play``: a person plays in the terminal against bots.

Reads commands line by line (so a pipe of inputs works as well as a keyboard): ``f`` fold,
``k`` check, ``c`` call (or check when free), ``r 300`` raise to 300, ``a`` all-in, ``?`` help,
``q`` quit. Bad input is answered with the reason and a new prompt.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TextIO

from holdem.bots import Bot, load_bot
from holdem.bots.decide import Hooks, decide
from holdem.bots.match import seat_names
from holdem.cards.evaluator import evaluate
from holdem.errors import IllegalActionError
from holdem.hand.actions import Action
from holdem.hand.stakes import Stakes
from holdem.hand.state import Hand
from holdem.table.table import Table

__all__ = ["HELP", "play"]

HELP = """commands: f = fold, k = check, c = call (or check when free), r N = raise to N (a street total),
a = all-in, ? = this help, q = quit"""


class _Quit(Exception):
    pass


def play(
    stdin: TextIO,
    stdout: TextIO,
    bots: list[str],
    *,
    stack: int = 200,
    stakes: Stakes | None = None,
    seed: int | None = None,
) -> int:
    """Play hands until the person quits, runs out of chips, or beats every bot. Returns 0."""
    stakes = stakes or Stakes(1, 2)
    rng = random.Random(seed)
    players = [load_bot(spec) for spec in bots]
    say = stdout.write
    for name, bot in zip(bots, players, strict=True):  # the life cycle of `holdem.bots.decide`
        hooks = Hooks(bot)
        if hooks.set_random is not None:  # a source drawn only for a bot that takes one
            _say_fault(name, hooks.seed(random.Random(rng.getrandbits(64))), say)
    names = ["you", *seat_names(bots)]  # told apart where a bot plays itself (equity, equity#2)
    table = Table(len(names), stakes, button="moving", rng=rng)
    for seat, name in enumerate(names):
        table.sit(seat, name, stack)
    if seed is not None:
        say(f"seed {seed} (--seed {seed} deals the same way again)\n")
    finished = 0
    try:
        while _another_hand(table, say):
            _play_hand(table, players, names, finished + 1, stdin, say)
            finished += 1
    except _Quit:
        say("Bye.\n")
    you = table.seats[0]
    now = you.stack if you is not None else 0  # a hand left unfinished by quitting does not count
    say(f"Session: {finished} hand{'s' if finished != 1 else ''} played; you started with {stack} and have "
        f"{now} ({now - stack:+d}, {(now - stack) / stakes.big_blind:+.1f} big blinds)\n")  # fmt: skip
    return 0


def _another_hand(table: Table, say: Callable[[str], object]) -> bool:
    """Whether a hand can be dealt: the person has chips and so does a bot (else says why not)."""
    seated = [s for s, p in enumerate(table.seats) if p is not None and p.stack > 0]
    if 0 not in seated:
        say("You are out of chips. Thanks for playing.\n")
        return False
    if len(seated) < 2:
        say("Every bot is broke: you won!\n")
        return False
    return True


def _play_hand(
    table: Table,
    players: list[Bot],
    names: list[str],
    number: int,
    stdin: TextIO,
    say: Callable[[str], object],
) -> None:
    """Deal hand `number`, ask the person (seat 0) and the bots in turn, show the board and the result,
    then end the hand: a broke bot leaves."""
    stakes = table.stakes
    hand = table.start_hand()
    seats = table.hand_seats
    label = {p: names[s] for p, s in enumerate(seats)}
    say(f"\n=== Hand {number} · blinds {stakes.small_blind}/{stakes.big_blind} · "
        f"button: {names[table.button or 0]} ===\n")  # fmt: skip
    hooks = {p: Hooks(players[s - 1]) for p, s in enumerate(seats) if s}  # the bots dealt in
    dealt_names = tuple(label[p] for p in range(len(seats)))
    for p, bot_hooks in hooks.items():
        _say_fault(label[p], bot_hooks.meet_players(dealt_names), say)
        _say_fault(label[p], bot_hooks.start(hand, p), say)
    shown_board = 0
    while hand.actor is not None:
        shown_board = _show_board(hand, shown_board, say)
        p = hand.actor
        opening = hand.round.level == 0
        if seats[p] == 0:
            _ask(hand, p, label, stdin, say)
        else:
            _bot_acts(hand, p, players[seats[p] - 1], label[p], say)
        say(f"{label[p]}: {_describe(hand, opening, label[p] == 'you')}\n")
    _show_board(hand, shown_board, say)
    _show_result(hand, label, say)
    for p, bot_hooks in hooks.items():
        _say_fault(label[p], bot_hooks.end(hand, p), say)
    table.end_hand()
    for s, place in enumerate(table.seats):
        if s and place is not None and place.stack == 0:
            table.leave(s)  # a broke bot leaves


def _bot_acts(hand: Hand, p: int, bot: Bot, name: str, say: Callable[[str], object]) -> None:
    """The bot's action (`holdem.bots.decide`); a failing bot checks when free or folds, and we say so."""
    _, fault = decide(bot, hand)
    if fault is not None:
        say(f"{name} failed ({fault[0]}) and checks or folds\n")


def _say_fault(name: str, fault: tuple[str, str | None] | None, say: Callable[[str], object]) -> None:
    """A failing hook changes nothing; we say so."""
    if fault is not None:
        say(f"{name} failed ({fault[0]})\n")


def _show_board(hand: Hand, shown: int, say: Callable[[str], object]) -> int:
    if len(hand.board) > shown:
        street = {3: "Flop", 4: "Turn", 5: "River"}[len(hand.board)]
        say(f"{street}: {' '.join(map(str, hand.board))}\n")
    return len(hand.board)


def _describe(hand: Hand, opening: bool, you: bool) -> str:
    """The last action as it was applied: an all-in as the bet, raise or call it amounted to."""
    player, action = hand.history[-1]
    s = "" if you else "s"
    if action.kind == "raise":
        text = f"{'bet' if opening else 'raise'}{s} {'' if opening else 'to '}{action.amount}"
    else:
        text = {"fold": f"fold{s}", "check": f"check{s}", "call": f"call{s}"}[action.kind]
    return text + (" (all-in)" if hand.stacks[player] == 0 and action.kind != "fold" else "")


def _show_table(hand: Hand, p: int, label: dict[int, str], say: Callable[[str], object]) -> None:
    lines = []
    for q in range(len(hand.stacks)):
        status = "folded" if hand.folded[q] else (f"bet {hand.bets[q]}" if hand.bets[q] else "")
        cards = f"[{' '.join(map(str, hand.holes[q]))}]" if q == p else ""
        turn = "→" if q == hand.actor else " "
        lines.append(f" {turn} {label[q]:<16} {hand.stacks[q]:>7}  {status:<10} {cards}")
    board = " ".join(map(str, hand.board)) or "-"
    legal = hand.legal_actions()
    assert legal is not None
    options = [f"to call {legal.to_call}" if legal.to_call else "nothing to call"]
    if legal.min_raise_to is not None:
        options.append(f"raise to {legal.min_raise_to}..{legal.max_raise_to}")
    say("\n".join([*lines, f"Board: {board}   Pot: {hand.pot}", " · ".join(options)]) + "\n")


def _ask(hand: Hand, p: int, label: dict[int, str], stdin: TextIO, say: Callable[[str], object]) -> None:
    """Prompt until the person enters a legal action, and apply it."""
    _show_table(hand, p, label, say)
    while True:
        say("your action [f/k/c/r N/a/?/q]: ")
        line = stdin.readline()
        if not line:
            say("\n")
            raise _Quit
        try:
            action = _parse(line.strip().lower(), hand)
        except ValueError as error:
            say(f"{error}\n")
            continue
        if action is None:
            say(HELP + "\n")
            continue
        try:
            hand.act(action, p)
        except IllegalActionError as error:
            say(
                f"not allowed: {str(error).replace(f'(player {p}, ', '(')}\n"
            )  # the hand's numbering means nothing here
            continue
        return


def _parse(text: str, hand: Hand) -> Action | None:
    """An action from a typed command (None for help); ValueError with the reason otherwise."""
    legal = hand.legal_actions()
    assert legal is not None
    word, _, rest = text.partition(" ")
    if word in ("q", "quit", "exit"):
        raise _Quit
    if word in ("?", "h", "help"):
        return None
    if word in ("f", "fold"):
        return Action.fold()
    if word in ("k", "check"):
        return Action.check()
    if word in ("c", "call"):
        return Action.check() if legal.can_check else Action.call()
    if word in ("a", "allin", "all-in"):
        return Action.all_in()
    if word in ("r", "b", "raise", "bet"):
        if not rest.strip().isdigit():
            raise ValueError(f"'{word}' needs an amount, e.g. '{word} {legal.min_raise_to or 0}'")
        return Action.raise_to(int(rest))
    raise ValueError(f"unknown command {text!r}; type ? for help")


def _show_result(hand: Hand, label: dict[int, str], say: Callable[[str], object]) -> None:
    """The hands shown down, each named, your own cards again if you did not show them, and who won."""
    result = hand.result
    assert result is not None
    for q, cards in enumerate(result.shown):
        if cards is not None:
            named = f" — {evaluate([*cards, *hand.board]).describe()}" if len(hand.board) == 5 else ""
            say(f"{label[q]} {'show' if label[q] == 'you' else 'shows'} {' '.join(map(str, cards))}{named}\n")
    you = next((q for q, name in label.items() if name == "you"), None)
    if you is not None and result.shown[you] is None:
        say(f"you had {' '.join(map(str, hand.holes[you]))}\n")
    for q, won in enumerate(result.payouts):
        if won:
            say(f"{label[q]} {'win' if label[q] == 'you' else 'wins'} {won}\n")
