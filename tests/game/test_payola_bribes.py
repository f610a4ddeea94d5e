"""Payola's bribes settled as DPjudge settles them: the offer sheets of two games DPjudge played by
mail (one of small bribes; one of large ones, with wildcards, repetitions and plateaus, where
treasuries are overspent and bribes lowered) read and settled by the judge, and each unit's order
and the money paid for it, each power's reductions and remaining balance, compared with DPjudge's
account statements."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.errors import OrderError
from judge.events import BribesSettled
from judge.game.offer_sheet import SheetReader
from judge.game.positions import position_of
from judge.game.process import process_phase
from judge.game.variants.payola import PAYOLA
from judge.mailout.mailings import Mailer
from judge.maps import MapCache
from judge.rule_names import Rule
from judge.status import parse_status, write_status
from tests.game.test_dpjudge_games import normalised
from tests.game.test_xtalball_by_mail import status_as_compared
from tests.support.commands import MAPS, TEMPLATES
from tests.support.payola import ledgers, movement_phases, settled

PHASES = [(game, phase) for game in ("plain", "rich", "rules") for phase in movement_phases(game)]
IDS = [f"{game}-{phase['phase']}" for game, phase in PHASES]


@pytest.mark.parametrize("game, phase", PHASES, ids=IDS)
def test_each_unit_takes_the_order_and_the_money_dpjudge_gave_it(game, phase):
    settlement = settled(phase).settlement
    mine = {s.unit.text: (s.candidates[0].total, str(s.order)[len(s.unit.text) + 1:]) for s in settlement.units}
    for power, ledger in ledgers(phase).items():
        said = {unit: (total, _uncoasted(order)) for unit, (total, order) in ledger.orders.items()}
        assert {unit: mine[unit] for unit in ledger.orders} == said, power


def _uncoasted(order: str) -> str:
    """DPjudge's statement names the coast a supported fleet moves to (`S F FIN - STP/SC`) where
    the order read names the province."""
    return re.sub(r"^(S F \S+ - [A-Z]{3})/[A-Z]{2}$", r"\1", order)


@pytest.mark.parametrize("game, phase", PHASES, ids=IDS)
def test_each_power_pays_and_is_lowered_as_dpjudge_said(game, phase):
    done = settled(phase)
    balances = {b.name: b.funds[0].amount for b in done.status.powers}
    for power, ledger in ledgers(phase).items():
        assert balances[power] - done.settlement.spent[power] == ledger.remaining, power
        assert done.settlement.reductions[power] == ledger.reductions, power


@pytest.mark.parametrize("game, phase", PHASES, ids=IDS)
def test_each_sheet_line_reads_back_as_dpjudge_kept_it(game, phase):
    done = settled(phase)
    for block in done.status.powers:
        assert done.sheets[block.name].lines == block.offers


def test_the_rich_game_overspends_ties_and_uses_every_kind_of_offer():
    # what the comparisons above stand on: without these, the game would prove little
    phases = [settled(p) for p in movement_phases("rich")]
    assert any(any(s.settlement.reductions.values()) for s in phases)
    codes = {o.code for s in phases for sheet in s.sheets.values() for o in sheet.offers}
    assert codes == set(":!@>&")
    assert any(o.plateau for s in phases for sheet in s.sheets.values() for o in sheet.offers)
    assert any(sheet.saved for s in phases for sheet in s.sheets.values())
    ties = [u for s in phases for u in s.settlement.units
            if len(u.candidates) > 1 and u.candidates[0].total == u.candidates[1].total]
    assert ties


OPENING = "GAME g\nPHASE SPRING 1901 MOVEMENT\nMAP standard\n\nFRANCE\nA PAR\nF BRE\n\nGERMANY\nA MUN\n"


def read(lines: list[str], payer: str = "FRANCE", rules: frozenset[str] = frozenset()):
    status = parse_status(OPENING)
    m = MapCache().get("standard")
    reader = SheetReader(m, position_of(status, m, status.phase), rules | {Rule.ORDER_ANY})
    return reader.read(payer, lines)


def test_amounts_codes_and_orders_are_written_as_dpjudge_keeps_them():
    sheet = read(["a par-bur", "5:A PAR - PIC | - GAS", "3 * 2 ! F BRE H", "10#4 @ a mun - bur",
                  "4 $ % my savings", "% a plan"])
    assert sheet.lines == ("0 : A PAR - BUR", "5 : A PAR - PIC | - GAS", "3*2 ! F BRE H", "10#4 @ A MUN - BUR",
                           "4 $ % my savings", "% a plan")
    assert sheet.saved == 4


def test_repetitions_alternatives_and_wildcards_spread_as_dpjudge_spreads_them():
    offers = read(["3*2 : A PAR - BUR | - PIC", "4 ! F BRE - MAO"]).offers
    direct = [(str(o.orders[0]), o.amount, o.number) for o in offers if o.code == ":"]
    assert direct[:6] == [("A PAR - BUR", 2, 0), ("A PAR - PIC", 2, 1), ("A PAR - BUR", 2, 2),
                          ("A PAR - PIC", 2, 3), ("A PAR - BUR", 2, 4), ("A PAR - PIC", 2, 5)]
    # `!` adds a free hold (the order it excepts) and then the wildcard itself
    assert [(o.code, o.amount) for o in offers[6:8]] == [(":", 0), ("!", 4)]


def test_under_zero_foreign_a_bribe_of_nothing_to_a_foreign_unit_is_taken():
    assert read(["0 : A MUN - BUR"], rules=frozenset({Rule.ZERO_FOREIGN})).lines == ("0 : A MUN - BUR",)


@pytest.mark.parametrize("line, rules, message", [
    ("0 : A MUN - BUR", frozenset(), "ZERO AgP OFFER TO FOREIGN UNIT: A MUN"),
    ("5 $", frozenset({Rule.NO_SAVINGS}), "SAVINGS NOT ALLOWED IN THIS GAME"),
    ("5#2 $", frozenset(), "PLATEAU AMOUNT ON SAVINGS REQUEST"),
    ("5#2 : A PAR - BUR", frozenset({Rule.NO_PLATEAU}), "PLATEAUS NOT ALLOWED"),
    ("5#2 : A PAR - BUR", frozenset({Rule.NO_SAVINGS}), "PLATEAUS NOT ALLOWED"),
    ("5#7 : A PAR - BUR", frozenset(), "INVALID OFFER AMOUNT: 5#7"),
    ("10000 : A PAR - BUR", frozenset(), "INVALID OFFER AMOUNT: 10000"),
    ("5+ : A PAR - BUR", frozenset(), "ADDITIONAL BRIBE NOT GIVEN: 5+"),
    ("5 ; A PAR - BUR", frozenset(), "BAD OFFER TYPE"),
    ("5 :", frozenset(), "INCOMPLETE OFFER"),
    ("5 : A PAR", frozenset(), "NO ORDER GIVEN: A PAR"),
    ("5 : A PAR - BUR | - BUR", frozenset(), "DUPLICATE ORDER IN OFFER: A PAR - BUR"),
    ("5 : A PAR - MOS", frozenset(), "A PAR - MOS"),
])
def test_a_line_dpjudge_refuses_is_refused_saying_why(line, rules, message):
    with pytest.raises(OrderError, match=message.replace("*", r"\*").replace("+", r"\+")):
        read([line], rules=rules)


def test_under_ebayola_a_tie_costs_the_preferred_winner_one_piece_more_as_dpjudge_charges_it():
    """`tests/support/record_payola_positions.py`: France's and Russia's 5 AgP bribes to Germany's A MUN
    tie; France, first on Germany's list, wins and pays 6 (DPjudge gives back -1). The status and
    every statement are DPjudge's."""
    tie = json.loads((Path(__file__).parent / "fixtures" / "payola_ebayola_tie.json").read_text())
    status = replace(parse_status(tie["ready"]), variant="payola")
    after, events = process_phase(status, MapCache().get("standard"), datetime(2026, 11, 27, tzinfo=UTC), PAYOLA)
    assert status_as_compared(write_status(after)) == status_as_compared(tie["status"])
    mailer = Mailer(TEMPLATES, after, MAPS.get("standard"), judge="TEST")
    settled_events = [e for e in events if isinstance(e, BribesSettled)]
    mine = sorted(normalised(m.rendered.body) for m in mailer.for_events(settled_events))
    assert mine == sorted(normalised(m["body"]) for m in tie["results"] if "bribe" in m["subject"])
