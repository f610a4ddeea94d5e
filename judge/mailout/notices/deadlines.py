"""Deadlines: set or moved, reminders before them, late notices after, civil disorder and dismissal
when the grace runs out, absences that keep deadlines away, and a new ZONE to read them in."""
from __future__ import annotations

from datetime import datetime

from judge import events as ev
from judge import notices
from judge.game import clock
from judge.mailout import views
from judge.mailout.audience import MASTER, Mailing, former_player
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion
from judge.timing import parse_timing
from judge.timing.zones import game_zone, to_wall
from judge.rule_names import Rule


def reminder(mail: GameMail, event: ev.Reminder, occasion: Occasion) -> list[Mailing]:
    mailings = []
    for power in event.powers:
        mailings += mail.mail(mail.people.of([power]), "reminder", power=mail.power(power),
                              phase=views.phase_view(event.phase), deadline=mail.when(event.deadline))
    return mailings


def late_notice(mail: GameMail, event: ev.LateNotice, occasion: Occasion) -> list[Mailing]:
    """The late powers get `deadline missed`; the Master, and in the deadline's own hour every
    other power, `late notice`. Under HIDE_LATE_POWERS each late power sees only itself and
    the others see no names."""
    hide = Rule.HIDE_LATE_POWERS in mail.rules
    context = {"phase": views.phase_view(event.phase), "deadline": mail.when(event.deadline),
               **_grace(mail)}
    late = views.powers(mail.map, event.late)
    mailings = []
    for power in late:
        mailings += mail.mail(mail.people.of([power.name]), "late_notice", reader_late=True,
                              late=(power,) if hide else late, **context)
    mailings += mail.mail(mail.people.master, "late_notice", reader_late=False, late=late, **context)
    if _same_hour(mail, event.deadline, occasion.now):
        others = [p for p in mail.people.players if p not in event.late]
        mailings += mail.mail(mail.people.of(others), "late_notice", reader_late=False,
                              late=() if hide else late, **context)
    return mailings


def _grace(mail: GameMail) -> dict[str, object]:
    """When late powers are dealt with, and the GRACE it comes after (None: no GRACE line)."""
    grace = clock.in_force(mail.status, mail.rules).grace_end
    if grace is None:
        return {"grace_end": None, "grace": None, "civil_disorder": False}
    return {"grace_end": mail.when(grace), "grace": parse_timing(mail.status.timing or "").grace,
            "civil_disorder": Rule.CIVIL_DISORDER in mail.rules}


def _same_hour(mail: GameMail, deadline: datetime | None, now: datetime | None) -> bool:
    """Whether `now` is in the deadline's clock hour on the game's wall clock."""
    if deadline is None or now is None:
        return False
    zone = game_zone(mail.status.zone)
    return to_wall(deadline, zone).replace(minute=0, second=0, microsecond=0) == \
        to_wall(now, zone).replace(minute=0, second=0, microsecond=0)


def deadline_set(mail: GameMail, event: ev.DeadlineSet, occasion: Occasion) -> list[Mailing]:
    by_power = mail.power(event.by) if event.by not in ("judge", MASTER) else None
    return mail.mail(mail.people.everyone(monitors=True), "deadline_changed", by=event.by,
                     by_power=by_power, hide_extender=Rule.HIDE_EXTENDERS in mail.rules,
                     phase=views.phase_view(event.phase), deadline=mail.when(event.deadline))


def dismissal(mail: GameMail, event: ev.Dismissal, occasion: Occasion) -> list[Mailing]:
    dismissed = [a for p in event.powers for a in former_player(mail.status, p)]
    return mail.mail([*mail.people.everyone(), *dismissed], "dismissal",
                     phase=views.phase_view(event.phase), powers=views.powers(mail.map, event.powers),
                     deadline=mail.when(event.deadline))


def civil_disorder(mail: GameMail, event: ev.CivilDisorder, occasion: Occasion) -> list[Mailing]:
    """The Master (DPjudge's CD notice), and each power in civil disorder of its own."""
    phase = views.phase_view(event.phase)
    mailings = mail.mail(mail.people.master, "cd_notice", phase=phase,
                         powers=views.powers(mail.map, event.powers))
    for power in event.powers:
        mailings += mail.mail(mail.people.of([power]), "cd_power", phase=phase, power=mail.power(power))
    return mailings


def absence(mail: GameMail, notice: notices.AbsenceSet, occasion: Occasion) -> list[Mailing]:
    """SET ABSENCE: everyone (the Master only under SILENT_ABSENCES); the Master sees who."""
    context = {"first": mail.when(notice.first), "last": mail.when(notice.last), "timed": notice.timed}
    others = [] if notice.master_only else [
        a for a in mail.people.everyone(master=False) if a not in mail.people.master]
    by = mail.power(notice.by) if notice.by else None
    return (mail.mail(others, "absence", by=by, **context)
            + mail.mail(mail.people.master, "absence", by=mail.power(notice.by_for_master), **context))


def zone_changed(mail: GameMail, notice: notices.ZoneChanged, occasion: Occasion) -> list[Mailing]:
    deadline = clock.deadline_in_force(mail.status, mail.rules)
    return mail.mail(mail.people.everyone(monitors=True), "zone_changed", zone=notice.zone,
                     deadline=views.local_time(deadline, notice.zone))


HANDLERS: tuple[Notifier, ...] = (
    Handler(ev.Reminder, reminder), Handler(ev.LateNotice, late_notice),
    Handler(ev.DeadlineSet, deadline_set), Handler(ev.Dismissal, dismissal),
    Handler(ev.CivilDisorder, civil_disorder), Handler(notices.AbsenceSet, absence),
    Handler(notices.ZoneChanged, zone_changed),
)
