"""The examples in the docstrings of the public entry points run, and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

ENTRY_POINTS = {
    "holdem.cards.evaluator": ["evaluate", "best_hands"],
    "holdem.cards.odds": ["equity"],
    "holdem.hand.state": ["Hand"],
    "holdem.hand.voluntary": ["entered"],
    "holdem.table.table": ["Table"],
    "holdem.bots.match": ["play_match"],
    "holdem.tournament.icm": ["icm"],
    "holdem.stats.collect": ["Collection"],
    "holdem.solver.solve": ["solve"],
}


@pytest.mark.parametrize("module", sorted(ENTRY_POINTS))
def test_the_examples_of_each_public_entry_point_run(module: str) -> None:
    loaded = importlib.import_module(module)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = {}
    for name in ENTRY_POINTS[module]:
        for test in finder.find(getattr(loaded, name), name, module=loaded, globs=vars(loaded).copy()):
            examples[test.name] = len(test.examples)
            runner.run(test)
    assert all(examples.get(name) for name in ENTRY_POINTS[module]), examples  # each shows one at least
    assert 0 == runner.failures
