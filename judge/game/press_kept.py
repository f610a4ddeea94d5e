"""The press a game keeps for its pages: each message as its routing decided it once
(`judge.game.press_routing`), and what each reader saw of it, no more than its mail showed.

A kept message (`Kept`) holds the true sender and recipients beside what the readers were told.
`seen_by` gives one reader's view: the sender, and those who read the truth (`knowing`: the Master
when a recipient, listening, or reading broadcasts; OMNISCIENT! powers), see both; the other
readers see only what they were told (GREY or YELLOW anonymity, FAKE FROM, FAKE TO); anyone else
sees nothing of a private message. The public (`PUBLIC`) reads true broadcasts as an observer's
mail shows them. OFFICIAL press shows its subject and body, no sender or recipients, as its mail.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import islice
from dataclasses import dataclass
from typing import Any

from judge.game.press_routing import PressRouting

PUBLIC = None  # the reader of the game's public page


@dataclass(frozen=True)
class Kept:
    """One press message as kept: `number` counts the game's messages from 1 (never reused, so a
    message is kept once however often its writing is retried); `when` is its ISO time (UTC)."""

    number: int
    phase: str
    when: str
    sender: str
    routing: PressRouting
    body: tuple[str, ...]
    official: str | None = None


@dataclass(frozen=True)
class Seen:
    """A message as one reader saw it. `shown_from` None: anonymous; `shown_to` None: everyone.
    `true_from`, `true_to`: the truth, for the sender and those who read it (else None);
    `sent`: the reader sent it."""

    number: int
    phase: str
    when: str
    body: tuple[str, ...]
    official: str | None
    shown_from: str | None
    shown_to: tuple[str, ...] | None
    sent: bool = False
    truth: bool = False
    true_from: str | None = None
    true_to: tuple[str, ...] | None = None


def seen_by(kept: Kept, reader: str | None) -> Seen | None:
    """What `reader` (a block's name, MASTER, or PUBLIC) saw of `kept`; None: nothing."""
    routing = kept.routing
    truth = reader is not PUBLIC and (reader == kept.sender or reader in routing.knowing)
    if not truth:
        public = reader is PUBLIC and routing.to is None
        if not public and reader not in routing.readers:
            return None
    official = kept.official is not None
    return Seen(kept.number, kept.phase, kept.when, kept.body, kept.official,
                None if official else routing.shown_from,
                None if official else routing.shown_to,
                sent=reader == kept.sender, truth=truth,
                true_from=kept.sender if truth else None,
                true_to=routing.to if truth else None)


def page_of(newest_first: Iterable[Kept], reader: str | None, page: int, size: int
            ) -> tuple[list[Seen], bool]:
    """Page `page` (from 0) of what `reader` saw of the messages (given newest first), and
    whether an older page follows; the messages are read no further than that."""
    seen = (s for s in (seen_by(k, reader) for k in newest_first) if s is not None)
    start = max(page, 0) * size
    found = list(islice(seen, start, start + size + 1))
    return found[:size], len(found) > size


def to_record(kept: Kept) -> dict[str, Any]:
    r = kept.routing
    return {"number": kept.number, "phase": kept.phase, "when": kept.when, "sender": kept.sender,
            "to": _listed(r.to), "shown_from": r.shown_from, "shown_to": _listed(r.shown_to),
            "readers": list(r.readers), "knowing": list(r.knowing), "body": list(kept.body),
            "official": kept.official}


def from_record(record: Mapping[str, Any]) -> Kept:
    """A kept message from its record; KeyError, TypeError or ValueError when it is not one."""
    routing = PressRouting(_names(record["to"]), _name(record["shown_from"]),
                           _names(record["shown_to"]), _names(record["readers"]) or (),
                           _names(record["knowing"]) or ())
    body = record["body"]
    if not isinstance(body, list) or not all(isinstance(line, str) for line in body):
        raise ValueError("a kept message's body is a list of lines")
    number = record["number"]
    if not isinstance(number, int):
        raise ValueError("a kept message's number is a whole number")
    return Kept(number, str(record["phase"]), str(record["when"]), str(record["sender"]), routing,
                tuple(body), _name(record.get("official")))


def _listed(names: tuple[str, ...] | None) -> list[str] | None:
    return None if names is None else list(names)


def _names(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("a list of names expected")
    return tuple(value)


def _name(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError("a name expected")
    return value
