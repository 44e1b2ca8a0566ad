"""The postflop solver: games with known answers, zero sum, card removal, the best response, and
agreement with an independent solver (TexasSolver) on the river reference spot."""

import json
from pathlib import Path

import numpy as np
import pytest

from holdem.cards.odds import equity
from holdem.errors import InvalidRangeError, SolverError
from holdem.solver import Sizes, Solution, Spot, TreeConfig, build_game, load, solve
from holdem.solver.tree import Kind, build_tree

DATA = Path(__file__).parent / "data" / "solver"
NO_BETS = Sizes()


def only(oop: Sizes, ip: Sizes = NO_BETS, *, river: bool = False) -> TreeConfig:
    """The same sizes on every street (or on the river alone)."""
    street = (oop, ip)
    quiet = (NO_BETS, NO_BETS)
    return TreeConfig((quiet, quiet, street) if river else (street,) * 3)


@pytest.mark.parametrize("bet", [50, 100])
def test_river_nuts_and_air_against_bluff_catchers_mix_as_the_closed_form_says(bet: int) -> None:
    """Out of position holds 6 nut hands (AA) and 4 air hands (43s), in position only bluff
    catchers (KQo); pot 100, one bet size B. At equilibrium the bettor bluffs B/(P+B) as many hands
    as it value-bets and the caller calls P/(P+B) of the time."""
    spot = Spot.parse(board="Ks7d2c5h9s", pot=100, stack=100, oop="AA,43s", ip="KQo")
    solution = solve(spot, only(Sizes(bets=(bet / 100,))), accuracy=0.005, max_iterations=3000)
    root = solution.node()
    air = [i for i, hand in enumerate(root.hands) if hand.startswith("4")]
    bluffs = root.strategy[air, 1].mean() * len(air)
    assert 6 * bet / (100 + bet) == pytest.approx(bluffs, abs=0.05)
    assert 100 / (100 + bet) == pytest.approx(solution.node(f"b{bet}").frequencies()["c"], abs=0.02)


def test_checked_down_flop_is_worth_each_players_equity_in_the_pot() -> None:
    """With no bets at all, the board runs out and each player's value is their range's equity
    against the other's (holdem.equity, exact) times the pot: chance nodes and showdowns agree with
    a direct count over every turn and river."""
    oop, ip = "AA,KQs,76s", "QQ,AJo"
    spot = Spot.parse(board="Qh7c2d", pot=60, stack=100, oop=oop, ip=ip)
    solution = solve(spot, only(NO_BETS), accuracy=1e-9, max_iterations=1)
    expected = equity([oop, ip], board="Qh7c2d").players[0].equity * 60
    assert expected == pytest.approx(solution.values[0], rel=1e-5)


def test_all_in_with_one_hand_each_is_worth_its_equity_in_the_called_pot() -> None:
    """All-in is the only bet: aces against a flush draw with more than a third of the pot's equity
    are pushed and called, so the aces' value is their all-in equity times the pot of 300, less the
    100 they put in."""
    spot = Spot.parse(board="Th9h2c", pot=100, stack=100, oop="AsAd", ip="KhQh")
    solution = solve(
        spot,
        TreeConfig(((Sizes(allin=True), NO_BETS), (NO_BETS, NO_BETS), (NO_BETS, NO_BETS))),
        accuracy=1e-4,
        max_iterations=500,
    )
    aces = equity(["AsAd", "KhQh"], board="Th9h2c").players[0].equity
    assert 1 / 2 < aces < 2 / 3
    assert 300 * aces - 100 == pytest.approx(solution.values[0], abs=0.01)


def _permuted(text: str) -> str:
    return text.translate(str.maketrans("shdc", "hdcs"))


def test_a_spot_with_the_suits_permuted_has_the_same_values() -> None:
    """Suits are names: renaming them on the board and in both ranges changes no value, iteration by
    iteration (up to single precision: the run-outs are summed in another order, and over many
    iterations CFR's path drifts apart from such differences, though both reach the equilibrium)."""
    board, oop, ip = "Qs9h4h2d", "AsAh,KhQh,9d9c,Ah5h,JsTs", "QdJd,AcKc,8s7s,4c4s,KsQs"
    first = solve(
        Spot.parse(board=board, pot=50, stack=100, oop=oop, ip=ip),
        TreeConfig.uniform(bets="75,allin"),
        accuracy=0.0,
        max_iterations=5,
    )
    second = solve(
        Spot.parse(board=_permuted(board), pot=50, stack=100, oop=_permuted(oop), ip=_permuted(ip)),
        TreeConfig.uniform(bets="75,allin"),
        accuracy=0.0,
        max_iterations=5,
    )
    assert first.values == pytest.approx(second.values, abs=1e-4)
    assert first.exploitability == pytest.approx(second.exploitability, abs=1e-4)


def _small_turn() -> tuple[Spot, TreeConfig]:
    spot = Spot.parse(
        board="Qs9h4h2d",
        pot=100,
        stack=200,
        oop="QQ+,AQ,99,44,AhXh".replace(",AhXh", ",Ah5h"),
        ip="KK-88,AK,KQ,QJs,JTs,Th8h",
    )
    return spot, TreeConfig.uniform(bets="50,allin", raises="allin")


def test_values_add_up_to_the_pot_at_every_iteration() -> None:
    """Zero sum: the two players' values under the average strategies add up to the pot after every
    iteration; with a rake of 50% capped at 1 chip every pot pays exactly 1 chip, so they add up to
    the pot less 1."""
    for rake, taken in ((0.0, 0.0), (50.0, 1.0)):
        spot, config = _small_turn()
        spot = Spot.parse(
            board="Qs9h4h2d",
            pot=100,
            stack=200,
            oop=spot.range_texts[0],
            ip=spot.range_texts[1],
            rake=rake,
            rake_cap=1,
        )
        game = build_game(spot, config)
        for _ in range(5):
            game.iterate()
            _, values, _ = game.exploitability()
            assert 100 - taken == pytest.approx(sum(values), abs=1e-3)


def test_exploitability_falls_toward_zero_and_a_best_response_never_loses() -> None:
    """The exploitability after 200 iterations is a fraction of that after 5; at every check each
    best response is worth at least the average strategy's value."""
    spot, config = _small_turn()
    game = build_game(spot, config)
    seen = []
    for iteration in range(1, 201):
        game.iterate()
        if iteration in (5, 20, 200):
            exploitability, values, bests = game.exploitability()
            seen.append(exploitability)
            assert all(best >= value - 1e-4 for best, value in zip(bests, values, strict=True))
    assert seen[2] < seen[1] < seen[0]
    assert seen[2] < 0.1 * seen[0]


def test_a_hand_blocked_by_the_board_or_a_dealt_card_has_no_weight() -> None:
    """A combination holding a board card is not in the range; at a node after the river card, a
    hand holding that card has weight zero."""
    spot = Spot.parse(board="Qs9h4h2d", pot=100, stack=100, oop="QQ,AsKs,KcKd", ip="JJ,TT")
    assert 5 == len(spot.ranges[0])  # QQ without Qs: 3 combinations, AsKs, KcKd
    solution = solve(spot, TreeConfig.uniform(bets="50"), accuracy=0.0, max_iterations=5)
    river = solution.node("x x Kd")
    weights = dict(zip(river.hands, river.weights, strict=True))
    assert 0 == weights["KdKc"]
    assert weights["AsKs"] > 0
    with pytest.raises(InvalidRangeError, match="has no hand left on the board"):
        Spot.parse(board="AsAhAd", pot=10, stack=10, oop="AA", ip="KK")


def test_the_river_reference_spot_agrees_with_texassolver() -> None:
    """The river reference spot (215 against 286 combinations, bets 33 and 75, a raise of 45, all-in)
    solved to 0.01% of the pot: the root's action frequencies within 3 percentage points of
    TexasSolver's at the same exploitability, and the game value within 0.2% of the pot of the value
    of TexasSolver's strategy measured by our best response."""
    reference = json.loads((DATA / "R1-texassolver.json").read_text())
    spot = Spot.parse(**reference["spot"])
    config = TreeConfig.uniform(bets="33,75,allin", raises="45,allin", raise_cap=3)
    solution = solve(spot, config, accuracy=0.01, max_iterations=3000)
    frequencies = solution.node().frequencies()
    for action, share in reference["root"].items():
        assert share == pytest.approx(100 * frequencies[action], abs=3)
    assert reference["value_oop"] == pytest.approx(solution.values[0], abs=0.2)


def test_a_tree_too_large_for_memory_is_refused_with_what_to_change() -> None:
    """A solve that would not fit is refused before any array is built."""
    spot, config = _small_turn()
    with pytest.raises(SolverError, match="use fewer bet or raise sizes"):
        build_game(spot, config, max_memory=1000)


def test_a_solution_saved_loads_again_without_solving(tmp_path: Path) -> None:
    """Saved and loaded, a solution shows the same strategy at every node asked."""
    spot, config = _small_turn()
    solution = solve(spot, config, accuracy=0.0, max_iterations=20)
    path = tmp_path / "turn.npz"
    solution.save(path)
    again = load(path)
    assert solution.iterations == again.iterations
    for node in ("", "b50", "x b50 c 7c"):
        assert np.allclose(solution.node(node).strategy, again.node(node).strategy)


def test_ctrl_c_keeps_the_strategy_so_far() -> None:
    """A KeyboardInterrupt during the solve stops it and returns the strategies so far."""
    spot, config = _small_turn()

    def stop(progress: object) -> None:
        raise KeyboardInterrupt

    solution = solve(spot, config, accuracy=0.0, max_iterations=100, check_every=3, progress=stop)
    assert solution.interrupted
    assert 3 == solution.iterations
    assert 0 < solution.exploitability < float("inf")


def test_paths_that_lead_nowhere_are_refused_by_name() -> None:
    """A path's wrong action, a missing or repeated card, or steps past the hand's end: one line each."""
    spot, config = _small_turn()
    solution = solve(spot, config, accuracy=0.0, max_iterations=1)
    with pytest.raises(
        SolverError, match=r"'b77' is not an action at that point of 'b77': choose from x, b50, b200"
    ):
        solution.node("b77")
    with pytest.raises(SolverError, match="ends where a card is dealt"):
        solution.node("x x")
    with pytest.raises(SolverError, match="'Qs' in 'x x Qs' is already on the board"):
        solution.node("x x Qs")
    with pytest.raises(SolverError, match="goes on after the hand ended"):
        solution.node("b50 f x")


def test_tree_sizes_are_whole_chips_capped_by_the_stack_and_the_raise_cap() -> None:
    """Bets of 33% and 75% of 100, the all-in, raises as the call plus 45% of the pot after it
    (TexasSolver's form); at most `raise_cap` raises after the bet; donk bets only with donk sizes."""
    config = TreeConfig.uniform(bets="33,75,allin", raises="45", raise_cap=1)
    tree = build_tree(board_size=5, pot=100, stack=400, config=config)
    root = tree.nodes[0]
    assert ("x", "b33", "b75", "b400") == root.actions
    facing = tree.nodes[root.children[1]]  # in position facing 33: the call, then 45% of 166 (75): to 108
    assert ("f", "c", "r108", "r400") == facing.actions
    reraise = tree.nodes[facing.children[2]]
    assert ("f", "c") == reraise.actions
    flop = build_tree(board_size=3, pot=100, stack=400, config=TreeConfig.uniform(bets="50", raises=""))
    donks, leads = [], []
    for node in flop.nodes:
        if node.kind == Kind.ACTION and node.level > 0 and flop.nodes[node.parent].kind == Kind.CHANCE:
            chance = flop.nodes[node.parent]
            closer = flop.nodes[chance.parent]  # the decision that ended the street before
            called = closer.actions[closer.children.index(node.parent)] == "c" and closer.player == 0
            (donks if called else leads).append(node.actions)
    assert donks and all(("x",) == actions for actions in donks)
    assert leads and all(any(a.startswith("b") for a in actions) for actions in leads)


def test_a_raise_as_a_multiple_is_of_the_bet_faced_and_never_below_the_minimum() -> None:
    """2.5x a bet of 50 is a raise to 125; 1.2x would be below the minimum raise (to 100) and is
    raised to it."""
    tree = build_tree(
        board_size=5, pot=100, stack=1000, config=TreeConfig.uniform(bets="50", raises="2.5x,1.2x")
    )
    facing = tree.nodes[tree.nodes[0].children[1]]
    assert ("f", "c", "r100", "r125") == facing.actions


def test_bad_sizes_are_refused_in_one_line() -> None:
    """A size that is not a number, zero, or a multiple of 1 or less."""
    with pytest.raises(SolverError, match=r"bad size 'big': write a pot percentage \(75\) or allin"):
        TreeConfig.uniform(bets="big")
    with pytest.raises(SolverError, match="a size must be above 0"):
        TreeConfig.uniform(bets="0")
    with pytest.raises(SolverError, match=r"bad size '1x'"):
        TreeConfig.uniform(raises="1x")


RIVER = ["--board", "Ks7d2c5h9s", "--pot", "100", "--stack", "100", "--oop", "AA,43s", "--ip", "KQo"]


def test_the_solve_command_prints_the_node_as_grids(capsys: pytest.CaptureFixture[str]) -> None:
    """``holdem solve`` prints the exploitability, the values and the node's grids: the catcher's
    call in the KQ offsuit cell, below the diagonal."""
    from holdem.cli import main

    assert 0 == main(
        ["solve", *RIVER, "--bets", "100", "--raises", "", "--accuracy", "0.01", "--node", "b100", "--quiet"]
    )
    out = capsys.readouterr().out
    assert "in position acts after 'b100'" in out
    calls = out.split("c (")[1].splitlines()
    queen_row = next(line for line in calls if line.startswith("Q "))
    assert 50 == pytest.approx(int(queen_row.split()[2]), abs=2)  # the K column


def test_the_solve_command_reads_a_toml_file_and_prints_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The spot from a file, options winning over it, JSON out; a saved solution loads again."""
    from holdem.cli import main

    spot = tmp_path / "spot.toml"
    spot.write_text(
        'board = "Ks7d2c5h9s"\npot = 100\nstack = 100\noop = "AA,43s"\nip = "KQo"\nbets = "50"\nraises = ""\n'
    )
    saved = tmp_path / "river.npz"
    assert 0 == main(
        ["solve", str(spot), "--bets", "100", "--accuracy", "0.05", "--json", "--quiet", "--save", str(saved)]
    )
    data = json.loads(capsys.readouterr().out)
    assert ["x", "b100"] == data["node"]["actions"]
    assert 90 == pytest.approx(data["values"]["oop"], abs=0.5)
    assert 0 == main(["solve", "--load", str(saved), "--node", "b100", "--json"])
    assert ["f", "c"] == json.loads(capsys.readouterr().out)["node"]["actions"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--bets", "big"], "error: bad size 'big': write a pot percentage (75) or allin"),
        (["--node", "b77"], "error: 'b77' is not an action at that point of 'b77': choose from x, b50, b100"),
        (
            ["--oop", "Ks7d"],
            "error: the out-of-position range 'Ks7d' has no hand left on the board",
        ),
    ],
)
def test_the_solve_command_refuses_bad_input_in_one_line(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad size, a path that leads nowhere, a range with no hand left: exit 2, one line naming it."""
    from holdem.cli import main

    assert 2 == main(["solve", *RIVER, "--quiet", "--max-iterations", "1", *extra])
    err = capsys.readouterr().err.strip()
    assert 1 == len(err.splitlines())
    assert message in err


def test_a_file_with_an_unknown_setting_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from holdem.cli import main

    spot = tmp_path / "spot.toml"
    spot.write_text(
        'board = "Ks7d2c5h9s"\npot = 100\nstack = 100\noop = "AA"\nip = "KQo"\nbet_sizes = "50"\n'
    )
    assert 2 == main(["solve", str(spot), "--quiet"])
    assert "unknown setting 'bet_sizes'" in capsys.readouterr().err


def test_a_file_that_is_no_saved_solution_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--load of a file that is not a saved solution (text, or an .npz without one) says so."""
    from holdem.cli import main

    text = tmp_path / "notes.npz"
    text.write_text("not a solution")
    assert 2 == main(["solve", "--load", str(text)])
    assert "cannot read the solution" in capsys.readouterr().err
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array('{"format": "something else"}'))
    assert 2 == main(["solve", "--load", str(other)])
    assert f"{str(other)!r} is not a saved holdem solution" in capsys.readouterr().err


def test_suits_alike_are_dealt_once_and_give_the_same_solution() -> None:
    """On Ks7s2d with ranges that treat clubs and hearts alike, a heart is never dealt: the club of
    its rank stands for it, renamed (1,429 run-outs instead of 2,352). Values, exploitability and the
    strategy after a heart or a club match the solve that deals every card (two iterations, before
    single precision's order of sums can tip a near-tied regret)."""
    spot = Spot.parse(board="Ks7s2d", pot=60, stack=100, oop="AA,KQ,76s,A5s", ip="QQ,AJ,T9s")
    config = TreeConfig.uniform(bets="66,allin", raises="allin")
    games = [build_game(spot, config, isomorphism=iso) for iso in (True, False)]
    for game in games:
        game.iterate()
        game.iterate()
    assert (1429, 2352) == tuple(game.deals.size(game.deals.last) for game in games)
    alike, every = (game.exploitability() for game in games)
    assert every[0] == pytest.approx(alike[0], abs=1e-4)
    assert every[1] == pytest.approx(alike[1], abs=1e-4)
    solutions = [Solution.of(game, config, 0.0, False) for game in games]
    for path in ("x x 9h", "x x 9c", "b40 c Ah x", "x x 9h x x 3h", "x x Th x x 3c"):
        renamed, dealt = (solution.node(path) for solution in solutions)
        assert dealt.board == renamed.board
        assert np.allclose(dealt.strategy, renamed.strategy, atol=1e-4)
        assert np.allclose(dealt.weights, renamed.weights, atol=1e-5)


def test_suits_a_range_treats_apart_are_all_dealt() -> None:
    """A range holding AcKc but not AhKh breaks the likeness of clubs and hearts: every card is dealt."""
    spot = Spot.parse(board="Ks7s2d", pot=60, stack=100, oop="AA,AcKc", ip="QQ")
    game = build_game(spot, TreeConfig.uniform(bets="allin", raises=""))
    assert 49 * 48 == game.deals.size(game.deals.last)
