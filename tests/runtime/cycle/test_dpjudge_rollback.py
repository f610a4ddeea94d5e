"""ROLLBACK and ROLLFORWARD by mail as DPjudge does them, on DPjudge's own game alpha in FALL 1902 with
every order in: a plain ROLLBACK goes back one phase with its orders cleared, and a ROLLFORWARD
returns to the phase the game left (its orders cleared, or kept with RESTORE). Each position is
the one DPjudge saved for the same mails (`tests/status/fixtures/dpjudge/phases/*.rollback`,
`*.rollforward*`)."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from judge.status import parse_status
from tests.support.cycle import Judge
from tests.support.dpjudge import PHASES, dpjudge_games, position

NOW = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)  # before alpha's deadline
MASTER = "master@example.com"


@pytest.fixture
def judge(tmp_path) -> Judge:
    dpjudge_games(tmp_path)
    (tmp_path / "games" / "alpha" / "status").write_bytes((PHASES / "alpha.F1902M.orders").read_bytes())
    return Judge(tmp_path)


def saved_by_dpjudge(name: str):
    return parse_status((PHASES / name).read_bytes().decode("latin-1"))


def orders(status) -> dict[str, set[str]]:
    return {p.name: set(p.orders or ()) for p in status.powers}


def master_mail(judge: Judge, *commands: str) -> str:
    [reply, *_] = judge.send(MASTER, "\n".join(["SIGNON Malpha gmpw", *commands]), NOW)
    return reply.get_content()


def test_a_plain_rollback_goes_back_one_phase_its_orders_cleared(judge):
    assert "back in SPRING 1902 RETREATS" in master_mail(judge, "ROLLBACK")
    ours, dpjudge = judge.status("alpha"), saved_by_dpjudge("alpha.S1902R.rollback")
    assert position(ours) == position(dpjudge)
    assert orders(ours) == orders(dpjudge) == {p.name: set() for p in ours.powers}


@pytest.mark.parametrize("command, fixture", [
    ("ROLLFORWARD", "alpha.F1902M.rollforward"),
    ("ROLLFORWARD RESTORE", "alpha.F1902M.rollforward-restore"),
])
def test_a_rollforward_undoes_a_one_phase_rollback(judge, command, fixture):
    master_mail(judge, "ROLLBACK")
    assert "forward in FALL 1902 MOVEMENT" in master_mail(judge, command)
    ours, dpjudge = judge.status("alpha"), saved_by_dpjudge(fixture)
    assert position(ours) == position(dpjudge)
    assert orders(ours) == orders(dpjudge)


def test_the_orders_kept_by_rollforward_restore_are_those_in_when_rolled_back(judge):
    master_mail(judge, "ROLLBACK")
    master_mail(judge, "ROLLFORWARD RESTORE")
    assert orders(judge.status("alpha")) == orders(saved_by_dpjudge("alpha.F1902M.orders"))


def test_rolling_back_to_the_phase_itself_keeps_its_snapshot(judge):
    before = (judge.root / "games" / "alpha" / "status.S1902R").read_bytes()
    master_mail(judge, "ROLLBACK S1902R")
    master_mail(judge, "ROLLBACK S1902R RESTORE")
    assert (judge.root / "games" / "alpha" / "status.S1902R").read_bytes() == before
    assert orders(judge.status("alpha")) == orders(saved_by_dpjudge("alpha.S1902R.orders"))
