"""A form is the mail it stands for: the same orders, press or vote sent by web and by mail leave
the same status file, the same kept press and the same mails in the outbox (Message-IDs and dates aside, which are
made from the incoming mail's bytes and the clock, and a multipart mail's boundary, drawn at random)."""
from __future__ import annotations

import shutil
from email import message_from_bytes, policy

import pytest

from judge.runtime.inbox import MailHandler
from judge.runtime.press_file import PRESS_FILE
from judge.runtime.spool import open_spools, outbox_entries, queue_mails

from .conftest import (
    MASTER,
    Clock,
    form,
    judge_config,
    outbox_of,
    pages,
    password_of,
    raw_mail,
    sign_on,
    start_game,
)

UNSTABLE = ("Message-ID", "Date", "In-Reply-To", "References", "Content-Type")


def outbox_said(config) -> list[tuple[tuple[str, str], ...]]:
    """Each mail in the outbox as its headers and text, leaving out what each mail makes new."""
    said = []
    for raw in outbox_of(config):
        mail = message_from_bytes(raw, policy=policy.default)
        headers = tuple((k, str(v)) for k, v in mail.items() if k not in UNSTABLE)
        body = mail.get_body(("plain",))
        # a multipart mail's boundary is drawn at random: its parts are compared instead
        parts = tuple((p.get_content_type(), p.get_filename(), p.get_content())
                      for p in mail.iter_attachments())
        said.append((*headers, ("type", mail.get_content_type()), *parts,
                     ("body", body.get_content() if body is not None else "")))
    return sorted(said)


def kept(config, file: str) -> str | None:
    path = config.paths.games / "quiet" / file
    return path.read_text() if path.exists() else None


@pytest.fixture
def two_judges(tmp_path):
    """Two judges with the same game in the same state: one played by web, one by mail."""
    first = judge_config(tmp_path / "web")
    start_game(MailHandler(first))
    shutil.copytree(tmp_path / "web", tmp_path / "mail")
    return first, judge_config(tmp_path / "mail")


@pytest.mark.parametrize("path, fields, lines", [
    ("/do/orders", {"orders": "A PAR-BUR\nA MAR-SPA\nF BRE-MAO"},
     ["A PAR-BUR", "A MAR-SPA", "F BRE-MAO"]),
    ("/do/orders", {"orders": "A PAR-BUR\nA MAR-XYZ"}, ["A PAR-BUR", "A MAR-XYZ"]),
    ("/do/press", {"to": "ENGLAND", "text": "Shall we?"},
     ["PRESS TO ENGLAND", "Shall we?", "ENDPRESS"]),
    ("/do/vote", {"vote": "SOLO"}, ["VOTE SOLO"]),
    ("/do/address", {"address": "elsewhere@example.org"}, ["SET ADDRESS elsewhere@example.org"]),
])
def test_a_form_leaves_what_its_mail_leaves(two_judges, path, fields, lines):
    by_web, by_mail = two_judges
    clock = Clock()
    with pages(by_web, MailHandler(by_web), clock) as client:
        sign_on(client, by_web)
        form(client, path, **fields)
    address = (by_mail.paths.games / "quiet" / "status").read_text() \
        .split("POWER FRANCE\n")[1].split("ADDRESS ")[1].split()[0]
    body = "\n".join([f"SIGNON FRANCE@quiet {password_of(by_mail, 'FRANCE')}", *lines, "SIGNOFF"])
    mails = MailHandler(by_mail)(raw_mail(address, body, "same"), clock())
    queue_mails(open_spools(by_mail).outbox, outbox_entries(mails))
    status = [(c.paths.games / "quiet" / "status").read_text() for c in (by_web, by_mail)]
    assert status[0] == status[1]
    assert outbox_said(by_web) == outbox_said(by_mail)
    assert outbox_said(by_web)
    assert kept(by_web, PRESS_FILE) == kept(by_mail, PRESS_FILE)
    assert (kept(by_web, PRESS_FILE) is not None) == (path == "/do/press")


@pytest.mark.parametrize("path, fields, lines", [
    ("/do/state", {"state": "waiting"}, ["WAIT"]),
    ("/do/state", {"state": "terminated"}, ["TERMINATE"]),
    ("/do/morph", {"lines": "VICTORY 17"}, ["MORPH", "VICTORY 17", "END MORPH"]),
    ("/do/master", {"action": "PREVIEW"}, ["PREVIEW"]),
    ("/do/master", {"action": "PROCESS!"}, ["PROCESS!"]),
])
def test_a_masters_form_leaves_what_its_mail_leaves(two_judges, path, fields, lines):
    by_web, by_mail = two_judges
    clock = Clock()
    with pages(by_web, MailHandler(by_web), clock) as client:
        sign_on(client, by_web, power="MASTER", password="masterpw")
        form(client, path, **fields)
    body = "\n".join(["SIGNON MASTER@quiet masterpw", *lines, "SIGNOFF"])
    mails = MailHandler(by_mail)(raw_mail(MASTER, body, "same"), clock())
    queue_mails(open_spools(by_mail).outbox, outbox_entries(mails))
    for file in ("status", "state"):
        assert kept(by_web, file) == kept(by_mail, file)
    assert outbox_said(by_web) == outbox_said(by_mail)
