"""TRANSFER and ACCEPT: what a Payola power does with its money between phases (DPjudge offers
them on its pages; here they are mail commands calling the same use cases as the web)."""
from __future__ import annotations

from judge.app import payola_funds
from judge.commands.registry import Command
from judge.commands.reply import Said, said
from judge.commands.session import Cursor, Refusal, Session
from judge.game.payola_orders import balance

TRANSFER_USAGE = "TRANSFER takes an amount and a power: TRANSFER 10 TO FRANCE"
NOISE = ("AGP", "TO")  # words a player may write around the amount and the power


class Transfer(Command):
    name = "TRANSFER"
    help = "TRANSFER amount TO power: give that many AgP of your Payola funds to another power"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        words = [w.upper() for w in args if w.upper() not in NOISE]
        if len(words) < 2 or not words[0].isdigit():
            raise Refusal(TRANSFER_USAGE)
        receiver = " ".join(words[1:])
        role = session.role or ""
        outcome = payola_funds.transfer_funds(session.in_hand(), role, receiver, int(words[0]))
        session.keep(outcome.status, outcome.events)
        block = outcome.status.power(role)
        left = balance(block) if block is not None else 0
        return said(f"{words[0]} AgP transferred to {receiver}; {role} has {left} AgP left.")


class Accept(Command):
    name = "ACCEPT"
    help = "ACCEPT letters: your Payola acceptance list (whose bribes win your units' ties), e.g. FG?"
    arity = (1,)
    usage = "ACCEPT takes one word, the list of power initials (? for the others): ACCEPT FG?"

    def run(self, session: Session, args: list[str], cursor: Cursor) -> Said:
        role = session.role or ""
        outcome = payola_funds.set_acceptance(session.in_hand(), role, args[0])
        session.keep(outcome.status, outcome.events)
        block = outcome.status.power(role)
        return said(f"The acceptance list of {role} is now {block.accept if block else args[0]}.")


COMMANDS: list[type[Command]] = [Transfer, Accept]
