"""What the judge works out from a map once and keeps while the map lives: `per_map`."""
from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TypeVar

from judge.maps.model import Map

T = TypeVar("T")


def per_map(make: Callable[[Map], T]) -> Callable[[Map], T]:
    """`make(m)`, made on the first call for each map and kept while the map lives. A Map is
    immutable and hashed by identity, so what is made of it once stays right; what `make` returns
    must hold no strong reference to its map, or the map would never go."""
    kept: weakref.WeakKeyDictionary[Map, T] = weakref.WeakKeyDictionary()

    def for_map(m: Map) -> T:
        found = kept.get(m)
        if found is None:
            found = kept[m] = make(m)
        return found

    for_map.__doc__ = f"`{getattr(make, '__name__', 'make')}` of the map, made once a map (`per_map`)."
    return for_map
