"""`GameStatus` -> status text, in one canonical layout.

The game block first, then each power's block after a blank line, every directive in a fixed
sequence (DPjudge's own, where it had one). Whatever the parser understood is written back, so
`parse_status(write_status(s)) == s`, and a file written here is reproduced byte for byte.
"""
from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from judge.status.keywords import STANZA_ENDS
from judge.status.model import (
    AdjustOrder,
    BuildOrder,
    DisbandOrder,
    GameStatus,
    Layout,
    PlayerHistory,
    PowerStatus,
    RemoveOrder,
    RetreatOrder,
)

STANZA_FROM = 4  # lines of DESC, NAME or MORPH from which the block form is used


def write_status(status: GameStatus) -> str:
    """The status text, in the file's own layout (`status.layout`: the judge's or DPjudge's)."""
    dpjudge = status.layout is Layout.DPJUDGE
    bare = dpjudge and not status.forming  # DPjudge names a power alone once the game has started
    blocks = [_game_block(status)] + [_power_block(p, bare, dpjudge) for p in status.powers]
    return "\n\n".join("\n".join(lines) for lines in blocks) + "\n"


def _line(*parts: object) -> str:
    """Words and values joined by single spaces; None and empty parts left out."""
    words: list[str] = []
    for part in parts:  # (a loop, not generators: a status file is a few hundred of these)
        if part is not None:
            word = part.value if isinstance(part, Enum) else str(part)
            if word:
                words.append(word)
    return " ".join(words)


def _optional(keyword: str, value: object) -> list[str]:
    return [] if value is None else [_line(keyword, value)]


def _words(keyword: str, items: Iterable[object]) -> list[str]:
    items = list(items)
    return [_line(keyword, *items)] if items else []


def _stanza(keyword: str, lines: tuple[str, ...]) -> list[str]:
    """`KEY text` per line, or `KEY` / the lines / `END KEY` for longer texts."""
    ends = [["END", end] for end in STANZA_ENDS[keyword]]
    closes = any(line.upper().split() in ends for line in lines)
    if len(lines) < STANZA_FROM or closes:
        return [_line(keyword, line) for line in lines]
    return [keyword, *lines, f"END {keyword}"]


def _game_block(s: GameStatus) -> list[str]:
    return [
        *_optional("GAME", s.name),
        _line(s.phase_mode, s.phase),
        *_optional("JUDGE", s.judge),
        _line("TRIAL" if s.trial else "MAP", s.map_name),
        *_stanza("MORPH", s.morphs),
        *_optional("MASTER", s.master),
        *_words("ADDRESS", [",".join(s.address)] if s.address else []),
        *_optional("PASSWORD", s.password),
        *_optional("TESTER", s.tester),
        *_words("GROUPS", ["|".join(s.groups)] if s.groups else []),
        *_optional("START", s.start),
        *_optional("FINISH", s.finish),
        *([] if s.result is None else [_line("RESULT", s.result.last_phase, *s.result.victors)]),
        *_words("NEED", s.need),
        *_stanza("DESC", s.description),
        *_stanza("NAME", s.origin),
        *_optional("PRIVATE", s.private),
        *_words("ROTATE", [w for step in s.rotate for w in (step.when.value, step.phase_type)]),
        *[_line("RULE", rule) for rule in _rules(s, s.rules)],
        *[_line("RULE", "!" + rule) for rule in _rules(s, s.rules_off)],
        *[_line("ALLOW", kind) for kind in sorted(s.allow)],
        *_words("TEAMS", ("-".join(team.powers) for team in s.teams)),
        *([] if s.proposal is None else [_line("PROPOSAL", s.proposal.result, s.proposal.proposer)]),
        *_optional("DEADLINE", s.deadline),
        *_optional("ZONE", s.zone),
        *_optional("DELAY", s.delay),
        *_optional("TIMING", s.timing),
        *(_optional("JUDGE", s.judge) if s.layout is Layout.DPJUDGE else []),  # DPjudge's twice
        *_optional("SIGNON", s.signon),
        # DPjudge's Payola game writes these past the blank line, where it cannot read them back
        *[_line("TAX", tax) for tax in s.taxes],
        *_optional("CAP", s.cap),
    ]


def _rules(s: GameStatus, names: frozenset[str]) -> list[str]:
    """In DPjudge's layout, in the file's own sequence (new ones after, sorted); else sorted."""
    if s.layout is not Layout.DPJUDGE:
        return sorted(names)
    listed = {name: n for n, name in enumerate(s.rule_order)}
    return sorted(names, key=lambda name: (name not in listed, listed.get(name, 0), name))


def _player(history: PlayerHistory | None) -> list[str]:
    if history is None:
        return []
    words: list[object] = [history.current]
    for handover in history.handovers:
        words += [handover.phase, handover.previous]
    return [_line("PLAYER", *words)]


def adjustment_text(order: AdjustOrder, dpjudge: bool = False) -> str:
    """A retreat or adjustment order as the status file writes it (`BUILD A VIE`); `dpjudge`: in
    DPjudge's layout."""
    if isinstance(order, RetreatOrder):
        return _line("RETREAT", order.unit, "-", order.destination)
    if isinstance(order, DisbandOrder):
        return _line("RETREAT", order.unit, "DISBAND") if dpjudge else _line("DISBAND", order.unit)
    if isinstance(order, RemoveOrder):
        return _line("REMOVE", order.unit)
    assert isinstance(order, BuildOrder)
    return _line("BUILD", order.unit or "WAIVED", "HIDDEN" if order.hidden else None)


def _power_block(p: PowerStatus, bare: bool, dpjudge: bool) -> list[str]:
    return [
        _line(p.kind or ("" if bare else "POWER"), p.name),
        *_player(p.player),
        *_words("ADDRESS", [",".join(p.address)] if p.address else []),
        *_words("CONTROL", p.control),
        *_optional("PASSWORD", p.password),
        *_optional("", p.omniscient),
        *(["WAIT"] if p.wait else []),
        *(["CD"] if p.cd else []),
        *_optional("PICTURE", p.picture),
        *_optional("VOTE", p.vote),
        *[_line("MSG", message) for message in p.messages],
        *([] if p.home is None else [_line("INHABITS" if dpjudge else "HOME", *p.home)]),
        *_words("OWNS", p.owns),
        *_words("SEES", p.sees),
        *(["HIDES " + ", ".join(str(u) for u in p.hides)] if p.hides else []),
        *([] if p.funds is None else [_line("FUNDS", *p.funds)]),
        *[_line(d.unit, "-->", *d.retreats) for d in p.dislodged],
        *[str(unit) for unit in p.units],
        *[adjustment_text(order, dpjudge) for order in p.adjustments],
        *_words("ELECT", p.elect),
        *[_line("SENT", power) for power in p.sent],
        *_optional("ACCEPT", p.accept),
        *_optional("STATE", p.state),
        *p.offers,
        *([] if p.orders is None else ["ORDERS", *p.orders]),
        # DPjudge writes a Crystal Ball power's lists last, LATER first, and an empty list not at all
        *(["LATER", *p.later] if p.later else []),
        *(["SOONER", *p.sooner] if p.sooner else []),
    ]
