"""From map text to the lines a map is built of: includes expanded, IN/FROM blocks and stanzas set apart.

USE and MAP are resolved through an injected loader, so this module never opens a file itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

from judge.errors import Problem
from judge.maps.bounds import MapBounds, check
from judge.maps.builder import KEYWORDS
from judge.maps.model import DynamicBlock, SourceLine, Stanza
from judge.maps.tokens import is_place_line

# loader(file_name, including_file_label) -> (label, text); raises LookupError when there is no such file
Loader = Callable[[str, "str | None"], "tuple[str, str]"]

PHASE_ABBREV = re.compile(r"[A-Z][0-9]+[A-Z]")


@dataclass
class MapSource:
    base: list[SourceLine] = field(default_factory=list)
    dynamic: list[DynamicBlock] = field(default_factory=list)
    stanzas: list[Stanza] = field(default_factory=list)
    graphic: str | None = None
    problems: list[Problem] = field(default_factory=list)


def read_source(name: str, loader: Loader, extra: Sequence[str] = (), extra_label: str = "MORPH",
                bounds: MapBounds | None = None) -> MapSource:
    """Everything the map `name` says, in order, with USE/MAP files read where they stand, then
    the `extra` lines (a game's MORPH lines) as if they ended the map file. With `bounds`, raises
    `MapTooLarge` as soon as the text read is over one of them."""
    reader = _Reader(loader, bounds)
    reader.include(name, None, None, 0, reader.source.base)
    if extra:
        reader.stack.append(extra_label)  # a USE there is one level down, as in a file
        reader.read_file(extra_label, "\n".join(extra), reader.source.base)
        reader.stack.pop()
    source = reader.source
    source.dynamic = [DynamicBlock(b.kind, b.when, tuple(b.lines)) for b in source.dynamic]
    return source


def is_stanza_start(words: list[str]) -> bool:
    return 1 <= len(words) <= 2 and words[-1].upper() in ("DIRECTIVE", "DIRECTIVES")


def is_stanza_end(words: list[str]) -> bool:
    return len(words) == 2 and words[0].upper() == "END" and words[1].upper() in ("DIRECTIVE", "DIRECTIVES")


class _Reader:
    def __init__(self, loader: Loader, bounds: MapBounds | None):
        self.loader = loader
        self.bounds = bounds
        self.source = MapSource()
        self.stack: list[str] = []
        self.lines = self.chars = self.uses = 0

    def problem(self, file: str, line: int, message: str) -> None:
        self.source.problems.append(Problem(file, line, message))

    def include(self, name: str, parent: str | None, where: str | None, line: int,
                target: list[SourceLine]) -> None:
        try:
            label, text = self.loader(name, parent)
        except LookupError as exc:
            self.problem(where or name, line, f"cannot read map file {name!r}: {exc}")
            return
        if label in self.stack:
            chain = " -> ".join(self.stack + [label])
            self.problem(where or label, line, f"USE loop: {chain}")
            return
        if self.bounds is not None and parent is not None:
            self.uses += 1
            check("files read through USE", self.uses, self.bounds.uses, where or label, line)
            check("levels of USE", len(self.stack), self.bounds.use_depth, where or label, line)
        self.stack.append(label)
        self.read_file(label, text, target)
        self.stack.pop()

    def read_file(self, label: str, text: str, target: list[SourceLine]) -> None:
        current = target  # where plain lines go: the base, or the open IN/FROM block
        stanza: tuple[str | None, list[str]] | None = None
        for number, raw in enumerate(text.splitlines(), 1):
            if self.bounds is not None:
                self.count(self.bounds, label, number, raw)
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split()
            if stanza is not None:
                if is_stanza_end(words):
                    self.source.stanzas.append(Stanza(stanza[0], tuple(stanza[1])))
                    stanza = None
                else:
                    stanza[1].append(line)
                continue
            head = words[0].upper()
            here = SourceLine(label, number, line)
            if is_place_line(line, KEYWORDS):
                current.append(here)
            elif head in ("USE", "USES"):
                if len(words) < 2:
                    self.problem(label, number, f"{head} needs at least one file name")
                for name in words[1:]:
                    self.include(name, label, label, number, current)
            elif head == "MAP":
                if len(words) != 2:
                    self.problem(label, number, "MAP takes exactly one map name")
                    continue
                self.source.graphic = words[1].lower().split(".", 1)[0]
                file = words[1] if "." in words[1] else words[1] + ".map"  # `MAP standard.geography` too
                self.include(file, label, label, number, current)
            elif head == "IN":
                current = self.open_block(here, "IN", current, target)
            elif head == "FROM":
                current = self.open_block(here, "FROM", current, target)
            elif is_stanza_start(words):
                stanza = (words[0].upper() if len(words) == 2 else None, [])
            elif is_stanza_end(words):
                self.problem(label, number, "END DIRECTIVES without DIRECTIVES")
            else:
                current.append(here)
        if stanza is not None:  # a stanza runs to the end of its file
            self.source.stanzas.append(Stanza(stanza[0], tuple(stanza[1])))

    def count(self, bounds: MapBounds, label: str, number: int, raw: str) -> None:
        self.lines += 1
        self.chars += len(raw.encode()) + 1
        check("lines", self.lines, bounds.lines, label, number)
        check("bytes", self.chars, bounds.bytes, label, number)

    def open_block(self, here: SourceLine, kind: str, current: list[SourceLine],
                   base: list[SourceLine]) -> list[SourceLine]:
        """Start an IN/FROM block; returns where the following lines go."""
        rest = here.text.split(None, 1)[1] if len(here.text.split()) > 1 else ""
        spec, colon, directive = rest.partition(":")
        words = spec.upper().split()
        if kind == "FROM" and words == ["START"] and not colon:
            return base
        if not words:
            self.problem(here.file, here.line, f"{kind} needs a phase")
            return current
        if kind == "FROM" and not all(PHASE_ABBREV.fullmatch(w) and w.endswith("M") for w in words):
            self.problem(here.file, here.line,
                         f"FROM takes movement phase abbreviations such as S1904M, or START; got {spec.strip()!r}")
            return current
        lines: list[SourceLine] = []
        if self.bounds is not None:
            check("IN and FROM blocks", len(self.source.dynamic) + 1, self.bounds.blocks,
                  here.file, here.line)
        self.source.dynamic.append(DynamicBlock(kind, tuple(words), lines))  # type: ignore[arg-type]
        if colon:
            if directive.strip():
                lines.append(SourceLine(here.file, here.line, directive.strip()))
            else:
                self.problem(here.file, here.line, f"nothing after the colon of {kind}")
            return current
        return lines
