"""CI never skips silently: with HOLDEM_NO_SKIPS=1 (set by .ci/run) a skipped test fails the run, and
every skip is listed with its reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_skip_fails_the_run_in_ci_and_is_listed_with_its_reason(tmp_path: Path) -> None:
    probe = tmp_path / "test_probe.py"
    probe.write_text(
        "import pytest\n\n\ndef test_passes():\n    pass\n\n\n"
        "@pytest.mark.skip(reason='nginx is not installed')\ndef test_needs_nginx():\n    pass\n"
    )
    command = [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-q", "-rs", "-p", "no:cacheprovider",
               str(probe)]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    strict = subprocess.run(command, cwd=ROOT, env=env | {"HOLDEM_NO_SKIPS": "1"}, capture_output=True,
                            text=True, timeout=120)  # fmt: skip
    assert 1 == strict.returncode, strict.stdout
    assert "1 tests skipped, which CI does not allow" in strict.stdout
    assert "test_needs_nginx: Skipped: nginx is not installed" in strict.stdout
    relaxed = subprocess.run(command, cwd=ROOT, env={k: v for k, v in env.items() if k != "HOLDEM_NO_SKIPS"},
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert 0 == relaxed.returncode and "SKIPPED" in relaxed.stdout, relaxed.stdout  # outside CI: listed
