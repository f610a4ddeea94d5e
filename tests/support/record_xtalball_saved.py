"""Record DPjudge processing a Crystal Ball game from a status file with proxy lines in its lists,
as the fixture of `tests/game/test_xtalball_saved.py`.

    python -m tests.support.record_xtalball_saved [--out FILE]

The game is the one `tests/game/fixtures/xtalball_by_mail.json` recorded, at Spring 1902 with its
locked lists, under PUBLIC_LISTS, with proxy lines written into two powers' lists as a hand
edit or an older DPjudge would leave them: AUSTRIA's SOONER list proxies A VIE to ITALY, whose
list orders it; GERMANY's LATER list proxies F DEN to RUSSIA. DPjudge (by mail it refuses every
proxy line of a list: it reads the power's name out of the line) loads the file and the Master's
PROCESS! ends the phase; before it, GERMANY mails a list with a proxy line, which DPjudge
refuses whole (its reply and the status kept are recorded). DPjudge's results mails, its lists
broadcast, the status file it saved and its `lists` file are written to
`tests/game/fixtures/xtalball_saved.json`. Needs Python 2.7 for DPjudge; the test does not."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from tests.support.record_dpjudge_games import MASTER, MASTER_PASSWORD, Host, mail, results, write_recorded
from tests.support.record_xtalball_game import FIXTURE as PLAYED, broadcasts, lists_file, to_itself

FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "xtalball_saved.json"


def with_proxies(status: str) -> str:
    """Spring 1902 of the recorded game with PUBLIC_LISTS and the proxy lines (see the doc)."""
    status = status.replace("\n\n", "\nRULE PUBLIC_LISTS\n\n", 1)
    austria = status.index("\nAUSTRIA\n")
    status = status[:austria] + status[austria:].replace("SOONER\n", "SOONER\nA VIE P ITALY\n", 1)
    italy = status.index("\nITALY\n")
    end = status.index("\n\n", italy + 1)
    status = status[:end] + "\nA VIE - TYR" + status[end:]
    germany = status.index("\nGERMANY\n")
    return status[:germany] + status[germany:].replace("SOONER\n", "LATER\nF DEN P RUSSIA\nA MUN H\nSOONER\n", 1)


def record() -> dict:
    game = json.loads(PLAYED.read_text(encoding="utf-8"))
    start = with_proxies(next(p for p in game["phases"] if p["phase"] == "W1901A")["status"])
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), game["game"], start, variant="xtalball")
        mailed = f"SIGNON GERMANY@{game['game']} pw3\nF DEN P RUSSIA\nA MUN H\nSIGNOFF\n"
        before = host.status()
        reply = host.send(mail("p3@example.org", mailed))
        refused = {"body": mailed, "replies": [raw.split("\n\n", 1)[1] for raw in reply],
                   "status_kept": host.status() == before}
        sent = host.send(mail(MASTER, f"SIGNON M{game['game']} {MASTER_PASSWORD}\nPROCESS!\nSIGNOFF\n"))
        relayed = [m for raw in sent if to_itself(raw) for m in host.send(raw)]
        return {"game": game["game"], "start": start, "mailed_proxy": refused, "results": results(sent),
                "broadcasts": broadcasts(relayed), "status": host.status(), "lists": lists_file(host)}


def main() -> None:
    write_recorded(__doc__ or "", FIXTURE, record)


if __name__ == "__main__":
    main()
