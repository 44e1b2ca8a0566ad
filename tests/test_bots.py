"""Bots and matches: no hidden information, duplicate fairness, reproducibility, faults, strength."""

import itertools
import math
import random
import time
from typing import Any, ClassVar

import pytest

import holdem.bots.match as match_module
from holdem import Action, Card, parse_cards
from holdem.bots import BotLoadError, load_bot, parse_spec
from holdem.bots.confidence import mean_ci
from holdem.bots.match import MatchConfig, play_hand, play_match
from holdem.cards.deck import Deck
from holdem.formats.phh import replay
from holdem.hand.actions import ActionKind
from holdem.hand.events import HandResult, Phase
from holdem.hand.state import Hand
from holdem.hand.views import SeatView
from tests.strategies import cards_in


class SpyBot:
    """Calls everything and remembers every card it was ever shown, per hand."""

    seen: ClassVar[dict[int, set[Card]]] = {}

    def __init__(self) -> None:
        self.hand = -1

    def start_hand(self, view: SeatView) -> None:
        self.hand += 1
        self.player = view.player
        SpyBot.seen[self.hand] = cards_in(view)

    def act(self, view: SeatView) -> Action:
        SpyBot.seen[self.hand] |= cards_in(view)
        return Action.check() if view.legal is not None and view.legal.can_check else Action.call()

    def end_hand(self, view: SeatView, result: HandResult) -> None:
        SpyBot.seen[self.hand] |= cards_in(view) | cards_in(result)


def test_bots_never_see_hidden_cards() -> None:
    """A bot inspecting everything it is given finds no unshown hole cards of others, and no deck."""
    SpyBot.seen = {}
    config = MatchConfig(("tests.test_bots:SpyBot", "random", "random"), seed=4)
    bots = [load_bot(spec) for spec in config.specs]
    for index in range(60):
        (history,) = play_hand(config, bots, index, export=True).histories
        spy = bots[0]
        assert isinstance(spy, SpyBot)
        me = f"p{spy.player + 1}"
        visible: set[Card] = set()  # own hole cards, the board, and cards shown down
        for line in history["actions"]:
            words = line.split()
            if words[:2] == ["d", "dh"] and words[2] == me:
                visible |= set(parse_cards(words[3]))
            elif words[:2] == ["d", "db"] or (len(words) == 3 and words[1] == "sm"):
                visible |= set(parse_cards(words[2]))
        assert SpyBot.seen[spy.hand], "the spy saw nothing at all"
        assert SpyBot.seen[spy.hand] <= visible


class Recorder:
    """Plays randomly and keeps, in order, every view it was given and what it answered."""

    decisions: ClassVar[list[tuple[SeatView, Action]]] = []

    def __init__(self) -> None:
        self.random = load_bot("random")

    def act(self, view: SeatView) -> Action:
        action = self.random.act(view)
        Recorder.decisions.append((view, action))
        return action


def test_a_bot_in_a_match_sees_the_view_of_its_seat() -> None:
    """Every view a match hands a bot equals `view(hand, player)` of the same hand replayed, field
    for field, read then or after the hand (the match builds the views of its hot loop inline)."""
    config = MatchConfig(("tests.test_bots:Recorder",) * 3, stack=60, seed=3)
    bots = [load_bot(spec) for spec in config.specs]
    for bot in bots:
        bot.random.set_random(random.Random(7))  # type: ignore[attr-defined]
    for index in range(0, 30, 3):  # rotation 0: the bot at position p is bot p
        deck = Deck.sampled(random.Random(index), 14)
        Recorder.decisions = []
        play_hand(config, bots, index, deck=deck.copy())
        hand = Hand.start([60] * 3, config.stakes, deck=deck)
        for seen, action in Recorder.decisions:
            assert hand.actor is not None
            assert hand.view(hand.actor) == seen
            hand.act(action)
        assert hand.actor is None and Recorder.decisions


def test_duplicate_match_of_identical_bots_is_exactly_even() -> None:
    """Every deal played from every seat: identical deterministic bots break exactly even."""
    for bots in (("calling-station", "calling-station"), ("calling-station",) * 3):
        result = play_match(MatchConfig(bots, seed=9, duplicate=True), 60)
        assert [0] * len(bots) == [b.chips for b in result.bots]


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    """The same seed gives the same results in one process or several."""
    config = MatchConfig(("equity[samples=50]", "random", "calling-station"), seed=5)
    assert play_match(config, 24, workers=1) == play_match(config, 24, workers=2)


@pytest.mark.parametrize("opponent", ["random", "calling-station"])
def test_equity_bot_beats_baselines_with_95_percent_confidence(opponent: str) -> None:
    """In a 400-hand duplicate match, equity wins and the whole 95% interval is above zero."""
    result = play_match(MatchConfig(("equity", opponent), seed=11, duplicate=True), 400)
    equity = result.bots[0]
    assert equity.ci95[0] > 0, equity


def test_confidence_interval_matches_a_hand_computation() -> None:
    """1..5: mean 3, sample variance 2.5, standard error sqrt(0.5), z = 1.959964 for 95%."""
    mean, low, high = mean_ci([1, 2, 3, 4, 5])
    half = 1.959963984540054 * math.sqrt(2.5 / 5)
    assert (3.0, pytest.approx(3 - half), pytest.approx(3 + half)) == (mean, low, high)
    assert (3 - 1.385903, 3 + 1.385903) == (pytest.approx(low, abs=1e-6), pytest.approx(high, abs=1e-6))


def test_vpip_and_pfr() -> None:
    """Heads-up, a calling station puts money in voluntarily whenever it is the small blind; as the
    big blind it has a walk (the folder folds its small blind), which is no chance, as `holdem stats`
    counts VPIP: so every one of its hands but the walks."""
    result = play_match(MatchConfig(("calling-station", "folder"), seed=1), 40)
    station, folder = result.bots
    assert (1.0, 0.0, 0.0, 0.0) == (station.vpip, station.pfr, folder.vpip, folder.pfr)


class Crasher:
    def act(self, view: SeatView) -> Action:
        raise RuntimeError("boom")


class Cheater:
    def act(self, view: SeatView) -> Action:
        return Action.raise_to(10**9)


class Junk:
    def act(self, view: SeatView) -> Any:
        return "all in!"


class Sleeper:
    def act(self, view: SeatView) -> Action:
        time.sleep(0.02)
        return Action.call()


@pytest.mark.parametrize(
    ("bot", "reason"),
    [("Crasher", "act raised RuntimeError: boom"), ("Cheater", "illegal action raise 1000000000"),
     ("Junk", "act returned 'all in!', not an Action"), ("Sleeper", "over the 0.005s limit")],
)  # fmt: skip
def test_faulty_bots_are_folded_and_recorded(bot: str, reason: str) -> None:
    """A failing bot never stops a match: it folds (or checks), and the fault is counted."""
    config = MatchConfig((f"tests.test_bots:{bot}", "calling-station"), seed=2, time_limit=0.005)
    result = play_match(config, 6)
    assert 6 == result.hands
    assert result.bots[0].faults == len(result.faults) > 0
    assert reason in result.faults[0].reason
    assert 0 == result.bots[1].faults


def test_unknown_bots_are_clear_errors() -> None:
    """Unknown names, bad import paths and bad arguments are BotLoadErrors naming the bot."""
    with pytest.raises(BotLoadError, match="unknown bot 'nosuch'"):
        load_bot("nosuch")
    with pytest.raises(BotLoadError, match="cannot import 'nosuch_module'"):
        load_bot("nosuch_module:Bot")
    with pytest.raises(BotLoadError, match="cannot build bot 'equity'"):
        load_bot("equity[samples=0]")
    assert ("equity", {"samples": 50, "seconds": 0.5}) == parse_spec("equity[samples=50, seconds=0.5]")


def test_scripted_bot_plays_its_script() -> None:
    """The scripted test double plays the given actions, then checks or calls."""
    result = play_match(MatchConfig(("scripted[actions=r 10]", "folder"), seed=1), 2)
    # Hand 0: the folder, on the button, folds its small blind. Hand 1: the script raises, the folder folds.
    assert (3, 1) == (result.bots[0].chips, result.bots[0].decisions)


class Learner:
    """Remembers how many hands it has played and raises every third hand: state across hands."""

    def __init__(self) -> None:
        self.hands = 0

    def start_hand(self, view: SeatView) -> None:
        self.hands += 1

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        assert legal is not None
        if self.hands % 3 == 0 and legal.min_raise_to is not None:
            return Action.raise_to(legal.min_raise_to)
        return Action.check() if legal.can_check else Action.call()


def test_bots_that_learn_across_hands_are_reproducible_across_workers() -> None:
    """Hands run in fixed chunks with fresh bots, so even stateful bots give worker-independent results."""
    config = MatchConfig(("tests.test_bots:Learner", "random"), seed=8)
    assert play_match(config, 130, workers=1) == play_match(config, 130, workers=2)


def recount(documents: list[dict[str, Any]], names: list[str], group: int) -> dict[str, Any]:
    """A match's statistics recomputed the slow, obvious way from its replayed hand histories."""
    n = len(names)
    chips, curve, deals = [0] * n, [], [[0] * n]
    counts = {key: [0] * n for key in ("vpip", "pfr", "raises", "calls", "decisions", "walks")}
    for k, document in enumerate(documents):
        hand = replay(document).hand
        assert hand is not None and hand.is_complete
        bot_of = [names.index(name) for name in document["players"]]
        for p, b in enumerate(bot_of):
            won = hand.stacks[p] - hand.starting_stacks[p]
            chips[b] += won
            deals[-1][b] += won
        voluntary, raised = set(), set()
        for kind, p, _, _, action, phase in hand.log:
            if kind != "action":
                continue
            b = bot_of[p]
            counts["decisions"][b] += 1
            counts["raises"][b] += action.kind is ActionKind.RAISE and phase is not Phase.PREFLOP
            counts["calls"][b] += action.kind is ActionKind.CALL and phase is not Phase.PREFLOP
            if phase is Phase.PREFLOP and action.kind in (ActionKind.RAISE, ActionKind.CALL):
                voluntary.add(b)
                if action.kind is ActionKind.RAISE:
                    raised.add(b)
        never = [p for p in range(n) if all(q != p for q, _ in hand.history)]
        if not voluntary and not hand.board and len(never) == 1:  # a walk: the one who never acted
            counts["walks"][bot_of[never[0]]] += 1
        for b in voluntary:
            counts["vpip"][b] += 1
        for b in raised:
            counts["pfr"][b] += 1
        curve.append((k + 1, tuple(chips)))
        if (k + 1) % group == 0:
            deals.append([0] * n)
    return {"chips": chips, "curve": curve, "deals": deals[:-1], **counts}


@pytest.mark.parametrize("duplicate", [False, True])
def test_match_statistics_equal_a_recount_from_the_hand_histories(
    duplicate: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The streamed totals (chips, VPIP, PFR, aggression, decisions, the interval and the thinned
    curve) are exactly what the hands themselves say, over several chunks and curve thinnings."""
    monkeypatch.setattr(match_module, "CURVE_POINTS", 8)
    names = ["random", "calling-station", "folder", "equity[samples=20]"]
    documents: list[dict[str, Any]] = []
    config = MatchConfig(tuple(names), seed=21, duplicate=duplicate)
    result = play_match(config, 236, history=documents.append)
    expected = recount(documents, names, len(names) if duplicate else 1)
    hands = result.hands
    assert hands == len(documents) == 236  # 59 whole deals of 4
    for b, bot in enumerate(result.bots):
        assert expected["chips"][b] == bot.chips
        assert expected["decisions"][b] == bot.decisions
        chances = hands - expected["walks"][b]  # every hand but a walk, as holdem stats counts them
        assert (expected["vpip"][b] / chances, expected["pfr"][b] / chances) == (bot.vpip, bot.pfr)
        calls = expected["calls"][b]
        assert (expected["raises"][b] / calls if calls else None) == bot.aggression
        group = len(names) if duplicate else 1  # bb/100 from chips per deal, big blind 2
        mean, low, high = mean_ci([deal[b] * 100 / 2 / group for deal in expected["deals"]])
        assert (pytest.approx(mean), pytest.approx(low), pytest.approx(high)) == (bot.bb_per_100, *bot.ci95)
    points = dict(expected["curve"])
    assert 8 <= len(result.curve) < 2 * 8 + 1
    assert result.curve[-1] == (hands, points[hands])
    assert all(points[k] == chips for k, chips in result.curve)
    strides = {b[0] - a[0] for a, b in itertools.pairwise(result.curve[:-1])}
    assert len(strides) == 1, "evenly spaced"


class _OwnAction(Action):
    """An answer of a subclass of Action: still an Action."""


class _SubclassStation:
    """A calling station answering with `_OwnAction`s."""

    def act(self, view: SeatView) -> Action:
        assert view.legal is not None
        return _OwnAction("check") if view.legal.can_check else _OwnAction("call")


def test_a_bot_answering_with_a_subclass_of_action_plays_as_its_answers_say() -> None:
    """A legal answer of a subclass of Action is applied without a fault (the match loop once
    asserted that any answer of another type was refused): it plays as a calling station does."""
    own = play_match(MatchConfig((_SubclassStation, "calling-station"), seed=4), 60)
    plain = play_match(MatchConfig(("calling-station", "calling-station"), seed=4), 60)
    assert 0 == sum(bot.faults for bot in own.bots)
    assert [bot.chips for bot in plain.bots] == [bot.chips for bot in own.bots]
    assert [bot.vpip for bot in plain.bots] == [bot.vpip for bot in own.bots]
