"""The CPU each attack of the bounded-work review costs, as mails through the inbox runner (the
daemon's `MailHandler`, with the judge's default limits), and the gateway's greeting latency while
a large picture is drawn.

    python benchmarks/attacks.py

Each figure is the CPU one mail cost (the process handling it and the child process that draws its
picture), the median of three runs, each in a fresh judge.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from judge.limits import Limits  # noqa: E402
from judge.runtime.config import Config, JudgeSection, PathsSection  # noqa: E402
from judge.runtime.inbox import MailHandler  # noqa: E402
from tests.support.commands import GAMES  # noqa: E402
from tests.support.mail import JUDGE_ADDRESS, KEEPER, mail  # noqa: E402

NOW = datetime(2025, 2, 9, 12, 0, tzinfo=UTC)
GM = "gm@attack.test"


def handler(root: Path) -> MailHandler:
    config = Config(judge=JudgeSection(id="TEST", address=JUDGE_ADDRESS, keeper=KEEPER,
                                       password="jkpass"),
                    paths=PathsSection(games=root / "games", maps=REPO / "maps",
                                       spool=root / "spool"))
    handle = MailHandler(config)
    handle.store.create("vienna", (GAMES / "vienna.status").read_text())
    return handle


def cpu(handle: MailHandler, raw: bytes) -> tuple[float, str]:
    """The CPU one mail cost, the picture's child process included, and its reply's text."""
    before = os.times()
    replies = handle(raw, NOW)
    after = os.times()
    spent = sum(getattr(after, f) - getattr(before, f)
                for f in ("user", "system", "children_user", "children_system"))
    body = " ".join(str(replies[0].get_body(("plain",)).get_content()).split()) if replies else ""
    return spent, body


def places(count: int) -> list[str]:
    return [f"P{n:04d} VIE" for n in range(count)]


ATTACKS = {
    "CREATE + MORPH of 3,157 lines IN S1901M: UNOWNED": lambda: [mail(
        GM, "CREATE slowg pw", "MORPH", *["IN S1901M: UNOWNED"] * 3157, "END MORPH", "FORM")],
    "MORPH line of USE fleetrome x1000": lambda: [mail(
        GM, "CREATE useg pw", "MORPH", " ".join(["USE fleetrome"] * 1000), "END MORPH", "FORM")],
    "25 CREATEs from one sender (all 25 mails)": lambda: [
        mail(GM, f"CREATE fl{n} pw", "FORM", number=n) for n in range(25)],
    "SIGNON + 3,500 SET PASSWORD lines": lambda: [mail(
        "chloe@example.fr", "SIGNON Fvienna paris7", *["SET PASSWORD pw"] * 3500)],
}


def legend(limits: Limits) -> list[bytes]:
    """A game whose map has as many places as allowed (standard's 81 and a chain of seas from the
    North Atlantic), then a stranger's MAP of it as PDF."""
    count = limits.map_places - 100  # standard.map names a few more than its 81 places
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    names = [f"q{digits[n // 36]}{digits[n % 36]}" for n in range(count)]
    lines = [f"Sea {name} = {name}" for name in names]
    for n, name in enumerate(names):
        near = [names[n - 1] if n else "NAO", *names[n + 1:n + 2]]
        lines.append(f"WATER {name.upper()} ABUTS {' '.join(near).upper()}")
    lines.append(f"AMEND NAO ABUTS {names[0].upper()}")
    return [mail(GM, "CREATE legendg pw", "MORPH", *lines, "END MORPH", "FORM"),
            mail("stranger@elsewhere.test", "MAP legendg pdf", number=1)]


def run(name: str, mails: list[bytes]) -> None:
    totals, said = [], ""
    for _ in range(3):
        with tempfile.TemporaryDirectory() as folder:
            handle = handler(Path(folder))
            costs = [cpu(handle, raw) for raw in mails]
            games = len(handle.store.names())
            totals.append(costs)
            said = costs[-1][1]
    per_mail = [statistics.median(run[i][0] for run in totals) for i in range(len(mails))]
    print(f"{name}: {sum(per_mail):.2f} s CPU in all, at most {max(per_mail):.2f} s a mail")
    print(f"    games on the judge after: {games}; last reply: {said[:400]}")


def main() -> None:
    for name, mails in ATTACKS.items() if "--legend" not in sys.argv else ():
        run(name, mails())
    run("CREATE of a map with [limits] map_places places, then MAP legendg pdf", legend(Limits()))


if __name__ == "__main__":
    main()
