"""Every map's names as DPjudge reads them (recorded by tests/maps/dpjudge_names.py, under Python 2,
in dpjudge_names.json): the judge names and letters the powers as DPjudge does, reads each place
name and alias as DPjudge does, and keeps each ABUTS line of the shipped maps in DPjudge's order.
Where it reads a name otherwise, the difference is listed below, its reason in docs/dpjudge.md
("Place names and aliases")."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.errors import OrderError
from judge.maps import load_map
from judge.maps.model import Map
from judge.orders.lexer import Place, lex, place_index

RECORDED = json.loads((Path(__file__).with_name("dpjudge_names.json")).read_text())
REFERENCE = next((p / "shared" / "reference" / "dpjudge" / "DPjudge" / "maps"
                  for p in Path(__file__).resolve().parents
                  if (p / "shared" / "reference" / "dpjudge" / "DPjudge" / "maps").is_dir()), None)

# (map, name as written) -> why the judge reads it otherwise (the reasons of docs/dpjudge.md).
ORDER_WORDS = "DPjudge's reading drops or changes its order words (AND, THE, TO, OF) in the name"
POWER_WORD = "DPjudge reads the word as a power's name or adjective"
ABBREVIATION = "an abbreviation means its own place in the judge, not another place's alias"
MARKED_ONE = "a `?` alias of one place only: the judge reads that place"
MARKED_TWO = "a `?` alias of two places and none plainly: the judge refuses it as ambiguous"
DIFFERENCES = {
    **{(m, "and"): MARKED_ONE for m in ("dpjudge/ambition", "dpjudge/modern", "dpjudge/modern-up",
                                         "dpjudge/slovenia", "judge/modern")},
    ("dpjudge/ambition", "denmark"): MARKED_ONE,
    **{(m, "and"): ORDER_WORDS for m in ("dpjudge/imperial", "dpjudge/youngstown", "judge/youngstown")},
    ("dpjudge/classical", "the"): ORDER_WORDS,
    ("dpjudge/classical", "The Fetters"): ORDER_WORDS,
    ("dpjudge/classical", "The Mamertines"): ORDER_WORDS,
    ("dpjudge/hundred", "The Wash"): ORDER_WORDS,
    **{("dpjudge/sailho", name): ORDER_WORDS for name in (
        "Shrine to Hestia", "Shrine to Hestia (north coast)", "Shrine to Hestia (south coast)",
        "Convent of the Vestal Virgins", "Forest of the Golden Hind", "Field of the Golden Fleece",
        "Realm of the 3 Furies")},
    ("dpjudge/classical", "rome"): POWER_WORD,
    ("dpjudge/youngstown", "english"): POWER_WORD,
    ("dpjudge/youngstown", "japan"): POWER_WORD,
    ("dpjudge/zeus", "ben"): ABBREVIATION,
    ("judge/testing", "haven"): MARKED_TWO,
}
CRASHES = {"dpjudge/vassal"}  # DPjudge cannot load it (it fails renaming a power); the judge can


def _keys() -> list[str]:
    return [k for k in sorted(RECORDED) if k.startswith("judge/") or REFERENCE is not None]


def _map(key: str) -> Map:
    where, name = key.split("/")
    if where == "judge":
        return load_map(name)
    assert REFERENCE is not None
    return load_map(str(REFERENCE / f"{name}.map"), [REFERENCE])


def _reads(m: Map, text: str) -> tuple[str, ...] | None:
    """The places the judge reads a name as, if it reads it as one place word."""
    try:
        lexemes = lex(place_index(m), text, keep=False)
    except OrderError:
        return None
    return lexemes[0].options if len(lexemes) == 1 and isinstance(lexemes[0], Place) else None


def test_every_map_is_recorded():
    shipped = {f"judge/{p.stem}" for p in (Path(__file__).parents[2] / "maps").glob("*.map")}
    assert shipped <= set(RECORDED) and len(RECORDED) == 47
    assert {k for k, facts in RECORDED.items() if "crash" in facts} == CRASHES


@pytest.mark.parametrize("key", [k for k in _keys() if k not in CRASHES])
def test_powers_are_named_and_lettered_as_dpjudge_does(key):
    m = _map(key)
    assert sorted(m.powers) == sorted(p["name"] for p in RECORDED[key]["powers"])
    assert {n: m.powers[n].abbrev for n in m.powers} == {p["name"]: p["letter"] for p in RECORDED[key]["powers"]}


@pytest.mark.parametrize("key", [k for k in _keys() if k not in CRASHES])
def test_place_names_read_as_dpjudge_reads_them(key):
    """Where DPjudge reads a name as one place, the judge reads it as that place alone; where it
    does not, neither does the judge, unless listed."""
    m = _map(key)
    facts = RECORDED[key]
    known = set(facts["places"].values())
    differ = set()
    for text, _, words in facts["names"]:
        theirs = tuple(words) if len(words) == 1 and words[0] in known else None
        if _reads(m, text) != theirs:
            differ.add(text)
    assert differ == {text for (k, text) in DIFFERENCES if k == key}


@pytest.mark.parametrize("key", [k for k in sorted(RECORDED) if "abuts" in RECORDED[k]])
def test_shipped_maps_keep_dpjudges_abuts_order(key):
    m = load_map(key.split("/")[1])
    for site, dests in RECORDED[key]["abuts"].items():
        location = m.locations[site]
        assert [a.dest.upper() for a in location.abuts] == [d.upper() for d in dests], site


def test_youngstowns_tyr_is_tyrolia_for_both():
    facts = RECORDED["dpjudge/youngstown"]
    assert ["tyr", True, ["TYR"]] in facts["names"] and facts["unclear"] == {"TYR": "TYS"}
    assert _reads(load_map("youngstown"), "tyr") == ("TYR",)
