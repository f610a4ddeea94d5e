"""Record an Exchange game (Payola with RULE EXCHANGE and ALLOW INVESTOR) played by DPjudge by mail,
as the fixture of the Exchange's replay tests (`tests/game/fixtures/exchange_by_mail.json`).

    python -m tests.support.record_exchange_game [--seed N] [--years N] [--out FILE]
    python -m tests.support.record_exchange_game --idle [--seed N] [--out FILE]

The game is the Payola game of `record_payola_game` with the Exchange's lines added as a
judgekeeper moving a game over would have them: `RULE EXCHANGE`, `ALLOW INVESTOR`, and an
investor already in the game with money on its FUNDS line (`FUNDS $60`). Before
the first phase a second player joins by mail as an investor (`INVESTOR name@game password`),
and DPjudge opens his purse at nothing. In every movement phase each investor mails an offer
sheet of bribes to units on the board, as the powers do; in retreats and adjustments an investor
has nothing to order. With `--idle` only Spring 1901 is recorded, the investors
sending no sheet (to `exchange_idle_investors.json`): the Master's PROCESS does not wait for
them. The Master's DPPD id is set, so that DPjudge does not take the joining player (whose id is
empty) for the Master. Needs Python 2.7 for DPjudge; the tests do not."""
from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

from judge.maps import MapCache
from judge.maps.model import Map
from judge.status import parse_status
from tests.support.random_orders import phase_orders
from tests.support.record_dpjudge_games import Host, dpjudge_name, mail, player
from tests.support.record_payola_game import GAME, offer_sheets, payola_opening, played_phases
from tests.support.record_xtalball_game import broadcasts

FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "exchange_by_mail.json"
IDLE_FIXTURE = Path(__file__).parent.parent / "game" / "fixtures" / "exchange_idle_investors.json"
SAVED_INVESTOR = ("ROTHSCHILD", "rothschild@example.org", "gold")  # in the file as it was moved over
JOINING_INVESTOR = ("RICH", "rich@example.org", "cash")  # joins by mail
BRIBES = 3  # bribes on an investor's sheet


def exchange_opening(m: Map, rng: random.Random) -> str:
    """The Payola opening with the Exchange's lines and an investor holding money."""
    name, address, password = SAVED_INVESTOR
    text = payola_opening(m, rng, ("EXCHANGE",)).replace("MASTER |", "MASTER 77|", 1)
    text = text.replace("\n\n", "\nALLOW INVESTOR\n\n", 1)
    return (text.rstrip("\n") + f"\n\nINVESTOR {name}\nPLAYER |{address}|{address}\nADDRESS {address}\n"
            f"PASSWORD {password}\nFUNDS $60\n")


def investor_sheets(m: Map, status_text: str, rng: random.Random) -> dict[str, list[str]]:
    """Each investor's sheet: a few bribes for orders drawn for units on the board."""
    drawn = [line for lines in phase_orders(m, parse_status(status_text), rng).values() for line in lines]
    return {name: [f"{rng.randint(1, 15)} : {line}" for line in rng.sample(drawn, min(BRIBES, len(drawn)))]
            for name, _, _ in (SAVED_INVESTOR, JOINING_INVESTOR)}


def record(seed: int, years: int, idle: bool = False) -> dict:
    m = MapCache().get("standard")
    rng = random.Random(f"exchange|{seed}")
    opening = exchange_opening(m, rng)
    powers = [p for p in m.powers.values() if not p.name.startswith("_")]
    addresses = {dpjudge_name(info.name): player(n) for n, info in enumerate(powers)}
    addresses |= {name: (address, password) for name, address, password in (SAVED_INVESTOR, JOINING_INVESTOR)}
    name, address, password = JOINING_INVESTOR
    joining = {"from": address, "body": f"INVESTOR {name.lower()}@{GAME} {password}\nSIGNOFF\n"}
    with tempfile.TemporaryDirectory() as scratch:
        host = Host(Path(scratch), GAME, opening, variant="payola")
        joining["replies"] = broadcasts(host.send(mail(joining["from"], joining["body"])))
        start = host.status()
        phases = played_phases(host, m, start, addresses, lambda text: offer_sheets(m, text, rng) | (
            {} if idle else investor_sheets(m, text, rng)), rng,
            lambda phase, played: phase.year >= 1901 + years or idle and played > 0)
    return {"seed": seed, "rich": False, "rules": ["EXCHANGE"], "game": GAME, "opening": opening,
            "joining": joining, "start": start, "phases": phases}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--years", type=int, default=3)
    parser.add_argument("--idle", action="store_true", help="Spring 1901 with no investor's sheet")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    game = record(args.seed, args.years, args.idle)
    args.out = args.out or (IDLE_FIXTURE if args.idle else FIXTURE)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(game, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(game['phases'])} phases, {sum(len(p['results']) for p in game['phases'])} results mails")


if __name__ == "__main__":
    main()
