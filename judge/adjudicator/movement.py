"""Movement phases: `resolve_movement(map, position, orders, rules) -> Resolution`.

The pipeline is a short list of stages: build the board (each unit with the order it carries out,
illegal orders turned into holds), decide every move and support with the generic resolver (each order
kind's module owns its decision), then read off the results, where every unit stands, and the
retreats of the dislodged. Cycles are settled by the DATC's preferred backup rules: circular
movement succeeds, and in a convoy paradox the convoyed armies of the cycle do not get through and do
not cut support (the Szykman rule, DATC 4.A.2).

`Resolution.results` has one entry for each order given, in the order given (power by power, in
the mapping's order), then a hold for each unit that had no order.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter

from judge.adjudicator import convoys, leagues, moves, supports
from judge.adjudicator.board import (
    CONVOY,
    DECISIONS,
    HOLD,
    MOVE,
    MOVES,
    PATHS,
    SUPPORT,
    SUPPORTS,
    Board,
    Piece,
    build_board,
    index_moves,
    pieces_of,
)
from judge.adjudicator.model import OrderResult, Position, Resolution, Result
from judge.adjudicator.moves import succeeds
from judge.adjudicator.resolver import Resolver
from judge.maps.model import Map
from judge.orders.model import Hold, Order
from judge.types import Unit, province_of

VOIDED, BOUNCED, CUT = (Result.VOID,), (Result.BOUNCE,), (Result.CUT,)  # the usual results, made once
DISLODGED = (Result.DISLODGED,)
UNIT_ORDER = attrgetter("type", "location")  # as Unit orders them (armies first), without its __lt__


def resolve_movement(m: Map, position: Position, orders: Mapping[str, Sequence[Order]],
                     rules: frozenset[str] = frozenset()) -> Resolution:
    """Adjudicate a movement phase."""
    board = build_board(m, position, orders, rules)
    leagues.check(board)  # supports and convoys a league forbids
    convoys.link(board)  # who goes by convoy, and along which fleets
    supports.link(board)  # whom each support helps
    index_moves(board)  # who moves where, head-to-head pairs
    adjudication = Adjudication(board)
    adjudication.run()
    try:
        return adjudication.resolution()
    finally:
        adjudication.release()


class Adjudication:
    """The decisions of one phase and what follows from them."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.pieces = board.pieces
        self.paradoxes: set[int] = set()  # pieces whose convoy the Szykman rule cancelled
        self.movers: list[bool] = []
        self.resolver = Resolver(DECISIONS * len(board.pieces), self._adjudicate, self._backup)

    def _adjudicate(self, node: int) -> bool:
        piece, kind = self.pieces[node // DECISIONS], node % DECISIONS
        if kind == MOVES:
            return succeeds(self.board, self.resolver, piece)
        if kind == SUPPORTS:
            return supports.given(self.board, self.resolver, piece)
        return convoys.has_path(self.board, self.resolver, piece)

    def _backup(self, cycle: list[int]) -> None:
        """A cycle with a convoy in it is a paradox: its convoys fail (Szykman); else the moves go."""
        paths = [n for n in cycle if n % DECISIONS == PATHS]
        for node in paths:
            self.resolver.settle(node, False)
            self.paradoxes.add(node // DECISIONS)
        if not paths:
            for node in cycle:
                if node % DECISIONS == MOVES:
                    self.resolver.settle(node, True)

    def run(self) -> None:
        """Decide every move and support; `movers[i]` then says whether piece i moved."""
        resolve, settle = self.resolver.resolve, self.resolver.settle
        at, attackers = self.board.at, self.board.attackers
        moving = pieces_of(self.board, MOVE)
        for piece in moving:
            if piece.by_convoy or piece.dest_province in at or len(attackers[piece.dest_province]) > 1:
                resolve(DECISIONS * piece.index + MOVES)
            else:  # alone into an empty province, over land or sea: nothing can stop it (`succeeds`)
                settle(DECISIONS * piece.index + MOVES, True)
        for piece in pieces_of(self.board, SUPPORT):
            if piece.void is not None:
                continue
            if piece.province in attackers:
                resolve(DECISIONS * piece.index + SUPPORTS)
            else:  # nobody moves against the supporter: given (`supports.given`)
                settle(DECISIONS * piece.index + SUPPORTS, True)
        value = self.resolver.value
        movers = self.movers = [False] * len(self.pieces)
        for piece in moving:
            movers[piece.index] = value[DECISIONS * piece.index + MOVES]

    def release(self) -> None:
        """Undo the references that make cycles (the resolver's callbacks are this object's
        methods; `Board.release`), so the phase's objects go when they are left."""
        self.resolver.adjudicate = self.resolver.backup = _released
        self.board.release()

    # --- reading off the outcome ------------------------------------------------------------------

    def resolution(self) -> Resolution:
        board = self.board
        dislodgers = self._dislodgers()
        illegal = (Result.INVALID,) if "NO_CHECK" in board.rules else VOIDED
        results = []
        add = results.append
        movers = self.movers
        for order, piece in zip(board.given, board.commands):
            if piece.__class__ is str:  # for no unit, or another power's: why
                add(OrderResult(order, illegal, piece))  # type: ignore[arg-type]
                continue
            if piece.illegal is not None:
                words, note = illegal, piece.illegal
            elif piece.void is not None:
                words, note = VOIDED, piece.void
            elif piece.kind == HOLD or movers[piece.index]:  # (most orders: nothing to say)
                words, note = (), ""
            else:
                words, note = self._order_words(piece), ""
            if dislodgers and piece.index in dislodgers:
                words = _with_dislodged(words)
            add(OrderResult(order, words, note))
        for piece in board.pieces:
            if piece.order is None:
                words = DISLODGED if dislodgers and piece.index in dislodgers else ()
                add(OrderResult(Hold(piece.power, piece.unit), words, "no order"))
        units = self._units_after(dislodgers)
        return Resolution(phase=board.position.phase, results=tuple(results), units=units,
                          dislodged=self._dislodged(dislodgers) if dislodgers else {},
                          centers=dict(board.position.centers), homes=board.position.homes)

    def _dislodgers(self) -> dict[int, Piece]:
        """Each dislodged unit's index -> the unit that dislodged it."""
        found = {}
        movers = self.movers
        at = self.board.at
        for province, attackers in self.board.attackers.items():
            occupant = at.get(province)
            if occupant is None or movers[occupant.index]:
                continue
            for attacker in attackers:
                if movers[attacker.index]:
                    found[occupant.index] = attacker
                    break
        return found

    def _order_words(self, piece: Piece) -> tuple[Result, ...]:
        """The results of a legal order that helps someone (no void support or convoy)."""
        kind = piece.kind
        if kind == MOVE:
            if self.movers[piece.index]:
                return ()
            failure = self._convoy_failure(piece)
            return (failure,) if failure else BOUNCED
        if kind == SUPPORT:
            return () if self.resolver.resolve(DECISIONS * piece.index + SUPPORTS) else CUT
        if kind == CONVOY and piece.army is not None:
            failure = self._convoy_failure(piece.army)
            return (failure,) if failure else ()
        return ()

    def _convoy_failure(self, army: Piece) -> Result | None:
        if not army.by_convoy:
            return None
        if not army.has_route:
            return Result.NO_CONVOY
        if not self.resolver.resolve(DECISIONS * army.index + PATHS):
            return Result.DISRUPTED
        return None

    def _units_after(self, dislodgers: dict[int, Piece]) -> dict[str, tuple[Unit, ...]]:
        after: dict[str, list[Unit]] = {power: [] for power in self.board.position.units}
        movers = self.movers
        unit = self.board.facts.unit
        for piece in self.board.pieces:  # (each piece is a unit of position.units)
            if movers[piece.index]:
                after[piece.power].append(unit(piece.unit.type, piece.dest))
            elif piece.index not in dislodgers:
                after[piece.power].append(piece.unit)
        return {power: tuple(sorted(units, key=UNIT_ORDER)) for power, units in after.items()}

    def _dislodged(self, dislodgers: dict[int, Piece]) -> dict[str, dict[Unit, tuple[str, ...]]]:
        found: dict[str, dict[Unit, tuple[str, ...]]] = {}
        for index, attacker in dislodgers.items():
            piece = self.board.pieces[index]
            found.setdefault(piece.power, {})[piece.unit] = self._retreats(piece, attacker, dislodgers)
        return found

    def _retreats(self, piece: Piece, attacker: Piece, dislodgers: dict[int, Piece]) -> tuple[str, ...]:
        board = self.board
        if "NO_RETREAT" in board.rules or "NO_QUARTER" in board.rules:
            return ()
        return tuple(sorted(dest for dest in board.map.moves(piece.unit.type, piece.unit.location)
                            if not self._barred(province_of(dest), attacker, dislodgers)
                            and board.crossing(piece.unit, piece.power, dest) is not None))

    def _barred(self, province: str, attacker: Piece, dislodgers: dict[int, Piece]) -> bool:
        """Whether a unit dislodged by `attacker` may not retreat into the province: a unit is there
        after the phase (it stayed, or moved in), moves into it stood each other off, or the
        attacker came from there (over land)."""
        if province == attacker.province and not attacker.by_convoy:
            return True
        movers = self.movers
        occupant = self.board.at.get(province)
        if occupant is not None and not movers[occupant.index] and occupant.index not in dislodgers:
            return True
        for other in self.board.attackers.get(province, ()):
            if movers[other.index] or moves.prevent_strength(self.resolver, other) != moves.EMPTY:
                return True
        return False


def _released(*_: object) -> bool:
    raise RuntimeError("this adjudication is over")


def _with_dislodged(words: tuple[Result, ...]) -> tuple[Result, ...]:
    return tuple(sorted(words + DISLODGED, key=lambda w: w.value))


__all__ = ["Adjudication", "resolve_movement"]
