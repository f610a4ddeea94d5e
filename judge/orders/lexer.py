"""Order text to lexemes: the words a player writes, sorted into order words and map places.

Text is split the way DPjudge reads it: case does not matter, dots vanish, `->` is a dash, and `-`, `/`,
`(`, `)`, `*` and a lone `+` stand apart from the words around them. Places are found by the longest run
of consecutive words that is an alias of the map (`gulf of bothnia`, `mid-atlantic ocean`, `eas+med`),
then a coast written after a place (`spa/sc`, `Bulgaria(east)`, `Spain (north coast)`) is attached.
"""
from __future__ import annotations

import re
import weakref
from dataclasses import dataclass

from judge.errors import OrderError
from judge.maps.model import Map, per_map
from judge.orders.names import either, place_name
from judge.types import UnitType, province_of

# Order words, by the part they play. `-` is a move in movement and retreat phases and a removal in
# adjustment phases, so it keeps a kind of its own.
KEYWORDS: dict[str, str] = {word: kind for kind, words in {
    "UNIT": "A ARMY F FLEET",
    "MOVE": "M MOVE MOVES MOVING ATTACK ATTACKS ATTACKING TO",
    "DASH": "-",
    "RETREAT": "R RETREAT RETREATS RETREATING",
    "SUPPORT": "S SUPPORT SUPPORTS SUPPORTING",
    "CONVOY": "C CONVOY CONVOYS CONVOYING",
    "HOLD": "H HOLD HOLDS HOLDING",
    "DISBAND": "D DISBAND DISBANDS DISBANDING REMOVE REMOVES REMOVING *",
    "BUILD": "B BUILD BUILDS BUILDING +",
    "WAIVE": "WAIVE WAIVES WAIVED WAIVING",
    "KEEP": "KEEP KEEPS KEEPING",
    "VIA": "VIA BY THROUGH OVER",
}.items() for word in words.split()}

# Words that only make an order read like a sentence; a map place of the same name wins over them.
FILLERS = frozenset("THE IN AT ON IS WILL AND AN SEA OCEAN".split())

COAST_WORDS = {"N": "NC", "NC": "NC", "NORTH": "NC", "S": "SC", "SC": "SC", "SOUTH": "SC",
               "E": "EC", "EC": "EC", "EAST": "EC", "W": "WC", "WC": "WC", "WEST": "WC"}
COAST_NAMES = {"NC": "north", "SC": "south", "EC": "east", "WC": "west"}
COAST_STARTS = frozenset({"/", "("} | set(COAST_WORDS) | set(COAST_NAMES))  # what may begin a coast

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2192": "-"})
_JOINED_PLUS = re.compile(r"(?<=\S)\+(?=\S)")  # `eas+med`: one alias written with `+`
_APART = re.compile(r"(->|[-/()*+\[\]])")
_PLAIN = re.compile(r"[A-Z0-9' ]*")  # an alias key that splits on spaces alone
_DROPPED = str.maketrans({c: " " for c in ",;:!?\"`"} | {".": None})


def tokenize(text: str) -> list[str]:
    """The words of an order (or of an alias), upper case, separators standing alone."""
    text = _JOINED_PLUS.sub(" ", text.upper().translate(_DASHES))
    text = _APART.sub(r" \1 ", text.translate(_DROPPED))
    return ["-" if word == "->" else word for word in text.split()]


def spell(words: list[str]) -> str:
    """Words back to text for messages: `MID-ATLANTIC OCEAN`, `SPA(NC)`, `STP/SC`."""
    if len(words) == 1:  # (a word has no spaces to close up)
        return words[0]
    return re.sub(r" ?([-/)]) ?| ?(\() ?", lambda g: g.group(1) or g.group(2), " ".join(words))


@dataclass(frozen=True, slots=True)
class Word:
    """An order word: `kind` is a KEYWORDS kind; `unit` is set for ARMY/FLEET."""

    kind: str
    text: str
    unit: UnitType | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """A place as written, and every location abbreviation it may mean (more than one: ambiguous)."""

    text: str
    options: tuple[str, ...]


Lexeme = Word | Place


class PlaceIndex:
    """The map's aliases keyed by their words, for longest-match lookup. Made once a map: see
    `place_index`."""

    def __init__(self, m: Map):
        self._map = weakref.ref(m)  # weak, so that the index kept with the map (`per_map`) lets it go
        names: dict[tuple[str, ...], tuple[str, ...]] = {}
        own: dict[tuple[str, ...], tuple[str, ...]] = {}
        for alias, abbrevs in m.aliases.items():
            key = tuple(alias.split() if _PLAIN.fullmatch(alias) else tokenize(alias))
            if not key:
                continue
            if abbrevs == (alias,):  # an abbreviation always means its own place
                own[key] = abbrevs
            else:
                names[key] = names.get(key, ()) + tuple(a for a in abbrevs if a not in names.get(key, ()))
        names.update(own)
        self.names = names
        # Each alias as a Place, made once: a place written as the alias is written is this value.
        self.places = {key: Place(spell(list(key)), options) for key, options in names.items()}
        self.longest_from: dict[str, int] = {}  # first word -> the most words of an alias it starts
        self.longer: dict[str, list[tuple[str, ...]]] = {}  # first word -> the aliases of more words
        for key in names:
            self.longest_from[key[0]] = max(self.longest_from.get(key[0], 0), len(key))
            if len(key) > 1:
                self.longer.setdefault(key[0], []).append(key)
        # Whole words (see `is_whole`), worked out as lines bring them: the map's own words only.
        self.words_of_map = frozenset((*KEYWORDS, *m.locations, *(a for a in m.aliases if " " not in a)))
        self.lexeme_starts = frozenset(KEYWORDS) | {key[0] for key in names}  # where any lexeme begins
        self.whole_words: dict[str, Lexeme] = {}
        self.not_whole: set[str] = set()
        # Lines read before, as written, with their lexemes: the same few thousand lines come back
        # phase after phase. Bounded, since lines come from strangers.
        self.lines: dict[str, tuple[Lexeme, ...]] = {}

    @property
    def map(self) -> Map:
        m = self._map()
        if m is None:
            raise ReferenceError("the map of this place index is gone")
        return m

    def is_whole(self, word: str) -> bool:
        """Whether `word` (upper case, no spaces) is a whole word: an order word, location or one-word
        alias of the map (`S`, `PAR`, `SPA/NC`, `PARIS`) that reads as one lexeme alone, starts no
        coast, and begins no longer alias going on into another word; it then reads the same beside
        any other word, and a line made of whole words lexes word by word (`lex`). Its lexeme is
        kept in `whole_words`; worked out once a word."""
        if word in self.whole_words:
            return True
        if word not in self.words_of_map or word in self.not_whole:
            return False
        lexeme = _whole_word(self, word)
        if lexeme is None:
            self.not_whole.add(word)
            return False
        self.whole_words[word] = lexeme
        return True

    def match(self, words: list[str], start: int) -> tuple[Place | None, int]:
        """The place of the longest alias starting at `start`, and where it ends."""
        for end in range(min(len(words), start + self.longest_from.get(words[start], 0)), start, -1):
            place = self.places.get(tuple(words[start:end]))
            if place is not None:
                return place, end
        return None, start


# The lexer's one piece of module state: each map's PlaceIndex (1-2 ms to make), kept with its map.
place_index = per_map(PlaceIndex)


def lex(index: PlaceIndex, text: str, keep: bool = True) -> list[Lexeme]:
    """The lexemes of one order line; an unknown word raises OrderError("no such place ...").

    Most lines are written in whole words only (`A PAR - BUR`, `f nth c a lon - hol`): those are
    looked up word by word; any other line is read by `lex_words`, which gives the same lexemes. A
    line's lexemes depend on its text and the map only, so they are kept (`PlaceIndex.lines`),
    unless the caller keeps what it makes of them (`keep=False`)."""
    known = index.lines.get(text)
    if known is not None:
        return list(known)
    lexemes = _lex(index, text)
    if keep and len(index.lines) < LINES_KEPT:
        index.lines[text] = tuple(lexemes)
    return lexemes


LINES_KEPT = 20_000  # order lines a map keeps lexed (a few MB at most)


def _lex(index: PlaceIndex, text: str) -> list[Lexeme]:
    words = text.upper().split()
    try:
        lexemes = [index.whole_words[word] for word in words]
    except KeyError:
        if not all(map(index.is_whole, words)):
            return lex_words(index, tokenize(text))
        lexemes = [index.whole_words[word] for word in words]
    return _drop_article(lexemes)


def lex_words(index: PlaceIndex, words: list[str]) -> list[Lexeme]:
    """The lexemes of a line's words (`tokenize`): places by longest alias, coasts attached."""
    out: list[Lexeme] = []
    i = 0
    while i < len(words):
        word = words[i]
        place, end = index.match(words, i)
        if word in KEYWORDS and end <= i + 1:
            out.append(KEYWORD_WORDS[word])
            i += 1
        elif place is not None:
            if end < len(words) and words[end] in COAST_STARTS:
                place, end = _with_coast(index.map, words, end, place)
            out.append(place)
            i = end
        elif word in FILLERS or word in ("(", ")", "[", "]"):
            i += 1
        else:
            raise OrderError(f"no such place {word!r}")
    return _drop_article(out)


# Each order word as a Word, made once (a Word is a value).
KEYWORD_WORDS = {word: Word(kind, word, UnitType(word[0]) if kind == "UNIT" else None)
                 for word, kind in KEYWORDS.items()}


def _whole_word(index: PlaceIndex, text: str) -> Lexeme | None:
    """The lexeme of a word of the map if it is whole (see `PlaceIndex.is_whole`), else None."""
    words = [text] if _PLAIN.fullmatch(text) else tokenize(text)
    if not (len(words) == 1 or (len(words) == 3 and words[1] == "/")):
        return None  # (a word with brackets or other separators may join its neighbours)
    if (words[0] in COAST_STARTS and words != ["S"]) or words[0] == "COAST":
        return None  # (`S` starts a coast only before `COAST`, which is never whole)
    try:
        lexemes = lex_words(index, words)
    except OrderError:
        return None
    if len(lexemes) != 1:
        return None
    n = len(words)
    for key in index.longer.get(words[0], ()):
        if len(key) > n and list(key[:n]) == words and key[n] in index.lexeme_starts:
            return None
    return lexemes[0]


def _drop_article(lexemes: list[Lexeme]) -> list[Lexeme]:
    """`A fleet in ...`: a unit word straight before another is the article `a`."""
    kinds = [lexeme.kind if type(lexeme) is Word else None for lexeme in lexemes]  # (a place has none)
    units = kinds.count("UNIT")
    if units < 2 or (units == 2 and kinds[kinds.index("UNIT") + 1] != "UNIT"):  # (most orders)
        return lexemes
    return [lexeme for lexeme, kind, following in zip(lexemes, kinds, kinds[1:] + [None])
            if not kind == following == "UNIT"]


def is_word(lexeme: Lexeme, *kinds: str) -> bool:
    """Whether the lexeme is an order word of one of these kinds."""
    return isinstance(lexeme, Word) and lexeme.kind in kinds


def _with_coast(m: Map, words: list[str], at: int, place: Place) -> tuple[Place, int]:
    """Attach a coast written after a place: `/SC`, `(SC)`, `(south coast)`, `SC`, `south coast`."""
    found = _coast_at(words, at)
    if found is None:
        return place, at
    code, end, bare = found
    options = tuple(dict.fromkeys(f"{province_of(o)}/{code}" for o in place.options
                                  if f"{province_of(o)}/{code}" in m.locations))
    if options:
        return Place(spell([place.text] + words[at:end]), options), end
    if bare:  # `NC` alone may be the next place rather than a coast
        return place, at
    names = either(sorted({place_name(m, province_of(o)) for o in place.options}))
    raise OrderError(f"{names} has no {COAST_NAMES[code]} coast")


def _coast_at(words: list[str], at: int) -> tuple[str, int, bool] | None:
    """(coast code, index after it, written bare) for a coast starting at `at`, if there is one."""
    rest = words[at:at + 4]
    if len(rest) >= 2 and rest[0] == "/" and rest[1] in COAST_WORDS:
        return COAST_WORDS[rest[1]], at + 2, False
    if rest[:1] == ["("] and ")" in rest:
        inner = rest[1:rest.index(")")]
        if inner[-1:] == ["COAST"]:
            inner = inner[:-1]
        if len(inner) == 1 and inner[0] in COAST_WORDS:
            return COAST_WORDS[inner[0]], at + rest.index(")") + 1, False
        return None
    if len(rest) >= 2 and rest[0] in COAST_WORDS and rest[1] == "COAST":
        return COAST_WORDS[rest[0]], at + 2, False
    if rest[:1] and rest[0] in COAST_NAMES:
        return rest[0], at + 1, True
    return None
