"""The mail as a whole: the first error stops it, one reply, the registry; the handler the daemon
calls; the reply rate limit; `judge mail`."""
from __future__ import annotations

import errno
import io
import os
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from judge.commands.dispatch import REGISTRY, game_signed_on
from judge.notices import Press
from judge.mailin.message import Incoming
from judge.runtime.config import Config, JudgeSection, PathsSection
from judge.events import DeadlineSet, PhaseResults, VoteCast
from judge.runtime.inbox import MailHandler, pipe_mail, with_envelope
from judge.runtime.sender_history import allowance, recent
from tests.support.commands import EML, GAMES, NOW, SETTINGS, eml


def test_the_first_error_stops_the_mail_and_the_rest_is_quoted(vienna):
    sent = vienna.send("stop_on_error.eml")
    assert [o.command for o in sent.reply.outcomes] == ["SIGNON Fvienna ***", "SET NOWAIT",
                                                        "1 order line for FRANCE",
                                                        "SET COLOUR blue"]
    assert sent.reply.unprocessed == ("PRESS TO E", "This is not sent.", "ENDPRESS")
    status = vienna.status("vienna").power("FRANCE")
    assert not status.wait  # done before the error: it stands
    assert status.orders == ("A PAR H",)  # stored when the next command came: it stands too
    assert not sent.events_of(Press)
    assert "not stored" not in sent.text


def test_every_command_has_a_name_and_help():
    for command in REGISTRY.commands:
        assert command.name and command.help, command
    assert len(REGISTRY.help_lines()) == len(REGISTRY.commands)


def test_every_contract_command_is_known():
    known = {word for command in REGISTRY.commands for word in command.call_words()}
    contract = {"SIGNON", "SIGNOFF", "PRESS", "ENDPRESS", "BROADCAST", "ENDBROADCAST", "JOIN",
                "OBSERVE", "RESIGN", "TAKEOVER", "STATUS", "CLEAR", "SET ADDRESS", "SET PASSWORD",
                "SET WAIT", "SET NOWAIT", "SET ABSENCE", "LIST", "SUMMARY", "HISTORY", "MAP",
                "CREATE", "PURGE", "RENAME", "REVEAL", "FORM", "ACTIVATE", "WAIT", "TERMINATE",
                "PROCESS", "PREVIEW", "ROLLBACK", "ROLLFORWARD", "DUMMY", "REVIVE", "OFFICIAL",
                "SET DEADLINE", "SET UNLISTED", "SET LISTED", "MORPH", "VOTE", "NMR", "MONITOR",
                "SET ZONE", "PROCESS!"}
    assert contract <= known


# -- what a door reads ahead ------------------------------------------------------------------
@pytest.mark.parametrize("lines, game", [
    (("SIGNON Fvienna pw", "A PAR H"), "vienna"),
    (("", "  signon france@Vienna pw", "A PAR H"), "vienna"),
    (("SIGNON JK@vienna pw",), "vienna"),
    (("SIGNON Fvienna",), "vienna"),  # refused by SIGNON, against the game it names
    (("LIST vienna", "SIGNON Fvienna pw"), None),  # the games it takes are asked for as it runs
    (("JOIN vienna pw",), None),
    (("SIGNON",), None),
    (("SIGNON F pw",), None),
    ((), None),
])
def test_a_mail_is_read_ahead_the_game_its_first_signon_takes(lines, game):
    incoming = Incoming("anne@example.org", "orders", "<1@example.org>", (), lines)
    assert game_signed_on(incoming, SETTINGS) == game


def test_a_mail_that_is_not_run_has_nothing_read_ahead():
    lines = ("SIGNON Fvienna pw",)
    robot = Incoming("anne@example.org", "orders", "<1@example.org>", (), lines, automatic="bulk")
    own = Incoming(SETTINGS.address, "orders", "<1@example.org>", (), lines)
    assert game_signed_on(robot, SETTINGS) is None and game_signed_on(own, SETTINGS) is None


# -- the reply rate limit -------------------------------------------------------------------
def test_rate_limit_counts_replies_in_the_window():
    window = timedelta(hours=1)
    history = [NOW - timedelta(minutes=m) for m in (1, 2, 3)]
    assert allowance(history, NOW, 4, window, 1) == 1
    assert allowance(history, NOW, 3, window, 1) == 0
    assert allowance([NOW - timedelta(hours=2)] * 10, NOW, 3, window, 1) == 1
    assert allowance(history, NOW, 5, window, 4) == 2


def test_rate_limit_forgets_old_replies():
    assert recent([NOW, NOW - timedelta(hours=3)], NOW, timedelta(hours=1)) == [NOW]


# -- the daemon's handle_mail --------------------------------------------------------------------
@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(judge=JudgeSection(id="TEST", address="judge@example.org",
                                     keeper="keeper@example.net", password="jkpass"),
                  paths=PathsSection(games=tmp_path / "games", maps=tmp_path / "maps",
                                     spool=tmp_path / "spool"))


@pytest.fixture
def handler(config: Config) -> MailHandler:
    handler = MailHandler(config)
    handler.store.create("vienna", (GAMES / "vienna.status").read_text())
    return handler


def test_one_reply_threaded_to_the_mail(handler):
    mails = handler((EML / "orders_status.eml").read_bytes(), NOW)
    reply = mails[0]
    assert reply["To"] == "chloe@example.fr" and reply["Subject"] == "Re: status"
    assert reply["In-Reply-To"] == "<775c9f06fc27ae3f@example.fr>"
    assert reply["Auto-Submitted"] == "auto-replied" and reply["X-Loop"] == "judge@example.org"


def test_a_mail_of_orders_only_is_answered_by_the_order_confirmation_alone(handler):
    """DPjudge mails the sender of orders "Diplomacy orders GAME S1902M" and no other reply: the
    confirmation lists the orders the reply would."""
    mails = handler((EML / "orders.eml").read_bytes(), NOW)
    mine = [m for m in mails if "chloe@example.fr" in m["To"]]
    assert [m["Subject"] for m in mine] == ["Diplomacy orders vienna S1902M"]
    answer = mine[0]
    assert answer["In-Reply-To"] == "<9658403816409e66@example.fr>"
    assert "<9658403816409e66@example.fr>" in answer["References"]
    assert "Current orders for France:" in answer.get_content()


def test_orders_with_another_command_get_the_reply_and_the_confirmation(handler):
    raw = (EML / "orders.eml").read_bytes().replace(b"A SPA - GAS", b"A SPA - GAS\nLIST")
    mails = handler(raw, NOW)
    mine = [m["Subject"] for m in mails if "chloe@example.fr" in m["To"]]
    assert mine == ["Re: orders S1902", "Diplomacy orders vienna S1902M"]  # as DPjudge


def test_the_same_mail_gets_the_same_message_ids(handler):
    first = handler((EML / "signon_initial.eml").read_bytes(), NOW)
    again = handler((EML / "signon_initial.eml").read_bytes(), NOW)
    assert first[0]["Message-ID"] == again[0]["Message-ID"]


def test_press_goes_out_as_a_mail_to_its_reader(handler):
    mails = handler((EML / "press_to_england.eml").read_bytes(), NOW)
    press = [m for m in mails if m["To"] == "ben@example.co.uk"]
    assert len(press) == 1 and "Shall we talk about the Channel?" in press[0].get_content()
    assert all("chloe" not in m["To"] or m["In-Reply-To"] for m in mails)


def test_eavesdrop_sends_private_press_to_the_master(config, handler):
    status = (GAMES / "vienna.status").read_text().replace("RULE CIVIL_DISORDER",
                                                          "RULE CIVIL_DISORDER EAVESDROP")
    handler.store.create("eaves", status.replace("GAME vienna", "GAME eaves"))
    mails = handler(eml("press_to_england.eml", (b"Fvienna", b"Feaves")), NOW)
    assert any("joe@blow.com" in m["To"] for m in mails)
    plain = handler((EML / "press_to_england.eml").read_bytes(), NOW)
    assert not any("joe@blow.com" in m["To"] for m in plain)


def test_press_master_keeps_broadcasts_from_the_master(config, handler):
    status = (GAMES / "vienna.status").read_text().replace("RULE CIVIL_DISORDER",
                                                          "RULE CIVIL_DISORDER PRESS_MASTER")
    handler.store.create("pm", status.replace("GAME vienna", "GAME pm"))
    quiet = handler(eml("press_broadcast.eml", (b"Fvienna", b"Fpm")), NOW)
    assert not any("joe@blow.com" in m["To"] for m in quiet)
    loud = handler((EML / "press_broadcast.eml").read_bytes(), NOW)
    assert any("joe@blow.com" in m["To"] for m in loud)


def test_robots_get_nothing(handler):
    assert handler((EML / "bounce.eml").read_bytes(), NOW) == []
    assert handler((EML / "auto_reply.eml").read_bytes(), NOW) == []


def numbered(n: int) -> bytes:
    """list_all.eml as the n-th of several mails (its own Message-ID)."""
    return eml("list_all.eml", (b"<02dc2e2e701e3bb4@", f"<{n}.02dc2e2e701e3bb4@".encode()))


def test_replies_are_rate_limited_per_sender(handler):
    limit = handler.settings.replies_per_window
    answered = [bool(handler(numbered(n), NOW + timedelta(seconds=n))) for n in range(limit + 2)]
    assert answered == [True] * limit + [False, False]
    assert handler(numbered(limit + 2), NOW + timedelta(hours=2))


def test_a_mail_handled_again_after_a_failure_costs_its_sender_no_more_replies(handler):
    limit = handler.settings.replies_per_window
    for _ in range(limit + 2):  # a full disk made the judge try it again and again
        assert handler(numbered(0), NOW)
    assert [bool(handler(numbered(n), NOW)) for n in range(1, limit + 1)] == \
        [True] * (limit - 1) + [False]


# -- judge mail -----------------------------------------------------------------------------------
def test_judge_mail_stores_processes_and_queues(config, handler):
    raw = b"From chloe@example.fr Sun Feb  9 12:00:00 2025\n" + (EML / "signon_initial.eml") \
        .read_bytes().split(b"\r\n", 1)[1]
    assert pipe_mail(config, raw, None, NOW) == 0
    done = list((config.paths.spool / "inbox" / "done").iterdir())
    assert len(done) == 1 and done[0].read_bytes().startswith(b"Return-Path: <chloe@example.fr>")
    queued = [p for p in (config.paths.spool / "outbox").iterdir() if p.suffix == ".eml"]
    assert len(queued) == 1
    reply = message_from_bytes(queued[0].read_bytes(), policy=policy.default)
    assert reply["To"] == "chloe@example.fr"


def test_judge_mail_exits_75_when_the_mail_cannot_be_stored(config):
    config.paths.spool.parent.mkdir(parents=True, exist_ok=True)
    config.paths.spool.write_text("a file where the spool folder should be")
    errors: list[str] = []
    assert pipe_mail(config, b"From: x@y.org\n\nLIST\n", None, NOW, err=errors.append) == 75
    assert "cannot store the mail" in errors[0]


def test_judge_mail_keeps_a_mail_it_could_not_process(config):
    def broken(raw: bytes, now: datetime) -> list:
        raise RuntimeError("boom")
    assert pipe_mail(config, b"From: x@y.org\n\nLIST\n", None, NOW, handler=broken,
                     err=lambda text: None) == 0
    waiting = [p for p in (config.paths.spool / "inbox").iterdir() if p.suffix == ".eml"]
    assert len(waiting) == 1 and "-1-" in waiting[0].name


def test_judge_mail_leaves_a_mail_the_full_disk_stopped_uncounted(config):
    def full(raw: bytes, now: datetime) -> list:
        raise OSError(errno.ENOSPC, "No space left on device")
    assert pipe_mail(config, b"From: x@y.org\n\nLIST\n", None, NOW, handler=full,
                     err=lambda text: None) == 0
    waiting = [p for p in (config.paths.spool / "inbox").iterdir() if p.suffix == ".eml"]
    assert len(waiting) == 1 and "-0-" in waiting[0].name  # never on its way to bad/ for that


@pytest.mark.parametrize("error", [OSError(errno.ENOSPC, "No space left on device"),
                                   MemoryError()])
def test_judge_mail_exits_75_leaving_nothing_when_the_mail_cannot_be_stored(config, monkeypatch,
                                                                           error):
    def full(fd: int) -> None:
        raise error
    monkeypatch.setattr(os, "fsync", full)
    assert pipe_mail(config, b"From: x@y.org\n\nLIST\n", None, NOW, err=lambda text: None) == 75
    monkeypatch.undo()
    inbox = config.paths.spool / "inbox"
    assert [p.name for p in inbox.iterdir() if p.is_file() and p.name != ".lock"] == []


def test_envelope_from_the_mbox_line_or_the_sender_option():
    assert with_envelope(b"From a@b.org Sun Feb  9 12:00:00 2025\nFrom: c@d\n\nx", None) \
        .startswith(b"Return-Path: <a@b.org>\r\nFrom: c@d")
    assert with_envelope(b"From: c@d\n\nx", "MAILER-DAEMON").startswith(b"Return-Path: <>")
    kept = b"Return-Path: <z@y>\nFrom: c@d\n\nx"
    assert with_envelope(kept, "z@y") == kept and with_envelope(kept, None) == kept
    assert with_envelope(kept, "other@x") == b"Return-Path: <other@x>\r\n" + kept  # the MTA's word


def test_the_cli_reads_standard_input(config, monkeypatch, tmp_path):
    from judge import cli
    toml = tmp_path / "judge.toml"
    toml.write_text(f'[judge]\nid = "TEST"\naddress = "judge@example.org"\n'
                    f'[paths]\ngames = "{config.paths.games}"\nspool = "{config.paths.spool}"\n')
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"From: x@y.org\n\nLIST\n")))
    assert cli.main(["mail", "--config", str(toml), "--sender", "x@y.org"]) == 0
    assert list((config.paths.spool / "outbox").glob("*.eml"))


def test_the_cli_asks_the_mta_to_retry_on_a_bad_configuration(tmp_path, monkeypatch):
    from judge import cli
    toml = tmp_path / "judge.toml"
    toml.write_text("[nonsense]\n")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"From: x@y.org\n\nLIST\n")))
    assert cli.main(["mail", "--config", str(toml)]) == 75


def test_now_is_aware():
    assert NOW.tzinfo is UTC


# -- what the judge does itself after a mail ----------------------------------------------------------
def test_the_last_orders_in_set_delay_one(judge):
    judge.add("fall")
    assert not judge.send("orders_retreat.eml").failed
    assert judge.status("fall").delay == 1


def test_real_time_processes_when_the_last_orders_come_in(judge):
    judge.add("fall", rules=("REAL_TIME",))
    sent = judge.send("orders_retreat.eml")
    assert sent.events_of(PhaseResults) and str(judge.status("fall").phase) != "FALL 1902 RETREATS"
    assert (judge.store.root / "fall" / "status.F1902R").read_text().startswith("GAME fall")


def test_a_game_back_in_play_gets_a_fresh_deadline(vienna):
    sent = vienna.send("takeover.eml")
    fresh = [e for e in sent.events_of(DeadlineSet) if e.by == "judge"]
    assert fresh and vienna.status("vienna").need == ()


# -- the commands of a mail run in the order written -----------------------------------------------
def test_refused_orders_stop_the_mail_and_a_vote_after_them_is_not_cast(vienna):
    sent = vienna.send(eml("orders_errors.eml", (b"A SPA - GAS\r\n", b"A SPA - GAS\r\nVOTE 6WAY\r\n")))
    assert [o.command for o in sent.reply.outcomes] == ["SIGNON Fvienna ***",
                                                        "4 order lines for FRANCE"]
    assert sent.reply.unprocessed == ("VOTE 6WAY",)
    assert vienna.status("vienna").power("FRANCE").vote is None
    assert not sent.events_of(VoteCast)


def test_status_after_orders_shows_them_in_the_order_written(vienna):
    sent = vienna.send(eml("orders_status.eml", (b"STATUS\r\n", b"A PAR - BUR\r\nSTATUS\r\n")))
    assert [o.command for o in sent.reply.outcomes] == ["SIGNON Fvienna ***",
                                                        "1 order line for FRANCE", "STATUS"]
    assert sent.outcome("STATUS").quoted[:2] == ("FRANCE:", "  A PAR - BUR")


def test_process_is_echoed_once_and_runs_in_its_place(vienna):
    sent = vienna.send("master_process_force.eml")
    assert sent.text.count("> PROCESS") == 1 and "Not done" not in sent.text
    assert "SPRING 1902 MOVEMENT was processed." in sent.outcome("PROCESS").lines[0]


def test_a_resignation_shows_no_line_nobody_wrote(vienna):
    sent = vienna.send("resign.eml")
    assert [o.command for o in sent.reply.outcomes] == ["RESIGN Gvienna ***", "BROADCAST", ""]
    assert "> RESIGN GERMANY" not in sent.text
    assert "You have resigned GERMANY" in sent.text


# -- one mail a person for each thing a mail does ----------------------------------------------------
def mails_to(mails, address: str) -> list:
    return [m for m in mails if m["To"] == address]


def later_deadline(handler: MailHandler) -> None:
    """vienna with a deadline later than the one a game back in play would get at NOW."""
    text = (GAMES / "vienna.status").read_text().replace("DEADLINE 202502101800",
                                                         "DEADLINE 202502201800")
    (handler.store.root / "vienna" / "status").write_text(text)


@pytest.mark.parametrize("mail, sender", [("takeover.eml", "nora@example.net"),
                                          ("vote_solo.eml", "chloe@example.fr"),
                                          ("resign.eml", "dieter@example.de")])
def test_the_sender_gets_the_reply_and_no_notice_of_the_same(handler, mail, sender):
    later_deadline(handler)
    mine = mails_to(handler((EML / mail).read_bytes(), NOW), sender)
    assert len(mine) == 1 and mine[0]["Subject"].startswith("Re:"), [m["Subject"] for m in mine]


def test_a_join_is_answered_once_and_threaded(handler):
    handler.store.create("forming", (GAMES / "forming.status").read_text())
    mine = mails_to(handler((EML / "join.eml").read_bytes(), NOW), "nora@example.net")
    assert len(mine) == 1 and mine[0]["In-Reply-To"] and mine[0]["References"]


def test_a_takeover_that_moves_no_deadline_sends_no_deadline_notice(handler):
    later_deadline(handler)
    mails = handler((EML / "takeover.eml").read_bytes(), NOW)
    assert not [m for m in mails if "deadline" in m["Subject"].lower()]


def test_a_resignation_is_announced_to_the_other_players(handler):
    mails = handler((EML / "resign.eml").read_bytes(), NOW)
    notices = [m for m in mails if m["Subject"] == "Diplomacy resignation notice (vienna)"]
    assert "chloe@example.fr" in {m["To"] for m in notices}
    told = mails_to(notices, "chloe@example.fr")[0].get_content()
    assert "Germany has resigned from game 'vienna'." in told and "@" not in told.split("(")[0]


# -- the order confirmation ---------------------------------------------------------------------------
def with_rule(handler: MailHandler, line: str) -> None:
    text = (GAMES / "vienna.status").read_text().replace("RULE !BROADCAST_ORDERS", line)
    (handler.store.root / "vienna" / "status").write_text(text)


def confirmations(mails) -> dict[str, object]:
    return {m["To"]: m for m in mails if m["Subject"] == "Diplomacy orders vienna S1902M"}


def test_stored_orders_are_confirmed_to_the_player_in_the_thread_of_the_mail(handler):
    sent = confirmations(handler((EML / "orders.eml").read_bytes(), NOW))
    assert set(sent) == {"chloe@example.fr"}
    mail = sent["chloe@example.fr"]
    assert mail["In-Reply-To"] == "<9658403816409e66@example.fr>"
    body = mail.get_content()
    # in the order of DPjudge's (Python 2) dictionary of the orders by unit
    assert "Current orders for France:\n\nA PAR - BUR\nF MAO - POR\nA BUR - MUN\nF BRE - ENG\nA SPA - GAS\n" in body
    assert body.endswith("End of orders.\n")


def test_always_confirm_copies_the_master(handler):
    with_rule(handler, "RULE ALWAYS_CONFIRM")
    assert set(confirmations(handler((EML / "orders.eml").read_bytes(), NOW))) == \
        {"chloe@example.fr", "joe@blow.com"}


def test_broadcast_orders_confirms_to_everyone(handler):
    with_rule(handler, "RULE BROADCAST_ORDERS")
    sent = confirmations(handler((EML / "orders.eml").read_bytes(), NOW))
    assert {"chloe@example.fr", "joe@blow.com", "ben@example.co.uk", "kibitz@example.org"} <= set(sent)


def test_broadcast_orders_in_a_blind_game_reveal_no_position(handler):
    """Orders mailed to everyone would show each power where the others' units stand: in a BLIND
    game they are confirmed as under ALWAYS_CONFIRM (DPjudge's mail path never broadcasts them)."""
    with_rule(handler, "RULE BLIND\nRULE BROADCAST_ORDERS")
    sent = confirmations(handler((EML / "orders.eml").read_bytes(), NOW))
    assert set(sent) == {"chloe@example.fr", "joe@blow.com"}


def test_refused_orders_are_not_confirmed(handler):
    assert not confirmations(handler((EML / "orders_errors.eml").read_bytes(), NOW))


def test_a_malformed_message_id_is_copied_onto_no_mail(handler):
    raw = eml("orders.eml", (b"<9658403816409e66@example.fr>", b"<bad id\"@example.fr>"))
    mails = handler(raw, NOW)
    assert len(mails) == 1 and not [m for m in mails if m["In-Reply-To"] or m["References"]]
