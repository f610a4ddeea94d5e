"""The table of docs/rules.md, written from the rule table (`judge.game.rule_table`).

`python -m tests.support.rule_docs` rewrites the table in docs/rules.md; a test checks it is current."""
from __future__ import annotations

from pathlib import Path

from judge.game.rule_table import RULES, Rule

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
BEGIN, END = "<!-- rule table: begin -->", "<!-- rule table: end -->"


def _names(names: tuple[str, ...]) -> str:
    return " ".join(names)


def row(rule: Rule) -> str:
    cells = [f"`{rule.name}`", rule.family, _names(rule.implies), _names(rule.removes),
             _names(rule.excludes), _names(rule.defaults), rule.variant,
             "yes" if rule.implemented else "no", rule.note]
    return "| " + " | ".join(cells) + " |"


def table() -> str:
    head = ("| Rule | Family | Implies (`+`) | Removes (`-`) | Excludes (`!`) | Unless off (`=`) "
            "| Needs variant | Implemented | Note |")
    return "\n".join([head, "|" + "---|" * 9, *(row(r) for r in RULES)])


def document(text: str) -> str:
    """The document with its table rewritten from the rule table."""
    before, rest = text.split(BEGIN, 1)
    after = rest.split(END, 1)[1]
    return f"{before}{BEGIN}\n{table()}\n{END}{after}"


if __name__ == "__main__":
    DOC.write_text(document(DOC.read_text(encoding="utf-8")), encoding="utf-8")
