"""A DPjudge game's game-level ADDRESS line is where its Master's mail goes (DPjudge sends there),
and the Master's SET ADDRESS changes it."""
from __future__ import annotations

from judge.commands.auth import master_addresses
from judge.mailout.audience import audience
from tests.support.commands import Judge
from tests.support.dpjudge import GAMES
from tests.support.mail import mail

BOTH = ("gm@example.com", "gm@work.example.org")


def beta(tmp_path) -> Judge:
    judge = Judge(tmp_path / "games")
    judge.store.create("beta", (GAMES / "beta" / "status").read_bytes().decode("latin-1"))
    return judge


def test_the_master_s_mail_goes_to_the_address_line(tmp_path):
    status = beta(tmp_path).status("beta")
    assert status.master.email == "gm@example.com"
    assert audience(status).master == BOTH and master_addresses(status) == BOTH


def test_set_address_by_the_master_changes_the_address_line(tmp_path):
    judge = beta(tmp_path)
    sent = judge.send(mail("gm@example.com", "SIGNON Mbeta secret", "SET ADDRESS gm@new.example.net"))
    assert not sent.failed
    status = judge.status("beta")
    assert status.address == ("gm@new.example.net",) and status.master.email == "gm@new.example.net"
