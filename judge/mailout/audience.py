"""Who gets a game's mail: its people by role (`Audience`), and the mailings (words and addresses)
merged, bounded and redirected for a TESTER game.

Who is who: each map power's player (its ADDRESS line, else the e-mail of its PLAYER line; a
RESIGNED or DUMMY power has none, and a power under CONTROL is mailed through its controller), the
Master, observers (OBSERVER and the other ALLOWed types), monitors (results, deadlines and the end
of the game only) and the `OMNISCIENT!` readers, who get every press message with its true sender
and recipients. A `TESTER address` game mails that address only, and a bare `TESTER` nobody. A
block's mail goes to the first few addresses of its ADDRESS line only (`addresses_per_player`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from judge.drawing.pictures import Picture
from judge.types import MASTER
from judge.limits import Limits
from judge.mailout.render import Rendered
from judge.status.model import Dppd, GameStatus, Omniscience, PowerStatus

PER_PLAYER = Limits().addresses_per_player


@dataclass(frozen=True)
class PictureMail:
    """The board's picture a mailing carries after its text: `kinds` is the format each recipient
    chose (address in lower case -> png, pdf, svg or none); the others get the judge's default."""

    picture: Picture
    kinds: Mapping[str, str] = field(default_factory=dict)


class Mailing(NamedTuple):
    recipients: tuple[str, ...]
    rendered: Rendered
    picture: PictureMail | None = None


@dataclass(frozen=True)
class Audience:
    master: tuple[str, ...] = ()
    players: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # power -> addresses
    observers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    monitors: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    omniscient: tuple[str, ...] = ()  # OMNISCIENT! readers
    tester: str | None = None

    def of(self, names: Iterable[str]) -> tuple[str, ...]:
        """The addresses of powers, observers, monitors and MASTER, by name."""
        found: list[str] = []
        for name in names:
            if name == MASTER:
                found += self.master
            else:
                found += (self.players.get(name) or self.observers.get(name)
                          or self.monitors.get(name) or ())
        return unique(found)

    def everyone(self, monitors: bool = False, master: bool = True) -> tuple[str, ...]:
        groups = [*self.players.values(), *self.observers.values()]
        if monitors:
            groups += self.monitors.values()
        return unique([a for g in groups for a in g] + (list(self.master) if master else []))


def audience(status: GameStatus, limit: int = PER_PLAYER) -> Audience:
    """The game's people; each block's mail goes to its first `limit` addresses (see
    `judge.commands.auth.addresses_of`)."""
    own = {b.name: unique(block_addresses(b))[:limit] for b in status.powers}
    players: dict[str, tuple[str, ...]] = {}
    observers: dict[str, tuple[str, ...]] = {}
    monitors: dict[str, tuple[str, ...]] = {}
    omniscient: list[str] = []
    master = status.master_mail
    for block in status.powers:
        addresses = own[block.name]
        if block.is_power:
            if not addresses and block.control:
                controller = block.control[0]
                addresses = master if controller == MASTER else own.get(controller, ())
            players[block.name] = addresses
        elif block.kind == "MONITOR":
            monitors[block.name] = addresses
        else:
            observers[block.name] = addresses
        if block.omniscient is Omniscience.PRESS:
            omniscient += addresses
    return Audience(master, players, observers, monitors, unique(omniscient), status.tester)


def block_addresses(block: PowerStatus) -> tuple[str, ...]:
    """Where a block's mail goes: its ADDRESS line, else its player's e-mail; none for a block
    whose player is RESIGNED or DUMMY."""
    if block.player is not None and not isinstance(block.player.current, Dppd):
        return ()
    if block.address:
        return block.address
    if block.player is not None and isinstance(block.player.current, Dppd) and block.player.current.email:
        return (block.player.current.email,)
    return ()


def former_player(status: GameStatus, power: str) -> tuple[str, ...]:
    """Who played a power until its last change of hands (a dismissed or replaced player)."""
    block = status.power(power)
    if block is None or block.player is None or not block.player.handovers:
        return ()
    previous = block.player.handovers[0].previous
    return (previous.email,) if isinstance(previous, Dppd) and previous.email else ()


def unique(addresses: Iterable[str]) -> tuple[str, ...]:
    """The addresses, each once whatever its case, in their first order."""
    seen: dict[str, None] = {}
    for address in addresses:
        if address and address.lower() not in {a.lower() for a in seen}:
            seen[address] = None
    return tuple(seen)


def merged(mailings: Sequence[Mailing]) -> list[Mailing]:
    """Mailings in a row with the same words become one, to all their recipients."""
    result: list[Mailing] = []
    for mailing in mailings:
        if result and result[-1].rendered == mailing.rendered and result[-1].picture == mailing.picture:
            result[-1] = result[-1]._replace(recipients=unique(result[-1].recipients + mailing.recipients))
        else:
            result.append(mailing)
    return result


def bounded(mailings: Sequence[Mailing], limit: int) -> tuple[list[Mailing], int]:
    """The mailings with no more than `limit` addresses among them all, the first come kept (a
    mailing may be left with none); how many addresses were left out."""
    reached: set[str] = set()
    left_out: set[str] = set()
    kept = []
    for mailing in mailings:
        to = []
        for address in mailing.recipients:
            if address.lower() not in reached and len(reached) < limit:
                reached.add(address.lower())
            if address.lower() in reached:
                to.append(address)
            else:
                left_out.add(address.lower())
        kept.append(mailing._replace(recipients=tuple(to)))
    return kept, len(left_out)


def for_tester(mailings: Sequence[Mailing], tester: str | None) -> list[Mailing]:
    """A TESTER game's mail: all of it to the tester's address, or (bare TESTER) none."""
    if tester is None:
        return list(mailings)
    if not tester:
        return []
    return [m._replace(recipients=(tester,)) for m in mailings if m.recipients]
