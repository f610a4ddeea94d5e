"""Status files DPjudge itself saved (its games folder, recorded as fixtures): each reads, and is
written back byte for byte; the files a CREATE mail made (in the Master's own order) read too."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from judge.status import parse_status, write_status
from judge.status.model import Layout, Omniscience

GAMES = Path(__file__).parent / "fixtures" / "dpjudge" / "games"
PHASES = Path(__file__).parent / "fixtures" / "dpjudge" / "phases"
SAVED = sorted([*GAMES.glob("*/status*"), *PHASES.iterdir()])
CREATED = ("gamma", "delta")  # written by CREATE as the mail gave the lines, never saved since


def text_of(path: Path) -> str:
    return path.read_bytes().decode("latin-1")


@pytest.mark.parametrize("path", [p for p in SAVED if p.parent.name not in CREATED],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_file_dpjudge_saved_round_trips_exactly(path):
    text = text_of(path)
    assert write_status(parse_status(text, path.name)) == text


@pytest.mark.parametrize("name", CREATED)
def test_a_file_a_create_mail_made_reads(name):
    status = parse_status(text_of(GAMES / name / "status"))
    assert parse_status(write_status(status)) == status


def test_every_directive_of_the_beta_game_is_read():
    status = parse_status(text_of(GAMES / "beta" / "status"))
    assert (status.judge, status.signon, status.groups) == ("USDP", "Mbeta legacy", ("EUROPE", "CLUB"))
    assert status.address == ("gm@example.com", "gm@work.example.org")
    assert status.master.name == "Gérard_Maître" and status.tester == "tester@example.com"
    assert status.origin == ("Nommée d'après «beta»",) and status.rules_off == {"BROADCAST_ORDERS"}
    assert status.layout is Layout.DPJUDGE
    france = status.power("FRANCE")
    assert (france.sees, [str(u) for u in france.hides], france.omniscient) == (
        ("BEL", "HOL"), ["A PAR", "F BRE"], Omniscience.PRESS)
    assert france.messages == ("Bonne chance à tous",) and france.wait
    assert status.power("ZOÉ").kind == "OBSERVER"


def test_every_snapshot_dpjudge_kept_reads():
    for path in GAMES.glob("alpha/status.*"):
        assert parse_status(text_of(path)).phase.abbrev == path.name.split(".")[1]


def test_rules_keep_the_sequence_dpjudge_wrote_them_in():
    text = text_of(PHASES / "rho.rules.dpjudge")
    status = parse_status(text)
    assert "RULE NO_PRESS\nRULE CIVIL_DISORDER\nRULE PROXY_OK\nRULE !HOLD_WIN\n" in text
    added = replace(status, rules=status.rules - {"NO_PRESS"} | {"BLIND", "ANONYMOUS"})
    assert "RULE CIVIL_DISORDER\nRULE PROXY_OK\nRULE ANONYMOUS\nRULE BLIND\nRULE !HOLD_WIN\n" in \
        write_status(added)
    assert "RULE CIVIL_DISORDER\nRULE NO_PRESS\nRULE PROXY_OK\n" in \
        write_status(replace(status, layout=Layout.JUDGE))
