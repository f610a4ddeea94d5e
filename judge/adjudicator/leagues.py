"""Leagues (map `LEAGUE name [STRICT | BENIGN league...]`): whom a power may support or convoy.

As DPjudge's checkLeague: a power in a STRICT league may support or convoy only units of powers in
the same league; a power in a BENIGN league may not support or convoy a move of a unit outside its
listed leagues into a province held by a unit of one of those leagues. Under FICTIONAL_OK leagues
are not checked. A support or convoy the league forbids is illegal: the unit holds.
"""
from __future__ import annotations

from judge.adjudicator.board import CONVOY, SUPPORT, Board, Piece, hold_back
from judge.maps.model import League
from judge.orders.model import Convoy, Support
from judge.rule_names import Rule
from judge.types import province_of


def check(board: Board) -> None:
    """Make every support and convoy order that its power's league forbids illegal."""
    if not board.facts.leagues:
        return
    for piece in board.ordered[SUPPORT] + board.ordered[CONVOY]:  # (a new list: `hold_back` edits)
        order = piece.order
        if isinstance(order, Support):
            helped, dest = order.target.province, order.dest
        else:
            assert isinstance(order, Convoy)
            helped, dest = order.army, order.dest
        problem = league_problem(board, piece, board.at.get(province_of(helped)),
                                 province_of(dest) if dest else None)
        if problem is not None:
            hold_back(board, piece, problem)


def league_problem(board: Board, helper: Piece, helped: Piece | None, dest: str | None) -> str | None:
    """Why the helper's league forbids it to support or convoy `helped` (moving to `dest`), if so."""
    mine = _league(board, helper.power)
    if mine is None or not mine.kind or Rule.FICTIONAL_OK in board.rules:
        return None
    his = _league(board, helped.power if helped is not None else helper.power)
    his_name = his.name if his is not None else ""
    if mine.kind == "STRICT":
        if his_name != mine.name:
            return f"the STRICT league {mine.name} helps only its own members"
        return None
    friends = {mine.name, *mine.benign}
    victim = board.at.get(dest) if dest is not None else None
    if his_name in friends or victim is None:
        return None
    victim_league = _league(board, victim.power)
    if victim_league is not None and victim_league.name in friends:
        return f"the BENIGN league {mine.name} does not help an attack on {victim.unit}"
    return None


def _league(board: Board, power: str) -> League | None:
    info = board.map.powers.get(power)
    return info.league if info is not None else None
