"""Who gets which mail: the events of a game (judge.events) turned into rendered mails and addresses.

`Mailer(env, status, map, judge=..., rules=...)` reads the game's people from its status file (the
status after the events) and `for_events(events, now)` returns `Mailing(recipients, rendered)`
values in a stable order (the sender keys each mail by its place in the list). Pure: no clock, no
files; the words are the templates'.

Who is who (`Audience`): each map power's player (its ADDRESS line, else the e-mail of its PLAYER
line; a RESIGNED or DUMMY power has none, and a power under CONTROL is mailed through its
controller), the Master, observers (OBSERVER and the other ALLOWed types), monitors (results,
deadlines and the end of the game only) and the `OMNISCIENT!` readers, who get every press message
with its true sender and recipients. A `TESTER address` game mails that address only, and a bare
`TESTER` nobody; judgekeeper alerts are not game mail and always reach the judgekeeper. A block's
mail goes to the first few addresses of its ADDRESS line only (`addresses_per_player`). For the
events of a mail, `replied` names those its reply reached: they get no notice of what the reply
told them (`TOLD_BY_REPLY`), and the sender's order confirmation goes only with a reply (or, for a
mail of orders only, in its place: `Reply.said_by_confirmation`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, NamedTuple

import jinja2

from judge import events as ev
from judge.commands import notices
from judge.drawing.geometry import Geometry
from judge.drawing.pictures import Picture, picture, results_board
from judge.game import archive, clock, visibility
from judge.game.games_index import VARIANT as STANDARD_CLASS
from judge.game.rules import rules_in_force
from judge.limits import Limits
from judge.mailout import tailor, views
from judge.mailout.render import Rendered, render
from judge.maps import map_for_phase
from judge.maps.model import Map
from judge.status.model import Dppd, GameStatus, Omniscience, PowerStatus
from judge.timing import parse_timing
from judge.timing.zones import game_zone, to_wall
from judge.types import ADJUSTMENTS, Phase, Unit

MASTER = "MASTER"
PER_PLAYER = Limits().addresses_per_player


@dataclass(frozen=True)
class PictureMail:
    """The board's picture a mailing carries after its text: `kinds` is the format each recipient
    chose (address in lower case -> png, pdf, svg or none); the others get the judge's default."""

    picture: Picture
    kinds: Mapping[str, str] = field(default_factory=dict)


class Mailing(NamedTuple):
    recipients: tuple[str, ...]
    rendered: Rendered
    picture: PictureMail | None = None


def agreed_in_results(completed: ev.GameCompleted | None) -> bool:
    """A draw or concession the votes decided: DPjudge writes it at the end of the results of the
    phase that ended the game, and sends no mail of its own."""
    return completed is not None and completed.kind in ("draw", "concession")


def results_carry(events: Sequence[ev.Event]) -> bool:
    """Whether the results among `events` tell of the game's end, so that no mail of its own does.
    They do of every ending processing reaches, as DPjudge's: a victory by VICTORY in the table, the
    last man standing and a draw or concession voted by their sentences; only an ending the votes
    reach between phases has a mail of its own."""
    return any(isinstance(e, ev.PhaseResults) for e in events)


# --- the people of a game ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Audience:
    master: tuple[str, ...] = ()
    players: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # power -> addresses
    observers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    monitors: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    omniscient: tuple[str, ...] = ()  # OMNISCIENT! readers
    tester: str | None = None

    def of(self, names: Iterable[str]) -> tuple[str, ...]:
        """The addresses of powers, observers, monitors and MASTER, by name."""
        found: list[str] = []
        for name in names:
            if name == MASTER:
                found += self.master
            else:
                found += (self.players.get(name) or self.observers.get(name)
                          or self.monitors.get(name) or ())
        return _unique(found)

    def everyone(self, monitors: bool = False, master: bool = True) -> tuple[str, ...]:
        groups = [*self.players.values(), *self.observers.values()]
        if monitors:
            groups += self.monitors.values()
        return _unique([a for g in groups for a in g] + (list(self.master) if master else []))


def audience(status: GameStatus, limit: int = PER_PLAYER) -> Audience:
    """The game's people; each block's mail goes to its first `limit` addresses (see
    `judge.commands.auth.addresses_of`)."""
    own = {b.name: _unique(_addresses(b))[:limit] for b in status.powers}
    players: dict[str, tuple[str, ...]] = {}
    observers: dict[str, tuple[str, ...]] = {}
    monitors: dict[str, tuple[str, ...]] = {}
    omniscient: list[str] = []
    master = status.master_mail
    for block in status.powers:
        addresses = own[block.name]
        if block.is_power:
            if not addresses and block.control:
                controller = block.control[0]
                addresses = master if controller == MASTER else own.get(controller, ())
            players[block.name] = addresses
        elif block.kind == "MONITOR":
            monitors[block.name] = addresses
        else:
            observers[block.name] = addresses
        if block.omniscient is Omniscience.PRESS:
            omniscient += addresses
    return Audience(master, players, observers, monitors, _unique(omniscient), status.tester)


def _addresses(block: PowerStatus) -> tuple[str, ...]:
    if block.player is not None and not isinstance(block.player.current, Dppd):
        return ()
    if block.address:
        return block.address
    if block.player is not None and isinstance(block.player.current, Dppd) and block.player.current.email:
        return (block.player.current.email,)
    return ()


def former_player(status: GameStatus, power: str) -> tuple[str, ...]:
    """Who played a power until its last change of hands (a dismissed or replaced player)."""
    block = status.power(power)
    if block is None or block.player is None or not block.player.handovers:
        return ()
    previous = block.player.handovers[0].previous
    return (previous.email,) if isinstance(previous, Dppd) and previous.email else ()


def _unique(addresses: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for address in addresses:
        if address and address.lower() not in {a.lower() for a in seen}:
            seen[address] = None
    return tuple(seen)


def merged(mailings: Sequence[Mailing]) -> list[Mailing]:
    """Mailings in a row with the same words become one, to all their recipients."""
    result: list[Mailing] = []
    for mailing in mailings:
        if result and result[-1].rendered == mailing.rendered and result[-1].picture == mailing.picture:
            result[-1] = result[-1]._replace(recipients=_unique(result[-1].recipients + mailing.recipients))
        else:
            result.append(mailing)
    return result


def bounded(mailings: Sequence[Mailing], limit: int) -> tuple[list[Mailing], int]:
    """The mailings with no more than `limit` addresses among them all, the first come kept (a
    mailing may be left with none); how many addresses were left out."""
    reached: set[str] = set()
    left_out: set[str] = set()
    kept = []
    for mailing in mailings:
        to = []
        for address in mailing.recipients:
            if address.lower() not in reached and len(reached) < limit:
                reached.add(address.lower())
            if address.lower() in reached:
                to.append(address)
            else:
                left_out.add(address.lower())
        kept.append(mailing._replace(recipients=tuple(to)))
    return kept, len(left_out)


def for_tester(mailings: Sequence[Mailing], tester: str | None) -> list[Mailing]:
    """A TESTER game's mail: all of it to the tester's address, or (bare TESTER) none."""
    if tester is None:
        return list(mailings)
    if not tester:
        return []
    return [m._replace(recipients=(tester,)) for m in mailings if m.recipients]


def naming_game(subject: str, game: str) -> str:
    """`subject (game)` unless `game` or `(game)` is already a word of the subject (a word may end
    in `:` or `,`)."""
    words = [w.rstrip(":,") for w in subject.split()]
    if not game or game in words or f"({game})" in words:
        return subject
    return f"{subject} ({game})"


def _game_class(status: GameStatus) -> str:
    """The game's variant as the mails' heading names it beside the map: only one not standard."""
    return "" if status.variant == STANDARD_CLASS else status.variant


# --- the mailer --------------------------------------------------------------------------------------

class Mailer:
    """The mailings of one game, from its status (after the events), map and rules in force."""

    def __init__(self, env: jinja2.Environment, status: GameStatus, m: Map, *, judge: str = "LOCAL",
                 keeper: str = "", rules: frozenset[str] | None = None,
                 addresses_per_player: int = PER_PLAYER, replied: Iterable[str] = (),
                 pictures: bool = False, geometry: Geometry | None = None, url: str = "",
                 game_class: str = "") -> None:
        self.env, self.status, self.map, self.keeper = env, status, m, keeper
        # those a reply to the mail that made the events already told: no notice of it for them
        self.replied = frozenset(a.lower() for a in replied)
        # results carry the board's picture (drawn with `geometry`, or schematically when None)
        self.pictures, self.geometry = pictures, geometry
        self.rules = rules_in_force(status, m) if rules is None else rules
        self.people = audience(status, addresses_per_player)
        self.game = views.GameView(judge, status.name or "", status.map_name, status.zone or "GMT",
                                   url, game_class or _game_class(status))
        # each results and completion mail made once, for its mailings and for the archive
        # (`archived`): (what, the event's id, its completion's id) -> (the events, kept so that
        # their ids stay theirs; what was made)
        self._made: dict[tuple[str, int, int], tuple[tuple[Any, ...], Any]] = {}

    # --- plumbing ---

    def render(self, name: str, **context: Any) -> Rendered:
        """A template rendered for the game; its subject names the game as DPjudge's do (players'
        mail filters match it): ` (game)` is added unless the game's name is a word of it."""
        rendered = render(self.env, name, game=self.game, **context)
        return replace(rendered, subject=naming_game(rendered.subject, self.game.name))

    def mail(self, recipients: Iterable[str], name: str, **context: Any) -> list[Mailing]:
        to = _unique(recipients)
        return [Mailing(to, self.render(name, **context))] if to else []

    def power(self, name: str) -> views.PowerView:
        return views.power_view(self.map, name)

    def when(self, moment: datetime | None) -> datetime | None:
        return views.local_time(moment, self.status.zone)

    def for_events(self, events: Sequence[ev.Event], now: datetime | None = None) -> list[Mailing]:
        """Every mail the events call for, in event order, TESTER applied. A game's completion
        travelling with its last results marks the winner in the adjustment table; `now` tells
        whether a late notice falls in the deadline's own hour."""
        completed = next((e for e in events if isinstance(e, ev.GameCompleted)), None)
        mailings: list[Mailing] = []
        for event in events:
            if isinstance(event, ev.PhaseResults):
                mailings += self.results(event, completed)
            elif isinstance(event, ev.LateNotice):
                mailings += self.late_notice(event, now)
            elif isinstance(event, ev.GameCompleted) and results_carry(events):
                continue
            else:
                name = HANDLERS.get(type(event))
                if name is None:
                    raise ValueError(f"no mailing for a {type(event).__name__} event")
                mailings += self.unreplied(event, getattr(self, name)(event))
        return for_tester(merged(mailings), self.people.tester) + self.keeper_notices(events)

    def unreplied(self, event: ev.Event, mailings: list[Mailing]) -> list[Mailing]:
        """The notice of what a mail did goes to those its reply did not tell: one mail a person."""
        if type(event) not in TOLD_BY_REPLY or not self.replied:
            return mailings
        kept = [Mailing(tuple(a for a in m.recipients if a.lower() not in self.replied), m.rendered)
                for m in mailings]
        return [m for m in kept if m.recipients]

    # --- results ---

    def results_context(self, event: ev.PhaseResults, completed: ev.GameCompleted | None = None,
                        reader: tailor.Reader | None = None) -> dict[str, Any]:
        """What results.txt and preview.txt read, from a PhaseResults event; in a BLIND game, as
        `reader` sees it (None: the Master's whole view)."""
        m, res = self.map, event.resolution
        if res is None:
            report = views.PhaseReport(views.phase_view(event.phase), ())
        else:
            report = views.phase_results(m, res, rules=self.rules, unit_order=event.units_before)
        ownership = adjustments = None
        adjusting = [p for p in (*event.skipped, event.next_phase) if p and p.type == ADJUSTMENTS]
        solo = completed is not None and completed.kind == "solo"
        if res is not None and res.phase.type != ADJUSTMENTS and (event.captured or adjusting or solo):
            centers = views.with_captures(res.centers, event.captured)
            ownership = views.ownership(m, centers)
            victors = completed.victors if completed is not None and solo else ()
            standing = {p: tuple(u for u in us if u not in event.torn.get(p, ()))
                        for p, us in res.units.items()} if event.torn else res.units
            adjustments = views.adjustments(m, standing, centers, self.rules,
                                            phase=adjusting[0] if adjusting else None,
                                            homes=res.homes, victors=victors)
        elif res is not None and visibility.shows_ownership(
                self.rules, False, event.next_phase.type if event.next_phase else None):
            ownership = views.ownership(m, res.centers)
        last_man = None
        if completed is not None and completed.unit is not None:
            last_man = views.unit_view(m, completed.unit, completed.victors[0])
        torn = tuple(views.unit_view(m, u, p) for p in sorted(event.torn) for u in event.torn[p])
        vassals = tuple((views.power_view(m, p), views.power_view(m, c) if c else None)
                        for p, c in event.allegiance)
        agreed = None
        if completed is not None and agreed_in_results(completed):
            agreed = self.completion_context(completed)
        context = {"results": report, "ownership": ownership, "adjustments": adjustments,
                   "last_man": last_man, "agreed": agreed, "torn": torn, "vassals": vassals if ownership else (),
                   "revealed": views.unit_holdings(m, event.revealed),
                   "lost": views.unit_holdings(m, event.lost),
                   "next_phase": views.phase_view(event.next_phase) if event.next_phase else None,
                   "deadline": self.when(event.deadline),
                   "processed_deadline": self.when(event.processed_deadline)}
        if visibility.BLIND in self.rules:
            context = self._tailored(context, event, reader or self.reader(MASTER))
        return context

    def reader(self, name: str) -> tailor.Reader:
        """A BLIND game's reader: a block of the game or the Master, with the centres it has seen."""
        block = self.status.power(name) if name != MASTER else None
        return tailor.Reader(name, visibility.seers_of(self.status, self.map),
                             frozenset(block.sees) if block else frozenset())

    def _tailored(self, context: dict[str, Any], event: ev.PhaseResults,
                  reader: tailor.Reader) -> dict[str, Any]:
        report = tailor.blind_notes(context["results"])
        if event.sightings:
            report = tailor.report_for(self.map, report, event.sightings, reader)
        else:
            report = tailor.orders_only_own(report, reader)
        tailored = dict(context, results=report, revealed=(),  # the sightings tell them
                        lost=tailor.holdings_for(context["lost"], reader),
                        blinded=tailor.blinded_for(self.map, event.blinded, reader))
        if context["ownership"] is not None and "SEE_ALL_SCS" not in self.rules:
            tailored["ownership"] = tailor.ownership_for(context["ownership"], reader)
        if context["adjustments"] is not None:
            tailored["adjustments"] = tailor.adjustments_for(context["adjustments"], reader)
        return tailored

    def results(self, event: ev.PhaseResults, completed: ev.GameCompleted | None = None) -> list[Mailing]:
        if visibility.BLIND not in self.rules:
            to = _unique(self.people.everyone(monitors=True))
            if not to:
                return []
            return [Mailing(to, self.results_text(event, completed), self.results_picture(event))]
        contexts = self.contexts_by_reader(event, completed)
        versions = self.results_by_reader(event, completed)
        mailings = [Mailing(addresses, versions[name], self.results_picture(event, contexts[name], name))
                    for group in (self.people.players, self.people.observers, self.people.monitors)
                    for name, addresses in group.items() if addresses]
        if self.people.master:
            mailings.append(Mailing(self.people.master, versions[MASTER],
                                    self.results_picture(event, contexts[MASTER], MASTER)))
        return mailings

    def _once(self, what: str, event: ev.Event, completed: ev.GameCompleted | None,
              make: Callable[[], Any]) -> Any:
        """What `make()` gives for the event, made the first time only (see `_made`)."""
        key = (what, id(event), id(completed))
        if key not in self._made:
            self._made[key] = ((event, completed), make())
        return self._made[key][1]

    def results_text(self, event: ev.PhaseResults, completed: ev.GameCompleted | None = None
                     ) -> Rendered:
        """The results everyone reads (not in a BLIND game), as mailed and as archived."""
        return self._once("results", event, completed,
                          lambda: self.render("results", **self.results_context(event, completed)))

    def contexts_by_reader(self, event: ev.PhaseResults, completed: ev.GameCompleted | None = None
                           ) -> dict[str, dict[str, Any]]:
        """A BLIND game's results context for each block of the game and for the Master
        (`blind_mail`: the template lays each out as DPjudge's mail to one reader)."""
        names = [b.name for b in self.status.powers if b.name]
        return self._once("contexts", event, completed, lambda: {
            name: dict(self.results_context(event, completed,
                                            self.reader(name) if name != MASTER else None),
                       blind_mail=True)
            for name in [*names, MASTER]})

    def results_by_reader(self, event: ev.PhaseResults, completed: ev.GameCompleted | None = None
                          ) -> dict[str, Rendered]:
        """A BLIND game's results as each block of the game and the Master read them, as mailed
        and as archived (`archive.reader_parts`)."""
        def made() -> dict[str, Rendered]:
            return {name: self.render("results", **context)
                    for name, context in self.contexts_by_reader(event, completed).items()}
        return self._once("by reader", event, completed, made)

    def results_picture(self, event: ev.PhaseResults, context: Mapping[str, Any] | None = None,
                        reader: str = MASTER) -> PictureMail | None:
        """The processed phase drawn with its orders, for the results mails; in a BLIND game as
        `reader` sees it, with the centres its results `context` tells it the owners of."""
        board = results_board(event) if self.pictures else None
        if board is None:
            return None
        if event.captured:  # the year's end: the centres as the results' ownership gives them
            board = replace(board, centers=views.with_captures(board.centers, event.captured))
        if visibility.BLIND in self.rules:
            board = tailor.board_for(board, event.sightings, self.reader(reader),
                                     context["ownership"] if context else None)
        drawn = picture(self.env, map_for_phase(self.map, event.phase), self.geometry, board)
        kinds = {a.lower(): b.picture.lower() for b in self.status.powers if b.picture
                 for a in _addresses(b)}
        return PictureMail(drawn, kinds)

    def archived(self, events: Sequence[ev.Event]) -> list[tuple[str, str | list[archive.Part]]]:
        """The results and completion mails among the events' mails (subject, body), as everyone
        reads them, or in a BLIND game as each reader does, in parts: what the game's results
        archive keeps (`judge.game.archive`): the words mailed for the same events, not made
        again, `:: URL:` line included as DPjudge's archive has it."""
        completed = next((e for e in events if isinstance(e, ev.GameCompleted)), None)
        kept: list[tuple[str, str | list[archive.Part]]] = []
        for event in events:
            if isinstance(event, ev.PhaseResults) and visibility.BLIND in self.rules:
                versions = self.results_by_reader(event, completed)
                kept.append((versions[MASTER].subject,
                             archive.reader_parts({n: r.body for n, r in versions.items()})))
            elif isinstance(event, ev.PhaseResults):
                mail = self.results_text(event, completed)
                kept.append((mail.subject, mail.body))
            elif isinstance(event, ev.GameCompleted) and not results_carry(events):
                mail = self.completion_text(event)
                kept.append((mail.subject, mail.body))
        return kept

    def preview(self, event: Any) -> list[Mailing]:
        """The results processing would give, to the Master, with their picture as results carry it."""
        mailings = self.mail(self.people.master, "preview",
                             **self.results_context(event.results, event.completed))
        attached = self.results_picture(event.results)
        return [m._replace(picture=attached) for m in mailings] if attached else mailings

    # --- the game's start and end ---

    def started(self, event: Any) -> list[Mailing]:
        mailings = []
        deadline = self.when(event.deadline)
        for seat in event.assignments:
            if seat.player is None:  # a dummy: nobody to tell
                continue
            to = self.people.of([seat.power]) or (seat.player.email,)
            mailings += self.mail(to, "power_assignment", power=self.power(seat.power),
                                  seat=seat.seat, deadline=deadline)
        units = views.unit_holdings(self.map, event.units)
        ownership = views.ownership(self.map, event.centers)
        start = {"phase": views.phase_view(event.phase), "deadline": deadline}
        if visibility.BLIND not in self.rules:
            return mailings + self.mail(self.people.everyone(monitors=True), "game_start",
                                        units=units, ownership=ownership, **start)
        people = self.people
        for group in (people.players, people.observers, people.monitors):
            for name, addresses in group.items():
                reader = self.reader(name)
                seen = views.unit_holdings(self.map, self._units_seen(event.units, reader))
                mailings += self.mail(addresses, "game_start", **start, units=seen,
                                      ownership=tailor.ownership_for(ownership, reader))
        return mailings + self.mail(people.master, "game_start", units=units, ownership=ownership, **start)

    def _units_seen(self, units: Mapping[str, Sequence[Unit]], reader: tailor.Reader
                    ) -> dict[str, tuple[Unit, ...]]:
        """BLIND: the units a reader sees on the board (all of its own)."""
        if reader.all_seeing:
            return {p: tuple(us) for p, us in units.items()}
        seen = visibility.units_seen(self.map, self.rules, reader.seers, reader.name)
        return {p: tuple(us) if reader.owns(p) else seen.get(p, ()) for p, us in units.items()}

    def completed(self, event: Any) -> list[Mailing]:
        to = _unique(self.people.everyone(monitors=True))
        return [Mailing(to, self.completion_text(event))] if to else []

    def completion_text(self, event: ev.GameCompleted) -> Rendered:
        """The mail of the game's end, as mailed and as archived."""
        return self._once("completion", event, None,
                          lambda: self.render("game_complete", **self.completion_context(event)))

    def completion_context(self, event: ev.GameCompleted) -> dict[str, Any]:
        return {"kind": event.kind, "victors": views.powers(self.map, sorted(event.victors)),
                "phase": views.phase_view(event.phase), "deadline": self.when(event.deadline)}

    def rolled_back(self, event: Any) -> list[Mailing]:
        phase = views.phase_view(event.phase) if isinstance(event.phase, Phase) else None
        return self.mail(self.people.everyone(monitors=True), "rollback", phase=phase,
                         forward=event.forward, restored_orders=event.restored_orders,
                         full=event.full, deadline=self.when(event.deadline))

    # --- forming ---

    def joined(self, event: Any) -> list[Mailing]:
        mailings = self.mail([event.player.email], "joined", seat=event.seat,
                             remaining=event.remaining)
        if "SILENT_JOIN" not in self.rules:
            others = [a for a in self.people.everyone() if a.lower() != event.player.email.lower()]
            mailings += self.mail(others, "join_notice", seat=event.seat, remaining=event.remaining)
        return mailings

    def left(self, event: Any) -> list[Mailing]:
        player = [event.player.email] if event.player else []
        return (self.mail(player, "left", reader="player", seat=event.seat, player=event.player)
                + self.mail(self.people.master, "left", reader="master", seat=event.seat,
                            player=event.player))

    def full(self, event: Any) -> list[Mailing]:
        return self.mail(self.people.master, "game_full")

    # --- deadlines ---

    def reminder(self, event: Any) -> list[Mailing]:
        mailings = []
        for power in event.powers:
            mailings += self.mail(self.people.of([power]), "reminder", power=self.power(power),
                                  phase=views.phase_view(event.phase), deadline=self.when(event.deadline))
        return mailings

    def late_notice(self, event: Any, now: datetime | None = None) -> list[Mailing]:
        """The late powers get `deadline missed`; the Master, and in the deadline's own hour every
        other power, `late notice`. Under HIDE_LATE_POWERS each late power sees only itself and
        the others see no names."""
        hide = "HIDE_LATE_POWERS" in self.rules
        context = {"phase": views.phase_view(event.phase), "deadline": self.when(event.deadline),
                   **self._grace()}
        late = views.powers(self.map, event.late)
        mailings = []
        for power in late:
            mailings += self.mail(self.people.of([power.name]), "late_notice", reader_late=True,
                                  late=(power,) if hide else late, **context)
        mailings += self.mail(self.people.master, "late_notice", reader_late=False, late=late, **context)
        if self._same_hour(event.deadline, now):
            others = [p for p in self.people.players if p not in event.late]
            mailings += self.mail(self.people.of(others), "late_notice", reader_late=False,
                                  late=() if hide else late, **context)
        return mailings

    def _grace(self) -> dict[str, Any]:
        """When late powers are dealt with, and the GRACE it comes after (None: no GRACE line)."""
        grace = clock.in_force(self.status, self.rules).grace_end
        if grace is None:
            return {"grace_end": None, "grace": None, "civil_disorder": False}
        return {"grace_end": self.when(grace), "grace": parse_timing(self.status.timing or "").grace,
                "civil_disorder": "CIVIL_DISORDER" in self.rules}

    def _same_hour(self, deadline: datetime | None, now: datetime | None) -> bool:
        """Whether `now` is in the deadline's clock hour on the game's wall clock."""
        if deadline is None or now is None:
            return False
        zone = game_zone(self.status.zone)
        return to_wall(deadline, zone).replace(minute=0, second=0, microsecond=0) == \
            to_wall(now, zone).replace(minute=0, second=0, microsecond=0)

    def deadline_set(self, event: Any) -> list[Mailing]:
        by_power = self.power(event.by) if event.by not in ("judge", MASTER) else None
        return self.mail(self.people.everyone(monitors=True), "deadline_changed", by=event.by,
                         by_power=by_power, hide_extender="HIDE_EXTENDERS" in self.rules,
                         phase=views.phase_view(event.phase), deadline=self.when(event.deadline))

    def dismissal(self, event: Any) -> list[Mailing]:
        dismissed = [a for p in event.powers for a in former_player(self.status, p)]
        return self.mail([*self.people.everyone(), *dismissed], "dismissal",
                         phase=views.phase_view(event.phase), powers=views.powers(self.map, event.powers),
                         deadline=self.when(event.deadline))

    def civil_disorder(self, event: Any) -> list[Mailing]:
        """The Master (DPjudge's CD notice), and each power in civil disorder of its own."""
        phase = views.phase_view(event.phase)
        mailings = self.mail(self.people.master, "cd_notice", phase=phase,
                             powers=views.powers(self.map, event.powers))
        for power in event.powers:
            mailings += self.mail(self.people.of([power]), "cd_power", phase=phase,
                                  power=self.power(power))
        return mailings

    # --- players coming and going ---

    def resigned(self, event: Any) -> list[Mailing]:
        """The player and the Master; every other player and observer too (as DPjudge), unless
        the power was out of the game already."""
        context = {"power": self.power(event.power), "player": event.player, "by_master": event.by_master}
        player = [event.player.email] if event.player else []
        block = self.status.power(event.power)
        others = [a for a in self.people.everyone(master=False)
                  if a not in player and a not in self.people.master] \
            if block is not None and (block.units or block.owns) else []
        return (self.mail(player, "resignation", reader="player", **context)
                + self.mail(self.people.master, "resignation", reader="master", **context)
                + self.mail(others, "resignation", reader="others", **context))

    def took_over(self, event: Any) -> list[Mailing]:
        context = {"power": self.power(event.power), "player": event.player}
        player = [event.player.email, *self.people.of([event.power])]
        others = [a for a in self.people.everyone(master=False)
                  if a not in player and a not in self.people.master]
        return (self.mail(player, "takeover", reader="player", **context)
                + self.mail(self.people.master, "takeover", reader="master", **context)
                + self.mail(others, "takeover", reader="others", **context))

    def dummied(self, event: Any) -> list[Mailing]:
        context = {"power": self.power(event.power), "player": event.player}
        player = [event.player.email] if event.player else []
        return (self.mail(player, "dummy_notice", reader="player", **context)
                + self.mail(self.people.master, "dummy_notice", reader="master", **context))

    def vote(self, event: Any) -> list[Mailing]:
        context = {"power": self.power(event.power), "vote": str(event.vote) if event.vote else None,
                   "proposal": event.proposal, "vetoed": event.vetoed,
                   "hide_proposer": "HIDE_PROPOSER" in self.rules}
        if event.proposal:
            return self.mail([*self.people.of(self.people.players), *self.people.master], "vote", **context)
        return self.mail(self.people.of([event.power]), "vote", **context)

    def rotated(self, event: Any) -> list[Mailing]:
        changes = [(self.power(p), self.power(c)) for p, c in sorted(event.controllers.items())]
        to = [*self.people.of(event.controllers.values()), *self.people.master]
        return self.mail(to, "control_rotated", phase=views.phase_view(event.phase), changes=changes)

    # --- what players send: orders and press ---

    def orders(self, power: str, phase: Phase, lines: Sequence[str], *,
               deadline: datetime | None = None, sender: str | None = None, lists: str = "",
               later: Sequence[str] = ()) -> list[Mailing]:
        """An order confirmation (the orders as stored): to the sender and the power, the Master
        too under ALWAYS_CONFIRM; to everyone under BROADCAST_ORDERS (as DPjudge), except in a
        BLIND game, where that would tell everyone where the power's units stand."""
        if "BROADCAST_ORDERS" in self.rules and visibility.BLIND not in self.rules:
            to = self.people.everyone()
        else:
            to = ((sender,) if sender else ()) + self.people.of([power]) + \
                (self.people.master if "ALWAYS_CONFIRM" in self.rules else ())
        return self.mail(to, "orders", power=self.power(power), phase=views.phase_view(phase),
                         deadline=self.when(deadline), lines=tuple(lines), lists=lists,
                         later=tuple(later))

    def lists_played(self, event: ev.ListsPlayed) -> list[Mailing]:
        """PUBLIC_LISTS: a Crystal Ball phase's locked lists with each line's fate, to everyone, the
        Master too; under LIMIT_LISTS only a power's first lines, one more than the largest power
        has centres (as DPjudge counts them). Without PUBLIC_LISTS, nobody (LIMIT_LISTS alone
        publishes nothing, as in DPjudge)."""
        if "PUBLIC_LISTS" not in self.rules:
            return []
        shown = event.largest + 1 if "LIMIT_LISTS" in self.rules else None
        lists = [(self.power(p), lines[:shown]) for p, lines in event.lists]
        return self.mail(self.people.everyone(), "lists_played", phase=views.phase_view(event.phase),
                         phase_line=str(event.phase), lists=lists)

    def lists_locked(self, notice: Any) -> list[Mailing]:
        """Crystal Ball's first lists all in: everyone told, the Master too (DPjudge's broadcast)."""
        return self.mail(self.people.everyone(), "lists_locked", deadline=self.when(notice.deadline))

    def orders_stored(self, notice: Any) -> list[Mailing]:
        """The command layer's OrdersStored: the deadline shown is the phase's, while it lasts.
        The sender's address gets it only with the reply: the sender's reply limit holds both."""
        deadline = clock.deadline_in_force(self.status, self.rules) \
            if self.status.phase == notice.phase else None
        mailings = self.orders(notice.power, notice.phase, notice.lines, deadline=deadline,
                               sender=notice.sender, lists=notice.lists, later=notice.later)
        if notice.sender.lower() in self.replied:
            return mailings
        return [m for m in (Mailing(tuple(a for a in m.recipients
                                          if a.lower() != notice.sender.lower()), m.rendered)
                            for m in mailings) if m.recipients]

    def press(self, sender: str, to: Sequence[str] | None, body: str, *, fake_to: Sequence[str] = (),
              fake_broadcast: bool = False, fake_from: str | None = None, grey: bool = False,
              quiet: bool = False) -> list[Mailing]:
        """One press message (`to` None: a broadcast), already allowed by the press rules, with
        the sender's echo unless `quiet`. GREY_PRESS and YELLOW_PRESS hide the sender here too."""
        broadcast = to is None
        anonymous = grey or (sender != MASTER and list(to or ()) != [MASTER] and "GREY_PRESS" in self.rules) \
            or (sender != MASTER and broadcast and "YELLOW_PRESS" in self.rules)
        shown = None if anonymous else (fake_from or sender)
        mailings = self.deliver_press(sender, shown, to, body, fake_to, fake_broadcast)
        if not quiet:
            mailings += self.mail(self.people.of([sender]), "press_sent", broadcast=broadcast,
                                  to=views.powers(self.map, to or ()), body=body,
                                  shown_sender=self.power(fake_from) if fake_from and not anonymous else None,
                                  anonymous=anonymous, fake_to=views.powers(self.map, fake_to),
                                  fake_broadcast=fake_broadcast)
        return mailings

    def press_notice(self, notice: Any) -> list[Mailing]:
        """The command layer's Press notice (judge.commands.notices): anonymity already decided
        (`shown_from`), the sender's copy already in the reply to the mail."""
        body = "\n".join(notice.body)
        to = None if notice.broadcast else notice.to
        if notice.official is not None:
            return self.official(body, notice.official, sender=notice.sender, to=to)
        return self.deliver_press(notice.sender, notice.shown_from, to, body, notice.fake_to or (),
                                  notice.fake_broadcast)

    def deliver_press(self, sender: str, shown_from: str | None, to: Sequence[str] | None, body: str,
                      fake_to: Sequence[str] = (), fake_broadcast: bool = False) -> list[Mailing]:
        """The readers' copies: they see `shown_from` (None: anonymous) and the claimed recipients;
        the Master (a recipient, or eavesdropping on private press) and OMNISCIENT! readers see the
        truth. Nobody gets a copy at the sender's own addresses."""
        broadcast = to is None
        readers, knowing = self.press_readers(sender, to)
        context = {"sender": self.power(shown_from) if shown_from else None,
                   "broadcast": (broadcast and not fake_to) or fake_broadcast,
                   "to": views.powers(self.map, fake_to or (to or ())), "body": body}
        truth = {"sender": self.power(sender), "to": views.powers(self.map, to or ())}
        return (self.mail(readers, "press", truth=None, **context)
                + self.mail(knowing, "press", truth=truth, **context))

    def press_readers(self, sender: str, to: Sequence[str] | None
                      ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The addresses a press message from `sender` to `to` (None: a broadcast) reaches: its
        readers, and those who see the truth (the Master, a recipient or eavesdropping on private
        press, and OMNISCIENT! readers); none at the sender's own addresses."""
        names = self._reader_names(sender, to)
        knowing = [*self.people.omniscient]
        eavesdrop = to is not None and any(r.startswith("EAVESDROP") for r in self.rules)
        if MASTER in names or eavesdrop:
            knowing += self.people.master
        own = self.people.of([sender])
        readers = [a for a in self.people.of(n for n in names if n != MASTER)
                   if a not in knowing and a not in own]
        return tuple(readers), tuple(a for a in _unique(knowing) if a not in own)

    def _reader_names(self, sender: str, to: Sequence[str] | None) -> list[str]:
        if to is not None:
            return list(to)
        names = [n for n in (*self.people.players, *self.people.observers) if n != sender]
        if sender != MASTER and "PRESS_MASTER" not in self.rules:
            names.append(MASTER)
        return names

    def official(self, body: str, subject: str = "", *, sender: str = MASTER,
                 to: Sequence[str] | None = None) -> list[Mailing]:
        """The Master's OFFICIAL press: under the Master's subject, with no header, to whom the
        PRESS (`to`) or BROADCAST (None) it came with reaches."""
        readers, knowing = self.press_readers(sender, to)
        return self.mail([*readers, *knowing], "official", subject=subject, body=body)

    # --- the command layer's notices (judge.commands.notices) ---

    def absence(self, notice: Any) -> list[Mailing]:
        """SET ABSENCE: everyone (the Master only under SILENT_ABSENCES); the Master sees who."""
        context = {"first": self.when(notice.first), "last": self.when(notice.last), "timed": notice.timed}
        others = [] if notice.master_only else [
            a for a in self.people.everyone(master=False) if a not in self.people.master]
        by = self.power(notice.by) if notice.by else None
        return (self.mail(others, "absence", by=by, **context)
                + self.mail(self.people.master, "absence", by=self.power(notice.by_for_master), **context))

    def zone_changed(self, notice: Any) -> list[Mailing]:
        deadline = clock.deadline_in_force(self.status, self.rules)
        return self.mail(self.people.everyone(monitors=True), "zone_changed", zone=notice.zone,
                         deadline=views.local_time(deadline, notice.zone))

    def victory_changed(self, notice: Any) -> list[Mailing]:
        return self.mail(self.people.everyone(monitors=True), "victory_changed", year=notice.year,
                         before=notice.before, after=notice.after)

    def state_changed(self, notice: Any) -> list[Mailing]:
        return self.mail(self.people.everyone(), "state_changed", state=notice.state.lower())

    def master_changed(self, notice: Any) -> list[Mailing]:
        old = [a for a in notice.old_addresses if a.lower() != notice.new_address.lower()]
        return (self.mail(old, "master_changed", reader="old", new_address=notice.new_address)
                + self.mail([notice.new_address], "master_changed", reader="new",
                            new_address=notice.new_address))

    def renamed(self, notice: Any) -> list[Mailing]:
        return self.mail(notice.addresses, "game_renamed", old_name=notice.old_name)

    def created(self, notice: Any) -> list[Mailing]:
        """The map's NOTIFY addresses (the judgekeeper's copy of a trial map's game: keeper_notices)."""
        return self.mail(notice.notify, "game_created", master=notice.master, map_name=notice.map_name,
                         trial=notice.trial)

    def password_set(self, notice: Any) -> list[Mailing]:
        return self.mail(notice.addresses, "password_set", power=self.power(notice.power),
                         password=notice.password)

    def passwords_paused(self, notice: Any) -> list[Mailing]:
        """To the secret's owner's registered addresses only: the code must never reach a
        forger."""
        return self.mail(notice.addresses, "passwords_paused", power=self.power(notice.role),
                         signon=f"{notice.role.lower()}@{notice.game}", attempts=notice.attempts,
                         senders=notice.senders, since=self.when(notice.since),
                         until=self.when(notice.until), code=notice.code, kind=notice.kind)

    def keeper_notices(self, events: Sequence[Any]) -> list[Mailing]:
        """What the judgekeeper is told whatever TESTER says: games created on a trial map."""
        return [mailing for e in events if isinstance(e, notices.GameCreated) and e.trial and self.keeper
                for mailing in self.mail([self.keeper], "game_created", master=e.master,
                                         map_name=e.map_name, trial=e.trial)]

    # --- the Master's and the judgekeeper's housekeeping ---

    def game_alert(self, keeper: str, kind: str, days: int, *, phase: Phase | None = None,
                   deadline: datetime | None = None, late: Sequence[str] = (),
                   to_master: bool = False) -> list[Mailing]:
        """`overdue` (past the deadline) or `waiting` (for replacements): to the judgekeeper, and
        to the Master when `to_master` (TESTER applies to the Master's copy only)."""
        context = {"kind": kind, "days": days, "phase": views.phase_view(phase) if phase else None,
                   "deadline": self.when(deadline), "late": views.powers(self.map, late),
                   "need": [str(n) for n in self.status.need],
                   "master": self.status.master.email if self.status.master else None}
        master = for_tester(self.mail(self.people.master, "game_alert", **context),
                            self.people.tester) if to_master else []
        return master + self.mail([keeper], "game_alert", **context)

    def status_errors(self, keeper: str, problems: Sequence[str], *, test_game: bool = False
                      ) -> list[Mailing]:
        """A status file with errors: to the Master, and to the judgekeeper unless a test game."""
        master = for_tester(self.mail(self.people.master, "status_errors", problems=problems),
                            self.people.tester)
        return master + ([] if test_game else self.mail([keeper], "status_errors", problems=problems))

    def adjudication_error(self, keeper: str, phase: Phase, error: str) -> list[Mailing]:
        return self.mail([keeper], "adjudication_error", phase=views.phase_view(phase), error=error)


# The events a mail's own commands make that its reply reports to the sender already.
TOLD_BY_REPLY: frozenset[type] = frozenset({ev.PlayerJoined, ev.PlayerLeft, ev.Resigned, ev.TookOver,
                                            ev.VoteCast, ev.RolledBack, notices.StateChanged})

HANDLERS: dict[type, str] = {
    ev.PlayerJoined: "joined", ev.PlayerLeft: "left", ev.GameFull: "full", ev.GameStarted: "started",
    ev.Preview: "preview", ev.DeadlineSet: "deadline_set", ev.CivilDisorder: "civil_disorder",
    ev.Reminder: "reminder", ev.Dismissal: "dismissal", ev.Resigned: "resigned",
    ev.TookOver: "took_over", ev.Dummied: "dummied", ev.VoteCast: "vote",
    ev.ControlRotated: "rotated", ev.GameCompleted: "completed", ev.RolledBack: "rolled_back",
    ev.ListsPlayed: "lists_played",
    # the command layer's notices
    notices.Press: "press_notice", notices.AbsenceSet: "absence", notices.ZoneChanged: "zone_changed",
    notices.StateChanged: "state_changed", notices.VictoryChanged: "victory_changed",
    notices.MasterChanged: "master_changed",
    notices.GameRenamed: "renamed", notices.GameCreated: "created", notices.PasswordSet: "password_set",
    notices.PasswordsPaused: "passwords_paused", notices.OrdersStored: "orders_stored",
    notices.ListsLocked: "lists_locked",
}


def outage_alert(env: jinja2.Environment, keeper: str, judge: str, last_run: datetime, now: datetime,
                 games: Sequence[str]) -> list[Mailing]:
    """The judge did not run for a while; overdue games are held for the judgekeeper."""
    return [Mailing((keeper,), render(env, "outage", judge=judge, last_run=last_run, now=now,
                                      games=list(games)))]


def disk_alert(env: jinja2.Environment, keeper: str, judge: str, *, full: bool, since: datetime,
               now: datetime, error: str, delayed: int) -> list[Mailing]:
    """The disk refuses the judge's writes since `since` (`full`), or took them again at `now`,
    `delayed` mails delayed meanwhile."""
    return [Mailing((keeper,), render(env, "disk_alert", judge=judge, full=full, since=since,
                                      now=now, error=error, delayed=delayed))]


def inbox_alert(env: jinja2.Environment, keeper: str, judge: str, *, id: str, arrived: datetime,
                folder: str, error: str) -> list[Mailing]:
    """A mail failed three times and went to the inbox's `bad/` folder, unanswered."""
    return [Mailing((keeper,), render(env, "mail_not_processed", judge=judge, id=id,
                                      arrived=arrived, folder=folder, error=error))]


def outbox_alert(env: jinja2.Environment, keeper: str, judge: str, *, id: str, queued: datetime,
                 to: str, subject: str, reason: str, partly: bool, folder: str,
                 cause: str = "refused") -> list[Mailing]:
    """A mail could not be delivered (it is in `failed/`): the relay refused it for good
    (`cause` "refused"), deferred it for too long ("deferred"), or the judge had nothing to send
    it to ("unsendable"); or (`partly`) the relay refused some of its recipients, the others
    having it."""
    return [Mailing((keeper,), render(env, "mail_not_delivered", judge=judge, id=id,
                                      queued=queued, to=to, subject=subject, reason=reason,
                                      partly=partly, folder=folder, cause=cause))]


def render_reply(env: jinja2.Environment, reply: Any) -> tuple[str, str]:
    """Subject and body of the one answer to a mail (a `judge.commands.reply.Reply`), from
    reply.txt."""
    rendered = render(env, "reply", reply=reply)
    return rendered.subject, rendered.body
