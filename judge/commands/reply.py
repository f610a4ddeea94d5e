"""The results buffer: what each command of one mail came to, gathered into one reply.

GNU Mailman 3's idea: every command writes into one buffer, so each incoming mail gets exactly one
reply. The buffer holds data only; `judge.mailout.mailings.render_reply` turns it into text (from templates/reply.txt).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from judge.adjudicator.model import Position


@dataclass(frozen=True)
class PictureRequest:
    """A picture of a game's board to attach to the reply (MAP): the runner draws it. `seen`: the
    board as the reader may see it (a BLIND game in play; `full_sight` the powers it sees in
    full); None: the whole board."""

    game: str
    kind: str  # png, pdf or svg
    seen: Position | None = None
    full_sight: frozenset[str] = frozenset()
    unmade: str = field(default="", compare=False)  # said instead when it cannot be made
    unsent: str = field(default="", compare=False)  # said instead past the sender's reply limit


@dataclass(frozen=True)
class Outcome:
    """One command: the line as the sender wrote it (passwords masked), what came of it, and any
    quoted text (orders as stored, a press message's echo)."""

    command: str
    lines: tuple[str, ...] = ()
    quoted: tuple[str, ...] = ()
    ok: bool = True
    document: Document | None = None
    picture: PictureRequest | None = None
    kind: str = ""  # "signon", "orders" (a set stored: the order confirmation says the same)


class Document:
    """A text the reply carries as DPjudge mails it, neither indented nor wrapped (HISTORY, SUMMARY,
    LIST of a game): a view `templates/<template>` writes out."""

    template: ClassVar[str] = ""


@dataclass(frozen=True)
class Said:
    """What a command reports: lines of prose, lines quoted (orders, press), and a document."""

    lines: tuple[str, ...] = ()
    quoted: tuple[str, ...] = ()
    document: Document | None = None
    picture: PictureRequest | None = None


def said(*lines: str, quoted: tuple[str, ...] | list[str] = (), document: Document | None = None,
         picture: PictureRequest | None = None) -> Said:
    return Said(tuple(lines), tuple(quoted), document, picture)


@dataclass(frozen=True)
class Reply:
    """Everything the answer to one mail says, and to whom."""

    to: tuple[str, ...]
    subject: str = ""
    game: str | None = None
    cc: tuple[str, ...] = ()  # registered addresses of a power signed on from elsewhere
    notes: tuple[str, ...] = ()  # about the mail itself: HTML only, too long...
    quoted_from: str = ""  # the line where a quoted mail began and reading stopped
    outcomes: tuple[Outcome, ...] = ()
    unprocessed: tuple[str, ...] = ()  # the lines after an error, not acted on
    failed: bool = False
    overlong: tuple[str, ...] = ()  # blocks of the game in hand with more addresses than mailed
    authenticated: bool = False  # the mail gave a right password (its sender holds it)

    @property
    def recipients(self) -> tuple[str, ...]:
        return self.to + tuple(a for a in self.cc if a not in self.to)

    @property
    def said_by_confirmation(self) -> bool:
        """A mail that only signed on and stored orders: its order confirmation says all the reply
        would, and DPjudge mails the sender that confirmation alone."""
        kinds = {o.kind for o in self.outcomes}
        return not (self.failed or self.notes or self.unprocessed or self.quoted_from) \
            and "orders" in kinds \
            and kinds <= {"signon", "orders"}

    @property
    def pictures(self) -> tuple[PictureRequest, ...]:
        """The pictures the reply carries (MAP), unless the mail failed and nothing is sent but why."""
        return () if self.failed else tuple(o.picture for o in self.outcomes if o.picture is not None)


@dataclass
class Results:
    """The buffer commands write into while one mail is processed."""

    notes: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    unprocessed: list[str] = field(default_factory=list)
    failed: bool = False

    def add(self, command: str, *lines: str, quoted: tuple[str, ...] | list[str] = (),
            document: Document | None = None, picture: PictureRequest | None = None,
            kind: str = "") -> None:
        self.outcomes.append(Outcome(command, tuple(lines), tuple(quoted), document=document,
                                     picture=picture, kind=kind))

    def fail(self, command: str, reason: str, *more: str, quoted: tuple[str, ...] = ()) -> None:
        self.outcomes.append(Outcome(command, (reason,) + more, tuple(quoted), ok=False))
        self.failed = True

    def note(self, text: str) -> None:
        self.notes.append(text)

    def reply(self, to: tuple[str, ...], subject: str, game: str | None,
              cc: tuple[str, ...] = (), overlong: tuple[str, ...] = (),
              authenticated: bool = False) -> Reply:
        return Reply(to=to, subject=subject, game=game, cc=cc, notes=tuple(self.notes),
                     outcomes=tuple(self.outcomes), unprocessed=tuple(self.unprocessed),
                     failed=self.failed, overlong=overlong, authenticated=authenticated)


def not_attached(reply: Reply, request: PictureRequest, line: str) -> Reply:
    """The reply once the picture `request` is not attached after all: the line that said it is
    says `line` instead (`PictureRequest.unmade` or `unsent`), and no picture is asked for."""
    outcomes = tuple(replace(o, lines=(line,), picture=None) if o.picture == request
                     else o for o in reply.outcomes)
    return replace(reply, outcomes=outcomes)
