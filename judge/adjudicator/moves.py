"""Move orders: the strengths of DATC section 5 and the decision whether a move succeeds.

Strengths are in halves (see `board`). An empty province, or one its unit leaves, has hold strength
-1, and a unit that cannot keep others out (its convoy failed, it lost a head-to-head battle) has
prevent strength -1: so a zero-strength move across a strait still enters an empty province, as in
DPjudge, while every standard case reads exactly as the DATC's "greater than" comparisons.
"""
from __future__ import annotations

from collections.abc import Sequence

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
    rivals = board.attackers[piece.dest_province]
    if len(rivals) > 1:
        for other in rivals:
            if other is not piece and attack <= prevent_strength(r, other):
                return False
    return True


def given_supports(r: Resolver, supporters: Sequence[Piece], exclude: str | None = None) -> int:
    """How many of these supports are given (not cut), leaving out those of power `exclude`."""
    count = 0
    for s in supporters:  # (a loop, not sum() of a generator: this is the innermost question)
        if s.power != exclude and r.resolve(3 * s.index + SUPPORTS):
            count += 1
    return count


def attack_strength(board: Board, r: Resolver, piece: Piece) -> int:
    """Strength against the unit at the destination; no help against one's own units."""
    occupant = board.at.get(piece.dest_province)
    if occupant is None or (occupant.kind == MOVE and piece.opponent is None
                            and r.resolve(3 * occupant.index + MOVES)) or board.friendly_fire(occupant.power):
        exclude = None
    elif occupant.power == piece.power:
        return 0
    else:
        exclude = occupant.power
    if not piece.supporters:
        return piece.base
    return piece.base + UNIT * given_supports(r, piece.supporters, exclude)


def defend_strength(r: Resolver, piece: Piece) -> int:
    """Strength of a unit in a head-to-head battle."""
    if not piece.supporters:
        return piece.base
    return piece.base + UNIT * given_supports(r, piece.supporters)


def hold_strength(board: Board, r: Resolver, province: str) -> int:
    occupant = board.at.get(province)
    if occupant is None:
        return EMPTY
    if occupant.kind == MOVE:
        if r.resolve(3 * occupant.index + MOVES):
            return EMPTY
        return 0 if board.weak_bounces else UNIT
    if not occupant.supporters:
        return UNIT
    return UNIT + UNIT * given_supports(r, occupant.supporters)


def prevent_strength(r: Resolver, piece: Piece) -> int:
    """Strength with which a unit keeps others out of the province it moves to."""
    if piece.by_convoy and not r.resolve(3 * piece.index + PATHS):
        return EMPTY
    opponent = piece.opponent
    if opponent is not None and r.resolve(3 * opponent.index + MOVES):
        return EMPTY
    if not piece.supporters:
        return piece.base
    return piece.base + UNIT * given_supports(r, piece.supporters)


def dislodged(board: Board, r: Resolver, piece: Piece) -> bool:
    """Whether a unit stays where it is and another unit moves in."""
    if piece.kind == MOVE and r.resolve(3 * piece.index + MOVES):
        return False
    for attacker in board.attackers.get(piece.province, ()):
        if r.resolve(3 * attacker.index + MOVES):
            return True
    return False

