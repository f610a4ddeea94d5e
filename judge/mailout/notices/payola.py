"""Payola's mails, each to one power alone: after each movement phase its account statement, at
each year's end its income report (none for a power left with no money, as in DPjudge), and after
a transfer the account of it to the receiver and to the giver."""
from __future__ import annotations

from judge import events as ev
from judge.mailout import views
from judge.mailout.audience import Mailing
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion


def bribes_settled(mail: GameMail, event: ev.BribesSettled, occasion: Occasion) -> list[Mailing]:
    return [m for s in event.statements
            for m in mail.mail(mail.people.of([s.power]), "bribe_statement", phase=views.phase_view(event.phase),
                               phase_line=str(event.phase).upper(), s=s)]


def income_paid(mail: GameMail, event: ev.IncomePaid, occasion: Occasion) -> list[Mailing]:
    return [m for power, before, earned, after in event.reports if after
            for m in mail.mail(mail.people.of([power]), "income_report", year=event.year, power=power,
                               before=before, earned=earned, after=after)]


def funds_transferred(mail: GameMail, event: ev.FundsTransferred, occasion: Occasion) -> list[Mailing]:
    """The receiver's account first (naming the giver unless ANON_TRANSFER), then the giver's."""
    source = "SOMEONE" if event.anonymous else event.giver
    accounts = ((event.receiver, event.receiver_before, f"TRANSFER FROM {source}", event.amount),
                (event.giver, event.giver_before, f"TRANSFER TO {event.receiver}", -event.amount))
    return [m for power, before, what, change in accounts
            for m in mail.mail(mail.people.of([power]), "funds_transfer", power=power, before=before,
                               what=what, amount=event.amount, after=before + change)]


HANDLERS: tuple[Notifier, ...] = (Handler(ev.BribesSettled, bribes_settled), Handler(ev.IncomePaid, income_paid),
                                  Handler(ev.FundsTransferred, funds_transferred))
