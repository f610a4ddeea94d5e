"""Record the words DPjudge refuses Payola offer sheets with under its sheet rules, as the fixture
of `tests/game/test_payola_sheets_by_mail.py`.

    python -m tests.support.record_payola_refusals [--out FILE]

For each set of rules below, a power (France when none is named) mails each sheet to the start of
a `payola` game on a scratch DPjudge host (`../shared/tools/dpjudge`); DPjudge's reply names the
problem on its first line (or confirms the sheet: then "" is kept). Needs Python 2.7 for DPjudge; the tests do not."""
from __future__ import annotations

import email
import random
import tempfile
from email import policy
from pathlib import Path

from judge.maps import MapCache
from tests.support.record_dpjudge_games import Host, mail, player, write_recorded
from tests.support.record_payola_game import GAME, payola_opening

FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "payola_refusals.json"
SHEETS = {
    ("DIRECT_ONLY", "LIMIT_OFFERS"): (
        ("5 : A PAR - BUR", "3 : A PAR H"),
        ("5 ! A PAR - BUR",),
        ("5 & A PAR H",),
        ("5 : A PAR - BUR | H",),
        ("5 : A PAR H % a | b",),
        ("2*3 : A PAR H",),
        ("3+2 : A PAR H",),
        ("40 : A PAR H", "8 : A MAR H", "1 : F BRE H"),
        ("48 : A PAR H", "1 : A MAR H", "1 : F BRE H"),
        ("45 : A PAR H", "4 : A MAR H", "0 : F BRE H"),
    ),
    ("DIRECT_ONLY",): (
        ("48 : A PAR H", "1 : A MAR H", "1 : F BRE H"),
        ("5 : A PAR H", "5 : A MUN H"),
    ),
    # Italy's A VEN stands next to Austria's F TRI; none of its units next to Germany's A MUN
    ("TOUCH_BRIBE",): (
        ("ITALY", "5 : F TRI H"), ("ITALY", "5 : A MUN - RUH"), ("ITALY", "5 : A VEN H", "3 : A MUN H"),
        ("ITALY", "5 : F TRI - ALB | H"), ("5 : A PAR - BUR",),
    ),
    ("REMOTE_BRIBE",): (
        ("ITALY", "5 : F TRI H"), ("ITALY", "5 : A MUN - RUH"), ("ITALY", "5 : F TRI - ALB | H"),
    ),
}
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def refusals(rules: tuple[str, ...], sheets: tuple[tuple[str, ...], ...]) -> list[dict]:
    m = MapCache().get("standard")
    start = payola_opening(m, random.Random(1), rules)
    found = []
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, start, variant="payola")
        for case in sheets:
            power, lines = (case[0], case[1:]) if case[0] in POWERS else ("FRANCE", case)
            address, password = player(POWERS.index(power))
            out = host.send(mail(address, f"SIGNON {power}@{GAME} {password}\n"
                                 + "".join(f"{x}\n" for x in lines) + "SIGNOFF\n"))
            bodies = [email.message_from_string(raw, policy=policy.compat32) for raw in out]
            reply = next((b.get_payload() for b in bodies if "reply" in str(b["Subject"])), "")
            refused = reply.strip().splitlines()[0] if reply else ""
            found.append({"power": power, "sheet": list(lines), "refused": refused})
    return found


def main() -> None:
    write_recorded(__doc__ or "", FIXTURE, lambda: [
        {"rules": list(rules), "start": payola_opening(MapCache().get("standard"), random.Random(1), rules),
         "cases": refusals(rules, sheets)} for rules, sheets in SHEETS.items()])


if __name__ == "__main__":
    main()
