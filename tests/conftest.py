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


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """tests/data: published evaluator counts and equities, PokerStars samples, the Pluribus hands."""
    return DATA


@pytest.fixture(scope="session")
def pluribus_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The 2,502 Pluribus hands, one PHH file each, unpacked from tests/data/pluribus.tar.xz."""
    root = tmp_path_factory.mktemp("pluribus")
    with tarfile.open(DATA / "pluribus.tar.xz") as archive:
        archive.extractall(root, filter="data")
    return sorted(root.rglob("*.phh"))
