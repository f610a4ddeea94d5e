"""Record DPjudge's order confirmations of a seat that controls other powers, as the fixture of
`tests/commands/test_confirmations.py` (`tests/commands/fixtures/dpjudge_confirmations.json`).

    python -m tests.support.record_confirmations [--out FILE]

Two games on the standard map's opening, each mail sent to DPjudge in turn, with the
confirmations it answered it with (readers, subject, body):
- `control`: Italy a DUMMY whose last player's address is still on its PLAYER line, under
  France's CONTROL; England a player's power under Germany's CONTROL (a proxy, England keeping its
  ADDRESS). France, Germany and the Master (signed on as the Master, as France and as Italy) give
  orders for themselves and for the powers they control.
- `investor`: an Exchange game (Payola) whose investor has Italy, a DUMMY, under its CONTROL and
  mails offer sheets for itself and for Italy.
- `no_check`: a NO_CHECK game, France ordering a unit twice (DPjudge numbers the orders).
Needs Python 2.7 for DPjudge; the test does not."""
from __future__ import annotations

import random
import tempfile
from pathlib import Path

from judge.maps import MapCache
from tests.support.record_dpjudge_games import MASTER, MASTER_PASSWORD, Host, mail, opening, write_recorded
from tests.support.record_exchange_game import SAVED_INVESTOR, exchange_opening
from tests.support.record_xtalball_game import confirmations

FIXTURE = Path(__file__).parent.parent / "commands" / "fixtures" / "dpjudge_confirmations.json"
GAME = "dpjstandard"
DUMMY_ITALY = ("ITALY\nPLAYER DUMMY S1901M |p4@example.org|Player_4\nCONTROL {controller}\n")
PLAYED_ITALY = "ITALY\nPLAYER |p4@example.org|Player_4\nADDRESS p4@example.org\nPASSWORD pw4\n"
FRANCE = "A PAR - BUR\nA MAR H\nF BRE - MAO\n"
ITALY = "A VEN H\nA ROM - APU\nF NAP - ION\n"
ENGLAND = "F LON - NTH\nF EDI - NWG\nA LVP - YOR\n"


def signon(seat: str, password: str, *parts: str) -> str:
    return f"SIGNON {seat}@{GAME} {password}\n" + "".join(parts) + "SIGNOFF\n"


def control_game() -> tuple[str, list[tuple[str, str]]]:
    text = opening(MapCache().get("standard")).replace(PLAYED_ITALY, DUMMY_ITALY.format(controller="FRANCE"))
    text = text.replace("ADDRESS p1@example.org\nPASSWORD pw1\n", "ADDRESS p1@example.org\nCONTROL GERMANY\n")
    mails = [
        ("p2@example.org", signon("FRANCE", "pw2", "ITALY\n", ITALY)),  # the seat's own orders: none
        ("elsewhere@example.org", signon("FRANCE", "pw2", FRANCE, "ITALY\n", ITALY.replace("- APU", "H"))),
        ("p3@example.org", signon("GERMANY", "pw3", "ENGLAND\n", ENGLAND)),  # a proxy's power
        (MASTER, signon("MASTER", MASTER_PASSWORD, "ITALY\n", ITALY)),
        (MASTER, signon("FRANCE", MASTER_PASSWORD, FRANCE.replace("- BUR", "H"))),
        (MASTER, signon("ITALY", MASTER_PASSWORD, ITALY.replace("- ION", "- TYS"))),
        ("p2@example.org", signon("FRANCE", "pw2", FRANCE)),
    ]
    return text, mails


def investor_game() -> tuple[str, list[tuple[str, str]]]:
    name, address, password = SAVED_INVESTOR
    m = MapCache().get("standard")
    text = exchange_opening(m, random.Random("confirmations"))
    italy = text[text.index("\nITALY\n") + 1:]
    italy = italy[:italy.index("OWNS ")]
    text = text.replace(italy, DUMMY_ITALY.format(controller=name))
    sheet = "3 : A MUN - BUR\n2 : F NAP - ION\n"
    italy_sheet = "0 : A VEN H\n1 : A ROM - APU\n0 : F NAP - ION\n"
    mails = [
        (address, signon(name, password, sheet)),
        (address, signon(name, password, "ITALY\n", italy_sheet)),
        (MASTER, signon("ITALY", MASTER_PASSWORD, italy_sheet.replace("- APU", "H"))),
    ]
    return text, mails


def no_check_game() -> tuple[str, list[tuple[str, str]]]:
    text = opening(MapCache().get("standard")).replace("\n\n", "\nRULE NO_CHECK\n\n", 1)
    return text, [("p2@example.org", signon("FRANCE", "pw2", FRANCE, "A PAR S A MAR\nA MAR - SPA\n"))]


def record() -> dict:
    games = {}
    for name, (text, mails), variant in (("control", control_game(), "standard"),
                                         ("investor", investor_game(), "payola"),
                                         ("no_check", no_check_game(), "standard")):
        with tempfile.TemporaryDirectory() as scratch:
            host = Host(Path(scratch), GAME, text, variant=variant)
            played = [{"from": sender, "body": body, "confirmations": confirmations(host.send(mail(sender, body)))}
                      for sender, body in mails]
        games[name] = {"variant": variant, "opening": text, "mails": played}
    return {"game": GAME, "games": games}


def main() -> None:
    write_recorded(__doc__ or "", FIXTURE, record)


if __name__ == "__main__":
    main()
