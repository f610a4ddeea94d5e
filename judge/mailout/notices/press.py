"""What players send to each other through the judge: press (its readers decided once,
`judge.game.press_routing`), the Master's OFFICIAL press, and order confirmations."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from judge import notices
from judge.game import clock
from judge.game.press_routing import PressRouting
from judge.mailout import views
from judge.mailout.audience import Mailing, unique
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion
from judge.types import MASTER, Phase
from judge.rule_names import Rule


def press(mail: GameMail, notice: notices.Press, occasion: Occasion) -> list[Mailing]:
    """The readers' copies of a press message (the sender's is in the reply to the mail): they see
    the sender and recipients they are told of, those who know see the truth."""
    body = "\n".join(notice.body)
    routing = notice.routing
    readers, knowing = addresses(mail, notice.sender, routing)
    if notice.official is not None:
        return mail.mail([*readers, *knowing], "official", subject=notice.official, body=body)
    context = {"sender": mail.power(routing.shown_from) if routing.shown_from else None,
               "broadcast": routing.shown_to is None,
               "to": views.powers(mail.map, routing.shown_to or ()), "body": body}
    truth = {"sender": mail.power(notice.sender), "to": views.powers(mail.map, routing.to or ())}
    return (mail.mail(readers, "press", truth=None, **context)
            + mail.mail(knowing, "press", truth=truth, **context))


def addresses(mail: GameMail, sender: str, routing: PressRouting) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Where the readers' copies go and where the true one goes; none to the sender's own
    addresses, nor twice to anyone."""
    own = mail.people.of([sender])
    knowing = mail.people.of(routing.knowing)
    readers = [a for a in mail.people.of(routing.readers) if a not in knowing and a not in own]
    return tuple(readers), tuple(a for a in unique(knowing) if a not in own)


def orders(mail: GameMail, power: str, phase: Phase, lines: Sequence[str], *,
           deadline: datetime | None = None, sender: str | None = None, lists: str = "",
           later: Sequence[str] = (), controlled: Sequence[notices.Confirmed] = ()) -> list[Mailing]:
    """An order confirmation of the seat `power` (its orders, then those of the powers it
    controls), as DPjudge sends it: to the sender and the seat's ADDRESS, the Master too under
    ALWAYS_CONFIRM; to everyone under BROADCAST_ORDERS, except in a BLIND game, where that would
    tell everyone where the powers' units stand."""
    if Rule.BROADCAST_ORDERS in mail.rules and Rule.BLIND not in mail.rules:
        to = mail.people.everyone()
    else:
        to = ((sender,) if sender else ()) + seat_addresses(mail, power) + \
            (mail.people.master if Rule.ALWAYS_CONFIRM in mail.rules else ())
    sections = [section(mail, notices.Confirmed(power, tuple(lines), tuple(later)), lists if power != MASTER else ""),
                *(section(mail, c, lists) for c in controlled)]
    return mail.mail(to, "orders", phase=views.phase_view(phase), deadline=mail.when(deadline), sections=sections)


def section(mail: GameMail, confirmed: notices.Confirmed, lists: str) -> dict:
    """One power's part of a confirmation (the Master's seat has no orders of its own)."""
    return {"power": mail.power(confirmed.power), "lines": confirmed.lines, "later": confirmed.later,
            "lists": lists}


def seat_addresses(mail: GameMail, seat: str) -> tuple[str, ...]:
    """The seat's own addresses, where DPjudge copies its confirmation: its ADDRESS line (the
    Master's for the Master), never its player's address alone nor its controller's."""
    if seat == MASTER:
        return mail.people.master
    block = mail.status.power(seat)
    return mail.people.of([seat]) if block is not None and block.address else ()


def orders_stored(mail: GameMail, notice: notices.OrdersStored, occasion: Occasion) -> list[Mailing]:
    """The command layer's OrdersStored: the deadline shown is the phase's, while it lasts.
    The sender's address gets it only with the reply: the sender's reply limit holds both."""
    deadline = clock.deadline_in_force(mail.status, mail.rules) if mail.status.phase == notice.phase else None
    mailings = orders(mail, notice.power, notice.phase, notice.lines, deadline=deadline, sender=notice.sender,
                      lists=notice.lists, later=notice.later, controlled=notice.controlled)
    if notice.sender.lower() in mail.replied:
        return mailings
    return [m for m in (Mailing(tuple(a for a in m.recipients if a.lower() != notice.sender.lower()), m.rendered)
                        for m in mailings) if m.recipients]


HANDLERS: tuple[Notifier, ...] = (Handler(notices.Press, press), Handler(notices.OrdersStored, orders_stored))
