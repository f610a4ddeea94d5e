"""Random games played through the judge's real doors, and what must hold after every step.

`play(root, seed, steps)` plays one seeded game in the judge folder `root`: mail goes through the
inbox runner (`MailHandler`, as the daemon carries out a spooled mail) and time through the
twenty-minute cycle (`judge check`), in a standard game a Master creates by mail. Each step is one
of: a player joins, orders (holds and moves), resigns, takes a vacancy over, votes, moves his
address, changes his password or goes on vacation (SET ABSENCE); the Master processes (PROCESS or
PROCESS!), rolls back or forward, morphs the map, holds the game (WAIT) and lets it go on
(ACTIVATE); time passes (the cycle runs at each twenty-minute slot in which the game has something
due, as the daemon's idle cycles would); or the judge is down for a while and the judgekeeper
releases the games the outage guard held. Every game plays each kind at least once (a takeover
when a vacancy came up): the kinds not yet played are drawn first, the more often the fewer
steps are left: a game of 30 steps (about 7 of them its forming) plays them all unless it ends
sooner.

After every step (`Checker`):
- a game in play whose deadline has passed is processed, or each power still owing orders was
  sent a late notice since the deadline;
- a game not in play says why: a vacancy (its NEED line names vacant powers, and the Master was
  told of each), the Master's hold (WAIT, which the model knows of: never a hold nobody asked for),
  a processing error (AWAIT, the judgekeeper told) or the outage guard's hold;
- every mail got exactly one reply (threaded to it, to its sender);
- the status file reads back to the same game and is written again byte for byte;
- nobody gets the same mail twice in one step (one event, one mail).

What broke is collected as `Violation`s, with the steps that led there, rather than raised: the
long run (benchmarks/random_games.py) counts them over many games.
"""
from __future__ import annotations

import functools
from functools import cached_property
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from pathlib import Path

from judge.commands.auth import addresses_of
from judge.errors import JudgeError
from judge.game.clock import agenda
from judge.game.standing import Standing
from judge.mailout.render import environment
from judge.maps import MapCache
from judge.runtime.cycle import cycle_mails, read_state, run_cycle, write_state
from judge.runtime.game_files import kept_status, read_standing
from judge.runtime.inbox import MailHandler
from judge.runtime.spool import open_spools
from judge.status import write_status
from judge.status.model import Dppd, GameStatus, PhaseMode
from judge.types import MOVEMENT, Phase
from tests.support.cycle import KEEPER, Judge

START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
GAME = "g"
MASTER = "gm@players.test"
MASTER_PASSWORD = "masterpw"
SLOT = timedelta(minutes=20)
CYCLES_PER_JUMP = 80  # cycles run in one passing of time at most (DELAY counts down one a cycle)
LATE = ("Diplomacy deadline missed", "Diplomacy late notice")
SETTINGS = (  # the game's lines at CREATE: how late powers are dealt with at the grace end
    (), ("RULE CIVIL_DISORDER",), ("TIMING NEXT 1D GRACE 1D",),
    ("TIMING NEXT 2D GRACE 0H", "RULE CIVIL_DISORDER"), ("TIMING NEXT 1D GRACE 2D WARN 6H",))
ANSWERS = ("Re: ", "Diplomacy orders ")  # the reply, or the order confirmation said in its place


@dataclass(frozen=True)
class Violation:
    seed: int
    step: int
    what: str
    steps: tuple[str, ...]

    def __str__(self) -> str:
        return (f"seed {self.seed}, step {self.step}: {self.what}\n  after: "
                + "\n         ".join(self.steps[-12:]))


class Sent:
    """A mail the judge sent, its headers read once and as written when they are plain text (each
    read of a parsed mail's header parses it again); `text`: its text, when already known."""

    def __init__(self, mail: Message, text: str | None = None, raw: bytes = b""):
        self.mail = mail
        self.raw = raw  # the whole mail, when `mail` holds its headers only
        self.to = {a.strip().lower() for a in header_of(mail, "To").split(",") if a.strip()}
        self.subject = header_of(mail, "Subject")
        self.in_reply_to = header_of(mail, "In-Reply-To")
        if text is not None:
            self.body = text

    @classmethod
    def of_bytes(cls, raw: bytes) -> Sent:
        """A mail as the outbox holds it: a plain ASCII text (most are) read from its bytes
        without parsing it as MIME, any other parsed in full when its words are read."""
        head, text = header_block(raw)
        if (header_of(head, "Content-Type"), header_of(head, "Content-Transfer-Encoding")) \
                == ('text/plain; charset="utf-8"', "7bit"):
            return cls(head, text)
        return cls(head, raw=raw)

    @cached_property
    def body(self) -> str:
        return body_of(message_from_bytes(self.raw, policy=policy.default) if self.raw
                       else self.mail)


@dataclass
class Seat:
    address: str
    password: str


@dataclass
class Model:
    """What the players and the Master know: who sits where with what password, and whether the
    Master holds the game."""

    seats: dict[str, Seat] = field(default_factory=dict)  # power -> its player
    joined: dict[str, str] = field(default_factory=dict)  # address -> password, before the start
    held: bool = False  # the Master's WAIT, not yet undone by ACTIVATE
    outage: bool = False  # the outage guard may hold the game: the judgekeeper releases it
    newcomers: int = 0


@dataclass(frozen=True)
class Kit:
    """What a long-lived judge keeps between mails and ticks, shared by the games of one process:
    the templates, compiled once, and the parsed maps (immutable values)."""

    env: object
    maps: MapCache


@functools.cache
def shared_kit() -> Kit:
    return Kit(environment(), MapCache())


class Game:
    """One seeded game in a judge folder, step by step; `violations` is what broke."""

    def __init__(self, root: Path, seed: int, kit: Kit | None = None):
        self.kit = kit or shared_kit()
        self.judge = Judge(root)
        self.judge.handler = MailHandler(self.judge.config, env=self.kit.env)
        self.judge.handler.maps = self.kit.maps  # the judge folder's own maps folder is empty
        self.seed = seed
        self.rng = random.Random(seed)
        self.now = START
        self.model = Model()
        self.log: list[str] = []
        self.violations: list[Violation] = []
        self.told_late: dict[tuple[str, str], datetime] = {}  # (phase, power) -> when
        self.told_master: Counter[str] = Counter()  # subjects the Master got
        self.keeper_told = 0
        self.checker = Checker(self)
        self.maps = self.kit.maps
        self.read: tuple[str, GameStatus] | None = None  # the status file last parsed, as text
        self.played: set[str] = set()  # the kinds of action played so far
        self.left = 0  # the steps the game has still to play
        self.outbox = open_spools(self.judge.config).outbox  # (opened once, as the daemon does)

    # --- the doors --------------------------------------------------------------------------
    def mail(self, sender: str, body: str) -> list[Sent]:
        self.now += timedelta(minutes=self.rng.randint(1, 9))
        self.log.append(f"{self.now:%d %H:%M} {sender}: {body.splitlines()[-1] if body else ''}")
        number = self.judge.mails_sent + 1
        mails = [Sent(m) for m in self.judge.send(sender, body, self.now)]
        self.checker.replied(sender, f"<m{number}@players.test>", mails)
        self.seen(mails)
        return mails

    def cycle(self, at: datetime, release: bool = False) -> None:
        """The daemon's tick at `at` (with `release`: `judge check --release`, the judgekeeper
        letting the held games go on): the games' mails through the outbox, the keeper's made
        from the report."""
        self.now = at
        config = self.judge.config
        report = run_cycle(self.judge.store, config, at, release=release, maps=self.kit.maps,
                           outbox=self.outbox, env=self.kit.env)
        self.log.append(f"{at:%d %H:%M} cycle{' --release' if release else ''}: "
                        + "; ".join(report.lines))
        alerts, problems = cycle_mails(report, config, self.kit.env)
        if problems:
            self.violate(f"the cycle's mails could not be made: {problems}")
        self.seen([Sent.of_bytes(raw) for raw in self.taken()] + [Sent(m) for m in alerts])

    def taken(self) -> list[bytes]:
        """The mails in the outbox as written, taken out of it (`Judge.take_outbox`)."""
        folder = self.judge.root / "spool" / "outbox"
        mails = []
        for path in sorted(folder.glob("*.eml")) if folder.is_dir() else []:
            mails.append(path.read_bytes())
            path.unlink()
        return mails

    def seen(self, mails: list[Sent]) -> None:
        self.checker.one_mail_an_event(mails)
        if not any(MASTER in m.to or KEEPER in m.to or m.subject.startswith(LATE) for m in mails):
            return
        status = self.status()
        for mail in mails:
            subject, to = mail.subject, mail.to
            if MASTER in to:
                self.told_master[subject] += 1
            if KEEPER in to:
                self.keeper_told += 1
            if status is not None and isinstance(status.phase, Phase) and subject.startswith(LATE):
                for block in status.powers:
                    if to & set(addresses_of(block, 10)):
                        self.told_late[(status.phase.abbrev, block.name)] = self.now
                if MASTER in to:
                    self.told_late[(status.phase.abbrev, "MASTER")] = self.now

    def status(self) -> GameStatus | None:
        """The game's status file as it stands, parsed again only when its text changed."""
        text = self.status_text()
        return None if text is None else self.parsed(text)

    def status_text(self) -> str | None:
        path = self.judge.root / "games" / GAME / "status"
        return path.read_text(encoding="utf-8") if path.exists() else None

    def parsed(self, text: str) -> GameStatus:
        if self.read is None or self.read[0] != text:
            self.read = (text, kept_status(text, "status"))  # parsed once for the judge and the checks
        return self.read[1]

    def violate(self, what: str) -> None:
        """Record what broke, once a game (a broken game stays broken step after step)."""
        if all(v.what != what for v in self.violations):
            self.violations.append(Violation(self.seed, len(self.log), what, tuple(self.log)))

    # --- the game ------------------------------------------------------------------------------
    def play(self, steps: int) -> list[Violation]:
        settings = self.rng.choice(SETTINGS)
        self.mail(MASTER, "\n".join([f"CREATE {GAME} {MASTER_PASSWORD}", "map standard", *settings,
                                     "form"]))
        for step in range(steps):
            self.left = steps - step
            try:
                status = self.status()
                if status is None or status.completed:
                    break
                action = self.pick(status)
                self.played.add(action.__name__)
                action(status)
                self.checker.after_step()
            except (JudgeError, ValueError, LookupError, OSError) as exc:  # a broken game: its end
                self.violate(f"{type(exc).__name__}: {exc}")
                break
        return self.violations

    def pick(self, status: GameStatus):
        if status.forming:  # (after a ROLLBACK FORMING the seats are taken: the Master goes on)
            return self.rng.choices([self.join, self.activate, self.rollforward], [10, 1, 1])[0]
        choices = [(self.orders, 30), (self.time_passes, 25), (self.master_process, 6),
                   (self.resign, 3), (self.takeover, 8 if status.need else 0), (self.vote, 4),
                   (self.set_address, 3), (self.set_password, 3), (self.absence, 2),
                   (self.rollback, 3), (self.rollforward, 2), (self.morph, 1), (self.wait, 2),
                   (self.activate, 6 if self.model.held else 1), (self.outage, 1)]
        actions, weights = zip(*[(a, w) for a, w in choices if w])
        # every kind of action in every game: those not played yet are drawn first, the more
        # likely the fewer steps are left for them
        missing = [a for a in actions if a.__name__ not in self.played]
        if missing and self.rng.random() < len(missing) / self.left:
            return self.rng.choice(missing)
        return self.rng.choices(actions, weights)[0]

    def join(self, status: GameStatus) -> None:
        n = len(self.model.joined)
        address, password = f"p{n}@players.test", f"pw{n}"
        self.model.joined[address] = password
        self.mail(address, f"JOIN {GAME} {password}")
        started = self.status()
        if started is not None and not started.forming:
            for block in started.powers:
                seat = block.player.current if block.player is not None else None
                if block.is_power and isinstance(seat, Dppd) and seat.email in self.model.joined:
                    self.model.seats[block.name] = Seat(seat.email, self.model.joined[seat.email])

    def player(self) -> tuple[str, Seat] | None:
        seated = sorted(self.model.seats.items())
        return self.rng.choice(seated) if seated else None

    def signed(self, power: str, seat: Seat, *lines: str) -> list[Sent]:
        return self.mail(seat.address, "\n".join([f"SIGNON {power.lower()}@{GAME} {seat.password}",
                                                 *lines]))

    def orders(self, status: GameStatus) -> None:
        found = self.player()
        if found is None or not isinstance(status.phase, Phase):
            return
        power, seat = found
        block = status.power(power)
        if block is None:
            return
        if status.phase.type == MOVEMENT:
            lines = [f"{unit} H" for unit in block.units]
        else:  # retreats and adjustments: whatever PROCESS! would default, or nothing
            lines = ["WAIVE"] if self.rng.random() < 0.5 else []
        self.signed(power, seat, *lines)

    def resign(self, status: GameStatus) -> None:
        found = self.player()
        if found is None:
            return
        power, seat = found
        mails = self.mail(seat.address, f"RESIGN {power.lower()}@{GAME} {seat.password}")
        if accepted(mails, seat.address):
            del self.model.seats[power]

    def takeover(self, status: GameStatus) -> None:
        power = self.rng.choice([n.power for n in status.need])
        self.model.newcomers += 1
        seat = Seat(f"new{self.model.newcomers}@players.test", f"newpw{self.model.newcomers}")
        mails = self.mail(seat.address, f"TAKEOVER {power.lower()}@{GAME} {seat.password}")
        if accepted(mails, seat.address):
            self.model.seats[power] = seat

    def vote(self, status: GameStatus) -> None:
        found = self.player()
        if found is not None:
            self.signed(*found, self.rng.choice(["VOTE SOLO", "VOTE LOSS", "VOTE NONE",
                                                 f"VOTE {self.rng.randint(2, 7)}WAY"]))

    def set_address(self, status: GameStatus) -> None:
        found = self.player()
        if found is None:
            return
        power, seat = found
        self.model.newcomers += 1
        moved = f"moved{self.model.newcomers}@players.test"
        if accepted(self.signed(power, seat, f"SET ADDRESS {moved}"), seat.address):
            seat.address = moved

    def set_password(self, status: GameStatus) -> None:
        found = self.player()
        if found is None:
            return
        power, seat = found
        new = f"{seat.password}x"
        if accepted(self.signed(power, seat, f"SET PASSWORD {new}"), seat.address):
            seat.password = new

    def absence(self, status: GameStatus) -> None:
        found = self.player()
        if found is not None:
            day = self.now + timedelta(days=self.rng.randint(1, 6))
            self.signed(*found, f"SET ABSENCE {day:%d %B %Y}")

    def master(self, *lines: str) -> list[Sent]:
        return self.mail(MASTER, "\n".join([f"SIGNON master@{GAME} {MASTER_PASSWORD}", *lines]))

    def master_process(self, status: GameStatus) -> None:
        self.master(self.rng.choice(["PROCESS", "PROCESS!"]))

    def rollback(self, status: GameStatus) -> None:
        self.master("ROLLBACK" + self.rng.choice(["", " RESTORE"]))

    def rollforward(self, status: GameStatus) -> None:
        self.master("ROLLFORWARD" + self.rng.choice(["", " RESTORE"]))

    def morph(self, status: GameStatus) -> None:
        self.master(f"MORPH VICTORY {self.rng.randint(14, 18)}")

    def wait(self, status: GameStatus) -> None:
        if accepted(self.master("WAIT"), MASTER):
            self.model.held = True

    def activate(self, status: GameStatus) -> None:
        if accepted(self.master("ACTIVATE"), MASTER):
            self.model.held = False

    def time_passes(self, status: GameStatus) -> None:
        """The daemon's cycles over a span of hours or days: each slot in which the game has
        something due (the cycles between do nothing to it)."""
        end = slot_of(self.now + timedelta(hours=self.rng.choice([1, 6, 24, 72])))
        last = self.last_cycle()
        for _ in range(CYCLES_PER_JUMP):
            due = self.next_due()
            if due is None:
                break
            at = max(slot_of(due), slot_of(self.now), last + SLOT if last else START)
            if at >= end:
                break
            self.cycle_after_idle(at)
            last = at
        self.cycle_after_idle(max(end, last + SLOT) if last else end)

    def last_cycle(self) -> datetime | None:
        return read_state(self.judge.root / "games")[0].last_run

    def cycle_after_idle(self, at: datetime) -> None:
        """A cycle at `at`, the cycles before it having run (none missed: no outage)."""
        root = self.judge.root / "games"
        state, _ = read_state(root)
        if state.last_run is not None and at - state.last_run > SLOT:
            state.last_run = at - SLOT
            write_state(root, state)
        self.cycle(at)

    def outage(self, status: GameStatus) -> None:
        """The judge down for days: the first cycle holds what fell due, the keeper releases it."""
        self.cycle(slot_of(self.now + timedelta(days=self.rng.randint(1, 4))))
        self.checker.after_step()
        self.cycle(self.now + timedelta(minutes=5), release=True)

    def next_due(self) -> datetime | None:
        status = self.status()
        if status is None:
            return None
        with self.judge.store.locked(GAME) as game:
            standing = read_standing(game, status)
        return agenda(status, self.maps.get(status.map_name, status.morphs), self.now, standing).next


class Checker:
    """The invariants, checked after every step of `game`."""

    def __init__(self, game: Game):
        self.game = game
        self.reloaded = ""  # the last status text found to read back to the same game

    def replied(self, sender: str, message_id: str, mails: list[Sent]) -> None:
        replies = [m for m in mails if m.in_reply_to == message_id
                   and sender in m.to and m.subject.startswith(ANSWERS)]
        if len(replies) != 1:
            self.game.violate(f"a mail from {sender} got {len(replies)} replies")

    def one_mail_an_event(self, mails: list[Sent]) -> None:
        # the same words twice (a dismissal of two powers tells of two resignations, as DPjudge);
        # only the mails of one subject to one reader need their words read
        alike = Counter((a, m.subject) for m in mails for a in m.to)
        twice = [key[:2] for key, n in Counter((a, m.subject, m.body) for m in mails for a in m.to
                                               if alike[(a, m.subject)] > 1).items() if n > 1]
        if twice:
            self.game.violate(f"mailed twice in one step: {twice}")

    def after_step(self) -> None:
        game = self.game
        text = game.status_text()
        if text is None:
            game.violate("the game's status file is gone")
            return
        status = game.parsed(text)
        if text != self.reloaded:  # (a step that changed nothing leaves it as checked)
            # `status` is this text parsed: written back the same, it reads back the same game
            if write_status(status) != text:
                game.violate("the status file does not read back to the same game")
            self.reloaded = text
        if status.completed or not isinstance(status.phase, Phase):
            return
        m = game.maps.get(status.map_name, status.morphs)
        with game.judge.store.locked(GAME) as folder:
            standing = read_standing(folder, status)
        held_by_outage = GAME in read_state(game.judge.root / "games")[0].held
        self.why_not_running(status, standing, held_by_outage)
        if not (status.need or standing.held or held_by_outage
                or status.phase_mode is PhaseMode.AWAIT):
            self.late_told(status, m, standing)

    def why_not_running(self, status: GameStatus, standing: Standing, outage: bool) -> None:
        game = self.game
        if standing.held != game.model.held:
            game.violate(f"the game's hold is {standing.state}, the Master's WAIT "
                         f"{'stands' if game.model.held else 'was never given or was undone'}")
        for need in status.need:
            block = status.power(need.power)
            if block is None or (block.player is not None
                                 and isinstance(block.player.current, Dppd)):
                game.violate(f"NEED {need.power}, but {need.power} is played")
        if status.need and not any(s.startswith(("Diplomacy resignation notice",
                                                 "Diplomacy player dismissal"))
                                   for s in game.told_master):
            game.violate("a vacancy the Master was never told of")
        if (status.phase_mode is PhaseMode.AWAIT or outage) and not game.keeper_told:
            game.violate("held after an error or an outage, the judgekeeper never told")

    def late_told(self, status: GameStatus, m, standing: Standing) -> None:
        game = self.game
        plan = agenda(status, m, game.now, standing)
        deadline = plan.times.deadline
        if deadline is None or game.now < deadline + SLOT or not isinstance(status.phase, Phase):
            return
        for power in plan.late:
            block = status.power(power)
            played = block is not None and block.player is not None \
                and isinstance(block.player.current, Dppd)
            # a power nobody plays (a dummy) has nobody to tell but the Master
            told = game.told_late.get((status.phase.abbrev, power if played else "MASTER"))
            if told is None or told < deadline:
                game.violate(f"{status.phase.abbrev}: {power} is late since {deadline:%d %H:%M} "
                             "and was never told")


def slot_of(moment: datetime) -> datetime:
    """The start of the twenty-minute slot after `moment` (the cycle that sees it)."""
    base = moment.replace(second=0, microsecond=0, minute=moment.minute - moment.minute % 20)
    return base if base == moment else base + SLOT


def header_of(mail: Message, name: str) -> str:
    """The header `name` ("" when there is none): as written when it is one line of plain ASCII
    (what the parse would give), else parsed (encoded words, folded lines)."""
    for key, value in mail.raw_items():
        if key.lower() == name.lower():
            text = str(value)
            if text.isascii() and "=?" not in text and "\n" not in text and "\r" not in text:
                return text.strip()
            return str(mail[name])
    return ""


def header_block(raw: bytes) -> tuple[Message, str]:
    """A written mail's header fields, each as the email package's parser keeps it, and the rest
    as text: an ASCII head with line feeds (as the judge writes its mails) split into its fields
    here, any other read by the parser (which costs more than the rest of the checks)."""
    head, blank, text = raw.partition(b"\n\n")
    if not blank or not head.isascii() or b"\r" in head or not text.isascii():
        parsed = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
        return parsed, str(parsed.get_payload())
    mail = EmailMessage()
    fields: list[list[str]] = []
    for line in head.decode("ascii").split("\n"):
        if line[:1] in (" ", "\t") and fields:
            fields[-1].append(line + "\n")
        else:
            fields.append([line + "\n"])
    for lines in fields:
        mail.set_raw(*policy.default.header_source_parse(lines))
    return mail, text.decode("ascii")


def body_of(mail: Message) -> str:
    part = mail.get_body(("plain",)) if isinstance(mail, EmailMessage) else None
    return part.get_content() if part is not None else ""


def accepted(mails: list[Sent], sender: str) -> bool:
    """Whether the reply to the mail (the first mail to its sender) reports no error."""
    for mail in mails:
        if sender in mail.to:
            return "ERROR" not in mail.body
    return False


# what a PNG or PDF the picture's child process would draw is replaced by: the mails carry a
# picture part all the same, without the child process (half a second a picture) drawing it
PICTURE_STANDIN = b"\x89PNG\r\n\x1a\n"
# and the SVG it is drawn from (a tenth of a game's CPU): no player here looks at a picture
SVG_STANDIN = '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1000"/>'


@contextmanager
def quick_judge() -> Iterator[None]:
    """Files written without waiting for the disk, passwords hashed at the least cost and pictures
    not drawn (`SVG_STANDIN`, `PICTURE_STANDIN`): what a crash, a stolen status file or a picture
    would do is not played here, and thousands of games are."""
    from unittest import mock

    from judge import passwords
    from judge.drawing import pictures
    from judge.runtime import picture_process

    derive = passwords._derive

    def cheap(given: str, salt: bytes, cost: int, block: int, parallel: int) -> bytes:
        return derive(given, salt, 1, block, parallel)

    def undrawn(worker: object, svg: str, kind: str, limits: object) -> bytes:
        return PICTURE_STANDIN

    def unseen(*args: object) -> str:
        return SVG_STANDIN

    def unsynced(fd: int) -> None:  # (a plain function: a mock records every call, at a cost)
        return None

    with mock.patch("os.fsync", unsynced), mock.patch.object(passwords, "_derive", cheap), \
            mock.patch.object(picture_process.PictureWorker, "draw", undrawn), \
            mock.patch.object(pictures, "draw_svg", unseen):
        yield


def play(root: Path, seed: int, steps: int) -> list[Violation]:
    with quick_judge():
        return Game(root, seed).play(steps)
