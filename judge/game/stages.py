"""The stages of processing a phase, each a pure function `Processing -> Processing`.

A variant lists the stages it plays, in order (`judge.game.variants`); `process.process_phase`
runs them. `Processing` carries what one stage hands the next: the status as it stands, what was
ordered and adjudicated, where the game went, and what the results mail will say. The standard
game's stages:

- `gather_orders`: the powers whose orders are missing are in civil disorder (their orders are left
  to the adjudicator's defaults: hold, disband or CD_RETREATS, waive or CD_BUILDS, removals by the
  DATC's rule); the orders on file are read;
- `adjudicate`: under CD_SUPPORTS the judge orders the units of the powers in civil disorder
  (`cd_supports`); the orders are adjudicated on the map in force in the phase;
- `sight`: BLIND: who sees what, worked out before the board changes;
- `write_back`: the resolution written back (units, dislodged units with their retreats, after an
  adjustment phase the centres and homes, hidden builds put on HIDES until the next movement phase
  reveals them); orders, WAIT and CD flags cleared;
- `rotate_after`: ROTATE AFTER;
- `move_on`: the game moves on by its FLOW (`flow.advance`: skipped phases, centres taken at the
  year's end, map changes);
- `look_for_end`: a winner looked for at the year's end, then the votes;
- `set_next_deadline`: unless the game ended, the next deadline set and ROTATE BEFORE / FOR /
  CONTROL applied;
- `bring_need_up_to_date`: the NEED line, and under BLIND each power's SEES;
- `report`: the events to mail (civil disorder, the results, control rotated, the game's end).

A phase type the judge does not adjudicate (a WAIT phase) just moves on.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from judge.adjudicator import resolve
from judge.adjudicator.model import Position, Resolution
from judge.adjudicator.retreats import no_retreats
from judge.events import (
    CivilDisorder,
    ControlRotated,
    Event,
    GameCompleted,
    PhaseResults,
    UnitSighting,
)
from judge.game import visibility
from judge.game.cd_supports import cd_supports, in_civil_disorder
from judge.game.deadlines import deadline_for, deadline_in_force, with_deadline
from judge.game.flow import ADJUDICATED, Advance, advance
from judge.game.orders import OrderSheet, duties, orders_on_file, proxied
from judge.game.positions import position_of, power_blocks, with_board
from judge.game.rotate import rotate_after, rotate_before
from judge.game.rules import rules_in_force
from judge.game.seats import refresh_need
from judge.game.victory import check_votes, complete, last_man, winners
from judge.maps import map_for_phase
from judge.maps.model import Map
from judge.orders.model import Build
from judge.rule_names import Rule, Rules
from judge.status.model import BuildOrder, GameStatus
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Unit


@dataclass(frozen=True)
class Processing:
    """One phase being processed: what the stages so far have found. `base` is the game's map with
    its MORPH lines, `m` the map in force in the phase."""

    status: GameStatus
    base: Map
    now: datetime
    phase: Phase
    rules: Rules
    m: Map
    position: Position
    missing: tuple[str, ...] = ()
    # the powers a variant holds in civil disorder, when it decides (None: those whose orders are
    # missing)
    idle: tuple[str, ...] | None = None
    sheet: OrderSheet = field(default_factory=lambda: OrderSheet({}, {}))
    processed_deadline: datetime | None = None
    resolution: Resolution | None = None
    revealed: dict[str, tuple[Unit, ...]] = field(default_factory=dict)
    sightings: dict[tuple[str, Unit], UnitSighting] = field(default_factory=dict)
    blinded: tuple[UnitSighting, ...] = ()
    hidden: dict[str, int] = field(default_factory=dict)
    moved: dict = field(default_factory=dict)
    step: Advance | None = None
    completed: GameCompleted | None = None
    deadline: datetime | None = None
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Stage:
    """A named step of processing a phase."""

    name: str
    run: Callable[[Processing], Processing]


def begin(status: GameStatus, base: Map, now: datetime) -> Processing:
    """The processing of the status's phase, before any stage."""
    phase = status.phase
    assert isinstance(phase, Phase)
    m = map_for_phase(base, phase)
    return Processing(status, base, now, phase, rules_in_force(status, base), m,
                      position_of(status, m, phase))


def gather_orders(p: Processing) -> Processing:
    rules = p.rules
    missing = p.idle if p.idle is not None else duties(p.status, p.m, rules).missing
    return replace(p, missing=missing,
                   sheet=orders_on_file(p.status, p.m, p.phase, rules),
                   processed_deadline=deadline_in_force(p.status, rules) or p.now)


def adjudicate(p: Processing) -> Processing:
    if p.phase.type not in ADJUDICATED:
        return p
    sheet = p.sheet
    if p.phase.type == MOVEMENT and Rule.CD_SUPPORTS in p.rules:
        sheet = _with_cd_supports(p.status, p.m, p.position, sheet, p.missing, p.rules)
    given = proxied(sheet.orders, p.status, p.m) if Rule.PROXY_OK in p.rules else sheet.orders
    return replace(p, sheet=sheet, resolution=resolve(p.m, p.position, given, p.rules))


def sight(p: Processing) -> Processing:
    revealed = _hidden_records(p.status, p.m) if p.phase.type == MOVEMENT else {}
    return replace(p, revealed=revealed,
                   sightings=_sightings(p.status, p.m, p.rules, p.resolution, revealed),
                   blinded=_blinded(p.status, p.m, p.rules, p.resolution))


def write_back(p: Processing) -> Processing:
    status = _apply(p.status, p.m, p.phase, p.resolution)
    status, hidden = _clear_orders(status, p.m, p.resolution, p.missing)
    return replace(p, status=status, hidden=hidden)


def rotate_after_phase(p: Processing) -> Processing:
    status, moved = rotate_after(p.status, p.base, p.phase)
    return replace(p, status=status, moved=moved)


def move_on(p: Processing) -> Processing:
    step = advance(p.status, p.base, p.phase, p.rules)
    return replace(p, status=step.status, step=step)


def look_for_end(p: Processing) -> Processing:
    assert p.step is not None
    status, completed = _ending(p.status, p.base, p.phase, p.step, p.rules, p.now)
    return replace(p, status=status, completed=completed)


def set_next_deadline(p: Processing) -> Processing:
    if p.completed is not None:
        return p
    assert p.step is not None
    fresh = deadline_for(p.status, p.base, p.now, keep_later=True)
    status = replace(with_deadline(p.status, fresh.moment), delay=None)
    deadline = deadline_in_force(status, p.rules)
    status, before = rotate_before(status, map_for_phase(p.base, p.step.phase), p.step.phase, p.rules)
    return replace(p, status=status, deadline=deadline, moved={**p.moved, **before})


def bring_need_up_to_date(p: Processing) -> Processing:
    assert p.step is not None
    status = refresh_need(p.status, p.base)
    status = _seen_centres(status, map_for_phase(p.base, p.step.phase), p.rules, p.step.year_end,
                           None if p.completed else p.step.phase)
    return replace(p, status=status)


def report(p: Processing) -> Processing:
    assert p.step is not None
    name = p.status.name or ""
    following = None if p.completed else p.step.phase
    events: list[Event] = [CivilDisorder(name, p.phase, p.missing)] if p.missing else []
    events.append(replace(_results(p.status, p.phase, p.resolution, p.sheet, p.missing, p.step, p.hidden,
                                   p.revealed, following, p.deadline),
                          sightings=p.sightings, blinded=p.blinded,
                          processed_deadline=p.processed_deadline, units_before=dict(p.position.units)))
    if p.moved:
        events.append(ControlRotated(name, p.step.phase, p.moved))
    if p.completed is not None:
        events.append(p.completed)
    return replace(p, events=(*p.events, *events))


def _with_cd_supports(status: GameStatus, m: Map, position, sheet: OrderSheet,
                      missing: tuple[str, ...], rules: Rules) -> OrderSheet:
    """CD_SUPPORTS: the judge's orders for the powers in civil disorder (`cd_supports`)."""
    given = dict(sheet.orders)
    for power in missing:
        if in_civil_disorder(status, power, given.get(power), rules):
            given[power] = cd_supports(m, position, power)
    return replace(sheet, orders=given)


def _sightings(status: GameStatus, m: Map, rules: Rules, resolution: Resolution | None,
               revealed: dict[str, tuple[Unit, ...]]) -> dict[tuple[str, Unit], UnitSighting]:
    """BLIND: who sees each unit of the phase (worked out before the board changes; `revealed`:
    the units built hidden, which others find where they end)."""
    if Rule.BLIND not in rules or resolution is None:
        return {}
    phase = resolution.phase
    position = position_of(status, m, phase)
    seers = visibility.seers_of(status, m)
    if phase.type == MOVEMENT:
        moves = visibility.moves_of(position, resolution)
        seers = replace(seers, after={p: tuple(us.values()) for p, us in moves.items()})
        return visibility.movement_sightings(m, rules, seers, moves,
                                             visibility.dislodged_places(resolution), revealed)
    seers = replace(seers, after={p: tuple(resolution.units.get(p, ())) for p in seers.readers})
    return visibility.other_sightings(m, rules, seers, phase.type, resolution, position.units)


def _blinded(status: GameStatus, m: Map, rules: Rules, resolution: Resolution | None
             ) -> tuple[UnitSighting, ...]:
    """BLIND: the units readers stop seeing when a movement phase destroys dislodged units."""
    if Rule.BLIND not in rules or resolution is None or resolution.phase.type != MOVEMENT:
        return ()
    outright = no_retreats(rules)
    destroyed = {p: [u for u, where in ds.items() if outright or not where]
                 for p, ds in resolution.dislodged.items()}
    position = position_of(status, m, resolution.phase)
    moves = visibility.moves_of(position, resolution)
    seers = replace(visibility.seers_of(status, m),
                    after={p: tuple(us.values()) for p, us in moves.items()})
    return visibility.blinded_by_destruction(m, rules, seers, resolution.units, destroyed)


def _seen_centres(status: GameStatus, m: Map, rules: Rules, year_end: bool,
                  following: Phase | None) -> GameStatus:
    """BLIND: each power's SEES brought up to date when the results show the ownership (the
    centres seen since the year began)."""
    if Rule.BLIND not in rules or not visibility.shows_ownership(
            rules, year_end, following.type if following else None):
        return status
    return visibility.with_sees(status, m, rules, fresh=year_end)


def _apply(status: GameStatus, m: Map, phase: Phase, resolution: Resolution | None) -> GameStatus:
    if resolution is None:
        return status
    if phase.type == MOVEMENT:
        retreating = {p: {u: r for u, r in us.items() if r} for p, us in resolution.dislodged.items()}
        return with_board(status, m, units=resolution.units, dislodged=retreating)
    if phase.type == RETREATS:
        return with_board(status, m, units=resolution.units, dislodged={})
    return with_board(status, m, units=resolution.units, centers=resolution.centers,
                      homes=resolution.homes, keep_tokens=False, tokens=resolution.tokens)


def _hidden_records(status: GameStatus, m: Map) -> dict[str, tuple[Unit, ...]]:
    """The units built hidden that a movement phase reveals: each power's HIDES line, as DPjudge
    keeps them, and any `BUILD A PAR HIDDEN` line a status file holds for one."""
    found = {}
    for block in power_blocks(status, m):
        kept = tuple(o.unit for o in block.adjustments if isinstance(o, BuildOrder) and o.hidden and o.unit)
        units = block.hides + tuple(u for u in kept if u not in block.hides)
        if units:
            found[block.name] = units
    return found


def _clear_orders(status: GameStatus, m: Map, resolution: Resolution | None,
                  missing: tuple[str, ...]) -> tuple[GameStatus, dict[str, int]]:
    """Orders, WAIT and CD flags cleared (CD set for the powers in civil disorder); the units built
    hidden in an adjustment phase put on the power's HIDES, as DPjudge does, until the movement
    phase that reveals them clears it."""
    hidden: dict[str, list[Unit]] = {}
    kind = resolution.phase.type if resolution is not None else None
    if resolution is not None and kind == ADJUSTMENTS:
        for result in resolution.results:
            if isinstance(result.order, Build) and not result.results and "hidden" in result.note:
                hidden.setdefault(result.order.power, []).append(result.order.unit)
    for block in power_blocks(status, m):
        hides = () if kind == MOVEMENT else block.hides + tuple(hidden.get(block.name, ()))
        status = status.with_power(replace(block, orders=None, adjustments=(), hides=hides,
                                           wait=False, cd=block.name in missing))
    return status, {p: len(us) for p, us in hidden.items()}


def _ending(status: GameStatus, m: Map, phase: Phase, step: Advance, rules: Rules,
            now: datetime) -> tuple[GameStatus, GameCompleted | None]:
    """The game over by victory at the year's end, the last unit standing, or the votes on file.
    As in DPjudge, whose processing has moved on when it finds the end, the game ends in the phase
    it reached: where the centres were counted (the adjustment phase, whether or not anyone
    adjusts) for a victory or votes then, where the last unit stands, else the next phase."""
    if Rule.LAST_MAN_STANDING in rules:
        found = last_man(status, m, step.skipped + [step.phase])
        if found is not None:
            reached, power, unit = found
            return complete(status, m, reached, "last man", (power,), now, unit)
    if step.counted is not None:
        status, victors = winners(status, m, rules, phase.year)
        if victors:
            return complete(status, m, step.counted, "solo" if len(victors) == 1 else "shared",
                            victors, now)
    ended_status, ended = check_votes(status, m, now, step.counted or step.phase)
    if ended:
        assert isinstance(ended[0], GameCompleted)
        return ended_status, ended[0]
    return status, None


def _results(status: GameStatus, phase: Phase, resolution: Resolution | None, sheet: OrderSheet,
             missing: tuple[str, ...], step, hidden: dict[str, int],
             revealed: dict[str, tuple[Unit, ...]], next_phase: Phase | None, deadline) -> PhaseResults:
    return PhaseResults(
        game=status.name or "", phase=phase, resolution=resolution, orders=dict(sheet.orders),
        unreadable=dict(sheet.unreadable), civil_disorder=missing,
        captured={c: p for c, p in step.captured.items()}, hidden_builds=hidden, revealed=revealed,
        lost=dict(step.lost), skipped=tuple(step.skipped), next_phase=next_phase, deadline=deadline,
        torn=dict(step.torn), allegiance=step.allegiance)
