"""Every directive of the status syntax: which block it belongs to, how its words are read, and how
repeated lines combine. The parser looks a line's first word up here; the writer is its mirror.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from judge.status import values as v
from judge.status.model import (
    BuildOrder,
    DisbandOrder,
    Omniscience,
    PhaseMode,
    RemoveOrder,
    RetreatOrder,
)


class Combine(Enum):
    ONCE = "once"  # a second line is an error
    APPEND = "append"  # each line adds one value
    SAME = "same"  # a second line may only repeat the first (DPjudge writes JUDGE twice)
    EXTEND = "extend"  # each line adds its values


@dataclass(frozen=True)
class Directive:
    field: str  # the draft field the value goes to (model field, or one the parser splits)
    read: Callable[[list[str]], Any]  # the words after the keyword -> value; ValueError if bad
    combine: Combine = Combine.ONCE
    stanza: bool = False  # alone on its line, it opens a block closed by `END keyword`


def _phase(mode: PhaseMode) -> Callable[[list[str]], Any]:
    return lambda words: (mode, v.phase_line(words))


def _map(trial: bool) -> Callable[[list[str]], Any]:
    return lambda words: (v.one_word(words, "one word, the map's name").lower(), trial)


def _word(what: str) -> Callable[[list[str]], str]:
    return lambda words: v.one_word(words, what)


def _optional_word(words: list[str]) -> str:
    return v.count(words, 0, 1, "at most one word")[0] if words else ""


def _some_text(words: list[str]) -> str:
    return v.text(v.count(words, 1, None, "some text"))


def _upper_words(what: str) -> Callable[[list[str]], tuple[str, ...]]:
    return lambda words: tuple(v.power_name(w) for w in v.count(words, 1, None, what))


def _centers(specials: bool = False) -> Callable[[list[str]], tuple[str, ...]]:
    return lambda words: tuple(v.center(w, specials) for w in words)


def _bare(value: Any) -> Callable[[list[str]], Any]:
    """A directive alone on its line, meaning `value`."""
    def read(words: list[str]) -> Any:
        v.nothing(words)
        return value
    return read


def _order_list(words: list[str]) -> list[str]:
    """ORDERS: a fresh list, which the order lines after it fill."""
    v.nothing(words)
    return []


def _retreat(words: list[str]) -> RetreatOrder | DisbandOrder:
    if len(words) == 3 and words[2].upper() == "DISBAND":
        return DisbandOrder(v.unit(words[:2]))
    if len(words) != 4 or words[2] != "-":
        raise ValueError("takes a unit, a dash and a place: RETREAT A PAR - BUR")
    return RetreatOrder(v.unit(words[:2]), v.location(words[3]))


def _build(words: list[str]) -> BuildOrder:
    if [w.upper() for w in words] == ["WAIVED"]:
        return BuildOrder(None)
    hidden = len(words) == 3 and words[2].upper() == "HIDDEN"
    if len(words) != 2 + hidden:
        raise ValueError("takes a unit (BUILD A PAR, BUILD A PAR HIDDEN) or WAIVED")
    return BuildOrder(v.unit(words[:2]), hidden)


def _need(words: list[str]) -> tuple:
    return tuple(v.need(w) for w in v.count(words, 1, None, "abandoned powers such as GERMANY-(8/9)"))


GAME = {
    "GAME": Directive("name", _word("one word, the game's name")),
    "PHASE": Directive("phase_line", _phase(PhaseMode.PHASE)),
    "AWAIT": Directive("phase_line", _phase(PhaseMode.AWAIT)),
    "SKIP": Directive("phase_line", _phase(PhaseMode.SKIP)),
    "WAIT": Directive("phase_line", _phase(PhaseMode.WAIT)),
    "DEADLINE": Directive("deadline", v.deadline),
    "ZONE": Directive("zone", _word("one word, a time zone such as Europe/Paris")),
    "TIMING": Directive("timing", _some_text, Combine.APPEND),
    "DELAY": Directive("delay", v.delay),
    "PRIVATE": Directive("private", lambda words: _optional_word(words).upper() or None),
    "RULE": Directive("rules", v.rules, Combine.EXTEND),
    "MAP": Directive("map", _map(False)),
    "TRIAL": Directive("map", _map(True)),
    "MORPH": Directive("morphs", _some_text, Combine.APPEND, stanza=True),
    "TEAM": Directive("teams", v.teams, Combine.EXTEND),
    "MASTER": Directive("master", lambda words: v.dppd(v.one_word(words, "the Master's DPPD data"))),
    "ADDRESS": Directive("address", v.addresses),
    "JUDGE": Directive("judge", _some_text, Combine.SAME),
    "GROUPS": Directive("groups", v.groups),
    "SIGNON": Directive("signon", _some_text),
    "PASSWORD": Directive("password", v.password),
    "TESTER": Directive("tester", _optional_word),
    "START": Directive("start", _some_text),
    "FINISH": Directive("finish", _some_text),
    "RESULT": Directive("result", v.result),
    "DESC": Directive("description", _some_text, Combine.APPEND, stanza=True),
    "NAME": Directive("origin", _some_text, Combine.APPEND, stanza=True),
    "ALLOW": Directive("allow", _upper_words("one or more player types"), Combine.EXTEND),
    "PROPOSAL": Directive("proposal", v.proposal),
    "NEED": Directive("need", _need, Combine.EXTEND),
    "ROTATE": Directive("rotate", v.rotate),
    "TAX": Directive("taxes", v.tax, Combine.APPEND),
    "CAP": Directive("cap", v.cap),
}
GAME_ALIASES = {"RULES": "RULE", "TEAMS": "TEAM", "DESCRIPTION": "DESC"}

POWER = {
    "ADDRESS": Directive("address", v.addresses),
    "PLAYER": Directive("player", v.player),
    "PASSWORD": Directive("password", v.password),
    "CONTROL": Directive("control", _upper_words("the controlling powers, in rotation order")),
    "VOTE": Directive("vote", v.vote),
    "OWNS": Directive("owns", _centers(specials=True), Combine.EXTEND),
    "WAIT": Directive("wait", _bare(True)),
    "CD": Directive("cd", _bare(True)),
    "RETREAT": Directive("adjustments", _retreat, Combine.APPEND),
    "DISBAND": Directive("adjustments", lambda words: DisbandOrder(v.unit(words)), Combine.APPEND),
    "BUILD": Directive("adjustments", _build, Combine.APPEND),
    "REMOVE": Directive("adjustments", lambda words: RemoveOrder(v.unit(words)), Combine.APPEND),
    "MSG": Directive("messages", v.text, Combine.APPEND),
    "OMNISCIENT": Directive("omniscient", _bare(Omniscience.VIEW)),
    "OMNISCIENT!": Directive("omniscient", _bare(Omniscience.PRESS)),
    "OMNIPOTENT": Directive("omniscient", _bare(Omniscience.MASTER)),
    "OMNIPOTENT!": Directive("omniscient", _bare(Omniscience.KEEPER)),
    "HIDES": Directive("hides", v.hides, Combine.EXTEND),
    "HOME": Directive("home", _centers()),
    "FUNDS": Directive("funds", v.funds),
    "SEES": Directive("sees", _centers(), Combine.EXTEND),
    "ORDERS": Directive("orders", _order_list),
    "SOONER": Directive("sooner", _order_list),
    "LATER": Directive("later", _order_list),
    "PICTURE": Directive("picture", v.picture_format),
    "ACCEPT": Directive("accept", v.acceptance),
    "SENT": Directive("sent", lambda words: v.power_name(v.one_word(words, "one power's name")),
                      Combine.APPEND),
    "ELECT": Directive("elect", v.election),
    "STATE": Directive("state", lambda words: v.one_word(words, "one word").upper()),
}
POWER_ALIASES = {"HOMES": "HOME", "INHABITS": "HOME"}

# A line of these opens a list of orders, which runs to the next such line or the end of the block:
# ORDERS the phase's movement orders; SOONER and LATER Crystal Ball's order lists, for the next
# movement phase and the one after.
ORDER_LISTS = ("ORDERS", "SOONER", "LATER")
UNIT_WORDS = ("A", "F")  # a power block line starting with one of these is a unit
# DPjudge's Payola game writes these after its game block, past the blank line that ends it
PAYOLA_GAME_TAIL = ("TAX", "CAP")


def is_offer_line(words: list[str], pay_dummies: bool) -> bool:
    """Whether a power block's line is on a Payola offer sheet: a bribe (`5 : A PAR - BUR`, `2 $`)
    or a `%` comment; under PAY_DUMMIES also an order to one's own unit, written without its
    `0 :` (`A PAR - BUR`)."""
    first = words[0]
    if first[0].isdigit() or first[0] == "%":
        return True
    return pay_dummies and first.upper() in UNIT_WORDS and len(words) > 2 and words[2] != "-->"
STANZA_ENDS = {"DESC": ("DESC", "DESCRIPTION"), "NAME": ("NAME",), "MORPH": ("MORPH",)}


def game_directive(keyword: str) -> Directive | None:
    return GAME.get(GAME_ALIASES.get(keyword, keyword))


def power_directive(keyword: str) -> Directive | None:
    return POWER.get(POWER_ALIASES.get(keyword, keyword))


def is_keyword(word: str) -> bool:
    """Whether `word` (upper case) starts a directive of either block, or a unit line."""
    return bool(game_directive(word) or power_directive(word)) or word in UNIT_WORDS
