"""Who may do what: the identity word of SIGNON/RESIGN/TAKEOVER, and password levels.

No player database: the sender's address is the player's identity, as PLAYER and ADDRESS lines
record it. Passwords are compared in constant time (`hmac.compare_digest`) and, as everything in the
command language, without regard to case. Passwords the judge sets are stored hashed
(`judge.passwords`); plain ones written by hand in a status file keep working.

Levels (DPjudge's `Power.isValidPassword`): the judgekeeper's password is good for any role, the
Master's for any role in the game, a power's own for that power, and an OMNISCIENT player's for
read-only access to any power.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum

from judge.mailin.message import plain_address
from judge.maps.model import Map
from judge.passwords import verify
from judge.status.model import Dppd, GameStatus, PowerStatus

Verify = Callable[[str, "str | None"], bool]  # (given, stored) -> match: `passwords.verify`

MASTER = "MASTER"
JUDGEKEEPER = "JUDGEKEEPER"
MASTER_WORDS = {"M", "MASTER", "GM"}
KEEPER_WORDS = {"JK", "JUDGEKEEPER"}
GAME_NAME = re.compile(r"[a-z0-9_]{1,40}")


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

    One letter: a map power's initial or M; a digit: POWER#n; else a full name, case-insensitive."""
    word = who.upper()
    if word in MASTER_WORDS:
        return MASTER
    if word in KEEPER_WORDS:
        return JUDGEKEEPER
    if word.isdigit():
        word = f"POWER#{word}"
    elif len(word) == 1 and m is not None:
        info = m.power_by_abbrev(word)
        word = info.name if info is not None else word
    if status.power(word) is not None:
        return word
    if m is not None and word in m.powers and not word.startswith("_"):
        return word
    return None


def password_level(status: GameStatus, role: str, given: str, keeper_password: str,
                   check: Verify = verify) -> Level:
    """The level `given` reaches for `role` (a block name, MASTER or JUDGEKEEPER)."""
    if same_secret(given, keeper_password, check):
        return Level.JUDGEKEEPER
    if role == JUDGEKEEPER:
        return Level.NONE
    if same_secret(given, status.password, check):
        return Level.MASTER
    if role == MASTER:
        return Level.NONE
    block = status.power(role)
    if block is not None and same_secret(given, block.password, check):
        return Level.POWER
    if any(p.omniscient is not None and same_secret(given, p.password, check) for p in status.powers):
        return Level.OMNISCIENT
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
    return (status.master.email.lower(),) if status.master is not None else ()


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
