"""The calendar of a game: which phase follows which, by the map's FLOW."""
from __future__ import annotations

import re

from judge.maps.model import FlowStep, Map
from judge.types import Phase

ABBREV = re.compile(r"([A-Z])(-?[0-9]+)([A-Z])")
YEAR = re.compile(r"-?[0-9]+")


def _position(m: Map, phase: Phase) -> tuple[int, int]:
    for index, step in enumerate(m.flow):
        if step.is_season and step.season == phase.season and phase.type in step.phases:
            return index, step.phases.index(phase.type)
    raise ValueError(f"{phase} is not a phase of the {m.name} map's FLOW")


def next_phase(m: Map, phase: Phase) -> Phase:
    """The phase the FLOW puts after `phase` (no phase is skipped here)."""
    index, sub = _position(m, phase)
    step = m.flow[index]
    if sub + 1 < len(step.phases):
        return Phase(phase.season, phase.year, step.phases[sub + 1])
    year = phase.year
    has_newyear = any(s.newyear for s in m.flow)
    index += 1
    for _ in range(2 * len(m.flow) + 1):
        if index >= len(m.flow):
            index = 0
            if not has_newyear:
                year += 1
        step = m.flow[index]
        if step.newyear:
            year += step.newyear
        elif step.yeardiv is not None:
            divisor, modulus = step.yeardiv
            if year % divisor != modulus:
                index = len(m.flow)  # back to the first element of the FLOW
                continue
        else:
            return Phase(step.season, year, step.phases[0])
        index += 1
    raise ValueError(f"the {m.name} map's FLOW has no season to go to after {phase}")


def previous_phase(m: Map, phase: Phase, kind: str) -> Phase:
    """The last phase of type `kind` the FLOW puts before `phase` (from at most two years before)."""
    found = []
    for year in range(phase.year - 2, phase.year + 1):
        for step in m.seasons:
            if kind not in step.phases:
                continue
            candidate = step_to = Phase(step.season, year, kind)
            for _ in range(4 * len(m.flow) + 4):
                step_to = next_phase(m, step_to)
                if step_to == phase:
                    found.append(candidate)
                if step_to == phase or step_to.type == kind:
                    break
    if not found:
        raise ValueError(f"the {m.name} map's FLOW has no {kind} phase before {phase}")
    return max(found, key=lambda p: phase_key(m, p))


def parse_phase(m: Map, text: str) -> Phase:
    """`SPRING 1901 MOVEMENT` or `S1901M` (letters looked up in the map's FLOW)."""
    words = text.upper().split()
    if len(words) == 3 and YEAR.fullmatch(words[1]):
        phase = Phase(words[0], int(words[1]), words[2])
        _position(m, phase)
        return phase
    match = ABBREV.fullmatch(text.strip().upper())
    if match:
        season_letter, year, type_letter = match.groups()
        for step in m.seasons:
            for kind in step.phases:
                if step.season[0] == season_letter and kind[0] == type_letter:
                    return Phase(step.season, int(year), kind)
    raise ValueError(f"{text!r} is not a phase of the {m.name} map (e.g. SPRING 1901 MOVEMENT or S1901M)")


def flow_word(step: FlowStep) -> str:
    if step.newyear:
        return "NEWYEAR" if step.newyear == 1 else f"NEWYEAR:{step.newyear}"
    if step.yeardiv is not None:
        divisor, modulus = step.yeardiv
        return f"IFYEARDIV:{divisor}" + (f"={modulus}" if modulus else "")
    return f"{step.season}:{','.join(step.phases)}"


def phase_key(m: Map, phase: Phase) -> tuple[int, int, int]:
    """A sort key putting phases of the map in the order they are played."""
    try:
        index, sub = _position(m, phase)
    except ValueError:
        return phase.year, len(m.flow), 0
    return phase.year, index, sub
