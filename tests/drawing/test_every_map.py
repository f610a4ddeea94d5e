"""Every shipped map and every map of DPjudge's corpus draws at its start, each unit once."""
from __future__ import annotations

import pytest

from judge.maps.loader import bundled_maps_dir
from tests.support.drawing import CORPUS, parts, start_svg

SHIPPED = sorted(bundled_maps_dir().glob("*.map"))
CORPUS_MAPS = sorted(CORPUS.glob("*.map")) + sorted(CORPUS.glob("trials/*.map")) if CORPUS.is_dir() else []
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="DPjudge's map corpus is not beside this checkout")


def _drawn(path, search=()):
    m, svg = start_svg(str(path), search)
    units = [(u.get("data-power"), u.get("data-place")) for u in parts(svg, "unit")]
    expected = [(p, u.location) for p, info in m.powers.items() for u in info.units]
    assert sorted(units) == sorted(expected)
    assert len(parts(svg, "center")) == len(m.supply_centers)
    return svg


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_map_draws_from_its_own_data(path):
    assert not parts(_drawn(path), "schematic")


@needs_corpus
@pytest.mark.parametrize("path", CORPUS_MAPS, ids=lambda p: p.stem)
def test_every_corpus_map_draws_schematically(path):
    assert len(parts(_drawn(path, [CORPUS]), "schematic")) == 1
