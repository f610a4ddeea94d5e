"""Map text from a stranger's CREATE or MORPH costs bounded work, now and at every later load: the
map is refused when over a `[limits]` bound or slower to read than allowed, its parse is not
super-linear in the text, what the game's start needs is checked, and its USE lines read map
files only, named without the judge's folders."""
from __future__ import annotations

import time
from dataclasses import replace

import pytest

from judge.limits import Limits
from judge.maps import load_map
from tests.maps.test_corpus import CORPUS, MAP_FILES, needs_corpus
from tests.support.commands import SETTINGS, Judge
from tests.support.mail import mail
from tests.support.morphs import GM, create, morph_later

pytestmark = pytest.mark.security


def bounded(tmp_path, **limits: int) -> Judge:
    chosen = replace(Limits(), **limits)
    return Judge(tmp_path / "games", replace(SETTINGS, map_bounds=chosen.map_bounds()))


def test_many_copies_of_one_block_cost_one_check():
    """3,157 lines `IN S1901M: UNOWNED` took a minute to parse, the map built again for each."""
    began = time.process_time()
    m = load_map("standard", morphs=["IN S1901M: UNOWNED"] * 2000, paths=False)
    assert len(m.dynamic) == 2000 and time.process_time() - began < 5  # 50 s before


@pytest.mark.parametrize(("limit", "value", "lines"), [
    ("map_lines", 230, ["UNOWNED"] * 20),  # standard.map has 218 lines
    ("map_bytes", 8_500, ["# " + "x" * 1000]),  # standard.map has 7,909 bytes
    ("map_blocks", 3, [f"IN S190{n}M: UNOWNED" for n in range(1, 5)]),
    ("map_uses", 3, ["USE standard"] * 4),
    ("map_powers", 7, ["EXTRA VIE"]),
    ("map_places", 82, ["Atlantis = atl", "WATER ATL ABUTS NAO", "AMEND NAO ABUTS ATL"]),
])
def test_a_map_over_a_limit_is_refused_at_create_and_morph(tmp_path, limit, value, lines):
    judge = bounded(tmp_path, **{limit: value})
    at_create = judge.send(create("bomb", *lines))
    assert at_create.failed and "than this judge allows" in at_create.prose
    assert not judge.store.exists("bomb")
    at_morph = morph_later(judge, "later", *lines)
    assert at_morph.failed and "than this judge allows" in at_morph.prose
    assert "MORPH" not in judge.text("later")


@needs_corpus
def test_the_default_limits_hold_every_real_map_and_no_map_twice_the_largest(tmp_path):
    """imperial, the largest map of DPjudge's corpus, has 394 places; a MAP pdf of a map of
    1,000 places cost 2.5 s of CPU."""
    bounds = Limits().map_bounds()
    for path in MAP_FILES:
        load_map(str(path), [CORPUS], bounds=bounds)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    seas = [f"Sea q{digits[n // 36]}{digits[n % 36]} = q{digits[n // 36]}{digits[n % 36]}"
            for n in range(430)]
    sent = Judge(tmp_path / "games").send(create("huge", *seas))
    assert sent.failed and "more places than this judge allows (500)" in sent.prose


def test_use_depth_is_bounded(tmp_path):
    """fleetrome USEs standard: two levels from a MORPH line."""
    judge = bounded(tmp_path, map_use_depth=1)
    sent = judge.send(create("deep", "USE fleetrome"))
    assert sent.failed and "levels of USE" in sent.prose
    assert not bounded(tmp_path / "b", map_use_depth=2).send(create("deep", "USE fleetrome")).failed


def test_a_map_slower_to_read_than_allowed_is_refused(tmp_path):
    judge = Judge(tmp_path / "games", replace(SETTINGS, map_parse_milliseconds=0))
    # lines no other test reads: a map the process has parsed already costs no time to read again
    sent = judge.send(create("slow", "UNOWNED", "# slower than allowed"))
    assert sent.failed and "ms of CPU to read" in sent.prose and not judge.store.exists("slow")


def test_a_map_whose_start_could_not_be_written_is_refused(tmp_path):
    """3,000 powers sharing VIE made a status file the judge could not read back."""
    judge = Judge(tmp_path / "games")
    sent = morph_later(judge, "shared", "P0000 VIE", "P0001 VIE")
    assert sent.failed and "P0001 owns VIE, which AUSTRIA owns too" in sent.prose
    assert not judge.send(mail(GM, "SIGNON Mshared pw", "ACTIVATE", number=2)).failed
    assert judge.status("shared").phase is not None  # the start wrote a status file it reads


def test_plain_list_reads_no_map(tmp_path):
    """After a restart a stranger's LIST took 245 s, reading the map of every forming game."""
    judge = Judge(tmp_path / "games")
    judge.send(create("slowg", "UNOWNED"))
    status = judge.store.root / "slowg" / "status"
    text = status.read_text()
    assert "MAP standard" in text
    status.write_text(text.replace("MAP standard", "MAP gone"))  # no map to read any more
    sent = judge.send(mail("x@example.org", "LIST", number=3))
    assert "slowg" in sent.text and "7 seats open" in sent.prose
