"""The `wrap` filter every template fills prose with."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.mailout.render import wrap

LONG_WORDS = [
    "/var/lib/judge/spool/inbox/bad/01795498619107474826-3-2ca71c9a51ca5306.eml",
    "https://judge.example.org/games/a_game_with_a_long_name/results?phase=S1901M&power=FRANCE",
    "a.player.with.a.long.address+diplomacy-games@mail.a-rather-long-domain.example.org",
]


@pytest.mark.parametrize("word", LONG_WORDS)
@pytest.mark.parametrize("width", [20, 40, 76])
def test_a_path_an_address_or_a_url_is_never_broken(word, width):
    text = wrap(f"Folder: {word} (kept there)", width, "  ")
    assert any(word in line for line in text.splitlines())
    assert all(len(line) <= width for line in text.splitlines() if word not in line)


def test_prose_is_filled_to_the_width_with_its_indent():
    text = wrap("one two three four five six seven eight nine ten", 15, "  ")
    assert text == "one two three\n  four five six\n  seven eight\n  nine ten"


def test_templates_write_dates_only_through_dpjudges_forms():
    """A date in a mail goes through one of `judge.timing.written`'s filters (English names whatever
    the locale, no zero-padded day), never through strftime."""
    from judge.mailout.render import bundled_templates_dir
    calls = [p.name for p in bundled_templates_dir().iterdir()
             if p.is_file() and "strftime" in p.read_text()]
    assert calls == []


def filled(text: str, width: int, indent: str = "") -> str:
    """What `wrap` gives, by textwrap alone (each paragraph filled, its dates held together)."""
    import textwrap

    from judge.timing import written
    lines = []
    for paragraph in text.split("\n"):
        kept = written.WRITTEN_DATE.sub(lambda m: m.group(0).replace(" ", "\u00a0"), paragraph)
        lines.extend(textwrap.wrap(kept, width, subsequent_indent=indent, break_long_words=False,
                                   break_on_hyphens=False) or [""])
    return "\n".join(lines).replace("\u00a0", " ")


@settings(max_examples=500, deadline=None)
@given(text=st.lists(st.sampled_from(["a", "word", " ", "  ", "\t", "\n", "\r", "\x0b", "\u00a0",
                                      "-", "é", "Monday 30 November 2026 04:00 GMT", "x" * 30]),
                     max_size=40).map("".join),
       width=st.integers(5, 80), indent=st.sampled_from(["", "  ", " " * 18]))
def test_a_line_that_fits_is_left_as_filling_would_leave_it(text, width, indent):
    assert wrap(text, width, indent) == filled(text, width, indent)
