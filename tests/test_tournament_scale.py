"""Tournaments at scale: the same results in one process, in two, and on a real Dask cluster;
every hand written by --history replays; --plot writes a PNG."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from holdem.cli import main
from holdem.formats import phh
from holdem.tournament import load_structure
from holdem.tournament.run import TournamentConfig, play_tournament
from holdem.tournament.series import as_dict, run_tournaments

CONFIG = TournamentConfig(("random", "calling-station"), 9, load_structure("hyper"), table_size=9, seed=6)


def test_a_series_is_the_same_in_one_process_two_and_on_a_dask_local_cluster() -> None:
    pytest.importorskip("distributed", reason="needs holdem-engine[dask]")
    one = run_tournaments(CONFIG, 12)
    two = run_tournaments(CONFIG, 12, workers=2)
    dask = run_tournaments(CONFIG, 12, workers=2, dask="local")
    assert as_dict(one) == as_dict(two) == as_dict(dask)
    assert 12 * 9 == sum(b.entries for b in one.bots)
    assert len({run.finishes for run in one.runs}) > 1  # the runs differ from each other


def test_a_series_is_the_same_whatever_the_jobs_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs on Dask hold more tournaments than jobs of worker processes (fewer results to fetch
    through the scheduler); each run is seeded by its number, so the results are the same: here 80
    runs go 1 a job in one process, 2 a job to worker processes and 5 a job to Dask."""
    pytest.importorskip("distributed", reason="needs holdem-engine[dask]")
    import holdem.tournament.series as series

    monkeypatch.setattr(series, "CHUNK", 2)
    monkeypatch.setattr(series, "DASK_CHUNK", 5)
    one = run_tournaments(CONFIG, 80)
    two = run_tournaments(CONFIG, 80, workers=2)
    dask = run_tournaments(CONFIG, 80, workers=2, dask="local")
    assert as_dict(one) == as_dict(two) == as_dict(dask)


def counted(workers: int, dask: str | None, config: TournamentConfig, runs: int) -> list[tuple[int, int]]:
    """The (done, total) calls a series makes to its progress bar."""
    seen: list[tuple[int, int]] = []
    series = run_tournaments(
        config, runs, workers=workers, dask=dask, progress=lambda *call: seen.append(call)
    )
    assert series.runs and not series.interrupted
    return seen


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_counts_eliminations_within_each_tournament(workers: int) -> None:
    """Each hand's eliminations are counted as it ends, in this process or in worker processes:
    the bar moves inside a tournament, never back, and ends at every entrant but the winners."""
    seen = counted(workers, None, CONFIG, 4)
    done = [d for d, _ in seen]
    assert {4 * 8} == {total for _, total in seen} and 4 * 8 == done[-1]
    assert done == sorted(done) and any(d % 8 for d in done)  # a count that is not whole tournaments


def test_a_dask_series_moves_before_its_one_big_tournament_ends() -> None:
    """`--dask` with one tournament of 300 entrants sat at 0 until it ended: the cluster's workers
    now report eliminations as Dask events while it runs."""
    pytest.importorskip("distributed", reason="needs holdem-engine[dask]")
    big = TournamentConfig(("calling-station", "rock"), 300, load_structure("regular"), seed=2)
    seen = counted(1, "local", big, 1)
    done = [d for d, _ in seen]
    assert {299} == {total for _, total in seen} and 299 == done[-1] and done == sorted(done)
    assert any(0 < d < 299 for d in done), seen


def test_dask_by_address_uses_a_running_scheduler(capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed", reason="needs holdem-engine[dask]")
    args = ["tournament", "random", "calling-station", "--entrants", "9", "--runs", "5",
            "--structure", "hyper", "--seed", "3", "--json"]  # fmt: skip
    assert 0 == main(args)
    alone = json.loads(capsys.readouterr().out)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        assert 0 == main([*args, "--dask", cluster.scheduler_address])
    assert alone == json.loads(capsys.readouterr().out)


def test_dask_at_an_address_nobody_listens_on_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed", reason="needs holdem-engine[dask]")
    assert 2 == main(
        ["tournament", "random", "--entrants", "2", "--runs", "1", "--dask", "tcp://127.0.0.1:9"]
    )
    err = capsys.readouterr().err
    assert "cannot reach a Dask scheduler at 'tcp://127.0.0.1:9'" in err and 1 == len(
        err.strip().splitlines()
    )


def test_dask_without_the_extra_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['distributed'] = None\n"  # as if dask.distributed were not installed
        "from holdem.cli import main\n"
        "sys.exit(main(['tournament', 'random', '--runs', '1', '--dask', 'local']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert 2 == done.returncode
    assert "pip install 'holdem-engine[dask]'" in done.stderr and 1 == len(done.stderr.strip().splitlines())


def test_history_writes_every_hand_of_every_run_and_each_replays(tmp_path: Path) -> None:
    folder = tmp_path / "hist"
    args = ["tournament", "random", "calling-station", "--entrants", "12", "--table-size", "6",
            "--runs", "3", "--structure", "hyper", "--seed", "8", "--history", str(folder)]  # fmt: skip
    assert 0 == main(args)
    cfg = TournamentConfig(("random", "calling-station"), 12, load_structure("hyper"), table_size=6, seed=8)
    assert ["run-0000.phhs", "run-0001.phhs", "run-0002.phhs"] == sorted(p.name for p in folder.iterdir())
    for r in range(3):
        run = play_tournament(cfg, r)
        hands = phh.load(folder / f"run-{r:04d}.phhs")
        assert run.hands == len(hands)
        assert list(range(1, run.hands + 1)) == [h["hand"] for h in hands]  # in the order they started
        dealt: Counter[str] = Counter()
        for data in hands:
            replayed = phh.replay(data)
            assert replayed.settled and data["finishing_stacks"] == list(replayed.finishing_stacks or ())
            n = len(data["starting_stacks"])
            assert n == len(data["players"]) == len(set(data["players"])) == len(data["seats"])
            assert 6 == data["seat_count"] and all(1 <= s <= 6 for s in data["seats"])
            assert data["level"] >= 1 and data["table"] in (1, 2) and f"run {r}" in data["event"]
            dealt.update(data["players"])
        assert {f.entrant: f.hands for f in run.finishes} == dict(dealt)
    # a player's stack carries from one hand to their next
    hands = phh.load(folder / "run-0000.phhs")
    last: dict[str, int] = {}
    for data in hands:
        for name, start, end in zip(
            data["players"], data["starting_stacks"], data["finishing_stacks"], strict=True
        ):
            assert last.get(name, start) == start
            last[name] = end
    assert 0 == main(["replay", str(folder)])


def test_plot_writes_a_png_of_finishes_and_stacks(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="needs holdem-engine[plot]")
    out = tmp_path / "t.png"
    assert 0 == main(["tournament", "random", "folder", "--entrants", "6", "--runs", "2", "--structure",
                      "hyper", "--seed", "1", "--plot", str(out)])  # fmt: skip
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_bad_outputs_are_refused_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "file"
    afile.write_text("")
    assert 2 == main(["tournament", "random", "--history", str(afile)])
    assert "is a file, not a folder" in capsys.readouterr().err
    assert 2 == main(["tournament", "random", "--plot", str(tmp_path / "no" / "t.png")])
    assert "no folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["tournament", "random", "--plot", str(tmp_path / "t.txt")])
    assert 2 == usage.value.code and "name a .png file" in capsys.readouterr().err
