"""Record what DPjudge does to a power it counts as gone under NO_DONATIONS, as the fixture of
`tests/game/test_payola_transfers.py`.

    python -m tests.support.record_payola_goners [--out FILE]

The standard opening as a `payola` game under NO_DONATIONS, but Italy owns Rome alone and has one
army, in Tuscany, and Austria has an army in Apulia besides its own. Austria bribes its army into
Rome; Italy's army holds; the Master's PROCESS! settles Spring 1901 on a scratch DPjudge host
(`../shared/tools/dpjudge`). Kept: the status before and after, and the results. Needs Python 2.7
for DPjudge; the tests do not."""
from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

from judge.maps import MapCache
from tests.support.record_dpjudge_games import MASTER, MASTER_PASSWORD, Host, mail, results
from tests.support.record_payola_game import GAME, payola_opening
from tests.support.record_xtalball_game import to_itself

FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "payola_goners.json"
SHEETS = (("p0@example.org", "AUSTRIA", "pw0", "5 : A APU - ROM"), ("p4@example.org", "ITALY", "pw4", "0 : A TUS H"))


def start() -> str:
    text = payola_opening(MapCache().get("standard"), random.Random(1), ("NO_DONATIONS",))
    text = text.replace("OWNS NAP ROM VEN\nFUNDS $48\nACCEPT IARTEGF\nF NAP\nA ROM\nA VEN\n",
                        "OWNS ROM\nFUNDS $48\nACCEPT IARTEGF\nA TUS\n")
    return text.replace("A BUD\nA VIE\nF TRI\n", "A BUD\nA VIE\nF TRI\nA APU\n")


def record() -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, start(), variant="payola")
        for address, power, password, line in SHEETS:
            host.send(mail(address, f"SIGNON {power}@{GAME} {password}\n{line}\nSIGNOFF\n"))
        ready = host.status()
        sent = host.send(mail(MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS!\nSIGNOFF\n"))
        sent += [x for raw in sent if to_itself(raw) for x in host.send(raw)]
        return {"ready": ready, "results": results(sent), "status": host.status()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=FIXTURE)
    args = parser.parse_args()
    args.out.write_text(json.dumps(record(), indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
