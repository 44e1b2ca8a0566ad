"""Push or fold at a tournament's end, valued by ICM: cases with known answers, and the command."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from holdem.errors import InvalidConfigError
from holdem.pushfold import exploitability, solve_headsup
from holdem.pushfold.classes import NAMES
from holdem.pushfold.endgame import EndGame, _payoffs, describe, solve_endgame

COMBOS = np.array([6 if n[0] == n[1] else 4 if n.endswith("s") else 12 for n in NAMES])


def share(weights: np.ndarray) -> float:  # type: ignore[type-arg]
    return float((weights * COMBOS).sum() / 1326)


def test_a_final_two_with_linear_payouts_plays_the_chip_ev_equilibrium() -> None:
    """With two players left, ICM is linear in chips, so the end-game is the heads-up chip-EV game:
    its strategies, measured in the exact heads-up game, are within a hundredth of a big blind a hand
    of equilibrium, and push and call about as often as `solve_headsup`'s (within 3 points: classes
    at the margin are nearly indifferent, and which way they go moves with the sampled deals)."""
    game = EndGame((2000, 2000), 100, 200, (1.0, 0.0))
    solution = solve_endgame(game, deals=100_000)
    push, call = solution.strategies[(0,)], solution.strategies[(1, 0)]
    _, push_gain, call_gain = exploitability(10, 0, push, call)
    assert max(push_gain, call_gain) < 0.01, (push_gain, call_gain)
    chip_ev = solve_headsup(10)
    assert abs(share(push) - share(chip_ev.push)) < 0.03 and abs(share(call) - share(chip_ev.call)) < 0.03


def test_equal_stacks_are_symmetric() -> None:
    """Equal stacks are worth the same (ICM), and three of them share the pool: after one hand each
    position's equity is within a few points of a third, the pool kept whole."""
    game = EndGame((3000, 3000, 3000), 100, 200, (50.0, 30.0, 20.0))
    assert _payoffs(game, np.array([[3000, 3000, 3000]]))[0] == pytest.approx([1 / 3] * 3)
    solution = solve_endgame(game, deals=50_000)
    assert sum(solution.equities) == pytest.approx(1.0, abs=1e-9)
    assert all(abs(e - 1 / 3) < 0.03 for e in solution.equities), solution.equities


def test_one_player_with_every_chip_wins_the_first_prize() -> None:
    """Whoever holds every chip takes first; the players the hand busts take the next places, the
    larger starting stack the better (rule 28), and equal starting stacks share theirs."""
    game = EndGame((3000, 2000, 1500, 1000), 100, 200, (50.0, 30.0, 20.0))
    assert _payoffs(game, np.array([[7500, 0, 0, 0]]))[0] == pytest.approx([0.5, 0.3, 0.2, 0.0])
    tied = EndGame((3000, 1500, 1500, 1000), 100, 200, (50.0, 30.0, 20.0))
    assert _payoffs(tied, np.array([[0, 0, 0, 7000]]))[0] == pytest.approx([0.3, 0.1, 0.1, 0.5])


def test_a_four_player_end_game_reports_each_players_exploitability() -> None:
    game = EndGame((3000, 2000, 1500, 1000), 100, 200, (50.0, 30.0, 20.0))
    solution = solve_endgame(game, deals=30_000, iterations=300)
    assert len(solution.exploitability) == 4 and max(solution.exploitability) < 1e-3
    assert sum(solution.equities) == pytest.approx(1.0, abs=1e-9)
    assert "AA" in solution.push_range(2) and "AA" in solution.call_range(1, 2)


def test_leaving_out_the_deals_a_branch_cannot_reach_changes_no_value() -> None:
    """The solver follows each deal only down the branches its strategies give a chance: each
    player's value so found equals the value with every deal taken down every branch, once the
    current strategies fold some classes for certain (so that deals are left out)."""
    from holdem.pushfold.endgame import _VALUE, _Node, _Solver

    game = EndGame((3000, 2000, 1500, 1000), 100, 200, (50.0, 30.0, 20.0))
    solver = _Solver(game, 3000, 3)
    for _ in range(30):
        solver.iterate()
    played = solver.current()
    assert (played == 0).any() and (played == 1).any()

    def everywhere(node: _Node | int, player: int) -> np.ndarray:  # type: ignore[type-arg]
        if not isinstance(node, _Node):
            return solver.outcomes[node].column(player, None, solver.deals)
        p = played[node.index][solver.classes[node.player]]
        return p * everywhere(node.yes, player) + (1 - p) * everywhere(node.no, player)

    solver._play(played)
    for player in range(4):
        followed = solver._above(solver.root, None, None, player, _VALUE) / solver.deals
        assert followed == pytest.approx(everywhere(solver.root, player).mean(), rel=1e-12, abs=1e-15)


def test_an_end_game_that_cannot_be_is_refused_by_name() -> None:
    with pytest.raises(InvalidConfigError, match="2 to 9 players"):
        EndGame((3000,), 100, 200, (1.0,))
    with pytest.raises(InvalidConfigError, match="above its ante and blind; player 2"):
        EndGame((3000, 200), 100, 200, (1.0,))
    with pytest.raises(InvalidConfigError, match="prizes go by place"):
        EndGame((3000, 3000), 100, 200, (1.0, 2.0))


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"iterations": 0}, "iterations must be a whole number of at least 1, got 0"),
        ({"iterations": 2.5}, "iterations must be a whole number of at least 1, got 2.5"),
        ({"deals": 0}, "deals must be a whole number of at least 1, got 0"),
        ({"deals": -5}, "deals must be a whole number of at least 1, got -5"),
        ({"tolerance": -1}, "tolerance must be a number of at least 0, got -1"),
        ({"tolerance": "small"}, "tolerance must be a number of at least 0, got 'small'"),
    ],
)
def test_a_solve_that_cannot_be_run_is_refused_by_name(settings: dict[str, object], message: str) -> None:
    game = EndGame((3000, 2000, 1500), 100, 200, (50.0, 30.0, 20.0))
    with pytest.raises(InvalidConfigError) as refused:
        solve_endgame(game, **settings)  # type: ignore[arg-type]
    assert message == str(refused.value)


def test_holdem_pushfold_gives_each_positions_ranges_for_an_end_game() -> None:
    base = [
        sys.executable,
        "-m",
        "holdem",
        "pushfold",
        "--stacks",
        "3000,2000,1500,1000",
        "--blinds",
        "100/200",
    ]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*base, *args], capture_output=True, text=True, timeout=300)

    text = run("--prizes", "50,30,20", "--deals", "20000")
    assert text.returncode == 0, text.stderr
    assert "CO (1,500 chips) pushes " in text.stdout and "BB calls SB's push with " in text.stdout
    assert 9 == sum(line.split()[:1] in (["AA"], ["AA~"]) for line in text.stdout.splitlines())  # nine charts
    assert max(map(len, text.stdout.splitlines())) <= 80  # they fit a terminal (lists were 850 wide)
    assert "a best response gains at most (of the prize pool): SB " in text.stdout
    assert "(few deals: more --deals settle more classes)" in text.stdout
    data = json.loads(run("--prizes", "50,30,20", "--deals", "5000", "--json").stdout)
    assert abs(sum(data["equities"]) - 1) < 1e-9 and set(data["push"]) == {"3", "4", "1"}
    assert set(data["near"]) == {"3", "4", "1"} | set(data["call"])  # each chart's classes near indifference
    missing = run()
    assert missing.returncode != 0 and "--prizes" in missing.stderr and "Traceback" not in missing.stderr


def test_the_printed_chart_at_the_defaults_plays_every_clear_class_alike_under_five_seeds() -> None:
    """The README's end-game at the default deals: a class whose gain from pushing (or calling) over
    folding is clear of indifference (`EndGameSolution.clear`) in any seed is played the same way
    in all five; the others are marked "~" on the chart with their gains listed."""
    game = EndGame((3000, 2000, 1500, 1000), 100, 200, (50, 30, 20))
    solutions = [solve_endgame(game, seed=seed) for seed in range(5)]
    printed = [key for key in solutions[0].strategies if len(key) <= 2]  # first in, and a single push
    for key in printed:
        plays = np.array([solution.strategies[key] > 0.5 for solution in solutions])
        clear = np.array([solution.clear(key) for solution in solutions]).any(axis=0)
        changed = clear & plays.any(axis=0) & ~plays.all(axis=0)
        assert not changed.any(), (key, [NAMES[k] for k in np.flatnonzero(changed)])
    text = " ".join(" ".join(describe(solutions[0])).split())  # wrapped lines joined
    near = ~solutions[0].clear((2,))  # UTG's pushes: some classes are near indifference
    assert near.any() and f"{NAMES[int(np.flatnonzero(near)[0])]}~" in text
    assert "~ near indifference, with the gain of playing over folding in % of the prize pool" in text
    assert "(a gain under 0.2% of the pool or under 5 standard errors" in text  # it said "under 0%"
