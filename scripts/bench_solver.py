"""The postflop solver against TexasSolver's console solver on the reference spots, in one run.

The spots are TexasSolver input files (scripts/solver_spots: a river, a turn and a flop spot). For
each, TexasSolver is run single-threaded and with 2 threads (its time from its own log, not counting
its start-up), then `holdem.solver` to the same exploitability, and the times and their ratios are
printed. On the river and the turn TexasSolver's strategy is read back from its JSON and measured by
our exact best response (on the turn it divides a card's chance by 46 or 47, not 44, so it solves a
slightly different game and is more exploitable than it reports): ours is run to that. On the flop
its whole strategy is too large to dump, and ours is run to the exploitability it reports.

    python scripts/bench_solver.py --texassolver PATH/console_solver --resources PATH/resources

Build TexasSolver from its source (branch `console`, cmake, no Qt). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from holdem.cards.card import Card
from holdem.solver import Sizes, Spot, TreeConfig, build_game, solve
from holdem.solver.cfr import Game
from holdem.solver.tree import STREETS, Kind

SPOTS = Path(__file__).parent / "solver_spots"


def read_spot(path: Path) -> tuple[Spot, TreeConfig, float, dict[str, str]]:
    """A TexasSolver input file as a spot, a tree, its accuracy and its other commands."""
    commands: dict[str, str] = {}
    sizes: dict[tuple[str, str], dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        command, _, argument = line.strip().partition(" ")
        if command == "set_bet_sizes":
            who, street, kind, *numbers = argument.split(",")
            sizes.setdefault((street, who), {})[kind] = (
                True if kind == "allin" else [float(x) / 100 for x in numbers]
            )
        elif command:
            commands[command] = argument
    spot = Spot.parse(
        board=commands["set_board"].replace(",", ""),
        pot=int(commands["set_pot"]),
        stack=int(commands["set_effective_stack"]),
        oop=commands["set_range_oop"],
        ip=commands["set_range_ip"],
    )
    streets = []
    for street in STREETS:
        pair = []
        for who in ("oop", "ip"):
            given = sizes.get((street, who), {})
            donks = given.get("donk")
            pair.append(
                Sizes(
                    tuple(given.get("bet", [])),
                    tuple(("pot", v) for v in given.get("raise", [])),
                    None if donks is None else tuple(donks),
                    bool(given.get("allin")),
                )
            )
        streets.append((pair[0], pair[1]))
    # TexasSolver's raise limit of 4 counts the bet: a bet and three raises.
    return spot, TreeConfig(tuple(streets), raise_cap=3), float(commands["set_accuracy"]), commands


def run_texassolver(
    binary: Path, resources: Path, spot_file: Path, threads: int, accuracy: float, folder: Path, dump: bool
) -> tuple[float, float, int, Path | None]:
    """TexasSolver's seconds to `accuracy` (its log, start-up excluded), the exploitability it
    reached, its iterations, and its strategy's JSON when `dump`."""
    lines = []
    for line in spot_file.read_text().splitlines():
        command = line.split(" ")[0]
        if command == "set_accuracy":
            line = f"set_accuracy {accuracy}"
        elif command == "set_thread_num":
            line = f"set_thread_num {threads}"
        elif command == "set_max_iteration":
            line = "set_max_iteration 20000"
        elif command in ("dump_result", "set_dump_rounds"):
            continue
        lines.append(line)
    out = folder / "strategy.json"
    if dump:  # every street, so that the strategy can be measured whole
        lines += [f"set_dump_rounds {6 - len(spot_board(spot_file))}", f"dump_result {out}"]
    script = folder / "input.txt"
    script.write_text("\n".join(lines) + "\n")
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    subprocess.run(
        [str(binary), "-i", str(script), "-r", str(resources), "-m", "holdem"],
        cwd=folder,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    log = [json.loads(line) for line in (folder / "tmp_log.txt").read_text().splitlines() if line.strip()]
    last = log[-1]
    return last["time_ms"] / 1000, last["exploitibility"], last["iteration"], out if dump else None


def spot_board(spot_file: Path) -> list[str]:
    """The board cards of a TexasSolver input file."""
    for line in spot_file.read_text().splitlines():
        if line.startswith("set_board "):
            return line.split(" ", 1)[1].split(",")
    raise ValueError(f"no board in {spot_file}")


def ours(spot: Spot, config: TreeConfig, accuracy: float) -> tuple[float, float, int, Any]:
    """Our seconds to `accuracy` (tree and arrays built inside the timing), checking every 10."""
    start = time.perf_counter()
    solution = solve(spot, config, accuracy=accuracy, max_iterations=20000, check_every=10)
    return time.perf_counter() - start, solution.exploitability, solution.iterations, solution


def load_texassolver_strategy(game: Game, path: Path) -> None:
    """Put TexasSolver's strategy (its JSON, every street dumped) into `game`'s strategy sums, deal by
    deal; a hand it does not list (it holds the card dealt) keeps sums of zero, read as uniform."""
    data = json.loads(path.read_text())
    names = [{_cards(game, p, i): i for i in range(len(game.spot.ranges[p]))} for p in (0, 1)]
    for p in (0, 1):
        names[p].update({name[2:] + name[:2]: i for name, i in list(names[p].items())})
    board = {card.index for card in game.spot.board}
    for sums in game.sums.values():
        sums[...] = 0

    def action_node(index: int, node: dict[str, Any], deal: int) -> None:
        ours_node = game.nodes[index]
        mapping = [_column(ours_node, action) for action in node["actions"]]
        sums = game.sums[index]
        for hand, probabilities in node["strategy"]["strategy"].items():
            h = names[ours_node.player].get(hand)
            if h is not None:
                for column, p in zip(mapping, probabilities, strict=True):
                    sums[column, deal, h] = p
        for action, child in node.get("childrens", {}).items():
            walk(ours_node.children[mapping[node["actions"].index(action)]], child, deal)

    def walk(index: int, node: dict[str, Any], deal: int) -> None:
        ours_node = game.nodes[index]
        if ours_node.kind == Kind.ACTION:
            action_node(index, node, deal)
        elif ours_node.kind == Kind.CHANCE:
            dealt = board | {int(c) for c in game.deals.cards[ours_node.level][deal]}
            for text, child in node.get("dealcards", {}).items():
                card = Card.from_str(text).index
                if card in dealt:
                    continue
                row, renamed = game.deals.child(ours_node.level, deal, card)
                if renamed is None:  # a card our solver deals (a card of a suit alike stands for it)
                    walk(ours_node.children[0], child, row)

    walk(0, data, 0)


def _column(node: Any, action: str) -> int:
    """Our action's index for TexasSolver's: its amounts are the chips the player adds."""
    word, _, amount = action.partition(" ")
    if word in ("CHECK", "CALL", "FOLD"):
        return int(node.actions.index({"CHECK": "x", "CALL": "c", "FOLD": "f"}[word]))
    total = node.put_in[node.player] - node.base + round(float(amount))
    return int(node.actions.index(f"{'b' if word == 'BET' else 'r'}{total}"))


def _cards(game: Game, player: int, index: int) -> str:
    a, b = game.spot.ranges[player].cards[index]
    return f"{Card.from_index(int(a))}{Card.from_index(int(b))}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texassolver", type=Path, required=True, help="TexasSolver's console_solver")
    parser.add_argument("--resources", type=Path, required=True, help="its resources folder")
    parser.add_argument("--spots", default="R1,T1,F1", help="which spots (R1,T1,F1)")
    parser.add_argument("--threads", default="1,2", help="TexasSolver's thread counts")
    parser.add_argument("--accuracy", type=float, help="TexasSolver's target (default: the file's)")
    parser.add_argument("--reference", type=Path, help="write the river comparison as JSON (the test's data)")
    args = parser.parse_args()
    for name in args.spots.split(","):
        spot, config, accuracy, _ = read_spot(SPOTS / f"{name}.txt")
        accuracy = args.accuracy or accuracy
        game = build_game(spot, config)
        print(
            f"{name}: {spot.street} {len(spot.ranges[0])} against {len(spot.ranges[1])} combinations, "
            f"{game.tree.count(Kind.ACTION)} decisions, {game.deals.size(game.deals.last)} run-outs; "
            f"TexasSolver's target {accuracy}% of the pot",
            flush=True,
        )
        del game
        times: dict[int, float] = {}
        target = accuracy
        for threads in map(int, args.threads.split(",")):
            with tempfile.TemporaryDirectory() as folder:
                seconds, reached, iterations, dumped = run_texassolver(
                    args.texassolver,
                    args.resources,
                    SPOTS / f"{name}.txt",
                    threads,
                    accuracy,
                    Path(folder),
                    dump=name in ("R1", "T1") and threads == 1,
                )
                times[threads] = seconds
                line = f"{reached:.3f}% in {seconds:.2f} s ({iterations} iterations)"
                print(f"  TexasSolver, {threads} thread(s): {line}", flush=True)
                if threads == 1:
                    target = reached
                if dumped is not None:
                    target = _exact(spot, config, dumped)
                    if name == "R1" and args.reference:
                        _reference(spot, config, dumped, args.reference)
        mine, mine_reached, mine_iterations, _ = ours(spot, config, target)
        ratios = ", ".join(f"{mine / t:.2f}x the time of {n} thread(s)" for n, t in times.items())
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        print(
            f"  holdem: {mine_reached:.3f}% in {mine:.2f} s ({mine_iterations} iterations): {ratios}; "
            f"peak memory of this process so far {peak:.2f} GB",
            flush=True,
        )
    sys.exit(0)


def _exact(spot: Spot, config: TreeConfig, dumped: Path) -> float:
    """TexasSolver's strategy measured by our exact best response (exact chance on the turn)."""
    game = build_game(spot, config)
    load_texassolver_strategy(game, dumped)
    exploitability, values, _ = game.exploitability()
    print(f"  TexasSolver's strategy by our exact best response: {exploitability:.3f}% of the pot, "
          f"worth {values[0]:.3f} to the player out of position", flush=True)  # fmt: skip
    return exploitability


def _reference(spot: Spot, config: TreeConfig, dumped: Path, out: Path) -> None:
    game = build_game(spot, config)
    load_texassolver_strategy(game, dumped)
    exploitability, values, _ = game.exploitability()
    strategy = game.average(0)[:, 0, :]
    weights = spot.ranges[0].weights
    shares = (strategy * weights).sum(axis=1) / weights.sum()
    root = {a: round(100 * float(s), 2) for a, s in zip(game.nodes[0].actions, shares, strict=True)}
    record = {
        "source": "TexasSolver (bupticybee/TexasSolver, branch console), R1.txt solved single-threaded to "
        "0.01% of the pot; its strategy read back and measured by holdem's best response",
        "spot": {
            "board": "".join(str(c) for c in spot.board),
            "pot": spot.pot,
            "stack": spot.stack,
            "oop": spot.range_texts[0],
            "ip": spot.range_texts[1],
        },
        "root": root,
        "value_oop": round(values[0], 4),
        "exploitability_by_holdem": round(exploitability, 5),
    }
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(
        f"  TexasSolver's strategy by our best response: {exploitability:.4f}%, value {values[0]:.3f}; "
        f"root {root}"
    )


if __name__ == "__main__":
    main()
