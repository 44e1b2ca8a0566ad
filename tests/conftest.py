"""Shared test settings."""

import os
import tarfile
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

DATA = Path(__file__).resolve().parent / "data"
"""The tests' own data (tests/data, with its sources and licences in tests/data/README.md)."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker per core and one more. A third of the suite waits on sockets, browsers
    and clocks rather than computing, so a spare worker fills the cores: on 2 cores the whole suite
    took 509 s with 3 workers against 700 s with 2 (2026-11-27)."""
    return (os.cpu_count() or 1) + 1


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """tests/data: published evaluator counts and equities, PokerStars samples, the Pluribus hands."""
    return DATA


@pytest.fixture(scope="session")
def pluribus_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The 2,502 Pluribus hands, one PHH file each, unpacked from tests/data/pluribus.tar.xz."""
    root = tmp_path_factory.mktemp("pluribus")
    with tarfile.open(DATA / "pluribus.tar.xz") as archive:
        unpack(archive, root)
    return sorted(root.rglob("*.phh"))


def unpack(archive: tarfile.TarFile, root: Path, members: list[tarfile.TarInfo] | None = None) -> None:
    """Extract plain files and folders under `root` only. Python 3.11.4 and later check this with
    ``filter="data"``; Debian 12's own Python is 3.11.2, which has no such argument, so the same
    check is made here first."""
    chosen = members if members is not None else archive.getmembers()
    for member in chosen:
        name = Path(member.name)
        if name.is_absolute() or ".." in name.parts or not (member.isfile() or member.isdir()):
            raise ValueError(f"{member.name!r} is not a plain file or folder inside the archive")
    if hasattr(tarfile, "data_filter"):
        archive.extractall(root, members=chosen, filter="data")
    else:  # pragma: no cover - Python before 3.11.4
        archive.extractall(root, members=chosen)


SLOW_FIRST = ("test_server_pace", "test_docs_examples", "test_learn", "test_pushfold_endgame",
              "test_server_cluster", "test_server_home_browser", "test_server_storm", "test_server_join",
              "test_cli_messages",
              "test_server_home_screen", "test_server_hostile", "test_server_home_http",
              "test_server_browser", "test_server_security", "test_bot_lifecycle", "test_server_tourney_bots",
              "test_pushfold", "test_server_stored", "test_views_snapshots", "test_ladder", "test_panel",
              "test_tournament_scale")  # fmt: skip
"""The test files that take longest (from 170 s down to 13 s each, measured on 2 cores with
``--durations=0``), longest first. They are collected first, so that the workers running files in
parallel start them first and finish together."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: k for k, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(rank)))  # stable: the others keep their order


# In CI (.ci/run sets HOLDEM_NO_SKIPS=1) a skipped test is a failure: a component that could not be
# installed (Chromium, nginx, PostgreSQL, an extra) must not pass as a count of skips.
_SKIPPED: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and os.environ.get("HOLDEM_NO_SKIPS") == "1":
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _SKIPPED.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _SKIPPED:
        print(f"\n{len(_SKIPPED)} tests skipped, which CI does not allow (HOLDEM_NO_SKIPS=1):")
        for line in _SKIPPED:
            print(f"  {line}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
