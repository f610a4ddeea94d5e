"""The order in which DPjudge (Python 2.7) lists the keys of a dictionary of strings.

DPjudge lists some things in its mails by walking a dictionary, so their order is the order of the
slots Python 2.7's dictionary put the keys in: by the keys' Python 2 string hash (64-bit, not
randomised), probing as CPython 2.7 probes, the table growing as it grows. The judge writes those
mails as DPjudge does, so it lists such keys in that order (`python2_order`).
"""
from __future__ import annotations

from collections.abc import Iterable

_MASK = (1 << 64) - 1
_FIRST_SIZE = 8


def python2_hash(text: str) -> int:
    """Python 2.7's hash of a byte string, as an unsigned 64-bit number."""
    if not text:
        return 0
    value = (ord(text[0]) << 7) & _MASK
    for char in text:
        value = ((1000003 * value) & _MASK) ^ ord(char)
    value ^= len(text)
    return _MASK - 1 if value == _MASK else value  # -1 is kept for errors: Python makes it -2


def python2_order(keys: Iterable[str]) -> list[str]:
    """The keys, inserted in this order into a Python 2.7 dict (no deletions), as it lists them."""
    table: list[str | None] = [None] * _FIRST_SIZE
    used = 0
    for key in keys:
        if key in table:
            continue
        _insert(table, key)
        used += 1
        if used * 3 >= len(table) * 2:  # CPython 2.7 grows the table to the next size above 4 * used
            size = _FIRST_SIZE
            while size <= 4 * used:
                size <<= 1
            old, table = [k for k in table if k is not None], [None] * size
            for kept in old:
                _insert(table, kept)
    return [k for k in table if k is not None]


def _insert(table: list[str | None], key: str) -> None:
    mask = len(table) - 1
    hashed = python2_hash(key)
    slot, perturb = hashed, hashed
    while table[slot & mask] is not None:
        slot = (slot << 2) + slot + perturb + 1
        perturb >>= 5
    table[slot & mask] = key
