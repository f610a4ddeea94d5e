"""Payola (DPjudge's `payola`): units obey the highest bribe, not their owners.

The game begins with each power's first year's income in its treasury and an acceptance list
preferring itself (`open_purses`). In a movement phase each power sends an offer sheet instead of
orders (`judge.game.offer_sheet`; by mail, `judge.game.payola_orders`):
bribes to any unit on the board, its own included. When the phase is processed the bribes are
settled (`judge.game.bribes`): each unit takes the order it is paid most for, each power pays for
the bribes that won, and the orders so bought are adjudicated as in the standard game. The sheets
are then emptied, and a power with nothing on its sheet (no bribe, no unit to hold) that is still
on the board is marked in civil disorder, as DPjudge marks it.

A power's acceptance list breaks ties among bribes to its units. The powers a list leaves to `?`
are put in an order drawn afresh each phase: DPjudge shuffles them at random; the judge draws them
from the game's name and the phase, so that the same phase always settles the same way.

At the end of each year (when the game moves into a new year) each power's treasury grows by its
income: with no TAX line, the n-th of its c centres yields the victory count less c plus n - 1
(18 - 3 + 0 + 1 + 2 = 48 for three centres on the standard map), so a small power earns more
for each centre than a large one; `TAX n` makes every centre yield n, FLAT_TAX as many as the map
has powers, `TAX PAR 3` one centre 3, and CAP limits a year's income. Under NO_HOARDING what was
left of last year's money is lost when the income comes in. Under NO_LEDGERS the bribes are
charged and the income paid as ever, but no account statement or income report is mailed.
Retreats and adjustments are ordered as in the standard game.
"""
from __future__ import annotations

import random
from dataclasses import replace

from judge.events import BribesSettled, IncomePaid, PhaseResults
from judge.game.bribe_statements import statements
from judge.game.bribes import Owner, settle
from judge.game.exchange import bidders
from judge.game.offer_sheet import SheetReader
from judge.game.payola_funds import empty_treasuries, forget_transfers, gone
from judge.game.payola_orders import VARIANT, balance, unplayed, with_balance
from judge.game.positions import alive, owned_centers, power_blocks
from judge.game.stages import Processing, Stage
from judge.game.variants.model import Variant
from judge.game.variants.standard import PIPELINE, stages_through
from judge.maps.model import Map
from judge.status.model import GameStatus, PowerStatus
from judge.rule_names import Rule
from judge.types import ADJUSTMENTS, MOVEMENT, Phase

def full_acceptance(accept: str | None, own: str, letters: list[str], draw: random.Random) -> str:
    """The acceptance list with every power's letter: the `?` (or the end of a list without one)
    filled with the powers it leaves out, in an order drawn with `draw`. A power with no list
    prefers itself, then the others."""
    listed = accept if accept else own + "?"
    if "?" not in listed:
        listed += "?"
    others = [x for x in letters if x not in listed]
    draw.shuffle(others)
    return listed.replace("?", "".join(others))


def settle_bribes(p: Processing) -> Processing:
    """A movement phase's orders bought with the powers' offer sheets; the treasuries charged."""
    if p.phase.type != MOVEMENT:
        return p
    blocks = bidders(p.status, p.m)
    reader = SheetReader(p.m, p.position, p.rules, dummies=unplayed(blocks))
    sheets = {b.name: reader.read(b.name, b.offers) for b in blocks}
    spendable = {b.name: max(balance(b) - sheets[b.name].saved, 0) for b in blocks}
    letters = {info.name: info.abbrev for info in p.m.powers.values()}
    draw = random.Random(f"{p.status.name}|{p.phase.abbrev}")
    accepts = {b.name: full_acceptance(b.accept, letters.get(b.name, ""), list(letters.values()), draw)
               for b in blocks}
    owners = [Owner(b.name, b.units, accepts[b.name], holds_on_ties=_holds_on_ties(b)) for b in blocks]
    settlement = settle(owners, letters, {n: s.offers for n, s in sheets.items()}, spendable,
                        Rule.EBAYOLA in p.rules)
    places = {b.name: accepts[b.name].find(letters.get(b.name, "?")) for b in blocks}
    told = statements(p.m, blocks, settlement, sheets, places, {b.name: balance(b) for b in blocks}, p.rules)
    status = p.status
    for block in blocks:
        orders = tuple(str(s.order) for s in settlement.units if s.owner == block.name)
        paid = with_balance(block, balance(block) - settlement.spent.get(block.name, 0))
        # an investor's block keeps no orders: he has no units
        status = status.with_power(replace(paid, orders=orders if block.is_power else block.orders, offers=()))
    idle = tuple(b.name for b in blocks if not sheets[b.name].offers and alive(b))
    settled = BribesSettled(p.status.name or "", p.phase, told)
    return replace(p, status=status, idle=idle, events=(*p.events, *_ledgers(p, settled)))


def _holds_on_ties(block: PowerStatus) -> bool:
    """A DUMMY nobody controls, whose list is `?`: its units hold when the best bribes tie."""
    return block.player is not None and block.player.dummy and not block.control and block.accept == "?"


def yearly_income(centers: tuple[str, ...], victory: int, powers: int, status: GameStatus,
                  rules: frozenset[str]) -> int:
    """What a power owning `centers` earns at the year's end (`powers`: how many the map has)."""
    owned = len(centers)
    flat = next((t.amount for t in status.taxes if t.center is None), None)
    if flat is not None:
        earned = owned * flat
    elif Rule.FLAT_TAX in rules:
        earned = owned * powers
    elif any(t.center for t in status.taxes):
        rates = {t.center: t.amount for t in status.taxes if t.center}
        earned = sum(rates.get(c, 0) for c in centers)
    else:
        earned = sum(victory - owned + n for n in range(owned))
    return earned if status.cap is None else min(status.cap, earned)


def collect_income(p: Processing) -> Processing:
    """At the year's end, each power's income added to its treasury."""
    reached = p.status.phase
    if not isinstance(reached, Phase) or reached.year == p.phase.year:
        return p
    status = p.status
    victory, powers = _victory(p.m), len([n for n in p.m.powers if not n.startswith("_")])
    reports = []
    for block in power_blocks(status, p.m):
        if block.funds is None and not block.owns:
            continue
        centers = tuple(c for c in block.owns if c not in ("SC!", "SC?", "SC*"))
        earned = yearly_income(centers, victory, powers, status, p.rules)
        kept = 0 if Rule.NO_HOARDING in p.rules else balance(block)  # NO_HOARDING: last year's money is lost
        status = status.with_power(with_balance(block, kept + earned))
        reports.append((block.name, kept, earned, kept + earned))
    paid = IncomePaid(p.status.name or "", p.phase.year, tuple(reports))
    return replace(p, status=status, events=(*p.events, *_ledgers(p, paid)))


def _ledgers(p: Processing, told: BribesSettled | IncomePaid) -> tuple[BribesSettled | IncomePaid, ...]:
    """The account statement or income report to mail, none under NO_LEDGERS: the money moves
    all the same."""
    return () if Rule.NO_LEDGERS in p.rules else (told,)


def tell_income(p: Processing) -> Processing:
    """The results of the phase that reached the year's end say the year's income was paid, as
    DPjudge's results say it (`Winter 1901 Income has been distributed.`), unless the game ended."""
    reached = p.status.phase
    if not isinstance(reached, Phase) or reached.year == p.phase.year or Rule.NO_LEDGERS in p.rules:
        return p
    counted = p.phase if p.phase.type == ADJUSTMENTS else p.step.counted if p.step else None
    season = (counted or p.phase).season.title()
    told = f"{season} {p.phase.year} Income"
    return replace(p, events=tuple(replace(e, income=told) if isinstance(e, PhaseResults) else e
                                   for e in p.events))


def free_transfers(p: Processing) -> Processing:
    """Under ONE_TRANSFER, each power free to give to every other again once a phase is processed."""
    if Rule.ONE_TRANSFER not in p.rules:
        return p
    return replace(p, status=forget_transfers(p.status))


def empty_gone_treasuries(p: Processing) -> Processing:
    """Under NO_DONATIONS, after a movement phase, the treasuries of the powers DPjudge counts as
    gone are emptied (`judge.game.payola_funds.gone`)."""
    if Rule.NO_DONATIONS not in p.rules or p.phase.type != MOVEMENT:
        return p
    return replace(p, status=empty_treasuries(p.status, gone(p.status, p.m)))


def open_purses(status: GameStatus, m: Map, rules: frozenset[str]) -> GameStatus:
    """Each power as the game begins, as DPjudge's start gives it: its first year's income on its
    FUNDS line (a map whose taxes yield nothing: half the victory count a unit), and an acceptance
    list preferring itself, the others left to `?` (a dummy's: `?` alone). Under VASSAL_DUMMIES a
    dummy has no purse of its own."""
    powers = [info for name, info in m.powers.items() if not name.startswith("_")]
    for info in powers:
        block = status.power(info.name)
        if block is None:
            continue
        dummy = block.player is not None and block.player.dummy
        if dummy and Rule.VASSAL_DUMMIES in rules:
            continue
        centers = tuple(sorted(owned_centers(block)))
        income = yearly_income(centers, _victory(m), len(powers), status, rules)
        cash = income or _victory(m) // 2 * len(block.units)
        status = status.with_power(replace(with_balance(block, cash), accept="?" if dummy else info.abbrev + "?"))
    return status


def _victory(m: Map) -> int:
    return m.victory[0]


PAYOLA = Variant(VARIANT, "Payola Diplomacy", (
    Stage("settle the bribes", settle_bribes),
    *PIPELINE[:stages_through("write back")],
    Stage("empty the gone powers' treasuries", empty_gone_treasuries),
    *PIPELINE[stages_through("write back"):stages_through("move on")],
    Stage("collect income", collect_income),
    *PIPELINE[stages_through("move on"):],
    Stage("tell of the income", tell_income),
    Stage("free the transfers", free_transfers),
), opening=open_purses)
