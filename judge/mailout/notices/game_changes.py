"""The Master's changes to a game that everyone in it is told of: its state, the centres needed to
win, its name."""
from __future__ import annotations

from judge import notices
from judge.mailout.audience import Mailing
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion


def state_changed(mail: GameMail, notice: notices.StateChanged, occasion: Occasion) -> list[Mailing]:
    return mail.mail(mail.people.everyone(), "state_changed", state=notice.state.lower())


def victory_changed(mail: GameMail, notice: notices.VictoryChanged, occasion: Occasion) -> list[Mailing]:
    return mail.mail(mail.people.everyone(monitors=True), "victory_changed", year=notice.year,
                     before=notice.before, after=notice.after)


def renamed(mail: GameMail, notice: notices.GameRenamed, occasion: Occasion) -> list[Mailing]:
    return mail.mail(notice.addresses, "game_renamed", old_name=notice.old_name)


HANDLERS: tuple[Notifier, ...] = (
    Handler(notices.StateChanged, state_changed, told_by_reply=True),
    Handler(notices.VictoryChanged, victory_changed),
    Handler(notices.GameRenamed, renamed),
)
