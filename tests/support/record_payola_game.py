"""Record a Payola game played by DPjudge by mail, as the fixture of `tests/status/test_payola_files.py`.

    python -m tests.support.record_payola_game [--seed N] [--years N] [--rule RULE ...] [--out FILE]
    python -m tests.support.record_payola_game --start [--out FILE]
    python -m tests.support.record_payola_game --missing-sheet [--seed N] [--out FILE]

The game starts from the standard opening in a scratch DPjudge host (`../shared/tools/dpjudge`,
or $DPJUDGE) as a `payola` game, each power with its first year's income on its FUNDS line and a
full acceptance list (every power's letter, in an order drawn for it: DPjudge shuffles the powers
a list leaves to `?`, and a recording must not depend on that). In every movement phase each power
mails an offer sheet: a bribe to each of its own units for the order drawn for it (now and then
with an alternative order after `|`), now and then a bribe to another power's unit, a savings
request (`N $`) or a comment; the amounts drawn so that some sheets overspend their treasury. In
retreats and adjustments each power mails its orders as in the standard game; the Master's PROCESS
ends every phase (PROCESS! when one is still waiting). Every mail in with what DPjudge answered,
the mails it sent itself (the ledgers, the income reports) handed back to it as its own host
would, DPjudge's results mails and the status files it saved before the Master's PROCESS and after it are written to
`tests/status/fixtures/payola_by_mail.json`. Needs Python 2.7 for DPjudge; the tests do not."""
from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections.abc import Callable
from pathlib import Path

from judge.maps import MapCache
from judge.maps.model import Map
from judge.status import parse_status
from judge.types import MOVEMENT, Phase
from tests.support.random_orders import phase_orders
from tests.support.record_dpjudge_games import (
    MASTER,
    MASTER_PASSWORD,
    Host,
    dpjudge_name,
    mail,
    opening,
    player,
    results,
)
from tests.support.record_xtalball_game import broadcasts, to_itself

FIXTURE = Path(__file__).parent.parent / "status" / "fixtures" / "payola_by_mail.json"
GAME = "dpjstandard"  # the name `opening` gives the standard map's game
FOREIGN = 0.3  # how often a sheet bribes a unit of another power
ALTERNATIVE = 0.2  # how often a bribe names a second order after `|`
SAVINGS = 0.2  # how often a sheet asks for savings
COMMENT = 0.1  # how often a sheet carries a `%` comment
WILDCARD = 0.6  # in a rich game: how often a foreign bribe is a wildcard (`!`, `@`, `>`, `&`)


def first_income(m: Map, centers: int) -> int:
    """A power's first year's income as DPjudge's Payola reckons it on a map of no TAX: the n-th
    of its centres yields the victory count less n (the standard map: 18 - 3 + 0 + 1 + 2 = 48)."""
    return sum(m.victory[0] - centers + n for n in range(centers))


def payola_opening(m: Map, rng: random.Random, rules: tuple[str, ...]) -> str:
    """The standard opening with a FUNDS line and a full ACCEPT line in each power's block."""
    text = opening(m).replace("\n\n", "".join(f"\nRULE {r}" for r in rules) + "\n\n", 1)
    letters = [info.abbrev for info in m.powers.values() if not info.name.startswith("_")]
    for info in m.powers.values():
        if info.name.startswith("_"):
            continue
        accept = [info.abbrev] + rng.sample([x for x in letters if x != info.abbrev], len(letters) - 1)
        owns = "OWNS " + " ".join(sorted(info.centers))
        text = text.replace(owns, f"{owns}\nFUNDS ${first_income(m, len(info.centers))}\n"
                                  f"ACCEPT {''.join(accept)}", 1)
    return text


def offer_sheets(m: Map, status_text: str, rng: random.Random, rich: bool = False,
                 zero_foreign: bool = False, direct: bool = False) -> dict[str, list[str]]:
    """Each power's offer sheet for a movement phase; `rich`: larger bribes, so that treasuries are
    overspent and totals tie, with wildcards, repetitions (`2*3`) and plateaus (`9#5`);
    `zero_foreign` (ZERO_FOREIGN): bribes of 0 to other powers' units too; `direct` (DIRECT_ONLY):
    one direct bribe a unit, no alternatives and no savings."""
    status = parse_status(status_text)
    drawn, other = phase_orders(m, status, rng), phase_orders(m, status, rng)
    foreign = [line for lines in drawn.values() for line in lines]
    sheets = {}
    for power, lines in drawn.items():
        sheet = []
        for n, line in enumerate(lines):
            alternative = other[power][n].split(maxsplit=2)[2]
            if not direct and rng.random() < ALTERNATIVE and alternative != line.split(maxsplit=2)[2]:
                line = f"{line} | {alternative}"
            sheet.append(f"{_amount(rng, rich, 0)} : {line}")
        for _ in range(5 if rich else 1):
            if foreign and rng.random() < FOREIGN:
                target = rng.choice(foreign)
                bribed = {x.split(":")[-1].split()[1] for x in sheet}
                if target not in lines and not (direct and target.split()[1] in bribed):
                    code = rng.choice("!@>&") if rich and rng.random() < WILDCARD else ":"
                    sheet.append(f"{_amount(rng, rich, 0 if zero_foreign else 1)} {code} {target}")
        if not direct and rng.random() < SAVINGS:
            sheet.append(f"{rng.randint(1, 10)} $")
        if rng.random() < COMMENT:
            sheet.append("% my plans for this spring")
        sheets[power] = sheet
    return sheets


def play_phase(host: Host, phase: Phase, given: dict[str, list[str]],
               addresses: dict[str, tuple[str, str]]) -> tuple[list[dict], list[str], str]:
    """Each power's mail, then the Master's PROCESS: the mails in with DPjudge's answers, every
    mail DPjudge sent, and the status file as it stood before the PROCESS."""
    mails: list[dict] = []
    sent: list[str] = []

    def send(sender: str, body: str) -> None:
        out = host.send(mail(sender, body))
        relayed = [x for raw in out if to_itself(raw) for x in host.send(raw)]
        mails.append({"from": sender, "body": body, "replies": broadcasts(out),
                      "relayed": broadcasts(relayed)})
        sent.extend(out + relayed)

    for power, lines in given.items():
        address, password = addresses[power]
        send(address, f"SIGNON {power}@{GAME} {password}\n" + "".join(f"{x}\n" for x in lines)
             + "SIGNOFF\n")
    ready = host.status()  # the sheets and orders in, as DPjudge keeps them
    send(MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS\nSIGNOFF\n")
    if parse_status(host.status()).phase == phase:
        send(MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS!\nSIGNOFF\n")
    return mails, sent, ready


def _amount(rng: random.Random, rich: bool, least: int) -> str:
    if not rich:
        return str(rng.randint(least, 12 if least else 9))
    amount = rng.choice([rng.randint(max(least, 1), 6) * 5, rng.randint(least, 30)])
    if amount > 4 and rng.random() < 0.15:
        return f"{amount}#{amount // 2}"
    if 0 < amount < 8 and rng.random() < 0.1:
        return f"2*{amount}"
    return str(amount)


def record(seed: int, years: int, rules: tuple[str, ...] = (), rich: bool = False) -> dict:
    m = MapCache().get("standard")
    rng = random.Random(f"payola|{seed}")
    start = payola_opening(m, rng, rules)
    powers = [p for p in m.powers.values() if not p.name.startswith("_")]
    addresses = {dpjudge_name(info.name): player(n) for n, info in enumerate(powers)}
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, start, variant="payola")
        direct = bool({"DIRECT_ONLY", "LIMIT_OFFERS", "PAYOLA_CLASSIC"} & set(rules))
        phases = played_phases(host, m, start, addresses, lambda text: offer_sheets(
            m, text, rng, rich, "ZERO_FOREIGN" in rules or "PAYOLA_CLASSIC" in rules, direct),
            rng, lambda phase, _: phase.year >= 1901 + years)
    return {"seed": seed, "rich": rich, "rules": list(rules), "game": GAME, "start": start,
            "phases": phases}


def played_phases(host: Host, m: Map, text: str, addresses: dict[str, tuple[str, str]],
                  sheets: Callable[[str], dict[str, list[str]]], rng: random.Random,
                  done: Callable[[Phase, int], bool]) -> list[dict]:
    """The phases DPjudge played from the status `text` until `done(phase, phases played)`: in a
    movement phase the `sheets` made for the status, in the others orders drawn with `rng`."""
    phases: list[dict] = []
    while True:
        phase = parse_status(text).phase
        if not isinstance(phase, Phase) or done(phase, len(phases)):
            return phases
        given = sheets(text) if phase.type == MOVEMENT else phase_orders(m, parse_status(text), rng)
        mails, sent, ready = play_phase(host, phase, given, addresses)
        after = host.status()
        if parse_status(after).phase == phase:
            raise SystemExit(f"DPjudge did not process {phase}:\n" + "\n".join(sent))
        phases.append({"phase": phase.abbrev, "mails": mails, "ready": ready,
                       "results": results(sent), "status": after})
        text = after


START_FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "payola_start.json"
MISSING_FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "payola_missing_sheet.json"


def record_missing_sheet(seed: int) -> dict:
    """Spring 1901 of the plain game with one power sending no sheet: the Master's PROCESS (which
    DPjudge refuses while a sheet is missing), then PROCESS!; recorded as a one-phase game."""
    m = MapCache().get("standard")
    rng = random.Random(f"payola|{seed}")
    start = payola_opening(m, rng, ())
    powers = [p for p in m.powers.values() if not p.name.startswith("_")]
    addresses = {dpjudge_name(info.name): player(n) for n, info in enumerate(powers)}
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, start, variant="payola")
        phase = parse_status(start).phase
        assert isinstance(phase, Phase)
        given = offer_sheets(m, start, rng)
        given.pop(sorted(given)[-1])
        mails, sent, ready = play_phase(host, phase, given, addresses)
        return {"seed": seed, "rich": False, "rules": [], "game": GAME, "start": start,
                "phases": [{"phase": phase.abbrev, "mails": mails, "ready": ready,
                            "results": results(sent), "status": host.status()}]}


def record_start() -> dict:
    """A forming `payola` game joined by seven players by mail: the status file before the JOINs
    and the one DPjudge saved when the last JOIN started the game (each power's purse and
    acceptance list as DPjudge's start gives them). The Master has a DPPD id, so that DPjudge does
    not take the players (whose ids are empty) for the Master."""
    forming = (f"GAME {GAME}\nPHASE FORMING\nMAP standard\nMASTER 77|{MASTER}|Master\n"
               f"ADDRESS {MASTER}\nPASSWORD {MASTER_PASSWORD}\n")
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, forming, variant="payola")
        (Path(scratch) / "games" / "status").write_text(f"{GAME} payola forming\n")
        for n in range(7):
            address, password = player(n)
            host.send(mail(address, f"JOIN {GAME} {password}\nSIGNOFF\n"))
        return {"game": GAME, "forming": forming, "started": host.status()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--rule", action="append", default=[], help="a RULE of the game (repeatable)")
    parser.add_argument("--rich", action="store_true",
                        help="larger bribes: overspent treasuries, ties, wildcards and plateaus")
    parser.add_argument("--start", action="store_true",
                        help="record the start of a forming game instead (to payola_start.json)")
    parser.add_argument("--missing-sheet", action="store_true",
                        help="record Spring 1901 with one power's sheet missing (to payola_missing_sheet.json)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.start or args.missing_sheet:
        out = args.out or (START_FIXTURE if args.start else MISSING_FIXTURE)
        game = record_start() if args.start else record_missing_sheet(args.seed)
        out.write_text(json.dumps(game, indent=1, ensure_ascii=False) + "\n")
        return
    args.out = args.out or FIXTURE
    game = record(args.seed, args.years, tuple(args.rule), args.rich)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(game, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(game['phases'])} phases, {sum(len(p['results']) for p in game['phases'])} results mails")


if __name__ == "__main__":
    main()
