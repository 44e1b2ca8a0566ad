"""The built wheel: what `pip install .` (not editable) really installs."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{done.stderr[-2000:]}")
    (path,) = out.glob("*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_holds_every_module_and_data_file(wheel: zipfile.ZipFile) -> None:
    """Every file of the holdem package tree (subpackages like holdem.bots, tables.bin) is installed."""
    package = ROOT / "holdem"
    expected = {
        p.relative_to(ROOT).as_posix()
        for p in package.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    assert set() == expected - set(wheel.namelist())


def test_the_distribution_has_its_own_name(wheel: zipfile.ZipFile) -> None:
    """'holdem' on the package index is an unrelated project; ours installs as holdem-engine."""
    assert Path(wheel.filename or "").name.startswith("holdem_engine-")


def test_the_all_extra_installs_every_optional_feature() -> None:
    """`pip install 'holdem-engine[all]'` brings what every feature extra brings."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    features = {name: deps for name, deps in extras.items() if name not in ("all", "test", "bench")}
    assert {"plot", "dask"} <= set(features)
    assert set().union(*features.values()) == set(extras["all"])
