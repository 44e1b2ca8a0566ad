"""The README's promises: its test command is the one CI runs."""

import json
import subprocess
import sys
from pathlib import Path

from holdem.bots.match import MatchConfig, play_match

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run contains, verbatim, the test command the README gives newcomers."""
    readme = (ROOT / "README.md").read_text()
    command = next(line for line in readme.splitlines() if "pytest" in line and line.startswith("python3"))
    assert command in (ROOT / ".ci" / "run").read_text()


def readme_file(name: str) -> str:
    """The code block the README asks to save as `name`."""
    readme = (ROOT / "README.md").read_text()
    after = readme.split(f"Save this as `{name}`", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_bot_file_runs_as_a_file(tmp_path: Path) -> None:
    """`mybot.py` as a user saves it: a plain file (no prompts), which `holdem match` loads by
    mybot:PairHunter from the folder it is in, and `play_match` takes as a class."""
    source = readme_file("mybot.py")
    assert ">>>" not in source
    (tmp_path / "mybot.py").write_text(source)
    run = [sys.executable, "-m", "holdem", "match", "mybot:PairHunter", "calling-station", "--hands", "400",
           "--duplicate", "--seed", "1", "--json"]  # fmt: skip
    done = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert 0 == done.returncode, done.stderr
    report = json.loads(done.stdout)
    assert ["mybot:PairHunter", "calling-station"] == [bot["name"] for bot in report["bots"]]
    namespace: dict[str, object] = {}
    exec(compile(source, str(tmp_path / "mybot.py"), "exec"), namespace)
    result = play_match(MatchConfig((namespace["PairHunter"], "calling-station"), seed=1), 100)
    assert [("PairHunter", 100), ("calling-station", 100)] == [(b.name, b.hands) for b in result.bots]
