"""A status as DPjudge reads it: its layout, its GAME line first, and none of the lines it would
refuse ("UNRECOGNIZED GAME DATA"): TEAMS (the CONTROL lines it set up carry the teams on) and
OMNIPOTENT (a word DPjudge writes for its Masters but never reads in a power's block). A player
without a DPPD number is written `|joe@blow.com|Joe` as DPjudge writes one, not `NO-ID|...`, which
it refuses ("BAD PLAYER DATA").

`judge export` writes a game through it; docs/dpjudge.md lists what the judge keeps that DPjudge
cannot read.
"""
from __future__ import annotations

from dataclasses import replace

from judge.status.model import Dppd, GameStatus, Layout, Omniscience, PowerStatus, Seat
from judge.status.writer import write_status

DPJUDGE_ENCODING = "latin-1"
UNREAD_BY_DPJUDGE = (Omniscience.MASTER, Omniscience.KEEPER)
NO_ID = "NO-ID"  # the judge's DPPD number for a player who has none; DPjudge leaves it empty


def for_dpjudge(status: GameStatus, name: str) -> GameStatus:
    """`status` as DPjudge reads it, for the game `name`."""
    return replace(status, name=name, layout=Layout.DPJUDGE, teams=(),
                   master=status.master and _dppd(status.master),
                   powers=tuple(_power(p) for p in status.powers))


def _power(block: PowerStatus) -> PowerStatus:
    omniscient = None if block.omniscient in UNREAD_BY_DPJUDGE else block.omniscient
    player = block.player and replace(block.player, current=_seat(block.player.current), handovers=tuple(
        replace(h, previous=h.previous and _seat(h.previous)) for h in block.player.handovers))
    return replace(block, omniscient=omniscient, player=player)


def _seat(seat: Seat) -> Seat:
    return _dppd(seat) if isinstance(seat, Dppd) else seat


def _dppd(dppd: Dppd) -> Dppd:
    return replace(dppd, ident="") if dppd.ident == NO_ID else dppd


def dpjudge_bytes(status: GameStatus, name: str) -> tuple[bytes, list[int]]:
    """The status file DPjudge reads (latin-1), and the lines where a character latin-1 lacks was
    written as an HTML character reference (`&#8364;`), which DPjudge's pages show as it was."""
    text = write_status(for_dpjudge(status, name))
    changed = [number for number, line in enumerate(text.splitlines(), 1) if not _fits(line)]
    return text.encode(DPJUDGE_ENCODING, "xmlcharrefreplace"), changed


def _fits(line: str) -> bool:
    try:
        line.encode(DPJUDGE_ENCODING)
    except UnicodeEncodeError:
        return False
    return True
