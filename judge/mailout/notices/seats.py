"""Players coming and going: joining and leaving a forming game, resignations, takeovers, dummies,
votes, rotated control, and the passwords of a seat."""
from __future__ import annotations

from judge import events as ev
from judge import notices
from judge.mailout import views
from judge.mailout.audience import Mailing
from judge.mailout.game_mail import GameMail, Handler, Notifier, Occasion
from judge.rule_names import Rule


def joined(mail: GameMail, event: ev.PlayerJoined, occasion: Occasion) -> list[Mailing]:
    mailings = mail.mail([event.player.email], "joined", seat=event.seat, remaining=event.remaining)
    if Rule.SILENT_JOIN not in mail.rules:
        others = [a for a in mail.people.everyone() if a.lower() != event.player.email.lower()]
        mailings += mail.mail(others, "join_notice", seat=event.seat, remaining=event.remaining)
    return mailings


def left(mail: GameMail, event: ev.PlayerLeft, occasion: Occasion) -> list[Mailing]:
    player = [event.player.email] if event.player else []
    return (mail.mail(player, "left", reader="player", seat=event.seat, player=event.player)
            + mail.mail(mail.people.master, "left", reader="master", seat=event.seat,
                        player=event.player))


def full(mail: GameMail, event: ev.GameFull, occasion: Occasion) -> list[Mailing]:
    return mail.mail(mail.people.master, "game_full")


def resigned(mail: GameMail, event: ev.Resigned, occasion: Occasion) -> list[Mailing]:
    """The player and the Master; every other player and observer too (as DPjudge), unless
    the power was out of the game already."""
    context = {"power": mail.power(event.power), "player": event.player, "by_master": event.by_master}
    player = [event.player.email] if event.player else []
    block = mail.status.power(event.power)
    others = [a for a in mail.people.everyone(master=False)
              if a not in player and a not in mail.people.master] \
        if block is not None and (block.units or block.owns) else []
    return (mail.mail(player, "resignation", reader="player", **context)
            + mail.mail(mail.people.master, "resignation", reader="master", **context)
            + mail.mail(others, "resignation", reader="others", **context))


def took_over(mail: GameMail, event: ev.TookOver, occasion: Occasion) -> list[Mailing]:
    context = {"power": mail.power(event.power), "player": event.player}
    player = [event.player.email, *mail.people.of([event.power])]
    others = [a for a in mail.people.everyone(master=False)
              if a not in player and a not in mail.people.master]
    return (mail.mail(player, "takeover", reader="player", **context)
            + mail.mail(mail.people.master, "takeover", reader="master", **context)
            + mail.mail(others, "takeover", reader="others", **context))


def dummied(mail: GameMail, event: ev.Dummied, occasion: Occasion) -> list[Mailing]:
    context = {"power": mail.power(event.power), "player": event.player}
    player = [event.player.email] if event.player else []
    return (mail.mail(player, "dummy_notice", reader="player", **context)
            + mail.mail(mail.people.master, "dummy_notice", reader="master", **context))


def vote(mail: GameMail, event: ev.VoteCast, occasion: Occasion) -> list[Mailing]:
    context = {"power": mail.power(event.power), "vote": str(event.vote) if event.vote else None,
               "proposal": event.proposal, "vetoed": event.vetoed,
               "hide_proposer": Rule.HIDE_PROPOSER in mail.rules}
    if event.proposal:
        return mail.mail([*mail.people.of(mail.people.players), *mail.people.master], "vote", **context)
    return mail.mail(mail.people.of([event.power]), "vote", **context)


def rotated(mail: GameMail, event: ev.ControlRotated, occasion: Occasion) -> list[Mailing]:
    changes = [(mail.power(p), mail.power(c)) for p, c in sorted(event.controllers.items())]
    to = [*mail.people.of(event.controllers.values()), *mail.people.master]
    return mail.mail(to, "control_rotated", phase=views.phase_view(event.phase), changes=changes)


def master_changed(mail: GameMail, notice: notices.MasterChanged, occasion: Occasion) -> list[Mailing]:
    old = [a for a in notice.old_addresses if a.lower() != notice.new_address.lower()]
    return (mail.mail(old, "master_changed", reader="old", new_address=notice.new_address)
            + mail.mail([notice.new_address], "master_changed", reader="new",
                        new_address=notice.new_address))


def password_set(mail: GameMail, notice: notices.PasswordSet, occasion: Occasion) -> list[Mailing]:
    return mail.mail(notice.addresses, "password_set", power=mail.power(notice.power),
                     password=notice.password)


def passwords_paused(mail: GameMail, notice: notices.PasswordsPaused, occasion: Occasion) -> list[Mailing]:
    """To the secret's owner's registered addresses only: the code must never reach a forger."""
    return mail.mail(notice.addresses, "passwords_paused", power=mail.power(notice.role),
                     signon=f"{notice.role.lower()}@{notice.game}", attempts=notice.attempts,
                     senders=notice.senders, since=mail.when(notice.since),
                     until=mail.when(notice.until), code=notice.code, kind=notice.kind)


HANDLERS: tuple[Notifier, ...] = (
    Handler(ev.PlayerJoined, joined, told_by_reply=True),
    Handler(ev.PlayerLeft, left, told_by_reply=True),
    Handler(ev.GameFull, full),
    Handler(ev.Resigned, resigned, told_by_reply=True),
    Handler(ev.TookOver, took_over, told_by_reply=True),
    Handler(ev.Dummied, dummied),
    Handler(ev.VoteCast, vote, told_by_reply=True),
    Handler(ev.ControlRotated, rotated),
    Handler(notices.MasterChanged, master_changed),
    Handler(notices.PasswordSet, password_set),
    Handler(notices.PasswordsPaused, passwords_paused),
)
