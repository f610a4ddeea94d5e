"""Who gets which mail: the events of a game (judge.events, judge.notices) turned into
rendered mails and addresses.

`Mailer(env, status, map, judge=..., rules=...)` reads the game's people from its status file (the
status after the events) and `for_events(events, now)` returns `Mailing(recipients, rendered)`
values in a stable order (the sender keys each mail by its place in the list). Each kind of event
has one handler in its family's module (`judge.mailout.notices`), joined here into `HANDLERS`,
checked at import. Pure: no clock, no files; the words are the templates'.

A TESTER game's mail goes to the tester alone (`audience.for_tester`); judgekeeper alerts are not
game mail and always reach the judgekeeper. For the events of a mail, `replied` names those its
reply reached: they get no notice of what the reply told them (`Handler.told_by_reply`), and the
sender's order confirmation goes only with a reply (or, for a mail of orders only, in its place:
`Reply.said_by_confirmation`).
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import get_args

import jinja2

from judge import events as ev
from judge import notices
from judge.commands.reply import Reply
from judge.game import archive
from judge.mailout.audience import Mailing, PictureMail, bounded, for_tester, merged
from judge.mailout.game_mail import GameMail, Notifier, Occasion, handler_table
from judge.mailout.notices import deadlines, game_changes, keeper, lists, payola, press, results, seats
from judge.mailout.render import render

__all__ = ["EVENT_KINDS", "HANDLERS", "Mailer", "Mailing", "PictureMail", "bounded", "render_reply"]

# every kind of event a game's mail tells of
EVENT_KINDS: tuple[type, ...] = (*get_args(ev.Event), *get_args(notices.Notice))

HANDLERS = handler_table([*results.HANDLERS, *seats.HANDLERS, *deadlines.HANDLERS, *press.HANDLERS,
                          *game_changes.HANDLERS, *keeper.HANDLERS, *lists.HANDLERS, *payola.HANDLERS],
                         EVENT_KINDS)


class Mailer(GameMail):
    """The mailings of one game, from its status (after the events), map and rules in force."""

    def for_events(self, events: Sequence[object], now: datetime | None = None) -> list[Mailing]:
        """Every mail the events call for, in event order, TESTER applied. A game's completion
        travelling with its last results marks the winner in the adjustment table; `now` tells
        whether a late notice falls in the deadline's own hour."""
        occasion = Occasion(events, now)
        mailings: list[Mailing] = []
        for event in events:
            handler = HANDLERS.get(type(event))
            if handler is None:
                raise ValueError(f"no mailing for a {type(event).__name__} event")
            mailings += self._unreplied(handler, handler.mailings(self, event, occasion))
        return for_tester(merged(mailings), self.people.tester) + self.keeper_copies(events)

    def keeper_copies(self, events: Sequence[object]) -> list[Mailing]:
        """What the judgekeeper is told whatever TESTER says: games created on a trial map."""
        return [mailing for e in events if isinstance(e, notices.GameCreated) and e.trial and self.keeper
                for mailing in self.mail([self.keeper], "game_created", master=e.master,
                                         map_name=e.map_name, trial=e.trial)]

    def _unreplied(self, handler: Notifier, mailings: list[Mailing]) -> list[Mailing]:
        """The notice of what a mail did goes to those its reply did not tell: one mail a person."""
        if not handler.told_by_reply or not self.replied:
            return mailings
        kept = [Mailing(tuple(a for a in m.recipients if a.lower() not in self.replied), m.rendered)
                for m in mailings]
        return [m for m in kept if m.recipients]

    def archived(self, events: Sequence[object]) -> list[tuple[str, str | list[archive.Part]]]:
        """The results and completion mails among the events' mails, as the results archive keeps
        them (`judge.mailout.notices.results.archived`)."""
        return results.archived(self, events)

    def lists_kept(self, events: Sequence[object]) -> str:
        """What the game's lists file keeps of the events (`judge.mailout.notices.lists`)."""
        return lists.lists_kept(self, events)


def render_reply(env: jinja2.Environment, reply: Reply) -> tuple[str, str]:
    """Subject and body of the one answer to a mail, from reply.txt."""
    rendered = render(env, "reply", reply=reply)
    return rendered.subject, rendered.body
