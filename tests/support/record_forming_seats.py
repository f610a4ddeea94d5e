"""Record the status files DPjudge saves while a game forms, as the fixture of
`tests/app/test_forming_seats.py` (`tests/app/fixtures/forming_seats.json`).

    python -m tests.support.record_forming_seats [--out FILE]

A forming standard game with POWER_CHOICE: players JOIN (a `POWER#n` seat, or the power they
choose), an observer and a monitor come in between; after each mail, the status file DPjudge
saved. Needs Python 2.7 for DPjudge; the test does not."""
from __future__ import annotations

import tempfile
from pathlib import Path

from tests.support.record_dpjudge_games import MASTER, MASTER_PASSWORD, Host, mail, player, write_recorded

FIXTURE = Path(__file__).parent.parent / "app" / "fixtures" / "forming_seats.json"
GAME = "dpjform"
FORMING = (f"GAME {GAME}\nPHASE FORMING\nMAP standard\nRULE POWER_CHOICE\nMASTER 77|{MASTER}|Master\n"
           f"ADDRESS {MASTER}\nPASSWORD {MASTER_PASSWORD}\n")


def mails() -> list[tuple[str, str]]:
    joins = [(address, f"JOIN {GAME} {password}\nSIGNOFF\n") for address, password in map(player, range(4))]
    return [joins[0],
            ("watcher@example.org", f"OBSERVE watcher@{GAME} peek\nSIGNOFF\n"),
            (joins[1][0], f"JOIN france@{GAME} {player(1)[1]}\nSIGNOFF\n"),
            joins[2],
            ("keen@example.org", f"MONITOR keen@{GAME} look\nSIGNOFF\n"),
            ("aaron@example.org", f"OBSERVE aaron@{GAME} peek\nSIGNOFF\n"),
            joins[3]]


def record() -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, FORMING)
        (Path(scratch) / "games" / "status").write_text(f"{GAME} standard forming\n")
        played = []
        for sender, body in mails():
            host.send(mail(sender, body))
            played.append({"from": sender, "body": body, "status": host.status()})
    return {"game": GAME, "forming": FORMING, "mails": played}


def main() -> None:
    write_recorded(__doc__ or "", FIXTURE, record)

if __name__ == "__main__":
    main()
