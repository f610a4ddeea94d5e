"""What the judgekeeper is told: games created (on a trial map especially), a phase the judge
could not adjudicate, an outage, a disk refusing writes, mail that could not be read or delivered.
A game's creation goes to the map's NOTIFY addresses too."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import jinja2

from judge import notices
from judge.mailout import views
from judge.mailout.audience import Mailing
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion
from judge.mailout.render import render
from judge.types import Phase


def created(mail: GameMail, notice: notices.GameCreated, occasion: Occasion) -> list[Mailing]:
    """The map's NOTIFY addresses (the judgekeeper's copy of a trial map's game:
    `judge.mailout.mailings.Mailer.keeper_copies`, whatever TESTER says)."""
    return mail.mail(notice.notify, "game_created", master=notice.master, map_name=notice.map_name,
                     trial=notice.trial)


def adjudication_error(mail: GameMail, keeper: str, phase: Phase, error: str) -> list[Mailing]:
    """A phase the judge failed to process: the game waits (AWAIT) for the judgekeeper."""
    return mail.mail([keeper], "adjudication_error", phase=views.phase_view(phase), error=error)


def status_errors(env: jinja2.Environment, keeper: str, judge: str, game: str, master: str | None,
                  problems: Sequence[str]) -> list[Mailing]:
    """A game's status file has errors (the judge leaves the game alone): to its Master, as far
    as the file names one, and to the judgekeeper."""
    to = (master,) if master and master != keeper else ()
    return [Mailing((*to, keeper), render(env, "status_errors", game=views.GameView(judge, game, "", "GMT"),
                                          problems=list(problems)))]


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


HANDLERS: tuple[Notifier, ...] = (Handler(notices.GameCreated, created),)
