"""Powers told apart on every shipped map: each two power colours, and each against the grounds a
unit or a centre stands on, measured as CIEDE2000 differences for normal sight and under simulated
protanopia, deuteranopia and tritanopia; a province's tint likewise against the sea, neutral land and
the other powers' tints. The thresholds are in docs/drawing.md."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from coloraide import Color

from judge.drawing.svg import LAND, PALETTE, SEA, colours, tinted
from judge.maps import load_map

MAPS = Path(__file__).resolve().parents[2] / "maps"
UNOWNED_CENTRE = "#ffffff"
SIGHTS = (None, "protan", "deutan", "tritan")
# (normal sight, each colour blindness): a unit or centre's colour; a province's tint
COLOUR_APART, TINT_APART = (20.0, 10.0), (10.0, 5.0)
# chaos's 34 powers are more than colours can keep as far apart: what its colours hold instead
# (docs/drawing.md); against the grounds they hold what every map's do
TOO_MANY = {"chaos"}
CROWD_APART, CROWD_TINTS_APART = (12.0, 6.0), (5.0, 1.5)


def difference(a: str, b: str, sight: str | None) -> float:
    first, second = Color(a), Color(b)
    if sight:
        first, second = first.filter(sight), second.filter(sight)
    return first.delta_e(second, method="2000")


def too_close(pairs, apart: tuple[float, float]) -> list[str]:
    found = []
    for (name, colour), (other, against) in pairs:
        for sight in SIGHTS:
            least = apart[0] if sight is None else apart[1]
            found += [f"{name}/{other} ({sight or 'normal'}): {d:.1f} < {least}"
                      for d in [difference(colour, against, sight)] if d < least]
    return found


def shipped() -> list[str]:
    return sorted(p.stem for p in MAPS.glob("*.map") if p.stem not in TOO_MANY)


@pytest.mark.parametrize("name", shipped())
def test_every_two_powers_are_told_apart(name):
    powers = sorted(colours(load_map(name)).items())
    assert too_close(itertools.combinations(powers, 2), COLOUR_APART) == []


@pytest.mark.parametrize("name", shipped())
def test_a_powers_units_and_centres_show_on_every_ground(name):
    grounds = [("land", LAND), ("sea", SEA), ("unowned centre", UNOWNED_CENTRE)]
    powers = sorted(colours(load_map(name)).items())
    assert too_close(itertools.product(powers, grounds), COLOUR_APART) == []


@pytest.mark.parametrize("name", shipped())
def test_owned_land_is_told_from_sea_neutral_land_and_other_owners(name):
    tints = [(power, tinted(LAND, colour)) for power, colour in sorted(colours(load_map(name)).items())]
    grounds = [("neutral land", LAND), ("sea", SEA)]
    assert too_close(itertools.product(tints, grounds), TINT_APART) == []
    assert too_close(itertools.combinations(tints, 2), TINT_APART) == []


def test_any_ten_powers_of_a_new_map_are_told_apart():
    ten = [(f"P{i}", colour) for i, colour in enumerate(PALETTE[:10])]
    assert too_close(itertools.combinations(ten, 2), COLOUR_APART) == []


@pytest.mark.parametrize("name", sorted(TOO_MANY))
def test_the_powers_of_a_crowded_map_are_as_far_apart_as_the_crowds_palette_holds(name):
    powers = sorted(colours(load_map(name)).items())
    assert len({colour for _, colour in powers}) == len(powers)  # no colour repeats
    assert too_close(itertools.combinations(powers, 2), CROWD_APART) == []
    tints = [(power, tinted(LAND, colour)) for power, colour in powers]
    assert too_close(itertools.combinations(tints, 2), CROWD_TINTS_APART) == []


@pytest.mark.parametrize("name", sorted(TOO_MANY))
def test_the_powers_of_a_crowded_map_show_on_every_ground(name):
    powers = sorted(colours(load_map(name)).items())
    grounds = [("land", LAND), ("sea", SEA), ("unowned centre", UNOWNED_CENTRE)]
    assert too_close(itertools.product(powers, grounds), COLOUR_APART) == []
    tints = [(power, tinted(LAND, colour)) for power, colour in powers]
    assert too_close(itertools.product(tints, [("neutral land", LAND), ("sea", SEA)]), TINT_APART) == []
