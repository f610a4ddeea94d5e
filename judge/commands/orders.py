"""Order lines after a SIGNON, CLEAR and NMR, STATUS, and a line naming a power.

Order lines are gathered until the next command of the mail (or its end) and then stored, each
power's lines of the whole mail so far as a complete replacement of its orders for the phase: the
reply follows the mail's order, and a STATUS after orders shows them. Every line that cannot be
accepted is reported together, and then none are stored and the rest of the mail is not done.
A line naming a power switches the power the following orders are for: the Master
may name any power, a player the powers it controls (dummies on its CONTROL line or in its TEAM).
"""
from __future__ import annotations

from dataclasses import replace

from judge.adjudicator.builds import hidden_build
from judge.commands.auth import Level
from judge.commands.game_queries import (
    controls,
    past_deadline,
    phase_name,
    phase_of,
    processing,
)
from judge.commands.registry import Command, Stage
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.commands.closed_games import refuse_closed
from judge.commands.notices import ListsLocked, OrdersStored
from judge.game.deadlines import deadline_for
from judge.game.order_lists import LATER, SOONER, list_in, list_taking_orders, plays_lists, read_list, with_list
from judge.game.positions import owned_centers, position_of, power_blocks, units_of
from judge.game.orders import Duties, adjustment_counts, due_powers, nothing_to_order, orders_on_file
from judge.maps.model import Map
from judge.orders import Build, Disband, Keep, Order, Proxy, Retreat, Waive, parse_orders
from judge.orders.power_orders import CLEAR_WORDS
from judge.status.model import (
    AdjustOrder,
    BuildOrder,
    DisbandOrder,
    GameStatus,
    PhaseMode,
    RemoveOrder,
    RetreatOrder,
)
from judge.status.writer import adjustment_text
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase


# -- reading and storing -----------------------------------------------------------------------
def orderable_phase(session: Session) -> Phase:
    """The phase orders go to, or a refusal saying why none are taken now."""
    status = session.current()
    phase = phase_of(status)
    if phase is None:
        raise Refusal(f"game '{session.game}' is {phase_name(status)}: "
                      "no orders are taken")
    refuse_closed(session, "orders")
    if processing(status):
        raise Refusal("the judge is processing this phase: send your orders again in a moment")
    if status.phase_mode in (PhaseMode.SKIP, PhaseMode.WAIT) or \
            phase.type not in (MOVEMENT, RETREATS, ADJUSTMENTS):
        raise Refusal(f"no orders are taken in {phase}")
    return phase


def read_orders(session: Session, power: str, lines: list[str]
                ) -> tuple[list[Order], list[tuple[str, str]]]:
    status, m, phase = session.current(), session.map, orderable_phase(session)
    if phase.type == MOVEMENT and plays_lists(status):
        return read_list(m, power, lines, phase, session.rules)
    units = units_of(status, m) if phase.type != RETREATS else \
        {b.name: tuple(d.unit for d in b.dislodged) for b in status.powers if b.is_power}
    orders, errors = parse_orders(m, power, lines, phase, units, position_of(status, m, phase),
                                  session.rules)
    refused = {o: why for o in orders if isinstance(o, Proxy) and (why := proxy_problem(status, o))}
    return ([o for o in orders if o not in refused],
            errors + [(str(o), why) for o, why in refused.items()])


def proxy_problem(status: GameStatus, order: Proxy) -> str | None:
    """DPjudge takes no proxy to a dummy, nor to a power out of the game."""
    block = status.power(order.to)
    if block is None:
        return f"no proxy to {order.to}: it is not in this game"
    if block.player is not None and block.player.dummy:
        return f"no proxy to {order.to}: a dummy power"
    if not block.units and not owned_centers(block):
        return f"no proxy to {order.to}: a power out of the game"
    return None


def with_orders(status: GameStatus, m: Map, rules: frozenset[str], power: str, phase: Phase,
                orders: list[Order]) -> GameStatus:
    """`status` with `orders` as the power's whole set for `phase` (none: not submitted)."""
    block = status.power(power)
    assert block is not None
    if phase.type == MOVEMENT and plays_lists(status):
        which = list_taking_orders(power_blocks(status, m))
        return status.with_power(with_list(block, which, tuple(str(o) for o in orders)))
    if phase.type == MOVEMENT:
        return status.with_power(replace(block, orders=tuple(str(o) for o in orders) or None))
    if phase.type == ADJUSTMENTS:
        orders = waives_within(orders, adjustment_counts(status, m, phase, rules).get(power, 0))
    stored = tuple(a for o in orders if (a := adjustment_line(o, phase, m, rules)) is not None)
    return status.with_power(replace(block, adjustments=stored))


def waives_within(orders: list[Order], count: int) -> list[Order]:
    """The orders less the waives past the builds the power may make (its centres' builds capped
    by the sites open): DPjudge drops those, so the results show none of them and the builds not
    made are told as pending."""
    room = max(0, count - sum(isinstance(o, Build) for o in orders))
    kept = []
    for order in orders:
        if isinstance(order, Waive):
            if room <= 0:
                continue
            room -= 1
        kept.append(order)
    return kept


def adjustment_line(order: Order, phase: Phase, m: Map, rules: frozenset[str]) -> AdjustOrder | None:
    """A retreat or adjustment order as the status file keeps it, as DPjudge does (a hidden build
    `BUILD A PAR HIDDEN`; KEEP is not kept: a unit not named for removal stays anyway)."""
    if isinstance(order, Retreat):
        return RetreatOrder(order.unit, order.dest)
    if isinstance(order, Disband):
        return DisbandOrder(order.unit) if phase.type == RETREATS else RemoveOrder(order.unit)
    if isinstance(order, Build):
        return BuildOrder(order.unit, hidden_build(m, order.power, order.unit.province, rules))
    if isinstance(order, Waive):
        return BuildOrder(None)
    assert isinstance(order, Keep)
    return None


def stored_orders(session: Session, power: str) -> list[str]:
    status, m = session.current(), session.map
    phase = phase_of(status)
    if phase is None:
        return []
    block = status.power(power)
    if phase.type == MOVEMENT and plays_lists(status) and block is not None:
        return list(list_in(block, list_taking_orders(power_blocks(status, m))))
    sheet = orders_on_file(status, m, phase, session.rules, powers={power})
    return [str(o) for o in sheet.orders.get(power, ())] + list(sheet.unreadable.get(power, ()))


def has_orders(session: Session, power: str, duties: Duties) -> bool:
    """Orders on file, or order lines earlier in this mail that would be accepted."""
    if power in duties.submitted:
        return True
    lines = session.orders.get(power)
    if not lines:
        return False
    orders, errors = read_orders(session, power, lines)
    return bool(orders) and not errors


def submit(session: Session, power: str, lines: list[str]) -> Said:
    """Store the power's order lines of this mail (the end of the mail calls this)."""
    status, rules = session.current(), session.rules
    phase = orderable_phase(session)
    before = stored_orders(session, power)
    if before and past_deadline(status, rules, session.now) and "NO_LATE_CHANGES" in rules:
        raise Refusal("orders may not be changed after the deadline (NO_LATE_CHANGES)")
    if power not in due_powers(session.current(), session.map, rules):
        why = nothing_to_order(status, session.map, phase, rules, power)
        raise Refusal(f"{power} has no orders to give in {phase}: {why}")
    orders, errors = read_orders(session, power, lines)
    if errors:
        raise Refusal(f"{len(errors)} of the orders for {power} could not be accepted, so none "
                      f"were stored:", *(f"{line}: {reason}" for line, reason in errors))
    if not orders and before and "MUST_ORDER" in rules:
        raise Refusal("ORDERS MAY NOT BE CLEARED AFTER SUBMISSION (MUST_ORDER)")
    filling = list_filled(status, session.map, phase)
    session.update(with_orders(status, session.map, rules, power, phase, orders))
    if filling == SOONER and list_filled(session.current(), session.map, phase) == LATER:
        announce_lock(session)
    stored = session.current().power(power)
    assert stored is not None  # a power with orders due
    # a Crystal Ball list is told as stored, though the lists may have just been locked
    now_stored = stored_orders(session, power) if filling is None else list(list_in(stored, filling))
    turn = _turn(phase, filling)
    if not now_stored:
        return said(f"The orders of {power} for {turn} are cleared.")
    return said(f"The orders of {power} for {turn} are now:", quoted=now_stored)


def list_filled(status: GameStatus, m: Map, phase: Phase) -> str | None:
    """The Crystal Ball list orders go to now (None: not a Crystal Ball movement phase)."""
    if phase.type != MOVEMENT or not plays_lists(status):
        return None
    return list_taking_orders(power_blocks(status, m))


def announce_lock(session: Session) -> None:
    """The game's first lists are all in: the deadline set afresh (never earlier than the one on
    file), and everyone told, as DPjudge does."""
    status = session.current()
    fresh = deadline_for(status, session.base_map, session.now, keep_later=True)
    if fresh.text is not None:
        session.update(replace(status, deadline=fresh.text))
    session.emit(ListsLocked(session.game or "", fresh.moment))


def _turn(phase: Phase, filling: str | None) -> str:
    """The phase orders go to: in Crystal Ball, the movement phase of the list `filling`."""
    if filling is None:
        return str(phase)
    if filling == SOONER:
        return f"{phase} (its list, locked once every power has one)"
    return "the movement phase after this one (its list, locked when this phase is processed)"


def store_pending(session: Session) -> bool:
    """Store the order lines gathered since the last command, power by power: each power's whole
    set of this mail so far replaces its orders. False when a set is refused (the mail stops)."""
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
        confirm(session, power)
    return True


def confirm(session: Session, power: str) -> None:
    """The order confirmation of the orders just stored (the mail layer sends it)."""
    status = session.current()
    phase, block = phase_of(status), status.power(power)
    if phase is None or block is None:
        return
    if phase.type == MOVEMENT and plays_lists(status):
        first = phase == session.map.begin
        session.emit(OrdersStored(session.game or "", power, phase, block.sooner or (), session.sender,
                                  "first" if first else "ahead", block.later or ()))
        return
    if phase.type == MOVEMENT:
        lines = block.orders or ()
    else:
        lines = tuple(adjustment_text(a) for a in block.adjustments)
    session.emit(OrdersStored(session.game or "", power, phase, tuple(lines), session.sender))


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
            (session.role is not None and controls(status, session.role, power))):
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
        orderable_phase(session)
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
            orders = stored_orders(session, power)
            quoted += [f"{power}:"] + ([f"  {o}" for o in orders] or ["  (no orders)"])
        return said(f"Orders on file for {phase}:", quoted=quoted)


COMMANDS: list[type[Command]] = [Clear, Status]
