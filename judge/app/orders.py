"""The use case of a power's orders: a power's order lines taken as its whole set for the phase,
with every check the judge makes (the phase takes orders, the game is open, the power owes
orders, NO_LATE_CHANGES, MUST_ORDER, each line readable and legal, proxies DPjudge takes), and
the orders on file as a reader sees them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from judge.adjudicator.builds import hidden_build
from judge.app.game_in_hand import GameInHand, closed_refusal, past_deadline, phase_name, phase_of, processing
from judge.app.offer_sheets import offers_bribe, with_offers
from judge.app.refusal import Refusal
from judge.game.deadlines import deadline_for, with_deadline
from judge.game.order_lists import LATER, SOONER, list_in, list_taken, plays_lists, read_list, with_list
from judge.game.orders import (Duties, adjustment_counts, bids_freely, due_powers, nothing_to_order, orders_on_file,
                               plays_offers, skip_lists)
from judge.game.positions import owned_centers, position_of, units_of
from judge.maps.model import Map
from judge.orders import Build, Disband, Keep, Order, Proxy, Retreat, Waive, parse_orders
from judge.status.model import (
    AdjustOrder,
    BuildOrder,
    DisbandOrder,
    GameStatus,
    PhaseMode,
    RemoveOrder,
    RetreatOrder,
)
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from judge.rule_names import Rule, Rules


@dataclass(frozen=True)
class Submitted:
    """What submitting orders did: the status with them, and the power's orders now on file for
    the phase (none: cleared). In Crystal Ball, `turn` names the movement phase of the list the
    orders went to, and `locked` says the first lists are all in now, with the deadline set
    afresh for them (`lock_deadline`)."""

    status: GameStatus
    power: str
    phase: Phase
    on_file: tuple[str, ...]
    turn: str
    locked: bool = False
    lock_deadline: datetime | None = None


def orderable_phase(game: GameInHand) -> Phase:
    """The phase orders go to, or a refusal saying why none are taken now."""
    status = game.status
    phase = phase_of(status)
    if phase is None:
        raise Refusal(f"game '{game.name}' is {phase_name(status)}: no orders are taken")
    closed = closed_refusal(game.state, game.name, "orders")
    if closed is not None:
        raise closed
    if processing(status):
        raise Refusal("the judge is processing this phase: send your orders again in a moment")
    if status.phase_mode in (PhaseMode.SKIP, PhaseMode.WAIT) and not skip_lists(status, phase) or \
            phase.type not in (MOVEMENT, RETREATS, ADJUSTMENTS):
        raise Refusal(f"no orders are taken in {phase}")
    return phase


def read_orders(game: GameInHand, power: str, lines: list[str]
                ) -> tuple[list[Order], list[tuple[str, str]]]:
    """The power's order lines read against the game: the orders, and each line refused with why."""
    status, m, phase = game.status, game.map, orderable_phase(game)
    if phase.type == MOVEMENT and plays_lists(status):
        return read_list(m, power, lines, phase, game.rules)
    units = units_of(status, m) if phase.type != RETREATS else \
        {b.name: tuple(d.unit for d in b.dislodged) for b in status.powers if b.is_power}
    orders, errors = parse_orders(m, power, lines, phase, units, position_of(status, m, phase),
                                  game.rules)
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


def with_orders(status: GameStatus, m: Map, rules: Rules, power: str, phase: Phase,
                orders: list[Order]) -> GameStatus:
    """`status` with `orders` as the power's whole set for `phase` (none: not submitted)."""
    block = status.power(power)
    assert block is not None
    if phase.type == MOVEMENT and plays_lists(status):
        which = list_taken(status, m)
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


def adjustment_line(order: Order, phase: Phase, m: Map, rules: Rules) -> AdjustOrder | None:
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


def stored_orders(status: GameStatus, m: Map, rules: Rules, power: str) -> list[str]:
    """The power's orders on file for the phase, as a reader sees them (unreadable lines too)."""
    phase = phase_of(status)
    if phase is None:
        return []
    block = status.power(power)
    if phase.type == MOVEMENT and plays_lists(status) and block is not None:
        return list(list_in(block, list_taken(status, m)))
    if phase.type == MOVEMENT and plays_offers(status) and block is not None:
        return list(block.offers)
    sheet = orders_on_file(status, m, phase, rules, powers={power})
    return [str(o) for o in sheet.orders.get(power, ())] + list(sheet.unreadable.get(power, ()))


def submit(game: GameInHand, power: str, lines: list[str]) -> Submitted:
    """The power's order `lines` stored as its whole set for the phase; Refusal, with every line
    that cannot be accepted, and then none is stored."""
    status, m, rules = game.status, game.map, game.rules
    phase = orderable_phase(game)
    before = stored_orders(status, m, rules, power)
    if before and past_deadline(status, rules, game.now) and Rule.NO_LATE_CHANGES in rules:
        raise Refusal("orders may not be changed after the deadline (NO_LATE_CHANGES)")
    if power not in due_powers(status, m, rules) and not bids_freely(status, power, phase):
        why = nothing_to_order(status, m, phase, rules, power)
        raise Refusal(f"{power} has no orders to give in {phase}: {why}")
    if phase.type == MOVEMENT and plays_offers(status):
        return _offered(game, power, phase, lines, bool(before))
    orders, errors = read_orders(game, power, lines)
    if errors:
        raise Refusal(f"{len(errors)} of the orders for {power} could not be accepted, so none "
                      f"were stored:", *(f"{line}: {reason}" for line, reason in errors))
    if not orders and before and Rule.MUST_ORDER in rules:
        raise Refusal("ORDERS MAY NOT BE CLEARED AFTER SUBMISSION (MUST_ORDER)")
    filling = list_filled(status, m, phase)
    new = with_orders(status, m, rules, power, phase, orders)
    locked, lock_deadline = False, None
    if filling == SOONER and list_filled(new, m, phase) == LATER:
        # the first lists are all in: the deadline set afresh, never earlier than the one on file
        locked, lock_deadline = True, deadline_for(new, m, game.now, keep_later=True).moment
        if lock_deadline is not None:
            new = with_deadline(new, lock_deadline)
    stored = new.power(power)
    assert stored is not None  # a power with orders due
    # a Crystal Ball list is told as stored, though the lists may have just been locked
    on_file = stored_orders(new, m, rules, power) if filling is None else list(list_in(stored, filling))
    return Submitted(new, power, phase, tuple(on_file), _turn(phase, filling), locked, lock_deadline)


@dataclass(frozen=True)
class ListsAhead:
    """A Crystal Ball power's lists for the turns ahead: SOONER for the next movement phase, LATER
    for the one after it, and the one orders sent now go to (`filling`)."""

    sooner: tuple[str, ...]
    later: tuple[str, ...]
    filling: str


def lists_ahead(status: GameStatus, m: Map, power: str) -> ListsAhead | None:
    """The power's Crystal Ball lists, as its orders mail shows them (None: not a Crystal Ball
    game in a movement phase, or no such power)."""
    phase = phase_of(status)
    block = status.power(power)
    if block is None or phase is None or (filling := list_filled(status, m, phase)) is None:
        return None
    return ListsAhead(list_in(block, SOONER), list_in(block, LATER), filling)


def _offered(game: GameInHand, power: str, phase: Phase, lines: list[str], before: bool) -> Submitted:
    """A Payola movement phase's orders: the power's offer sheet."""
    new = with_offers(game, power, phase, lines)
    on_file = stored_orders(new, game.map, game.rules, power)
    if not on_file and before and Rule.MUST_ORDER in game.rules:
        raise Refusal("ORDERS MAY NOT BE CLEARED AFTER SUBMISSION (MUST_ORDER)")
    return Submitted(new, power, phase, tuple(on_file), str(phase))


def list_filled(status: GameStatus, m: Map, phase: Phase) -> str | None:
    """The Crystal Ball list orders go to now (None: not a Crystal Ball movement phase)."""
    if phase.type != MOVEMENT or not plays_lists(status):
        return None
    return list_taken(status, m)


def _turn(phase: Phase, filling: str | None) -> str:
    """The phase orders go to: in Crystal Ball, the movement phase of the list `filling`."""
    if filling is None:
        return str(phase)
    if filling == SOONER:
        return f"{phase} (its list, locked once every power has one)"
    return "the movement phase after this one (its list, locked when this phase is processed)"


def has_orders(game: GameInHand, power: str, duties: Duties, lines: list[str] | None) -> bool:
    """Orders on file, or order `lines` given earlier in the same request that would be accepted."""
    if power in duties.submitted:
        return True
    if not lines:
        return False
    phase = orderable_phase(game)
    if phase.type == MOVEMENT and plays_offers(game.status):
        return offers_bribe(game, power, phase, lines)
    found, errors = read_orders(game, power, lines)
    return bool(found) and not errors
