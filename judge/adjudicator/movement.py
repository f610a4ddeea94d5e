"""Movement phases: `resolve_movement(map, position, orders, rules) -> Resolution`.

The pipeline is a short list of stages: build the board (each unit with the order it carries out,
illegal orders turned into holds), link the helpers to the units they help, decide every move and
support with the generic resolver, then read off the results, where every unit stands, and the
retreats of the dislodged. Each order kind's module (`moves`, `supports`, `convoys`) owns where its
order goes and whom it helps, its decision and its result words; this module only hands out the
decisions' numbers and asks them. Cycles are settled by the DATC's preferred backup rules: circular
movement succeeds, and in a convoy paradox the convoyed armies of the cycle do not get through and do
not cut support (the Szykman rule, DATC 4.A.2).

`Resolution.results` has one entry for each order given, in the order given (power by power, in
the mapping's order), then a hold for each unit that had no order.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import NoReturn

from judge.adjudicator import convoys, leagues, moves, supports
from judge.adjudicator.board import (
    CONVOY,
    HOLD,
    MOVE,
    SUPPORT,
    Board,
    Piece,
    hold_back,
)
from judge.adjudicator.model import OrderResult, Position, Resolution, Result
from judge.adjudicator.resolver import Resolver
from judge.adjudicator.retreats import no_retreats
from judge.maps.model import Map
from judge.orders.model import Convoy, Hold, Move, Order, Support
from judge.orders.validate import OrderChecker
from judge.rule_names import Rule, Rules
from judge.types import Unit, province_of

VOIDED, DISLODGED = (Result.VOID,), (Result.DISLODGED,)  # the usual results, made once
MOVEMENT_ORDERS = frozenset({Hold, Move, Support, Convoy})
NOT_MOVEMENT = "only hold, move, support and convoy orders are given in a movement phase"
TWICE = "the unit was given more than one order: it holds"
# The words of an order that did not simply succeed: a move that did not go, a support or a convoy
# that matched its unit (a hold has none).
WORDS = {MOVE: moves.words, SUPPORT: supports.words, CONVOY: convoys.words}


def resolve_movement(m: Map, position: Position, orders: Mapping[str, Sequence[Order]],
                     rules: Rules = frozenset()) -> Resolution:
    """Adjudicate a movement phase."""
    adjudication = Adjudication(linked_board(m, position, orders, rules))
    adjudication.run()
    try:
        return adjudication.resolution()
    finally:
        adjudication.release()


def linked_board(m: Map, position: Position, orders: Mapping[str, Sequence[Order]],
                 rules: Rules) -> Board:
    """The board ready to decide: every order given, every move placed, the helpers linked."""
    board = build_board(m, position, orders, rules)
    leagues.check(board)  # supports and convoys a league forbids
    convoys.link(board)  # who goes by convoy, and along which fleets
    supports.link(board)  # whom each support helps
    moves.index(board)  # who moves where, head-to-head pairs
    return board


def build_board(m: Map, position: Position, orders: Mapping[str, Sequence[Order]],
                rules: Rules) -> Board:
    """Place the units and give each its order. Every order is checked (`OrderChecker`): what a
    legal order says holds on the board (a move is placed: `moves.place`)."""
    board = Board(m, position, rules)
    pieces, at, given, commands, refused = board.pieces, board.at, board.given, board.commands, board.refused
    for power in sorted(position.units):
        for unit in position.units[power]:
            placed = Piece(len(pieces), power, unit)
            pieces.append(placed)
            at[placed.province] = placed
    checker = OrderChecker(m, position, rules)
    check, plain_crossing, place = checker.check, checker.plain_crossing, moves.place
    order_any = board.order_any
    moving, supporting, convoying = board.ordered[MOVE], board.ordered[SUPPORT], board.ordered[CONVOY]
    for power, orders_given in orders.items():
        for order in orders_given:  # each order to the unit it commands, if any
            kind = type(order)
            given.append(order)
            if kind not in MOVEMENT_ORDERS:
                refused[len(commands)] = NOT_MOVEMENT
                commands.append(None)
                continue
            unit = order.unit  # type: ignore[union-attr]
            piece = at.get(unit.province)
            if piece is None or piece.unit.type is not unit.type or (piece.power != power and not order_any):
                refused[len(commands)] = _foreign(power, unit, piece)
                commands.append(None)
                continue
            commands.append(piece)
            if piece.order is not None:  # DATC 4.D.3: a unit given more than one order holds
                hold_back(board, piece, TWICE)
                continue
            crossing = None
            if kind is Move:  # the common move is known legal, and its crossing known, at once
                crossing = plain_crossing(order)  # type: ignore[arg-type]
                if crossing is None:
                    piece.illegal = check(order)
            else:
                piece.illegal = check(order)
            if unit.location != piece.unit.location:
                order = replace(order, unit=piece.unit)  # type: ignore[arg-type]  # (a movement order, kind checked)
            piece.order = order
            if piece.illegal is not None or kind is Hold:
                continue
            # What the legally ordered unit does (an order it cannot carry out is illegal).
            if kind is Move:
                piece.illegal = place(board, piece, order, crossing)  # type: ignore[arg-type]
                if piece.illegal is None:
                    piece.kind = MOVE
                    moving.append(piece)
            elif kind is Support:
                piece.kind = SUPPORT
                piece.supporting()
                supporting.append(piece)
            else:
                piece.kind = CONVOY
                piece.convoying()
                convoying.append(piece)
    return board


def _foreign(power: str, unit: Unit, piece: Piece | None) -> str:
    if piece is None:
        return f"there is no unit in {unit.province}"
    if piece.unit.type is not unit.type:
        return f"the unit in {unit.province} is {piece.unit}, not {unit}"
    return f"{piece.unit} is not a unit of {power}"


DecisionRule = Callable[[Board, Resolver, Piece], bool]


class Adjudication:
    """The decisions of one phase and what follows from them.

    Each decision is a number handed out here, before any is decided: a move's (`piece.decision`:
    it succeeds), a convoyed move's path (`piece.path_decision`: a route holds), a matched
    support's (`piece.decision`: it is given). `rules[n]` is the rule that decides number n and
    `about[n]` the piece it is about: the resolver knows only the numbers."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.rules: list[DecisionRule] = []
        self.about: list[Piece] = []
        rule, about = self.rules.append, self.about.append
        for piece in board.ordered[MOVE]:
            piece.decision = len(self.about)
            rule(moves.succeeds)
            about(piece)
            if piece.by_convoy:
                piece.path_decision = len(self.about)
                rule(convoys.has_path)
                about(piece)
        for piece in board.ordered[SUPPORT]:
            if piece.void is None:
                piece.decision = len(self.about)
                rule(supports.given)
                about(piece)
        self.movers: list[bool] = []
        self.resolver = Resolver(len(self.about), self._adjudicate, self._backup)

    def _adjudicate(self, node: int) -> bool:
        return self.rules[node](self.board, self.resolver, self.about[node])

    def _backup(self, cycle: list[int]) -> None:
        """A cycle with a convoy in it is a paradox: its convoys fail (Szykman); else the moves go."""
        paths = [n for n in cycle if self.rules[n] is convoys.has_path]
        for node in paths:
            self.resolver.settle(node, False)
        if not paths:
            for node in cycle:
                if self.rules[node] is moves.succeeds:
                    self.resolver.settle(node, True)

    def run(self) -> None:
        """Decide every move and support; `movers[i]` then says whether piece i moved.

        Most of a phase's decisions are a move alone into an empty province or a support nobody
        moves against: their rule gives yes whatever else happens, so they are settled without the
        resolver's bookkeeping (a property test shows asking the resolver gives the same)."""
        resolve, settle = self.resolver.resolve, self.resolver.settle
        at, attackers = self.board.at, self.board.attackers
        moving = self.board.ordered[MOVE]
        for piece in moving:
            if piece.by_convoy or piece.dest_province in at or len(attackers[piece.dest_province]) > 1:
                resolve(piece.decision)
            else:  # alone into an empty province, over land or sea: `moves.succeeds` is yes
                settle(piece.decision, True)
        for piece in self.board.ordered[SUPPORT]:
            if piece.void is not None:
                continue
            if piece.province in attackers:
                resolve(piece.decision)
            else:  # nobody moves against the supporter: `supports.given` is yes
                settle(piece.decision, True)
        value = self.resolver.value
        movers = self.movers = [False] * len(self.board.pieces)
        for piece in moving:
            movers[piece.index] = value[piece.decision]

    def release(self) -> None:
        """Undo the references that make cycles (the resolver's callbacks are this object's
        methods; `Board.release`), so the phase's objects go when they are left."""
        self.resolver.adjudicate = self.resolver.backup = _released
        self.board.release()

    # --- reading off the outcome ------------------------------------------------------------------

    def resolution(self) -> Resolution:
        board = self.board
        dislodgers = self._dislodgers()
        no_check = Rule.NO_CHECK in board.rules
        illegal = (Result.INVALID,) if no_check else VOIDED
        twice = (Result.REORDER,) if no_check else VOIDED
        results: list[OrderResult] = []
        add = results.append
        movers = self.movers
        r = self.resolver
        given = board.given
        for number, piece in enumerate(board.commands):
            order = given[number]
            words: tuple[Result, ...]
            if piece is None:  # for no unit, or another power's
                add(OrderResult(order, illegal, board.refused[number]))
                continue
            if piece.illegal is not None:
                words, note = twice if piece.illegal is TWICE else illegal, piece.illegal
            elif piece.void is not None:
                words, note = VOIDED, piece.void
            elif piece.kind == HOLD or movers[piece.index]:  # a hold, a move that went: no words
                words, note = (), ""
            else:
                words, note = WORDS[piece.kind](r, piece), ""
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

    def _units_after(self, dislodgers: dict[int, Piece]) -> dict[str, tuple[Unit, ...]]:
        """Each power's units in DPjudge's order: those that stayed as they were listed, then those
        that moved, in the same order (the status file keeps it, and the results follow it)."""
        after: dict[str, list[Unit]] = {power: [] for power in self.board.position.units}
        moved: dict[str, list[Unit]] = {power: [] for power in self.board.position.units}
        movers = self.movers
        arrived = self.board.facts.units
        for piece in self.board.pieces:  # (each piece is a unit of position.units, in its order)
            if movers[piece.index]:
                moved[piece.power].append(arrived[piece.unit.type, piece.dest])
            elif piece.index not in dislodgers:
                after[piece.power].append(piece.unit)
        return {power: tuple(units + moved[power]) for power, units in after.items()}

    def _dislodged(self, dislodgers: dict[int, Piece]) -> dict[str, dict[Unit, tuple[str, ...]]]:
        found: dict[str, dict[Unit, tuple[str, ...]]] = {}
        for index, attacker in dislodgers.items():
            piece = self.board.pieces[index]
            found.setdefault(piece.power, {})[piece.unit] = self._retreats(piece, attacker, dislodgers)
        return found

    def _retreats(self, piece: Piece, attacker: Piece, dislodgers: dict[int, Piece]) -> tuple[str, ...]:
        board = self.board
        if no_retreats(board.rules):
            return ()
        # In the order of the map's ABUTS line, as DPjudge lists them ("Budapest or Bulgaria or Serbia").
        return tuple(dest for dest in board.map.move_table(piece.unit.type).get(piece.unit.location, ())
                     if not self._barred(province_of(dest), attacker, dislodgers)
                     and board.crossing(piece.unit, piece.power, dest) is not None)

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


def _released(*_: object) -> NoReturn:
    raise RuntimeError("this adjudication is over")


def _with_dislodged(words: tuple[Result, ...]) -> tuple[Result, ...]:
    return tuple(sorted(words + DISLODGED, key=lambda w: w.value))


__all__ = ["Adjudication", "resolve_movement"]
