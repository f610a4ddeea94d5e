"""What every notice of a game is written with (`GameMail`), and the typed handlers that turn
one kind of event into its mailings (`Handler`, `handler_table`).

A handler is a plain function `(mail, event, occasion) -> mailings` for one event type, kept in its
family's module (`judge.mailout.notices`); `handler_table` joins them and refuses, at import, a
kind of event with no handler or with two. Pure: no clock, no files; the words are the templates'.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar, cast

import jinja2

from judge import events as ev
from judge.drawing.geometry import Geometry
from judge.game import visibility
from judge.game.rules import rules_in_force
from judge.mailout import tailor, views
from judge.mailout.audience import MASTER, PER_PLAYER, Mailing, audience, unique
from judge.mailout.render import Rendered, render
from judge.maps.model import Map
from judge.status.model import GameStatus
from judge.rule_names import Rules

T = TypeVar("T")
E = TypeVar("E")


def naming_game(subject: str, game: str) -> str:
    """`subject (game)` unless `game` or `(game)` is already a word of the subject (a word may end
    in `:` or `,`)."""
    words = [w.rstrip(":,") for w in subject.split()]
    if not game or game in words or f"({game})" in words:
        return subject
    return f"{subject} ({game})"


class GameMail:
    """One game's people, words and rules, from its status (after the events), map and rules in
    force: what every handler writes its mailings with."""

    def __init__(self, env: jinja2.Environment, status: GameStatus, m: Map, *, judge: str = "LOCAL",
                 keeper: str = "", rules: Rules | None = None,
                 addresses_per_player: int = PER_PLAYER, replied: Iterable[str] = (),
                 pictures: bool = False, read_geometry: Callable[[], Geometry | None] = lambda: None,
                 url: str = "", game_class: str = "") -> None:
        self.env, self.status, self.map, self.keeper = env, status, m, keeper
        # those a reply to the mail that made the events already told: no notice of it for them
        self.replied = frozenset(a.lower() for a in replied)
        self.pictures, self._read_geometry = pictures, read_geometry
        self.rules = rules_in_force(status, m) if rules is None else rules
        self.people = audience(status, addresses_per_player)
        self.game = views.GameView(judge, status.name or "", status.map_name, status.zone or "GMT",
                                   url, game_class or status.game_class)
        # each results and completion mail made once, for its mailings and for the archive:
        # (what, the event's id, its completion's id) -> (the events, kept so that their ids stay
        # theirs; what was made)
        self._made: dict[tuple[str, int, int], tuple[tuple[object, ...], object]] = {}

    @cached_property
    def geometry(self) -> Geometry | None:
        """The map's drawing data, which results draw their board with (schematically when None):
        read the first time a picture is drawn, so that a mail with none (orders) reads no drawing."""
        return self._read_geometry()

    def render(self, name: str, **context: Any) -> Rendered:
        """A template rendered for the game; its subject names the game as DPjudge's do (players'
        mail filters match it): ` (game)` is added unless the game's name is a word of it."""
        rendered = render(self.env, name, game=self.game, **context)
        return replace(rendered, subject=naming_game(rendered.subject, self.game.name))

    def mail(self, recipients: Iterable[str], name: str, **context: Any) -> list[Mailing]:
        to = unique(recipients)
        return [Mailing(to, self.render(name, **context))] if to else []

    def power(self, name: str) -> views.PowerView:
        return views.power_view(self.map, name)

    def when(self, moment: datetime | None) -> datetime | None:
        return views.local_time(moment, self.status.zone)

    def reader(self, name: str) -> tailor.Reader:
        """A BLIND game's reader: a block of the game or the Master, with the centres it has seen."""
        block = self.status.power(name) if name != MASTER else None
        return tailor.Reader(name, visibility.seers_of(self.status, self.map),
                             frozenset(block.sees) if block else frozenset())

    def once(self, what: str, event: object, completed: ev.GameCompleted | None,
             make: Callable[[], T]) -> T:
        """What `make()` gives for the event, made the first time only: a results mail is made once
        for its mailings and for the archive."""
        key = (what, id(event), id(completed))
        if key not in self._made:
            self._made[key] = ((event, completed), make())
        return cast(T, self._made[key][1])


@dataclass(frozen=True)
class Occasion:
    """The events a handler's event came with, and when (`now` tells whether a late notice falls
    in the deadline's own hour)."""

    events: Sequence[object]
    now: datetime | None = None

    @property
    def completed(self) -> ev.GameCompleted | None:
        """The game's completion among the events (it marks the winner in the results)."""
        return next((e for e in self.events if isinstance(e, ev.GameCompleted)), None)

    @property
    def results_carry(self) -> bool:
        """Whether results among the events tell of the game's end, so that no mail of its own
        does. They do of every ending processing reaches, as DPjudge's: a victory by VICTORY in
        the table, the last man standing and a draw or concession voted by their sentences; only
        an ending the votes reach between phases has a mail of its own."""
        return any(isinstance(e, ev.PhaseResults) for e in self.events)


class Notifier(Protocol):
    """A handler whatever its kind of event, as the table holds it."""

    @property
    def kind(self) -> type: ...

    @property
    def told_by_reply(self) -> bool: ...

    def mailings(self, mail: GameMail, event: object, occasion: Occasion) -> list[Mailing]: ...


@dataclass(frozen=True)
class Handler(Generic[E]):
    """The mailings of one kind of event. `told_by_reply`: a mail's own command makes it and the
    mail's reply reports it to the sender, who gets no notice of it besides."""

    kind: type[E]
    make: Callable[[GameMail, E, Occasion], list[Mailing]]
    told_by_reply: bool = False

    def mailings(self, mail: GameMail, event: object, occasion: Occasion) -> list[Mailing]:
        if not isinstance(event, self.kind):
            raise TypeError(f"a {type(event).__name__} event given to the {self.kind.__name__} handler")
        return self.make(mail, event, occasion)


def handler_table(handlers: Iterable[Notifier], kinds: Iterable[type]) -> Mapping[type, Notifier]:
    """Each kind of event -> its one handler; a kind with none or with two, or a handler of a kind
    not among `kinds`, is an error."""
    table: dict[type, Notifier] = {}
    wanted = list(kinds)
    for handler in handlers:
        if handler.kind in table:
            raise TypeError(f"two handlers of {handler.kind.__name__} events")
        if handler.kind not in wanted:
            raise TypeError(f"a handler of {handler.kind.__name__}, which is no kind of event")
        table[handler.kind] = handler
    missing = [k.__name__ for k in wanted if k not in table]
    if missing:
        raise TypeError(f"no handler of {', '.join(missing)} events")
    return table
