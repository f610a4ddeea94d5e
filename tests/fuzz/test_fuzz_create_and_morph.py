"""Hostile map text by mail: whatever lines a CREATE or a MORPH brings, the judge answers in bounded
CPU time, and a game it accepts reads back, its map loads, and it starts into a status file the
judge can read.

The CI budget is small; `FUZZ_EXAMPLES=2000 pytest tests/fuzz` runs a larger one.
"""
from __future__ import annotations

import itertools
import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.commands import Judge
from tests.support.mail import mail
from tests.support.morphs import GM, create

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60")) // 5
FUZZ = settings(max_examples=max(EXAMPLES, 10), deadline=None,
                suppress_health_check=list(HealthCheck))
SECONDS_PER_MAIL = 10  # of CPU, generous for a loaded machine: the attacks it stands for took 60+

# the shapes of the attacks (repeated blocks, USE chains, powers sharing a centre, markup in
# names, files that are no maps), and words of the map syntax
SHAPES = ["IN S1901M: UNOWNED", "FROM S1902M: UNOWNED VIE", "USE fleetrome", "USE standard",
          "USE README.md", "USE standard.draw", "P0000 VIE", "P0001 VIE", "X\"/><G VIE",
          "Atlantis = atl", "WATER ATL ABUTS NAO", "AMEND NAO ABUTS ATL", "A VIE", "F TRI",
          "DROP BOH", "VICTORY 3", "BEGIN FALL 1901 MOVEMENT", "UNOWNED BOH", "DUMMY", "RULE X"]
WORDS = ["COAST", "LAND", "WATER", "ABUTS", "IN", "FROM", "USE", "MAP", "OWNS", "CENTERS", "=",
         "->", "VIE", "BOH", "NAO", "S1901M", "A", "F", "&SC", "SC!", "#", "END", "MORPH"]
line = (st.sampled_from(SHAPES)
        | st.lists(st.sampled_from(WORDS) | st.text(max_size=5), min_size=1, max_size=6)
        .map(" ".join))
NAMES = (f"fz{n}" for n in itertools.count())


@FUZZ
@given(st.lists(line, max_size=8), st.integers(1, 400), st.booleans())
def test_map_text_by_mail_costs_bounded_time(tally, tmp_path_factory, lines, copies, later):
    tally(lines, copies, later)
    judge = Judge(tmp_path_factory.mktemp("games"))
    name, text = next(NAMES), [line for line in lines for _ in range(copies)]
    began = time.process_time()
    if later:
        judge.send(mail(GM, f"CREATE {name} pw", "FORM"))
        sent = judge.send(mail(GM, f"SIGNON M{name} pw", "MORPH", *text, "END MORPH", number=1))
    else:
        sent = judge.send(create(name, *text))
    assert sent.reply is not None
    assert time.process_time() - began < SECONDS_PER_MAIL
    if not judge.store.exists(name):
        return
    started = judge.send(mail(GM, f"SIGNON M{name} pw", "ACTIVATE", number=2))
    assert started.reply is not None
    judge.status(name)  # reads back, whatever the start wrote
