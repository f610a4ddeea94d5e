"""Who gets what: the game's people, TESTER, press visibility, late notices, events from the game."""
from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from judge import events as ev
from judge import notices
from judge.commands.reply import Reply
from judge.game.press_routing import route
from judge.mailout.audience import Mailing, audience, for_tester, merged
from judge.mailout.game_mail import naming_game
from judge.mailout.mailings import Mailer, render_reply
from judge.mailout.render import Rendered
from judge.phases import parse_phase
from tests.support.mail_cases import DEADLINE, NOW


def to(mailings: list[Mailing]) -> list[tuple[str, ...]]:
    return [m.recipients for m in mailings]


def everyone_in(mailings: list[Mailing]) -> set[str]:
    return {a for m in mailings for a in m.recipients}


def test_people_read_from_the_status(status):
    people = audience(status)
    assert people.master == ("master@example.org",)
    assert people.players["ENGLAND"] == ("ben@example.co.uk",)  # no ADDRESS: the PLAYER line's
    assert people.players["FRANCE"] == ()  # RESIGNED
    assert people.players["GERMANY"] == people.players["AUSTRIA"]  # a dummy under Austria's CONTROL
    assert people.omniscient == ("kibitz@example.org",)
    assert set(people.monitors) == {"MAPPER"}


def test_monitors_get_results_but_not_press(mailer):
    phase = parse_phase(mailer.map, "S1902M")
    results = mailer.for_events([ev.DeadlineSet("jigdy", phase, DEADLINE, "MASTER")])
    assert "mapper@example.org" in everyone_in(results)
    assert "mapper@example.org" not in everyone_in(pressed(mailer, "ITALY", None, "hello"))


@pytest.mark.parametrize(("tester", "expected"), [(None, 3), ("me@example.org", 3), ("", 0)])
def test_tester_games_mail_only_the_tester(tester, expected):
    mails = [Mailing(("a@x",), Rendered("s", str(n))) for n in range(3)]
    out = for_tester(mails, tester)
    assert len(out) == expected
    if tester:
        assert {m.recipients for m in out} == {(tester,)}


def test_tester_applies_to_events(env, status, standard):
    mailer = Mailer(env, replace(status, tester="qa@example.org"), standard)
    mails = mailer.for_events([ev.GameFull("jigdy")])
    assert to(mails) == [("qa@example.org",)]


def test_judgekeeper_alerts_ignore_tester(env, status, standard):
    mailer = Mailer(env, replace(status, tester=""), standard, keeper="keeper@example.org")
    mails = mailer.for_events([notices.GameCreated("jigdy", "master@example.org", "azov", True,
                                                   ("maps@example.org",))])
    assert to(mails) == [("keeper@example.org",)]


def test_identical_mails_in_a_row_are_merged():
    same = Rendered("s", "b")
    assert merged([Mailing(("a",), same), Mailing(("b", "a"), same)]) == [Mailing(("a", "b"), same)]


def pressed(mailer: Mailer, sender: str, to: tuple[str, ...] | None, body: str = "x", **options
            ) -> list[Mailing]:
    """The readers' mails of one message, routed as the PRESS command routes it."""
    routing = route(mailer.status, mailer.rules, sender, to, **options)
    return mailer.for_events([notices.Press("jigdy", "S1902M", sender, routing, (body,))])


def test_grey_press_hides_the_sender_but_not_from_the_omniscient(env, status, standard):
    mailer = Mailer(env, status, standard, rules=frozenset({"GREY_PRESS"}))
    reader, knowing = pressed(mailer, "ITALY", ("TURKEY",), "boo")
    assert reader.rendered.subject == "Diplomacy press (jigdy)"
    assert "Italy" not in reader.rendered.body
    assert knowing.recipients == ("kibitz@example.org",) and "[by Italy]" in knowing.rendered.body


def test_grey_press_to_the_master_alone_is_signed(env, status, standard):
    mailer = Mailer(env, status, standard, rules=frozenset({"GREY_PRESS"}))
    assert pressed(mailer, "ITALY", ("MASTER",))[0].rendered.subject == "Diplomacy press from Italy (jigdy)"


def test_yellow_press_makes_broadcasts_anonymous(env, status, standard):
    mailer = Mailer(env, status, standard, rules=frozenset({"YELLOW_PRESS"}))
    assert pressed(mailer, "ITALY", None)[0].rendered.subject == "Diplomacy press (jigdy)"
    assert pressed(mailer, "ITALY", ("TURKEY",))[0].rendered.subject == "Diplomacy press from Italy (jigdy)"


@pytest.mark.parametrize("options, shown", [
    ({"colour": "WHITE"}, "Diplomacy press from Italy (jigdy)"),
    ({"colour": "GREY"}, "Diplomacy press (jigdy)"),
    ({"claimed_from": "TURKEY"}, "Diplomacy press from Turkey (jigdy)"),
])
def test_white_grey_and_fake_senders_are_what_the_readers_see(env, status, standard, options, shown):
    mailer = Mailer(env, status, standard, rules=frozenset({"GREY_PRESS", "FAKE_PRESS"}))
    reader, knowing = pressed(mailer, "ITALY", ("ENGLAND",), **options)
    assert reader.rendered.subject == shown and reader.recipients == ("ben@example.co.uk",)
    assert "[by Italy]" in knowing.rendered.body


def test_a_fake_broadcast_is_read_as_one_but_reaches_its_true_recipients(env, status, standard):
    mailer = Mailer(env, status, standard, rules=frozenset({"FAKE_PRESS"}))
    reader, knowing = pressed(mailer, "ITALY", ("ENGLAND",), fake_broadcast=True)
    assert reader.recipients == ("ben@example.co.uk",)
    assert reader.rendered.body.startswith("Broadcast message from Italy")
    assert "[sent to England]" in knowing.rendered.body


def test_private_press_reaches_the_master_only_when_eavesdropping(env, status, standard):
    plain = Mailer(env, status, standard, rules=frozenset())
    assert "master@example.org" not in everyone_in(pressed(plain, "ITALY", ("TURKEY",)))
    eavesdrop = Mailer(env, status, standard, rules=frozenset({"EAVESDROP!"}))
    assert "master@example.org" in everyone_in(pressed(eavesdrop, "ITALY", ("TURKEY",)))


def test_press_master_keeps_broadcasts_from_the_master(env, status, standard):
    mailer = Mailer(env, status, standard, rules=frozenset({"PRESS_MASTER"}))
    assert "master@example.org" not in everyone_in(pressed(mailer, "ITALY", None))


def test_a_broadcast_is_not_sent_back_to_its_sender(mailer):
    copies = pressed(mailer, "TURKEY", None)
    assert "gul@example.com.tr" not in everyone_in(copies)
    assert "ben@example.co.uk" in everyone_in(copies)


def test_late_notice_after_the_deadline_hour_skips_the_punctual(mailer):
    event = ev.LateNotice("jigdy", parse_phase(mailer.map, "S1902M"), ("ITALY",), DEADLINE)
    first = everyone_in(mailer.for_events([event], now=NOW))
    later = everyone_in(mailer.for_events([event], now=datetime(2025, 2, 10, 18, 5, tzinfo=UTC)))
    assert "ben@example.co.uk" in first and "ben@example.co.uk" not in later
    assert {"elena@example.it", "master@example.org"} <= later


def test_a_dummy_assignment_mails_nobody(mailer, standard):
    assignments = (ev.Assignment("FRANCE", "POWER#3", None),)
    mails = mailer.for_events([ev.GameStarted("jigdy", standard.begin, None, assignments, {}, {})])
    assert [m.rendered.subject for m in mails] == ["Diplomacy game jigdy starting"]


def test_silent_join(env, status, standard):
    mailer = Mailer(env, status, standard, rules=frozenset({"SILENT_JOIN"}))
    player = status.power("ITALY").player.current
    assert len(mailer.for_events([ev.PlayerJoined("jigdy", "POWER#2", player, 3)])) == 1


def test_an_unknown_event_is_an_error(mailer):
    with pytest.raises(ValueError, match="no mailing"):
        mailer.for_events([object()])


def test_the_reply_goes_to_the_sender_and_copies(env):
    reply = Reply(to=("a@example.org",), subject="x", cc=("b@example.org", "a@example.org"))
    assert reply.recipients == ("a@example.org", "b@example.org")
    assert render_reply(env, reply)[0] == "Re: x"
    assert render_reply(env, replace(reply, subject="RE: x"))[0] == "RE: x"  # no second Re:


def test_every_event_of_a_processed_phase_has_its_mail(env, status, standard):
    """The game's own processing (PROCESS!) of the fixture's spring: results, CD notice and all."""
    from judge.game.schedule import on_process
    new_status, events = on_process(status, standard, NOW, force=True)
    mails = Mailer(env, new_status, standard).for_events(events, now=NOW)
    subjects = [m.rendered.subject for m in mails]
    assert "Diplomacy results jigdy S1902M" in subjects
    assert all(len(line) < 78 for m in mails for line in m.rendered.body.splitlines())


PHANTOM_ORDERS = ({"ITALY": ["A ROM", "F NAP"], "GERMANY": ["A VEN"]},
                  {"ITALY": ["A ROM S A VEN", "F NAP S A APU - ROM"], "GERMANY": ["A VEN H"]})


def phantom_results(env, status, standard, rules: frozenset[str]) -> str:
    from tests.support.adjudications import play
    from tests.support.mail_cases import results_event
    rules = rules | {"FICTIONAL_OK"}
    _, resolution = play(standard, "S1901M", *PHANTOM_ORDERS, rules=rules)
    mailer = Mailer(env, status, standard, judge="TEST", rules=rules)
    [first, *_] = mailer.for_events([results_event(standard, resolution, "S1901M", "F1901M")])
    return first.rendered.body


def test_without_show_phantom_a_support_of_no_unit_is_printed_as_a_hold(env, status, standard):
    body = phantom_results(env, status, standard, frozenset())
    assert "Italy: Army Rome SUPPORT German Army Venice." in body
    assert "Italy: Fleet Naples HOLD." in body and "Apulia" not in body


def test_show_phantom_prints_phantom_orders_and_no_nationality(env, status, standard):
    body = phantom_results(env, status, standard, frozenset({"SHOW_PHANTOM"}))
    assert "Italy: Army Rome SUPPORT Army Venice." in body and "German Army" not in body
    assert "Italy: Fleet Naples SUPPORT Army Apulia -> Rome." in body and "(*void*)" in body


def test_a_proxy_order_reads_as_proxy_to_the_power(env, standard):
    from judge.adjudicator.model import OrderResult
    from judge.mailout import views
    from judge.orders.model import Proxy
    from tests.support.mail_cases import unit
    line = views.order_line(standard, OrderResult(Proxy("FRANCE", unit("A PAR"), "GERMANY")))
    assert (line.kind, line.proxy_to.name) == ("proxy", "GERMANY")
    assert str(env.get_template("_words.txt").module.order_text(line)) == "Army Paris PROXY to Germany."


@pytest.mark.parametrize("subject, named", [
    ("Diplomacy late notice", "Diplomacy late notice (jigdy)"),
    ("Diplomacy results jigdy S1901M", "Diplomacy results jigdy S1901M"),
    ("Diplomacy ERRORS (jigdy)", "Diplomacy ERRORS (jigdy)"),
    ("Diplomacy game jigdy: password checks paused", "Diplomacy game jigdy: password checks paused"),
    ("Diplomacy game 'jigdy' complete", "Diplomacy game 'jigdy' complete (jigdy)"),
])
def test_a_subject_names_its_game_as_dpjudges_do(subject, named):
    assert naming_game(subject, "jigdy") == named


@pytest.mark.parametrize("kind, victors", [("solo", ("FRANCE",)), ("shared", ("FRANCE", "ITALY")),
                                           ("last man", ("FRANCE",)), ("draw", ("FRANCE", "ITALY")),
                                           ("concession", ("FRANCE",))])
def test_an_ending_reached_in_processing_is_told_by_the_results_alone(kind, victors, env, status,
                                                                      standard):
    """DPjudge writes every ending its processing reaches (a victory, shared or not, the last man
    standing, the votes) into the phase's results and mails nothing more; the archive likewise
    keeps the results alone."""
    from tests.support.adjudications import play
    from tests.support.mail_cases import results_event
    _, resolution = play(standard, "F1901M", {"FRANCE": ["A BUR"]}, {"FRANCE": ["A BUR - MUN"]})
    results = results_event(standard, resolution, "F1901M", None, captured={"MUN": "FRANCE"})
    unit = resolution.units["FRANCE"][0] if kind == "last man" else None
    done = ev.GameCompleted("jigdy", parse_phase(standard, "F1901M"), kind, victors, unit=unit)
    mailer = Mailer(env, status, standard, judge="TEST")
    assert [m.rendered.subject for m in mailer.for_events([results, done])] == \
        ["Diplomacy results jigdy F1901M"]
    assert [subject for subject, _ in mailer.archived([results, done])] == \
        ["Diplomacy results jigdy F1901M"]


def test_a_power_in_civil_disorder_is_told_and_the_master_gets_the_cd_notice(env, status, standard):
    from judge.types import Phase
    italy = status.power("ITALY").player.current.email
    mails = Mailer(env, status, standard).for_events(
        [ev.CivilDisorder("jigdy", Phase("SPRING", 1902, "MOVEMENT"), ("ITALY",))])
    by_subject = {m.rendered.subject: m for m in mails}
    told = by_subject["Diplomacy civil disorder (jigdy)"]
    assert told.recipients == (italy,)
    assert "no orders from Italy were on file" in " ".join(told.rendered.body.split())
    assert italy not in by_subject["Diplomacy CD notice (jigdy)"].recipients


@pytest.mark.parametrize("event", [
    notices.StateChanged("jigdy", "ACTIVE"),
    ev.RolledBack("jigdy", "FORMING", forward=False, restored_orders=False, full=False, deadline=None),
])
def test_the_master_who_sent_activate_or_rollback_gets_the_reply_alone(env, status, standard, event):
    master = status.master.email
    alone = Mailer(env, status, standard).for_events([event])
    assert master in everyone_in(alone)
    replied = Mailer(env, status, standard, replied=(master,)).for_events([event])
    assert master not in everyone_in(replied) and everyone_in(replied) == everyone_in(alone) - {master}
