"""Every way of setting a password stores it hashed (`judge.passwords`); a plain password a DPjudge
status file holds keeps working."""
from __future__ import annotations

from judge.cli import main
from judge.passwords import is_hashed, verify
from judge.status import parse_status
from tests.support.commands import Judge
from tests.support.dpjudge import GAMES
from tests.support.mail import mail


def test_judge_new_stores_the_password_as_a_mail_create_does(tmp_path):
    assert main(["new", "g", "--map", "standard", "--password", "Secret1",
                 "--games", str(tmp_path)]) == 0
    stored = parse_status((tmp_path / "g" / "status").read_text()).password
    assert is_hashed(stored) and verify("Secret1", stored) and "Secret1" not in stored


def test_a_plain_password_from_a_dpjudge_file_signs_the_master_on(tmp_path):
    judge = Judge(tmp_path / "games")
    judge.store.create("alpha", (GAMES / "alpha" / "status").read_bytes().decode("latin-1"))
    assert judge.status("alpha").password == "gmpw"
    sent = judge.send(mail("master@example.com", "SIGNON Malpha gmpw", "LIST alpha"))
    assert not sent.failed
    assert not judge.send(mail("fred@example.com", "SIGNON Falpha pwfred", "LIST alpha")).failed
    wrong = judge.send(mail("master@example.com", "SIGNON Malpha nope", "LIST alpha"))
    assert wrong.failed
