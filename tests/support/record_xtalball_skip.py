"""Record DPjudge playing a Crystal Ball game that begins with an empty board from a SKIP phase,
as the fixture of `tests/game/test_xtalball_skip.py`.

    python -m tests.support.record_xtalball_skip [--out FILE]

The game is on the standard map under BLANK_BOARD, its status file written `SKIP FALL 1900
MOVEMENT`: the powers own their home centres and have no units. In that phase each power mails
the list for Spring 1901, TURKEY last, after the Master's PROCESS (refused: its list is owed though
it has no units), and the Master's PROCESS ends the phase; in the Winter 1900 adjustments each
builds, GERMANY a fleet in Berlin where its list orders an army (the line meets no unit); in
Spring 1901 each mails its list for Fall 1901 and the Master's PROCESS ends the phase. Every mail
in with DPjudge's answer, its results mails, the lists it broadcast, the status file it saved and
its `lists` file after each phase are written to `tests/game/fixtures/xtalball_skip.json`.
Needs Python 2.7 for DPjudge; the test does not."""
from __future__ import annotations

import tempfile
from pathlib import Path

from judge.maps import MapCache
from tests.support.record_dpjudge_games import (MASTER, MASTER_PASSWORD, Host, dpjudge_name, mail, opening, results,
                                                 write_recorded)
from tests.support.record_xtalball_game import GAME, broadcasts, confirmations, lists_file, to_itself

FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "xtalball_skip.json"

SPRING = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
    "GERMANY": ["A BER - KIE", "A MUN - RUH", "F KIE - DEN"],
    "ITALY": ["A ROM - APU", "A VEN - TYR", "F NAP - ION"],
    "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"],
    "TURKEY": ["A CON - BUL", "A SMY - ARM", "F ANK - BLA"],
}
BUILDS = {
    "AUSTRIA": ["BUILD A VIE", "BUILD A BUD", "BUILD F TRI"],
    "ENGLAND": ["BUILD F LON", "BUILD F EDI", "BUILD A LVP"],
    "FRANCE": ["BUILD A PAR", "BUILD A MAR", "BUILD F BRE"],
    "GERMANY": ["BUILD F BER", "BUILD A MUN", "BUILD F KIE"],
    "ITALY": ["BUILD A ROM", "BUILD A VEN", "BUILD F NAP"],
    "RUSSIA": ["BUILD A MOS", "BUILD A WAR", "BUILD F SEV", "BUILD F STP/SC"],
    "TURKEY": ["BUILD A CON", "BUILD A SMY", "BUILD F ANK"],
}
FALL = {
    "AUSTRIA": ["A GAL - UKR", "A SER H", "F ALB - GRE"],
    "ENGLAND": ["F NTH - NWY", "F NWG S F NTH - NWY", "A YOR - LON"],
    "FRANCE": ["A BUR - BEL", "A SPA - POR", "F MAO - IRI"],
    "GERMANY": ["A RUH - HOL", "F DEN - SWE", "F BER - BAL"],
    "ITALY": ["A APU H", "A TYR - VIE", "F ION - TUN"],
    "RUSSIA": ["A UKR - RUM", "A GAL - BUD", "F BLA - CON", "F BOT - SWE"],
    "TURKEY": ["A BUL - SER", "A ARM - SEV", "F BLA S A ARM - SEV"],
}


def blank_board() -> str:
    """The standard opening without its units, written SKIP FALL 1900 MOVEMENT, under BLANK_BOARD."""
    m = MapCache().get("standard")
    units = {str(u) for info in m.powers.values() for u in info.units}
    lines = [x for x in opening(m).split("\n") if x not in units]
    text = "\n".join(lines).replace("PHASE SPRING 1901 MOVEMENT", "SKIP FALL 1900 MOVEMENT")
    return text.replace("\n\n", "\nRULE BLANK_BOARD\n\n", 1)


def record() -> dict:
    start = blank_board()
    passwords = {dpjudge_name(p): (f"p{n}@example.org", f"pw{n}") for n, p in enumerate(BUILDS)}
    phases: list[dict] = []
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, start, variant="xtalball")

        def play(orders: list[tuple[str, list[str]]]) -> None:
            """Each (power, its lines) mailed in turn; MASTER's lines are a command."""
            mails, sent, relayed = [], [], []
            before = host.status()
            for power, lines in orders:
                address, password = passwords.get(power, (MASTER, MASTER_PASSWORD))
                head = f"SIGNON M{GAME} {MASTER_PASSWORD}\n" if power == MASTER else \
                    f"SIGNON {power}@{GAME} {password}\n"
                body = head + "".join(f"{x}\n" for x in lines) + "SIGNOFF\n"
                out = host.send(mail(address, body))
                relayed += [m for raw in out if to_itself(raw) for m in host.send(raw)]
                mails.append({"from": address, "body": body, "confirmations": confirmations(out)})
                sent += out
            phases.append({"before": before, "mails": mails, "results": results(sent),
                           "broadcasts": broadcasts(relayed), "status": host.status(), "lists": lists_file(host)})

        process = [(MASTER, ["PROCESS"])]
        first = [x for x in SPRING.items() if x[0] != "TURKEY"]
        play(first + process + [("TURKEY", SPRING["TURKEY"])] + process)
        play([*BUILDS.items(), *process])
        play([*FALL.items(), *process])
    return {"game": GAME, "start": start, "phases": phases}


def main() -> None:
    write_recorded(__doc__ or "", FIXTURE, record)


if __name__ == "__main__":
    main()
