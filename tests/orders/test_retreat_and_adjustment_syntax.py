"""Retreat and adjustment orders: verbs in front or behind, DISBAND and REMOVE mixed up, + - * too."""
from __future__ import annotations

import pytest

from judge.orders import Build, Disband, Keep, Retreat, Waive, parse_order
from tests.support.orders import RETREAT, WINTER, unit, units

DISLODGED = units(RUSSIA="F LVN, F STP/SC", ENGLAND="A LON", AUSTRIA="F TRI")
ON_BOARD = units(FRANCE="A PAR, F MAO", ENGLAND="F LVN")


@pytest.mark.parametrize("power, text, expected", [
    ("RUSSIA", "F livonia - stp/sc", Retreat("RUSSIA", unit("F LVN"), "STP/SC")),
    ("ENGLAND", "Army london to wales", Retreat("ENGLAND", unit("A LON"), "WAL")),
    ("AUSTRIA", "fleet trieste disband", Disband("AUSTRIA", unit("F TRI"))),
    ("RUSSIA", "The fleet in St. Petersburg (south coast) retreats to the Gulf of Bothnia",
     Retreat("RUSSIA", unit("F STP/SC"), "BOT")),
], ids=["dash-coast", "to", "disband-behind", "sentence"])
def test_examples_of_the_order_format_page(standard, power, text, expected):
    assert parse_order(standard, power, text, RETREAT, DISLODGED) == expected


@pytest.mark.parametrize("text", ["F TRI R ALB", "F TRI RETREAT ALB", "RETREAT F TRI - ALB", "F TRI ALB",
                                  "TRI - ALB", "F TRI -> ALB"],
                         ids=["R", "RETREAT", "RETREAT-in-front", "no-verb", "no-type", "arrow"])
def test_retreat_forms(standard, text):
    assert parse_order(standard, "AUSTRIA", text, RETREAT, DISLODGED) == Retreat("AUSTRIA", unit("F TRI"), "ALB")


@pytest.mark.parametrize("text", ["F TRI D", "F TRI DISBAND", "DISBAND F TRI", "F TRI REMOVE", "REMOVE TRI",
                                  "* F TRI", "F TRI DISBANDS"],
                         ids=["D", "DISBAND", "DISBAND-in-front", "REMOVE", "REMOVE-no-type", "star", "DISBANDS"])
def test_retreat_phase_disband_forms(standard, text):
    assert parse_order(standard, "AUSTRIA", text, RETREAT, DISLODGED) == Disband("AUSTRIA", unit("F TRI"))


@pytest.mark.parametrize("text", ["BUILD A PAR", "B A PAR", "+ A PAR", "A PAR BUILD", "build army paris",
                                  "BUILD PAR"],
                         ids=["BUILD", "B", "plus", "BUILD-behind", "words", "type-from-inland-place"])
def test_build_forms(standard, text):
    assert parse_order(standard, "FRANCE", text, WINTER, units(FRANCE="F MAO")) == Build("FRANCE", unit("A PAR"))


def test_fleet_build(standard):
    assert parse_order(standard, "ITALY", "B F NAP", WINTER, {}) == Build("ITALY", unit("F NAP"))


@pytest.mark.parametrize("text", ["REMOVE A PAR", "DISBAND A PAR", "D A PAR", "- A PAR", "A PAR -", "* A PAR",
                                  "A PAR REMOVE", "remove paris"],
                         ids=["REMOVE", "DISBAND", "D", "dash", "dash-behind", "star", "REMOVE-behind",
                              "no-type"])
def test_removal_forms(standard, text):
    assert parse_order(standard, "FRANCE", text, WINTER, ON_BOARD) == Disband("FRANCE", unit("A PAR"))


@pytest.mark.parametrize("text", ["WAIVE", "waive", "BUILD WAIVED", "WAIVED"], ids=["WAIVE", "lower", "BUILD-WAIVED",
                                                                                     "WAIVED"])
def test_waive_forms(standard, text):
    assert parse_order(standard, "FRANCE", text, WINTER, ON_BOARD) == Waive("FRANCE")


@pytest.mark.parametrize("text", ["KEEP F MAO", "HOLD F MAO", "F MAO KEEP", "KEEP MAO"],
                         ids=["KEEP", "HOLD", "KEEP-behind", "no-type"])
def test_keep_forms(standard, text):
    assert parse_order(standard, "FRANCE", text, WINTER, ON_BOARD) == Keep("FRANCE", unit("F MAO"))
