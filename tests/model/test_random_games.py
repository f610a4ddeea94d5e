"""Random games played by mail and by the cycle (`tests/support/random_games.py`), every invariant
checked after every step: no game stalls untold, every mail gets one reply, the status file reads
back, nobody is mailed twice for one event.

A few seeded games run in CI; `MODEL_GAMES=200 pytest tests/model` plays more, and
`benchmarks/random_games.py` thousands (`MODEL_SEED` moves the seeds)."""
from __future__ import annotations

import os

import pytest

from tests.support.random_games import play

pytestmark = pytest.mark.model

GAMES = int(os.environ.get("MODEL_GAMES", "3"))
FIRST_SEED = int(os.environ.get("MODEL_SEED", "1"))
STEPS = 30  # actions a game: a forming, some phases, resignations, holds and rollbacks


@pytest.mark.parametrize("seed", range(FIRST_SEED, FIRST_SEED + GAMES))
def test_a_random_game_keeps_every_invariant(tmp_path, seed):
    violations = play(tmp_path, seed, STEPS)
    assert not violations, "\n".join(map(str, violations))


def test_the_same_words_mailed_twice_to_one_reader_break_an_invariant():
    from datetime import UTC, datetime

    from judge.mailout.envelope import build_message
    from judge.runtime.config import JudgeSection
    from tests.support.random_games import Checker, Sent

    class Game:
        def __init__(self) -> None:
            self.broken: list[str] = []

        def violate(self, what: str) -> None:
            self.broken.append(what)

    def mail(to: str, subject: str, body: str) -> Sent:
        made = build_message(JudgeSection(), to=to, subject=subject, body=body,
                             now=datetime(2026, 11, 27, tzinfo=UTC))
        return Sent(made)

    game = Game()
    checker = Checker(game)  # type: ignore[arg-type]
    checker.one_mail_an_event([mail("a@x.test", "late", "one\n"), mail("a@x.test", "late", "two\n"),
                               mail("b@x.test", "late", "one\n"), mail("a@x.test", "news", "one\n")])
    assert game.broken == []
    checker.one_mail_an_event([mail("a@x.test", "late", "one\n"), mail("b@x.test", "late", "one\n"),
                               mail("a@x.test", "late", "one\n")])
    assert game.broken == ["mailed twice in one step: [('a@x.test', 'late')]"]


def test_a_mail_read_from_the_outbox_keeps_its_words_with_or_without_a_picture():
    """The outbox's mails are read from their bytes; one with a picture part is parsed whole only
    when its words are read, and its words are its text part's."""
    from datetime import UTC, datetime

    from judge.mailout.envelope import attach_picture, build_message
    from judge.runtime.config import JudgeSection
    from tests.support.random_games import Sent

    made = build_message(JudgeSection(), to="a@x.test", subject="Diplomacy results g S1901M",
                         body="Austria: Army Vienna HOLD.\n", now=datetime(2026, 11, 27, tzinfo=UTC))
    plain = Sent.of_bytes(bytes(made))
    attach_picture(made, b"\x89PNG\r\n\x1a\n", "g-S1901M", "png")
    pictured = Sent.of_bytes(bytes(made))
    for sent in (plain, pictured):
        assert (sent.to, sent.subject, sent.body) \
            == ({"a@x.test"}, "Diplomacy results g S1901M", "Austria: Army Vienna HOLD.\n")


def test_a_written_mail_s_head_is_read_as_the_email_package_reads_it():
    from email import policy
    from email.parser import BytesParser

    from tests.support.random_games import header_block
    raws = [b"To: a@x.test\nSubject: Diplomacy results g S1901M\nMessage-ID:\n <long.id@x.test>\n"
            b"In-Reply-To: <m1@players.test>\n\nWords.\n",
            "Subject: =?utf-8?q?=C3=A9t=C3=A9?=\nTo: b@x.test\n\nWörds.\n".encode(),
            b"Subject: folded\n\tover two lines\r\nTo: c@x.test\r\n\r\nWords.\r\n", b"To: d@x.test\n"]
    for raw in raws:
        head, text = header_block(raw)
        parsed = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
        assert head.items() == parsed.items() and text == parsed.get_payload()
        assert [str(head[name]) for name in head.keys()] \
            == [str(parsed[name]) for name in parsed.keys()]
