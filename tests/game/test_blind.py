"""BLIND: a game of 1901 and spring 1902 whose every results mail is compared whole, line for line
and blank for blank, with the one DPjudge sends the same reader (fixtures/blind: DPjudge's mails
for the same orders, and its SEES lines), and what each visibility modifier changes."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge.game import archive, join, neighbours, visibility
from judge.game.process import process_phase
from judge.mailout.mailings import Mailer
from judge.mailout.notices import results
from judge.mailout.render import environment
from judge.status import parse_status
from judge.status.model import PowerStatus
from judge.types import MOVEMENT, Unit, UnitType
from tests.support.games import build, everyone_orders, forming, player, retreat

FIXTURES = Path(__file__).parent / "fixtures" / "blind"
NOW = datetime(2026, 11, 24, 8, 30, tzinfo=UTC)
READERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey", "master")
ORDERS = {
    "S1901M": {"AUSTRIA": ["A VIE-GAL", "A BUD-SER", "F TRI-ALB"],
               "ENGLAND": ["F LON-NTH", "F EDI-NWG", "A LVP-YOR"],
               "FRANCE": ["F BRE-MAO", "A PAR-BUR", "A MAR S A PAR-BUR"],
               "GERMANY": ["F KIE-DEN", "A BER-KIE", "A MUN-BUR"],
               "ITALY": ["F NAP-ION", "A ROM-APU", "A VEN H"],
               "RUSSIA": ["F STP/SC-BOT", "A MOS-UKR", "A WAR-GAL", "F SEV-BLA"],
               "TURKEY": ["F ANK-BLA", "A CON-BUL", "A SMY-ARM"]},
    "F1901M": {"AUSTRIA": ["F ALB-GRE", "A SER S F ALB-GRE", "A VIE-BUD"],
               "ENGLAND": ["F NTH-BEL", "F NWG-NWY", "A YOR H"],
               "FRANCE": ["F MAO-POR", "A BUR-BEL", "A MAR-SPA"],
               "GERMANY": ["F DEN H", "A KIE-HOL", "A MUN H"],
               "ITALY": ["F ION-TUN", "A APU H", "A VEN H"],
               "RUSSIA": ["F BOT-SWE", "A UKR-RUM", "A WAR-GAL", "F SEV S A UKR-RUM"],
               "TURKEY": ["F ANK-BLA", "A BUL-RUM", "A ARM H"]},
    "W1901A": {"AUSTRIA": ["A TRI", "A VIE"], "ENGLAND": ["F LON"], "FRANCE": ["F BRE", "A PAR"],
               "GERMANY": ["F KIE", "A BER"], "ITALY": ["F NAP"], "RUSSIA": ["F STP/NC", "A MOS"],
               "TURKEY": ["F SMY"]},
    # every unit not named holds
    "S1902M": {"AUSTRIA": ["A SER-RUM", "A BUD S A SER-RUM"], "RUSSIA": ["F SEV-BLA"]},
    "S1902R": {"RUSSIA": ["A RUM-UKR"]},
}


def played(standard, upto: str, rules: str = ""):
    text = (FIXTURES / "start.status").read_text()
    status = parse_status(text.replace("RULE BLIND", "RULE BLIND " + rules))
    for phase, orders in ORDERS.items():
        if phase.endswith("A"):
            for power, units in orders.items():
                status = build(status, power, *units)
        elif phase.endswith("R"):
            for power, lines in orders.items():
                for line in lines:
                    unit, dest = line.split("-")
                    status = retreat(status, power, unit, dest)
        else:
            status = everyone_orders(status, orders)
        status, events = process_phase(status, standard, NOW)
        if phase == upto:
            return status, events
    raise AssertionError(upto)


def mails_by_reader(standard, phase: str, rules: str = "") -> dict[str, str]:
    status, events = played(standard, phase, rules)
    mailings = Mailer(environment(), status, standard, judge="DPJT").for_events(events, NOW)
    return {a.split("@")[0]: m.rendered.body for m in mailings for a in m.recipients}


def normalised(body: str) -> str:
    """The body without the `::` header and the deadline sentence (dates and ids), and without the
    blank lines that end it (a mail's end, as the results comparison with DPjudge reads it)."""
    lines = [line for line in body.splitlines()
             if not line.startswith("::") and not line.startswith("The deadline for orders")]
    return "\n".join(lines).rstrip("\n")


@pytest.mark.parametrize("reader", READERS)
def test_spring_1901_results_are_dpjudges_for_each_reader(standard, reader):
    ours = mails_by_reader(standard, "S1901M")
    theirs = (FIXTURES / "S1901M" / f"{reader}.txt").read_text()
    assert normalised(ours[reader]) == normalised(theirs)


MODIFIED = {"blind2": "UNITS_SEE_SAME OWN_SCS_SEE", "blind3": "UNITS_SEE_OTHER NO_SCS_SEE",
            "blind4": "SEE_ALL_SCS", "blind5": "NO_UNITS_SEE", "blind6": "SEE_NO_UNITS SEE_NO_SCS"}


@pytest.mark.parametrize("game, upto, fixture", [*((g, "S1901M", g) for g in MODIFIED),
                                                 ("blind4", "F1901M", "blind4F")])
@pytest.mark.parametrize("reader", READERS)
def test_results_under_modifiers_are_dpjudges_for_each_reader(standard, game, upto, fixture, reader):
    text = (FIXTURES / "start.status").read_text().replace("GAME blind", f"GAME {game}")
    status = parse_status(text.replace("RULE BLIND", f"RULE BLIND {MODIFIED[game]}"))
    for phase in ("S1901M", "F1901M")[:1 + (upto == "F1901M")]:
        status, events = process_phase(everyone_orders(status, ORDERS[phase]), standard, NOW)
    mailings = Mailer(environment(), status, standard, judge="DPJT").for_events(events, NOW)
    ours = {a.split("@")[0]: m.rendered.body for m in mailings for a in m.recipients}
    theirs = (FIXTURES / fixture / f"{reader}.txt").read_text()
    assert normalised(ours[reader]) == normalised(theirs)


@pytest.mark.parametrize("phase", ["F1901M", "W1901A", "S1902M", "S1902R"])
@pytest.mark.parametrize("reader", READERS)
def test_later_results_are_dpjudges_for_each_reader(standard, phase, reader):
    ours = mails_by_reader(standard, phase)
    theirs = (FIXTURES / phase / f"{reader}.txt").read_text()
    assert normalised(ours[reader]) == normalised(theirs)


@pytest.mark.parametrize("reader", READERS)
def test_hidden_builds_are_told_as_dpjudge_tells_them_in_a_blind_game(standard, reader):
    """HIDE_BUILDS changes nothing in a BLIND game's winter results: DPjudge mails each reader
    the same text as without it (each build, where it is, to whoever sees its site)."""
    ours = mails_by_reader(standard, "W1901A", "HIDE_BUILDS")
    theirs = (FIXTURES / "W1901A" / f"{reader}.txt").read_text()
    assert normalised(ours[reader]) == normalised(theirs)


@pytest.mark.parametrize("reader", READERS)
def test_units_built_hidden_are_found_or_arrive_in_the_spring_as_dpjudge_tells(standard, reader):
    """The spring after: no FOUND line for all, but whoever sees a unit built hidden is told it
    ARRIVES (it saw the place before) or is FOUND, in place of its order."""
    ours = mails_by_reader(standard, "S1902M", "HIDE_BUILDS")
    theirs = (FIXTURES / "hidden" / f"{reader}.txt").read_text()
    assert normalised(ours[reader]) == normalised(theirs)


@pytest.mark.parametrize("phase", ["S1901M", "F1901M", "W1901A", "S1902M", "S1902R"])
def test_the_status_file_keeps_dpjudges_sees_lines(standard, phase):
    status, _ = played(standard, phase)
    ours = {b.name: set(b.sees) for b in status.powers if b.sees}
    theirs = {}
    for line in (FIXTURES / phase / "sees.txt").read_text().splitlines():
        power, _, *centres = line.split()
        theirs[power] = set(centres)
    assert ours == theirs


def test_a_unit_seen_only_by_a_destroyed_unit_is_lost_in_the_movement_results(standard):
    """NO_RETREAT: the Russian army dislodged from Rumania is destroyed; it alone saw the Turkish
    army in Bulgaria, which Russia is told it lost, after the dislodged units, as DPjudge tells it."""
    mails = mails_by_reader(standard, "S1902M", "NO_RETREAT")
    assert ("The Russian army in Rumania was destroyed.\n\nTurkey:     Army Bulgaria LOST.\n\n\n"
            "Ownership of supply centers:\n") in mails["russia"]
    assert all("LOST" not in mails[r] for r in READERS if r != "russia")


def test_no_players_mail_names_a_unit_it_cannot_see(standard):
    """England sees nothing of the Balkans in the spring: no word of Austria, Russia or Turkey."""
    body = mails_by_reader(standard, "S1901M")["england"]
    for hidden in ("Austria", "Russia", "Turkey", "Italy", "France", "Galicia", "Black Sea"):
        assert hidden not in body


def test_an_omniscient_observer_reads_the_masters_results(standard):
    status = parse_status((FIXTURES / "start.status").read_text()
                          + "\nOBSERVER watcher\nPLAYER #99|watcher@example.org|Watcher\n"
                            "ADDRESS watcher@example.org\nPASSWORD wpw\nOMNISCIENT\n")
    after, events = process_phase(everyone_orders(status, ORDERS["S1901M"]), standard, NOW)
    mailings = Mailer(environment(), after, standard, judge="DPJT").for_events(events, NOW)
    body = {a: m.rendered.body for m in mailings for a in m.recipients}
    assert body["watcher@example.org"] == body["master@example.org"]


def test_a_plain_observer_sees_no_position(standard):
    status = parse_status((FIXTURES / "start.status").read_text()
                          + "\nOBSERVER watcher\nPLAYER #99|watcher@example.org|Watcher\n"
                            "ADDRESS watcher@example.org\nPASSWORD wpw\n")
    after, events = process_phase(everyone_orders(status, ORDERS["S1901M"]), standard, NOW)
    mailings = Mailer(environment(), after, standard, judge="DPJT").for_events(events, NOW)
    body = next(m.rendered.body for m in mailings if "watcher@example.org" in m.recipients)
    assert "Army" not in body and "Fleet" not in body and "Ownership" not in body


# --- the modifiers, on one unit: a French army moving from Burgundy to Munich, watched by Germany

def army(place: str) -> Unit:
    return Unit(UnitType.ARMY, place)


def fleet(place: str) -> Unit:
    return Unit(UnitType.FLEET, place)


def seers(german: tuple[Unit, ...], **extra) -> visibility.Seers:
    return visibility.Seers(
        readers=("FRANCE", "GERMANY"), before={"FRANCE": (army("BUR"),), "GERMANY": german},
        after={"FRANCE": (army("MUN"),), "GERMANY": german},
        centers={"FRANCE": frozenset({"PAR"}), "GERMANY": frozenset({"BER"})},
        homes={"FRANCE": frozenset({"PAR"}), "GERMANY": frozenset({"BER"})}, **extra)


BURGUNDY = army("BUR")


def german_sees(standard, rules: set[str], german: tuple[Unit, ...], target: Unit = BURGUNDY,
                end: str = "MUN") -> int:
    shows = visibility.sight(standard, frozenset({"BLIND", *rules}), seers(german), "FRANCE",
                             target.location, end, target)
    return shows["GERMANY"]


def test_a_unit_next_to_both_ends_sees_the_whole_move(standard):
    assert german_sees(standard, set(), (army("RUH"),)) == visibility.EVERYTHING


def test_no_units_see_leaves_only_the_centres_as_eyes(standard):
    assert german_sees(standard, set(), (army("RUH"),), army("BUR"), "BEL") != 0
    assert german_sees(standard, {"NO_UNITS_SEE"}, (army("RUH"),), army("BUR"), "BEL") == 0
    assert german_sees(standard, {"NO_UNITS_SEE"}, (army("RUH"),), army("KIE"), "BER") != 0


def test_see_no_units_hides_every_foreign_unit(standard):
    assert german_sees(standard, {"SEE_NO_UNITS"}, (army("RUH"),)) == 0


def test_units_see_same_a_fleet_does_not_see_an_army(standard):
    assert german_sees(standard, {"UNITS_SEE_SAME"}, (fleet("HOL"),), army("BEL"), "BEL") == 0
    assert german_sees(standard, {"UNITS_SEE_SAME"}, (army("RUH"),), army("BEL"), "BEL") != 0


def test_units_see_other_an_army_does_not_see_an_army(standard):
    assert german_sees(standard, {"UNITS_SEE_OTHER"}, (army("RUH"),), army("BEL"), "BEL") == 0
    assert german_sees(standard, {"UNITS_SEE_OTHER"}, (fleet("HOL"),), army("BEL"), "BEL") != 0


def test_home_centres_see_unless_no_scs_see(standard):
    assert german_sees(standard, set(), (), army("KIE"), "KIE") != 0  # Kiel is next to Berlin
    assert german_sees(standard, {"NO_SCS_SEE"}, (), army("KIE"), "KIE") == 0


def test_own_scs_see_owned_centres_are_eyes_not_homes(standard):
    own = visibility.Seers(readers=("FRANCE", "GERMANY"), centers={"GERMANY": frozenset({"HOL"})},
                           homes={"GERMANY": frozenset({"BER"})})
    rules = frozenset({"BLIND", "OWN_SCS_SEE"})
    assert visibility.sight(standard, rules, own, "FRANCE", "BEL", "BEL", army("BEL"))["GERMANY"]
    assert not visibility.sight(standard, rules, own, "FRANCE", "MUN", "MUN", army("MUN"))["GERMANY"]


def test_see_no_scs_hides_every_foreign_centre(standard):
    view = seers((army("RUH"),))
    assert visibility.centre_sightings(standard, frozenset({"BLIND", "SEE_NO_SCS"}), view, {}) == {}
    assert "MUN" in visibility.centre_sightings(standard, frozenset({"BLIND"}), view, {})["GERMANY"]


def test_see_all_scs_the_year_ends_ownership_is_public(standard):
    england = mails_by_reader(standard, "F1901M", "SEE_ALL_SCS")["england"]
    assert "Turkey:     Ankara, Bulgaria, Constantinople, Smyrna." in england
    assert "Turkey:      4 Supply centers" not in england  # the adjustments stay private
    assert "Ownership" not in mails_by_reader(standard, "S1901M", "SEE_ALL_SCS")["england"]


def test_no_units_see_no_ownership_after_spring_and_only_home_eyes(standard):
    austria = mails_by_reader(standard, "S1901M", "NO_UNITS_SEE")["austria"]
    assert "Ownership" not in austria
    assert "Italy: Army Venice HOLD." in austria  # Venice is next to Trieste, a home
    assert "Turkey: Army Bulgaria FOUND." not in austria  # seen from Serbia, a unit


def test_see_all_scs_and_the_others_keep_ownership_out_of_movement_results():
    assert visibility.shows_ownership(frozenset({"BLIND"}), False, MOVEMENT)
    for rule in ("SEE_ALL_SCS", "SEE_NO_SCS", "NO_UNITS_SEE"):
        assert not visibility.shows_ownership(frozenset({"BLIND", rule}), False, MOVEMENT)
        assert visibility.shows_ownership(frozenset({"BLIND", rule}), True, MOVEMENT)


def test_the_owner_its_controller_and_the_omniscient_see_everything(standard):
    view = visibility.Seers(readers=("FRANCE", "GERMANY", "SPY"), everything=frozenset({"MASTER", "SPY"}),
                            controller={"FRANCE": "GERMANY"})
    shows = visibility.sight(standard, frozenset({"BLIND"}), view, "FRANCE", "BUR", "MUN", army("BUR"))
    assert shows == {"MASTER": 15, "FRANCE": 15, "GERMANY": 15, "SPY": 15}


# --- the results archive --------------------------------------------------------------------------

@pytest.mark.parametrize("phase", ["S1901M", "F1901M", "S1902M"])
def test_the_archive_text_gives_each_reader_its_mail_back(standard, phase):
    status, events = played(standard, phase)
    mailer = Mailer(environment(), status, standard, judge="DPJT")
    versions = {name: r.body for name, r in results.results_by_reader(mailer, events[-1]).items()}
    entry = archive.entry_text("judge@localhost", datetime(2026, 1, 1, tzinfo=UTC), "results",
                               archive.reader_parts(versions))
    for name, body in versions.items():
        shown = archive.for_reader(entry, {name}).split("\n\n", 1)[1]
        assert shown == archive.single_blanks(body.rstrip("\n") + "\n\n")
    assert "SHOW TURKEY\n" in entry or "SHOW AUSTRIA\n" in entry


def test_dpjudges_archive_read_for_a_power_is_its_mail():
    body = (FIXTURES / "S1901M" / "results").read_text().split("\n\n", 1)[1]
    for reader in READERS:
        mail = (FIXTURES / "S1901M" / f"{reader}.txt").read_text()
        assert normalised(archive.for_reader(body, {reader.upper()})) == \
            normalised(archive.single_blanks(mail))


def test_when_the_game_is_over_the_archive_shows_everything():
    text = ("Head\nSHOW MASTER FRANCE\nFrance: Army Paris HOLD.\n"
               "SHOW GERMANY\nFrance: Army Paris FOUND.\nSHOW\nTail")
    everything = "Head\nFrance: Army Paris HOLD.\nFrance: Army Paris FOUND.\nTail"
    assert archive.for_reader(text, None) == everything
    assert archive.for_reader(text, {"ITALY"}) == "Head\nTail"


def test_every_mail_of_a_processing_keeps_to_what_each_reader_sees(standard):
    """Russia sends no orders: the civil disorder and the results tell England nothing of the east."""
    status = parse_status((FIXTURES / "start.status").read_text())
    spring = {p: o for p, o in ORDERS["S1901M"].items() if p != "RUSSIA"}
    status = everyone_orders(status, spring)
    status = status.with_power(replace(status.power("RUSSIA"), orders=None))
    after, events = process_phase(status, standard, NOW)
    mailings = Mailer(environment(), after, standard, judge="DPJT").for_events(events, NOW)
    to_england = [m.rendered for m in mailings if "england@example.org" in m.recipients]
    assert to_england
    for mail in to_england:
        for hidden in ("Russia", "Turkey", "Moscow", "Sevastopol", "Warsaw"):
            assert hidden not in mail.subject + mail.body


# --- TOUCH_PRESS in a BLIND game ------------------------------------------------------------------

def french_and_german(standard) -> tuple:
    """A French army in Burgundy (France owns Spain), a German one in the Ruhr (Germany owns
    Berlin): they touch, and neither reaches a centre of the other."""
    france = PowerStatus("FRANCE", owns=("SPA",), units=(army("BUR"),))
    germany = PowerStatus("GERMANY", owns=("BER",), units=(army("RUH"),))
    view = visibility.Seers(("FRANCE", "GERMANY"), after={"FRANCE": france.units, "GERMANY": germany.units})
    return france, germany, view


@pytest.mark.parametrize("rules, touching", [(set(), True), ({"SEE_NO_UNITS"}, False),
                                             ({"UNITS_SEE_OTHER"}, False)])
def test_neighbours_who_see_each_other_are_in_touch(standard, rules, touching):
    france, germany, view = french_and_german(standard)
    blind = frozenset({"BLIND", *rules})
    seen = {p: visibility.units_seen(standard, blind, view, p) for p in view.readers}
    assert neighbours.touching(standard, france, germany) is True
    assert neighbours.touching(standard, france, germany, seen) is touching


def test_neighbours_unseen_are_remote(standard):
    france, germany, _ = french_and_german(standard)
    assert not neighbours.remote(standard, france, germany)
    assert neighbours.remote(standard, france, germany, {})


# --- the game's start --------------------------------------------------------------------------------

def test_a_blind_games_start_shows_each_player_what_it_sees(standard):
    status = forming("RULE BLIND")
    for n in range(7):  # the seventh starts the game
        status, events = join(status, standard, NOW, player(n), f"pw{n}")
    austria = status.power("AUSTRIA").player.current.email
    assert set(status.power("AUSTRIA").sees) == {"VEN", "SER", "RUM"}  # next to Trieste, Budapest
    mailings = Mailer(environment(), status, standard, judge="DPJT").for_events(events, NOW)
    start = next(m.rendered.body for m in mailings
                 if austria in m.recipients and "Starting position" in m.rendered.body)
    assert "Italy:" in start and "Army Venice" in start and "Army Rome" not in start
    assert "Moscow" not in start and "England" not in start
    russia = status.power("RUSSIA").player.current.email
    start = next(m.rendered.body for m in mailings
                 if russia in m.recipients and "Starting position" in m.rendered.body)
    assert "Moscow" in start and "Vienna" not in start


def drawn_parts(svg: str) -> tuple[set[tuple[str, str]], set[tuple[str, str]], dict[str, str]]:
    """(power, place) of each unit and each order in a picture, and each centre's owner."""
    # units faded where they stood before the phase (the whole board's picture draws them) count too
    units = set(re.findall(r'class="(?:unit|ghost)[^"]*" data-power="(\w+)" data-type="\w" data-place="([\w/]+)"',
                           svg))
    orders = set(re.findall(r'class="order [^"]*" data-power="(\w+)" data-at="([\w/]+)"', svg))
    centres = dict(re.findall(r'class="center" data-place="(\w+)" data-owner="([\w?]*)"', svg))
    return units, orders, centres


@pytest.mark.parametrize("phase", ["S1901M", "F1901M", "W1901A", "S1902M", "S1902R"])
def test_each_readers_picture_draws_only_what_its_results_tell(standard, phase):
    status, events = played(standard, phase)
    mailings = Mailer(environment(), status, standard, judge="DPJT", pictures=True).for_events(events, NOW)
    pictured = {m.recipients[0].split("@")[0].upper(): m for m in mailings if m.picture is not None}
    assert set(pictured) == {r.upper() for r in READERS}
    everything, _, known = drawn_parts(pictured.pop("MASTER").picture.picture.svg)
    assert "?" not in known.values()
    for reader, mailing in pictured.items():
        units, orders, centres = drawn_parts(mailing.picture.picture.svg)
        assert units <= everything
        assert 'class="ghost"' not in mailing.picture.picture.svg  # the board as the orders were given
        lines = [line for line in mailing.rendered.body.splitlines() if ":" in line]
        for power, place in units | orders:
            name = f"{standard.powers[power].display}: "
            assert power == reader or any(line.startswith(name) and standard.locations[place].name in line
                                          for line in lines), (reader, power, place)
        assert {p for p, _ in orders} <= {p for p, _ in units}
        for place, owner in centres.items():
            name = f"{standard.powers[owner].display}: " if owner not in ("?", "") else "Unowned: "
            assert owner in (reader, "?") or any(line.startswith(name) and standard.locations[place].name
                                                 in line for line in lines), (reader, owner, place)


def test_a_reader_sees_the_foreign_units_next_to_its_own(standard):
    """France, in Burgundy since the spring, sees the German army of Munich and its order; it is not
    told who owns Berlin, nor sees anything of the Balkans."""
    status, events = played(standard, "F1901M")
    mailings = Mailer(environment(), status, standard, judge="DPJT", pictures=True).for_events(events, NOW)
    by = {a.split("@")[0]: m.picture.picture.svg for m in mailings for a in m.recipients}
    units, orders, centres = drawn_parts(by["france"])
    assert ("GERMANY", "MUN") in units and ("GERMANY", "MUN") in orders
    assert not {p for p, _ in units} & {"AUSTRIA", "RUSSIA", "TURKEY"}
    assert centres["MUN"] == "GERMANY" and centres["BER"] == "?" and centres["BEL"] == ""
    assert "France: 5 centres, 3 units" in by["france"] and "Germany: 1 unit seen" in by["france"]


def spring_from_hides(standard, rules: str = "RULE BLIND"):
    """Spring 1902 processed from the status DPjudge saved after the winter of hidden builds (its
    `HIDES` lines), with the orders of `ORDERS`."""
    text = (FIXTURES / "hidden" / "status").read_text().replace("RULE BLIND\n", f"{rules}\n" if rules else "")
    return process_phase(everyone_orders(parse_status(text), ORDERS["S1902M"]), standard, NOW)


@pytest.mark.parametrize("reader", READERS)
def test_units_a_dpjudge_file_hides_are_found_or_arrive_as_dpjudge_tells(standard, reader):
    """A BLIND game moved in from DPjudge after a winter of hidden builds: its `HIDES` lines name
    them, and the spring's results tell each reader what DPjudge told him."""
    status, events = spring_from_hides(standard)
    mailings = Mailer(environment(), status, standard, judge="DPJT").for_events(events, NOW)
    ours = {a.split("@")[0]: m.rendered.body for m in mailings for a in m.recipients}
    assert normalised(ours[reader]) == normalised((FIXTURES / "hidden" / f"{reader}.txt").read_text())


def test_units_a_dpjudge_file_hides_are_found_by_all_in_a_game_not_blind(standard):
    """Without BLIND, DPjudge writes a FOUND line for each unit of `HIDES` before the power's orders."""
    status, events = spring_from_hides(standard, rules="")
    mailings = Mailer(environment(), status, standard, judge="TEST").for_events(events, NOW)
    [results] = [m.rendered for m in mailings if m.rendered.subject.startswith("Diplomacy results")]
    assert normalised(results.body) == normalised((FIXTURES / "hidden" / "open.txt").read_text())


@pytest.mark.parametrize("rules", ["RULE BLIND", ""])
def test_the_movement_that_reveals_the_hidden_units_clears_hides(standard, rules):
    status, _ = spring_from_hides(standard, rules)
    assert all(not block.hides for block in status.powers)


def test_builds_dpjudge_keeps_hidden_are_built_and_hidden_as_dpjudge_does(standard):
    """A winter moved in from DPjudge with builds ordered under HIDE_BUILDS (`BUILD A TRI
    HIDDEN`, DPjudge's pending hidden build): they are built, and the status keeps them on HIDES
    with the units where DPjudge's status after the winter has them."""
    status, _ = process_phase(parse_status((FIXTURES / "hidden" / "winter.status").read_text()),
                              standard, NOW)
    theirs = parse_status((FIXTURES / "hidden" / "status").read_text())
    for block in theirs.powers:
        ours = status.power(block.name)
        assert (set(ours.units), ours.hides) == (set(block.units), block.hides), block.name


@pytest.mark.parametrize("reader", READERS)
def test_builds_dpjudge_keeps_hidden_are_told_as_dpjudge_tells_them(standard, reader):
    """The same winter's results: each reader's mail is DPjudge's (as without HIDE_BUILDS)."""
    status, events = process_phase(parse_status((FIXTURES / "hidden" / "winter.status").read_text()),
                                   standard, NOW)
    mailings = Mailer(environment(), status, standard, judge="DPJT").for_events(events, NOW)
    ours = {a.split("@")[0]: m.rendered.body for m in mailings for a in m.recipients}
    assert normalised(ours[reader]) == normalised((FIXTURES / "W1901A" / f"{reader}.txt").read_text())
