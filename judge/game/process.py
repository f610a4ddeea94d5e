"""Processing a phase: `on_process(status, map, now) -> (status, events)`, pure.

The stages, in order: the powers whose orders are missing are in civil disorder (their orders are
left to the adjudicator's defaults: hold, disband or CD_RETREATS, waive or CD_BUILDS, removals by the
DATC's rule; under CD_SUPPORTS the judge orders their units in a movement phase, `cd_supports`);
the orders on file are adjudicated on the map in force in the phase; the resolution is
written back (units, dislodged units with their retreats, after an adjustment phase the centres and
homes, hidden builds recorded as `BUILD ... HIDDEN` until the next movement phase reveals them);
orders, WAIT and CD flags are cleared; ROTATE AFTER; the game moves on by its FLOW (`flow.advance`:
skipped phases, centres taken at the year's end, map changes); a winner is looked for at the year's
end, then the votes; otherwise the next deadline is set and ROTATE BEFORE / FOR / CONTROL applied;
the NEED line is brought up to date. A phase type the judge does not adjudicate (a WAIT phase) just
moves on. `map` is the game's map with its MORPH lines; the map of each phase is derived from it.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from judge.adjudicator import resolve
from judge.adjudicator.model import Resolution
from judge.adjudicator.retreats import no_retreats
from judge.events import (
    CivilDisorder,
    ControlRotated,
    Event,
    GameCompleted,
    PhaseResults,
    Preview,
    UnitSighting,
)
from judge.game.cd_supports import cd_supports, in_civil_disorder
from judge.game import visibility
from judge.game.positions import position_of, power_blocks, with_board
from judge.game.clock import deadline_in_force, readiness
from judge.game.deadlines import deadline_for
from judge.game.flow import ADJUDICATED, Advance, advance
from judge.game.orders import OrderSheet, duties, orders_on_file, proxied
from judge.game.rotate import rotate_after, rotate_before
from judge.game.rules import rules_in_force
from judge.game.seats import GameError, refresh_need
from judge.game.victory import check_votes, complete, last_man, winners
from judge.maps import map_for_phase
from judge.maps.model import Map
from judge.orders.model import Build
from judge.status.model import BuildOrder, GameStatus
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Unit


class NotReady(GameError):
    """PROCESS without force while orders are missing or the game waits for its deadline."""

    def __init__(self, message: str, late: tuple[str, ...] = ()):
        super().__init__(message)
        self.late = late


def on_process(status: GameStatus, m: Map, now: datetime, force: bool = False
               ) -> tuple[GameStatus, list[Event]]:
    """PROCESS (force: PROCESS!, missing orders defaulted). Raises NotReady, or GameError when the
    game is not running."""
    require_ready(status, m, now, force)
    return process_phase(status, m, now)


def require_ready(status: GameStatus, m: Map, now: datetime, force: bool = False) -> None:
    """Raise GameError when the game is not running, NotReady (unless `force`) when not ready."""
    if not isinstance(status.phase, Phase):
        raise GameError(f"game {status.name} is {status.phase.value.lower()}: there is nothing to process")
    if not force:
        state = readiness(status, m, now)
        if not state.ready:
            raise NotReady(f"game {status.name} is not ready for processing: {state.reason}",
                           state.duties.late)


def preview(status: GameStatus, m: Map, now: datetime) -> Preview:
    """PREVIEW: what processing would give now, missing orders defaulted; the game is unchanged."""
    if not isinstance(status.phase, Phase):
        raise GameError(f"game {status.name} is {status.phase.value.lower()}: there is nothing to preview")
    _, events = process_phase(status, m, now)
    results = next(e for e in events if isinstance(e, PhaseResults))
    completed = next((e for e in events if isinstance(e, GameCompleted)), None)
    return Preview(status.name or "", results, completed)


def process_phase(status: GameStatus, base: Map, now: datetime) -> tuple[GameStatus, list[Event]]:
    """Process the status's phase whatever orders are missing (see the module's doc)."""
    phase = status.phase
    assert isinstance(phase, Phase)
    rules = rules_in_force(status, base)
    m = map_for_phase(base, phase)
    missing = duties(status, m, rules).missing
    sheet = orders_on_file(status, m, phase, rules)
    processed_deadline = deadline_in_force(status, rules) or now
    position = position_of(status, m, phase)
    resolution = None
    if phase.type in ADJUDICATED:
        if phase.type == MOVEMENT and "CD_SUPPORTS" in rules:
            sheet = _with_cd_supports(status, m, position, sheet, missing, rules)
        given = proxied(sheet.orders, status, m) if "PROXY_OK" in rules else sheet.orders
        resolution = resolve(m, position, given, rules)
    revealed = _hidden_records(status, m) if phase.type == MOVEMENT else {}
    sightings = _sightings(status, m, rules, resolution, revealed)
    blinded = _blinded(status, m, rules, resolution)
    status = _apply(status, m, phase, resolution)
    status, hidden = _clear_orders(status, m, resolution, missing)
    events: list[Event] = [CivilDisorder(status.name or "", phase, missing)] if missing else []
    status, moved = rotate_after(status, base, phase)
    step = advance(status, base, phase, rules)
    status, completed = _ending(step.status, base, phase, step, rules, now)
    deadline = None
    if completed is None:
        fresh = deadline_for(status, base, now, keep_later=True)
        status = replace(status, deadline=fresh.text, delay=None)
        deadline = deadline_in_force(status, rules)
        status, before = rotate_before(status, map_for_phase(base, step.phase), step.phase, rules)
        moved.update(before)
    status = refresh_need(status, base)
    status = _seen_centres(status, map_for_phase(base, step.phase), rules, step.year_end,
                           None if completed else step.phase)
    events.append(replace(_results(status, phase, resolution, sheet, missing, step, hidden, revealed,
                                   None if completed else step.phase, deadline), sightings=sightings, blinded=blinded,
                          processed_deadline=processed_deadline, units_before=dict(position.units)))
    if moved:
        events.append(ControlRotated(status.name or "", step.phase, moved))
    if completed is not None:
        events.append(completed)
    return status, events


def _with_cd_supports(status: GameStatus, m: Map, position, sheet: OrderSheet,
                      missing: tuple[str, ...], rules: frozenset[str]) -> OrderSheet:
    """CD_SUPPORTS: the judge's orders for the powers in civil disorder (`cd_supports`)."""
    given = dict(sheet.orders)
    for power in missing:
        if in_civil_disorder(status, power, given.get(power), rules):
            given[power] = cd_supports(m, position, power)
    return replace(sheet, orders=given)


def _sightings(status: GameStatus, m: Map, rules: frozenset[str], resolution: Resolution | None,
               revealed: dict[str, tuple[Unit, ...]]) -> dict[tuple[str, Unit], UnitSighting]:
    """BLIND: who sees each unit of the phase (worked out before the board changes; `revealed`:
    the units built hidden, which others find where they end)."""
    if visibility.BLIND not in rules or resolution is None:
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


def _blinded(status: GameStatus, m: Map, rules: frozenset[str], resolution: Resolution | None
             ) -> tuple[UnitSighting, ...]:
    """BLIND: the units readers stop seeing when a movement phase destroys dislodged units."""
    if visibility.BLIND not in rules or resolution is None or resolution.phase.type != MOVEMENT:
        return ()
    outright = no_retreats(rules)
    destroyed = {p: [u for u, where in ds.items() if outright or not where]
                 for p, ds in resolution.dislodged.items()}
    position = position_of(status, m, resolution.phase)
    moves = visibility.moves_of(position, resolution)
    seers = replace(visibility.seers_of(status, m),
                    after={p: tuple(us.values()) for p, us in moves.items()})
    return visibility.blinded_by_destruction(m, rules, seers, resolution.units, destroyed)


def _seen_centres(status: GameStatus, m: Map, rules: frozenset[str], year_end: bool,
                  following: Phase | None) -> GameStatus:
    """BLIND: each power's SEES brought up to date when the results show the ownership (the
    centres seen since the year began)."""
    if visibility.BLIND not in rules or not visibility.shows_ownership(
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
    keeps them, and a `BUILD A PAR HIDDEN` line in its adjustments, the other way a status file may
    record one."""
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


def _ending(status: GameStatus, m: Map, phase: Phase, step: Advance, rules: frozenset[str],
            now: datetime) -> tuple[GameStatus, GameCompleted | None]:
    """The game over by victory at the year's end, the last unit standing, or the votes on file.
    As in DPjudge, whose processing has moved on when it finds the end, the game ends in the phase
    it reached: where the centres were counted (the adjustment phase, whether or not anyone
    adjusts) for a victory or votes then, where the last unit stands, else the next phase."""
    if "LAST_MAN_STANDING" in rules:
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
