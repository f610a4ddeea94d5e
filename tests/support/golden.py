"""Golden files: a golden file holds the mails a test expects, each as `To:` lines (one address
each), a `Subject:` line, a blank line and the body, mails separated by a line of `=`. Tests compare
by default; run them with `UPDATE_GOLDEN=1` to write the files anew (then read the diff)."""
from __future__ import annotations

import os
from pathlib import Path

from judge.mailout.audience import Mailing
from judge.mailout.render import MAX_LINE, Rendered

GOLDEN = Path(__file__).parent.parent / "mailout" / "golden"
SEPARATOR = "=" * 40 + "\n"


def as_text(mails: list[Mailing] | list[Rendered]) -> str:
    parts = []
    for mail in mails:
        if isinstance(mail, Mailing):
            head = "".join(f"To: {a}\n" for a in mail.recipients)
            head += f"Subject: {mail.rendered.subject}\n\n"
            parts.append(head + mail.rendered.body)
        else:
            parts.append(f"Subject: {mail.subject}\n\n{mail.body}")
    return SEPARATOR.join(parts)


def long_lines(text: str) -> list[str]:
    """Lines of 78 columns or more, or with trailing blanks (`badly_ended`); a single word longer
    than that (a path, an id: never broken, so it can be copied) may stand alone on its line."""
    return [line for line in text.splitlines()
            if (len(line) >= MAX_LINE and " " in line.strip()) or badly_ended(line)]


def badly_ended(line: str) -> bool:
    """A line with trailing blanks, or DPjudge's `:: Judge:` line without its one closing blank."""
    if line.startswith(":: Judge: "):
        return not line.endswith(" ") or line[:-1] != line.rstrip()
    return line != line.rstrip()


def check_golden(name: str, mails: list[Mailing] | list[Rendered]) -> None:
    """The mails match golden/<name>.txt, and every line is under 78 columns (`long_lines`) with no
    trailing blank."""
    text = as_text(mails)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    assert not long_lines(text), f"{name}: lines of 78 columns or more, or with trailing blanks"
    assert path.exists(), f"no golden file {path.name}: run the tests with UPDATE_GOLDEN=1"
    assert text == path.read_text(), f"{name}: the mail differs from golden/{path.name}"
