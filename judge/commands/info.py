"""LIST, SUMMARY, HISTORY and MAP: what anyone may learn about the games.

Before a SIGNON they may name any game; after it, only the game signed on to. An unlisted game is
left out of the LIST of all games, and a game in preparation is hidden even by name, except from
its Master (known by the sender's address) and the judgekeeper. Player addresses are never shown,
except in the SUMMARY of a completed game; a BLIND game in play shows no board. A game whose files
cannot be read is left out of the LIST of all games, and refused by name without a word of them
(the cycle tells its Master and the judgekeeper).
"""
from __future__ import annotations

from collections.abc import Iterable

from judge.commands.auth import Level
from judge.commands.game_queries import deadline, phase_name, phase_of
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.commands.closed_games import sees_hidden
from judge.errors import MapError
from judge.game.positions import owned_centers
from judge.game.rules import rules_in_force
from judge.game.seats import open_seats
from judge.game.standing import GameState, Standing, game_state
from judge.status.model import Dppd, GameStatus, PowerStatus
from judge.timing import game_zone
from judge.timing.written import long_form

PRESS_RULES = (("NO_PRESS", "none"), ("PUBLIC_PRESS", "broadcast only"), ("GREY_PRESS", "grey"),
               ("FAKE_PRESS", "fake allowed"), ("WHITE_GREY", "white or grey"))


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

    def blind_secret(self, session: Session, status: GameStatus) -> bool:
        rules = rules_in_force(status, session.games.load_map(status))
        return "BLIND" in rules and phase_of(status) is not None and not session.is_master


class List(InfoCommand):
    name = "LIST"
    help = "LIST: the games open to join or waiting for players; LIST game: that game's status"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        if not args and not session.signed_on:
            return said(*game_list(session))
        status, standing = self.game_status(session, args)
        return said(*game_details(session, status, standing,
                                  hide_board=self.blind_secret(session, status)))


def game_list(session: Session) -> list[str]:
    """The games open to join or waiting for replacements; the unlisted and those in preparation
    only for their Master and the judgekeeper."""
    lines = []
    for name in session.games.names():
        try:
            line = list_line(session, name)
        except (Refusal, MapError):  # a broken game is left out; the cycle tells its Master
            continue
        if line is not None:
            lines.append(line)
    if not lines:
        return ["No game is forming or waiting for players just now."]
    hint = "To join one, send: JOIN gamename yourPassword (LIST gamename tells more)."
    return ["Games open to join or waiting for replacements:", *lines, hint]


def list_line(session: Session, name: str) -> str | None:
    """The game's line in the LIST of all games, None when it is not listed there; a Refusal or a
    MapError when the game cannot be read."""
    status = session.games.peek(name)
    if status is None:
        return None
    standing = session.games.standing(name)
    if not standing.in_list and not sees_hidden(session, status):
        return None
    state = game_state(status, standing)
    if state is GameState.PREPARATION:
        what = "yours to FORM or ACTIVATE"
    elif state is GameState.FORMING:
        what = f"{open_seats(status, session.games.load_map(status))} seats open"
    elif state is GameState.WAITING and status.need:
        what = "needs " + " ".join(n.power for n in status.need)
    else:
        return None
    marks = (" (private)" if status.private else "") + ("" if standing.listed else " (unlisted)")
    return f"{name:<16} {status.map_name:<12} {state.value:<8} {what}{marks}"


def game_details(session: Session, status: GameStatus, standing: Standing,
                 hide_board: bool) -> list[str]:
    m = session.games.load_map(status)
    rules = rules_in_force(status, m)
    lines = [(f"Game '{status.name}' on the {status.map_name} map: "
             f"{game_state(status, standing).value}, {phase_name(status)}.")]
    if not standing.listed:
        lines.append("Unlisted: LIST does not show it.")
    moment = deadline(status, rules)
    if moment is not None and phase_of(status) is not None:
        local = moment.astimezone(game_zone(status.zone))
        lines.append(f"Deadline: {long_form(local)}.")
    lines.append(f"Press: {press_kind(rules)}.")
    if status.rules:
        lines.append("Rules: " + " ".join(sorted(status.rules)) + ".")
    if status.private:
        lines.append("Private: JOIN and TAKEOVER need the privacy password.")
    if status.need:
        lines.append("Needs replacements for: " + " ".join(str(n) for n in status.need) + ".")
    if status.forming:
        lines.append(f"Seats open: {open_seats(status, m)}.")
    for block in status.powers:
        lines.append(power_line(block, hide_board))
    return lines


def press_kind(rules: frozenset[str]) -> str:
    found = [text for rule, text in PRESS_RULES if rule in rules]
    return ", ".join(found) or "white, private and broadcast"


def power_line(block: PowerStatus, hide_board: bool) -> str:
    if not block.is_power:
        return f"  {block.kind} {block.name}"
    who = "vacant" if block.player and block.player.resigned else \
        "dummy" if block.player and block.player.dummy else "played"
    if hide_board:
        return f"  {block.name}: {who}"
    units = " ".join(str(u) for u in block.units) or "no units"
    return f"  {block.name}: {who}, {len(owned_centers(block))} centres; {units}"


class Summary(InfoCommand):
    name = "SUMMARY"
    help = "SUMMARY game: centre counts phase by phase and who played each power"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status, _ = self.game_status(session, args)
        name = status.name or (args[0].lower() if args else session.game or "")
        lines = [f"Summary of game '{name}' ({phase_name(status)}):"]
        if status.result is not None:
            lines.append(f"Result in {status.result.last_phase}: "
                         + (", ".join(status.result.victors) or "no victor") + ".")
        if not self.blind_secret(session, status):
            lines += centre_history(session.games.snapshots(name), status)
        lines.append("Players:")
        for block in status.powers:
            if block.is_power:
                lines += player_history(block, reveal=status.completed)
        return said(*lines)


def centre_history(snapshots: Iterable[tuple[str, GameStatus]], current: GameStatus) -> list[str]:
    rows = [(abbrev, s) for abbrev, s in snapshots if phase_of(s) is not None]
    rows.append(("now", current))
    powers = [b.name for b in current.powers if b.is_power]
    if not powers or phase_of(current) is None and current.forming:
        return []
    lines = ["Supply centres:", "        " + " ".join(f"{p[:3]:>4}" for p in powers)]
    for abbrev, status in rows:
        counts = [len(owned_centers(b)) if (b := status.power(p)) is not None else 0
                  for p in powers]
        lines.append(f"{abbrev:<7} " + " ".join(f"{c:>4}" for c in counts))
    return lines


def player_history(block: PowerStatus, reveal: bool) -> list[str]:
    def who(seat: object) -> str:
        if isinstance(seat, Dppd):
            return seat.email if reveal else "a player"
        return str(getattr(seat, "value", seat) or "nobody").lower()
    history = block.player
    if history is None:
        return [f"  {block.name}: nobody"]
    line = f"  {block.name}: {who(history.current)}"
    for handover in history.handovers:
        line += f", since {handover.phase}; before: {who(handover.previous)}"
    return [line]


class History(InfoCommand):
    name = "HISTORY"
    help = "HISTORY game: every phase's results, in one mail"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status, _ = self.game_status(session, args)
        if self.blind_secret(session, status):
            raise Refusal("the results of a BLIND game in play differ for each power: "
                          "they are not sent as a HISTORY")
        text = session.games.results_text(status.name or "")
        if not text.strip():
            return said(f"No phase of game '{status.name}' has been processed yet.")
        return said(f"The results of game '{status.name}':", quoted=text.rstrip("\n").split("\n"))


class MapCommand(InfoCommand):
    name = "MAP"
    help = "MAP game: (maps are not drawn by this judge; LIST game gives the position)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        return said("This judge draws no maps; LIST gamename gives the units and centres.")


COMMANDS: list[type[Command]] = [List, Summary, History, MapCommand]
