"""The documents that ship in the package: each rule with tests that exist, structures that load."""

import json
import re
from pathlib import Path

import pytest

from holdem.cli import main
from holdem.docs import DOCUMENTS, read
from holdem.tournament import load_structure

TESTS = Path(__file__).resolve().parent


def test_the_rules_document_states_every_rule_with_tests_that_exist() -> None:
    """Rules 1-33 each appear, in order, and every test the document names is a test of the suite."""
    text = read("rules")
    numbers = [int(n) for n in re.findall(r"^\*\*(\d+)\. ", text, re.MULTILINE)]
    assert list(range(1, 34)) == numbers
    named = set(re.findall(r"`(test_rule_\w+)`", text))
    defined = {
        name for path in TESTS.glob("test_*.py") for name in re.findall(r"def (test_\w+)", path.read_text())
    }
    assert set() == named - defined
    for n in numbers:  # each rule names at least one of its own tests
        assert any(name.startswith(f"test_rule_{n:02d}_") for name in named), n


def test_the_structure_example_and_the_documented_formats_load(tmp_path: Path) -> None:
    """The example file, and the TOML and JSON blocks of structures.md, are structures holdem plays."""
    example = tmp_path / "my.toml"
    example.write_text(read("structure-example"))
    structure = load_structure(example)
    assert ("evening", 5000, 4) == (structure.name, structure.starting_stack, len(structure.levels))
    assert structure.levels[2].big_blind_ante and 150 == structure.levels[2].ante
    blocks = dict(re.findall(r"```(toml|json)\n(.*?)```", read("structures"), re.DOTALL))
    (tmp_path / "doc.toml").write_text(blocks["toml"])
    (tmp_path / "doc.json").write_text(json.dumps(json.loads(blocks["json"])))
    assert load_structure(tmp_path / "doc.toml").levels == load_structure(tmp_path / "doc.json").levels


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_holdem_docs_prints_each_document(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert 0 == main(["docs", name])
    assert read(name) == capsys.readouterr().out
