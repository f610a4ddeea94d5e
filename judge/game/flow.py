"""From a processed phase to the next phase to play, by the map's FLOW.

Stepping through the FLOW (`judge.phases.next_phase`), the game passes over a retreat phase with no
dislodged unit and an adjustment phase in which nobody builds or removes; it never passes over a
movement phase or a phase type the judge does not adjudicate (that one becomes a WAIT phase, for the
Master). Leaving the last movement or retreat phase of a year (the next phase is an adjustment phase,
or the year changes) every supply centre with a unit on it passes to the unit's power. A NEWHOMES
year's adjustment phase passed over still makes each power's homes the centres it owns. Under
GARRISON a power left without a centre may then build on a vacant home (`garrison`); under
VASSAL_DUMMIES the minor powers change allegiance (`vassals`). Entering the
new phase, the map in force may change (IN / FROM blocks): a unit left where it can no longer stand
is destroyed, unless HIBERNATE keeps it or UNITS_ADAPT turns it into the other kind of unit.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from judge.adjudicator.builds import needs_adjustments, partisans_rise
from judge.game.positions import (
    build_tokens,
    capture,
    centers_of,
    owned_centers,
    power_blocks,
    units_of,
    with_board,
)
from judge.game.vassals import keeps, vassalship
from judge.maps import map_for_phase
from judge.maps.model import Map
from judge.phases import next_phase
from judge.rule_names import Rule, Rules
from judge.status.model import GameStatus, PhaseMode
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Unit, UnitType

ADJUDICATED = (MOVEMENT, RETREATS, ADJUSTMENTS)


@dataclass
class Advance:
    """Where the game went after a phase, and what happened on the way."""

    status: GameStatus
    phase: Phase
    skipped: list[Phase] = field(default_factory=list)
    captured: dict[str, str] = field(default_factory=dict)
    counted: Phase | None = None  # where the centres were taken on the way (the adjustment phase)
    lost: dict[str, tuple[Unit, ...]] = field(default_factory=dict)
    torn: dict[str, tuple[Unit, ...]] = field(default_factory=dict)  # TORN_ALLEGIANCE
    allegiance: tuple[tuple[str, str | None], ...] = ()  # VASSAL_DUMMIES: minor power -> controller

    @property
    def year_end(self) -> bool:
        """Centres were taken on the way: time to look for a winner."""
        return self.counted is not None


def mode_for(phase: Phase) -> PhaseMode:
    """A phase the judge adjudicates is a PHASE; any other type waits for the Master."""
    return PhaseMode.PHASE if phase.type in ADJUDICATED else PhaseMode.WAIT


def advance(status: GameStatus, base: Map, processed: Phase, rules: Rules) -> Advance:
    """Move `status` (whose board is the board after `processed`) to the next phase to play."""
    step = Advance(status, processed)
    for _ in range(4 * len(base.flow) + 8):
        following = next_phase(base, step.phase)
        if _year_ends(step.phase, following) and not step.year_end:
            _capture(step, base, rules, following)
            if Rule.GARRISON in rules:
                step.status = garrison(step.status, base)
        m = map_for_phase(base, following)
        if not _nothing_to_do(step.status, m, following, rules):
            step.phase = following
            break
        _pass_over(step, m, following)
    status = replace(step.status, phase=step.phase, phase_mode=mode_for(step.phase))
    step.status, step.lost = _fit_units(status, map_for_phase(base, step.phase), rules)
    return step


def _year_ends(phase: Phase, following: Phase) -> bool:
    return phase.type in (MOVEMENT, RETREATS) and (following.type == ADJUSTMENTS
                                                    or following.year != phase.year)


def _capture(step: Advance, m: Map, rules: Rules, counted: Phase) -> None:
    vassals = Rule.VASSAL_DUMMIES in rules
    centers, changed = capture(m, units_of(step.status, m), centers_of(step.status, m),
                               keeps(step.status) if vassals else None)
    step.status = partisans_marked(with_board(step.status, m, centers=centers), m, rules)
    step.captured.update(changed)
    step.counted = counted
    if vassals:
        found = vassalship(step.status, m, Rule.TORN_ALLEGIANCE in rules)
        step.status, step.torn, step.allegiance = found.status, found.torn, found.allegiance
        step.captured.update(found.moved)


def partisans_marked(status: GameStatus, m: Map, rules: Rules) -> GameStatus:
    """DPjudge's `SC*` on the OWNS line, one for each partisan site of a power that holds some of
    its homes but not all (`partisans_rise`), as its ownership() writes them at the year's end:
    DPjudge reads the winter's partisan builds from them (the judge counts them afresh)."""
    for block in power_blocks(status, m):
        info = m.powers.get(block.name)
        homes = frozenset(block.home if block.home is not None else info.homes if info else ())
        rising = info is not None and partisans_rise(owned_centers(block), homes, rules)
        marks = ("SC*",) * len(info.partisans) if rising and info else ()
        owns = tuple(c for c in block.owns if c != "SC*") + marks
        if owns != block.owns:
            status = status.with_power(replace(block, owns=owns))
    return status


def garrison(status: GameStatus, m: Map) -> GameStatus:
    """GARRISON (DPjudge's ownership()): at the year's end a power owning no centre (and holding no
    `SC!`) that someone still plays or controls, none of whose homes a foreign unit stands on, gets
    `SC?` tokens, one more than its units: one build on a vacant home of its, taking no ownership.
    Until it uses them no other power may build on its homes (`build_options`)."""
    blocks = power_blocks(status, m)
    for block in blocks:
        homes = frozenset(block.home if block.home is not None else m.powers[block.name].homes)
        played = bool(block.control) or (block.player is not None and not block.player.resigned)
        occupied = any(u.province in homes for b in blocks if b is not block for u in b.units)
        if owned_centers(block) or "SC!" in block.owns or not played or occupied:
            continue
        status = status.with_power(replace(block, owns=("SC?",) * (len(block.units) + 1)))
    return status


def _nothing_to_do(status: GameStatus, m: Map, phase: Phase, rules: Rules) -> bool:
    if phase.type == RETREATS:
        return not any(b.dislodged for b in power_blocks(status, m))
    if phase.type == ADJUSTMENTS:
        homes = {b.name: frozenset(b.home) for b in power_blocks(status, m) if b.home is not None}
        return not needs_adjustments(m, units_of(status, m), centers_of(status, m), rules,
                                     homes=homes or None, phase=phase, tokens=build_tokens(status, m))
    return False


def _pass_over(step: Advance, m: Map, phase: Phase) -> None:
    step.skipped.append(phase)
    step.phase = phase
    if phase.type == ADJUSTMENTS and phase.year in m.newhomes:
        step.status = with_board(step.status, m, homes=centers_of(step.status, m))


def _fit_units(status: GameStatus, m: Map, rules: Rules) -> tuple[GameStatus, dict]:
    """Units the map in force no longer lets stand where they are: kept, adapted or destroyed."""
    lost: dict[str, tuple[Unit, ...]] = {}
    units = units_of(status, m)
    changed = False
    for power, mine in units.items():
        kept = []
        for unit in mine:
            fitted = _fit(unit, m, rules)
            if fitted is None:
                lost[power] = lost.get(power, ()) + (unit,)
            else:
                kept.append(fitted)
            changed |= fitted != unit
        units[power] = tuple(kept)
    return (with_board(status, m, units=units) if changed else status), lost


def _fit(unit: Unit, m: Map, rules: Rules) -> Unit | None:
    if m.can_stand(unit) or Rule.HIBERNATE in rules:
        return unit
    if Rule.UNITS_ADAPT in rules:
        other = UnitType.FLEET if unit.type is UnitType.ARMY else UnitType.ARMY
        for location in (unit.province, *m.coasts_of(unit.province)):
            if m.can_stand(Unit(other, location)):
                return Unit(other, location)
    return None
