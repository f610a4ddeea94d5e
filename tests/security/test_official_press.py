"""OFFICIAL press goes where it is sent: the Master's OFFICIAL changes the subject and drops the
press header of the PRESS or BROADCAST after it, never its readers."""
from __future__ import annotations

import pytest

from tests.support.commands import NOW
from tests.support.mail import mail

pytestmark = pytest.mark.security


def official(handler, *lines: str, number: int = 0) -> list[str]:
    """The addresses the Master's OFFICIAL press reached (the reply to the Master left out)."""
    mails = handler(mail("joe@blow.com", "SIGNON Mvienna kr4k3n", "OFFICIAL House rules", *lines,
                         "Be polite.", "ENDPRESS", number=number), NOW)
    sent = [m for m in mails if m["Subject"] == "House rules (vienna)"]
    assert sent, "no OFFICIAL press went out"
    return sorted(m["To"] for m in sent)


def test_official_press_to_one_power_reaches_that_power_only(handler):
    assert official(handler, "PRESS TO ENGLAND") == ["ben@example.co.uk"]


def test_official_press_to_several_powers_reaches_them_only(handler):
    assert official(handler, "PRESS TO E,G") == ["ben@example.co.uk", "dieter@example.de"]


def test_official_broadcast_reaches_everyone_a_broadcast_reaches(handler):
    everyone = ["anna.berg@uni.example.at", "anna@example.at", "ben@example.co.uk",
                "chloe@example.fr", "dieter@example.de", "fyodor@example.ru",
                "gul@example.com.tr", "kibitz@example.org"]
    assert official(handler, "BROADCAST") == everyone
    plain = handler(mail("joe@blow.com", "SIGNON Mvienna kr4k3n", "BROADCAST", "Be polite.",
                         "ENDPRESS", number=1), NOW)
    assert sorted(m["To"] for m in plain if m["To"] != "joe@blow.com") == everyone


def test_a_power_not_addressed_gets_no_official_press(handler):
    reached = official(handler, "PRESS TO ENGLAND")
    for other in ("chloe@example.fr", "anna@example.at", "kibitz@example.org",
                  "mapper@example.org", "gul@example.com.tr"):
        assert other not in reached


def test_official_press_under_eavesdrop_is_seen_as_private_press_is(handler):
    path = handler.store.root / "vienna" / "status"
    text = path.read_text().replace("RULE CIVIL_DISORDER", "RULE CIVIL_DISORDER\nRULE EAVESDROP")
    path.write_text(text.replace("OMNISCIENT\n", "OMNISCIENT!\n"))  # KIBITZ reads all press
    assert official(handler, "PRESS TO ENGLAND") == ["ben@example.co.uk", "kibitz@example.org"]
