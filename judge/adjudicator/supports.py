"""Support orders: which order a support matches, the decision whether it is given or cut, and
its words.

A support matches when the supported unit does what the support says: holds (any order but a move,
including a move that was illegal) or moves to the province named; a coast in the support must be
the coast moved to (DATC 6.B.9). A support no unit can use is void. A support is cut by a move into
the supporter's province, except a move from the province the support goes into, a move by the
supporter's own power (unless FRIENDLY_FIRE, or DUMMY_FIRE for a dummy), a convoyed move whose convoy
fails, a move across a Cape (`*`), or an unsupported move across a strait (`~`); and it is always cut
when the supporter is dislodged. A support of a convoyed army whose route was broken is `no convoy`.
"""
from __future__ import annotations

from judge.adjudicator.board import HALF, MOVE, NONE, SUPPORT, Board, Piece
from judge.adjudicator.model import Result
from judge.adjudicator.moves import convoy_failure, dislodged, given_supports
from judge.adjudicator.resolver import Resolver
from judge.orders.model import Support
from judge.types import province_of

CUT, NO_CONVOY = (Result.CUT,), (Result.NO_CONVOY,)


def link(board: Board) -> None:
    """Match every support order to the unit it helps, or mark it void."""
    for piece in board.ordered[SUPPORT]:
        order = piece.order
        assert isinstance(order, Support)
        target = board.at.get(order.target.province)
        piece.void = _mismatch(board, piece, order, target)
        if piece.void is None and target is not None:
            piece.target = target
            target.support(piece)


def _mismatch(board: Board, piece: Piece, order: Support, target: Piece | None) -> str | None:
    if target is None:
        return f"there is no unit in {order.target.province} to support"
    if target is piece:
        return "a unit cannot support itself"
    if order.dest is None:
        if target.kind == MOVE:
            return f"{target.unit} does not hold: it moves to {target.dest_province}"
        piece.directed = target.province
    else:
        piece.directed = province_of(order.dest)
        if target.kind != MOVE or target.dest_province != piece.directed:
            return f"{target.unit} does not move to {piece.directed}"
        if target.by_convoy and not target.has_route:
            return f"no convoy can take {target.unit} to {piece.directed}"
        if "/" in order.dest and order.dest != target.dest:
            return f"{target.unit} moves to {target.dest}, not {order.dest}"
    if piece.directed == piece.province:
        return "a unit cannot support a move into its own province"
    return None  # (that the supporter may support into the province, the order's check made sure)


def given(board: Board, r: Resolver, piece: Piece) -> bool:
    """The support decision: True when the support is given, False when it is cut."""
    attackers = board.attackers.get(piece.province)
    if attackers is None:
        return True
    for attacker in attackers:
        if _cuts(board, r, piece, attacker):
            return False
    return not dislodged(board, r, piece)  # none cuts without dislodging: is the supporter dislodged?


def _cuts(board: Board, r: Resolver, piece: Piece, attacker: Piece) -> bool:
    """Whether an attack on the supporter cuts its support without dislodging it."""
    if attacker.province == piece.directed:
        return False
    if attacker.power == piece.power and not board.friendly_fire(piece.power):
        return False
    if attacker.by_convoy:
        return r.resolve(attacker.path_decision)
    if attacker.base == HALF:
        return False
    return attacker.base != NONE or given_supports(r, attacker.supporters) > 0


def words(r: Resolver, piece: Piece) -> tuple[Result, ...]:
    """A support that matched its unit: cut; else `no convoy` when it supports a convoyed army
    whose route was broken (as DPjudge says, the support then helped nobody); else nothing."""
    if not r.resolve(piece.decision):
        return CUT
    target = piece.target
    if target is not None and target.kind == MOVE and convoy_failure(r, target) is not None:
        return NO_CONVOY
    return ()
