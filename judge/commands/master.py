"""The Master's commands after a SIGNON: the game's state (FORM, ACTIVATE, WAIT, TERMINATE, kept in
the game's state file by `judge.game.standing`'s rules), PROCESS / PROCESS! / PREVIEW (at the end of the
mail, after the orders in it are stored), ROLLBACK and ROLLFORWARD, RESIGN / DUMMY / REVIVE a power,
and REVEAL. The use cases do the work (`judge.app`); these read the mail's words and report.
"""
from __future__ import annotations

import secrets

from judge.app import game_state, master, seats
from judge.commands.auth import Level, addresses_of, valid_password
from judge.app.game_in_hand import phase_of
from judge.notices import PasswordSet
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.game import GameError
from judge.status.model import PowerStatus


class MasterCommand(Command):
    stage = Stage.AFTER
    level = Level.MASTER


def power_block(session: Session, word: str) -> PowerStatus:
    status = session.current()
    block = status.power(word.upper())
    if block is None and len(word) == 1:
        info = session.map.power_by_abbrev(word.upper())
        block = status.power(info.name) if info is not None else None
    if block is None or not block.is_power:
        raise Refusal(f"game '{session.game}' has no power '{word}'")
    return block


def restate(session: Session, outcome: game_state.Restated) -> None:
    """Keep what a state change did: its standing, status and events, a start's status before it
    kept as the snapshot of FORMING."""
    session.standing = outcome.standing
    session.keep(outcome.status, outcome.events)
    if outcome.started:
        session.snapshot_text = session.loaded_text or None


def started(session: Session) -> Said:
    return said(f"Game '{session.game}' has started: the phase is {session.current().phase}.")


def start_now(session: Session) -> Said:
    """Start the forming game in hand (CREATE with no seat to fill)."""
    restate(session, game_state.start(session.in_hand(), session.standing))
    return started(session)


class Form(MasterCommand):
    name = "FORM"
    help = "FORM: let a game in preparation (or terminated, not started) accept JOIN"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        outcome = game_state.form_game(session.in_hand(), session.standing)
        restate(session, outcome)
        if outcome.started:
            return started(session)
        if not outcome.changed:
            return said(f"Game '{session.game}' is forming.")
        private = " privacyPassword" if session.current().private else ""
        return said(f"Game '{session.game}' is forming: players join with JOIN {session.game} "
                    f"password{private}.")


class Activate(MasterCommand):
    name = "ACTIVATE"
    help = "ACTIVATE: start a forming game (or one in preparation) now, or let a held game go on"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        outcome = game_state.activate_game(session.in_hand(), session.standing)
        restate(session, outcome)
        if outcome.started:
            return started(session)
        if not outcome.changed:
            return said(f"Game '{session.game}' is active.")
        status = session.current()
        if status.need:
            return said(f"Game '{session.game}' is no longer held; it still waits for "
                        f"replacements of {', '.join(n.power for n in status.need)}.")
        return said(f"Game '{session.game}' is active in {status.phase}: the judge processes it "
                    "at its deadlines again (a deadline passed while it was held is set afresh).")


class Wait(MasterCommand):
    name = "WAIT"
    help = "WAIT: hold a game in play (its deadline ignored, nothing processed) until ACTIVATE"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        outcome = game_state.wait_game(session.in_hand(), session.standing)
        restate(session, outcome)
        if not outcome.changed:
            return said(f"Game '{session.game}' is already waiting.")
        return said(f"Game '{session.game}' is waiting: its deadline is ignored and nothing is "
                    "processed until you ACTIVATE it.")


class Terminate(MasterCommand):
    name = "TERMINATE"
    help = "TERMINATE: end the game without a result (nothing is processed any more)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        outcome = game_state.terminate_game(session.in_hand(), session.standing)
        restate(session, outcome)
        if not outcome.changed:
            return said(f"Game '{session.game}' is already terminated.")
        return said(f"Game '{session.game}' is terminated: nothing is processed any more.")


class Process(MasterCommand):
    name = "PROCESS"
    help = "PROCESS: process the phase now if all orders are in (PROCESS!: default the missing)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        force = args == ["!"] or self.forced
        if args and args != ["!"]:
            raise Refusal("PROCESS takes nothing after it (PROCESS! forces)")
        return process_now(session, force, self.name)

    forced = False


class ProcessForced(Process):
    name = "PROCESS!"
    words = ("PROCESS!",)
    forced = True


def moved(session: Session, outcome: master.Moved) -> None:
    """Keep what PROCESS or ROLLBACK did in the session: the status, events and standing."""
    session.keep(outcome.status, outcome.events)
    session.standing = outcome.standing
    if outcome.snapshot_text is not None:
        session.snapshot_text = outcome.snapshot_text


def process_now(session: Session, force: bool, request: str = "PROCESS") -> Said:
    outcome = master.process(session.in_hand(), session.base_map, session.standing, force, request)
    moved(session, outcome)
    new, results = outcome.status, outcome.processed
    return said(f"{results.phase} was processed." if results else "The phase was processed.",
                f"The game is now in {new.phase}." if phase_of(new) else
                f"The game is {session.state.value}.")


class Preview(MasterCommand):
    name = "PREVIEW"
    help = "PREVIEW: the results processing would give, sent to the Master only"
    writes = False

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        session.emit(master.preview_phase(session.in_hand(), session.base_map))
        return said("The preview is on its way to the Master.")


class Rollback(MasterCommand):
    name = "ROLLBACK"
    help = "ROLLBACK [phase|FORMING] [RESTORE] [FULL]: go back to a processed phase"
    forward = False

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        game = session.in_hand()
        master.rollable(game)
        status = game.status
        options = {a.upper() for a in args} & {"RESTORE", "RECOVER", "FULL"}
        phases = [a for a in args if a.upper() not in ("RESTORE", "RECOVER", "FULL")]
        if len(phases) > 1:
            raise Refusal(f"{self.name} takes one phase (S1901M or FORMING), RESTORE and FULL")
        try:
            snapshot = session.games.snapshot_for(session.game or "", status, session.base_map,
                                                  phases[0] if phases else None, self.forward)
        except GameError as error:
            raise Refusal(str(error)) from None
        moved(session, master.roll(game, session.base_map, session.standing, snapshot,
                                   restore=bool(options & {"RESTORE", "RECOVER"}),
                                   full="FULL" in options, forward=self.forward))
        session.forget_map()
        new = session.current()
        where = new.phase if phase_of(new) else "FORMING"
        return said(f"Game '{session.game}' is back in {where}." if not self.forward
                    else f"Game '{session.game}' is forward in {where}.")


class Rollforward(Rollback):
    name = "ROLLFORWARD"
    help = "ROLLFORWARD [phase] [RESTORE] [FULL]: undo a rollback"
    forward = True


class ResignPower(MasterCommand):
    name = "RESIGN"
    help = "RESIGN power: the Master resigns the power's player (or un-dummies a dummy)"
    arity, usage = (1,), "RESIGN takes the power's name (RESIGN FRANCE)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        block = power_block(session, args[0])
        outcome = seats.master_resigns(session.in_hand(), block.name)
        session.keep(outcome.status, outcome.events)
        if outcome.undummied:
            return said(f"{block.name} is no longer a dummy: it is vacant, for a TAKEOVER.")
        return said(f"{block.name} has been resigned.")


class Dummy(MasterCommand):
    name = "DUMMY"
    help = "DUMMY power: the judge plays the power (civil disorder, or orders by the Master)"
    arity, usage = (1,), "DUMMY takes the power's name (DUMMY FRANCE)"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        block = power_block(session, args[0])
        outcome = seats.dummy(session.in_hand(), block.name)
        session.keep(outcome.status, outcome.events)
        return said(f"{block.name} is now a dummy.")


class Revive(MasterCommand):
    name = "REVIVE"
    help = "REVIVE power [password]: give a resigned power back to its last player"
    arity, usage = (1, 2), "REVIVE takes the power and, if you wish, a new password"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        block = power_block(session, args[0])
        player = seats.revivable(session.in_hand(), block.name)
        try:
            password = valid_password(args[1]) if len(args) > 1 else secrets.token_urlsafe(6)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        outcome = seats.revive(session.in_hand(), block.name, session.hashed(password))
        session.keep(outcome.status, outcome.events)
        revived = outcome.status.power(block.name)
        assert revived is not None
        limit = session.settings.addresses_per_player
        session.emit(PasswordSet(session.game or "", block.name, addresses_of(revived, limit),
                                 password))
        return said(f"{block.name} is played again by {player.email}; the new password has been "
                    "mailed to the player.")


class Reveal(MasterCommand):
    name = "REVEAL"
    help = "REVEAL: in a NO_REVEAL game that is over, make the players' identities public"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        outcome = game_state.reveal(session.in_hand())
        session.keep(outcome.status, outcome.events)
        return said(f"The players of game '{session.game}' are revealed.")


COMMANDS: list[type[Command]] = [Form, Activate, Wait, Terminate, Process, ProcessForced, Preview,
                                 Rollback, Rollforward, ResignPower, Dummy, Revive, Reveal]
