"""DPjudge's own drawing of a position, for a judgekeeper who has DPjudge's map drawings
(`NAME.ps`, with `psinfo` in the same folder): a PostScript page in the protocol those files
implement, which Ghostscript renders (`judge.runtime.ghostscript`).

The page is the map file's text (its procedures, its `% INFO` places) followed by one page of calls:
`DrawMap`, `DrawNames`, `(title) DrawTitle`; for each power its name (which selects its colours) and
`x y DrawArmy` / `x y DrawFleet` for each unit; `OwnerReport` and one `(line) WriteOwner` per power;
then each power's name and `PLACE supply` for each centre it owns (`UNOWNED` for the others); `Black`
and `ShowPage`. A procedure the file does not define is given one that takes its arguments and draws
nothing.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from judge.drawing.board import Board
from judge.maps.model import Map

# the procedures a page calls, and how many arguments each takes
PROCEDURES = {"ShowPage": 0, "DrawMap": 0, "DrawNames": 0, "DrawTitle": 1, "DrawArmy": 2,
              "DrawFleet": 2, "OwnerReport": 0, "WriteOwner": 1, "supply": 0}
INFO_LINE = re.compile(r"%\s+(-?\d+)\s+(-?\d+)\s+(\S+)")
UNOWNED = "UNOWNED"


@dataclass(frozen=True)
class PostScriptMap:
    text: str  # the whole file
    places: Mapping[str, tuple[int, int]]  # abbreviation -> x, y (PostScript's: y upwards)
    powers: tuple[str, ...]  # the powers the file colours, in its order
    defined: frozenset[str]  # the procedures it defines


def read_postscript_map(text: str) -> PostScriptMap:
    places: dict[str, tuple[int, int]] = {}
    powers: list[str] = []
    defined: set[str] = set()
    in_info = in_powers = False
    for line in text.splitlines():
        words = line.split()
        if words[:2] == ["%", "INFO"]:
            in_info = True
            continue
        if in_info:
            found = INFO_LINE.match(line)
            if found:
                places.setdefault(found.group(3).upper(), (int(found.group(1)), int(found.group(2))))
                continue
            in_info = False
        if words[:1] in (["/VisitPowers"], ["/Powers"]) and "{" in line:
            in_powers = True
        elif in_powers and words[:1] == ["}"]:
            in_powers = False
        elif in_powers and words and words[0].startswith("/") and words[0][1:].isupper():
            powers.append(words[0][1:])
        if words and words[0].startswith("/") and len(words[0]) > 1:
            defined.add(words[0][1:])
    return PostScriptMap(text, places, tuple(dict.fromkeys(powers)), frozenset(defined))


def postscript_page(ps: PostScriptMap, m: Map, board: Board, title: str) -> str:
    """The map file with one page showing the board's units and centres."""
    body = ["%%Page: 1 1", "DrawMap", "DrawNames", f"({_text(title)}) DrawTitle"]
    coloured = [p for p in m.powers if p in ps.powers]
    for power in coloured:
        placed = [(u, at) for u in board.units.get(power, ()) if (at := _point(ps, u.location))]
        if placed:
            body.append(power)
            for unit, (x, y) in placed:
                body.append(f"\t{x} {y} {'DrawArmy' if unit.type.value == 'A' else 'DrawFleet'}")
    owned = {p: sorted(c for c in board.centers.get(p, ()) if _point(ps, c)) for p in coloured}
    unowned = sorted(c for c in m.supply_centers if _point(ps, c) and not any(c in cs for cs in owned.values()))
    body.append("OwnerReport")
    for power in coloured:
        if owned[power] or board.units.get(power):
            count = f"({len(board.units.get(power, ()))}/{len(owned[power])})"
            body.append(f"({_text(f'{power:<10} {count:<7} ' + ' '.join(owned[power]))}) WriteOwner")
    for power, centres in [*owned.items(), (UNOWNED, unowned)]:
        if centres and (power in ps.powers):
            body.append(power)
            body.extend(f"{c} supply" for c in centres)
    body += ["", "Black", "ShowPage", "%%PageTrailer", "%%Trailer", "%%Pages: 1 1", ""]
    return _with_stubs(ps) + "\n".join(body)


def _point(ps: PostScriptMap, location: str) -> tuple[int, int] | None:
    return ps.places.get(location) or ps.places.get(location.split("/", 1)[0])


def _text(words: str) -> str:
    """A PostScript string's contents: backslashes and parentheses escaped."""
    return words.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _with_stubs(ps: PostScriptMap) -> str:
    """The file, with a do-nothing procedure for each one it lacks placed before its setup ends."""
    stubs = []
    for name, arguments in PROCEDURES.items():
        if name not in ps.defined:
            action = "showpage" if name == "ShowPage" else " ".join(["pop"] * arguments)
            stubs.append(f"/{name} where {{pop}} {{ /{name} {{ {action} }} bind def }} ifelse")
    text = ps.text.rstrip("\n") + "\n"
    if not stubs:
        return text
    at = text.rfind("%%EndSetup")
    block = "% Stubs\n" + "\n".join(stubs) + "\n"
    return text[:at] + block + text[at:] if at >= 0 else text + block


@dataclass(frozen=True)
class PageInfo:
    """A map's line of `psinfo`: the box the map fills on the page (points, from the page's top left
    once turned), the quarter turns that bring the page upright (3, a landscape page, unless said)
    and the paper."""

    bbox: tuple[int, int, int, int] | None = None
    rotation: int = 3
    paper: str = "letter"  # Ghostscript's paper size name: the page the drawing was laid out on


def page_info(text: str, name: str) -> PageInfo | None:
    """`name`'s line of a `psinfo` file (`name bbox papersize rotation`, `_` for the default, `-` for
    the line before's value, `=` for all the line before's values from there on); None if absent."""
    values = ["", "", ""]
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        given = words[1:]
        for index in range(3):
            word = given[index] if index < len(given) else "_"
            if word == "=":
                break
            if word != "-":
                values[index] = "" if word == "_" else word
        if words[0] == name:
            return _page_info(values)
    return None


def _page_info(values: list[str]) -> PageInfo:
    bbox = None
    try:
        numbers = tuple(int(v) for v in values[0].split(",")) if values[0] else ()
        if len(numbers) == 4:
            bbox = numbers
        rotation = int(values[2]) if values[2] else 3
    except ValueError:
        return PageInfo(bbox)
    paper = values[1].lower() if values[1].isalnum() else "letter"
    return PageInfo(bbox, rotation if 0 <= rotation <= 3 else 3, paper)
