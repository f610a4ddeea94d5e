"""A vacancy filled by mail: a game whose power resigned and was taken over plays on. The games
index's `waiting`, written while the power was vacant, is not read back as the Master's hold once
the vacancy is filled."""
from __future__ import annotations

import contextlib
import io
import re
from datetime import UTC, datetime, timedelta

from judge.cli import main
from judge.game.deadlines import current_deadline

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
MASTER = "gm@players.test"
NEWCOMER = "newcomer@players.test"


def started_by_mail(judge) -> dict[str, str]:
    """CREATE beta, FORM, seven JOINs: each power's (player, password)."""
    judge.send(MASTER, "CREATE beta masterpw\nmap standard\nform", NOW)
    for n in range(7):
        judge.send(f"p{n}@players.test", f"JOIN beta pw{n}", NOW + timedelta(minutes=n + 1))
    text = (judge.root / "games" / "beta" / "status").read_text()
    seats = re.findall(r"^POWER (\w+)\nPLAYER [^|]*\|p(\d)@", text, re.MULTILINE)
    return {power: (f"p{n}@players.test", f"pw{n}") for power, n in seats}


def resign_and_take_over(judge, seats) -> None:
    player, password = seats["ENGLAND"]
    judge.send(player, f"RESIGN Ebeta {password}", NOW + timedelta(hours=1))
    judge.send(NEWCOMER, "TAKEOVER Ebeta newpw", NOW + timedelta(hours=2))


def index_line(judge) -> str:
    return (judge.root / "games" / "status").read_text().strip()


def test_a_game_whose_vacancy_is_taken_over_is_active_again(judge):
    resign_and_take_over(judge, started_by_mail(judge))
    assert index_line(judge) == "beta standard active"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["games", "--config", str(judge.root / "judge.toml")])
    assert "waiting" not in out.getvalue()


def test_the_deadline_after_a_takeover_is_kept(judge):
    resign_and_take_over(judge, started_by_mail(judge))
    judge.take_outbox()
    deadline = current_deadline(judge.status("beta"))
    assert deadline is not None
    code, lines = judge.check(deadline + timedelta(minutes=20))
    assert code == 0 and lines[0].startswith("beta: late notice: AUSTRIA, ENGLAND")
    told = {address for mail in judge.take_outbox() for address in str(mail["To"]).split(", ")}
    assert NEWCOMER in told


def test_a_vacancy_left_open_keeps_the_game_waiting(judge):
    seats = started_by_mail(judge)
    player, password = seats["ENGLAND"]
    judge.send(player, f"RESIGN Ebeta {password}", NOW + timedelta(hours=1))
    assert index_line(judge) == "beta standard waiting"
