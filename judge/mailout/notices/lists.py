"""Crystal Ball's lists told to everyone: the lock when the first lists are all in, and under
PUBLIC_LISTS each phase's lists as processing read them."""
from __future__ import annotations

from judge import events as ev
from judge.commands import notices
from judge.mailout import views
from judge.mailout.audience import Mailing
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion
from judge.rule_names import Rule


def lists_played(mail: GameMail, event: ev.ListsPlayed, occasion: Occasion) -> list[Mailing]:
    """PUBLIC_LISTS: a Crystal Ball phase's locked lists with each line's fate, to everyone, the
    Master too; under LIMIT_LISTS only a power's first lines, one more than the largest power
    has centres (as DPjudge counts them). Without PUBLIC_LISTS, nobody (LIMIT_LISTS alone
    publishes nothing, as in DPjudge)."""
    if Rule.PUBLIC_LISTS not in mail.rules:
        return []
    shown = event.largest + 1 if Rule.LIMIT_LISTS in mail.rules else None
    lists = [(mail.power(p), lines[:shown]) for p, lines in event.lists]
    return mail.mail(mail.people.everyone(), "lists_played", phase=views.phase_view(event.phase),
                     phase_line=str(event.phase), lists=lists)


def lists_locked(mail: GameMail, notice: notices.ListsLocked, occasion: Occasion) -> list[Mailing]:
    """Crystal Ball's first lists all in: everyone told, the Master too (DPjudge's broadcast)."""
    return mail.mail(mail.people.everyone(), "lists_locked", deadline=mail.when(notice.deadline))


HANDLERS: tuple[Notifier, ...] = (Handler(ev.ListsPlayed, lists_played), Handler(notices.ListsLocked, lists_locked))
