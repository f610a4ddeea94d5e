"""Order lines as a complete replacement, every error at once, CLEAR / NMR, STATUS, a line naming
a power."""
from __future__ import annotations

from dataclasses import replace

import pytest

from judge.game.orders import due_powers, duties, orders_on_file
from judge.game.rules import rules_in_force
from judge.maps import load_map
from judge.status.model import BuildOrder, PhaseMode, RemoveOrder, RetreatOrder
from judge.types import Unit, UnitType
from tests.support.commands import GAMES, LATE, eml


def test_orders_replace_those_on_file_and_are_echoed_as_stored(vienna):
    sent = vienna.send("orders.eml")
    outcome = sent.outcome("5 order lines for FRANCE")
    assert outcome.lines == ("The orders of FRANCE for SPRING 1902 MOVEMENT are now:",)
    assert outcome.quoted == ("A PAR - BUR", "A BUR - MUN", "F MAO - POR", "F BRE - ENG",
                              "A SPA - GAS")
    assert vienna.status("vienna").power("FRANCE").orders == outcome.quoted


def test_loose_order_text_is_stored_in_the_judges_form(vienna):
    sent = vienna.send("orders_loose.eml")
    assert sent.outcome("4 order lines").quoted == ("A PAR - BUR", "A BUR - MUN", "F MAO - POR",
                                                    "F BRE H")
    assert vienna.status("vienna").power("FRANCE").orders == ("A PAR - BUR", "A BUR - MUN",
                                                              "F MAO - POR", "F BRE H")


def test_every_bad_order_is_reported_and_none_is_stored(vienna):
    """As DPjudge: one line it cannot take and it lists the mail's every order line as "Erroneous
    orders", storing none of them."""
    before = vienna.status("vienna").power("FRANCE").orders
    sent = vienna.send("orders_errors.eml")
    outcome = sent.outcome("4 order lines")
    assert not outcome.ok and outcome.lines[0].startswith("2 of the orders for FRANCE")
    assert outcome.lines[1].startswith("A PAR - MOS: ") and outcome.lines[2].startswith("F XYZ H: ")
    assert vienna.status("vienna").power("FRANCE").orders == before
    assert "The orders for FRANCE in this mail were not stored." in sent.text


def test_clear(vienna):
    sent = vienna.send("orders_clear.eml")
    assert "The orders of FRANCE for SPRING 1902 MOVEMENT are cleared." in sent.text
    assert vienna.status("vienna").power("FRANCE").orders is None


def test_clear_refused_under_must_order(judge):
    judge.add("vienna", rules=("MUST_ORDER",))
    sent = judge.send("orders_clear.eml")
    assert sent.failed and "MAY NOT BE CLEARED AFTER SUBMISSION" in sent.text
    assert judge.status("vienna").power("FRANCE").orders is not None


def test_nmr_drops_the_orders_before_it(vienna):
    sent = vienna.send("orders_nmr.eml")
    assert sent.outcome("2 order lines").quoted == ("A SPA - GAS",)


def test_status_lists_the_orders_on_file(vienna):
    quoted = vienna.send("orders_status.eml").outcome("STATUS").quoted
    assert quoted[:2] == ("FRANCE:", "  A BUR - MUN")


def test_the_master_names_the_power(vienna):
    sent = vienna.send("orders_master.eml")
    assert sent.outcome("GERMANY").lines == ("The orders that follow are for GERMANY.",)
    assert vienna.status("vienna").power("GERMANY").orders == ("A MUN H", "A RUH - BEL")


def test_the_master_must_name_a_power_first(vienna):
    sent = vienna.send("orders_master_no_power.eml")
    assert sent.failed and "first write a line naming the power" in sent.prose


def test_a_player_cannot_order_for_another_power(vienna):
    sent = vienna.send("orders_not_mine.eml")
    assert sent.failed and "you do not control GERMANY" in sent.text
    assert vienna.status("vienna").power("GERMANY").orders is None


def test_observers_give_no_orders(vienna):
    sent = vienna.send("orders_observer.eml")
    assert sent.failed and "KIBITZ gives no orders" in sent.text


def test_retreat_orders(judge):
    judge.add("fall")
    sent = judge.send("orders_retreat.eml")
    assert sent.outcome("1 order line for AUSTRIA").quoted == ("A GAL R SIL",)
    assert judge.status("fall").power("AUSTRIA").adjustments == (
        RetreatOrder(Unit(UnitType.ARMY, "GAL"), "SIL"),)


def test_build_orders(judge):
    judge.add("winter")
    sent = judge.send("orders_builds.eml")
    assert not sent.failed
    assert judge.status("winter").power("AUSTRIA").adjustments == (
        BuildOrder(Unit(UnitType.FLEET, "TRI")), BuildOrder(None))


def test_waives_past_the_builds_the_open_sites_allow_are_dropped_as_dpjudge_does(judge):
    """Austria may build twice but only Vienna is open: DPjudge keeps the build and drops the
    waives (its results then tell one build pending, and no waive)."""
    judge.add("winter")
    path = judge.store.root / "winter" / "status"
    path.write_text(judge.text("winter").replace("A RUM\nA GRE\nA SER\n", "A BUD\nF TRI\nA GRE\n"))
    sent = judge.send(eml("orders_builds.eml", (b"BUILD F TRI\r\nWAIVE", b"BUILD A VIE\r\nWAIVE\r\nWAIVE")))
    assert not sent.failed
    assert judge.status("winter").power("AUSTRIA").adjustments == (BuildOrder(Unit(UnitType.ARMY, "VIE")),)


def test_the_controller_of_a_dummy_orders_for_it(judge):
    judge.add("winter")
    sent = judge.send("orders_controller.eml")
    assert sent.outcome("RUSSIA").ok
    assert judge.status("winter").power("RUSSIA").adjustments == (
        RemoveOrder(Unit(UnitType.ARMY, "UKR")),)


def test_only_the_controller_orders_for_a_dummy(judge):
    judge.add("winter")
    sent = judge.send("orders_controller_no.eml")
    assert sent.failed and "you do not control RUSSIA" in sent.text


def test_no_orders_while_forming(judge):
    judge.add("forming")
    sent = judge.send("orders_forming.eml")
    assert sent.failed and "is forming: no orders are taken" in sent.text


def test_no_late_changes_after_the_deadline(vienna):
    # CIVIL_DISORDER brings NO_LATE_CHANGES with it
    before = vienna.text("vienna")
    sent = vienna.send("orders.eml", now=LATE)
    assert sent.failed and "may not be changed after the deadline" in sent.text
    assert vienna.text("vienna") == before


def test_without_deadlines_orders_may_change_at_any_time(judge):
    judge.add("vienna", rules=("NO_DEADLINE",))  # NO_LATE_CHANGES too, by CIVIL_DISORDER
    assert not judge.send("orders.eml").failed
    sent = judge.send("orders.eml", now=LATE)  # after the DEADLINE line's time: not in force
    assert not sent.failed and "may not be changed" not in sent.text


def test_late_orders_are_taken_where_nothing_was_on_file(vienna):
    sent = vienna.send("orders_master.eml", now=LATE)
    assert not sent.failed


def test_the_orders_of_one_power_read_alone_are_those_of_the_whole_sheet(vienna):
    vienna.send("orders.eml")
    status = vienna.status("vienna")
    m = load_map(status.map_name)
    rules = rules_in_force(status, m)
    whole = orders_on_file(status, m, status.phase, rules)
    alone = orders_on_file(status, m, status.phase, rules, powers={"FRANCE"})
    assert len(whole.orders) > 1 and alone.orders == {"FRANCE": whole.orders["FRANCE"]}
    assert dict(alone.unreadable) == {p: u for p, u in whole.unreadable.items() if p == "FRANCE"}


@pytest.mark.parametrize("mode", [None, PhaseMode.WAIT, PhaseMode.SKIP])
def test_the_powers_due_are_known_without_reading_the_orders(vienna, mode):
    status = vienna.status("vienna")
    status = replace(status, phase_mode=mode) if mode else status
    m = load_map(status.map_name)
    rules = rules_in_force(status, m)
    assert due_powers(status, m, rules) == duties(status, m, rules).due
    assert bool(due_powers(status, m, rules)) == (mode is None)


def test_signal_support_is_stored_and_reported_void(judge):
    """SIGNAL_SUPPORT: a support no unit could give is taken at entry; the results call it void."""
    judge.add("vienna", rules=("SIGNAL_SUPPORT",))
    sent = judge.send(eml("orders.eml", (b"A SPA - GAS", b"A SPA S A VIE - ROM")))
    assert sent.outcome("5 order lines").quoted[-1] == "A SPA S A VIE - ROM"
    processed = judge.send("master_process_force.eml")
    results = judge.results("vienna", processed.events)
    assert "France: Army Spain SUPPORT Austrian Army Vienna -> Rome.  (*void*)" in results


def test_a_proxy_order_is_stored_under_proxy_ok(judge):
    judge.add("vienna", rules=("PROXY_OK",))
    sent = judge.send(eml("orders.eml", (b"A PAR - BUR", b"A PAR PROXY GERMANY")))
    assert "A PAR PROXY GERMANY" in sent.outcome("5 order lines for FRANCE").quoted
    assert "A PAR PROXY GERMANY" in judge.status("vienna").power("FRANCE").orders


def test_no_proxy_without_proxy_ok_nor_to_a_vacant_power(judge):
    judge.add("vienna")
    sent = judge.send(eml("orders.eml", (b"A PAR - BUR", b"A PAR PROXY GERMANY")))
    assert sent.failed and "proxy orders are not allowed in this game (PROXY_OK)" in sent.text


def test_no_proxy_to_a_dummy(judge):
    from judge.app.orders import proxy_problem
    from judge.orders import Proxy
    status = judge.add("winter")
    order = Proxy("FRANCE", Unit(UnitType.ARMY, "PAR"), "RUSSIA")
    assert proxy_problem(status, order) == "no proxy to RUSSIA: a dummy power"
    assert proxy_problem(status, replace(order, to="AUSTRIA")) is None


def test_a_build_with_every_home_occupied_is_refused_saying_why(judge):
    # Turkey owns five centres with four units, each of its homes (ANK, CON, SMY) occupied
    text = (GAMES / "winter.status").read_text(encoding="utf-8").replace(
        "OWNS BUD GRE RUM SER TRI VIE", "OWNS BUD RUM SER TRI VIE").replace(
        "OWNS ANK BUL CON SMY\nA BUL", "OWNS ANK BUL CON GRE SMY\nA SMY")
    judge.store.create("winter", text)
    sent = judge.send(eml("orders_builds.eml", (b"SIGNON Awinter wien1", b"SIGNON Twinter 1stanbul"),
                          (b"BUILD F TRI\r\nWAIVE", b"BUILD A ANK")))
    assert sent.failed
    assert "TURKEY has no orders to give in WINTER 1902 ADJUSTMENTS: its 1 build cannot be " \
        "used: no home supply center it owns is free to build in" in sent.prose
