"""Who may do what: the identity word of SIGNON/RESIGN/TAKEOVER, and password levels.

No player database: the sender's address is the player's identity, as PLAYER and ADDRESS lines
record it. Passwords are compared in constant time (`hmac.compare_digest`) and, as everything in the
command language, without regard to case. Passwords the judge sets are stored hashed
(`judge.passwords`); plain ones written by hand in a status file keep working.

Levels (DPjudge's `Power.isValidPassword`): the judgekeeper's password is good for any role, the
Master's for any role in the game, a power's own for that power, and an OMNISCIENT player's for
read-only access to any power. So a password given for one role is tested against several secrets
(`check_for`), each counted by `judge.commands.throttle`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import IntEnum

from judge.commands.throttle import Scope, Secret
from judge.mailin.message import plain_address
from judge.maps.model import Map
from judge.passwords import verify
from judge.status.model import Dppd, GameStatus, PowerStatus
from judge.types import GAME_NAME, JUDGEKEEPER, KEEPER_WORDS, MASTER, MASTER_WORDS

Verify = Callable[[str, "str | None"], bool]  # (given, stored) -> match: `passwords.verify`

PRIVACY = "PRIVATE-PASSWORD"  # the privacy password's count: no player's name has a dash


class Level(IntEnum):
    NONE = 0
    OMNISCIENT = 2  # read-only
    POWER = 3
    MASTER = 4
    JUDGEKEEPER = 5


def same_secret(given: str, expected: str | None, check: Verify = verify) -> bool:
    """Constant-time, case-insensitive comparison with a stored password, hashed or plain; an empty
    or missing password never matches."""
    if not expected or not given:
        return False
    return check(given, expected)


def clean_password(word: str) -> str:
    """A password as given: a SIGNOFF glued to its end is not part of it (DPjudge's `sanitize`)."""
    if len(word) > 7 and word.upper().endswith("SIGNOFF"):
        return word[:-7]
    return word


@dataclass(frozen=True)
class Target:
    """The second word of SIGNON, RESIGN, TAKEOVER: who (None: not given) at which game.

    `Fgame`: initial `F`; `3game`: POWER#3; `france@game`, `loudmouth@game`, `JK@game`."""

    who: str | None
    game: str
    initial: bool  # the one-character form `Fgame`


def parse_target(word: str) -> Target:
    """`france@game` / `Fgame` / `Mgame` / `3game` / `JK@game` -> Target; ValueError if neither."""
    if "@" in word:
        who, _, game = word.partition("@")
        if not who or not game:
            raise ValueError(f"{word!r}: write the power, an at-sign and the game, as france@game")
        return Target(who.upper(), game.lower(), False)
    if len(word) < 2:
        raise ValueError(f"{word!r}: write the power's initial and the game, as Fgame")
    return Target(word[0].upper(), word[1:].lower(), True)


def check_game_word(name: str) -> str:
    if not GAME_NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a game name (letters, digits and _ only)")
    return name


def role_name(status: GameStatus, m: Map | None, who: str) -> str | None:
    """The block name (or MASTER / JUDGEKEEPER) a SIGNON word names, if any.

    One letter: a map power's letter or M; other digits: POWER#n; else a full name, case-insensitive."""
    word = who.upper()
    if word in MASTER_WORDS:
        return MASTER
    if word in KEEPER_WORDS:
        return JUDGEKEEPER
    info = m.power_by_abbrev(word) if len(word) == 1 and m is not None else None
    if info is not None:  # a map's letter may be a digit (chaos's Tunis is 6)
        word = info.name
    elif word.isdigit():
        word = f"POWER#{word}"
    if status.power(word) is not None:
        return word
    if m is not None and word in m.powers and not word.startswith("_"):
        return word
    return None


@dataclass(frozen=True)
class Password:
    """A secret a check tests: its count (`judge.commands.throttle`), as stored, and the level
    it grants."""

    secret: Secret
    stored: str | None
    level: Level


@dataclass(frozen=True)
class Check:
    """What a password given for a role is tested against (`passwords`), and the counts whose
    pause refuses the check (`own`: the role's, and its password's when that is shared)."""

    own: tuple[Secret, ...]
    passwords: tuple[Password, ...]

    @property
    def shared(self) -> tuple[Secret, ...]:
        return tuple(p.secret for p in self.passwords if p.secret not in self.own)


def check_for(status: GameStatus, role: str, keeper_password: str) -> Check:
    """The check of a password given for `role` (a block name, MASTER or JUDGEKEEPER): its own
    password, and those good for any role that are set."""
    keeper = Password(Secret(JUDGEKEEPER, Scope.JUDGE), keeper_password, Level.JUDGEKEEPER)
    if role == JUDGEKEEPER:
        return _check(role, keeper)
    master = Password(Secret(MASTER, Scope.GAME), status.password, Level.MASTER)
    if role == MASTER:
        return _check(role, master, keeper)
    block = status.power(role)
    own = block_password(block, Level.POWER) if block is not None else None
    seers = (block_password(p, Level.OMNISCIENT) for p in status.powers
             if p.omniscient is not None and p.name != role)
    return _check(role, own, master, keeper, *seers)


def _check(role: str, own: Password | None, *others: Password) -> Check:
    counts = (Secret(role),) + ((own.secret,) if own and own.secret != Secret(role) else ())
    return Check(counts, tuple(p for p in (own, *others) if p is not None and p.stored))


def block_password(block: PowerStatus, level: Level) -> Password:
    """A block's password: an omniscient player's is good for every role of its game."""
    scope = Scope.GAME if block.omniscient is not None else Scope.ROLE
    return Password(Secret(block.name, scope), block.password, level)


def own_check(block: PowerStatus) -> Check:
    """A block's password alone (an observer changing role proves it is his)."""
    return _check(block.name, block_password(block, Level.POWER))


def privacy_check(status: GameStatus) -> Check:
    """A private game's privacy password, counted as a role of the game (PRIVACY)."""
    return _check(PRIVACY, Password(Secret(PRIVACY), status.private, Level.POWER))


def password_level(passwords: Iterable[Password], given: str, check: Verify = verify) -> Level:
    """The highest level `given` reaches among `passwords` (NONE: it is none of them)."""
    for password in sorted(passwords, key=lambda p: p.level, reverse=True):
        if same_secret(given, password.stored, check):
            return password.level
    return Level.NONE


def seat_email(block: PowerStatus) -> str:
    seat = block.player.current if block.player is not None else None
    return seat.email.lower() if isinstance(seat, Dppd) else ""


def addresses_of(block: PowerStatus, limit: int) -> tuple[str, ...]:
    """Where mail for this player goes: the first `limit` addresses of its ADDRESS line (SET
    ADDRESS takes no more; a hand-edited line may list more, never mailed), else its PLAYER
    address."""
    if block.address:
        return tuple(dict.fromkeys(a.lower() for a in block.address))[:limit]
    email = seat_email(block)
    return (email,) if email else ()


def overlong_addresses(status: GameStatus, limit: int) -> tuple[str, ...]:
    """The blocks whose ADDRESS line lists more than `limit` addresses (only the first are
    mailed)."""
    return tuple(b.name for b in status.powers
                 if len({a.lower() for a in b.address}) > limit)


def master_addresses(status: GameStatus) -> tuple[str, ...]:
    return tuple(address.lower() for address in status.master_mail)


def registered_addresses(status: GameStatus, role: str, limit: int) -> tuple[str, ...]:
    """Where the player of `role` (a block's name or MASTER) reads his mail, as the status file
    records it (at most `limit` addresses, see addresses_of)."""
    if role == MASTER:
        return master_addresses(status)
    block = status.power(role)
    return addresses_of(block, limit) if block is not None else ()


def block_of_sender(status: GameStatus, sender: str) -> PowerStatus | None:
    """The block (power or observer) whose player writes from `sender`, if any."""
    sender = sender.lower()
    for block in status.powers:
        if sender == seat_email(block) or sender in (a.lower() for a in block.address):
            return block
    return None


def valid_addresses(words: list[str], limit: int) -> tuple[str, ...]:
    """`a@b.org,c@d.net` -> the addresses (each once); ValueError naming the first bad one, or
    the limit when there are more than `limit`."""
    found = tuple(dict.fromkeys(a.lower() for w in words for a in w.split(",") if a))
    for address in found:
        if not plain_address(address):
            raise ValueError(f"{address!r} is not an e-mail address" + (
                "" if address.isascii() else " the judge can write to: only plain ASCII addresses"))
    if len(found) > limit:
        raise ValueError(f"a player's mail goes to at most {limit} addresses on this judge; "
                         f"you gave {len(found)}")
    return found


def valid_password(word: str) -> str:
    if not word or "<" in word or ">" in word or "|" in word:
        raise ValueError("a password is one word without <, > or |")
    return word
