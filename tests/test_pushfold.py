"""Push or fold: the exact class equities, the heads-up equilibrium and its exploitability, and
`holdem pushfold`."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from math import comb
from pathlib import Path

import numpy as np
import pytest

from holdem.cards.batch import combinations, strengths_of
from holdem.cards.odds import equity
from holdem.pushfold import NAMES, exploitability, solve_headsup
from holdem.pushfold.classes import class_of_hands, combos_of, hands
from holdem.pushfold.equities import equities, wins

DATA = Path(__file__).resolve().parent / "data" / "evaluator-counts.txt"


def exact_chances(a: tuple[int, int], b: tuple[int, int]) -> tuple[float, float]:
    """Hand `a`'s all-in equity against hand `b` over all 1,712,304 boards, and its chance of winning
    outright, from the evaluator."""
    rest = np.array([c for c in range(52) if c not in (*a, *b)])
    boards = rest[combinations(48, 5)]
    first = strengths_of(np.concatenate([np.broadcast_to(a, (len(boards), 2)), boards], axis=1))
    second = strengths_of(np.concatenate([np.broadcast_to(b, (len(boards), 2)), boards], axis=1))
    won, tied = (first > second).sum(), (first == second).sum()
    return float((won + 0.5 * tied) / len(boards)), float(won / len(boards))


def exact(a: tuple[int, int], b: tuple[int, int]) -> float:
    return exact_chances(a, b)[0]


def class_equity(first: str, second: str) -> tuple[float, float]:
    """A class's equity and chance of winning outright against another, from scratch: every pair of
    their hands that shares no card, one exact enumeration per pair up to a permutation of the suits."""
    seen: dict[tuple[int, ...], tuple[float, float]] = {}
    values = []
    for a, b in itertools.product(combos_of(NAMES.index(first)), combos_of(NAMES.index(second))):
        if set(a) & set(b):
            continue
        key = min(
            tuple(sorted(4 * (c // 4) + perm[c % 4] for c in a))
            + tuple(sorted(4 * (c // 4) + perm[c % 4] for c in b))
            for perm in itertools.permutations(range(4))
        )
        if key not in seen:
            seen[key] = exact_chances(a, b)
        values.append(seen[key])
    equity, win = np.mean(values, axis=0)
    return float(equity), float(win)


def test_the_exact_enumeration_agrees_with_the_published_counts() -> None:
    """The test's own enumeration, checked against published hand-against-hand figures first."""
    from holdem.cards.card import parse_cards

    rows = [line.split() for line in DATA.read_text().splitlines() if line and not line.startswith("#")]
    checked = 0
    for row in rows:
        if len(row) == 5 and len(row[0]) == 4 and len(row[1]) == 4:
            a = tuple(c.index for c in parse_cards(row[0]))
            b = tuple(c.index for c in parse_cards(row[1]))
            wins, _, ties = map(int, row[2:])
            assert (wins + ties / 2) / comb(48, 5) == pytest.approx(exact(a, b), abs=1e-12)  # type: ignore[arg-type]
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize(("first", "second"), [("AA", "KK"), ("AKs", "QQ"), ("72o", "AKo"), ("T9s", "T9s")])
def test_the_shipped_class_equities_are_exact(first: str, second: str) -> None:
    """A sample of the shipped table (made once by scripts/gen_preflop_equities.py) against a fresh
    computation; the table's pair counts and symmetry checked whole."""
    table, _ = equities()
    i, j = NAMES.index(first), NAMES.index(second)
    equity, win = class_equity(first, second)
    assert table[i, j] == pytest.approx(equity, abs=1e-12) and wins()[i, j] == pytest.approx(win, abs=1e-12)
    assert table[j, i] == pytest.approx(1 - table[i, j], abs=1e-12)


def test_wins_losses_and_ties_add_up() -> None:
    """Winning outright, losing outright and tying make every board; ties count half in the equity."""
    table, _ = equities()
    tie = 1 - wins() - wins().T
    assert tie.min() >= -1e-12 and np.allclose(table, wins() + tie / 2, atol=1e-12)


def test_the_pair_counts_are_the_hand_pairs_that_share_no_card() -> None:
    _, pairs = equities()
    assert pairs.sum() == 1326 * 1225 and (pairs == pairs.T).all()
    assert (
        pairs[NAMES.index("AA"), NAMES.index("AA")] == 6 and pairs[NAMES.index("AA"), NAMES.index("KK")] == 36
    )
    assert pairs[NAMES.index("AKs"), NAMES.index("AKo")] == 4 * 12 - 4 * 6


STACKS = [1 + k / 2 for k in range(49)]  # 1 to 25 big blinds in half-big-blind steps


def test_every_heads_up_stack_is_solved_within_a_thousandth_of_a_big_blind() -> None:
    """At every stack from 1 to 25 big blinds, a best response to either side gains at most 0.001
    big blinds a hand (measured by `exploitability`, hand by hand, apart from the solver)."""
    for stack in STACKS:
        solution = solve_headsup(stack)
        assert max(solution.push_exploitability, solution.call_exploitability) <= 0.001, stack


def test_what_everyone_knows_about_push_fold() -> None:
    """Aces push and call at every stack; at 1 big blind the small blind pushes everything; the
    ranges narrow as the stacks grow; an ante widens them."""
    short, ten, deep = solve_headsup(1), solve_headsup(10), solve_headsup(25)
    aa, seven_two = NAMES.index("AA"), NAMES.index("72o")
    assert all(s.push[aa] == pytest.approx(1) and s.call[aa] == pytest.approx(1) for s in (short, ten, deep))
    assert short.push.min() == pytest.approx(1, abs=1e-3) and deep.push[seven_two] == pytest.approx(
        0, abs=1e-3
    )
    assert short.push.sum() > ten.push.sum() > deep.push.sum() and ten.call.sum() > deep.call.sum()
    assert solve_headsup(10, ante=0.125).push.sum() > ten.push.sum()


def test_a_strategy_off_equilibrium_is_exploitable() -> None:
    """The measure can fail: pushing only aces gives a best response a lot."""
    only_aces = np.zeros(169)
    only_aces[NAMES.index("AA")] = 1
    _, gain, _ = exploitability(10, 0, only_aces, solve_headsup(10).call)
    assert gain > 0.2


def test_the_ranges_are_holdem_ranges_usable_by_equity() -> None:
    solution = solve_headsup(8)
    result = equity([solution.push_range, solution.call_range], samples=20_000, rng=1)
    assert 0.3 < result.players[0].equity < 0.5


def test_holdem_pushfold_prints_both_charts_json_and_a_plot(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "holdem", "pushfold", *args], capture_output=True,
                              text=True, timeout=120, cwd=tmp_path)  # fmt: skip

    text = run("--stack", "10")
    assert text.returncode == 0 and "small blind: push" in text.stdout and "big blind: call" in text.stdout
    lines = text.stdout.splitlines()
    assert max(map(len, lines)) <= 80 and 2 == sum(line.startswith("  AA  AKs") for line in lines)
    assert "Q6s*" in text.stdout and "* sometimes: Q6s 39%" in text.stdout  # a mixed class, named
    data = json.loads(run("--stack", "10", "--ante", "0.1", "--json").stdout)
    assert 1.0 == data["push"]["AA"] and data["exploitability"]["push"] <= 0.001
    plotted = run("--stack", "10", "--plot", "chart.png")
    assert plotted.returncode == 0 and (tmp_path / "chart.png").stat().st_size > 10_000
    assert plotted.stdout.rstrip().endswith("charts saved to chart.png")  # where it went, said
    bad = run("--stack", "0.5")
    assert (
        bad.returncode != 0
        and "stack must be 1 to 100 big blinds" in bad.stderr
        and "Traceback" not in bad.stderr
    )


def test_every_hand_has_its_class() -> None:
    counts = np.bincount(class_of_hands(), minlength=169)
    assert len(hands()) == 1326 and all(
        counts[k] == (6 if n[0] == n[1] else 4 if n[2] == "s" else 12) for k, n in enumerate(NAMES)
    )
