"""Reading the small pieces of map lines: abbreviations, ABUTS entries, centre words, power words.

Pure functions from a word to a value; each raises ValueError with a message a map author can act on.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from judge.maps.model import CAPE, STRAIT, Abut

ABBREV = re.compile(r"[^\W_]{3}(/[^\W_]{1,3})?")
# names keep to the characters DPjudge's own maps use: a power's name is one word of status files,
# orders and press; a place's name and a power's own word are prose, and go into the pictures too
POWER_MARKS = frozenset("_+-.")
NAME_MARKS = frozenset(" '()*+,-.:_")
SPECIALS = {STRAIT, CAPE}


def is_place_line(text: str, keywords) -> bool:
    """`Name = abbrev aliases`, but not an `=` in a directive's argument (`FLOW IFYEARDIV:2=1`,
    `IN SPRING: X = x`). Names may start with a keyword (`Coast of Mexico`) or hold a colon (`S:t`)."""
    before = text.partition("=")[0]
    return "=" in text and not (":" in before and text.split()[0].upper() in keywords)


def check_abbrev(word: str) -> str:
    """An abbreviation as the map must write it: three letters or digits, a coast written `/XC`."""
    if not ABBREV.fullmatch(word):
        raise ValueError(f"bad abbreviation {word!r}: it must be 3 letters or digits, and a coast "
                         f"written /XX")
    return word.upper()


def check_power_name(word: str) -> str:
    name = word.upper()
    if not all(c.isalnum() or c in POWER_MARKS for c in name):
        raise ValueError(f"bad power name {word!r}: letters, digits and _ + - . only")
    return name


def check_name(text: str, what: str) -> str:
    """A place's name or a power's own word: letters, digits, blanks and ' ( ) * + , - . : _ only."""
    bad = sorted({c for c in text if not (c.isalnum() or c in NAME_MARKS)})
    if bad:
        raise ValueError(f"bad {what} {text!r}: {''.join(bad)!r} cannot be part of it (letters, "
                         "digits, blanks and ' ( ) * + , - . : _ only)")
    return text


@dataclass(frozen=True, slots=True)
class AbutWord:
    abut: Abut
    remove: bool = False  # `-XXX` under AMEND


def parse_abut(word: str) -> AbutWord:
    """`EI:~NAF(CON,SMY)` -> the adjacency it declares; case says who may not cross."""
    remove = word.startswith("-")
    body = word[1:] if remove else word
    powers = None
    if ":" in body:
        prefix, body = body.split(":", 1)
        if not all(c.isalnum() for c in prefix):
            raise ValueError(f"bad power list {prefix!r} in adjacency {word!r}")
        powers = frozenset(prefix.upper())
    centers: frozenset[str] = frozenset()
    match = re.fullmatch(r"(.*)\(([^()]*)\)", body)
    if match:
        body = match.group(1)
        names = [c.strip() for c in match.group(2).split(",") if c.strip()]
        if not names:
            raise ValueError(f"empty centre list in adjacency {word!r}")
        centers = frozenset(check_abbrev(c) for c in names)
    special = set()
    while body and not body[0].isalnum():
        special.add(body[0])
        body = body[1:]
    while body and not body[-1].isalnum():
        special.add(body[-1])
        body = body[:-1]
    unknown = special - SPECIALS
    if unknown:
        raise ValueError(f"unknown special restriction {''.join(sorted(unknown))!r} in adjacency "
                         f"{word!r} (only ~ and * exist)")
    dest = check_abbrev(body)
    letters = [c for c in body if c.isalpha()]
    has_upper = any(c.isupper() for c in letters)
    has_lower = any(c.islower() for c in letters)
    fleet = not (has_lower and not has_upper)  # `tus`: no fleet crossing
    army = not (has_lower and has_upper)  # `Tys`: no direct army move
    return AbutWord(Abut(dest, army, fleet, powers, centers, frozenset(special)), remove)


@dataclass(frozen=True, slots=True)
class CenterWord:
    """A centre on a power line: `~@CAL(NYO)`, `&SC`, `+SITE`, `*SITE`, `-BUD`, `PAR`."""

    center: str
    marks: frozenset[str]  # of "&+*@~-"
    instead_of: tuple[str, ...] = ()


CENTER_MARKS = set("&+*@~-")


def parse_center(word: str) -> CenterWord:
    marks = set()
    body = word
    while body and body[0] in CENTER_MARKS:
        marks.add(body[0])
        body = body[1:]
    instead: tuple[str, ...] = ()
    match = re.fullmatch(r"(.*)\(([^()]*)\)", body)
    if match:
        if "@" not in marks:
            raise ValueError(f"a home list in brackets is only allowed after @ (in {word!r})")
        body = match.group(1)
        instead = tuple(check_abbrev(c.strip()) for c in match.group(2).split(",") if c.strip())
    if "&" in marks:
        if body.upper() != "SC" or marks != {"&"}:
            raise ValueError(f"a claim is written &SC (one claim each), not {word!r}")
        return CenterWord("SC", frozenset(marks))
    if "/" in body:
        raise ValueError(f"centre {word!r} names a coast: centres are whole provinces")
    return CenterWord(check_abbrev(body), frozenset(marks), instead)


def parse_owns(word: str) -> str:
    """A centre of an OWNS/CENTERS line (the literal `SC!` and `SC?` are the caller's)."""
    if "/" in word:
        raise ValueError(f"centre {word!r} names a coast: centres are whole provinces")
    if word[-1:] in ("!", "?"):
        raise ValueError(f"{word!r}: a build on any vacant home is written SC! (or SC?), literally")
    return check_abbrev(word)


def power_display(name: str) -> str:
    """How results show a power: leading `_` dropped, capitalised, `+` upper-cases the next letter."""
    out = []
    upper_next = True
    for char in name.lstrip("_"):
        if char == "+":
            upper_next = True
            continue
        out.append(char.upper() if upper_next else char.lower())
        upper_next = False
    return "".join(out)


def own_word_display(word: str) -> str:
    """An ownership word as results show it: `+` is a space; all-caps words are capitalised."""
    text = word.replace("+", " ")
    return text.title() if text.isupper() else text


# The words DPjudge's reading of a phrase replaces (by an order symbol, or by nothing). A power's
# name is read that way, so its identity in status files is `GULF\LYON` for `Gulf+of+Lyon`.
_READ_AS = {word: symbol for symbol, words in (
    ("", (">", "THE", "MOVE", "MOVES", "MOVING", "ATTACK", "ATTACKS", "ATTACKING", "IS", "WILL", "IN", "AT",
          "ON", "TO", "AND")),
    ("A", ("ARMY",)), ("F", ("FLEET",)), ("W", ("WING",)),
    ("/NC", ("NC",)), ("/SC", ("SC",)), ("/EC", ("EC",)), ("/WC", ("WC",)),
    ("R", ("RETREAT", "RETREATS", "RETREATING")),
    ("S", ("SUPPORT", "SUPPORTS", "SUPPORTING")),
    ("C", ("CONVOY", "CONVOYS", "CONVOYING")),
    ("H", ("HOLD", "HOLDS", "HOLDING")),
    ("B", ("BUILD", "BUILDS", "BUILDING")),
    ("D", ("DISBAND", "DISBANDS", "DISBANDING", "REMOVE", "REMOVES", "REMOVING")),
    ("V", ("WAIVE", "WAIVES", "WAIVING", "WAIVED")),
    ("K", ("KEEP", "KEEPS", "KEEPING")),
    ("P", ("PROXY", "PROXIES", "PROXYING")),
    ("\\", ("OF", "FROM")), ("?", ("WITH", "VOID")), ("=", ("TSR",)), ("|", ("OR", "BOUNCE", "CUT")),
    ("~", ("DISLODGED", "VIA", "THROUGH", "OVER", "BY")), ("*", ("DESTROYED",)),
) for word in words}
_SPACED = re.compile(r"([|*?!~()\[\]=_^])")


def power_name(word: str) -> str:
    """A power's name as DPjudge keeps it (and writes it in status files): the word as written, upper
    case, `.` and `:` dropped, `-`, `+` and `,` breaking words, each word read as DPjudge reads an
    order word, and the words run together: `St+Petersburg` is `STPETERSBURG`, `B.C.` is `BC`."""
    text = word.upper().replace("/", " /").replace(" / ", "")
    text = text.replace(".", "").replace(":", "")
    text = re.sub(r"[-+,]", " ", text)
    return "".join(_READ_AS.get(w, w) for w in _SPACED.sub(r" \1 ", text).split())
