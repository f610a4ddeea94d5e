"""Payola's mails: after each movement phase, each power's account statement, to that power alone."""
from __future__ import annotations

from judge import events as ev
from judge.mailout import views
from judge.mailout.audience import Mailing
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion


def bribes_settled(mail: GameMail, event: ev.BribesSettled, occasion: Occasion) -> list[Mailing]:
    return [m for s in event.statements
            for m in mail.mail(mail.people.of([s.power]), "bribe_statement", phase=views.phase_view(event.phase),
                               phase_line=str(event.phase).upper(), s=s)]


HANDLERS: tuple[Notifier, ...] = (Handler(ev.BribesSettled, bribes_settled),)
