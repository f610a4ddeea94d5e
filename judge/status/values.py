"""Reading the values of status-file lines: units, DPPD data, votes, funds, rotations...

Pure functions from the words after a directive to a typed value; each raises ValueError with a
message a game master can act on.
"""
from __future__ import annotations

import re
from datetime import datetime

from judge.maps.tokens import ABBREV
from judge.status.model import (
    Dppd,
    Fund,
    GameResult,
    GameStage,
    Handover,
    Need,
    PlayerHistory,
    Proposal,
    RotateStep,
    RotateWhen,
    Seat,
    Tax,
    Team,
    Vacancy,
    Vote,
    VoteKind,
)
from judge.types import Phase, Unit, UnitType

PHASE_ABBREV = re.compile(r"[A-Z]-?[0-9]+[A-Z]")
BUILD_ANYWHERE = ("SC!", "SC?", "SC*")  # OWNS words for builds in any home / partisan site


def text(words: list[str]) -> str:
    """Free text (DESC, MSG, START...): the words with single spaces."""
    return " ".join(words)


def count(words: list[str], least: int, most: int | None, what: str) -> list[str]:
    """`words` if there are `least` to `most` of them (None: no limit); else says what it takes."""
    if len(words) < least or (most is not None and len(words) > most):
        raise ValueError(f"takes {what}")
    return words


def nothing(words: list[str]) -> bool:
    count(words, 0, 0, "nothing after it")
    return True


def one_word(words: list[str], what: str) -> str:
    return count(words, 1, 1, what)[0]


PICTURE_FORMATS = ("PNG", "PDF", "SVG", "NONE")  # how a player takes the board's picture in mails


def picture_format(words: list[str]) -> str:
    word = one_word(words, "one word: " + ", ".join(PICTURE_FORMATS)).upper()
    if word not in PICTURE_FORMATS:
        raise ValueError(f"a picture is one of {', '.join(PICTURE_FORMATS)}, not {word}")
    return word


def password(words: list[str]) -> str:
    word = one_word(words, "one word, the password")
    if "<" in word or ">" in word:
        raise ValueError("a password may not hold < or >")
    return word


def phase_line(words: list[str]) -> Phase | GameStage:
    """FORMING, COMPLETED, or `SEASON YEAR TYPE` (the year a number)."""
    upper = [w.upper() for w in words]
    if len(upper) == 1 and upper[0] in GameStage.__members__:
        return GameStage(upper[0])
    if len(upper) == 3 and re.fullmatch(r"-?[0-9]+", upper[1]):
        return Phase(upper[0], int(upper[1]), upper[2])
    raise ValueError(f"the phase must be FORMING, COMPLETED or three words such as "
                     f"SPRING 1901 MOVEMENT, not {' '.join(words)!r}")


def phase_abbrev(word: str) -> str:
    if not PHASE_ABBREV.fullmatch(word.upper()):
        raise ValueError(f"{word!r} is not a phase abbreviation such as S1901M")
    return word.upper()


def deadline(words: list[str]) -> str:
    word = one_word(words, "one word, yyyymmddhhmm")
    try:
        if not re.fullmatch(r"[0-9]{12}", word):
            raise ValueError
        datetime.strptime(word, "%Y%m%d%H%M")
    except ValueError:
        raise ValueError(f"{word!r} is not a date and time written yyyymmddhhmm") from None
    return word


def delay(words: list[str]) -> int:
    word = one_word(words, "one number, the count of deadline checks to wait")
    if not word.isdigit() or not 1 <= int(word) <= 72:
        raise ValueError(f"the delay count must be a whole number from 1 to 72, not {word!r}")
    return int(word)


def location(word: str) -> str:
    if not ABBREV.fullmatch(word):
        raise ValueError(f"{word!r} is not a place abbreviation such as PAR or SPA/NC")
    return word.upper()


def center(word: str, specials: bool = False) -> str:
    if specials and word.upper() in BUILD_ANYWHERE:
        return word.upper()
    if "/" in word:
        raise ValueError(f"centre {word!r} names a coast: centres are whole provinces")
    return location(word)


def unit(words: list[str]) -> Unit:
    """`A PAR`, `F SPA/NC` (any case)."""
    if len(words) != 2 or words[0].upper() not in ("A", "F"):
        raise ValueError(f"{' '.join(words)!r} is not a unit such as A PAR or F SPA/NC")
    return Unit(UnitType(words[0].upper()), location(words[1]))


def power_name(word: str) -> str:
    if "|" in word or not word.strip():
        raise ValueError(f"{word!r} is not a power name")
    return word.upper()


def dppd(word: str) -> Dppd:
    parts = word.split("|")
    if len(parts) != 3 or "@" not in parts[1].strip("@"):
        raise ValueError(f"{word!r} is not DPPD data such as #42|joe@blow.com|Joe_Blow")
    return Dppd(*parts)


def seat(word: str) -> Seat:
    if word.upper() in Vacancy.__members__:
        return Vacancy(word.upper())
    return dppd(word)


def player(words: list[str]) -> PlayerHistory:
    """`PLAYER current [phase previous]...`; a trailing phase may have no previous player."""
    count(words, 1, None, "the player's DPPD data (or RESIGNED or DUMMY), then its history")
    handovers = []
    for index in range(1, len(words), 2):
        previous = seat(words[index + 1]) if index + 1 < len(words) else None
        handovers.append(Handover(phase_abbrev(words[index]), previous))
    return PlayerHistory(seat(words[0]), tuple(handovers))


def addresses(words: list[str]) -> tuple[str, ...]:
    found = [a for w in words for a in w.split(",") if a]
    if not found:
        raise ValueError("takes the player's e-mail address(es), separated by commas")
    for address in found:
        local, at, domain = address.partition("@")
        if not (local and at and domain) or "@" in domain:
            raise ValueError(f"{address!r} is not an e-mail address")
    return tuple(found)


def vote(words: list[str]) -> Vote:
    word = one_word(words, "one of YES, LOSS, SOLO or nWAY").upper()
    if word in ("YES", "LOSS", "SOLO"):
        return Vote(VoteKind(word))
    match = re.fullmatch(r"([0-9]+)WAY", word)
    if not match or int(match.group(1)) < 1:
        raise ValueError(f"a vote is YES, LOSS, SOLO or nWAY (a draw of at most n), not {word!r}")
    return Vote(VoteKind.DRAW, int(match.group(1)))


def fund(word: str) -> Fund:
    match = re.fullmatch(r"\$([0-9]+)|([0-9]+)([^0-9]+)", word)
    if not match:
        raise ValueError(f"{word!r} is not a fund such as $34 or 12E")
    if match.group(1) is not None:
        return Fund(int(match.group(1)), "$")
    return Fund(int(match.group(2)), match.group(3))


def funds(words: list[str]) -> tuple[Fund, ...]:
    found = tuple(fund(w) for w in words)
    currencies = [f.currency for f in found]
    for currency in currencies:
        if currencies.count(currency) > 1:
            raise ValueError(f"currency {currency!r} is given twice")
    return found


def need(word: str) -> Need:
    match = re.fullmatch(r"(.+)-\(([0-9]+|\?)/([0-9]+|\?)\)", word)
    if not match:
        raise ValueError(f"{word!r} is not an abandoned power such as GERMANY-(8/9)")
    units, centers = (None if g == "?" else int(g) for g in match.group(2, 3))
    return Need(power_name(match.group(1)), units, centers)


def teams(words: list[str]) -> tuple[Team, ...]:
    count(words, 1, None, "teams such as ENGLAND-FRANCE, separated by spaces")
    found = []
    for word in words:
        members = word.split("-")
        if len(members) < 2 or not all(members):
            raise ValueError(f"{word!r} is not a team: powers joined by hyphens, such as ENGLAND-FRANCE")
        found.append(Team(tuple(power_name(m) for m in members)))
    return tuple(found)


def result(words: list[str]) -> GameResult:
    count(words, 1, None, "the last phase played, then the powers placed")
    return GameResult(phase_abbrev(words[0]), tuple(power_name(w) for w in words[1:]))


def proposal(words: list[str]) -> Proposal:
    words = count(words, 2, 2, "the proposed result and the proposing power")
    return Proposal(words[0].upper(), power_name(words[1]))


def rotate(words: list[str]) -> tuple[RotateStep, ...]:
    """`[CONTROL]`, `AFTER [type]...`, `BEFORE type...`, `FOR type...`, clauses in any sequence."""
    upper = [w.upper() for w in words] or ["CONTROL"]
    if upper[0] not in RotateWhen.__members__:
        raise ValueError(f"ROTATE starts with CONTROL, AFTER, BEFORE or FOR, not {words[0]!r}")
    clauses: list[tuple[RotateWhen, list[str]]] = []
    for word in upper:
        if word in RotateWhen.__members__:
            clauses.append((RotateWhen(word), []))
        else:
            clauses[-1][1].append(word)
    steps = []
    for when, types in clauses:
        if not types and when in (RotateWhen.BEFORE, RotateWhen.FOR):
            raise ValueError(f"ROTATE {when.value} needs a phase type, such as MOVE or M")
        if types and when is RotateWhen.CONTROL:
            raise ValueError("ROTATE CONTROL takes no phase type")
        steps += [RotateStep(when, t) for t in types] or [RotateStep(when)]
    return tuple(steps)


def rules(words: list[str]) -> list[tuple[str, bool]]:
    """Rule names, upper case, each with whether it is on (`!NAME`: off). A name may end in `!` or
    `+` (DPjudge's `EAVESDROP!`): a rule of its own, kept as written."""
    count(words, 1, None, "one or more rule names")
    found = []
    for word in words:
        off = word.startswith("!")
        name = word.upper()[off:]
        if not re.fullmatch(r"[A-Z0-9_]+[!+]?", name):
            raise ValueError(f"{word!r} is not a rule name")
        found.append((name, not off))
    return found


def groups(words: list[str]) -> tuple[str, ...]:
    """GROUPS `A|B`: DPjudge's web groups, upper case."""
    word = one_word(words, "one word, the groups separated by |").upper()
    return tuple(word.split("|"))


def hides(words: list[str]) -> tuple[Unit, ...]:
    """HIDES `A PAR, F BRE`: comma-separated units, as DPjudge writes them."""
    found = [item.split() for item in " ".join(words).split(",")]
    if not all(found):
        raise ValueError("takes units separated by commas, such as A PAR, F BRE")
    return tuple(unit(item) for item in found)


def tax(words: list[str]) -> Tax:
    """Payola's `TAX 2` (every centre) or `TAX PAR 3` (one centre): a yearly yield of 0 or more."""
    count(words, 1, 2, "a yield (TAX 2) or a centre and its yield (TAX PAR 3)")
    if not words[-1].isdigit():
        raise ValueError(f"a centre's yearly yield is a whole number of 0 or more, not {words[-1]!r}")
    return Tax(int(words[-1]), center(words[0]) if len(words) == 2 else None)


def cap(words: list[str]) -> int:
    word = one_word(words, "one number, the most income a power takes in a year")
    if not word.isdigit() or int(word) < 1:
        raise ValueError(f"the income cap is a whole number of 1 or more, not {word!r}")
    return int(word)


def acceptance(words: list[str]) -> str:
    """A Payola acceptance list, `FG?`: power letters (and `?` for the others), each once."""
    word = one_word(words, "one word: power letters in order of preference, such as FG?").upper()
    repeated = sorted({c for c in word if word.count(c) > 1})
    if repeated:
        raise ValueError(f"{repeated[0]!r} appears more than once in the acceptance list {word}")
    return word


def election(words: list[str]) -> tuple[str, ...]:
    """The Exchange's votes, `A:B E:F`: for each company, the power voted its chief."""
    for word in count(words, 1, None, "votes such as A:B (company, then candidate)"):
        if len(word.split(":")) != 2 or not all(word.split(":")):
            raise ValueError(f"{word!r} is not a vote such as A:B (company, then candidate)")
    return tuple(w.upper() for w in words)
