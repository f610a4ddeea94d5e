"""jDip and Mapper read results line by line: an order line and its result words stay on one line
however long, and a dislodged unit's retreats are listed with `or`."""
from __future__ import annotations

from datetime import UTC, datetime

from judge.mailout import views
from judge.mailout.render import environment, render

LONG = views.Place("XXX", "The Very Long Named Province of Somewhere Far Beyond the Sea", False)
SHORT = views.Place("YYY", "Elsewhere", False)
POWER = views.PowerView("ENGLAND", "England", "English", "E")
GAME = views.GameView("TEST", "jigdy", "standard", "GMT")
WHEN = datetime(2026, 11, 30, 4, 0, tzinfo=UTC)


def _mail(report: views.PhaseReport) -> str:
    return render(environment(), "results", game=GAME, results=report, revealed=(), lost=(), ownership=None,
           adjustments=None, next_phase=None, deadline=None, processed_deadline=WHEN).body


def test_an_order_line_and_its_result_words_are_never_wrapped():
    army = views.UnitView("army", LONG, POWER)
    line = views.OrderLine(POWER, "support", views.UnitView("fleet", LONG, POWER), target=army,
                           dest=LONG, results=("cut", "dislodged"))
    phase = views.PhaseView("Spring", 1901, "Movement", "movement", "S1901M", "S1901M")
    body = _mail(views.PhaseReport(phase, (views.PowerOrders(POWER, (line,)),)))
    expected = (f"England: Fleet {LONG.name} SUPPORT Army {LONG.name} -> {LONG.name}."
                "  (*cut, dislodged*)")
    assert expected in body.splitlines()


def test_retreats_are_listed_with_or():
    unit = views.UnitView("fleet", views.Place("NTH", "North Sea", True), POWER)
    places = tuple(views.Place(a, n, False) for a, n in
                   (("DEN", "Denmark"), ("EDI", "Edinburgh"), ("YOR", "Yorkshire")))
    phase = views.PhaseView("Fall", 1902, "Movement", "movement", "F1902M", "F1902M")
    report = views.PhaseReport(phase, (), (views.Dislodgement(unit, places),))
    body = _mail(report)
    assert ("The English fleet in the North Sea can retreat to Denmark or Edinburgh or\n"
            "Yorkshire.") in body  # wrapped at 75 columns between words, as DPjudge does


def test_hidden_builds_are_found_before_their_powers_orders_as_dpjudge_writes_them():
    austria = views.PowerView("AUSTRIA", "Austria", "Austrian", "A")
    vienna = views.UnitView("army", views.Place("VIE", "Vienna", False), austria)
    hold = views.OrderLine(austria, "hold", vienna)
    phase = views.PhaseView("Spring", 1902, "Movement", "movement", "S1902M", "S1902M")
    body = render(environment(), "results", game=GAME,
                  results=views.PhaseReport(phase, (views.PowerOrders(austria, (hold,)),)),
                  revealed=(views.Holding(austria, (), (vienna,)),), lost=(), ownership=None,
                  adjustments=None, next_phase=None, deadline=None, processed_deadline=WHEN).body
    assert "\n\nAustria: Army Vienna FOUND.\nAustria: Army Vienna HOLD.\n\n" in body
