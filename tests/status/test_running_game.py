"""Whole status files of a running standard game, as the judge writes them: read, checked, and
written back byte for byte."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.status import parse_status, write_status
from judge.status.model import (
    BuildOrder,
    Dislodged,
    GameStage,
    Handover,
    Need,
    PhaseMode,
    RemoveOrder,
    RetreatOrder,
    RotateStep,
    RotateWhen,
    Vacancy,
    Vote,
    VoteKind,
)
from judge.types import Phase, Unit, UnitType
from tests.support.status import DATA

A, F = UnitType.ARMY, UnitType.FLEET
FILES = ["spring1902.status", "fall1902r.status", "winter1902.status"]


def read(name: str):
    text = (DATA / name).read_text()
    return text, parse_status(text, name)


@pytest.mark.parametrize("name", FILES)
def test_judge_written_file_is_reproduced_byte_for_byte(name):
    text, status = read(name)
    assert write_status(status) == text


@pytest.mark.parametrize("name", FILES)
def test_units_and_centres_are_on_the_standard_map(name, standard):
    _, status = read(name)
    for block in status.powers:
        assert all(standard.can_stand(u) for u in block.units + tuple(d.unit for d in block.dislodged))
        assert set(block.owns) <= standard.supply_centers
        if block.is_power:
            assert block.name in standard.powers


def test_movement_phase_game_block():
    _, s = read("spring1902.status")
    assert (s.name, s.phase, s.phase_mode) == ("vienna", Phase("SPRING", 1902, "MOVEMENT"),
                                               PhaseMode.PHASE)
    assert (s.map_name, s.trial, s.deadline, s.zone, s.delay) == (
        "standard", False, "202502101800", "Europe/Vienna", 1)
    assert s.timing == "AT 18:00 DAYS -MTWTF- NEXT 2D WARN 1D,4H GRACE 24H"
    assert s.rules == {"CIVIL_DISORDER", "DEFAULT_UNORDERED"} and s.rules_off == {"BROADCAST_ORDERS"}
    assert s.need == (Need("ITALY", 4, 4),)
    assert s.rotate == (RotateStep(RotateWhen.BEFORE, "MOVE"), RotateStep(RotateWhen.FOR, "RETREAT"))
    assert len(s.description) == 4 and s.origin == ("After the Congress of Vienna",)


def test_movement_phase_powers():
    _, s = read("spring1902.status")
    assert [p.name for p in s.powers] == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY",
                                          "RUSSIA", "TURKEY", "KIBITZ", "MAPPER"]
    assert sum(len(p.owns) for p in s.powers) == 34
    france = s.power("FRANCE")
    assert france.wait and france.orders[0] == "A BUR - MUN" and len(france.orders) == 5
    assert france.player.handovers == (Handover("S1901R", france.player.handovers[0].previous),)
    assert s.power("ENGLAND").orders is None
    assert s.power("ITALY").player.current is Vacancy.RESIGNED and not s.power("ITALY").address
    assert s.power("RUSSIA").cd and Unit(F, "STP/NC") in s.power("RUSSIA").units
    assert s.power("TURKEY").vote == Vote(VoteKind.DRAW, 2)
    assert (s.power("KIBITZ").kind, s.power("MAPPER").kind) == ("OBSERVER", "MONITOR")


def test_retreat_phase():
    _, s = read("fall1902r.status")
    austria, russia = s.power("AUSTRIA"), s.power("RUSSIA")
    assert austria.dislodged == (Dislodged(Unit(A, "GAL"), ("BOH", "SIL", "UKR")),)
    assert austria.adjustments == (RetreatOrder(Unit(A, "GAL"), "BOH"),)
    assert Unit(A, "GAL") in russia.units and russia.dislodged[0].retreats == ("ARM",)


def test_adjustment_phase():
    _, s = read("winter1902.status")
    assert s.power("AUSTRIA").adjustments == (BuildOrder(Unit(A, "VIE")), BuildOrder(None))
    russia = s.power("RUSSIA")
    assert russia.adjustments == (RemoveOrder(Unit(A, "GAL")),)
    assert russia.player.dummy and russia.control == ("TURKEY",) and russia.password is None


def test_awaiting_snapshot_and_completed_game():
    text, s = read("spring1902.status")
    awaiting = write_status(replace(s, phase_mode=PhaseMode.AWAIT))
    assert awaiting.splitlines()[1] == "AWAIT SPRING 1902 MOVEMENT"
    done = parse_status(text.replace("PHASE SPRING 1902 MOVEMENT", "PHASE COMPLETED\nRESULT F1907M "
                                     "AUSTRIA\nFINISH Tue Jun 03 2025"))
    assert done.completed and done.result.victors == ("AUSTRIA",)
    assert done.phase is GameStage.COMPLETED
