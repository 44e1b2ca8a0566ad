"""0.1's module paths keep working through 0.2 with a warning that names the new one (issue 63,
item 1): every old path imports, warns, and is the very module (and its objects the very objects)
at the new path."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import warnings

import pytest

import holdem
from holdem._moved import MOVED, MOVED_NAMES, REMOVED_IN


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_every_old_module_path_imports_as_the_new_module_with_a_warning_naming_it(old: str, new: str) -> None:
    code = (
        "import importlib, warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    old = importlib.import_module({old!r})\n"
        f"new = importlib.import_module({new!r})\n"
        "assert old is new, (old, new)\n"
        "print([str(w.message) for w in caught if w.category is DeprecationWarning])\n"
    )  # a fresh process: the first import of the old path is the one that warns
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{old} moved to {new} in holdem 0.2; the old path goes in {REMOVED_IN}" in done.stdout


def test_the_usual_old_imports_give_the_same_objects() -> None:
    """What 0.1's README showed: play_table, read_hands, play_match, phh, the snapshot functions."""
    code = (
        "import warnings\n"
        "warnings.simplefilter('error', DeprecationWarning)\n"
        "try:\n"
        "    from holdem.session import play_table\n"
        "except DeprecationWarning as w:\n"
        "    print('refused:', w)\n"
        "warnings.simplefilter('ignore', DeprecationWarning)\n"
        "from holdem.session import play_table\n"
        "from holdem.pokerstars import read_hands\n"
        "from holdem.match import play_match\n"
        "from holdem import phh\n"
        "from holdem.snapshot import table_to_json\n"
        "import holdem.pokerstars.read as old_read\n"
        "import holdem.bots.session, holdem.formats.pokerstars, holdem.bots.match, holdem.formats.phh\n"
        "import holdem.table.snapshot, holdem.formats.pokerstars.read\n"
        "assert play_table is holdem.bots.session.play_table\n"
        "assert read_hands is holdem.formats.pokerstars.read_hands\n"
        "assert play_match is holdem.bots.match.play_match and phh is holdem.formats.phh\n"
        "assert table_to_json is holdem.table.snapshot.table_to_json\n"
        "assert old_read is holdem.formats.pokerstars.read\n"
        "print('same')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "refused: holdem.session moved to holdem.bots.session" in done.stdout and "same" in done.stdout


@pytest.mark.parametrize(
    ("package", "name"), [(p, n) for p, names in sorted(MOVED_NAMES.items()) for n in sorted(names)]
)
def test_an_old_name_a_package_took_over_is_found_with_a_warning(package: str, name: str) -> None:
    """``from holdem.stats import mean_ci`` failed far from the cause: holdem.stats is the player
    statistics now."""
    module = importlib.import_module(package)
    where = importlib.import_module(MOVED_NAMES[package][name])
    with pytest.warns(DeprecationWarning, match=f"{package}.{name} moved to .*from {where.__name__} import"):
        found = getattr(module, name)
    assert found is getattr(where, name)


def test_a_name_that_never_was_is_still_an_attribute_error() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="no attribute 'nothing'"):
            _ = holdem.stats.nothing  # type: ignore[attr-defined]


def test_the_version_says_the_layout_changed() -> None:
    assert "0.2.0" == holdem.__version__


def test_what_0_1_had_and_0_2_deprecates_still_works_with_a_warning() -> None:
    """Deck.peek, holdem.bots.report.progress_bar and holdem.bots.HandHooks: unused by the package,
    kept until 0.3 with a DeprecationWarning (the README's policy)."""
    import holdem.bots
    from holdem.bots import report
    from holdem.cards.deck import Deck

    deck = Deck.shuffled(random.Random(1))
    with pytest.warns(DeprecationWarning, match="Deck.peek"):
        top = deck.peek(2)
    assert top == deck.deal(2)
    with pytest.warns(DeprecationWarning, match="progress.counter"):
        report.progress_bar()
    with pytest.warns(DeprecationWarning, match="HandHooks"):
        assert holdem.bots.HandHooks.__name__ == "_HandHooks"


def test_names_that_meant_two_things_keep_their_old_spelling_until_0_3() -> None:
    """The log's card field was CARDS (like `holdem.CARDS`, the 52 cards): it is DEALT. A player in
        dealing order was `seat` in `Hand.events`: it is `player`, as everywhere but at a table. The
    dead money in the pot was `Hand.dead`, beside `start(dead=)` for each player's: it is `dead_money`."""
    from holdem import Action, Hand, Stakes
    from holdem.hand import events

    with pytest.warns(DeprecationWarning, match="now DEALT"):
        assert events.DEALT == events.CARDS
    hand = Hand.start([100, 100], Stakes(1, 2), rng=random.Random(2))
    hand.act(Action.fold())
    with pytest.warns(DeprecationWarning, match="player="):
        assert hand.events(seat=1) == hand.events(player=1) == hand.events(1)
    with pytest.raises(TypeError, match="'seats'"):
        hand.events(seats=1)
    dead = Hand.start([100] * 3, Stakes(1, 2), dead=[0, 0, 1], rng=random.Random(2))
    with pytest.warns(DeprecationWarning, match="dead_money"):
        assert 1 == dead.dead == dead.dead_money  # the total; start's dead= is each player's


def test_names_renamed_in_round_6_keep_their_old_spelling_with_a_warning_until_0_3() -> None:
    """Round 6 renamed names that meant two things: `Hand.street` (the board says it), the
    server's `Store` (`Database`, beside `Storage`), what holds token digests (`digests`) and the
    room's settle-up (`settle_up`). Each old name still works, and warns."""
    pytest.importorskip("starlette", reason="the server extra is not installed")
    from holdem import Action, Hand, Stakes
    from holdem.hand.events import Phase
    from holdem.server import storage
    from holdem.server.change import StoredHand
    from holdem.server.registry import Registry

    hand = Hand.start([100, 100], Stakes(1, 2), rng=random.Random(3))
    with pytest.warns(DeprecationWarning, match="Hand.street"):
        assert Phase.PREFLOP == hand.street
    while not hand.is_complete:
        hand.act(Action.call() if hand.legal_actions().can_call else Action.check())  # type: ignore[union-attr]
    with pytest.warns(DeprecationWarning, match="Hand.street"):
        assert Phase.RIVER == hand.street and 5 == len(hand.board)
    with pytest.warns(DeprecationWarning, match="Database"):
        assert storage.Database is storage.Store  # type: ignore[attr-defined]
    with pytest.warns(DeprecationWarning, match="digests"):
        assert ("a", "b") == StoredHand(1, "", ("a", "b")).tokens
    with pytest.warns(DeprecationWarning, match="digests"):
        assert {} == dict(Registry().tokens)
