"""One broken game breaks nothing else and shows nothing of itself: LIST leaves it out, a command
naming it is refused without a word of its file (its status may be a symlink to any file of the
host), a status file that is not UTF-8 is read as latin-1 (DPjudge's), a line it cannot read is an
error with its file and line, and its Master and the judgekeeper are told by the cycle, once."""
from __future__ import annotations

from datetime import timedelta

import pytest

from judge.runtime.inbox import MailHandler
from tests.support.cycle import KEEPER, MASTER, Judge as CycleJudge, recipients
from tests.support.games import NOW as GAME_NOW
from tests.support.mail import mail

pytestmark = pytest.mark.security

STRANGER = "mallory@example.net"
SECRET = "GAME wrecked\nPHASE FORMING\nMAP standard\nPASSWORD hunter2\nroot:x:0:0:TOPSECRET\n"


def shows_nothing_of(text: str) -> bool:
    lowered = text.lower()
    return not any(word in lowered for word in ("topsecret", "hunter2", "root:x", "/status"))


@pytest.fixture
def wrecked(vienna):
    """The vienna judge with a forming game and a game whose status file is broken."""
    vienna.add("forming")
    folder = vienna.store.root / "wrecked"
    folder.mkdir()
    (folder / "status").write_text(SECRET)
    return vienna


def test_list_leaves_a_broken_game_out_and_lists_the_others(wrecked):
    sent = wrecked.send(mail(STRANGER, "LIST"))
    assert not sent.failed and "forming" in sent.text
    assert "wrecked" not in sent.text and shows_nothing_of(sent.text)


@pytest.mark.parametrize("line", ["LIST wrecked", "SUMMARY wrecked", "HISTORY wrecked",
                                  "SIGNON Mwrecked hunter2", "JOIN wrecked pw", "OBSERVE me pw"])
def test_a_broken_game_named_in_a_command_shows_nothing_of_its_file(wrecked, line):
    if line.startswith("OBSERVE"):
        line = "SIGNON Mwrecked x\nOBSERVE me pw"
    sent = wrecked.send(mail(STRANGER, *line.split("\n")))
    assert sent.failed and shows_nothing_of(sent.text)


def test_a_status_symlinked_to_a_file_outside_shows_nothing_of_that_file(vienna, tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text(SECRET.replace("wrecked", "linked"))
    vienna.add("forming")
    (vienna.store.root / "linked").mkdir()
    (vienna.store.root / "linked" / "status").symlink_to(outside)
    listed = vienna.send(mail(STRANGER, "LIST"))
    assert not listed.failed and "forming" in listed.text and shows_nothing_of(listed.text)
    for line in ("LIST linked", "SIGNON Mlinked hunter2"):
        sent = vienna.send(mail(STRANGER, line))
        assert sent.failed and shows_nothing_of(sent.text)


def test_a_status_file_that_is_not_utf8_is_read_as_latin1(vienna):
    path = vienna.store.root / "vienna" / "status"
    path.write_bytes(path.read_bytes().replace(b"\nDESC\n", b"\nDESC\ncaf\xe9\n", 1))
    with vienna.store.locked("vienna") as game:
        assert "DESC\ncafé\n" in game.read_status()
    sent = vienna.send(mail(STRANGER, "LIST vienna"))
    assert not sent.failed


@pytest.fixture
def cycling(tmp_path) -> CycleJudge:
    return CycleJudge(tmp_path)


def test_the_cycle_reports_a_latin1_line_it_cannot_read_with_its_line(cycling):
    cycling.start("t", ["TIMING NEXT 1D"], GAME_NOW)
    path = cycling.root / "games" / "t" / "status"
    path.write_bytes(path.read_bytes().replace(b"GAME t\n", b"GAME t\n\xff\n", 1))
    code, lines = cycling.check(GAME_NOW + timedelta(minutes=20))
    assert code == 0 and lines[0] == "t: broken status file: t/status:2: unknown game directive 'Ÿ'"


def test_the_master_and_the_keeper_are_told_once_and_the_stranger_never(cycling):
    cycling.start("bad", ["TIMING NEXT 1D"], GAME_NOW)
    path = cycling.root / "games" / "bad" / "status"
    path.write_text(path.read_text().replace("GAME bad\n", "GAME bad\nroot:x:0:0:TOPSECRET\n"))
    cycling.take_outbox()
    handler = MailHandler(cycling.config)
    told = []
    for n in range(3):
        now = GAME_NOW + timedelta(minutes=20 * (n + 1))
        cycling.check(now)
        for line in ("LIST", "LIST bad"):
            replies = handler(mail(STRANGER, line, number=n), now)
            assert all(shows_nothing_of(m.get_content()) for m in replies)
        told += [m for m in cycling.take_outbox() if "ERRORS" in str(m["Subject"])]
    assert sorted(sorted(recipients(m)) for m in told) == sorted([[KEEPER], [MASTER]])  # one each
    assert all("TOPSECRET" in m.get_content() for m in told)  # they get the problems


def test_a_symlinked_status_never_mails_an_address_found_in_the_file_it_points_to(cycling):
    outside = cycling.root / "notes.txt"
    outside.write_text("GAME linked\nPHASE FORMING\nMASTER #1|victim@evil.test|V\nroot:TOPSECRET\n")
    (cycling.root / "games" / "linked").mkdir(parents=True)
    (cycling.root / "games" / "linked" / "status").symlink_to(outside)
    code, lines = cycling.check(GAME_NOW)
    assert lines[0].startswith("linked: broken status file: linked/status is a symlink: refused")
    mails = cycling.take_outbox()
    assert [recipients(m) for m in mails] == [{KEEPER}]
    assert "TOPSECRET" not in mails[0].get_content()
