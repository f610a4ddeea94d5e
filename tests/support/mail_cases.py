"""The golden cases: each builds the mails of one situation through the Mailer (or a module function)
from fixture events and real adjudications. `CASES[name](mailer, map)` returns the mails that
golden/<name>.txt holds."""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from judge import events as ev
from judge.game.press_routing import route
from judge.mailout.mailings import Mailer, render_reply
from judge.mailout.notices import keeper, press
from judge.mailout.notices.keeper import disk_alert, inbox_alert, outage_alert, outbox_alert
from judge.mailout.render import Rendered
from judge.maps.model import Map
from judge.phases import parse_phase
from judge.status.model import Dppd, Vote, VoteKind
from judge.types import Unit, UnitType
from judge import notices
from judge.commands.documents import (
    ListingDocument,
    SummaryDocument,
    board,
    centre_tables,
    parameters,
    roster,
)
from judge.commands.guide import Guide, MasterGuide
from judge.commands.info import HistoryDocument
from judge.game.archive import ownership
from tests.support.adjudications import datc_position, play

NOW = datetime(2025, 2, 10, 17, 5, tzinfo=UTC)  # 18:05 in Vienna, the deadline's hour
DEADLINE = datetime(2025, 2, 10, 17, 0, tzinfo=UTC)
NEXT = datetime(2025, 2, 12, 17, 0, tzinfo=UTC)
PROCESSED = datetime(2025, 2, 10, 17, 0, tzinfo=UTC)  # the deadline of the phase processed
ANNA = Dppd("#101", "anna@example.at", "Anna_Berg")
NEWCOMER = Dppd("#300", "newcomer@example.net", "Nell_Newcomer")

CASES: dict[str, Callable[[Mailer, Map], list]] = {}


@dataclass(frozen=True)
class Outcome:
    """The shape of judge.commands.reply.Outcome (the command layer's reply buffer)."""

    command: str
    lines: tuple[str, ...] = ()
    quoted: tuple[str, ...] = ()
    ok: bool = True
    document: object = None


@dataclass(frozen=True)
class Reply:
    """The shape of judge.commands.reply.Reply."""

    to: tuple[str, ...]
    subject: str = ""
    notes: tuple[str, ...] = ()
    quoted_from: str = ""
    outcomes: tuple[Outcome, ...] = ()
    unprocessed: tuple[str, ...] = ()
    failed: bool = False
    cc: tuple[str, ...] = ()

    @property
    def recipients(self) -> tuple[str, ...]:
        return self.to + self.cc


def case(function: Callable[[Mailer, Map], list]) -> Callable[[Mailer, Map], list]:
    CASES[function.__name__] = function
    return function


def results_event(m: Map, resolution, phase: str, next_phase: str | None, **fields) -> ev.PhaseResults:
    values = {"orders": {}, "unreadable": {}, "civil_disorder": (), "captured": {}, "hidden_builds": {},
              "revealed": {}, "lost": {}, "skipped": (), "deadline": NEXT if next_phase else None,
              "processed_deadline": PROCESSED}
    values.update(fields)
    return ev.PhaseResults(game="jigdy", phase=parse_phase(m, phase), resolution=resolution,
                           next_phase=parse_phase(m, next_phase) if next_phase else None, **values)


def unit(text: str) -> Unit:
    kind, where = text.split()
    return Unit(UnitType(kind), where)


# --- results ------------------------------------------------------------------------------------------

@case
def results_movement_datc_6c5(mailer: Mailer, m: Map) -> list:
    """DATC 6.C.5: a rotation broken by a dislodged convoying fleet."""
    _, resolution = datc_position(m, "6.C.5")
    return mailer.for_events([results_event(m, resolution, "S1901M", "S1901R")])


@case
def results_movement_long_lines(mailer: Mailer, m: Map) -> list:
    """Supports of foreign units, long place names, a void support, a destroyed unit."""
    _, resolution = play(m, "F1901M", {
        "RUSSIA": ["F STP/SC", "A MOS", "F SEV", "A WAR"],
        "TURKEY": ["A ARM", "F BLA", "F CON"],
        "AUSTRIA": ["A GAL", "A BUD"],
        "ENGLAND": ["F ENG", "A LON", "F NTH"],
        "FRANCE": ["F MAO", "F BRE"]}, {
        "RUSSIA": ["F STP/SC - BOT", "A MOS - SEV", "F SEV S A MOS - UKR", "A WAR S A GAL - UKR"],
        "TURKEY": ["A ARM - SEV", "F BLA S A ARM - SEV", "F CON - BUL/EC"],
        "AUSTRIA": ["A GAL - UKR", "A BUD S A GAL - UKR"],
        "ENGLAND": ["F ENG C A LON - BRE", "A LON - BRE", "F NTH S F ENG"],
        "FRANCE": ["F MAO S F BRE", "F BRE H"]})
    return mailer.for_events([results_event(m, resolution, "F1901M", "F1901R")])


@case
def results_retreats_fall(mailer: Mailer, m: Map) -> list:
    """Fall retreats: a clash destroys both, a retreat, a disband; then the year's ownership and
    adjustment table."""
    _, resolution = play(m, "F1901R", {"AUSTRIA": ["A BUD", "F TRI"], "RUSSIA": ["A RUM"],
                                      "TURKEY": ["A BUL", "F BLA"], "ITALY": ["A VEN"]}, {
        "AUSTRIA": ["A SER - ALB"], "ITALY": ["F ION - ALB"], "TURKEY": ["F AEG DISBAND"]},
        dislodged={"AUSTRIA": {"A SER": ["ALB", "GRE"]}, "ITALY": {"F ION": ["ALB", "TUN"]},
                   "TURKEY": {"F AEG": ["EAS"]}, "RUSSIA": {"F SEV": ["ARM"]}})
    event = results_event(m, resolution, "F1901R", "W1901A",
                          captured={"RUM": "RUSSIA", "BUL": "TURKEY", "SER": None})
    return mailer.for_events([event])


@case
def results_adjustments(mailer: Mailer, m: Map) -> list:
    """Builds, a waive, removals (one by civil disorder), a build left pending, a void build."""
    _, resolution = play(m, "W1901A", {
        "AUSTRIA": ["A SER", "A GAL"], "RUSSIA": ["A UKR", "F SEV", "A WAR", "F BOT", "A LVN",
                                                  "A MOS"],
        "ENGLAND": ["F NTH", "A YOR"], "FRANCE": ["A PIC"], "TURKEY": ["F BLA"]}, {
        "AUSTRIA": ["BUILD A VIE", "BUILD F TRI", "BUILD A BUD"], "RUSSIA": ["REMOVE F BOT"],
        "ENGLAND": ["BUILD F LON"], "FRANCE": ["WAIVE", "BUILD F BRE"]},
        centers={"AUSTRIA": ["VIE", "BUD", "TRI", "SER"], "RUSSIA": ["MOS", "WAR", "SEV", "STP"],
                 "ENGLAND": ["LON", "EDI", "LVP", "NWY"], "FRANCE": ["PAR", "BRE", "MAR", "BEL"],
                 "TURKEY": ["ANK"]})
    return mailer.for_events([results_event(m, resolution, "W1901A", "S1902M")])


@case
def results_solo_and_completion(mailer: Mailer, m: Map) -> list:
    """The year ends with a solo: VICTORY in the table and the game over, in the results alone."""
    _, resolution = play(m, "F1907M", {"FRANCE": ["A BUR", "F MAO"], "GERMANY": ["A MUN"]},
                         {"FRANCE": ["A BUR - MUN", "F MAO - POR"], "GERMANY": ["A MUN H"]})
    resolution = replace(resolution, centers={
        "FRANCE": frozenset(["PAR", "BRE", "MAR", "SPA", "BEL", "HOL", "LON", "LVP", "EDI", "NWY", "SWE", "DEN",
                             "KIE", "BER", "TUN", "NAP", "ROM"]),
        "GERMANY": frozenset(["MUN"]), "TURKEY": frozenset(["ANK", "CON"])})
    results = results_event(m, resolution, "F1907M", None, captured={"POR": "FRANCE"})
    done = ev.GameCompleted("jigdy", parse_phase(m, "F1907M"), "solo", ("FRANCE",), deadline=PROCESSED)
    return mailer.for_events([results, done])


@case
def preview_for_the_master(mailer: Mailer, m: Map) -> list:
    _, resolution = datc_position(m, "6.C.5")
    event = results_event(m, resolution, "S1901M", "S1901R")
    return mailer.for_events([ev.Preview("jigdy", event, None)])


@case
def wait_phase_results(mailer: Mailer, m: Map) -> list:
    """A phase the Master passes (no adjudication) has a bare heading and the next phase."""
    return mailer.for_events([results_event(m, None, "S1902R", "F1902M")])


# --- forming and starting ------------------------------------------------------------------------------

@case
def player_joined(mailer: Mailer, m: Map) -> list:
    return mailer.for_events([ev.PlayerJoined("jigdy", "POWER#3", NEWCOMER, 4),
                              ev.PlayerJoined("jigdy", "POWER#6", NEWCOMER, 1)])


@case
def player_left_and_game_full(mailer: Mailer, m: Map) -> list:
    return mailer.for_events([ev.PlayerLeft("jigdy", "POWER#3", NEWCOMER), ev.GameFull("jigdy")])


@case
def game_started(mailer: Mailer, m: Map) -> list:
    units = {name: info.units for name, info in m.powers.items()}
    centers = {name: frozenset(info.centers) for name, info in m.powers.items()}
    assignments = (ev.Assignment("AUSTRIA", "POWER#1", ANNA),
                   ev.Assignment("GERMANY", "POWER#4", None))
    return mailer.for_events([ev.GameStarted("jigdy", m.begin, NEXT, assignments, units, centers)])


# --- deadlines ---------------------------------------------------------------------------------------

@case
def reminders(mailer: Mailer, m: Map) -> list:
    return mailer.for_events([ev.Reminder("jigdy", parse_phase(m, "S1902M"), ("AUSTRIA", "ITALY"),
                                          DEADLINE)])


@case
def late_notice_deadline_hour(mailer: Mailer, m: Map) -> list:
    event = ev.LateNotice("jigdy", parse_phase(m, "S1902M"), ("ITALY", "TURKEY"), DEADLINE)
    return mailer.for_events([event], now=NOW)


@case
def late_notice_later_hidden(mailer: Mailer, m: Map) -> list:
    """Eight hours on, under HIDE_LATE_POWERS, without CIVIL_DISORDER: late powers and the Master."""
    hidden = Mailer(mailer.env, mailer.status, m, judge="TEST", rules=frozenset({"HIDE_LATE_POWERS"}))
    event = ev.LateNotice("jigdy", parse_phase(m, "S1902M"), ("ITALY", "TURKEY"), DEADLINE)
    return hidden.for_events([event], now=datetime(2025, 2, 11, 1, 5, tzinfo=UTC))


@case
def deadline_changes(mailer: Mailer, m: Map) -> list:
    phase = parse_phase(m, "S1902M")
    return mailer.for_events([ev.DeadlineSet("jigdy", phase, NEXT, "MASTER"),
                              ev.DeadlineSet("jigdy", phase, NEXT, "FRANCE"),
                              ev.DeadlineSet("jigdy", phase, None, "judge")])


@case
def dismissal_and_civil_disorder(mailer: Mailer, m: Map) -> list:
    phase = parse_phase(m, "S1902M")
    return mailer.for_events([ev.Dismissal("jigdy", phase, ("FRANCE",)),
                              ev.CivilDisorder("jigdy", phase, ("ITALY", "TURKEY"))])


# --- players coming and going ------------------------------------------------------------------------

@case
def resignations(mailer: Mailer, m: Map) -> list:
    chloe = Dppd("#103", "chloe@example.fr", "Chloe_Martin")
    return mailer.for_events([ev.Resigned("jigdy", "FRANCE", chloe),
                              ev.Resigned("jigdy", "FRANCE", chloe, by_master=True)])


@case
def takeover(mailer: Mailer, m: Map) -> list:
    return mailer.for_events([ev.TookOver("jigdy", "FRANCE", NEWCOMER)])


@case
def dummied(mailer: Mailer, m: Map) -> list:
    return mailer.for_events([ev.Dummied("jigdy", "ITALY", Dppd("#105", "elena@example.it", ""))])


@case
def votes(mailer: Mailer, m: Map) -> list:
    return mailer.for_events([ev.VoteCast("jigdy", "TURKEY", Vote(VoteKind.DRAW, 3)),
                              ev.VoteCast("jigdy", "AUSTRIA", None, proposal="DIAS"),
                              ev.VoteCast("jigdy", "ITALY", None, proposal="DIAS", vetoed=True)])


@case
def control_rotated(mailer: Mailer, m: Map) -> list:
    return mailer.for_events([ev.ControlRotated("jigdy", parse_phase(m, "F1902M"),
                                                {"GERMANY": "ITALY"})])


@case
def draw_and_rollback(mailer: Mailer, m: Map) -> list:
    phase = parse_phase(m, "F1905M")
    return mailer.for_events([
        ev.GameCompleted("jigdy", phase, "draw", ("AUSTRIA", "ITALY", "TURKEY"), deadline=PROCESSED),
        ev.GameCompleted("jigdy", phase, "concession", ("ITALY",), deadline=PROCESSED),
        ev.RolledBack("jigdy", parse_phase(m, "S1905M"), False, False, False, NEXT),
        ev.RolledBack("jigdy", "FORMING", False, False, True, None)])


# --- orders and press ---------------------------------------------------------------------------------

@case
def order_confirmation(mailer: Mailer, m: Map) -> list:
    lines = ["A BUD - SER", "A SER S A BUD - RUM", "F TRI H"]
    return (press.orders(mailer, "AUSTRIA", parse_phase(m, "S1902M"), lines, deadline=NEXT,
                         sender="anna@example.at")
            + press.orders(mailer, "ITALY", parse_phase(m, "S1902M"), []))


@case
def crystal_ball_confirmation(mailer: Mailer, m: Map) -> list:
    """The locked list for the next movement phase and the one being written; a list missing."""
    return (press.orders(mailer, "AUSTRIA", parse_phase(m, "F1902M"), ["A BUD - SER", "F TRI H"],
                         deadline=NEXT, lists="ahead", later=["A SER - RUM"])
            + press.orders(mailer, "ITALY", parse_phase(m, "F1902M"), ["A VEN H"], lists="ahead")
            + press.orders(mailer, "TURKEY", parse_phase(m, "S1901M"), [], lists="first"))


@case
def crystal_ball_public_lists(mailer: Mailer, m: Map) -> list:
    """PUBLIC_LISTS with LIMIT_LISTS (the largest power has 2 centres: 3 lines shown), every fate."""
    public = copy.copy(mailer)
    public.rules = mailer.rules | {"PUBLIC_LISTS", "LIMIT_LISTS"}
    lists = (("AUSTRIA", (("revoked", "A BUD - SER"), ("ordered", "F TRI H"), ("no unit", "A SER - RUM"),
                          ("ignored", "A BUD H"))),
             ("ITALY", (("noProxy", "A TRI H"), ("default", "A VEN H"))))
    return public.for_events([ev.ListsPlayed("jigdy", parse_phase(m, "F1902M"), lists, 2)])


@case
def payola_statements(mailer: Mailer, m: Map) -> list:
    """A power's statement with its units bribed away, its bribes lowered and a foreign bribe won;
    a power with no unit whose one bribe lost; one with no unit that offered nothing."""
    austria = ev.BribeStatement(
        "AUSTRIA", (("*", 12, "A BUD", "- SER"), (" ", 3, "F TRI", "H")),
        ((3, "F TRI", "H"), (7, "A VEN", "- TRI")), ("     3 : F TRI H", "     9 : A VEN - TRI", "     4 $"),
        True, 25, 2, 10, 15)
    england = ev.BribeStatement("ENGLAND", (), (), ("    20 : A BUD - GAL",), True, 30, 1, 0, 30)
    italy = ev.BribeStatement("ITALY", (), (), (), False, 8, 0, 0, 8)
    return mailer.for_events([ev.BribesSettled("jigdy", parse_phase(m, "S1902M"), (austria, england, italy))])


@case
def payola_income(mailer: Mailer, m: Map) -> list:
    """A year's income: Austria paid; Italy, left with nothing, is sent no report."""
    reports = (("AUSTRIA", 12, 48, 60), ("ITALY", 0, 0, 0))
    return mailer.for_events([ev.IncomePaid("jigdy", 1902, reports)])


@case
def payola_transfer(mailer: Mailer, m: Map) -> list:
    """Austria gives Italy 12 AgP under ANON_TRANSFER: Italy is not told who gave."""
    return mailer.for_events([ev.FundsTransferred("jigdy", "AUSTRIA", "ITALY", 12, 30, 5, anonymous=True)])


@case
def crystal_ball_lists_locked(mailer: Mailer, m: Map) -> list:
    return mailer.for_events([notices.ListsLocked("jigdy", NEXT)])


@case
def adjustment_confirmation(mailer: Mailer, m: Map) -> list:
    lines = ["BUILD A VIE", "BUILD WAIVED", "REMOVE F ION"]
    return press.orders(mailer, "AUSTRIA", parse_phase(m, "W1902A"), lines, deadline=NEXT)


def sent(mailer: Mailer, sender: str, to: tuple[str, ...] | None, body: str, official: str | None = None,
         **options) -> list:
    """The readers' mails of one press message (its sender's copy is in the reply)."""
    routing = route(mailer.status, mailer.rules, sender, to, **options)
    return mailer.for_events([notices.Press("jigdy", "S1902M", sender, routing, tuple(body.split("\n")),
                                            official)])


@case
def press_private(mailer: Mailer, m: Map) -> list:
    body = ("Shall we share the Balkans? I would take Serbia and Greece; you would keep Rumania "
            "and Bulgaria, and we both stay out of Galicia this year.\n\nYour friend in Vienna")
    return sent(mailer, "AUSTRIA", ("RUSSIA", "MASTER"), body)


@case
def press_broadcast_fake(mailer: Mailer, m: Map) -> list:
    return sent(mailer, "TURKEY", None, "Peace in our time.", claimed_from="ITALY",
                fake_to=("AUSTRIA", "ENGLAND"))


@case
def press_grey_quiet(mailer: Mailer, m: Map) -> list:
    eavesdropping = Mailer(mailer.env, mailer.status, m, judge="TEST",
                           rules=frozenset({"EAVESDROP", "GREY_PRESS"}))
    return sent(eavesdropping, "ITALY", ("TURKEY",), "Watch your back.")


@case
def official_press(mailer: Mailer, m: Map) -> list:
    return (sent(mailer, "MASTER", None, "The deadline moves to Wednesday for the holiday.", "Holiday")
            + sent(mailer, "MASTER", None, "Welcome to the game.", "")
            + sent(mailer, "MASTER", ("ITALY", "RUSSIA"), "Your orders are overdue.", "Late"))


@case
def reply_to_a_mail(mailer: Mailer, m: Map) -> list:
    reply = Reply(to=("anna@example.at",), subject="orders", outcomes=(
        Outcome("SIGNON Ajigdy ***", ("Signed on as Austria in game 'jigdy'.",)),
        Outcome("A BUD - SER", ("Order stored.",), ("A BUD - SER",)),
        Outcome("A VIE - XYZ", ("no such place 'XYZ'",), ok=False)),
        unprocessed=("A TRI H",), failed=True)
    subject, body = render_reply(mailer.env, reply)
    empty = render_reply(mailer.env, Reply(to=("x@example.org",), subject="Re: hello",
                                           notes=("Your mail had no text part; its HTML part was read.",)))
    return [Rendered(subject, body), Rendered(*empty)]


@case
def players_guide(mailer: Mailer, m: Map) -> list:
    reply = Reply(to=("nora@example.net",), subject="help", outcomes=(Outcome("HELP", document=Guide()),))
    return [Rendered(*render_reply(mailer.env, reply))]


@case
def masters_guide(mailer: Mailer, m: Map) -> list:
    reply = Reply(to=("joe@blow.com",), subject="help",
                  outcomes=(Outcome("HELP MASTER", document=MasterGuide()),))
    return [Rendered(*render_reply(mailer.env, reply))]


@case
def documents_in_a_reply(mailer: Mailer, m: Map) -> list:
    """HISTORY, SUMMARY and LIST game carry their text as DPjudge mails it, unindented."""
    archive = ("From judge@example.org Sun Feb  9 12:00:00 2025\n"
               "Subject: Diplomacy results jigdy S1901M\n\nMovement results for Spring of 1901.\n\n")
    reply = Reply(to=("sam@example.net",), subject="history", outcomes=(
        Outcome("HISTORY jigdy", document=HistoryDocument("jigdy", archive)),
        Outcome("HISTORY vienna", document=HistoryDocument("vienna", ""))))
    tables = archive + ("Ownership of supply centers:\n\nAustria:    Budapest, Serbia, Trieste, Vienna.\n"
                        "Italy:      Naples, Rome, Venice.\nUnowned:    Greece.\n\n")
    end, years = ownership(tables.replace("S1901M", "F1901M"))
    master, people = roster(mailer.status, m, None)
    summary = SummaryDocument("jigdy", end, master, people, parameters(mailer.status, m, "TEST"),
                              *centre_tables(m, years, index=True))
    empty = replace(summary, through=None)
    summaries = Reply(to=("sam@example.net",), subject="summary", outcomes=(
        Outcome("SUMMARY jigdy", document=summary), Outcome("SUMMARY vienna", document=empty)))
    units, owners = board(mailer.status, m, lambda power: True)
    master, people = roster(mailer.status, m, "AUSTRIA", late=("ENGLAND",), listing=True)
    listing = ListingDocument("TEST", "jigdy", "standard", "S1902M", DEADLINE, None, ("Germany",), True,
                              None, False, parameters(mailer.status, m, "TEST"), master, people,
                              ("Movement", "Spring", 1902, "S1902M"), units, owners)
    terminated = replace(listing, waiting_for="Italy to be taken over", phase=None, units=(),
                         ownership=(), state="terminated", unlisted=True)
    listings = Reply(to=("sam@example.net",), subject="list", outcomes=(
        Outcome("LIST jigdy", document=listing), Outcome("LIST jigdy", document=terminated)))
    return [Rendered(*render_reply(mailer.env, r)) for r in (reply, summaries, listings)]


# --- the Master's and the judgekeeper's housekeeping ---------------------------------------------------

@case
def keeper_alerts(mailer: Mailer, m: Map) -> list:
    phase = parse_phase(m, "S1902M")
    return (keeper.status_errors(mailer.env, "keeper@example.org", "TEST", "jigdy", "master@example.org",
                                 ["line 12: unknown directive FOO"])
            + keeper.adjudication_error(mailer, "keeper@example.org", phase, "ValueError: no unit in ION")
            + outage_alert(mailer.env, "keeper@example.org", "TEST",
                           datetime(2025, 2, 10, 9, 0, tzinfo=UTC), NOW, ["jigdy", "vienna"])
            + outage_alert(mailer.env, "keeper@example.org", "TEST",
                           datetime(2025, 2, 10, 9, 0, tzinfo=UTC), NOW, []))


@case
def transport_alerts(mailer: Mailer, m: Map) -> list:
    spool = "/var/lib/judge/spool"
    queued = datetime(2025, 2, 10, 16, 40, tzinfo=UTC)
    mail = {"id": ("cycle-jigdy-202502101640-3f9d2c7e5b1a4d6e8f02-player3_example.org"
                  ".test@judge.example.org"),
            "queued": queued, "to": "player3@example.org",
            "subject": "Diplomacy results jigdy S1902M"}
    return (inbox_alert(mailer.env, "keeper@example.org", "TEST", id="1739205600000000000-4f2a",
                        arrived=queued, folder=f"{spool}/inbox/bad",
                        error="RuntimeError('the status file of game jigdy vanished while the "
                              "mail was being read, and the judge could not go on')")
            + outbox_alert(mailer.env, "keeper@example.org", "TEST", **mail, partly=False,
                           reason="550 5.1.1 <player3@example.org>: Recipient address rejected: "
                                  "User unknown in virtual mailbox table",
                           folder=f"{spool}/outbox/failed")
            + outbox_alert(mailer.env, "keeper@example.org", "TEST", **mail, partly=True,
                           reason="player3@example.org: 550 5.1.1 no such user",
                           folder=f"{spool}/outbox/done")
            + outbox_alert(mailer.env, "keeper@example.org", "TEST", **mail, partly=False,
                           reason="451 4.3.0 try again later", cause="deferred",
                           folder=f"{spool}/outbox/failed")
            + outbox_alert(mailer.env, "keeper@example.org", "TEST", **mail, partly=False,
                           reason="no recipient recorded by the judge: not sent",
                           cause="unsendable", folder=f"{spool}/outbox/failed"))


@case
def disk_alerts(mailer: Mailer, m: Map) -> list:
    since = datetime(2025, 2, 10, 16, 40, tzinfo=UTC)
    error = "[Errno 28] No space left on device"
    return (disk_alert(mailer.env, "keeper@example.org", "TEST", full=True, since=since,
                       now=since, error=error, delayed=0)
            + disk_alert(mailer.env, "keeper@example.org", "TEST", full=False, since=since,
                         now=NOW, error=error, delayed=12)
            + disk_alert(mailer.env, "keeper@example.org", "TEST", full=False, since=since,
                         now=NOW, error=error, delayed=1))


# --- the command layer's notices -------------------------------------------------------------------------

@case
def press_notices(mailer: Mailer, m: Map) -> list:
    return mailer.for_events([
        notices.Press("jigdy", "S1902M", "ENGLAND",
                      route(mailer.status, frozenset({"GREY_PRESS"}), "ENGLAND", ("FRANCE", "GERMANY")),
                      ("Who is with me?",)),
        notices.Press("jigdy", "S1902M", "MASTER", route(mailer.status, mailer.rules, "MASTER", None),
                      ("Remember the holiday.",), official="Holiday deadlines")])


@case
def absences(mailer: Mailer, m: Map) -> list:
    first, last = datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 3, 9, tzinfo=UTC)
    return mailer.for_events([notices.AbsenceSet("jigdy", first, last, False, None, "ITALY", False),
                              notices.AbsenceSet("jigdy", None, NEXT, True, "TURKEY", "TURKEY", True)])


@case
def game_state_notices(mailer: Mailer, m: Map) -> list:
    keeper = Mailer(mailer.env, mailer.status, m, judge="TEST", keeper="keeper@example.org")
    return keeper.for_events([
        notices.ZoneChanged("jigdy", "America/New_York"),
        notices.StateChanged("jigdy", "WAITING"),
        notices.StateChanged("jigdy", "UNLISTED"),
        notices.VictoryChanged("jigdy", 1902, 18, 17),
        notices.MasterChanged("jigdy", ("master@example.org",), "new.master@example.org"),
        notices.GameRenamed("jigdy", "jigsaw", ("anna@example.at", "ben@example.co.uk")),
        notices.GameCreated("jigdy", "master@example.org", "azov", True, ("maps@example.org",)),
        notices.PasswordSet("jigdy", "FRANCE", ("chloe@example.fr",), "s3cret")])


@case
def passwords_paused(mailer: Mailer, m: Map) -> list:
    since = datetime(2025, 2, 10, 16, 20, tzinfo=UTC)
    return mailer.for_events([
        notices.PasswordsPaused("jigdy", "FRANCE", ("chloe@example.fr",), 5, 3, since,
                                NOW + timedelta(minutes=1), "K7QM-4XPD"),
        notices.PasswordsPaused("jigdy", "MASTER", ("master@example.org",), 9, 1, since,
                                NEXT, "A2B3-C4D5"),
        notices.PasswordsPaused("jigdy", "MASTER", ("master@example.org",), 10, 4, since,
                                NEXT, "E6F7-G8H9", "game"),
        notices.PasswordsPaused("jigdy", "JUDGEKEEPER", ("keeper@example.org",), 20, 17, since,
                                NEXT, "J2K3-L4M5", "judge"),
        notices.PasswordsPaused("jigdy", "PRIVATE-PASSWORD", ("master@example.org",), 5, 5,
                                since, NEXT, "N6P7-Q8R9", "privacy")])
