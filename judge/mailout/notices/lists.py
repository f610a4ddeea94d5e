"""Crystal Ball's lists told to everyone: the lock when the first lists are all in, and under
PUBLIC_LISTS each phase's lists as processing read them."""
from __future__ import annotations

from collections.abc import Sequence

from judge import events as ev
from judge import notices
from judge.mailout import views
from judge.mailout.audience import Mailing
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion
from judge.rule_names import Rule


def lists_played(mail: GameMail, event: ev.ListsPlayed, occasion: Occasion) -> list[Mailing]:
    """PUBLIC_LISTS: a Crystal Ball phase's locked lists with each line's fate, to everyone, the
    Master too. Without PUBLIC_LISTS, nobody (LIMIT_LISTS alone publishes nothing, as in
    DPjudge)."""
    if Rule.PUBLIC_LISTS not in mail.rules:
        return []
    return mail.mail(mail.people.everyone(), "lists_played", **_lists_context(mail, event))


def lists_kept(mail: GameMail, events: Sequence[object]) -> str:
    """What the game's lists file keeps of the events: each phase's locked lists as PUBLIC_LISTS
    mails them, whatever the rules (DPjudge keeps them so)."""
    return "".join(mail.render("lists_played", **_lists_context(mail, e)).body
                   for e in events if isinstance(e, ev.ListsPlayed))


def _lists_context(mail: GameMail, event: ev.ListsPlayed) -> dict[str, object]:
    """The lists as told: under LIMIT_LISTS only a power's first lines, one more than the
    largest power has centres (as DPjudge counts them)."""
    shown = event.largest + 1 if Rule.LIMIT_LISTS in mail.rules else None
    return {"phase": views.phase_view(event.phase), "phase_line": str(event.phase),
            "lists": [(mail.power(p), lines[:shown]) for p, lines in event.lists]}


def lists_locked(mail: GameMail, notice: notices.ListsLocked, occasion: Occasion) -> list[Mailing]:
    """Crystal Ball's first lists all in: everyone told, the Master too (DPjudge's broadcast)."""
    return mail.mail(mail.people.everyone(), "lists_locked", deadline=mail.when(notice.deadline))


HANDLERS: tuple[Notifier, ...] = (Handler(ev.ListsPlayed, lists_played), Handler(notices.ListsLocked, lists_locked))
