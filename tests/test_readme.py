"""The README's promises: its test command is the one CI runs."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run contains, verbatim, the test command the README gives newcomers."""
    readme = (ROOT / "README.md").read_text()
    command = next(line for line in readme.splitlines() if "pytest" in line and line.startswith("python3"))
    assert command in (ROOT / ".ci" / "run").read_text()
