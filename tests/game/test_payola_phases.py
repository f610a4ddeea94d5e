"""Payola's phases processed by the judge as DPjudge processed them: every phase of the two games
DPjudge played by mail (`tests/support/record_payola_game.py`) processed from the status file
DPjudge held with every sheet and order in; the status file after it compared whole with the one
DPjudge saved, and its results mail with DPjudge's: the orders the bribes bought adjudicated, each
treasury charged, the sheets emptied, and each year's income paid. Status files compared as the
Crystal Ball game's are: less the next deadline, INHABITS, the order of OWNS and DPjudge's first
VOTE SOLO (docs/dpjudge.md)."""
from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from judge.game.process import process_phase
from judge.game.variants.payola import PAYOLA, full_acceptance, yearly_income
from judge.maps import MapCache
from judge.rule_names import Rule
from judge.status import parse_status, write_status
from judge.status.model import GameStatus, Tax
from tests.game.test_dpjudge_games import normalised, results_mails
from tests.game.test_xtalball_by_mail import status_as_compared
from tests.support.payola import recorded

NOW = datetime(2026, 11, 27, 20, 7, tzinfo=UTC)
PHASES = [(game, phase) for game in ("plain", "rich", "rules", "classic") for phase in recorded(game)["phases"]]


@pytest.mark.parametrize("game, phase", PHASES, ids=[f"{g}-{p['phase']}" for g, p in PHASES])
def test_the_phase_leaves_the_status_dpjudge_saved(game, phase):
    status = replace(parse_status(phase["ready"]), variant="payola")
    after, _ = process_phase(status, MapCache().get("standard"), NOW, PAYOLA)
    assert status_as_compared(write_status(after)) == status_as_compared(phase["status"])


@pytest.mark.parametrize("game, phase", PHASES, ids=[f"{g}-{p['phase']}" for g, p in PHASES])
def test_the_phase_sends_the_results_dpjudge_sent(game, phase):
    # the orders the bribes bought, under their owners' names; after the adjustments of a year,
    # the line saying that the year's income was paid
    status = replace(parse_status(phase["ready"]), variant="payola")
    after, events = process_phase(status, MapCache().get("standard"), NOW, PAYOLA)
    theirs = [{**m, "body": normalised(m["body"])} for m in phase["results"]
              if m["subject"].startswith("Diplomacy results")]
    assert results_mails(after, events) == theirs


def test_the_first_years_income_falls_with_each_centre_a_power_holds():
    # on the standard map (18 centres to win): 15 + 16 + 17 for three, 14 + 15 + 16 + 17 for four
    assert [yearly_income(("X",) * n, 18, 7, GameStatus(), frozenset()) for n in (3, 4, 5)] == [48, 62, 75]


def test_a_tax_sets_each_centres_yield_and_the_cap_limits_the_year():
    none = frozenset()
    flat = GameStatus(taxes=(Tax(4),), cap=10)
    assert yearly_income(("PAR", "BRE", "MAR"), 18, 7, flat, none) == 10
    assert yearly_income(("PAR", "BRE"), 18, 7, replace(flat, cap=None), none) == 8
    rated = GameStatus(taxes=(Tax(5, "PAR"), Tax(1, "BRE")))
    assert yearly_income(("PAR", "BRE", "MAR"), 18, 7, rated, none) == 6
    # FLAT_TAX: each centre yields as many as the map has powers, unless a TAX line says otherwise
    assert yearly_income(("PAR", "BRE", "MAR"), 18, 7, GameStatus(), frozenset({Rule.FLAT_TAX})) == 21
    assert yearly_income(("PAR",), 18, 7, replace(flat, cap=None), frozenset({Rule.FLAT_TAX})) == 4


def test_a_list_leaves_the_powers_it_does_not_name_to_an_order_drawn_for_the_phase():
    letters = list("AEFGIRT")
    full = full_acceptance("FG?", "F", letters, random.Random("g|S1901M"))
    assert full[:2] == "FG" and sorted(full) == sorted(letters)
    assert full == full_acceptance("FG?", "F", letters, random.Random("g|S1901M"))
    assert full_acceptance(None, "F", letters, random.Random(1))[0] == "F"
