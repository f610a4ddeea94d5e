"""PRESS and BROADCAST: options, recipients, and every press rule."""
from __future__ import annotations

import pytest

from judge.notices import Press
from judge.mailout.mailings import Mailer
from tests.support.commands import LATE, MAPS, TEMPLATES, eml

ANNA_IN_WINTER = ((b"Chloe Martin <chloe@example.fr>", b"Anna Berg <anna@example.at>"),
                  (b"SIGNON Fvienna paris7", b"SIGNON Awinter wien1"))


def press(sent) -> Press:
    found = sent.events_of(Press)
    assert len(found) == 1, sent.text
    return found[0]


def refused(sent, reason: str) -> None:
    assert sent.failed and reason in sent.text, sent.text
    assert not sent.events_of(Press)
    assert "Unprocessed portion of message follows:" in sent.text


def test_private_press(vienna):
    sent = vienna.send("press_to_england.eml")
    message = press(sent)
    assert (message.sender, message.routing.shown_from, message.routing.to) == ("FRANCE", "FRANCE", ("ENGLAND",))
    assert message.body == ("Shall we talk about the Channel?",) and message.routing.to is not None
    assert sent.outcome("PRESS TO E").quoted == ("Shall we talk about the Channel?",)


def test_broadcast(vienna):
    message = press(vienna.send("press_broadcast.eml"))
    assert message.routing.to is None and message.body == ("France wants peace.",)


def test_quiet_press_is_not_echoed(vienna):
    sent = vienna.send("press_quiet.eml")
    assert press(sent).body == ("No echo please.",)
    assert sent.outcome("PRESS").quoted == () and "No echo please." not in sent.text


def test_recipient_lists(vienna):
    sent = vienna.send("press_list_forms.eml")
    first, second = sent.events_of(Press)
    assert first.routing.to == ("ENGLAND", "RUSSIA", "AUSTRIA", "MASTER", "KIBITZ")
    assert second.routing.to == ("ENGLAND", "RUSSIA")


def test_two_messages_and_either_end_word(vienna):
    sent = vienna.send("press_twice.eml")
    first, second = sent.events_of(Press)
    assert first.body == ("First.",) and second.routing.to is None and second.body == ("Second.",)
    assert sent.outcome("SET NOWAIT").ok


def test_a_message_without_end_runs_to_the_end_of_the_mail(vienna):
    sent = vienna.send("press_no_end.eml")
    assert press(sent).body == ("No end to this message,", "A PAR H")
    assert vienna.status("vienna").power("FRANCE").orders != ("A PAR H",)


@pytest.mark.parametrize("eml_name, reason", [
    ("press_bad_option.eml", "'LOUDLY' is not a press option"),
    ("press_no_to.eml", "PRESS needs TO"),
    ("press_unknown_power.eml", "'XQ' is not a power or player"),
    ("press_to_monitor.eml", "MAPPER is a MONITOR"),
    ("press_empty.eml", "the message is empty"),
    ("press_fake_to_first.eml", "FAKE TO must come after TO"),
])
def test_malformed_press_is_refused(vienna, eml_name, reason):
    sent = vienna.send(eml_name)
    assert sent.failed and reason in sent.text and not sent.events_of(Press)


def test_a_refused_message_comes_back_and_the_rest_is_not_done(vienna):
    sent = vienna.send("press_bad_option.eml")
    assert sent.reply.unprocessed == ("Hello.", "ENDPRESS", "A PAR H")
    assert vienna.status("vienna").power("FRANCE").orders != ("A PAR H",)


# -- NO_PRESS, PUBLIC_PRESS, BACKSEAT_PRESS, MUTE_OBSERVERS ---------------------------------------
def test_no_press_allows_only_press_to_the_master(judge):
    judge.add("vienna", rules=("NO_PRESS",))
    refused(judge.send("press_to_england.eml"), "Private press allowed only to Master")
    refused(judge.send("press_broadcast.eml"), "No broadcasts in this game")
    assert press(judge.send("press_to_master.eml")).routing.to == ("MASTER",)


@pytest.mark.parametrize("rule", ["PUBLIC_PRESS", "NO_PARTIAL"])
def test_public_press_allows_broadcasts_and_the_master(judge, rule):
    judge.add("vienna", rules=(rule,))
    refused(judge.send("press_to_england.eml"), "only BROADCAST and press to the Master")
    assert press(judge.send("press_broadcast.eml")).routing.to is None
    assert press(judge.send("press_to_master.eml")).routing.to == ("MASTER",)


def test_a_forming_game_has_public_press_only(judge):
    judge.add("forming")
    judge.send("join.eml")
    sent = judge.send(eml("signon_seat_number.eml", (b"PRESS TO M", b"PRESS TO 2")))
    refused(sent, "while it is forming")


def test_backseat_press(judge):
    judge.add("vienna", rules=("BACKSEAT_PRESS",))
    refused(judge.send("press_broadcast.eml"), "map powers may send press only to the Master")
    assert press(judge.send("press_observer_broadcast.eml")).routing.to is None
    refused(judge.send("press_observer.eml"), "only broadcasts and press to the Master")


def test_mute_observers(judge):
    judge.add("vienna", rules=("MUTE_OBSERVERS",))
    refused(judge.send("press_observer.eml"), "observers may send press only to the Master")
    assert press(judge.send("press_to_england.eml")).routing.to == ("ENGLAND",)


def test_observers_may_send_press(vienna):
    message = press(vienna.send("press_observer.eml"))
    assert message.sender == "KIBITZ" and message.routing.to == ("FRANCE",)


# -- grey, white, fake ---------------------------------------------------------------------------
def test_grey_needs_white_grey_or_fake_press(vienna):
    refused(vienna.send("press_grey.eml"), "Grey press not allowed")


@pytest.mark.parametrize("rule", ["WHITE_GREY", "FAKE_PRESS"])
def test_grey_press_is_anonymous(judge, rule):
    judge.add("vienna", rules=(rule,))
    message = press(judge.send("press_grey.eml"))
    assert message.routing.shown_from is None and message.routing.to == ("AUSTRIA", "ENGLAND")
    assert "anonymously" in judge.send("press_grey.eml").text


def test_grey_press_rule_makes_all_press_anonymous_but_to_the_master(judge):
    judge.add("vienna", rules=("GREY_PRESS",))
    assert press(judge.send("press_to_england.eml")).routing.shown_from is None
    assert press(judge.send("press_to_master.eml")).routing.shown_from == "FRANCE"
    refused(judge.send("press_white.eml"), "White press not allowed")


def test_white_under_grey_press_with_white_grey(judge):
    judge.add("vienna", rules=("GREY_PRESS", "WHITE_GREY"))
    assert press(judge.send("press_white.eml")).routing.shown_from == "FRANCE"


def test_yellow_press_makes_broadcasts_anonymous(judge):
    judge.add("vienna", rules=("YELLOW_PRESS",))
    assert press(judge.send("press_broadcast.eml")).routing.shown_from is None
    assert press(judge.send("press_to_england.eml")).routing.shown_from == "FRANCE"


@pytest.mark.parametrize("eml_name", ["press_fake_from.eml", "press_fake_to.eml",
                                      "press_fake_broadcast.eml"])
def test_fake_press_needs_the_rule(vienna, eml_name):
    refused(vienna.send(eml_name), "Fake press not allowed")


def test_fake_press(judge):
    judge.add("vienna", rules=("FAKE_PRESS",))
    from_germany = press(judge.send("press_fake_from.eml"))
    assert (from_germany.sender, from_germany.routing.shown_from) == ("FRANCE", "GERMANY")
    fake_to = press(judge.send("press_fake_to.eml"))
    assert fake_to.routing.to == ("AUSTRIA",) and fake_to.routing.shown_to == ("AUSTRIA", "TURKEY")
    everyone = press(judge.send("press_fake_broadcast.eml"))
    assert everyone.routing.to == ("AUSTRIA",) and everyone.routing.shown_to is None
    text = judge.send("press_fake_broadcast.eml").text
    assert "Its readers are told it went to everyone." in text


def test_no_press_claims_to_come_from_the_master(judge):
    judge.add("vienna", rules=("FAKE_PRESS",))
    refused(judge.send("press_fake_from_master.eml"), "FROM the Master")
    refused(judge.send("press_fake_master_mismatch.eml"), "the Master must be among both")


def test_the_master_is_bound_by_no_press_rule(judge):
    judge.add("vienna", rules=("NO_PRESS",))
    sent = judge.send("press_master.eml")
    fake, broadcast = sent.events_of(Press)
    assert fake.sender == "MASTER" and fake.routing.shown_from == "GERMANY" and broadcast.routing.to is None


def test_official(vienna):
    sent = vienna.send("press_official.eml")
    assert press(sent).official == "House rules"
    assert "goes out as 'House rules'" in sent.text
    player = vienna.send("press_official_player.eml")
    assert player.failed and "only the Master may use OFFICIAL" in player.text


# -- orders, deadlines and lateness ----------------------------------------------------------
def test_must_order(judge):
    judge.add("vienna", rules=("MUST_ORDER",))
    refused(judge.send("press_england.eml"), "Press disallowed before order submission")
    assert press(judge.send("press_after_orders.eml")).routing.to == ("FRANCE",)
    assert press(judge.send("press_to_england.eml")).routing.to == ("ENGLAND",)  # France has orders


def test_must_order_allows_press_to_the_master(judge):
    judge.add("vienna", rules=("MUST_ORDER",))
    sent = judge.send(eml("press_england.eml", (b"PRESS TO F", b"PRESS TO M")))
    assert press(sent).routing.to == ("MASTER",)


def test_a_late_power_sends_no_private_press(vienna):
    refused(vienna.send("press_england.eml", now=LATE), "Private press not allowed while late")


def test_late_send(judge):
    judge.add("vienna", rules=("LATE_SEND",))
    assert press(judge.send("press_england.eml", now=LATE)).routing.to == ("FRANCE",)


def test_no_late_receive(judge):
    judge.add("vienna", rules=("NO_LATE_RECEIVE",))
    assert press(judge.send("press_to_russia.eml")).routing.to == ("RUSSIA",)  # before the deadline
    refused(judge.send("press_to_russia.eml", now=LATE),
            "Private press may not be sent to late power (RUSSIA)")


def test_ftf_press_after_the_deadline(judge):
    judge.add("vienna", rules=("FTF_PRESS",))
    assert press(judge.send("press_to_england.eml")).routing.to == ("ENGLAND",)
    refused(judge.send("press_to_england.eml", now=LATE), "no private press after the deadline")


def test_ftf_press_outside_movement_phases(judge):
    judge.add("winter", rules=("FTF_PRESS",))
    sent = judge.send(eml("press_to_england.eml", *ANNA_IN_WINTER, (b"PRESS TO E", b"PRESS TO T")))
    refused(sent, "press only to the Master outside movement phases")
    sent = judge.send(eml("press_to_england.eml", *ANNA_IN_WINTER, (b"PRESS TO E", b"PRESS TO M")))
    assert press(sent).routing.to == ("MASTER",)


TO_TURKEY = (b"PRESS TO E", b"PRESS TO T")


def test_touch_press_goes_only_to_powers_whose_units_touch(judge):
    judge.add("vienna", rules=("TOUCH_PRESS",))  # A BUR touches A BEL; nothing French touches Turkey
    assert press(judge.send("press_to_england.eml")).routing.to == ("ENGLAND",)
    refused(judge.send(eml("press_to_england.eml", TO_TURKEY)), "Press to TURKEY impossible (TOUCH_PRESS")
    refused(judge.send("press_broadcast.eml"), "Broadcast press not allowed (TOUCH_PRESS)")
    assert press(judge.send("press_to_master.eml")).routing.to == ("MASTER",)


def test_remote_press_goes_only_to_powers_far_away(judge):
    judge.add("vienna", rules=("REMOTE_PRESS",))
    assert press(judge.send(eml("press_to_england.eml", TO_TURKEY))).routing.to == ("TURKEY",)
    refused(judge.send("press_to_england.eml"), "Press to ENGLAND impossible (REMOTE_PRESS")
    refused(judge.send("press_broadcast.eml"), "Broadcast press not allowed (REMOTE_PRESS)")


@pytest.mark.parametrize("rules", [("BLIND", "UNITS_SEE_OTHER"), ("BLIND", "SEE_NO_UNITS")])
def test_touch_press_in_a_blind_game_needs_each_to_see_the_others_unit(judge, rules):
    """A BUR touches A BEL, but an army does not see an army (UNITS_SEE_OTHER) and no English
    fleet or centre is next to Burgundy."""
    judge.add("vienna", rules=("TOUCH_PRESS", *rules))
    refused(judge.send("press_to_england.eml"), "Press to ENGLAND impossible (TOUCH_PRESS")


def test_touch_press_in_a_blind_game_between_units_that_see_each_other(judge):
    judge.add("vienna", rules=("TOUCH_PRESS", "BLIND"))
    assert press(judge.send("press_to_england.eml")).routing.to == ("ENGLAND",)


def test_touch_press_with_public_press_allows_broadcasts(judge):
    judge.add("vienna", rules=("TOUCH_PRESS", "PUBLIC_PRESS"))
    assert press(judge.send("press_broadcast.eml")).routing.to is None
    assert press(judge.send("press_to_england.eml")).routing.to == ("ENGLAND",)



TO_RUSSIA_IN_WINTER = (*ANNA_IN_WINTER, (b"PRESS TO E", b"PRESS TO R"))


def winter_without_control(judge, rules: tuple[str, ...] = ()) -> None:
    """Winter, where nobody controls the dummy RUSSIA."""
    judge.add("winter", rules=rules)
    path = judge.store.root / "winter" / "status"
    path.write_text(path.read_text().replace("CONTROL TURKEY\n", ""))


def test_press_to_a_controlled_dummy_reaches_its_controller(judge):
    judge.add("winter")
    assert press(judge.send(eml("press_to_england.eml", *TO_RUSSIA_IN_WINTER))).routing.to == ("RUSSIA",)


def test_no_press_to_a_dummy_nobody_reads(judge):
    winter_without_control(judge)
    refused(judge.send(eml("press_to_england.eml", *TO_RUSSIA_IN_WINTER)), "Press to RUSSIA impossible")


def test_hide_dummies_takes_press_to_a_dummy_as_to_any_power(judge):
    winter_without_control(judge, ("HIDE_DUMMIES",))
    assert press(judge.send(eml("press_to_england.eml", *TO_RUSSIA_IN_WINTER))).routing.to == ("RUSSIA",)


def test_a_misspelt_command_is_refused_as_one_not_as_an_order(vienna):
    sent = vienna.send(eml("orders.eml", (b"A PAR - BUR", b"PRES TO A")))
    assert sent.failed and "PRES is not a command (did you mean PRESS?)" in sent.prose
    assert "no such place" not in sent.text


def test_an_order_naming_a_place_in_full_is_no_misspelt_command(vienna):
    sent = vienna.send(eml("orders.eml", (b"A PAR - BUR", b"PARIS - BURGUNDY")))
    assert not sent.failed


@pytest.mark.parametrize("eml_name, said, subject, opening", [
    ("press_fake_from.eml", "as from GERMANY", "Diplomacy press from Germany (vienna)", "Message from Germany to"),
    ("press_grey.eml", "anonymously", "Diplomacy press (vienna)", "Message to Austria and England"),
    ("press_fake_broadcast.eml", "told it went to everyone", "Diplomacy press from France (vienna)",
     "Broadcast message from France"),
])
def test_the_reply_and_the_readers_mail_tell_the_same_sender_and_recipients(judge, eml_name, said, subject,
                                                                            opening):
    judge.add("vienna", rules=("FAKE_PRESS",))
    sent = judge.send(eml_name)
    assert said in sent.prose
    status = judge.status("vienna")
    [reader, *_] = Mailer(TEMPLATES, status, MAPS.get(status.map_name)).for_events(sent.events)
    assert reader.rendered.subject == subject and reader.rendered.body.startswith(opening)
