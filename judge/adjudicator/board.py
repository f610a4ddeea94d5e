"""The board of one movement phase: every unit with the order it will carry out, indexed once.

`build_board` gives each unit its order (an unordered unit, or one whose order is illegal, holds) and
works out where each move goes and across what; the order kinds' modules then link supports and
convoys to the units they help, and `index_moves` lists who moves where and the head-to-head pairs.
The decisions read these over and over; nothing here decides an outcome.

Strengths are counted in halves, so that a Cape (`*`) crossing can be worth 1: a unit is 2, each
support 2, a move across a Cape 1, a move across a strait (`~`) 0.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from judge.adjudicator.model import Position
from judge.maps.derived import per_map
from judge.maps.model import CAPE, STRAIT, Abut, Map
from judge.orders.model import Convoy, Hold, Move, Order, Support
from judge.orders.reach import ConvoyRoutes, convoy_routes
from judge.orders.validate import OrderChecker
from judge.types import Unit, UnitType, province_of

HOLD, MOVE, SUPPORT, CONVOY = "hold", "move", "support", "convoy"
UNIT, FULL, HALF, NONE = 2, 2, 1, 0
MOVES, SUPPORTS, PATHS = 0, 1, 2  # the kinds of decision: a move succeeds, a support is given,
DECISIONS = 3  # a convoyed army has a route; piece i's decision of kind k is number 3 * i + k

ARMY, FLEET = UnitType.ARMY, UnitType.FLEET  # module names: faster than Enum members

class Piece:
    """A unit on the board and the order it carries out this phase.

    Slots: the decisions read these fields over and over, and a slot is read fastest. Most fields
    matter to one kind of order only, and are set when a piece is given that kind (`moving`...)."""

    __slots__ = ("index", "power", "unit", "province", "order", "kind", "illegal", "void", "dest",
                 "dest_province", "by_convoy", "path", "base", "opponent", "directed", "army", "fleets",
                 "has_route", "supporters")

    def __init__(self, index: int, power: str, unit: Unit) -> None:
        self.index = index
        self.power = power
        self.unit = unit
        self.province = unit.province
        self.order: Order | None = None  # as given (on this unit), None when unordered
        self.kind = HOLD  # what the unit does: HOLD, MOVE, SUPPORT or CONVOY
        self.illegal: str | None = None  # why the given order is illegal (the unit then holds)
        self.void: str | None = None  # why a legal support or convoy order helps nobody
        self.supporters: Sequence[Piece] = ()  # supports of this unit's move or holding (`support`)
        # The fields of one kind of order are set when a piece is given it (`moving`, `supporting`,
        # `convoying`), and read only of pieces of that kind: a board is mostly holds and moves.

    def moving(self, dest: str, dest_province: str, base: int = UNIT) -> None:
        self.dest = dest  # the location arrived at
        self.dest_province = dest_province
        self.by_convoy = False
        self.path: tuple[str, ...] = ()  # the convoy route the order writes out, if any
        self.base = base  # strength of the crossing (FULL, HALF or NONE)
        self.opponent: Piece | None = None  # the unit moving the other way head to head
        self.fleets: Sequence[Piece] = ()  # by convoy: the fleets ordered to convoy it
        self.has_route = False  # by convoy: those fleets make a route at all

    def supporting(self) -> None:
        self.directed = ""  # the province the support goes into

    def convoying(self) -> None:
        self.army: Piece | None = None  # the army convoyed

    def support(self, supporter: Piece) -> None:
        """Count a support order matched to this unit (most units get none: no list until then)."""
        if self.supporters:
            self.supporters.append(supporter)  # type: ignore[attr-defined]
        else:
            self.supporters = [supporter]

    def __repr__(self) -> str:
        return f"<{self.power} {self.unit} {self.kind}>"


class MapFacts:
    """What every board on one map reads of it, worked out once a map (`map_facts`)."""

    def __init__(self, m: Map) -> None:
        self.abbrev = {name: p.abbrev for name, p in m.powers.items()}
        self.dummies = frozenset(name for name, p in m.powers.items() if p.dummy)
        self.leagues = any(p.league is not None and p.league.kind for p in m.powers.values())
        self._units: dict[tuple[UnitType, str], Unit] = {}

    def unit(self, unit_type: UnitType, location: str) -> Unit:
        """The unit of this type on the location, made once (units are values: one serves all)."""
        found = self._units.get((unit_type, location))
        if found is None:
            found = self._units[unit_type, location] = Unit(unit_type, location)
        return found


map_facts = per_map(MapFacts)  # (a MapFacts holds no reference to its map)


class Board:
    """Every unit of the phase, with indexes by province; built by `build_board`."""

    def __init__(self, m: Map, position: Position, rules: frozenset[str]) -> None:
        self.map = m
        self.position = position
        self.rules = rules
        self.pieces: list[Piece] = []
        self.at: dict[str, Piece] = {}
        self.attackers: dict[str, list[Piece]] = {}  # province -> moves into it
        # Every order given, in input order, and the piece it commands, or why it commands none.
        self.given: list[Order] = []
        self.commands: list[Piece | str] = []
        # The pieces given each kind of order when the board was built (a piece's kind can change
        # later: `pieces_of` reads these lists again).
        self.ordered: dict[str, list[Piece]] = {MOVE: [], SUPPORT: [], CONVOY: []}
        self.by_convoy = False  # whether some army's move order says it goes by convoy
        self.held_back = False  # whether some piece's order was found illegal once classified
        self.facts = facts = map_facts(m)
        self.abbrev = facts.abbrev
        self.dummies = facts.dummies | position.dummies if position.dummies else facts.dummies
        self.order_any = "ORDER_ANY" in rules
        self.immobile_dummies = "IMMOBILE_DUMMIES" in rules
        self.weak_bounces = "WEAK_BOUNCES" in rules
        self._friendly_fire = "FRIENDLY_FIRE" in rules
        self._dummy_fire = "DUMMY_FIRE" in rules
        self._owned: dict[str, frozenset[str]] = {}
        self._routes: ConvoyRoutes | None = None

    def release(self) -> None:
        """Drop the references pieces hold to each other (head-to-head opponents, convoys), once
        the phase is read off: without cycles, the phase's objects are freed as soon as they are
        left, not by the cycle collector (which otherwise spent a tenth of the phase on them)."""
        for piece in self.ordered[MOVE]:
            piece.opponent, piece.fleets = None, ()
        for piece in self.ordered[CONVOY]:
            piece.army = None

    def owned(self, power: str) -> frozenset[str]:
        found = self._owned.get(power)
        if found is None:
            found = self._owned[power] = frozenset(self.position.centers.get(power, ()))
        return found

    def crossing(self, unit: Unit, power: str, dest: str) -> Abut | None:
        """The adjacency a unit of `power` crosses moving directly to `dest`, if it may."""
        abut = self.map.abut(unit.type, unit.location, dest)
        if abut is not None and abut.restricted and not abut.allows(self.abbrev.get(power), self.owned(power)):
            return None
        return abut

    def reach(self, piece: Piece, province: str) -> Abut | None:
        """The adjacency a unit would cross to support into `province` (any coast of it)."""
        if piece.unit.type is ARMY:
            return self.crossing(piece.unit, piece.power, province)
        for dest in (province, *self.coasts(province)):
            abut = self.crossing(piece.unit, piece.power, dest)
            if abut is not None:
                return abut
        return None

    def friendly_fire(self, power: str) -> bool:
        """Whether units of `power` may be dislodged by their own side (FRIENDLY_FIRE, DUMMY_FIRE)."""
        return self._friendly_fire or (self._dummy_fire and power in self.dummies)

    def coasts(self, province: str) -> tuple[str, ...]:
        """The coasts of a province (none for most)."""
        return self.map.coasts_of(province)

    @property
    def routes(self) -> ConvoyRoutes:
        """The map's convoying spaces under the rules (made once a map: `convoy_routes`)."""
        if self._routes is None:
            self._routes = convoy_routes(self.map, self.rules)
        return self._routes

    def carries_convoy(self, location: str) -> bool:
        """Whether a fleet on the location may convoy: at sea, in a PORT, on a coast if
        COASTAL_CONVOY."""
        return location in self.routes.spaces

    def sea_steps(self, location: str) -> tuple[str, ...]:
        """Where a fleet on the location could move."""
        return self.map.moves(FLEET, location)

    def touching(self, location: str) -> frozenset[str]:
        """The provinces a fleet on the location borders (where it could move)."""
        found = self.routes.borders.get(location)
        if found is None:  # not a convoying space
            found = frozenset(province_of(d) for d in self.sea_steps(location))
        return found


def build_board(m: Map, position: Position, orders: Mapping[str, Sequence[Order]],
                rules: frozenset[str]) -> Board:
    """Place the units and give each its order (the order kinds then link them: `movement`).
    Every order is checked (`OrderChecker`): what a legal order says holds on the board."""
    board = Board(m, position, rules)
    pieces, at, given, commands = board.pieces, board.at, board.given, board.commands
    for power in sorted(position.units):
        for unit in position.units[power]:
            piece = Piece(len(pieces), power, unit)
            pieces.append(piece)
            at[piece.province] = piece
    checker = OrderChecker(m, position, rules)
    check, plain_crossing = checker.check, checker.plain_crossing
    order_any, immobile_dummies, locations = board.order_any, board.immobile_dummies, m.locations
    moving, supporting, convoying = board.ordered[MOVE], board.ordered[SUPPORT], board.ordered[CONVOY]
    for power, orders_given in orders.items():
        for order in orders_given:  # each order to the unit it commands, if any
            kind = type(order)
            given.append(order)
            if kind not in MOVEMENT_ORDERS:
                commands.append(NOT_MOVEMENT)
                continue
            unit = order.unit  # type: ignore[union-attr]
            piece = at.get(unit.province)
            if piece is None or piece.unit.type is not unit.type or (piece.power != power and not order_any):
                commands.append(_foreign(board, power, unit, piece))
                continue
            commands.append(piece)
            if piece.order is not None:  # DATC 4.D.3: a unit given more than one order holds
                hold_back(board, piece, "the unit was given more than one order: it holds")
                continue
            crossing = None
            if kind is Move:  # the common move is known legal, and its crossing known, at once
                crossing = plain_crossing(order)  # type: ignore[arg-type]
                if crossing is None:
                    piece.illegal = check(order)
            else:
                piece.illegal = check(order)
            if unit.location != piece.unit.location:
                order = replace(order, unit=piece.unit)
            piece.order = order
            if immobile_dummies and piece.illegal is None:
                piece.illegal = _immobile(board, piece, order)
            if piece.illegal is not None or kind is Hold:
                continue
            # What the legally ordered unit does (an order it cannot carry out is illegal).
            if kind is Move:
                if crossing is not None:  # straight along it to the place written, the location reached
                    piece.moving(order.dest, locations[order.dest].province,  # type: ignore[union-attr]
                                 crossing_strength(crossing) if crossing.special else FULL)
                else:
                    piece.illegal = _set_move(board, piece, order)  # type: ignore[arg-type]
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


MOVEMENT_ORDERS = frozenset({Hold, Move, Support, Convoy})
NOT_MOVEMENT = "only hold, move, support and convoy orders are given in a movement phase"


def _foreign(board: Board, power: str, unit: Unit, piece: Piece | None) -> str:
    if piece is None:
        return f"there is no unit in {unit.province}"
    if piece.unit.type is not unit.type:
        return f"the unit in {unit.province} is {piece.unit}, not {unit}"
    return f"{piece.unit} is not a unit of {power}"


def _immobile(board: Board, piece: Piece, order: Order) -> str | None:
    if isinstance(order, Move) and "IMMOBILE_DUMMIES" in board.rules and piece.power in board.dummies:
        return "IMMOBILE_DUMMIES: a dummy power's units may not move"
    return None


def _set_move(board: Board, piece: Piece, order: Move) -> str | None:
    place = board.map.locations.get(order.dest)
    dest_province = place.province if place is not None else province_of(order.dest)
    if dest_province == piece.province:
        return "a unit cannot move to its own province"
    if dest_province not in board.map.locations:
        return f"there is no {order.dest} on the map"
    piece.moving(dest_province, dest_province)
    if piece.unit.type is FLEET:
        return _set_fleet_move(board, piece, order.dest)
    abut = board.crossing(piece.unit, piece.power, dest_province)
    if abut is None and not board.map.locations[dest_province].army_ok:  # (crossings lead to land)
        return f"an army cannot go to {dest_province}"
    if abut is None or order.via_convoy or order.path:
        piece.by_convoy = board.by_convoy = True
        piece.path = order.path
    if abut is not None and abut.special:
        piece.base = crossing_strength(abut)
    return None


def _set_fleet_move(board: Board, piece: Piece, dest: str) -> str | None:
    coasts = board.coasts(dest) if "/" not in dest else ()
    if coasts:  # a bare province with coasts: the only coast the fleet can reach
        reachable = [c for c in coasts if board.crossing(piece.unit, piece.power, c)]
        if len(reachable) != 1:
            return f"the coast of {dest} must be given"
        dest = reachable[0]
    abut = board.crossing(piece.unit, piece.power, dest)
    if abut is None:
        return f"{piece.unit} cannot move to {dest}"
    piece.dest = dest
    if abut.special:
        piece.base = crossing_strength(abut)
    return None


def crossing_strength(abut: Abut) -> int:
    if STRAIT in abut.special:
        return NONE
    return HALF if CAPE in abut.special else FULL


def index_moves(board: Board) -> None:
    """Attackers by province, and head-to-head pairs (direct moves into each other's province)."""
    crawl = "COASTAL_CRAWL" in board.rules
    attackers, at = board.attackers, board.at
    for piece in board.ordered[MOVE]:
        if piece.kind != MOVE or (piece.by_convoy and not piece.has_route):
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


def pieces_of(board: Board, kind: str) -> Sequence[Piece]:
    """The pieces given a MOVE, SUPPORT or CONVOY order that still carry it out, in the order
    their orders were given."""
    if not board.held_back:
        return board.ordered[kind]
    return [p for p in board.ordered[kind] if p.kind == kind]


def hold_back(board: Board, piece: Piece, why: str) -> None:
    """Make a piece's order illegal after it was classified (the unit holds)."""
    piece.illegal, piece.kind = why, HOLD
    board.held_back = True

