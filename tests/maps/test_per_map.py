"""`per_map`: made once a map, kept while the map lives, let go with it."""
from __future__ import annotations

import gc
import weakref

from judge.maps.model import per_map
from tests.support.maps import map_from_text

TINY = """\
Alpha = alp
Beta = bet
LAND ALP ABUTS BET
LAND BET ABUTS ALP
"""


class Facts:
    made = 0

    def __init__(self, m) -> None:
        Facts.made += 1
        self.places = len(m.locations)


def test_made_once_a_map_and_let_go_with_it():
    facts_of = per_map(Facts)
    first, second = map_from_text(TINY), map_from_text(TINY)
    assert facts_of(first) is facts_of(first) and Facts.made == 1
    assert facts_of(second) is not facts_of(first) and Facts.made == 2
    facts = weakref.ref(facts_of(first))
    del first
    gc.collect()
    assert facts() is None  # the map gone, so is what was kept for it
