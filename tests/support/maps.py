"""Test helpers: maps built from text, without touching the disk."""
from __future__ import annotations

from judge.maps import parse_map
from judge.maps.loader import load_map


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


