"""Record how DPjudge settles two Payola positions made for the purpose, as fixtures of the tests.

    python -m tests.support.record_payola_positions

Each is the standard opening as a `payola` game (full acceptance lists drawn as in
`record_payola_game`), changed as below; the sheets given are mailed, then the Master's PROCESS!
settles Spring 1901 on a scratch DPjudge host (`../shared/tools/dpjudge`). Kept: the status
before and after, and the results and statements DPjudge mailed. Needs Python 2.7 for DPjudge;
the tests do not.

- `payola_ebayola_tie.json` (`tests/game/test_payola_bribes.py`): under EBAYOLA, France and Russia
  each bribe Germany's A MUN with 5 AgP, for different moves; Germany's list puts France first
  (France pays 6).
- `payola_goners.json` (`tests/game/test_payola_transfers.py`, `tests/app/test_payola_funds.py`):
  under NO_DONATIONS, Italy owns Rome alone and has one army, in Tuscany, and Austria has an army in
  Apulia besides its own; Austria bribes it into Rome (Italy, gone, loses its treasury)."""
from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from judge.maps import MapCache
from tests.support.record_dpjudge_games import MASTER, MASTER_PASSWORD, Host, mail, player, results
from tests.support.record_payola_game import GAME, payola_opening
from tests.support.record_xtalball_game import to_itself

FIXTURES = Path(__file__).parent.parent / "game" / "fixtures"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def opening(rule: str) -> str:
    return payola_opening(MapCache().get("standard"), random.Random(1), (rule,))


def goners_opening() -> str:
    text = opening("NO_DONATIONS").replace("OWNS NAP ROM VEN\nFUNDS $48\nACCEPT IARTEGF\nF NAP\nA ROM\nA VEN\n",
                                           "OWNS ROM\nFUNDS $48\nACCEPT IARTEGF\nA TUS\n")
    return text.replace("A BUD\nA VIE\nF TRI\n", "A BUD\nA VIE\nF TRI\nA APU\n")


POSITIONS = {
    "payola_ebayola_tie.json": (lambda: opening("EBAYOLA"),
                                (("FRANCE", "5 : A MUN - BUR"), ("RUSSIA", "5 : A MUN - SIL"))),
    "payola_goners.json": (goners_opening, (("AUSTRIA", "5 : A APU - ROM"), ("ITALY", "0 : A TUS H"))),
}


def processed(start: str, sheets: tuple[tuple[str, str], ...]) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, start, variant="payola")
        for power, line in sheets:
            address, password = player(POWERS.index(power))
            host.send(mail(address, f"SIGNON {power}@{GAME} {password}\n{line}\nSIGNOFF\n"))
        ready = host.status()
        sent = host.send(mail(MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS!\nSIGNOFF\n"))
        sent += [x for raw in sent if to_itself(raw) for x in host.send(raw)]
        return {"ready": ready, "results": results(sent), "status": host.status()}


def main() -> None:
    for name, (start, sheets) in POSITIONS.items():
        (FIXTURES / name).write_text(json.dumps(processed(start(), sheets), indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
