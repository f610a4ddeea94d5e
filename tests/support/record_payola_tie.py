"""Record how DPjudge settles a tie under EBAYOLA, as the fixture of `tests/game/test_payola_bribes.py`.

    python -m tests.support.record_payola_tie [--out FILE]

France and Russia each bribe Germany's A MUN with 5 AgP, for different moves; Germany's list puts
France first. The Master's PROCESS! settles Spring 1901 on a scratch DPjudge host
(`../shared/tools/dpjudge`): kept are the status before and after it and the statements DPjudge
mailed (France pays 6). Needs Python 2.7 for DPjudge; the tests do not."""
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

FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "payola_ebayola_tie.json"
SHEETS = (("p2@example.org", "FRANCE", "pw2", "5 : A MUN - BUR"),
          ("p5@example.org", "RUSSIA", "pw5", "5 : A MUN - SIL"))


def record() -> dict:
    start = payola_opening(MapCache().get("standard"), random.Random(1), ("EBAYOLA",))
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, start, variant="payola")
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
