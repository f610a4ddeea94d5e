"""What a Payola power does with its money between phases, as DPjudge's pages let it: give some to
another power (a transfer) and set its acceptance list (whose bribes win its units' ties).

A transfer moves whole silver pieces from the giver's treasury to the receiver's at once, and
each of the two is sent an account of it. It is refused under NO_TRANSFER; under ONE_TRANSFER a
power gives to each other power at most once a phase (the powers it gave to are kept on its SENT
lines until the phase is processed); under NO_LOOTING a dummy gives nothing; under ANON_TRANSFER
the receiver is not told who gave. Under NO_DONATIONS a power DPjudge counts as gone (`gone`) loses
its treasury after each movement phase, and gives nothing in the retreats before adjustments.

An acceptance list is a string of power initials, at most one letter a power, with `?` standing
for the powers it leaves out (a list naming every power needs none; one that names fewer and has
no `?` has one put at its end).
"""
from __future__ import annotations

from dataclasses import replace

from judge.events import FundsTransferred
from judge.game.payola_orders import balance, with_balance
from judge.game.positions import owned_centers
from judge.maps.model import Map
from judge.rule_names import Rule, Rules
from judge.status.model import GameStatus, PowerStatus
from judge.phases import next_phase
from judge.types import ADJUSTMENTS, RETREATS, Phase, province_of

ANY_OTHER = "?"


def transfer_refusal(giver: PowerStatus, receiver: PowerStatus | None, amount: int, rules: Rules,
                     giver_gone: bool = False) -> str | None:
    """Why `giver` may not give `amount` to `receiver` now (None: it may); `giver_gone`: the
    giver is gone in the retreats before adjustments (`gone_before_adjustments`)."""
    if Rule.NO_TRANSFER in rules:
        return "this game allows no transfers (NO_TRANSFER)"
    if Rule.NO_DONATIONS in rules and giver_gone:
        return f"{giver.name} will own no centre and gives nothing (NO_DONATIONS)"
    if Rule.NO_LOOTING in rules and _dummy(giver):
        return f"{giver.name} is a dummy and gives nothing away (NO_LOOTING)"
    if receiver is None or not receiver.is_power or receiver.name == giver.name:
        return "funds go to another power of the game"
    if Rule.VASSAL_DUMMIES in rules and _dummy(receiver):
        return f"{receiver.name} is a dummy with no treasury of its own (VASSAL_DUMMIES)"
    if Rule.ONE_TRANSFER in rules and receiver.name in giver.sent:
        return f"{giver.name} has given to {receiver.name} once this phase already (ONE_TRANSFER)"
    if amount <= 0:
        return "a transfer is of at least 1 AgP"
    if amount > balance(giver):
        return f"{giver.name} has only {balance(giver)} AgP"
    return None


def transferred(status: GameStatus, giver: PowerStatus, receiver: PowerStatus, amount: int,
                rules: Rules) -> tuple[GameStatus, FundsTransferred]:
    """The status after `giver` gave `amount` to `receiver` (allowed: `transfer_refusal`), and the
    event that tells them both."""
    sent = (*giver.sent, receiver.name) if Rule.ONE_TRANSFER in rules else giver.sent
    status = status.with_power(replace(with_balance(giver, balance(giver) - amount), sent=sent))
    status = status.with_power(with_balance(receiver, balance(receiver) + amount))
    told = FundsTransferred(status.name or "", giver.name, receiver.name, amount, balance(giver),
                            balance(receiver), Rule.ANON_TRANSFER in rules)
    return status, told


def acceptance_list(m: Map, status: GameStatus, written: str) -> str:
    """`written` as the acceptance list the status keeps; ValueError with DPjudge's words."""
    listed = written.upper()
    count = len([name for name in m.powers if not name.startswith("_")])
    if len(listed) > count:
        raise ValueError("Acceptance list too long")
    if len(listed) < count and ANY_OTHER not in listed:
        listed += ANY_OTHER
    letters = {m.powers[b.name].abbrev for b in status.powers if b.name in m.powers} | {ANY_OTHER}
    for letter in listed:
        if letter not in letters:
            raise ValueError(f"Letter {letter} not a power initial")
        if listed.count(letter) > 1:
            raise ValueError(f"Letter {letter} appears more than once")
    return listed


def gone(status: GameStatus, m: Map) -> frozenset[str]:
    """The powers DPjudge counts as gone (NO_DONATIONS): those left with nothing, reckoned as it
    reckons it, from the units where they stand: a power's centres, and one more for each of its
    units on any centre, less one for each other power's unit on one of its centres; a power at
    nothing is gone unless one of its dislodged units may retreat to a centre, or to a place a
    power not gone may retreat to."""
    blocks = [b for b in status.powers if b.name in m.powers]
    centers = m.supply_centers
    standing = [(b, u.province) for b in blocks for u in b.units]
    retreats = {b.name: {province_of(r) for d in b.dislodged for r in d.retreats} for b in blocks}
    out = set()
    for block in blocks:
        centres = owned_centers(block)
        kept = len(centres) + sum(1 for owner, place in standing
                                  if owner is block and place in centers) \
            - sum(1 for owner, place in standing if owner is not block and place in centres)
        if not kept and not retreats[block.name] & centers:
            out.add(block.name)
    while True:  # a power that may retreat where one not gone may is not gone either
        back = {n for n in out if any(retreats[n] & retreats[b.name] for b in blocks if b.name not in out)}
        if not back:
            return frozenset(out)
        out -= back


def gone_before_adjustments(status: GameStatus, m: Map, power: str) -> bool:
    """Whether `power` is gone (`gone`) in retreats that the adjustments follow: the one time
    DPjudge's transfer page asks."""
    phase = status.phase
    return isinstance(phase, Phase) and phase.type == RETREATS and \
        next_phase(m, phase).type == ADJUSTMENTS and power in gone(status, m)


def empty_treasuries(status: GameStatus, powers: frozenset[str]) -> GameStatus:
    """NO_DONATIONS: the powers gone keep nothing."""
    for block in status.powers:
        if block.name in powers and block.funds is not None:
            status = status.with_power(with_balance(block, 0))
    return status


def forget_transfers(status: GameStatus) -> GameStatus:
    """Every power free to give again (ONE_TRANSFER counts a phase's transfers)."""
    for block in status.powers:
        if block.sent:
            status = status.with_power(replace(block, sent=()))
    return status


def _dummy(block: PowerStatus) -> bool:
    return block.player is not None and block.player.dummy
