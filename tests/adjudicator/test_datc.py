"""The DATC (Kruijswijk, 3.1), sections 6.A to 6.J, run through `judge adjudicate`'s pipeline.

Each case's steps go through `adjudicate_request` in turn: a later step starts from the units the
previous one left, its dislodged units written as in a status file (`F NTH --> NWG EDI`), and from
its centres unless the step lists its own. Results are matched to the orders as given.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.adjudicator.request import adjudicate_request
from tests.adjudicator.datc_cases import Case, load_cases

CASES = load_cases(Path(__file__).parent / "datc")
UNIT_ORDER = re.compile(r"([AF] [A-Z]{3}(?:/[A-Z]{2})?)(?: .*)?")


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in CASES])
def test_datc(case: Case, standard) -> None:
    previous = None
    for number, step in enumerate(case.steps, start=1):
        request = _request(step.request, previous)
        answer = adjudicate_request(request, load_map=lambda name: standard)
        where = f"{case.id} step {number} ({request['phase']})"
        assert _results(request, answer) == _sorted(step.expected["results"]), where
        if "units" in step.expected:
            assert _units(answer, step.expected["units"]) == step.expected["units"], where
        if "dislodged" in step.expected or "units" in step.expected:
            assert answer["dislodged"] == step.expected.get("dislodged", {}), where
        previous = answer


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


def _results(request: dict, answer: dict) -> dict[str, list[str]]:
    """The answer's results keyed as the tables key them: the unit as written, `#2` for repeats."""
    found: dict[str, list[str]] = {}
    for power, orders in request["orders"].items():
        for text, entry in zip(orders, answer["results"].get(power, [])):
            match = UNIT_ORDER.fullmatch(text)
            key = text if match is None else match.group(1)
            unique, n = key, 1
            while unique in found:
                n += 1
                unique = f"{key} #{n}"
            found[unique] = sorted(entry["result"])
    return found


def _sorted(results: dict[str, list[str]]) -> dict[str, list[str]]:
    return {key: sorted(words) for key, words in results.items()}


def _units(answer: dict, expected: dict[str, list[str]]) -> dict[str, list[str]]:
    units = {p: us for p, us in answer["units"].items() if us or p in expected}
    return {p: units.get(p, []) for p in sorted(set(units) | set(expected))}
