"""Move orders: the strengths of DATC section 5 and the decision whether a move succeeds.

Strengths are in halves (see `board`). An empty province, or one its unit leaves, has hold strength
-1, and a unit that cannot keep others out (its convoy failed, it lost a head-to-head battle) has
prevent strength -1: so a zero-strength move across a strait still enters an empty province, as in
DPjudge, while every standard case reads exactly as the DATC's "greater than" comparisons.
"""
from __future__ import annotations

from judge.adjudicator.board import MOVE, MOVES, PATHS, SUPPORTS, UNIT, Board, Piece
from judge.adjudicator.resolver import Resolver

EMPTY = -1


def succeeds(board: Board, r: Resolver, piece: Piece) -> bool:
    """The move decision: beat the destination's defence and every other unit moving there."""
    if piece.by_convoy and not r.resolve(3 * piece.index + PATHS):
        return False
    attack = attack_strength(board, r, piece)
    opponent = piece.opponent
    if opponent is not None:
        if attack <= defend_strength(r, opponent):
            return False
    elif attack <= hold_strength(board, r, piece.dest_province):
        return False
    for other in board.attackers[piece.dest_province]:
        if other is not piece and attack <= prevent_strength(r, other):
            return False
    return True


def given_supports(r: Resolver, supporters: list[Piece], exclude: str | None = None) -> int:
    """How many of these supports are given (not cut), leaving out those of power `exclude`."""
    if not supporters:
        return 0
    return sum(1 for s in supporters
               if s.power != exclude and r.resolve(3 * s.index + SUPPORTS))


def attack_strength(board: Board, r: Resolver, piece: Piece) -> int:
    """Strength against the unit at the destination; no help against one's own units."""
    occupant = board.at.get(piece.dest_province)
    if occupant is None or (occupant.kind == MOVE and piece.opponent is None
                            and r.resolve(3 * occupant.index + MOVES)):
        return piece.base + UNIT * given_supports(r, piece.supporters)
    if board.friendly_fire(occupant.power):
        return piece.base + UNIT * given_supports(r, piece.supporters)
    if occupant.power == piece.power:
        return 0
    return piece.base + UNIT * given_supports(r, piece.supporters, exclude=occupant.power)


def defend_strength(r: Resolver, piece: Piece) -> int:
    """Strength of a unit in a head-to-head battle."""
    return piece.base + UNIT * given_supports(r, piece.supporters)


def hold_strength(board: Board, r: Resolver, province: str) -> int:
    occupant = board.at.get(province)
    if occupant is None:
        return EMPTY
    if occupant.kind == MOVE:
        if r.resolve(3 * occupant.index + MOVES):
            return EMPTY
        return 0 if board.weak_bounces else UNIT
    return UNIT + UNIT * given_supports(r, occupant.supporters)


def prevent_strength(r: Resolver, piece: Piece) -> int:
    """Strength with which a unit keeps others out of the province it moves to."""
    if piece.by_convoy and not r.resolve(3 * piece.index + PATHS):
        return EMPTY
    opponent = piece.opponent
    if opponent is not None and r.resolve(3 * opponent.index + MOVES):
        return EMPTY
    return piece.base + UNIT * given_supports(r, piece.supporters)


def dislodged(board: Board, r: Resolver, piece: Piece) -> bool:
    """Whether a unit stays where it is and another unit moves in."""
    if piece.kind == MOVE and r.resolve(3 * piece.index + MOVES):
        return False
    return any(r.resolve(3 * a.index + MOVES) for a in board.attackers.get(piece.province, ()))


def dislodger(board: Board, r: Resolver, piece: Piece) -> Piece | None:
    """The unit that dislodged `piece`, if any (call once everything is resolved)."""
    if piece.kind == MOVE and r.resolve(3 * piece.index + MOVES):
        return None
    for attacker in board.attackers.get(piece.province, ()):
        if r.resolve(3 * attacker.index + MOVES):
            return attacker
    return None
