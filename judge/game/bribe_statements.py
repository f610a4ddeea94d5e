"""Each power's account statement after a Payola movement phase, as DPjudge's ledger gives it.

A power with a bribe on its sheet (every power with units has one: a hold of each unit it did not
bribe) is told the order each of its units carries out and the money paid for it (`*`: none of it
its own), the bribes it paid that won (listed in the order DPjudge lists them,
`judge.game.python2_order`), its sheet as written, its balance before, how many times its bribes
were lowered for overspending, what the phase cost it and what it has left. Under HIDE_COST the
units' orders are listed under their heading no more; under HIDE_OFFERS no unit is flagged and
nothing is said of the power's own bribes (only that it offered none, when it did not).
"""
from __future__ import annotations

from collections.abc import Mapping

from judge.game.bribes import Candidate, Settlement
from judge.maps.model import Map
from judge.orders.model import Support
from judge.orders.reach import crossings
from judge.game.offer_sheet import Sheet
from judge.game.python2_order import python2_order
from judge.events import BribeStatement
from judge.rule_names import Rule, Rules
from judge.status.model import PowerStatus


def statements(m: Map, blocks: list[PowerStatus], settlement: Settlement, sheets: Mapping[str, Sheet],
               places: Mapping[str, int], balances: Mapping[str, int], rules: Rules = frozenset()
               ) -> tuple[BribeStatement, ...]:
    """The statements, in the powers' order. `places`: each power's place in its own full
    acceptance list (where its own bribes rank for its units)."""
    winners = {s.unit.text: s for s in settlement.units}
    listed = python2_order(s.unit.text for s in settlement.units)
    told = []
    for block in blocks:
        sheet = sheets[block.name]
        if not sheet.offers and not balances[block.name]:
            continue
        hidden = Rule.HIDE_OFFERS in rules
        units = tuple(_unit_line(m, winners[u.text].candidates[0], places[block.name], u.text, hidden)
                      for u in block.units)
        accepted = tuple((winners[unit].candidates[0].cost[block.name], unit, _rest(m, winners[unit].candidates[0]))
                         for unit in listed if block.name in winners[unit].candidates[0].cost)
        spent = settlement.spent.get(block.name, 0)
        told.append(BribeStatement(block.name, units, accepted, tuple(_sheet_line(x) for x in sheet.lines),
                                   bool(sheet.offers), balances[block.name],
                                   settlement.reductions.get(block.name, 0), spent,
                                   balances[block.name] - spent, Rule.HIDE_COST in rules, hidden))
    return tuple(told)


def _unit_line(m: Map, winner: Candidate, place: int, unit: str, hidden: bool) -> tuple[str, int, str, str]:
    flag = "*" if winner.earliest[place] is None and not hidden else " "
    return flag, winner.total, unit, _rest(m, winner)


def _rest(m: Map, candidate: Candidate) -> str:
    """The order without its unit; a supported fleet's move named with the one coast it can reach,
    as DPjudge names it (`S F FIN - STP/SC`)."""
    order = candidate.order
    text = str(order)[len(order.unit.text) + 1:]
    if isinstance(order, Support) and order.dest and "/" not in order.dest and order.target.type.value == "F":
        coasts = {a.dest for a in crossings(m, order.target, order.dest) if "/" in a.dest}
        if len(coasts) == 1:
            text = text.removesuffix(order.dest) + coasts.pop()
    return text


def _sheet_line(line: str) -> str:
    """A sheet line with its amount set right in six places (a line with none is a 0 bribe), in
    capitals, as DPjudge reads the sheet back from its status file."""
    line = line.upper()
    if not line[:1].isdigit():
        line = "0 : " + line
    return " " * (6 - line.find(" ")) + line
