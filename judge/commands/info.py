"""LIST, SUMMARY, HISTORY and MAP: what anyone may learn about the games.

Before a SIGNON they may name any game; after it, only the game signed on to. An unlisted or private
game is left out of the LIST of all games (as DPjudge leaves them out), and a game in preparation is
hidden even by name, except from its Master (known by the sender's address) and the judgekeeper.
LIST of a game, SUMMARY and HISTORY carry DPjudge's text (`judge.commands.documents`, the results
archive): players' addresses only for the Master, each power its own, and everyone once the game is
over; a BLIND game in play shows each power its own view (MAP draws what LIST lists), after a
SIGNON. A game whose files cannot be read is left out of the LIST of all games, and refused by name
without a word of them (the cycle tells its Master and the judgekeeper).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from judge.commands.auth import Level
from judge.commands.documents import (
    ListingDocument,
    SummaryDocument,
    board,
    centre_tables,
    parameters,
    roster,
)
from judge.app.game_in_hand import deadline, past_deadline, phase_name, phase_of
from judge.commands.registry import Command, Stage
from judge.commands.reply import Document, PictureRequest, Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.commands.closed_games import sees_hidden
from judge.adjudicator.model import Position
from judge.errors import MapError
from judge.game import visibility
from judge.game.archive import for_reader, ownership
from judge.game.orders import duties
from judge.game.positions import position_of
from judge.maps import map_for_phase
from judge.rule_names import Rule, Rules
from judge.types import MASTER, Phase, Unit
from judge.maps.model import Map
from judge.game.rules import rules_in_force
from judge.game.seats import open_seats
from judge.game.standing import GameState, Standing, game_state
from judge.status.model import GameStatus
from judge.timing import game_zone

class InfoCommand(Command):
    stage = Stage.ANY
    level = Level.NONE
    writes = False

    def game_status(self, session: Session, args: list[str]) -> tuple[GameStatus, Standing]:
        """The game the command is about, with its state file: the one signed on to, or the one
        named (a game in preparation is hidden from all but its Master and the judgekeeper)."""
        if len(args) > 1 or (not args and not session.signed_on):
            raise Refusal(f"{self.name} takes the game's name ({self.name} gamename)")
        if session.signed_on:
            if args and args[0].lower() != session.game:
                raise Refusal(f"after a SIGNON, {self.name} is only for game '{session.game}'")
            return session.current(), session.standing
        name = args[0].lower()
        status = session.games.peek(name)
        if status is not None:
            standing = session.games.standing(name)
            if not standing.hidden or sees_hidden(session, status):
                return status, standing
        raise Refusal(f"there is no game '{name}' on this judge")

    def blind(self, session: Session, status: GameStatus, rules: Rules) -> bool:
        """Whether the game is BLIND; one in play is refused before a SIGNON, as each power sees
        its own."""
        blind = Rule.BLIND in rules
        if blind and not session.signed_on and phase_of(status) is not None:
            raise Refusal(f"SIGNON first: each power of BLIND game '{status.name}' sees its own "
                          f"{self.name}")
        return blind


class List(InfoCommand):
    name = "LIST"
    help = "LIST: the games open to join or waiting for players; LIST game: that game's status"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        if not args and not session.signed_on:
            return said(*game_list(session))
        status, standing = self.game_status(session, args)
        return game_details(session, status, standing)


def game_list(session: Session) -> list[str]:
    """The games open to join or waiting for replacements; the unlisted, the private and those in
    preparation only for their Master and the judgekeeper. The closing hints say how to take a seat
    in the games listed: JOIN a forming game, TAKEOVER a vacant power."""
    listed = []
    for name in session.games.listable():
        try:
            line = list_line(session, name)
        except (Refusal, MapError):  # a broken game is left out; the cycle tells its Master
            continue
        if line is not None:
            listed.append(line)
    if not listed:
        return ["No game is forming or waiting for players just now."]
    states = {state for _, state in listed}
    hints = ["To join one, send: JOIN gamename yourPassword (LIST gamename tells more)."
             ] if GameState.FORMING in states else []
    if GameState.WAITING in states:
        hints.append("To replace a player who left, send: TAKEOVER power@gamename yourPassword "
                     "(LIST gamename tells more).")
    return ["Games open to join or waiting for replacements:", *(line for line, _ in listed),
            *hints]


def list_line(session: Session, name: str) -> tuple[str, GameState] | None:
    """The game's line in the LIST of all games and its state, None when it is not listed there;
    a Refusal or a MapError when the game cannot be read."""
    status = session.games.peek(name)
    if status is None:
        return None
    standing = session.games.standing(name)
    if (not standing.in_list or status.private) and not sees_hidden(session, status):
        return None
    state = game_state(status, standing)
    if state is GameState.PREPARATION:
        what = "yours to FORM or ACTIVATE"
    elif state is GameState.FORMING:
        seats = standing.seats
        what = f"{open_seats(status, session.games.load_map(status)) if seats is None else seats} seats open"
    elif state is GameState.WAITING and status.need:
        what = "needs " + " ".join(n.power for n in status.need)
    else:
        return None
    marks = (" (private)" if status.private else "") + ("" if standing.listed else " (unlisted)")
    return f"{name:<16} {status.map_name:<12} {state.value:<8} {what}{marks}", state


def game_details(session: Session, status: GameStatus, standing: Standing) -> Said:
    """LIST of one game, as DPjudge lays it out (`ListingDocument`)."""
    if status.completed:
        return said(f"Game '{status.name}' is completed.  No LIST available.  Use SUMMARY or HISTORY.")
    m = session.games.load_map(status)
    rules = rules_in_force(status, m)
    reader = reader_of(session)
    blind = Rule.BLIND in rules
    shown, glimpsed = blind_sight(status, m, rules, reader) if blind else (lambda power: True, {})
    phase = phase_of(status)
    owing = duties(status, m, rules) if phase is not None else None
    master, people = roster(status, m, reader, late=late_in(session, status, m, rules),
                            listing=True, blind=blind)
    units, owners = board(status, m, shown, glimpsed)
    moment = deadline(status, rules)
    state = game_state(status, standing)
    return said(document=ListingDocument(
        session.settings.judge_id, status.name or "", status.map_name, phase.mapper if phase else None,
        moment.astimezone(game_zone(status.zone)) if moment and phase else None,
        _waiting_for(session, status, m), _names(m, owing.missing if owing else (), rules, Rule.LIST_UNORDERED),
        bool(owing and owing.missing), _names(m, owing.waiting if owing else (), rules, Rule.LIST_WAITERS),
        bool(owing and owing.waiting), parameters(status, m, session.settings.judge_id), master,
        people if phase is not None else (), _phase(phase), units,
        owners if state in (GameState.ACTIVE, GameState.WAITING) else (),
        state.value if state in (GameState.TERMINATED, GameState.PREPARATION) else None,
        not standing.listed, status.game_class))


def _phase(phase: Phase | None) -> tuple[str, str, int, str] | None:
    if phase is None:
        return None
    kind = phase.type.title()
    return kind[:-1] if kind.endswith("s") else kind, phase.season.title(), phase.year, phase.abbrev


def _names(m: Map, powers: Iterable[str], rules: Rules, rule: str) -> tuple[str, ...] | None:
    """The powers by name where `rule` lists them; None where it does not."""
    if rule not in rules:
        return None
    return tuple(m.powers[p].display if p in m.powers else p.title() for p in powers)


def _waiting_for(session: Session, status: GameStatus, m: Map) -> str | None:
    if status.forming:
        seats = open_seats(status, m)
        return f"{seats} more player{'s' if seats != 1 else ''} to join"
    if status.need:
        names = [m.powers[n.power].display if n.power in m.powers else n.power.title() for n in status.need]
        return " and ".join(names) + " to be taken over"
    return None


class Summary(InfoCommand):
    name = "SUMMARY"
    help = "SUMMARY game: who played each power, the parameters, the centers year by year"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status, _ = self.game_status(session, args)
        m = session.games.load_map(status)
        rules = rules_in_force(status, m)
        blind = self.blind(session, status, rules)
        return said(document=summary_document(session, status, m, rules, blind))


def summary_document(session: Session, status: GameStatus, m: Map, rules: Rules,
                     blind: bool) -> SummaryDocument:
    name = status.name or ""
    reader = reader_of(session)
    everything = not blind or status.completed
    seen = for_reader(session.games.results_text(name), {MASTER if everything else reader or ""})
    end, years = ownership(seen)
    centres, rows, tables = centre_tables(m, years, index=everything)
    master, people = roster(status, m, reader, late=late_in(session, status, m, rules))
    return SummaryDocument(name, end if centres else None, master, people,
                           parameters(status, m, session.settings.judge_id), centres, rows, tables)


def blind_sight(status: GameStatus, m: Map, rules: Rules, reader: str | None
                ) -> tuple[Callable[[str], bool], Mapping[str, tuple[Unit, ...]]]:
    """A BLIND game's board as `reader` sees it: whose units and centres it sees in full (its
    own, its vassals', everything for the Master and the omniscient), and the other units its
    own see (`visibility.units_seen`); nobody else sees any."""
    seers = visibility.seers_of(status, m)
    if reader is None or status.power(reader) is None and reader != MASTER:
        return (lambda power: False), {}
    full = {b.name for b in status.powers if reader in seers.full_sight(b.name)}
    everything = reader in seers.everything
    glimpsed = {} if everything else visibility.units_seen(m, rules, seers, reader)
    return (lambda power: everything or power in full), glimpsed


def reader_of(session: Session) -> str | None:
    """Who the sender is to a game's roster: MASTER, the power signed on as, or None."""
    if not session.signed_on:
        return None
    return MASTER if session.is_master else session.role


def late_in(session: Session, status: GameStatus, m: Map, rules: Rules) -> tuple[str, ...]:
    """The powers late with orders: they owe some, and the deadline has passed."""
    if phase_of(status) is None or not past_deadline(status, rules, session.now):
        return ()
    return duties(status, m, rules).late


@dataclass(frozen=True)
class HistoryDocument(Document):
    """The game's results archive as one reader may see it (empty: there is none yet)."""

    template: ClassVar[str] = "_history.txt"
    game: str
    text: str


class History(InfoCommand):
    name = "HISTORY"
    help = "HISTORY game: the game's results archive, every results mail it was sent"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status, _ = self.game_status(session, args)
        name = status.name or ""
        blind = self.blind(session, status, rules_in_force(status, session.games.load_map(status)))
        text = session.games.results_text(name)
        return said(document=HistoryDocument(name, for_reader(text, archive_readers(session, status, blind))))


def archive_readers(session: Session, status: GameStatus, blind: bool) -> frozenset[str] | None:
    """Whose parts of the archive the sender sees: every part (None) unless the game is BLIND and
    in play; then the parts of the power signed on as, or the Master's."""
    if not blind or status.completed:
        return None
    return frozenset({MASTER if session.is_master else session.role or ""})


# MAP's formats; DPjudge's gif and ps are answered with their nearest kin
PICTURE_WORDS = {"png": "png", "pdf": "pdf", "svg": "svg", "gif": "png", "ps": "pdf"}


class MapCommand(InfoCommand):
    name = "MAP"
    help = "MAP game [png|pdf|svg]: the board as it stands, attached to the reply (default png)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        kind = PICTURE_WORDS.get(args[-1].lower()) if args else None
        status, _ = self.game_status(session, args[:-1] if kind else args)
        m = session.games.load_map(status)
        rules = rules_in_force(status, m)
        phase = phase_of(status)
        board = f"The board of game '{status.name}', {phase_name(status)},"
        shown = (kind or "png").upper()
        if any(outcome.picture is not None for outcome in session.results.outcomes):
            return said(f"{board} as {shown}, is not attached: a reply carries one picture, "
                        "that of the first MAP.")
        request = PictureRequest(status.name or "", kind or "png", unmade=(
            f"{board} could not be drawn as {shown} within the judge's limits: no picture is "
            "attached."), unsent=(
            f"{board} as {shown}, is not attached: its size would pass the replies this address "
            "may get now."))
        if self.blind(session, status, rules) and phase is not None:
            seen, full_sight = seen_position(status, m, rules, reader_of(session), phase)
            request = replace(request, seen=seen, full_sight=full_sight)
        return said(f"{board} is attached ({request.kind.upper()}).", picture=request)


def seen_position(status: GameStatus, m: Map, rules: Rules, reader: str | None,
                  phase: Phase) -> tuple[Position, frozenset[str]]:
    """A BLIND game's position as `reader` sees it, what its LIST shows (`blind_sight`): the units
    and centres of the powers it sees in full (`full_sight`), the other units it sees (a
    dislodged one without its retreats), no other centre."""
    shown, glimpsed = blind_sight(status, m, rules, reader)
    whole = position_of(status, map_for_phase(m, phase), phase)

    def sighted(power: str, units: Iterable[Unit]) -> tuple[Unit, ...]:
        return tuple(u for u in units if shown(power) or u in glimpsed.get(power, ()))

    dislodged = {p: {u: d[u] if shown(p) else () for u in sighted(p, d)}
                 for p, d in whole.dislodged.items()}
    seen = replace(whole, units={p: sighted(p, us) for p, us in whole.units.items()},
                   centers={p: cs for p, cs in whole.centers.items() if shown(p)},
                   dislodged={p: d for p, d in dislodged.items() if d})
    return seen, frozenset(p for p in m.powers if shown(p))


COMMANDS: list[type[Command]] = [List, Summary, History, MapCommand]
