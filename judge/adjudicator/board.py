"""The board of one movement phase: every unit with the order it carries out, indexed once.

The pipeline (`movement`) gives each unit its order (an unordered unit, or one whose order is illegal,
holds); the order kinds' modules then work out where each move goes, link supports and convoys to the
units they help, and list who moves where. The decisions read these over and over; nothing here
decides an outcome.

Strengths are counted in halves, so that a Cape (`*`) crossing can be worth 1: a unit is 2, each
support 2, a move across a Cape 1, a move across a strait (`~`) 0.
"""
from __future__ import annotations

from collections.abc import Sequence

from judge.adjudicator.model import Position
from judge.maps.model import CAPE, STRAIT, Abut, Map, per_map
from judge.orders.model import Order
from judge.orders.reach import ConvoyRoutes, convoy_routes
from judge.rule_names import Rule, Rules
from judge.types import Unit, UnitType, province_of

HOLD, MOVE, SUPPORT, CONVOY = "hold", "move", "support", "convoy"
UNIT, FULL, HALF, NONE = 2, 2, 1, 0

ARMY, FLEET = UnitType.ARMY, UnitType.FLEET  # module names: faster than Enum members


class Piece:
    """A unit on the board and the order it carries out this phase.

    Slots: the decisions read these fields over and over, and a slot is read fastest. Most fields
    matter to one kind of order only, and are set when a piece is given that kind (`moving`...)."""

    __slots__ = ("army", "base", "by_convoy", "decision", "dest", "dest_province", "directed",
                 "fleets", "has_route", "illegal", "index", "kind", "opponent", "order", "path",
                 "path_decision", "power", "province", "supporters", "target", "unit", "void")
    # The numbers of its decisions, handed out by the adjudication (`movement.Adjudication`):
    decision: int  # a move's: it succeeds; a matched support's: it is given
    path_decision: int  # a convoyed move's: a route of its fleets holds

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

    def moving(self, dest: str, dest_province: str, crossing: Abut | None) -> None:
        """Move to `dest` (a location) in `dest_province`, across `crossing` (None: by convoy)."""
        self.dest = dest
        self.dest_province = dest_province
        self.by_convoy = False
        self.path: tuple[str, ...] = ()  # the convoy route the order writes out, if any
        # The strength of the crossing (a convoyed army's is its landing's: `convoys`).
        self.base = FULL if crossing is None or not crossing.special else crossing_strength(crossing)
        self.opponent: Piece | None = None  # the unit moving the other way head to head
        self.fleets: Sequence[Piece] = ()  # by convoy: the fleets ordered to convoy it
        self.has_route = False  # by convoy: those fleets make a route at all

    def supporting(self) -> None:
        self.directed = ""  # the province the support goes into
        self.target: Piece | None = None  # the unit a matched support helps

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
        # One Unit value for each type on each location (units are values: one serves every board).
        self.units = {(kind, location): Unit(kind, location)
                      for location in m.locations for kind in (ARMY, FLEET)}


map_facts = per_map(MapFacts)  # (a MapFacts holds no reference to its map)


class Board:
    """Every unit of the phase, with indexes by province; built by `movement.build_board`."""

    def __init__(self, m: Map, position: Position, rules: Rules) -> None:
        self.map = m
        self.position = position
        self.rules = rules
        self.pieces: list[Piece] = []
        self.at: dict[str, Piece] = {}
        self.attackers: dict[str, list[Piece]] = {}  # province -> moves into it
        # Every order given, in input order; the piece each commands (None: none, for `refused[i]`).
        self.given: list[Order] = []
        self.commands: list[Piece | None] = []
        self.refused: dict[int, str] = {}  # why the i-th order given commands no piece
        # The pieces carrying out each kind of order, in the order given (`hold_back` takes one out).
        self.ordered: dict[str, list[Piece]] = {MOVE: [], SUPPORT: [], CONVOY: []}
        self.by_convoy = False  # whether some army's move order says it goes by convoy
        self.facts = facts = map_facts(m)
        self.abbrev = facts.abbrev
        self.dummies = facts.dummies | position.dummies if position.dummies else facts.dummies
        self.order_any = Rule.ORDER_ANY in rules
        self.immobile_dummies = Rule.IMMOBILE_DUMMIES in rules
        self.weak_bounces = Rule.WEAK_BOUNCES in rules
        self._friendly_fire = Rule.FRIENDLY_FIRE in rules
        self._dummy_fire = Rule.DUMMY_FIRE in rules
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
        for piece in self.ordered[SUPPORT]:
            piece.target = None

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


def crossing_strength(abut: Abut) -> int:
    if STRAIT in abut.special:
        return NONE
    return HALF if CAPE in abut.special else FULL


def hold_back(board: Board, piece: Piece, why: str) -> None:
    """Make a piece's order illegal after it was given its kind (the unit holds)."""
    if piece.kind != HOLD:
        board.ordered[piece.kind].remove(piece)
    piece.illegal, piece.kind = why, HOLD
