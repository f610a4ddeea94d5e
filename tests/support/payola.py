"""The Payola games DPjudge played by mail (`tests/support/record_payola_game.py`): each movement
phase's sheets as DPjudge kept them, settled by the judge, and what DPjudge's ledgers said."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from judge.game.bribes import Owner, Settlement, settle
from judge.game.offer_sheet import Sheet, SheetReader
from judge.game.positions import position_of
from judge.game.rules import rules_in_force
from judge.maps import MapCache
from judge.rule_names import Rule
from judge.status import parse_status
from judge.status.model import GameStatus
from judge.types import MOVEMENT, Phase

TESTS = Path(__file__).parent.parent
GAMES = {"plain": TESTS / "status" / "fixtures" / "payola_by_mail.json",
         "rich": TESTS / "game" / "fixtures" / "payola_rich_by_mail.json",
         # FLAT_TAX, NO_HOARDING and ZERO_FOREIGN
         "rules": TESTS / "game" / "fixtures" / "payola_rules_by_mail.json",
         # PAYOLA_CLASSIC (FLAT_TAX, NO_SAVINGS, DIRECT_ONLY, ZERO_FOREIGN) and LIMIT_OFFERS
         "classic": TESTS / "game" / "fixtures" / "payola_classic_by_mail.json",
         # TOUCH_BRIBE, large bribes: DPjudge refuses the sheets bribing units too far away
         "touch": TESTS / "game" / "fixtures" / "payola_touch_by_mail.json",
         # HIDE_COST and HIDE_OFFERS, large bribes: what the statements leave out
         "hide_cost": TESTS / "game" / "fixtures" / "payola_hide_cost_by_mail.json",
         "hide_offers": TESTS / "game" / "fixtures" / "payola_hide_offers_by_mail.json",
         # EBAYOLA, large bribes: the winners pay the best losing total and one more
         "ebayola": TESTS / "game" / "fixtures" / "payola_ebayola_by_mail.json",
         # Spring 1901 of "plain" with Turkey's sheet missing: PROCESS refused, then PROCESS!
         "missing": TESTS / "game" / "fixtures" / "payola_missing_sheet.json"}
JUDGE = "judge@example.org"


def recorded(name: str) -> dict:
    return json.loads(GAMES[name].read_text())


def movement_phases(name: str) -> list[dict]:
    return [p for p in recorded(name)["phases"] if p["phase"].endswith("M")]


@dataclass(frozen=True)
class Settled:
    status: GameStatus
    sheets: dict[str, Sheet]
    settlement: Settlement


def settled(phase: dict) -> Settled:
    """The phase's sheets, as DPjudge saved them before processing, read and settled by the judge."""
    status = replace(parse_status(phase["ready"]), variant="payola")
    m = MapCache().get(status.map_name)
    assert isinstance(status.phase, Phase) and status.phase.type == MOVEMENT
    reader = SheetReader(m, position_of(status, m, status.phase), rules_in_force(status, m) | {Rule.ORDER_ANY})
    sheets = {b.name: reader.read(b.name, b.offers) for b in status.powers}
    balances = {b.name: b.funds[0].amount if b.funds else 0 for b in status.powers}
    spendable = {name: max(balances[name] - sheet.saved, 0) for name, sheet in sheets.items()}
    letters = {info.name: info.abbrev for info in m.powers.values()}
    owners = [Owner(b.name, b.units, b.accept or "") for b in status.powers]
    return Settled(status, sheets, settle(owners, letters, {n: s.offers for n, s in sheets.items()}, spendable))


@dataclass(frozen=True)
class Ledger:
    """What DPjudge's account statement told a power."""

    orders: dict[str, tuple[int, str]]  # unit -> (total paid, order without the unit)
    reductions: int
    remaining: int


def ledgers(phase: dict) -> dict[str, Ledger]:
    """Each power's account statement, from the mails DPjudge sent the players."""
    found = {}
    for mail in phase["mails"]:
        for sent in mail["relayed"]:
            if "bribe results" not in sent["subject"] or sent["to"] == [JUDGE]:
                continue
            body = sent["body"]
            power = re.search(r"ACCOUNT STATEMENT FOR (\S+)", body).group(1)
            section = body.split("ORDERED AS FOLLOWS:\n")[1].split("YOUR ")[0] if "FOLLOWS" in body else ""
            orders = {}
            for line in section.splitlines():
                match = re.fullmatch(r"\s*\*?\s*(\d+) : (\S+ \S+) (.*)", line)
                assert match, line
                orders[match.group(2)] = (int(match.group(1)), match.group(3))
            reduced = re.search(r"BRIBE REDUCTION RULES\s+(\d+) TIME", body)
            remaining = int(re.search(r"REMAINING BALANCE IN YOUR BANK ACCOUNT IS:\s*(\d+)", body).group(1))
            found[power] = Ledger(orders, int(reduced.group(1)) if reduced else 0, remaining)
    return found
