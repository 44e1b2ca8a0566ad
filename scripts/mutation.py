"""Mutation testing of the core with mutmut: the score per module and the surviving mutants.

Copies the repository's tracked files to a scratch folder, configures mutmut there (the modules
below, the tests that exercise them), runs it on `--max-children` processes for at most
`--timeout` seconds, and prints for each module the mutants killed (a test failed or timed out),
the survivors, those no selected test reaches, those not run before the timeout ("unrun"), and
those judged equivalent in ``tests/mutation-equivalents.txt`` (one per line: the mutant's name,
then why no test can tell it from the original). The score is killed / (all - equivalent - unrun).
Needs ``pip install mutmut`` (a development tool, not a dependency of holdem). The seven modules
other than ``hand/state``, ``cards/evaluator``, ``hand/pots`` and ``tournament/payouts`` take
about 10 minutes on 2 cores; the hand's and the evaluator's mutants are slow (their tests
enumerate every hand).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("hand/pots", "hand/showdown", "hand/runout", "hand/betting", "hand/posting", "hand/positions",
           "hand/state", "hand/checks", "cards/evaluator", "tournament/payouts", "tournament/icm",
           "vector/showdown", "table/table", "table/settleup", "formats/pokerstars/write",
           "server/room")  # fmt: skip
TESTS = ("test_rules", "test_hand_properties", "test_table", "test_tournament", "test_vector",
         "test_evaluator", "test_views_snapshots", "test_bad_input", "test_settlement", "test_refusals",
         "test_icm", "test_vector_showdown", "test_rule_edges", "test_evaluator_words",
         "test_hand_words", "test_run_twice", "test_table_rules", "test_table_properties", "test_settleup",
         "test_pokerstars", "test_pokerstars_files", "test_pokerstars_text", "test_server_room",
         "test_server_home", "test_tournament_run")  # fmt: skip
EQUIVALENTS = ROOT / "tests" / "mutation-equivalents.txt"
KILLED = {"killed", "timeout"}


def configure(folder: Path, modules: list[str]) -> None:
    """The scratch copy's mutmut settings, appended to its pyproject.toml."""
    mutate = ", ".join(f'"holdem/{m}.py"' for m in modules)
    tests = ", ".join(f'"tests/{t}.py"' for t in TESTS)
    with (folder / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write(f'\n[tool.mutmut]\nsource_paths = ["holdem"]\nonly_mutate = [{mutate}]\n')
        file.write(f"pytest_add_cli_args_test_selection = [{tests}]\n")
        # one process: the suite's own parallel runs (pytest-xdist, in pyproject's addopts) are off here
        file.write('pytest_add_cli_args = ["-p", "no:cacheprovider", "-q", "--no-header", "-x", "-n", "0"]\n')


def equivalents() -> dict[str, str]:
    """The mutants judged equivalent, with the reason given."""
    found = {}
    for line in EQUIVALENTS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            found[name] = reason.strip()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--modules", default=",".join(MODULES), help="holdem modules to mutate (default: the core)"
    )
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds before the run is stopped")
    parser.add_argument("--diffs", action="store_true", help="print each survivor's change (mutmut show)")
    args = parser.parse_args()
    if importlib.util.find_spec("mutmut") is None:
        print("mutation.py needs mutmut: pip install mutmut", file=sys.stderr)
        return 2
    modules = [m.strip() for m in args.modules.split(",") if m.strip()]
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for name in tracked.splitlines():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)
        configure(folder, modules)
        command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.max_children)]
        run = subprocess.Popen(
            command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True,
        )  # fmt: skip
        stopped, errors = False, ""
        try:
            _, errors = run.communicate(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            stopped = True
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(run.pid, signal.SIGKILL)  # mutmut and the test runs it forked
            run.wait(10)
        if stopped:
            print(f"stopped after {args.timeout:g} s; the mutants not yet checked are counted apart")
        elif run.returncode:
            print(f"mutmut stopped with status {run.returncode}: {errors[-2000:]}", file=sys.stderr)
            return 1
        listing = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=folder,
                                 capture_output=True, text=True, check=True).stdout  # fmt: skip
        survivors = report(listing)
        for name in survivors if args.diffs else []:
            shown = subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=folder,
                                   capture_output=True, text=True).stdout  # fmt: skip
            print(f"\n# {name}\n{shown.strip()}")
    return 0


def report(listing: str) -> list[str]:
    """Print the score per module and each survivor not judged equivalent; returns their names."""
    statuses = dict(re.findall(r"^\s*(holdem\.\S+): (.+?)\s*$", listing, re.M))
    known = equivalents()
    per_module: dict[str, Counter[str]] = {}
    survivors = []
    for name, status in statuses.items():
        module = name.split(".x_")[0].split(".xǁ")[0]
        tally = per_module.setdefault(module, Counter())
        tally["all"] += 1
        if status in KILLED:
            tally["killed"] += 1
        elif status == "not checked":
            tally["unchecked"] += 1
        elif name in known:
            tally["equivalent"] += 1
        else:
            tally[status] += 1
            survivors.append(name)
    print(f"{'module':<28} {'mutants':>7} {'killed':>7} {'equiv.':>6} {'left':>5} {'unrun':>5}  score")
    total = Counter[str]()
    rows: list[tuple[str, Counter[str] | None]] = [*sorted(per_module.items()), ("all", None)]
    for module, row in rows:
        tally = total if row is None else row
        if row is not None:
            total += row
        judged = tally["all"] - tally["equivalent"] - tally["unchecked"]
        left = judged - tally["killed"]
        score = tally["killed"] / max(judged, 1)
        kept = (tally["all"], tally["killed"], tally["equivalent"], left, tally["unchecked"])
        counts = " ".join(f"{count:>{width}}" for count, width in zip(kept, (7, 7, 6, 5, 5), strict=True))
        print(f"{module:<28} {counts}  {score:.1%}")
    print("\nsurvivors not judged equivalent:" if survivors else "\nno survivors left")
    for name in survivors:
        print(f"  {name}: {statuses[name]}")
    run = tuple(f"{module}." for module in per_module)  # only the modules of this run can be judged
    stale = sorted(name for name in set(known) - set(statuses) if name.startswith(run))
    if stale:
        print(f"\n{len(stale)} mutants in {EQUIVALENTS.name} no longer exist (the code changed): {stale[:5]}")
    return survivors


if __name__ == "__main__":
    sys.exit(main())
