"""The game's status file as an immutable value: the game block and one block per power or player.

Every directive of the status syntax (DPjudge's, the judge's contract) has a typed field here. Values
are normalised the way the parser reads them (power names, centres, rules and units in upper case;
free text with single spaces), so `parse_status(write_status(s)) == s` for every model so written.
Change a status with `dataclasses.replace` (or `GameStatus.with_power` for one power's block).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from judge.types import Phase, Unit


class PhaseMode(str, Enum):
    """The first word of the phase line."""

    PHASE = "PHASE"  # an ordinary phase
    AWAIT = "AWAIT"  # the judge is processing: only the Master may change the file
    SKIP = "SKIP"  # no orders are solicited for this phase
    WAIT = "WAIT"  # the Master processes this phase (or the deadline passing does)


class GameStage(str, Enum):
    """The two one-word phase names."""

    FORMING = "FORMING"
    COMPLETED = "COMPLETED"


class Vacancy(str, Enum):
    """A PLAYER line's first word when nobody e-mailable plays the power."""

    RESIGNED = "RESIGNED"
    DUMMY = "DUMMY"


@dataclass(frozen=True, slots=True)
class Dppd:
    """DPPD player data `#42|joe@blow.com|Joe_Blow`: id (`#42`, `NO-ID`), e-mail, name."""

    ident: str
    email: str
    name: str = ""

    def __str__(self) -> str:
        return f"{self.ident}|{self.email}|{self.name}"


Seat = Dppd | Vacancy


@dataclass(frozen=True, slots=True)
class Handover:
    """One step back in a power's history: in `phase` (S1911R) the power changed hands; `previous`
    held it before (None when a PLAYER line ends with a phase and no earlier player)."""

    phase: str
    previous: Seat | None = None


@dataclass(frozen=True, slots=True)
class PlayerHistory:
    """`PLAYER current [phase previous]...`: who plays the power now, and who did before."""

    current: Seat
    handovers: tuple[Handover, ...] = ()

    @property
    def resigned(self) -> bool:
        return self.current is Vacancy.RESIGNED

    @property
    def dummy(self) -> bool:
        return self.current is Vacancy.DUMMY


@dataclass(frozen=True, slots=True)
class Team:
    """`TEAMS A-B-C`: `powers[0]` controls the others, its dummies."""

    powers: tuple[str, ...]

    @property
    def main(self) -> str:
        return self.powers[0]

    @property
    def dummies(self) -> tuple[str, ...]:
        return self.powers[1:]


@dataclass(frozen=True, slots=True)
class GameResult:
    """`RESULT F1907M FRANCE`: the last phase played and the powers placed (one: a solo)."""

    last_phase: str
    victors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Proposal:
    """`PROPOSAL result proposingPower` (PROPOSE_DIAS games)."""

    result: str
    proposer: str


@dataclass(frozen=True, slots=True)
class Need:
    """A NEED word `GERMANY-(8/9)`: an abandoned power with its units and centres (None: `?`)."""

    power: str
    units: int | None
    centers: int | None

    def __str__(self) -> str:
        def count(n: int | None) -> str:
            return "?" if n is None else str(n)
        return f"{self.power}-({count(self.units)}/{count(self.centers)})"


class RotateWhen(str, Enum):
    CONTROL = "CONTROL"  # before any phase in which the power has orders
    AFTER = "AFTER"  # after every phase (of `phase_type`, if given)
    BEFORE = "BEFORE"  # before every phase of `phase_type`
    FOR = "FOR"  # before phases of `phase_type` in which the power has orders


@dataclass(frozen=True, slots=True)
class RotateStep:
    """One clause of ROTATE: `BEFORE MOVE`, `FOR R`, `AFTER`, `CONTROL` (the phase type as written)."""

    when: RotateWhen
    phase_type: str | None = None


class VoteKind(str, Enum):
    YES = "YES"
    LOSS = "LOSS"
    SOLO = "SOLO"
    DRAW = "WAY"  # `nWAY`: a draw of at most n powers


@dataclass(frozen=True, slots=True)
class Vote:
    kind: VoteKind
    size: int = 0  # n of `nWAY`

    def __str__(self) -> str:
        return f"{self.size}WAY" if self.kind is VoteKind.DRAW else self.kind.value


class Omniscience(str, Enum):
    VIEW = "OMNISCIENT"  # may view every power's pages and press
    PRESS = "OMNISCIENT!"  # and also gets every press message by e-mail
    MASTER = "OMNIPOTENT"  # DPjudge's word for a Master's powers (kept as written)
    KEEPER = "OMNIPOTENT!"  # and a judgekeeper's


class Layout(str, Enum):
    """How the file names a power's block and its homes: the judge's own way, or DPjudge's (a bare
    `FRANCE` once the game has started, `INHABITS`, `RETREAT A PAR DISBAND`), read from the file so
    that a file DPjudge saved is written back as it was."""

    JUDGE = "judge"
    DPJUDGE = "dpjudge"


@dataclass(frozen=True, slots=True)
class Fund:
    """`$34` (currency `$`: cash on hand) or `12E` (12 of currency `E`)."""

    amount: int
    currency: str

    def __str__(self) -> str:
        return f"${self.amount}" if self.currency == "$" else f"{self.amount}{self.currency}"


@dataclass(frozen=True, slots=True)
class Tax:
    """Payola's `TAX PAR 3` (what one centre yields a year) or `TAX 2` (what every centre yields)."""

    amount: int
    center: str | None = None

    def __str__(self) -> str:
        return f"{self.center} {self.amount}" if self.center else str(self.amount)


@dataclass(frozen=True, slots=True)
class Dislodged:
    """`A PAR --> BUR GAS`: a dislodged unit and every place it may retreat to."""

    unit: Unit
    retreats: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RetreatOrder:
    unit: Unit
    destination: str


@dataclass(frozen=True, slots=True)
class DisbandOrder:
    unit: Unit


@dataclass(frozen=True, slots=True)
class BuildOrder:
    """`BUILD A PAR`; `unit` None is `BUILD WAIVED`; `hidden` is `BUILD A PAR HIDDEN`."""

    unit: Unit | None
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class RemoveOrder:
    unit: Unit


AdjustOrder = RetreatOrder | DisbandOrder | BuildOrder | RemoveOrder


@dataclass(frozen=True, slots=True)
class PowerStatus:
    """One power's (or observer's) block."""

    name: str  # `FRANCE`, `POWER#1` while forming, an observer's name
    kind: str | None = None  # None: a power; else OBSERVER, MONITOR or an ALLOWed player type
    player: PlayerHistory | None = None
    address: tuple[str, ...] = ()
    password: str | None = None
    control: tuple[str, ...] = ()  # controllers in rotation order; the first controls now
    omniscient: Omniscience | None = None
    wait: bool = False
    cd: bool = False
    vote: Vote | None = None
    messages: tuple[str, ...] = ()  # MSG lines
    home: tuple[str, ...] | None = None  # HOME line (None: the map's homes)
    owns: tuple[str, ...] = ()  # centres; `SC!`, `SC?`, `SC*` as written
    sees: tuple[str, ...] = ()
    hides: tuple[Unit, ...] = ()  # HIDES: units built hidden, revealed by the next movement phase
    funds: tuple[Fund, ...] | None = None  # FUNDS line (None: no line)
    units: tuple[Unit, ...] = ()
    dislodged: tuple[Dislodged, ...] = ()
    adjustments: tuple[AdjustOrder, ...] = ()  # RETREAT, DISBAND, BUILD and REMOVE lines in order
    orders: tuple[str, ...] | None = None  # movement orders after an ORDERS line (None: no line)
    # Crystal Ball's order lists: for the next movement phase (locked), and the one after
    sooner: tuple[str, ...] | None = None
    later: tuple[str, ...] | None = None
    picture: str | None = None  # PICTURE line: the board's picture in results mails (PNG, PDF, SVG, NONE)
    # Payola: the acceptance list (`FG?`: France's bribes first, then Germany's, then the others'),
    # the offer sheet as written (bribe lines and `%` comments), the powers funds were sent to this
    # phase (ONE_TRANSFER), and the Exchange's votes (`A:B`) and STATE word
    accept: str | None = None
    offers: tuple[str, ...] = ()
    sent: tuple[str, ...] = ()
    elect: tuple[str, ...] = ()
    state: str | None = None

    @property
    def is_power(self) -> bool:
        return self.kind is None


STANDARD_VARIANT = "standard"  # DPjudge's game class of the standard game


@dataclass(frozen=True, slots=True)
class GameStatus:
    """The game block's directives, then the power blocks in file order."""

    name: str | None = None  # GAME
    phase: Phase | GameStage = GameStage.FORMING
    phase_mode: PhaseMode = PhaseMode.PHASE
    map_name: str = "standard"  # MAP / TRIAL (a file without either plays on standard)
    trial: bool = False  # TRIAL rather than MAP: a map in development
    morphs: tuple[str, ...] = ()  # map-file lines, from MORPH lines and MORPH...END MORPH, in order
    judge: str | None = None  # JUDGE: the judge the game was moved from (a legacy line, kept)
    master: Dppd | None = None
    address: tuple[str, ...] = ()  # the Master's ADDRESS line (DPjudge writes it in every file)
    password: str | None = None
    tester: str | None = None  # TESTER address; "" for a bare TESTER (no mail at all)
    groups: tuple[str, ...] = ()  # GROUPS A|B: DPjudge's web groups, kept as written
    start: str | None = None
    finish: str | None = None
    result: GameResult | None = None
    need: tuple[Need, ...] = ()
    description: tuple[str, ...] = ()  # DESC lines
    origin: tuple[str, ...] = ()  # NAME lines: the origin of the game's name
    private: str | None = None
    rotate: tuple[RotateStep, ...] = ()  # empty: no ROTATE line
    rules: frozenset[str] = frozenset()
    rules_off: frozenset[str] = frozenset()  # `RULE !X`: turned off after every other rule
    # The rules in the sequence the file lists them (DPjudge writes them back so): how the file is
    # laid out, not what it says, so left out of comparisons.
    rule_order: tuple[str, ...] = field(default=(), compare=False)
    allow: frozenset[str] = frozenset()
    teams: tuple[Team, ...] = ()
    proposal: Proposal | None = None
    deadline: str | None = None  # yyyymmddhhmm in the game's ZONE
    zone: str | None = None
    delay: int | None = None
    timing: str | None = None  # the TIMING keys and values as written; judge.timing reads them
    signon: str | None = None  # SIGNON: a legacy line of DPjudge's, kept as written
    taxes: tuple[Tax, ...] = ()  # Payola's TAX lines, in file order
    cap: int | None = None  # Payola's CAP: the most a power's income may be in a year
    layout: Layout = Layout.JUDGE
    powers: tuple[PowerStatus, ...] = ()
    # DPjudge's game class (`standard`, `xtalball`): not in the status file but in the games index,
    # which the shell reads it from
    variant: str = field(default=STANDARD_VARIANT, compare=False)

    @property
    def game_class(self) -> str:
        """The variant as DPjudge names it beside the map (`standard payola`): the standard game's
        left unsaid."""
        return "" if self.variant == STANDARD_VARIANT else self.variant

    @property
    def forming(self) -> bool:
        return self.phase is GameStage.FORMING

    @property
    def completed(self) -> bool:
        return self.phase is GameStage.COMPLETED

    @property
    def master_mail(self) -> tuple[str, ...]:
        """Where the Master's mail goes: the game's ADDRESS line (DPjudge's), else MASTER's address."""
        if self.address:
            return self.address
        return (self.master.email,) if self.master and self.master.email else ()

    def power(self, name: str) -> PowerStatus | None:
        for block in self.powers:
            if block.name == name:
                return block
        return None

    def controls(self, controller: str, power: str) -> bool:
        """Whether `controller` may give `power`'s orders: it is first on the power's CONTROL line,
        or the power is a dummy of the controller's TEAM."""
        block = self.power(power)
        if block is None:
            return False
        if block.control and block.control[0] == controller:
            return True
        return any(team.main == controller and power in team.dummies for team in self.teams)

    def with_power(self, block: PowerStatus) -> GameStatus:
        """This status with `block` replacing the block of the same name (or added at the end)."""
        if self.power(block.name) is None:
            return replace(self, powers=self.powers + (block,))
        return replace(self, powers=tuple(block if p.name == block.name else p for p in self.powers))
