"""Property-based round trips: any status model written and read back is the same model."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from judge.maps.model import Stanza
from judge.status import apply_map_directives, parse_status, write_status
from tests.support.status import game_status

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(game_status())
def test_written_model_reads_back_equal_and_rewrites_byte_for_byte(status):
    text = write_status(status)
    assert parse_status(text) == status
    assert write_status(parse_status(text)) == text


@SETTINGS
@given(game_status(max_powers=2), game_status(max_powers=0))
def test_applying_map_directives_is_idempotent_through_a_save(status, map_part):
    lines = [line for line in write_status(map_part).splitlines()
             if not line.startswith(("PHASE", "AWAIT", "SKIP", "WAIT"))]
    stanzas = [Stanza(None, tuple(lines))]
    applied = apply_map_directives(status, stanzas)
    assert apply_map_directives(applied, stanzas) == applied
    assert apply_map_directives(parse_status(write_status(applied)), stanzas) == applied
