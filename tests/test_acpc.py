"""The ACPC protocol: game definitions, match states, the ACPC rules, and a dealer with clients
playing over real TCP sockets on loopback."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import Action, Hand, Stakes
from holdem.acpc import (
    SHIPPED_GAMES,
    GameDefError,
    ProtocolError,
    load_gamedef,
    parse_gamedef,
    parse_match_state,
)
from holdem.acpc.bridge import hand_from_state, start_hand, state_of, values
from holdem.acpc.dealer import acpc_generator, deal, format_value, run_dealer
from holdem.acpc.protocol import parse_state_line
from holdem.cards.deck import Deck
from holdem.cli.bench import random_policy
from holdem.errors import DealerError
from holdem.hand.stakes import Rules, Structure
from tests.strategies import examples

GAMES = sorted(p.name for p in SHIPPED_GAMES.glob("*.game"))
NL2 = load_gamedef("holdem.nolimit.2p.reverse_blinds.game")
FL3 = load_gamedef("holdem.limit.3p.game")


# ----------------------------------------------------------------- game definitions
def test_the_standard_games_read_to_stakes_and_rules_and_write_back() -> None:
    assert 4 == len(GAMES)
    for name in GAMES:
        game = load_gamedef(name)
        assert game == parse_gamedef(game.to_text())
        assert game.rules() == Rules.acpc(game.max_raises)
    assert Stakes(50, 100) == NL2.stakes() and [20000, 20000] == NL2.stacks() and 1 == NL2.first_to_act
    assert Stakes(5, 10, structure=Structure.FIXED_LIMIT, small_bet=10, big_bet=20) == FL3.stakes()
    assert (3, 4, 4, 4) == FL3.max_raises and 2 == FL3.first_to_act and 2**31 - 1 == FL3.stacks()[0]


def test_gamedef_reads_as_the_reference_does() -> None:
    """Keys in any case, with or without '=', comments and blank lines skipped."""
    text = (
        "# a comment\n\nGAMEDEF\nNOLIMIT\nnumplayers 2\nNumRounds = 4\nstack = 500 500\nblind = 10 5\n"
        "firstPlayer = 2 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\n"
        "END GAMEDEF\n"
    )
    game = parse_gamedef(text)
    assert (500, 500) == game.stack and "nolimit" == game.betting


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("numRounds = 4", "numRounds = 3"), "not hold'em"),
        (("numBoardCards = 0 3 1 1", "numBoardCards = 0 4 1 0"), "not hold'em"),
        (("numHoleCards = 2", "numHoleCards = 4"), "not hold'em"),
        (("firstPlayer = 2 1 1 1", "firstPlayer = 2 2 2 2"), "every round after the first"),
        (("blind = 100 50", "blind = 100"), "blind needs 2"),
        (("blind = 100 50", "blind = 30000 50"), "larger than its player's stack"),
        (("numPlayers = 2", "numPlayers = 11"), "2 to 10"),
        (("END GAMEDEF", ""), "no END GAMEDEF"),
        (("nolimit", "pot-limit"), "unknown GAMEDEF line"),
        (("stack = 20000 20000", "stack = 20000 lots"), "needs whole numbers"),
    ],
)
def test_gamedef_that_holdem_cannot_represent_is_refused(change: tuple[str, str], message: str) -> None:
    text = (SHIPPED_GAMES / "holdem.nolimit.2p.reverse_blinds.game").read_text()
    assert change[0] in text
    with pytest.raises(GameDefError, match=message):
        parse_gamedef(text.replace(change[0], change[1]))


def test_a_limit_game_needs_two_raise_sizes() -> None:
    text = (SHIPPED_GAMES / "holdem.limit.3p.game").read_text()
    with pytest.raises(GameDefError, match="one size on the first two rounds"):
        parse_gamedef(text.replace("raiseSize = 10 10 20 20", "raiseSize = 10 20 20 20"))
    with pytest.raises(GameDefError, match="needs raiseSize"):
        parse_gamedef(text.replace("raiseSize = 10 10 20 20\n", ""))


# ----------------------------------------------------------------- match states
def test_match_states_read_as_the_protocol_writes_them() -> None:
    """Position 1 (the dealer heads-up) raised to 300 in total, position 0 called; the flop is out."""
    state = parse_match_state("MATCHSTATE:1:30:r300c/:|9hQd/8dAs8s", NL2)
    assert (1, 30) == (state.position, state.hand)
    assert ((("r", 300), ("c", None)), ()) == state.betting
    assert state.holes[0] is None and "9hQd" == "".join(map(str, state.holes[1] or ()))
    hand = hand_from_state(state, NL2)
    assert 0 == hand.actor and 600 == hand.pot and 3 == len(hand.board)
    assert "MATCHSTATE:1:30:r300c/:|9hQd/8dAs8s" == str(state)
    assert parse_match_state("MATCHSTATE:1:30:R300K/:|9hQd/8dAs8s", NL2) == state  # k is c; any case


@pytest.mark.parametrize(
    "line",
    [
        "MATCHSTATE:2:0::|9hQd",  # no position 2 heads-up
        "MATCHSTATE:0:0:cc/:9hQd|",  # round 2 without its flop
        "MATCHSTATE:0:0:cc:9hQd|/8dAs8s",  # a flop before the round is reached
        "MATCHSTATE:0:0:r:9hQd|",  # a no-limit raise without its size
        "MATCHSTATE:0:0:x:9hQd|",
        "MATCHSTATE:0:0::9hQd|9hQs",  # a card twice
        "MATCHSTATE:0:0::9hQ|",
        "MATCHSTATE:0:zero::9hQd|",
        "STATE:0:0::9hQd|",
    ],
)
def test_malformed_match_states_are_a_protocol_error(line: str) -> None:
    with pytest.raises(ProtocolError):
        parse_match_state(line, NL2)


def test_betting_the_engine_refuses_is_a_protocol_error() -> None:
    # a fold when checking is free; a raise to no more than the bet; a re-raise below the minimum;
    # a call after the hand is over
    for betting in ("cf", "cr100", "r300r400", "fc"):
        with pytest.raises(ProtocolError):
            hand_from_state(parse_match_state(f"MATCHSTATE:0:0:{betting}:9hQd|", NL2), NL2)


@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=examples(120), deadline=None)
def test_every_state_of_random_hands_round_trips(game: str, seed: int) -> None:
    """Every position's state after every action formats, parses back equal, and replays to the
    same hand; finished hands are valued as the reference does, zero-sum and within a chip of the
    engine's settlement (which gives odd chips instead of fractions)."""
    spec, rng = load_gamedef(game), random.Random(seed)
    hand = start_hand(spec, Deck.shuffled(rng))
    while True:
        for position in range(spec.num_players):
            state = state_of(hand, position, seed % 1000)
            text = str(state)
            assert state == parse_match_state(text, spec) and text == str(parse_match_state(text, spec))
            again = hand_from_state(state, spec)
            assert (again.history, again.actor, again.board) == (hand.history, hand.actor, hand.board)
        if hand.actor is None:
            break
        legal = hand.legal_actions()
        assert legal is not None
        action = random_policy(legal, rng)
        hand.act(action if hand.is_legal(action) else Action.check())
    won = values(hand)
    assert abs(sum(won)) < 1e-9
    assert all(abs(w - (s - s0)) < 1 for w, s, s0 in zip(won, hand.stacks, hand.starting_stacks, strict=True))
    logged = parse_state_line(state_of(hand, 0, 1, show_all=True).log_line() + ":0|0:a|b", spec)
    assert hand_from_state(logged, spec).history == hand.history


# ----------------------------------------------------------------- the ACPC rules (RULES.md 21)
def test_rule_21_acpc_after_a_short_all_in_the_minimum_raise_is_the_dealers() -> None:
    """The reference dealer: a raise to `size` facing `level` makes the next minimum raise-to the
    larger of the previous one and 2 * size - level. The button raises to 300 (minimum next: 500);
    the small blind's all-in to 420 is short; the big blind may then raise to 540 (WSOP: 620, since
    a short all-in does not change the increment), and the button may raise again (rule 8 off)."""
    for rules, minimum, button_may_raise in ((Rules.acpc(), 540, True), (Rules(), 620, False)):
        hand = Hand.start([420, 1000, 1000], Stakes(50, 100), rules=rules)
        hand.act(Action.raise_to(300))  # the button (player 2) acts first
        legal = hand.legal_actions()  # the small blind cannot reach the minimum 500: all-in only
        assert legal is not None and 420 == legal.min_raise_to == legal.max_raise_to
        hand.act(Action.all_in())
        legal = hand.legal_actions()
        assert legal is not None and minimum == legal.min_raise_to
        hand.act(Action.call())  # the big blind calls 420
        legal = hand.legal_actions()
        assert legal is not None and (legal.min_raise_to is not None) == button_may_raise


def test_rule_21_acpc_max_raises_caps_each_round_even_heads_up() -> None:
    """ACPC limit games cap raises per round (maxRaises 3 4 4 4) also heads-up, where WSOP fixed
    limit is uncapped (rule 13)."""
    game = load_gamedef("holdem.limit.2p.reverse_blinds.game")
    hand = start_hand(game, Deck.shuffled(random.Random(1)))
    for _ in range(3):
        hand.act(Action.raise_to(hand.legal_actions().min_raise_to))  # type: ignore[union-attr,arg-type]
    legal = hand.legal_actions()
    assert legal is not None and legal.min_raise_to is None and legal.can_call


def test_rule_21_acpc_a_fold_when_checking_is_free_is_not_an_action() -> None:
    hand = Hand.start([200, 200], Stakes(1, 2), rules=Rules.acpc())
    hand.act(Action.call())
    assert not hand.is_legal(Action.fold()) and hand.is_legal(Action.check())


# ----------------------------------------------------------------- the dealer's generator
def test_the_card_generator_is_the_reference_mt19937() -> None:
    """init_genrand(5489)'s first output is MT19937's published 3499211612."""
    assert 3499211612 == acpc_generator(5489).getrandbits(32)
    holes, board = deal(acpc_generator(7), 3)
    again = deal(acpc_generator(7), 3)
    assert (holes, board) == again and 11 == len({c for h in holes for c in h} | set(board))
    assert ["-100", "50.5", "0", "-0.25"] == [format_value(v) for v in (-100.0, 50.5, 0.0, -0.25)]


# ----------------------------------------------------------------- dealer and clients over TCP
def _run_match(tmp_path: Path, game: str, names: list[str], bots: list[str], hands: int) -> tuple[str, str]:
    """`holdem acpc dealer` and one `holdem acpc play` per seat, as processes on loopback."""
    holdem = [sys.executable, "-m", "holdem"]
    dealer = subprocess.Popen(
        [*holdem, "acpc", "dealer", "m", game, str(hands), "11", *names, "--host", "127.0.0.1",
         "--start_timeout", "30000", "--t_response", "20000"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    assert len(ports) == len(names)
    clients = [
        subprocess.Popen(
            [*holdem, "acpc", "play", "127.0.0.1", port, "--bot", bot, "--game", game, "--seed", str(k)],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k, (port, bot) in enumerate(zip(ports, bots, strict=True))
    ]
    outs = [client.communicate(timeout=120) for client in clients]
    rest, errors = dealer.communicate(timeout=30)
    assert 0 == dealer.returncode, errors
    for client, (out, err) in zip(clients, outs, strict=True):
        assert 0 == client.returncode, err
        assert 1 == len(out.strip().splitlines()) and f"{hands} hands" in out
    return rest, errors


@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("holdem.nolimit.2p.reverse_blinds.game", ["random", "calling-station"]),
        ("holdem.limit.2p.reverse_blinds.game", ["random", "equity[samples=30]"]),
        ("holdem.nolimit.3p.game", ["random", "random", "calling-station"]),
        ("holdem.limit.3p.game", ["random", "calling-station", "random"]),
    ],
)
def test_dealer_and_clients_play_a_match_over_tcp(tmp_path: Path, game: str, bots: list[str]) -> None:
    """Every logged hand replays under the ACPC rules to its logged values, every hand is zero-sum,
    the seats rotate, and the SCORE line holds each name's total."""
    names = [f"p{k}" for k in range(len(bots))]
    hands = 60
    out, errors = _run_match(tmp_path, game, names, bots, hands)
    spec = load_gamedef(game)
    lines = (tmp_path / "m.log").read_text().splitlines()
    states = [line for line in lines if line.startswith("STATE:")]
    assert hands == len(states)
    totals = dict.fromkeys(names, 0.0)
    for k, line in enumerate(states):
        state = parse_state_line(line, spec)
        assert k == state.hand
        logged = [float(v) for v in line.split(":")[-2].split("|")]
        seated = line.split(":")[-1].split("|")
        assert seated == [names[(p + k) % len(names)] for p in range(len(names))]  # seats rotate
        assert values(hand_from_state(state, spec)) == pytest.approx(logged)
        assert abs(sum(logged)) < 1e-6
        for name, value in zip(seated, logged, strict=True):
            totals[name] += value
    score = lines[-1]
    assert score.startswith("SCORE:") and score in out and "invalid action" not in errors
    values_part, names_part = score.split(":")[1:]
    assert names == names_part.split("|")
    assert [totals[n] for n in names] == pytest.approx([float(v) for v in values_part.split("|")], abs=1e-4)


class _RawAgent:
    """A hand-written agent on a raw socket, answering with whatever a test gives it."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.reader = self.sock.makefile("r", newline="\r\n")
        self.sock.sendall(b"VERSION:2.0.0\r\n")

    def next_turn(self, position: int, game: object) -> str | None:
        """The next state line in which this agent is to act (None when the match is over)."""
        for line in self.reader:
            line = line.rstrip("\r\n")
            hand = hand_from_state(parse_match_state(line, game), game)  # type: ignore[arg-type]
            if hand.actor == position:
                return line
        return None

    def send(self, text: str) -> None:
        self.sock.sendall(text.encode() + b"\r\n")

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


def _dealer_thread(tmp_path: Path, hands: int) -> tuple[threading.Thread, list[int], dict[str, object]]:
    import io
    import os

    ports_out, errors, outcome = io.StringIO(), io.StringIO(), dict[str, object]()
    ready = threading.Event()

    class Out(io.StringIO):
        def write(self, text: str) -> int:
            ports_out.write(text)
            ready.set()
            return len(text)

    def run() -> None:
        here = os.getcwd()
        try:
            os.chdir(tmp_path)
            outcome["totals"] = run_dealer(
                "raw", NL2, "nl2", hands, 3, ["a", "b"], host="127.0.0.1", response_seconds=5,
                start_seconds=20, out=Out(), err=errors,
            )  # fmt: skip
        except DealerError as error:
            outcome["error"] = str(error)
        finally:
            os.chdir(here)
            outcome["stderr"] = errors.getvalue()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10)
    return thread, [int(p) for p in ports_out.getvalue().split()], outcome


def test_dealer_plays_bad_answers_as_calls_and_fixes_raise_sizes(tmp_path: Path) -> None:
    """As the reference dealer: comments and replies to another state are skipped, an unreadable
    action is played as a call, and a raise beyond the stack is cut to all-in."""
    thread, ports, outcome = _dealer_thread(tmp_path, 1)
    seat1, seat2 = _RawAgent(ports[0]), _RawAgent(ports[1])  # hand 0: seat 1 is position 0
    line = seat2.next_turn(1, NL2)  # position 1 (the dealer, small blind) acts first heads-up
    assert line is not None and line.startswith("MATCHSTATE:1:0::")
    seat2.send("# thinking")
    seat2.send(line.replace("MATCHSTATE:1:0:", "MATCHSTATE:1:5:") + ":f")  # about another hand
    seat2.send(line + ":x")  # unreadable: a call
    line = seat1.next_turn(0, NL2)
    assert line is not None and line.startswith("MATCHSTATE:0:0:c:")
    seat1.send(line + ":r999999")  # beyond the stack: all-in
    line = seat2.next_turn(1, NL2)
    assert line is not None and line.startswith("MATCHSTATE:1:0:cr20000:")
    seat2.send(line + ":f")
    assert seat1.next_turn(0, NL2) is None  # the match is over
    thread.join(20)
    seat1.close()
    seat2.close()
    assert [100.0, -100.0] == outcome["totals"], outcome
    assert "STATE:0:cr20000f:" in (tmp_path / "raw.log").read_text()
    stderr = str(outcome["stderr"])
    assert "changed to call" in stderr and "un-requested" in stderr


def test_a_player_who_leaves_ends_the_match_with_an_error(tmp_path: Path) -> None:
    thread, ports, outcome = _dealer_thread(tmp_path, 5)
    seat1, seat2 = _RawAgent(ports[0]), _RawAgent(ports[1])
    assert seat2.next_turn(1, NL2) is not None
    seat2.close()
    thread.join(20)
    seat1.close()
    assert "seat 2 closed the connection" == outcome.get("error")


def test_the_dealer_command_reports_a_missing_player_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "holdem", "acpc", "dealer", "m", "holdem.limit.2p.reverse_blinds.game", "3",
         "1", "a", "b", "--host", "127.0.0.1", "--start_timeout", "200"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert 2 == done.returncode
    assert "no player connected to seat 1 in time" in done.stderr
    assert 1 == len([line for line in done.stderr.splitlines() if "error" in line])


def test_a_client_never_sends_an_invalid_action(tmp_path: Path) -> None:
    """A bot that always answers an impossible raise is replaced by the fallback on the client
    side: the dealer sees no invalid action."""
    bot = tmp_path / "wild.py"
    bot.write_text(
        "from holdem import Action\n"
        "class Wild:\n"
        "    def act(self, view):\n"
        "        return Action.raise_to(1)\n"
    )
    out, errors = _run_match(
        tmp_path, "holdem.nolimit.2p.reverse_blinds.game", ["w", "r"], ["wild:Wild", "random"], 20
    )
    assert "invalid action" not in errors and "SCORE:" in out


@pytest.mark.parametrize("betting", ["r250cc/", "cc/cc/r500cc/", "r250c/cr500cc/"])
def test_a_round_break_in_the_wrong_place_is_a_protocol_error(betting: str) -> None:
    """Heads-up `r250cc/` has an action too many in round 1: it is refused, not read as `r250c/c`."""
    boards = "/".join(["8dAs8s", "Kh", "2c"][: betting.count("/")])
    with pytest.raises(ProtocolError, match="is over before its last action"):
        hand_from_state(parse_match_state(f"MATCHSTATE:0:0:{betting}:9hQd|/{boards}", NL2), NL2)
