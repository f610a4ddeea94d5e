"""A game played through 1903 by DPjudge and by this judge: each phase's results mail, compared whole.

`dpjudge/<PHASE>.status` is the status file DPjudge processed (orders on file), `<PHASE>.mail` the
results mail it sent (its subject, then its body). The judge processes the same file; the mails must
be equal once the next deadline is written alike: DPjudge kept the deadline on file, the judge sets
the next one from the time it processes. The `:: Deadline:` line, the deadline the phase had, is
compared as it stands."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from itertools import groupby
from pathlib import Path

import pytest

from judge.events import LateNotice, PhaseResults
from judge.game.process import process_phase
from judge.game.schedule import on_tick
from judge.mailout.mailings import Mailer
from judge.status import parse_status

HERE = Path(__file__).parent / "dpjudge"
PHASES = sorted(p.stem for p in HERE.glob("*.status"))
NOW = datetime(2026, 11, 24, 8, 18, tzinfo=UTC)
URL = "http://dpj.example.org"
_NEXT_DEADLINE = re.compile(r"^(The deadline for orders will be) [A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ "
                            r"\d{4} \d\d:\d\d [A-Z]+\.$", re.M)


def normalised(text: str) -> str:
    """The next deadline as DATE, and the blank lines at the end as one line's end: every line
    else compared as it is (DPjudge's `:: Judge:` line ends with a blank, and so must the judge's)."""
    return _NEXT_DEADLINE.sub(r"\1 DATE.", text).rstrip("\n") + "\n"


@pytest.mark.parametrize("phase", PHASES)
def test_results_mail_equals_dpjudges(phase, env, standard):
    status = parse_status((HERE / f"{phase}.status").read_text())
    after, events = process_phase(status, standard, NOW)
    mailer = Mailer(env, after, standard, judge="TEST", url=URL)
    mail = mailer.for_events([e for e in events if isinstance(e, PhaseResults)], NOW)[0].rendered
    expected = (HERE / f"{phase}.mail").read_text()
    subject, _, body = expected.partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert normalised(mail.body) == normalised(body)


LATE = HERE / "late"


@pytest.mark.parametrize("reader", ["master", "italy"])
def test_late_notice_equals_dpjudges(reader, env, standard):
    """The deadline passed without Italy's and Turkey's orders (GRACE 24H, CIVIL_DISORDER): the
    Master's `late notice` and Italy's `deadline missed`, as DPjudge's deadline check mailed them."""
    status = parse_status((LATE / "status").read_text())
    now = datetime(2026, 11, 24, 8, 32, tzinfo=UTC)
    after, events = on_tick(status, standard, now)
    mails = Mailer(env, after, standard, judge="TEST", url=URL).for_events(
        [e for e in events if isinstance(e, LateNotice)], now)
    mail = next(m.rendered for m in mails if f"{reader}@example.org" in m.recipients)
    subject, _, body = (LATE / f"{reader}.mail").read_text().partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert normalised(mail.body) == normalised(body)


def test_the_game_played_through_on_this_judge_mails_what_dpjudge_mailed(env, standard):
    """The judge plays the game itself from the first status, each phase's orders put on its own
    status file: the unit order it keeps (DPjudge's: units that moved go last) gives the same
    results mails."""
    status = parse_status((HERE / "S1901M.status").read_text())
    for phase in sorted(PHASES, key=lambda p: (p[1:5], "SFW".index(p[0]), "MRA".index(p[-1]))):
        given = parse_status((HERE / f"{phase}.status").read_text())
        assert status.phase == given.phase
        for block in given.powers:
            status = status.with_power(replace(status.power(block.name), orders=block.orders,
                                               adjustments=block.adjustments))
        status, events = process_phase(status, standard, NOW)
        mail = Mailer(env, status, standard, judge="TEST", url=URL).for_events(
            [e for e in events if isinstance(e, PhaseResults)], NOW)[0].rendered
        body = (HERE / f"{phase}.mail").read_text().partition("\n")[2]
        assert normalised(mail.body) == normalised(body), phase


def assert_dpjudges_text_first(ours: str, theirs: str) -> None:
    """DPjudge's text whole; anything the judge adds comes after it, past a blank line."""
    assert ours[:len(theirs)] == theirs
    assert ours == theirs or ours[len(theirs):].startswith("\n")


START = HERE / "start"
_DEADLINE_LINE = re.compile(r"^(:: Deadline: \S+) .*$", re.M)
_FIRST_DEADLINE = re.compile(
    r"^(The (?:first |pending |new )?deadline (?:for the first orders is|will be|is)) .*\.$", re.M)


def without_dates(text: str) -> str:
    """The deadline DPjudge set is its own clock's; the text around it is compared."""
    return normalised(_FIRST_DEADLINE.sub(r"\1 DATE.", _DEADLINE_LINE.sub(r"\1 DATE", text)))


@pytest.mark.parametrize("kind, subject_word", [("start", "starting"), ("assignment", "assignment")])
def test_start_mails_equal_dpjudges(kind, subject_word, env, standard):
    """The Master's ACTIVATE started the forming game: everyone was mailed the starting position
    (its units in the map's order, as the status file lists them), each player his power."""
    from judge.game.start import start_game
    status = parse_status((START / "status").read_text())
    after, events = start_game(status, standard, NOW)
    mails = Mailer(env, after, standard, judge="TEST", url=URL).for_events(events, NOW)
    mail = next(m.rendered for m in mails
                if subject_word in m.rendered.subject and "austria@example.org" in m.recipients)
    subject, _, body = (START / f"{kind}.mail").read_text().partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert_dpjudges_text_first(without_dates(mail.body), without_dates(body))


def test_reminder_equals_dpjudges(env, standard):
    """Four hours before the deadline (WARN's default) Italy had not ordered: DPjudge's check
    reminded Italy (the game recorded as `remind`, its deadline then)."""
    status = replace(parse_status((LATE / "status").read_text()), name="remind")
    now = datetime(2026, 11, 24, 4, 5, tzinfo=UTC)
    after, events = on_tick(status, standard, now)
    mails = Mailer(env, after, standard, judge="TEST", url=URL).for_events(events, now)
    mail = next(m.rendered for m in mails if "italy@example.org" in m.recipients)
    subject, _, body = (LATE / "reminder.mail").read_text().partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert_dpjudges_text_first(without_dates(mail.body), without_dates(body))


@pytest.mark.parametrize("command, recorded", [
    ("SET DEADLINE 30 NOV 2026 18:00", "deadline_changed"), ("SET ZONE Europe/Paris", "zone_changed")])
def test_deadline_notices_equal_dpjudges(command, recorded, tmp_path, env, standard):
    """The Master's SET DEADLINE and SET ZONE: DPjudge told every player (and the Master) so."""
    from tests.support.commands import Judge
    judge = Judge(tmp_path)
    judge.store.create("remind", (LATE / "status").read_text().replace("GAME golden", "GAME remind"))
    sent = judge.send(b"From: master@example.org\nTo: judge@example.org\nSubject: dl\n\n"
                      b"SIGNON Mremind m4ster\n" + command.encode() + b"\nSIGNOFF\n", now=NOW)
    mails = Mailer(env, judge.status("remind"), standard, judge="TEST", url=URL).for_events(sent.events, NOW)
    mail = next(m.rendered for m in mails if "austria@example.org" in m.recipients)
    subject, _, body = (LATE / f"{recorded}.mail").read_text().partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert_dpjudges_text_first(without_dates(mail.body), without_dates(body))


ENDED = HERE / "ended"


def test_a_draw_voted_by_the_years_end_is_told_in_the_results_as_dpjudge_does(env, standard):
    """Every power had voted 7WAY when Fall 1901 was processed: DPjudge wrote the draw after the
    adjustment table of the results and sent no other mail. (DPjudge puts a blank line after each
    line of the wrapped sentence, a slip of its own: the judge writes the sentence as wrapped.)"""
    status = parse_status((ENDED / "drawn.status").read_text())
    after, events = process_phase(status, standard, NOW)
    mails = Mailer(env, after, standard, judge="TEST", url=URL).for_events(events, NOW)
    assert [m.rendered.subject for m in mails] == ["Diplomacy results drawn F1901M"]
    subject, _, body = (ENDED / "drawn.mail").read_text().partition("\n")
    body = body.replace("Austria, England, France,\n\nGermany", "Austria, England, France,\nGermany")
    assert normalised(mails[0].rendered.body) == normalised(body)


@pytest.mark.parametrize("recorded, votes", [
    ("agreed", {"AUSTRIA": "7WAY", "ENGLAND": "7WAY", "FRANCE": "7WAY", "GERMANY": "7WAY",
                "ITALY": "7WAY", "RUSSIA": "7WAY", "TURKEY": "7WAY"}),
    ("conceded2", {"AUSTRIA": "LOSS", "ENGLAND": "LOSS", "FRANCE": "LOSS", "GERMANY": "LOSS",
                  "ITALY": "SOLO", "RUSSIA": "LOSS", "TURKEY": "LOSS"})])
def test_the_end_by_agreement_between_phases_equals_dpjudges(recorded, votes, env, standard):
    """The votes agreed with no phase to report: DPjudge's `Diplomacy game '...' complete` mail
    (recorded from its endByAgreement, DIAS and a concession to Italy)."""
    from judge.game.victory import cast_vote
    from judge.status.model import Vote, VoteKind
    text = (LATE / "status").read_text().replace("GAME golden", f"GAME {recorded}")
    status = parse_status(text.replace("DEADLINE 202611240800", "DEADLINE 202612010800"))
    for power, vote in votes.items():
        kind, size = (VoteKind.DRAW, int(vote[0])) if vote.endswith("WAY") else (VoteKind(vote), 0)
        status, events = cast_vote(status, standard, power, Vote(kind, size), NOW)
    mails = Mailer(env, status, standard, judge="TEST", url=URL).for_events(events, NOW)
    mail = next(m.rendered for m in mails if "austria@example.org" in m.recipients
                and "complete" in m.rendered.subject)
    subject, _, body = (ENDED / f"{recorded}.mail").read_text().partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert normalised(mail.body) == normalised(body)


@pytest.mark.parametrize("reader, recorded", [("austria", "dismissal"), ("italy", "resigned_italy"),
                                              ("austria", "resigned_austria")])
def test_dismissal_equals_dpjudges(reader, recorded, env, standard):
    """No CIVIL_DISORDER, the grace of 24 hours over: DPjudge's check dismissed Italy and Turkey,
    told everyone so, and mailed the resignation notices."""
    text = (LATE / "status").read_text().replace("GAME golden", "GAME dism")
    text = text.replace("RULE CIVIL_DISORDER\n", "").replace("DEADLINE 202611240800", "DEADLINE 202611230355")
    now = datetime(2026, 11, 24, 9, 56, tzinfo=UTC)
    after, events = on_tick(parse_status(text), standard, now)
    mails = Mailer(env, after, standard, judge="TEST", url=URL).for_events(events, now)
    subject, _, body = (LATE / f"{recorded}.mail").read_text().partition("\n")
    mine = [m.rendered for m in mails if f"{reader}@example.org" in m.recipients]
    assert subject in [f"Subject: {m.subject}" for m in mine]
    mail = next(m for m in mine if f"Subject: {m.subject}" == subject)
    assert_dpjudges_text_first(normalised(mail.body), normalised(body))


def _orders_sorted(text: str) -> str:
    """The order lines in one order: DPjudge lists a power's orders in its dictionary's order."""
    head, _, rest = text.partition("Current orders for Italy:\n\n")
    orders, _, tail = rest.partition("\n\nEnd of orders.")
    return f"{head}Current orders for Italy:\n\n" + "\n".join(sorted(orders.split("\n"))) + \
        "\n\nEnd of orders." + tail


def test_order_confirmation_equals_dpjudges(tmp_path, env, standard):
    """Italy mailed its orders: DPjudge answered with the order confirmation alone."""
    from tests.support.commands import Judge
    judge = Judge(tmp_path)
    text = (LATE / "status").read_text().replace("GAME golden", "GAME ords2")
    judge.store.create("ords2", text.replace("DEADLINE 202611240800", "DEADLINE 202612010800"))
    sent = judge.send(b"From: italy@example.org\nTo: judge@example.org\nSubject: my orders\n\n"
                      b"SIGNON Iords2 pi\nF NAP - ION\nA ROM - APU\nA VEN - TYR\nSIGNOFF\n", now=NOW)
    assert sent.reply is not None and sent.reply.said_by_confirmation
    mails = Mailer(env, judge.status("ords2"), standard, judge="TEST", url=URL,
                   replied=("italy@example.org",)).for_events(sent.events, NOW)
    [mail] = [m.rendered for m in mails if "italy@example.org" in m.recipients]
    subject, _, body = (LATE / "orders.mail").read_text().partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert _orders_sorted(normalised(mail.body)) == _orders_sorted(normalised(body))


def test_a_solo_is_told_by_the_results_alone_as_dpjudge_does(env, standard):
    """France took its eighteenth centre in Fall 1901: DPjudge mailed everyone the results (VICTORY
    in the adjustment table, the game over) and no other mail."""
    status = parse_status((ENDED / "solo.status").read_text())
    after, events = process_phase(status, standard, NOW)
    mails = Mailer(env, after, standard, judge="TEST", url=URL).for_events(events, NOW)
    assert [m.rendered.subject for m in mails] == ["Diplomacy results solo F1901M"]
    subject, _, body = (ENDED / "solo.mail").read_text().partition("\n")
    assert f"Subject: {mails[0].rendered.subject}" == subject
    assert normalised(mails[0].rendered.body) == normalised(body)


def test_a_solo_is_archived_as_dpjudge_archives_it(env, standard):
    """DPjudge's archive after the solo holds the results entry alone (`solo.results`, processed
    at 11:34 on 24 November 2026): the judge's is the same, byte for byte (the `:: Judge:` line's
    closing blank too)."""
    from judge.game.archive import entry_text
    status = parse_status((ENDED / "solo.status").read_text())
    processed = datetime(2026, 11, 24, 11, 34, tzinfo=UTC)
    after, events = process_phase(status, standard, processed)
    kept = Mailer(env, after, standard, judge="TEST", url=URL).archived(events)
    ours = "".join(entry_text("judge@example.org", processed, subject, body) for subject, body in kept)
    assert ours == (ENDED / "solo.results").read_text()


def test_a_hidden_build_is_confirmed_as_dpjudge_keeps_it(tmp_path, env, standard):
    """Under HIDE_BUILDS Austria mailed its builds: DPjudge's confirmation lists them as it keeps
    them, `BUILD A TRI HIDDEN` (`orders_austria.mail`, recorded with `winter.saved`)."""
    from tests.support.commands import Judge
    hidden = HERE.parent.parent / "game" / "fixtures" / "blind" / "hidden"
    saved = (hidden / "winter.saved").read_text(encoding="latin-1")
    judge = Judge(tmp_path)
    judge.store.create("blind", "".join(line for line in saved.splitlines(keepends=True)
                                        if not line.startswith("BUILD ")))
    sent = judge.send(b"From: austria@example.org\nTo: judge@example.org\nSubject: o\n\n"
                      b"SIGNON Ablind auspw\nBUILD A TRI\nBUILD A VIE\nSIGNOFF\n", now=NOW)
    mails = Mailer(env, judge.status("blind"), standard, judge="DPJT", url="http://localhost/dpjudge",
                   replied=("austria@example.org",)).for_events(sent.events, NOW)
    [mail] = [m.rendered for m in mails if "austria@example.org" in m.recipients]
    subject, _, body = (hidden / "orders_austria.mail").read_text().partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert normalised(mail.body) == normalised(body)


ORDERS = HERE / "orders"
_REORDER = re.compile(r"^(\w+: )(?:[AF] [A-Z/]+ )?(.*\.  \(\*reorder\*\))$")


def reorders_alike(text: str) -> str:
    """DPjudge's `(*reorder*)` lines as the judge writes them, with the differences docs/dpjudge.md
    lists taken out: DPjudge drops the unit from a reordered unit's first order when it was not a
    hold (`Austria: - VEN.`), and its lines come in the order of a Python 2 dictionary. Each such
    line loses its unit, and a power's are sorted."""
    out: list[str] = []
    for reordered, group in groupby(text.split("\n"), key=lambda line: bool(_REORDER.match(line))):
        lines = list(group)
        out += sorted(_REORDER.sub(r"\1\2", line) for line in lines) if reordered else lines
    return "\n".join(out)


@pytest.mark.parametrize("game", ["nocheck", "coasted"])
def test_order_words_equal_dpjudges(game, env, standard):
    """DPjudge processed each game's status file (Spring 1901, orders on file). `nocheck`, under
    NO_CHECK: Austria's fleet in Trieste and France's army in Paris given two orders each hold, and
    both orders are written `(*reorder*)` as given; Austria's illegal A VIE - BER and its order for
    Italy's army in Venice are written as given, `(*invalid*)`, after its units, Vienna holding.
    `coasted`: a support of Gascony's move to Spain's north coast names the coast."""
    status = parse_status((ORDERS / f"{game}.status").read_text())
    after, events = process_phase(status, standard, NOW)
    mail = Mailer(env, after, standard, judge="TEST", url=URL).for_events(
        [e for e in events if isinstance(e, PhaseResults)], NOW)[0].rendered
    subject, _, body = (ORDERS / f"{game}.mail").read_text().partition("\n")
    assert f"Subject: {mail.subject}" == subject
    assert reorders_alike(normalised(mail.body)) == reorders_alike(normalised(body))


CONVOYS = HERE / "convoys"


@pytest.mark.parametrize("game, paradox", [("df16", True), ("df23", True), ("df24", True), ("dg6", False)])
@pytest.mark.parametrize("routes_written", [True, False])
def test_convoy_words_equal_dpjudges(game, paradox, routes_written, env, standard):
    """DATC 6.F.16, 6.F.23, 6.F.24 and 6.G.6 as DPjudge processed them, each army's route written
    out as DPjudge wants it: the same outcome, and no convoying fleet `disrupted`. In 6.G.6 the
    English Channel, on no chain of the fleets convoying the army, is `void`, its route written or
    not. In the paradoxes, where the Szykman rule fails the convoys, the judge's armies say `no
    convoy`; DPjudge's, which let the convoy stand and the army fail, `bounce` (docs/dpjudge.md)."""
    text = (CONVOYS / f"{game}.status").read_text()
    expected = (CONVOYS / f"{game}.mail").read_text().partition("\n")[2]
    if not routes_written:
        routes = re.compile(r"^(A [A-Z]{3})(?: - [A-Z]{3})+( - [A-Z]{3})$", re.MULTILINE)
        text = routes.sub(r"\1\2", text)
        expected = re.sub(r"^(\w+: Army [\w ]+?)(?: -> [\w ]+)+( -> [\w ]+\.)", r"\1\2", expected,
                          flags=re.MULTILINE)
    if paradox:
        expected = re.sub(r"^(\w+: Army .*)\(\*bounce\*\)$", r"\1(*no convoy*)", expected, flags=re.MULTILINE)
    after, events = process_phase(parse_status(text), standard, NOW)
    mail = Mailer(env, after, standard, judge="TEST", url=URL).for_events(
        [e for e in events if isinstance(e, PhaseResults)], NOW)[0].rendered
    assert normalised(mail.body) == normalised(expected)
