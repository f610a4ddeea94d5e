"""Record a Crystal Ball game played by DPjudge by mail, as the fixture of
`tests/game/test_xtalball_by_mail.py`.

    python -m tests.support.record_xtalball_game [--seed N] [--years N] [--rule RULE ...] [--out FILE]

The game starts from the standard opening in a scratch DPjudge host (`../shared/tools/dpjudge`,
or $DPJUDGE) as an `xtalball` game. First each power mails the list for Spring 1901 (DPjudge locks
the lists when the last is in); then, in every movement phase, each power mails the list for the
movement phase after the next one (drawn from its units as they stand, so that some orders meet
units that have gone, and now and then no list at all: civil disorder), and in retreats and
adjustments its orders as in the standard game; the Master's PROCESS ends each phase (PROCESS!
when a list is missing). Every mail in with the order confirmations DPjudge answered it with and
the broadcast it made of it (the lock notice),
DPjudge's results mails out, the status file it saved and its `lists` file are written to
`tests/game/fixtures/xtalball_by_mail.json`. Needs Python 2.7 for DPjudge; the test does not."""
from __future__ import annotations

import argparse
import email
import json
import random
import tempfile
from email import policy
from pathlib import Path

from judge.maps import MapCache
from judge.status import parse_status
from judge.types import MOVEMENT, Phase
from tests.support.random_orders import phase_orders
from tests.support.record_dpjudge_games import (
    JUDGE_ADDRESS,
    MASTER,
    MASTER_PASSWORD,
    Host,
    dpjudge_name,
    mail,
    opening,
    player,
    results,
)

FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "xtalball_by_mail.json"
GAME = "dpjstandard"  # the name `opening` gives the standard map's game
NO_LIST = 0.1  # how often a power mails no list for a movement phase (civil disorder)


def confirmations(sent: list[str]) -> list[dict]:
    """DPjudge's order confirmations among the mails it sent: readers, subject and body."""
    out = []
    for raw in sent:
        msg = email.message_from_string(raw, policy=policy.compat32)
        if str(msg["Subject"]).startswith("Diplomacy orders"):
            out.append({"to": sorted(a.strip() for a in str(msg["To"]).split(",")),
                        "subject": str(msg["Subject"]), "body": str(msg.get_payload())})
    return out


def to_itself(raw: str) -> bool:
    """A mail DPjudge sends itself: its Master's broadcast (the lock notice), which DPjudge then
    handles as mail (the scratch host does not deliver it: the recorder hands it back)."""
    return str(email.message_from_string(raw, policy=policy.compat32)["To"]).strip() == JUDGE_ADDRESS


def broadcasts(sent: list[str]) -> list[dict]:
    """The mails DPjudge sent for its own broadcast: readers, subject and body (each text once)."""
    out: dict[tuple[str, str], list[str]] = {}
    for raw in sent:
        msg = email.message_from_string(raw, policy=policy.compat32)
        out.setdefault((str(msg["Subject"]), str(msg.get_payload())), []).append(str(msg["To"]).strip())
    return [{"to": sorted(to), "subject": subject, "body": body} for (subject, body), to in out.items()]


def lists_file(host: Host) -> str:
    """The game's `lists` file as DPjudge left it ("" when it wrote none yet)."""
    path = host.root / "games" / host.game / "lists"
    return path.read_bytes().decode("latin-1") if path.exists() else ""


def record(seed: int, years: int, rules: tuple[str, ...] = (), revise: float = 0) -> dict:
    m = MapCache().get("standard")
    start = opening(m).replace("\n\n", "".join(f"\nRULE {r}" for r in rules) + "\n\n", 1)
    powers = [p for p in m.powers.values() if not p.name.startswith("_")]
    addresses = {dpjudge_name(info.name): player(n) for n, info in enumerate(powers)}
    rng = random.Random(f"xtalball|{seed}")
    phases: list[dict] = []
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, start, variant="xtalball")
        mails: list[dict] = []
        sent: list[str] = []

        def send(sender: str, body: str) -> None:
            out = host.send(mail(sender, body))
            relayed = [m for raw in out if to_itself(raw) for m in host.send(raw)]
            mails.append({"from": sender, "body": body, "confirmations": confirmations(out),
                          "broadcasts": broadcasts(relayed)})
            sent.extend(out)

        def orders(status_text: str, skip: float) -> None:
            status = parse_status(status_text)
            movement = isinstance(status.phase, Phase) and status.phase.type == MOVEMENT
            for power, lines in phase_orders(m, status, rng).items():
                if rng.random() < skip:
                    continue
                if revise and movement and lines and rng.random() < revise:  # a line revoked by a later one
                    lines = [*lines, lines[0].split(" - ")[0].split(" S ")[0].split(" C ")[0] + " H"]
                address, password = addresses[power]
                send(address, f"SIGNON {power}@{GAME} {password}\n" + "".join(f"{x}\n" for x in lines)
                     + "SIGNOFF\n")

        orders(start, 0)  # the first lists, for Spring 1901: locked when the last is in
        first = {"phase": "lists", "mails": mails, "results": results(sent), "status": host.status(),
                 "lists": lists_file(host)}
        phases.append(first)
        text = host.status()
        while True:
            phase = parse_status(text).phase
            assert isinstance(phase, Phase)
            if phase.year >= 1901 + years:
                break
            mails, sent = [], []
            orders(text, NO_LIST if phase.type == MOVEMENT else 0)
            send(MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS\nSIGNOFF\n")
            if parse_status(host.status()).phase == phase:  # a list missing: the Master forces it
                send(MASTER, f"SIGNON M{GAME} {MASTER_PASSWORD}\nPROCESS!\nSIGNOFF\n")
            after = host.status()
            if parse_status(after).phase == phase:
                raise SystemExit(f"DPjudge did not process {phase}:\n" + "\n".join(sent))
            phases.append({"phase": phase.abbrev, "mails": mails, "results": results(sent), "status": after,
                           "lists": lists_file(host)})
            text = after
    return {"seed": seed, "game": GAME, "start": start, "phases": phases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--rule", action="append", default=[], help="a RULE of the game (repeatable)")
    parser.add_argument("--revise", type=float, default=0,
                        help="how often a list orders its first unit twice (the first line revoked)")
    parser.add_argument("--out", type=Path, default=FIXTURE)
    args = parser.parse_args()
    game = record(args.seed, args.years, tuple(args.rule), args.revise)
    args.out.write_text(json.dumps(game, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(game['phases'])} phases, {sum(len(p['results']) for p in game['phases'])} results mails")


if __name__ == "__main__":
    main()
