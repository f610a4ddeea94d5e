"""The use case of press: a message from a power, an observer or the Master, checked against
every press rule of the game before anything is sent (the Master is bound by none), then routed:
who reads it and what they are told of its sender and recipients (`judge.game.press_routing`).
The door reads the request's words (`PressRequest`) and the body; a refused message goes nowhere.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from judge.app.game_in_hand import GameInHand, Kind, game_duties, in_movement, kind_of, late_powers, phase_of
from judge.app.orders import has_orders
from judge.app.refusal import Refusal
from judge.game.neighbours import Seen, remote, touching
from judge.game.press_routing import PressRouting, route
from judge.game.visibility import seers_of, units_seen
from judge.rule_names import Rule, Rules
from judge.status.model import GameStatus
from judge.types import MASTER


@dataclass(frozen=True)
class PressRequest:
    broadcast: bool
    to: tuple[str, ...] = ()
    fake_to: tuple[str, ...] | None = None
    fake_broadcast: bool = False
    claimed_from: str | None = None
    colour: str | None = None  # WHITE or GREY
    quiet: bool = False

    @property
    def faked(self) -> bool:
        return self.fake_to is not None or self.fake_broadcast or self.claimed_from is not None


def check(game: GameInHand, sender: str, request: PressRequest,
          pending: Mapping[str, list[str]]) -> None:
    """Refuse what the game's rules forbid `sender` to send; the Master may send anything.
    `pending`: the order lines given earlier in the same request, power by power (MUST_ORDER
    takes them as orders given)."""
    status, rules = game.status, game.rules
    kind = kind_of(status, sender)
    everyone = request.broadcast
    recipients = set(request.to)
    for name in recipients:
        if kind_of(status, name) is Kind.MONITOR:
            raise Refusal(f"{name} is a MONITOR, who receives no press")
    if request.fake_to is not None and not everyone and \
            (MASTER in recipients) != (MASTER in request.fake_to):
        raise Refusal("the Master must be among both the true and the FAKE recipients, or neither")
    if kind is Kind.MASTER:
        return
    if kind is Kind.MONITOR:
        raise Refusal("a MONITOR receives results only and may send no press")
    to_master = not everyone and recipients == {MASTER}
    if to_master:
        return
    private = not everyone
    if Rule.NO_PRESS in rules:
        raise Refusal("Private press allowed only to Master (NO_PRESS)" if private
                      else "No broadcasts in this game: press goes only to the Master (NO_PRESS)")
    # NO_PARTIAL is read as PUBLIC_PRESS with the game's rules, as DPjudge reads it, so it is never in force
    public_only = Rule.PUBLIC_PRESS in rules or status.forming or status.completed
    distance = phase_of(status) is not None and not status.completed and \
        bool({Rule.TOUCH_PRESS, Rule.REMOTE_PRESS} & rules)
    if distance:
        check_distance(game, sender, request, rules)
    elif private and public_only:
        raise Refusal("only BROADCAST and press to the Master are allowed in this game"
                      + ("" if Rule.PUBLIC_PRESS in rules else " while it is "
                         + ("forming" if status.forming else "completed")))
    if Rule.BACKSEAT_PRESS in rules:
        if kind is Kind.POWER:
            raise Refusal("map powers may send press only to the Master (BACKSEAT_PRESS)")
        if private:
            raise Refusal("only broadcasts and press to the Master (BACKSEAT_PRESS)")
    if Rule.MUTE_OBSERVERS in rules and kind is Kind.OBSERVER:
        raise Refusal("observers may send press only to the Master (MUTE_OBSERVERS)")
    late = late_powers(game)
    if Rule.FTF_PRESS in rules:
        if phase_of(status) is not None and not in_movement(status):
            raise Refusal("press only to the Master outside movement phases (FTF_PRESS)")
        if private and late:
            raise Refusal("no private press after the deadline (FTF_PRESS)")
    if kind is Kind.POWER:
        check_orders_rules(game, sender, rules, private, late, pending)
    if private and Rule.HIDE_DUMMIES not in rules:
        for name in request.to:
            if unread_dummy(status, name, sender):
                raise Refusal(f"Press to {name} impossible (a dummy power nobody reads)")
    if private and Rule.NO_LATE_RECEIVE in rules:
        for name in request.to:
            if name in late:
                raise Refusal(f"Private press may not be sent to late power ({name})")
    check_colour(request, rules, status)


def unread_dummy(status: GameStatus, name: str, sender: str) -> bool:
    """A dummy no other power controls: DPjudge offers no press to it, unless HIDE_DUMMIES keeps
    secret which powers are dummies."""
    block = status.power(name)
    if block is None or block.player is None or not block.player.dummy:
        return False
    return not block.control or block.control[0] in (MASTER, sender)


def check_distance(game: GameInHand, sender: str, request: PressRequest, rules: Rules
                   ) -> None:
    """TOUCH_PRESS and REMOTE_PRESS: private press only to the powers that touch the sender's (or
    that are remote from them), broadcasts only with PUBLIC_PRESS. In a BLIND game two powers
    touch only where each sees the other's unit, as DPjudge decides it."""
    rule = Rule.TOUCH_PRESS if Rule.TOUCH_PRESS in rules else Rule.REMOTE_PRESS
    if request.broadcast:
        if Rule.PUBLIC_PRESS not in rules:
            raise Refusal(f"Broadcast press not allowed ({rule})")
        return
    status = game.status
    mine = status.power(sender)
    near = touching if rule == Rule.TOUCH_PRESS else remote
    seen = sight(game, (sender, *request.to))
    for name in request.to:
        other = status.power(name)
        if name == MASTER or name == sender:
            continue
        if mine is None or other is None or not other.is_power or \
                not near(game.map, mine, other, seen):
            raise Refusal(f"Press to {name} impossible ({rule}: "
                          + ("no unit of yours touches theirs" if rule == Rule.TOUCH_PRESS else
                             "your units or centres are too close to theirs") + ")")


def sight(game: GameInHand, readers: tuple[str, ...]) -> Seen | None:
    """In a BLIND game, the units each reader sees now: touching powers must also see each
    other's units there."""
    if Rule.BLIND not in game.rules:
        return None
    status, m = game.status, game.map
    seers = seers_of(status, m)
    return {name: units_seen(m, game.rules, seers, name)
            for name in readers if status.power(name) is not None}


def check_orders_rules(game: GameInHand, sender: str, rules: Rules, private: bool,
                       late: tuple[str, ...], pending: Mapping[str, list[str]]) -> None:
    if Rule.MUST_ORDER in rules and phase_of(game.status) is not None:
        duties = game_duties(game)
        if sender in duties.due and not has_orders(game, sender, duties, pending.get(sender)):
            raise Refusal("Press disallowed before order submission (MUST_ORDER)")
    if private and sender in late and Rule.LATE_SEND not in rules:
        raise Refusal("Private press not allowed while late (your orders are overdue)")


def check_colour(request: PressRequest, rules: Rules, status: GameStatus) -> None:
    fake = Rule.FAKE_PRESS in rules
    if (request.fake_to is not None or request.fake_broadcast or request.claimed_from) and not fake:
        raise Refusal("Fake press not allowed in this game")
    if request.claimed_from is not None:
        if request.claimed_from == MASTER:
            raise Refusal("press may not claim to come FROM the Master")
        if kind_of(status, request.claimed_from) is Kind.MONITOR:
            raise Refusal("press may not claim to come FROM a MONITOR")
    if request.colour == "GREY" and not ({Rule.WHITE_GREY, Rule.FAKE_PRESS, Rule.GREY_PRESS} & rules):
        raise Refusal("Grey press not allowed in this game")
    if request.colour == "WHITE" and Rule.GREY_PRESS in rules and \
            not ({Rule.WHITE_GREY, Rule.FAKE_PRESS} & rules):
        raise Refusal("White press not allowed: all press is grey in this game (GREY_PRESS)")


def routed(game: GameInHand, sender: str, request: PressRequest, body: list[str]) -> PressRouting:
    """The routing of a `check`ed request's message; Refusal when it is empty."""
    if not body:
        raise Refusal("the message is empty: nothing was sent")
    return route(game.status, game.rules, sender, None if request.broadcast else request.to,
                 fake_to=request.fake_to, fake_broadcast=request.fake_broadcast,
                 claimed_from=request.claimed_from, colour=request.colour)
