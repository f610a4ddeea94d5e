"""`adjudicate_request` and `judge adjudicate`: the stable JSON interface."""
from __future__ import annotations

import io
import json

import pytest

from judge.adjudicator.request import RequestError, adjudicate_request, adjudicate_text
from judge.cli import main
from judge.maps.loader import load_map

EXAMPLE = {"map": "standard", "phase": "SPRING 1901 MOVEMENT",
           "units": {"ENGLAND": ["F NTH", "A LON"], "FRANCE": ["F ENG"]},
           "centers": {"ENGLAND": ["EDI", "LON", "LVP"]},
           "orders": {"ENGLAND": ["F NTH C A LON - BEL", "A LON - BEL"]}}


def request(**changes) -> dict:
    return {**EXAMPLE, **changes}


def test_the_example_of_the_interface():
    assert adjudicate_request(EXAMPLE, load_map) == {
        "phase": "SPRING 1901 MOVEMENT",
        "results": {
            "ENGLAND": [{"unit": "F NTH", "order": "F NTH C A LON - BEL", "result": []},
                        {"unit": "A LON", "order": "A LON - BEL", "result": []}],
            "FRANCE": [{"unit": "F ENG", "order": "F ENG H", "result": []}]},
        "units": {"ENGLAND": ["A BEL", "F NTH"], "FRANCE": ["F ENG"]},
        "dislodged": {},
        "centers": {"ENGLAND": ["EDI", "LON", "LVP"]},
        "next_phase": "FALL 1901 MOVEMENT",
    }


def test_a_dislodged_unit_is_listed_with_its_sorted_retreats():
    answer = adjudicate_request(request(
        units={"ENGLAND": ["F NTH", "F LON", "F WAL"], "FRANCE": ["F ENG"]},
        orders={"ENGLAND": ["F LON - ENG", "F WAL S F LON - ENG"]}), load_map)
    assert answer["dislodged"] == {"FRANCE": {"F ENG": ["BEL", "BRE", "IRI", "MAO", "PIC"]}}
    assert answer["results"]["FRANCE"] == [{"unit": "F ENG", "order": "F ENG H",
                                            "result": ["dislodged"]}]
    assert answer["next_phase"] == "SPRING 1901 RETREATS"


def test_an_array_is_answered_with_an_array_in_order():
    second = request(orders={})
    answers = adjudicate_request([EXAMPLE, second], load_map)
    assert [a["units"]["ENGLAND"] for a in answers] == [["A BEL", "F NTH"], ["A LON", "F NTH"]]


def test_the_phase_may_be_abbreviated():
    assert adjudicate_request(request(phase="F1901M"), load_map)["phase"] == "FALL 1901 MOVEMENT"


def test_centres_default_to_the_starting_ownership():
    answer = adjudicate_request({k: v for k, v in EXAMPLE.items() if k != "centers"}, load_map)
    assert answer["centers"]["RUSSIA"] == ["MOS", "SEV", "STP", "WAR"]
    assert len(answer["centers"]) == 7


def test_given_centres_are_complete():
    assert adjudicate_request(EXAMPLE, load_map)["centers"] == {"ENGLAND": ["EDI", "LON", "LVP"]}


def test_an_unreadable_order_is_void_with_an_error_and_the_unit_holds():
    answer = adjudicate_request(request(orders={"ENGLAND": ["F NTH flies to the moon"]}), load_map)
    entry = answer["results"]["ENGLAND"][0]
    assert entry["unit"] == "F NTH" and entry["result"] == ["void"] and entry["error"]
    assert answer["units"]["ENGLAND"] == ["A LON", "F NTH"]


def test_an_unreadable_order_of_a_dislodged_unit_says_both():
    answer = adjudicate_request(request(
        units={"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["F ENG"]},
        orders={"ENGLAND": ["F LON - ENG", "F WAL S F LON - ENG"], "FRANCE": ["F ENG xyzzy"]}), load_map)
    assert answer["results"]["FRANCE"][0]["result"] == ["dislodged", "void"]
    assert len(answer["results"]["FRANCE"]) == 1


def test_an_illegal_order_is_void_with_an_error():
    answer = adjudicate_request(request(orders={"ENGLAND": ["A LON - MUN"]}), load_map)
    entry = answer["results"]["ENGLAND"][0]
    assert entry["result"] == ["void"] and "error" in entry


def test_no_error_for_an_order_that_succeeds():
    entries = adjudicate_request(EXAMPLE, load_map)["results"]["ENGLAND"]
    assert all("error" not in e for e in entries)


def test_orders_given_twice_are_each_listed_in_the_order_given():
    answer = adjudicate_request(request(orders={
        "ENGLAND": ["A LON - YOR", "F NTH H", "A LON - YOR", "garbage", "A LON - WAL"],
        "FRANCE": ["F ENG - BRE", "F ENG - BRE"]}), load_map)
    listed = {power: [(e["order"], e["result"]) for e in entries]
              for power, entries in answer["results"].items()}
    assert listed == {"ENGLAND": [("A LON - YOR", ["void"]), ("F NTH H", []), ("A LON - YOR", ["void"]),
                                  ("garbage", ["void"]), ("A LON - WAL", ["void"])],
                      "FRANCE": [("F ENG - BRE", ["void"]), ("F ENG - BRE", ["void"])]}


def test_the_maps_come_from_the_caller_each_once_a_call():
    asked = []

    def loader(name):
        asked.append(name)
        return load_map(name)

    adjudicate_request([EXAMPLE, request(phase="F1901M")], loader)
    assert asked == ["standard"]
    with pytest.raises(TypeError):
        adjudicate_request(EXAMPLE)  # the core reads no map files itself


# --- the answer as JSON text ----------------------------------------------------------------------

ODD_REQUESTS = [  # unreadable orders echoed, unicode and characters JSON escapes, an empty list
    request(orders={"ENGLAND": ["A LON \u2192 \u00e9t\u00e9 \"\\/\n", "xyzzy\t\u2028"], "FRANCE": []}),
    request(units={"ENGLAND": ["F NTH", "F LON", "F WAL"], "FRANCE": ["F ENG"]},
            orders={"ENGLAND": ["F LON - ENG", "F WAL S F LON - ENG"],
                    "FRANCE": ["F ENG - L\u00e9on"]}),
]


@pytest.mark.parametrize("requests", [EXAMPLE, [EXAMPLE, request(orders={"ENGLAND": ["xyzzy"]})], [],
                                      *ODD_REQUESTS, ODD_REQUESTS],
                         ids=["one", "array", "empty-array", "odd", "dislodged", "odd-array"])
def test_the_answer_is_written_as_json_dumps_writes_it(requests):
    text = adjudicate_text(json.dumps(requests), load_map)
    assert text == json.dumps(json.loads(text), indent=1)
    assert json.loads(text) == adjudicate_request(requests, load_map)


# --- the next phase -------------------------------------------------------------------------------

START = {"AUSTRIA": ["A BUD", "A VIE", "F TRI"], "ENGLAND": ["A LVP", "F EDI", "F LON"],
         "FRANCE": ["A MAR", "A PAR", "F BRE"], "GERMANY": ["A BER", "A MUN", "F KIE"],
         "ITALY": ["A ROM", "A VEN", "F NAP"], "RUSSIA": ["A MOS", "A WAR", "F SEV", "F STP/SC"],
         "TURKEY": ["A CON", "A SMY", "F ANK"]}


def test_an_autumn_without_changes_skips_retreats_and_adjustments():
    answer = adjudicate_request({"map": "standard", "phase": "FALL 1901 MOVEMENT", "units": START}, load_map)
    assert answer["next_phase"] == "SPRING 1902 MOVEMENT"


def test_an_autumn_that_takes_a_centre_leads_to_adjustments():
    answer = adjudicate_request({"map": "standard", "phase": "FALL 1901 MOVEMENT", "units": START,
                                 "orders": {"GERMANY": ["F KIE - DEN"]}}, load_map)
    assert answer["next_phase"] == "WINTER 1901 ADJUSTMENTS"
    assert answer["centers"]["GERMANY"] == ["BER", "KIE", "MUN"]  # ownership is the game's job


def test_no_adjustments_when_the_only_build_has_nowhere_to_go():
    units = {**START, "GERMANY": ["A BER", "A MUN", "F KIE", "A RUH"]}
    centers = {p: sorted({u.split()[1][:3] for u in us}) for p, us in START.items()}
    centers["GERMANY"] = ["BER", "HOL", "KIE", "MUN"]
    answer = adjudicate_request({"map": "standard", "phase": "FALL 1901 MOVEMENT", "units": units,
                                 "centers": centers,
                                 "orders": {"GERMANY": ["F KIE - DEN", "A RUH - KIE"]}}, load_map)
    assert answer["next_phase"] == "SPRING 1902 MOVEMENT"  # five centres, four units, no free home


def test_a_retreat_phase_reads_dislodged_units_as_a_status_file_writes_them():
    answer = adjudicate_request({"map": "standard", "phase": "SPRING 1901 RETREATS",
                                 "units": {"ENGLAND": ["F ENG"], "FRANCE": ["F NTH --> NWG EDI"]},
                                 "orders": {"FRANCE": ["F NTH - NWG"]}}, load_map)
    assert answer["units"] == {"ENGLAND": ["F ENG"], "FRANCE": ["F NWG"]}
    assert answer["results"]["FRANCE"][0]["result"] == []
    assert answer["next_phase"] == "FALL 1901 MOVEMENT"


# --- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad, words", [
    (request(map="atlantis"), "atlantis"),
    (request(phase="SUMMER 1901 MOVEMENT"), "SUMMER"),
    (request(phase=7), "phase"),
    (request(units={"ENGLND": ["F NTH"]}), "ENGLND"),
    (request(units={"ENGLAND": ["F PAR"]}), "PAR"),
    (request(units={"ENGLAND": ["A XYZ"]}), "XYZ"),
    (request(units={"ENGLAND": ["F NTH", "A NTH"]}), "NTH"),
    (request(units={"ENGLAND": ["Q LON"]}), "Q LON"),
    (request(units={"ENGLAND": "F NTH"}), "units of ENGLAND"),
    (request(units={"ENGLAND": ["F NTH --> NWG"]}), "retreat phase"),
    (request(centers={"ENGLAND": ["LON"], "FRANCE": ["LON"]}), "LON"),
    (request(centers={"ENGLAND": ["NTH"]}), "NTH"),
    (request(orders={"NARNIA": ["A LON H"]}), "NARNIA"),
    (request(speed="fast"), "speed"),
    ("SPRING 1901", "object"),
])
def test_bad_input_is_a_request_error(bad, words):
    with pytest.raises(RequestError, match=words):
        adjudicate_request(bad, load_map)


def test_a_phase_the_judge_does_not_adjudicate_is_a_request_error():
    with pytest.raises(RequestError, match="INCOME"):
        adjudicate_request({"map": "testing", "phase": "WINTER 1902 INCOME", "units": {}}, load_map)


# --- the command ----------------------------------------------------------------------------------

def test_judge_adjudicate_reads_a_file(tmp_path, capsys):
    path = tmp_path / "phase.json"
    path.write_text(json.dumps([EXAMPLE]))
    assert main(["adjudicate", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["units"]["ENGLAND"] == ["A BEL", "F NTH"]


def test_judge_adjudicate_reads_standard_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(EXAMPLE)))
    assert main(["adjudicate", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["next_phase"] == "FALL 1901 MOVEMENT"


@pytest.mark.parametrize("text, words", [("{not json", "not JSON"),
                                         (json.dumps(request(map="atlantis")), "atlantis")])
def test_judge_adjudicate_reports_bad_input_with_exit_2(monkeypatch, capsys, text, words):
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["adjudicate"]) == 2
    captured = capsys.readouterr()
    assert words in captured.err and "Traceback" not in captured.err and captured.out == ""


def test_judge_adjudicate_reports_a_missing_file(tmp_path, capsys):
    assert main(["adjudicate", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
