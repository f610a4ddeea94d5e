"""Move orders: where a move goes, the strengths of DATC section 5, the decision whether a move
succeeds, and the words of a move that did not.

Strengths are in halves (see `board`). An empty province, or one its unit leaves, has hold strength
-1, and a unit that cannot keep others out (its convoy failed, it lost a head-to-head battle) has
prevent strength -1: so a zero-strength move across a strait still enters an empty province, as in
DPjudge, while every standard case reads exactly as the DATC's "greater than" comparisons.
"""
from __future__ import annotations

from collections.abc import Sequence

from judge.adjudicator.board import FLEET, MOVE, UNIT, Board, Piece
from judge.adjudicator.model import Result
from judge.adjudicator.resolver import Resolver
from judge.maps.model import Abut
from judge.orders.model import Move
from judge.rule_names import Rule

EMPTY = -1
IMMOBILE = "IMMOBILE_DUMMIES: a dummy power's units may not move"
BOUNCED = (Result.BOUNCE,)


# --- where a move goes ------------------------------------------------------------------------------

def place(board: Board, piece: Piece, order: Move, crossing: Abut | None) -> str | None:
    """Set where a legal move goes and across what, or say why the unit cannot carry it out.

    `crossing` is the adjacency of the common move when the order checker found it
    (`OrderChecker.plain_crossing`): straight to the place written. Otherwise an army goes to the
    province, straight or by convoy (its order says so, or it may not cross); a fleet goes to the
    location written; a fleet whose order writes a path (PORTAGE_CONVOY, checked legal) is carried
    by the armies of the path."""
    if board.immobile_dummies and piece.power in board.dummies:
        return IMMOBILE
    if crossing is not None:
        piece.moving(order.dest, board.map.locations[order.dest].province, crossing)
        return None
    province = board.map.locations[order.dest].province
    if piece.unit.type is FLEET and order.path:  # PORTAGE_CONVOY: carried by the armies written
        piece.moving(order.dest, province, None)
        piece.by_convoy = board.by_convoy = True
        piece.path = order.path
        return None
    if piece.unit.type is FLEET:
        crossing = board.crossing(piece.unit, piece.power, order.dest)
        if crossing is None:  # (ORDER_ANY: the order's power may cross here, the unit's owner not)
            return f"{piece.unit} cannot move to {order.dest}"
        piece.moving(order.dest, province, crossing)
        return None
    crossing = board.crossing(piece.unit, piece.power, province)
    piece.moving(province, province, crossing)
    if crossing is None or order.via_convoy or order.path:
        piece.by_convoy = board.by_convoy = True
        piece.path = order.path
    return None


def index(board: Board) -> None:
    """Attackers by province, and head-to-head pairs (direct moves into each other's province)."""
    crawl = Rule.COASTAL_CRAWL in board.rules
    attackers, at = board.attackers, board.at
    for piece in board.ordered[MOVE]:
        if piece.by_convoy and not piece.has_route:
            continue
        dest = piece.dest_province
        found = attackers.get(dest)
        if found is None:
            attackers[dest] = [piece]
        else:
            found.append(piece)
        other = at.get(dest)
        if (other is not None and other.kind == MOVE and other.dest_province == piece.province
                and not piece.by_convoy and not other.by_convoy
                and not (crawl and _crawls(piece, other))):
            piece.opponent = other


def _crawls(piece: Piece, other: Piece) -> bool:
    """COASTAL_CRAWL: fleets going to different coasts of one province pass each other."""
    both_fleets = piece.unit.type is FLEET and other.unit.type is FLEET
    return both_fleets and (other.dest != piece.unit.location or piece.dest != other.unit.location)


# --- the move decision and the strengths ------------------------------------------------------------

def succeeds(board: Board, r: Resolver, piece: Piece) -> bool:
    """The move decision: beat the destination's defence and every other unit moving there."""
    if piece.by_convoy and not r.resolve(piece.path_decision):
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
        if s.power != exclude and r.resolve(s.decision):
            count += 1
    return count


def attack_strength(board: Board, r: Resolver, piece: Piece) -> int:
    """Strength against the unit at the destination; no help against one's own units."""
    occupant = board.at.get(piece.dest_province)
    if occupant is None or (occupant.kind == MOVE and piece.opponent is None
                            and r.resolve(occupant.decision)) or board.friendly_fire(occupant.power):
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
        if r.resolve(occupant.decision):
            return EMPTY
        return 0 if board.weak_bounces else UNIT
    if not occupant.supporters:
        return UNIT
    return UNIT + UNIT * given_supports(r, occupant.supporters)


def prevent_strength(r: Resolver, piece: Piece) -> int:
    """Strength with which a unit keeps others out of the province it moves to."""
    if piece.by_convoy and not r.resolve(piece.path_decision):
        return EMPTY
    opponent = piece.opponent
    if opponent is not None and r.resolve(opponent.decision):
        return EMPTY
    if not piece.supporters:
        return piece.base
    return piece.base + UNIT * given_supports(r, piece.supporters)


def dislodged(board: Board, r: Resolver, piece: Piece) -> bool:
    """Whether a unit stays where it is and another unit moves in."""
    if piece.kind == MOVE and r.resolve(piece.decision):
        return False
    for attacker in board.attackers.get(piece.province, ()):
        if r.resolve(attacker.decision):
            return True
    return False


# --- the words of a move that did not go ----------------------------------------------------------

def words(r: Resolver, piece: Piece) -> tuple[Result, ...]:
    """Why a move that did not go failed: its convoy, else other units."""
    failure = convoy_failure(r, piece)
    return (failure,) if failure else BOUNCED


def convoy_failure(r: Resolver, army: Piece) -> Result | None:
    """`no convoy` when a convoyed move had no route at all, or every route was broken (DPjudge's
    word for both: the tools that read results know no other)."""
    if not army.by_convoy:
        return None
    if not army.has_route or not r.resolve(army.path_decision):
        return Result.NO_CONVOY
    return None
