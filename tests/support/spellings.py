"""Order texts as players write them: a canonical order respelled at random, and random word salad.

Used where two readers of order text must agree on everything a player might send (the lexer's
canonical shortcut against the full reading), and to make varied requests for `judge adjudicate`.
"""
from __future__ import annotations

import random

from judge.maps.model import Map
from judge.types import province_of

UNIT_WORDS = {"A": ["A", "a", "army", "Army", "ARMY", ""], "F": ["F", "f", "fleet", "Fleet", ""]}
VERBS = {
    "-": ["-", "-", "->", "to", "moves to", "M", "\u2013", "", "-", "attacks"],
    "S": ["S", "s", "supports", "SUPPORT", "Supporting"],
    "C": ["C", "c", "convoys", "CONVOY"],
    "H": ["H", "h", "holds", "HOLD", ""],
    "R": ["R", "retreats to", "-", "r"],
    "D": ["D", "disband", "DISBAND", "remove", "*"],
}
JUNK = ["xyzzy", "the", "in", "via", "convoy", "(", ")", "/", "nc", "sc", "north", "coast", ".", ",",
        "+", "build", "waive", "keep", "A", "F", "S", "C", "H", "-", "B", "D", "R", "\u00e9t\u00e9", "PAR",
        "", "  ", "\t", "over", "by", "Spain", "St.", "mid-atlantic", "eas+med"]
COAST_SPELLINGS = ["{p}/{c}", "{p}/{c}", "{p}({c})", "{p} ({c})", "{p} {c}", "{p}/{c0}", "{p} ({word} coast)",
                   "{p}({word})"]
COAST_WORDS = {"NC": "north", "SC": "south", "EC": "east", "WC": "west"}


def place_spelling(m: Map, abbrev: str, rng: random.Random) -> str:
    """One way of writing a location: its abbreviation in any case, an alias, its name, a coast."""
    province, _, coast = abbrev.partition("/")
    if coast and rng.random() < 0.7:
        pattern = rng.choice(COAST_SPELLINGS)
        written = place_spelling(m, province, rng)
        return pattern.format(p=written, c=rng.choice([coast, coast.lower()]), c0=coast[0],
                              word=COAST_WORDS.get(coast, coast))
    roll = rng.random()
    if roll < 0.45:
        return abbrev
    if roll < 0.6:
        return abbrev.lower()
    aliases = [a for a, targets in m.aliases.items() if abbrev in targets]
    if roll < 0.85 and aliases:
        return rng.choice(aliases).lower() if rng.random() < 0.5 else rng.choice(aliases)
    location = m.locations.get(abbrev)
    return location.name if location is not None else abbrev


def respell(m: Map, text: str, rng: random.Random, odd: float = 0.5) -> str:
    """`text` (words separated by spaces: `A PAR - BUR`) with each word respelled with chance `odd`,
    and now and then a word dropped, doubled, or junk put in."""
    out: list[str] = []
    for word in text.split():
        if rng.random() >= odd:
            out.append(word)
            continue
        if word in UNIT_WORDS:
            out.append(rng.choice(UNIT_WORDS[word]))
        elif word in VERBS:
            out.append(rng.choice(VERBS[word]))
        elif word in m.locations or province_of(word) in m.locations:
            out.append(place_spelling(m, word, rng))
        else:
            out.append(word.lower())
        roll = rng.random()
        if roll < 0.05:
            out.append(rng.choice(JUNK))
        elif roll < 0.08:
            out.pop()
        elif roll < 0.1:
            out.append(out[-1])
    joiner = rng.choice([" ", " ", " ", "  ", "\t"])
    written = joiner.join(w for w in out if w)
    if rng.random() < 0.1:
        written = written.replace(" - ", "-")
    if rng.random() < 0.05:
        written = written + rng.choice([".", " ", ",", "!"])
    if rng.random() < 0.05:
        written = " " + written
    return written


def canonical_text(m: Map, rng: random.Random) -> str:
    """A random text in the canonical forms (`A PAR - BUR`, `F NTH C A LON - HOL`, `A MUN S A BER - SIL`,
    `A X H`, `A MUN S F KIE`), on any places of the map: right or wrong, it is how the forms read."""
    locations = sorted(m.locations)
    unit = f"{rng.choice('AF')} {rng.choice(locations)}"
    form = rng.randrange(6)
    if form == 0:
        return f"{unit} H"
    if form == 1:
        return f"{unit} - {rng.choice(locations)}"
    if form == 2:
        return f"{unit} S {rng.choice('AF')} {rng.choice(locations)} - {rng.choice(locations)}"
    if form == 3:
        return f"{unit} S {rng.choice('AF')} {rng.choice(locations)}"
    if form == 4:
        return f"{unit} C A {rng.choice(locations)} - {rng.choice(locations)}"
    return f"{unit} {rng.choice(['-', 'S', 'C', 'H', 'R', 'D', 'B'])} {rng.choice(locations)}"


def word_salad(m: Map, rng: random.Random) -> str:
    """A few random order words, places and junk: mostly unreadable, sometimes an order."""
    locations = sorted(m.locations)
    words = [rng.choice(locations) if rng.random() < 0.4 else rng.choice(JUNK)
             for _ in range(rng.randrange(0, 7))]
    return " ".join(words)
