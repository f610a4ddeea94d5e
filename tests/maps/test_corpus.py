"""Every map file of DPjudge's corpus parses without a single error, and some facts hold."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.maps import load_map, map_for_phase
from judge.types import Unit, UnitType

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "dpjudge-maps"
MAP_FILES = sorted(CORPUS.glob("*.map")) + sorted(CORPUS.glob("trials/*.map")) if CORPUS.is_dir() else []
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not beside this checkout")


@needs_corpus
def test_corpus_has_its_45_map_files():
    assert len(MAP_FILES) == 44  # and imperial/standard/youngstown split files, used by USE
    assert len(list(CORPUS.glob("*.geography"))) == 3


@needs_corpus
@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.name)
def test_corpus_map_parses(path):
    m = load_map(str(path), [CORPUS])
    assert m.powers and m.supply_centers
    map_for_phase(m, m.begin)


@needs_corpus
@pytest.mark.parametrize("name, provinces, centres, powers, units", [
    ("standard", 75, 34, 7, 22),
    ("ancmed", None, 34, 5, None),
    ("modern", None, 64, 10, None),
    ("chaos", None, 34, 34, 0),  # chaos starts with builds
    ("pure", 7, 7, 7, 7),
])
def test_corpus_facts(name, provinces, centres, powers, units):
    m = load_map(str(CORPUS / f"{name}.map"))
    assert len(m.supply_centers) == centres and len(m.powers) == powers
    if provinces is not None:
        assert len(m.provinces) == provinces
    if units is not None:
        assert sum(len(p.units) for p in m.powers.values()) == units


@needs_corpus
def test_corpus_standard_split_files_match_details():
    m = load_map(str(CORPUS / "standard.map"))
    assert m.powers["RUSSIA"].units == (  # in the file's order, as DPjudge lists them
        Unit(UnitType.ARMY, "WAR"), Unit(UnitType.ARMY, "MOS"), Unit(UnitType.FLEET, "SEV"),
        Unit(UnitType.FLEET, "STP/SC"))
    assert m.moves(UnitType.FLEET, "BUL/EC") == ("BLA", "CON", "RUM")
    assert m.victory == (18,)


@needs_corpus
def test_corpus_loeb9_arctic_opens_in_spring():
    from judge.types import Phase
    m = load_map(str(CORPUS / "loeb9.map"))
    assert m.locations["ARC"].terrain.value == "SHUT"
    spring = map_for_phase(m, Phase("SPRING", 1902, "MOVEMENT"))
    assert spring.locations["ARC"].terrain.value == "WATER"
    assert "ARC" in spring.moves(UnitType.FLEET, "BAR")


@needs_corpus
def test_corpus_classical_counts_years_down():
    from judge.phases import next_phase
    m = load_map(str(CORPUS / "classical.map"))
    phase = m.begin
    seen = []
    for _ in range(6):
        seen.append(phase.abbrev)
        phase = next_phase(m, phase)
    assert seen == ["B273M", "B273R", "B272M", "B272R", "B272A", "B271M"]
