"""Order lines after a SIGNON, CLEAR and NMR, STATUS, and a line naming a power: the mail's syntax,
the use case of orders being `judge.app.orders`.

Order lines are gathered until the next command of the mail (or its end) and then stored, each
power's lines of the whole mail so far as a complete replacement of its orders for the phase: the
reply follows the mail's order, and a STATUS after orders shows them. Every line that cannot be
accepted is reported together, and then none are stored and the rest of the mail is not done.
A line naming a power switches the power the following orders are for: the Master
may name any power, a player the powers it controls (dummies on its CONTROL line or in its TEAM).
"""
from __future__ import annotations

from judge.app.game_in_hand import phase_name, phase_of
from judge.app.orders import orderable_phase, stored_orders
from judge.app.orders import submit as submit_orders
from judge.commands.auth import Level
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.notices import Confirmed, ListsLocked, OrdersStored
from judge.game.order_lists import plays_lists
from judge.game.orders import plays_offers
from judge.game.positions import alive
from judge.game.python2_order import python2_order
from judge.game.rules import rules_in_force
from judge.orders.power_orders import CLEAR_WORDS
from judge.rule_names import Rule
from judge.status.model import GameStatus, Layout
from judge.status.writer import adjustment_text
from judge.types import MASTER, MOVEMENT, Phase


def submit(session: Session, power: str, lines: list[str]) -> Said:
    """Store the power's order lines of this mail (the end of the mail calls this)."""
    stored = submit_orders(session.in_hand(), power, lines)
    session.update(stored.status)
    if stored.locked:
        session.emit(ListsLocked(session.game or "", stored.lock_deadline))
    if not stored.on_file:
        return said(f"The orders of {power} for {stored.turn} are cleared.")
    return said(f"The orders of {power} for {stored.turn} are now:", quoted=list(stored.on_file))


def store_pending(session: Session) -> bool:
    """Store the order lines gathered since the last command, power by power: each power's whole
    set of this mail so far replaces its orders. False when a set is refused (the mail stops)."""
    stored = False
    for power, lines in session.orders.items():
        if session.submitted.get(power) == len(lines):
            continue
        count = sum(1 for line in lines if line.strip() and line.strip().upper() not in CLEAR_WORDS)
        echo = f"{count} order line{'s' if count != 1 else ''} for {power}" if count \
            else f"CLEAR for {power}"
        try:
            outcome = submit(session, power, lines)
        except Refusal as refusal:
            session.results.fail(echo, refusal.reason, *refusal.details)
            return False
        session.results.add(echo, *outcome.lines, quoted=outcome.quoted,
                            document=outcome.document, kind="orders")
        session.stored.add(power)
        session.submitted[power] = len(lines)
        stored = True
    if stored:
        confirm(session)
    return True


def confirm(session: Session) -> None:
    """The order confirmation of the orders just stored (the mail layer sends it): DPjudge's, of
    the seat signed on, whichever power's orders the mail gave. It lists the seat's own orders and
    then those of every power it controls still on the board (the Master's: every such power)."""
    status = session.current()
    phase = phase_of(status)
    if phase is None or session.role is None:
        return
    seat = MASTER if session.acting_as_master else session.role
    no_check = Rule.NO_CHECK in rules_in_force(status, session.map)
    own = confirmed(status, phase, seat, no_check)
    lists = ("first" if phase == session.map.begin else "ahead") \
        if phase.type == MOVEMENT and plays_lists(status) else ""
    notice = OrdersStored(session.game or "", seat, phase, own.lines, session.sender, lists, own.later,
                          tuple(confirmed(status, phase, p, no_check) for p in vassals(status, seat)))
    # one confirmation a mail, as DPjudge sends it: the last, of every order the mail stored
    session.events[:] = [e for e in session.events if not (isinstance(e, OrdersStored) and
                                                          (e.game, e.power) == (notice.game, notice.power))]
    session.emit(notice)


def vassals(status: GameStatus, seat: str) -> list[str]:
    """The powers whose orders follow the seat's own in its confirmation, in file order."""
    return [b.name for b in status.powers if b.is_power and b.name != seat and alive(b)
            and (seat == MASTER or status.controls(seat, b.name))]


def confirmed(status: GameStatus, phase: Phase, power: str, no_check: bool) -> Confirmed:
    """A power's orders as its confirmation shows them (none for the Master's own seat)."""
    block = status.power(power)
    if block is None:
        return Confirmed(power, ())
    if phase.type == MOVEMENT and plays_lists(status):
        return Confirmed(power, block.sooner or (), block.later or ())
    if phase.type == MOVEMENT and plays_offers(status):
        return Confirmed(power, block.offers)
    if phase.type == MOVEMENT:
        return Confirmed(power, as_dpjudge_lists(block.orders or (), no_check))
    # as the status file keeps them: a game moved from DPjudge is told DPjudge's lines
    return Confirmed(power, tuple(adjustment_text(a, status.layout is Layout.DPJUDGE) for a in block.adjustments))


def as_dpjudge_lists(orders: tuple[str, ...], no_check: bool) -> tuple[str, ...]:
    """Movement orders in the order DPjudge lists them: that of its (Python 2) dictionary of the
    orders, by unit (`A PAR`), or under NO_CHECK by number (`ORDER 1`, `ORDER 2`, ...)."""
    keys = [f"ORDER {n}" for n in range(1, len(orders) + 1)] if no_check \
        else [" ".join(line.split()[:2]) for line in orders]
    by_key = dict(zip(keys, orders))
    if len(by_key) != len(orders):  # a unit ordered twice: DPjudge would have kept one
        return orders
    return tuple(by_key[key] for key in python2_order(keys))


# -- lines of the mail -----------------------------------------------------------------------
def order_line(session: Session, line: str) -> None:
    """Keep an order line for the end of the mail."""
    if session.target is None:
        if session.acting_as_master:
            raise Refusal(f"{line!r} is not a command; to give orders, first write a line naming "
                          "the power they are for")
        raise Refusal(f"{line!r} is not a command (and {session.role} gives no orders)")
    if session.level < Level.POWER:
        raise Refusal("an omniscient password gives read-only access: orders are refused")
    session.orders.setdefault(session.target, []).append(line)


def switch_target(session: Session, power: str) -> Said:
    """A line naming a power: the orders after it are that power's."""
    status = session.current()
    if not (session.is_master or power == session.role or
            (session.role is not None and status.controls(session.role, power))):
        raise Refusal(f"you do not control {power}: only the Master or its controller may give "
                      "its orders")
    session.target = power
    return said(f"The orders that follow are for {power}.")


class Clear(Command):
    name = "CLEAR"
    words = ("CLEAR", "NMR")
    help = "CLEAR (or NMR): no orders for the power (with orders after it: those orders only)"
    stage = Stage.AFTER

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        if args:
            raise Refusal("CLEAR takes nothing after it")
        if session.target is None:
            raise Refusal("name the power whose orders to clear first")
        orderable_phase(session.in_hand())
        session.orders.setdefault(session.target, []).append("CLEAR")
        return said(f"The orders of {session.target} given so far are dropped; the orders after "
                    "this line (if any) replace them.")


class Status(Command):
    name = "STATUS"
    help = "STATUS: the orders on file"
    stage = Stage.AFTER
    level = Level.OMNISCIENT
    writes = False

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        status = session.current()
        phase = phase_of(status)
        if phase is None:
            return said(f"Game '{session.game}' is {phase_name(status)}: "
                        "no orders are on file.")
        powers = [session.target] if session.target else \
            [b.name for b in status.powers if b.is_power]
        quoted: list[str] = []
        for power in powers:
            assert power is not None
            on_file = stored_orders(status, session.map, session.rules, power)
            quoted += [f"{power}:"] + ([f"  {o}" for o in on_file] or ["  (no orders)"])
        return said(f"Orders on file for {phase}:", quoted=quoted)


COMMANDS: list[type[Command]] = [Clear, Status]
