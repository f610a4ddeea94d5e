"""Events a use case causes for people other than the one who asked, beside those of the game's
life (`judge.events`): press and broadcasts, absences, zone and state changes, a new Master, a
renamed or purged game, paused password checks. Plain frozen values, no prose: below the use cases,
so that they can return them; the mail layer renders them. Each says who is told.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from judge.game.press_routing import PressRouting
from judge.types import Phase


@dataclass(frozen=True)
class Press:
    """A press message or broadcast, allowed by the game's press rules. `sender` really sent it
    (a power, an observer or MASTER); `routing` says who reads it and what they are told of its
    sender and recipients (`judge.game.press_routing`); `official` is the Master's OFFICIAL
    subject (no press header then). The sender's copy is in the reply to the mail."""

    game: str
    phase: Phase | str
    sender: str
    routing: PressRouting
    body: tuple[str, ...]
    official: str | None = None


@dataclass(frozen=True)
class AbsenceSet:
    """SET ABSENCE: no deadline will fall in [first, last] (whole days when not `timed`). Tell
    everyone, unless SILENT_ABSENCES (the Master only); `by` is None under HIDE_ABSENTEES, except
    in the Master's copy (`by_for_master`)."""

    game: str
    first: datetime | None
    last: datetime
    timed: bool
    by: str | None
    by_for_master: str
    master_only: bool


@dataclass(frozen=True)
class ZoneChanged:
    """The Master set the game's ZONE. Tell everyone."""

    game: str
    zone: str | None


@dataclass(frozen=True)
class VictoryChanged:
    """A MORPH changed the supply centers needed to win in `year`. Tell everyone in the game."""

    game: str
    year: int
    before: int
    after: int


@dataclass(frozen=True)
class StateChanged:
    """The Master changed the game's state (forming, active, waiting, terminated), or its listing.
    Tell everyone in the game."""

    game: str
    state: str


@dataclass(frozen=True)
class MasterChanged:
    """TAKEOVER master@game: a new Master. Tell the old Master (at `old_addresses`) and the new."""

    game: str
    old_addresses: tuple[str, ...]
    new_address: str


@dataclass(frozen=True)
class GameRenamed:
    """RENAME: tell everyone in the game its new name."""

    game: str
    old_name: str
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class GameCreated:
    """CREATE: tell the judgekeeper (trial maps especially) and the map's NOTIFY addresses."""

    game: str
    master: str
    map_name: str
    trial: bool
    notify: tuple[str, ...]


@dataclass(frozen=True)
class PasswordSet:
    """REVIVE gave a player a new password: tell the player (the welcome back mail)."""

    game: str
    power: str
    addresses: tuple[str, ...]
    password: str


@dataclass(frozen=True)
class PasswordsPaused:
    """Wrong passwords paused the checks of a secret (`judge.commands.throttle`): tell its owner's
    registered `addresses` (never the sender of the mail, unless it is one of them) how many
    `attempts` from how many `senders` since `since`, until when, and the `code` that lets their
    own mail through meanwhile. Never the passwords tried, nor who tried them. `kind`: "role"
    (the password of `role`), "game" (the password of `role`, tested for every role of the game:
    the Master's, an omniscient player's), "judge" (the judgekeeper's, tested in every game; the
    last failure was in `game`) or "privacy" (the game's privacy password; its Master is told)."""

    game: str
    role: str
    addresses: tuple[str, ...]
    attempts: int
    senders: int
    since: datetime
    until: datetime
    code: str
    kind: str = "role"


@dataclass(frozen=True)
class Confirmed:
    """One power's orders in an order confirmation (`lines`, as the status file keeps them; in a
    Crystal Ball movement phase the SOONER list, and `later` the LATER list)."""

    power: str
    lines: tuple[str, ...]
    later: tuple[str, ...] = ()


@dataclass(frozen=True)
class OrdersStored:
    """A mail stored orders: the order confirmation, "Diplomacy orders GAME S1901M", of the seat
    signed on (`power`, MASTER for the Master) with its own orders (`lines`, `later`) and then
    those of every power it controls (`controlled`), as DPjudge lists them. It goes to the
    `sender` and the seat's ADDRESS, the Master too under ALWAYS_CONFIRM, everyone under
    BROADCAST_ORDERS. `lists` says how DPjudge shows a Crystal Ball movement phase's lists: `first`
    (the game's first movement phase: SOONER alone), `ahead` (both, headed)."""

    game: str
    power: str
    phase: Phase
    lines: tuple[str, ...]
    sender: str
    lists: str = ""
    later: tuple[str, ...] = ()
    controlled: tuple[Confirmed, ...] = ()

    @property
    def sections(self) -> tuple[Confirmed, ...]:
        return (Confirmed(self.power, self.lines, self.later), *self.controlled)


@dataclass(frozen=True)
class ListsLocked:
    """The last first list of a Crystal Ball game came in: every power with units has its list for
    the first movement phase, and the lists sent from now on are for the one after it. Everyone
    is told, with the deadline (set afresh, never earlier than the one on file), as DPjudge's
    Master broadcast does."""

    game: str
    deadline: datetime | None


# Every notice the mail commands cause, as the mail layer's handlers take them.
Notice = (Press | AbsenceSet | ZoneChanged | VictoryChanged | StateChanged | MasterChanged | GameRenamed
          | GameCreated | PasswordSet | PasswordsPaused | OrdersStored | ListsLocked)
