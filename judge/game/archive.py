"""The results archive (`games/<name>/results`): every results mail a game was sent, in DPjudge's layout.

The archive is the game's history: HISTORY mails it and SUMMARY reads its ownership tables. It is
a mail box, one entry per mail, whether DPjudge or this judge wrote it::

    From judge@example.org Mon Nov 30 04:00:00 2026
    Subject: Diplomacy results jigdy S1901M

    :: Judge: ...
    Movement results for Spring of 1901.  (jigdy.S1901M)
    ...

In a BLIND game a part of an entry is for some readers only: a line `SHOW AUSTRIA MASTER` starts
a part only those readers see, a bare `SHOW` ends it. `for_reader` keeps what one reader may see.
A rollback cuts the archive before the entry of the phase rolled back to (`cut_at`), as DPjudge
does: a rolled-back phase is no longer part of the game's history. Before a phase's entry, the
last entry's "The deadline for orders will be ..." is made to name the deadline the phase was
processed under, when it changed after the mail went out (`restated`), as DPjudge does.

Pure: text in, text out. The file's bytes and their encoding are the store's
(`judge.runtime.store`); DPjudge wrote latin-1, and `judge.status.parser.decode_status` reads either.
"""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from difflib import SequenceMatcher

from judge.timing.written import WRITTEN_DATE

SHOW = "SHOW"
RESULTS_SUBJECT = "Diplomacy results"
_FROM = re.compile(r"^From \S+ ")
_SUBJECT = "Subject: "
_DEADLINE_SENTENCE = "The deadline for "

# A part of an entry and who may see it: None, everyone; else the readers' names (powers, MASTER).
Part = tuple[str, Collection[str] | None]


def from_line(sender: str, when: datetime) -> str:
    """The mail box's separator line: `From judge@example.org Mon Nov 30 04:00:00 2026` (UTC)."""
    moment = when.astimezone(UTC) if when.tzinfo else when
    return f"From {sender} {moment:%a %b} {moment.day:2d} {moment:%H:%M:%S %Y}"


def entry_text(sender: str, when: datetime, subject: str, body: str | Sequence[Part]) -> str:
    """One archive entry: the From line, the subject, a blank line, the body and a blank line.
    `body` as parts: each part seen by everyone (None) or by the readers named, marked by SHOW
    lines as DPjudge marks them."""
    text = body if isinstance(body, str) else _with_show_lines(body)
    return f"{from_line(sender, when)}\n{_SUBJECT}{subject}\n\n{text.rstrip(chr(10))}\n\n"


def _with_show_lines(parts: Sequence[Part]) -> str:
    lines: list[str] = []
    restricted = False
    for text, readers in parts:
        if readers is not None:
            lines.append(" ".join([SHOW, *readers]))
        elif restricted:
            lines.append(SHOW)
        restricted = readers is not None
        lines += text.removesuffix("\n").split("\n")  # (a part's text ends its last line)
    if restricted:
        lines.append(SHOW)
    return "\n".join(lines)


def reader_parts(bodies: Mapping[str, str]) -> list[Part]:
    """Every reader's version of one mail (reader -> body; MASTER's the whole) as one body of
    parts: the lines all of them read for everyone, the rest for those who read them (a BLIND
    game's results, which `entry_text` writes with SHOW lines and `for_reader` reads back)."""
    union: list[tuple[str, frozenset[str]]] = []
    for reader, body in bodies.items():
        union = _merged(union, body.split("\n"), reader)
    everyone = frozenset(bodies)
    runs: list[tuple[list[str], tuple[str, ...] | None]] = []
    for line, readers in union:
        shown = None if readers == everyone else tuple(sorted(readers))
        if runs and runs[-1][1] == shown:
            runs[-1][0].append(line)
        else:
            runs.append(([line], shown))
    return [("\n".join(lines) + "\n", shown) for lines, shown in runs]


def _merged(union: list[tuple[str, frozenset[str]]], lines: list[str], reader: str
            ) -> list[tuple[str, frozenset[str]]]:
    """`union` with one more reader's lines: the lines both hold in their order, then each one's own."""
    matcher = SequenceMatcher(None, [text for text, _ in union], lines, autojunk=False)
    merged: list[tuple[str, frozenset[str]]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            merged += [(text, readers | {reader}) for text, readers in union[i1:i2]]
            continue
        merged += union[i1:i2]
        merged += [(text, frozenset({reader})) for text in lines[j1:j2]]
    return merged


@dataclass(frozen=True)
class Entry:
    """One mail of the archive: its subject and its lines after the blank line (SHOW lines kept)."""

    subject: str
    lines: tuple[str, ...]

    @property
    def phase(self) -> str | None:
        """The phase of a results entry (S1901M), None for another mail."""
        if not self.subject.startswith(RESULTS_SUBJECT):
            return None
        return self.subject.split()[-1]


def entries(text: str) -> list[Entry]:
    """The archive's mails, oldest first; text before the first From line is no entry."""
    found: list[Entry] = []
    lines = text.split("\n")
    for start, end in _spans(lines):
        subject = lines[start + 1][len(_SUBJECT):].strip()
        body = lines[start + 3:end] if start + 2 < end and not lines[start + 2].strip() \
            else lines[start + 2:end]
        found.append(Entry(subject, tuple(body)))
    return found


def _starts(lines: Sequence[str]) -> list[int]:
    """The line numbers of the From lines that begin an entry (a Subject line follows)."""
    return [n for n, line in enumerate(lines[:-1])
            if _FROM.match(line) and lines[n + 1].startswith(_SUBJECT)]


def _spans(lines: Sequence[str]) -> Iterable[tuple[int, int]]:
    starts = _starts(lines)
    return zip(starts, [*starts[1:], len(lines)])


def cut_at(text: str, game: str, phase: str) -> str:
    """The archive before the entry of `phase`'s results (what a rollback to `phase` leaves);
    the whole archive when it has no such entry."""
    lines = text.split("\n")
    wanted = f"{RESULTS_SUBJECT} {game} {phase}".lower()
    for start in _starts(lines):
        if lines[start + 1][len(_SUBJECT):].strip().lower() == wanted:
            return "\n".join(lines[:start]) + ("\n" if start else "")
    return text


def restated(text: str, deadline: str) -> tuple[str, str] | None:
    """DPjudge's correction of the archive before it adds a phase's entry: when the archive ends
    with a sentence naming a deadline ("The deadline for orders will be <date>.") and the phase
    was processed under another one, `deadline` (written in the long form), the sentence is made
    to name it. (the archive's text before that line, the line rewritten and a blank line), or None
    when the archive stays as it is."""
    body = text.rstrip("\n")
    last = body[body.rfind("\n") + 1:]
    if not last.startswith(_DEADLINE_SENTENCE):
        return None
    dates = list(WRITTEN_DATE.finditer(last))
    if not dates or dates[-1].end() != len(last) - 1 or dates[-1].group(0) == deadline:
        return None
    return body[:len(body) - len(last)], f"{last[:dates[-1].start()]}{deadline}.\n\n"


def for_reader(text: str, readers: Collection[str] | None = None) -> str:
    """What a reader may see of the archive, as DPjudge's HISTORY shows it: the parts whose SHOW
    line names one of `readers` (the powers the reader is, or MASTER), and the parts for everyone,
    with SHOW lines gone and blank lines single (`single_blanks`). `readers` None: every part (a
    completed game). An archive without SHOW lines is returned as it is."""
    lines = text.splitlines(keepends=True)
    if not any(_is_show(line) for line in lines):
        return text
    kept: list[str] = []
    shown = True
    for line in lines:
        if _is_show(line):
            named = line.split()[1:]
            shown = readers is None or not named or any(r in named for r in readers)
        elif shown:
            kept.append(line)
    return single_blanks("".join(kept))


def single_blanks(text: str) -> str:
    """The text with no blank line after a blank line, as DPjudge shows a BLIND game's archive
    (the parts of others would leave blank lines doubled)."""
    kept: list[str] = []
    blank = False
    for line in text.splitlines(keepends=True):
        if line.strip() or not blank:
            kept.append(line)
        blank = not line.strip()
    return "".join(kept)


def _is_show(line: str) -> bool:
    return line.startswith(SHOW) and (len(line.rstrip()) == len(SHOW) or line[len(SHOW)] == " ")


@dataclass(frozen=True)
class Ownership:
    """The centres each owner held at the end of a year, as the archive's last ownership table of
    that year lists them: owner (upper case, `UNOWNED` too) -> the centres' names as written."""

    year: str
    owners: dict[str, tuple[str, ...]]


def ownership(text: str) -> tuple[str | None, list[Ownership]]:
    """The phase of the archive's last results and each year's ownership, oldest first (read the
    archive `for_reader` first: SHOW lines are not read here). A table's line may run on to
    indented lines; the table ends at the first blank line after its first entry."""
    end: str | None = None
    years: dict[str, dict[str, tuple[str, ...]]] = {}
    year: str | None = None
    reading, pending = False, ""
    for line in (raw.strip() for raw in text.split("\n")):
        if not line:
            reading = reading and not years.get(year or "")
        elif line.startswith(f"{_SUBJECT}{RESULTS_SUBJECT}"):
            end = line.split()[-1]
            year = end[1:-1]
        elif year and line.startswith("Ownership of"):
            years[year], reading, pending = {}, True, ""
        elif reading:
            line = f"{pending} {line}" if pending else line
            if not line.endswith("."):
                pending = line
                continue
            owner, _, names = line[:-1].partition(":")
            years[year or ""][owner.strip().upper()] = tuple(n.strip() for n in names.split(", ") if n.strip())
            pending = ""
    return end, [Ownership(y, owners) for y, owners in years.items()]
