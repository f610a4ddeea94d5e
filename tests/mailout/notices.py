"""Stand-ins with the shape of judge.commands.notices (the command layer's events), for the mail
tests until that module is part of the tree: the Mailer dispatches them by class name."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Press:
    game: str
    phase: str
    sender: str
    shown_from: str | None
    broadcast: bool
    to: tuple[str, ...]
    fake_to: tuple[str, ...] | None
    fake_broadcast: bool
    body: tuple[str, ...]
    official: str | None = None


@dataclass(frozen=True)
class AbsenceSet:
    game: str
    first: datetime | None
    last: datetime
    timed: bool
    by: str | None
    by_for_master: str
    master_only: bool


@dataclass(frozen=True)
class ZoneChanged:
    game: str
    zone: str | None


@dataclass(frozen=True)
class StateChanged:
    game: str
    state: str


@dataclass(frozen=True)
class MasterChanged:
    game: str
    old_addresses: tuple[str, ...]
    new_address: str


@dataclass(frozen=True)
class GameRenamed:
    game: str
    old_name: str
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class GameCreated:
    game: str
    master: str
    map_name: str
    trial: bool
    notify: tuple[str, ...]


@dataclass(frozen=True)
class PasswordSet:
    game: str
    power: str
    addresses: tuple[str, ...]
    password: str
