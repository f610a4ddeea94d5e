"""Every adjudication case table, run through `judge adjudicate`'s pipeline: the DATC (Kruijswijk,
3.1) sections 6.A to 6.J in `datc/`, and the judge's own tables in `tables/` (map features, rule
variants, bugs found in real play), all in the format `datc_cases` describes.

Each case's steps go through `adjudicate_request` in turn: a later step starts from the units the
previous one left, its dislodged units written as in a status file (`F NTH --> NWG EDI`), and from
its centres unless the step lists its own. Results are matched to the orders as given.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.adjudicator.request import adjudicate_request
from judge.maps.loader import load_map
from judge.maps.model import Map
from tests.adjudicator.datc_cases import Case, load_cases

HERE = Path(__file__).parent
TABLE_MAPS = HERE / "tables" / "maps"
CASES = load_cases(HERE / "datc") + load_cases(HERE / "tables")
UNIT_ORDER = re.compile(r"([AF] [A-Z]{3}(?:/[A-Z]{2})?)(?: .*)?")
_maps: dict[str, Map] = {}  # each table map loaded once for all the cases


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in CASES])
def test_case(case: Case, standard) -> None:
    previous = None
    for number, step in enumerate(case.steps, start=1):
        request = _request(step.request, previous)
        answer = adjudicate_request(request, load_map=lambda name: _map(name, standard))
        where = f"{case.id} step {number} ({request['phase']}), {case.source}"
        entries = _entries(request, answer)
        expected = step.expected
        assert {key: sorted(e["result"]) for key, e in entries.items()} == _sorted(expected["results"]), where
        for key, text in expected.get("errors", {}).items():
            assert text in entries[key].get("error", ""), f"{where}: {key}"
        if "units" in expected:
            assert _units(answer, expected["units"]) == expected["units"], where
        if "dislodged" in expected or "units" in expected:
            assert answer["dislodged"] == expected.get("dislodged", {}), where
        if "centers" in expected:
            owned = {p: cs for p, cs in answer["centers"].items() if cs or p in expected["centers"]}
            assert owned == expected["centers"], where
        if "next_phase" in expected:
            assert answer["next_phase"] == expected["next_phase"], where
        previous = answer


def _map(name: str, standard: Map) -> Map:
    if name == "standard":
        return standard
    if name not in _maps:
        _maps[name] = load_map(name, search=[TABLE_MAPS], paths=False)
    return _maps[name]


def _request(request: dict, previous: dict | None) -> dict:
    request = dict(request)
    if previous is not None:
        if request.get("units") is None:
            units = {p: list(us) for p, us in previous["units"].items()}
            for power, dislodged in previous["dislodged"].items():
                units.setdefault(power, []).extend(
                    f"{unit} --> {' '.join(retreats)}" for unit, retreats in dislodged.items())
            request["units"] = units
        request.setdefault("centers", previous["centers"])
    return request


def _entries(request: dict, answer: dict) -> dict[str, dict]:
    """The answer's entries keyed as the tables key them: the unit as written, `#2` for repeats."""
    found: dict[str, dict] = {}
    for power, orders in request["orders"].items():
        for text, entry in zip(orders, answer["results"].get(power, [])):
            match = UNIT_ORDER.fullmatch(text)
            key = text if match is None else match.group(1)
            unique, n = key, 1
            while unique in found:
                n += 1
                unique = f"{key} #{n}"
            found[unique] = entry
    return found


def _sorted(results: dict[str, list[str]]) -> dict[str, list[str]]:
    return {key: sorted(words) for key, words in results.items()}


def _units(answer: dict, expected: dict[str, list[str]]) -> dict[str, list[str]]:
    units = {p: us for p, us in answer["units"].items() if us or p in expected}
    return {p: units.get(p, []) for p in sorted(set(units) | set(expected))}
