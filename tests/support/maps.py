"""Test helpers: maps built from text, without touching the disk, and a small map's text (places,
geography, powers) for the map tests to vary."""
from __future__ import annotations

import pytest

from judge.errors import MapError
from judge.maps import parse_map


def text_loader(files: dict[str, str]):
    """A map loader over an in-memory {file name: text} dict (names with or without `.map`)."""
    def load(name: str, parent: str | None) -> tuple[str, str]:
        for candidate in (name, name + ".map"):
            if candidate in files:
                return candidate, files[candidate]
        raise LookupError("no such file")
    return load


def map_from_text(text: str, **includes: str):
    """Parse `text` as main.map; keyword arguments are further files it may USE (dots as `__`)."""
    files = {"main.map": text}
    files.update({name.replace("__", "."): body for name, body in includes.items()})
    return parse_map("main.map", text_loader(files))


# A small map: eight places (an alias shared by two, a two-coast Delta) and two powers.
PLACES = """
Alpha = alp alfa
Bravo = bra
Charlie Sea = chs charlie+sea cs?
Delta = del
Delta (north coast) = del/nc
Delta (south coast) = del/sc
Echo = ech ec cs?
Foxtrot Sea = fox
"""
GEOGRAPHY = PLACES + """
LAND  ALP ABUTS BRA del
COAST BRA ABUTS ALP CHS del ECH
WATER CHS ABUTS BRA DEL/NC ECH FOX
COAST DEL/NC ABUTS CHS
COAST DEL/SC ABUTS FOX
COAST del ABUTS ALP BRA CHS FOX
COAST ECH ABUTS BRA CHS FOX
WATER FOX ABUTS CHS DEL/SC ECH
"""
POWERS = """
NORTH (NORTHERN) ALP BRA
A ALP
F BRA
SOUTH (SOUTHERN:Z) ECH
F ECH
UNOWNED DEL
"""


def problems(text: str) -> list[str]:
    with pytest.raises(MapError) as caught:
        map_from_text(text)
    return [str(p) for p in caught.value.problems]
