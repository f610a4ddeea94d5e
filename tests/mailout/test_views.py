"""The values the templates read: order lines, dislodgements, ownership, the adjustment table."""
from __future__ import annotations

from datetime import UTC, datetime

from judge.adjudicator.model import OrderResult, Result
from judge.mailout import views
from judge.orders.model import Convoy, Move, Support, Waive
from tests.support.adjudications import datc_position, play
from tests.support.mail_cases import unit


def test_a_foreign_supported_unit_is_marked(standard):
    order = Support("RUSSIA", unit("A WAR"), unit("A GAL"), "UKR")
    line = views.order_line(standard, OrderResult(order), {"GAL": "AUSTRIA", "WAR": "RUSSIA"})
    assert (line.kind, line.foreign, line.target.owner.adjective) == ("support", True, "Austrian")
    assert (line.unit.place.name, line.dest.name) == ("Warsaw", "Ukraine")


def test_an_own_convoyed_army_is_not_foreign(standard):
    order = Convoy("ENGLAND", unit("F NTH"), "LON", "BEL")
    line = views.order_line(standard, OrderResult(order), {"LON": "ENGLAND"})
    assert (line.kind, line.foreign, line.target.kind) == ("convoy", False, "army")
    assert line.unit.place.water


def test_result_codes_and_civil_disorder_note(standard):
    result = OrderResult(Move("ITALY", unit("A VEN"), "TRI"), (Result.BOUNCE, Result.DISLODGED))
    assert views.order_line(standard, result).results == ("bounce", "dislodged")
    waive = views.order_line(standard, OrderResult(Waive("FRANCE"), (), "civil disorder"))
    assert (waive.kind, waive.civil_disorder) == ("waive", True)


def test_a_convoy_route_written_out_is_kept(standard):
    line = views.order_line(standard, OrderResult(Move("ENGLAND", unit("A LON"), "BEL", path=("NTH",))))
    assert [p.name for p in line.via] == ["North Sea"]


def test_datc_6c5_dislodged_fleet_and_its_retreats(standard):
    _, resolution = datc_position(standard, "6.C.5")
    report = views.phase_results(standard, resolution)
    assert [p.power.name for p in report.powers] == ["AUSTRIA", "ITALY", "TURKEY"]
    (dislodged,) = report.dislodged
    assert dislodged.unit.owner.adjective == "Turkish"
    assert [p.name for p in dislodged.retreats][:2] == ["Albania", "Apulia"]


def test_pending_builds_are_read_back_from_the_resolution(standard):
    position, resolution = play(standard, "W1901A", {"ENGLAND": ["F NTH"]}, {"ENGLAND": ["BUILD F LON"]},
                                centers={"ENGLAND": ["LON", "EDI", "LVP"]})
    assert views.before_adjustments(resolution).units["ENGLAND"] == position.units["ENGLAND"]
    report = views.phase_results(standard, resolution)
    assert [(p.power.name, p.pending) for p in report.powers] == [("ENGLAND", 1)]


def test_ownership_lists_the_unowned_last(standard):
    rows = views.ownership(standard, {"TURKEY": frozenset({"SMY", "ANK"}), "ITALY": frozenset()})
    assert rows[0].power.name == "TURKEY" and [p.name for p in rows[0].places] == ["Ankara", "Smyrna"]
    assert rows[-1].power is None and len(rows[-1].places) == 32


def test_captures_change_owners_and_free_centres():
    after = views.with_captures({"AUSTRIA": frozenset({"SER", "VIE"})}, {"SER": None, "RUM": "AUSTRIA"})
    assert after == {"AUSTRIA": frozenset({"RUM", "VIE"})}


def test_adjustment_table(standard):
    table = views.adjustments(standard, {"RUSSIA": [unit("A MOS"), unit("A WAR"), unit("F SEV")]},
                              {"RUSSIA": frozenset({"MOS", "WAR"})}, victors=["RUSSIA"])
    assert [(a.power.name, a.centers, a.units, a.change, a.victory) for a in table] == [
        ("RUSSIA", 2, 3, -1, True)]


def test_winter_is_fall_builds_for_the_mapper(standard):
    phase = views.phase_view(standard.begin)
    assert (phase.season, phase.type, phase.mapper) == ("Spring", "Movement", "S1901M")
    from judge.phases import parse_phase
    assert views.phase_view(parse_phase(standard, "W1901A")).mapper == "F1901B"


def test_times_are_shown_on_the_games_clock():
    moment = datetime(2025, 7, 1, 12, 0, tzinfo=UTC)
    assert views.local_time(moment, "Europe/Vienna").strftime("%H:%M %Z") == "14:00 CEST"
    assert views.local_time(moment, None).strftime("%H:%M %Z") == "12:00 GMT"
