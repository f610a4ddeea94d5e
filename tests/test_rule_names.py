"""Rule names in the code are the rule table's: `judge.rule_names.Rule`, checked against the table."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from judge.game.rule_table import ALIASES, RULES
from judge.rule_names import Rule, rule_names

PACKAGE = Path(__file__).resolve().parents[1] / "judge"


def _sources() -> list[tuple[Path, ast.AST]]:
    return [(path, ast.parse(path.read_text(), str(path))) for path in sorted(PACKAGE.rglob("*.py"))]


def test_rule_holds_exactly_the_rules_of_the_table():
    assert rule_names() == {rule.name for rule in RULES}
    assert all(key == value or value.endswith("!") for key, value in vars(Rule).items()
               if not key.startswith("_"))


def test_a_misspelt_rule_is_an_error_where_it_is_read():
    with pytest.raises(AttributeError):
        _ = Rule.BLIDN  # type: ignore[attr-defined]


def test_a_name_the_table_lacks_stops_the_rule_table_from_loading():
    program = ("import judge.rule_names as names\n"
               "names.Rule.BLIDN = 'BLIDN'\n"
               "import judge.game.rule_table\n")
    ran = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert ran.returncode != 0
    assert "ImportError: judge.rule_names.Rule and the rule table name different rules: BLIDN" in ran.stderr


def test_every_rule_the_code_reads_is_in_the_table():
    read = {(path.name, node.attr) for path, tree in _sources() for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Rule"
            and "rule_names import Rule" in path.read_text()}
    assert read
    assert {attr for _, attr in read} <= vars(Rule).keys()


def test_no_rule_is_tested_by_a_written_out_name():
    """`"BLIND" in rules` would be a branch that never runs if the name were misspelt."""
    names = rule_names() | ALIASES.keys()
    written = [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}" for path, tree in _sources()
               for node in ast.walk(tree)
               if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant)
               and node.left.value in names and isinstance(node.ops[0], ast.In | ast.NotIn)]
    assert written == []


def _rules_annotations(tree: ast.AST) -> list[tuple[int, str]]:
    """Each parameter named `rules`, and each property `rules`, with the annotation it has."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.arg == "rules" and node.annotation is not None:
            found.append((node.lineno, ast.unparse(node.annotation)))
        elif isinstance(node, ast.FunctionDef) and node.name == "rules" and node.returns is not None:
            found.append((node.lineno, ast.unparse(node.returns)))
    return found


@pytest.mark.parametrize("folder", ["orders", "app", "commands"])
def test_the_orders_path_names_the_rules_in_force_rules(folder):
    """Reading a power's orders takes the rules in force as `Rules`, not any set of strings."""
    loose = [f"{path.relative_to(PACKAGE.parent)}:{line}" for path, tree in _sources()
             if path.parent.name == folder for line, annotation in _rules_annotations(tree)
             if annotation != "Rules"]
    assert loose == []
