"""The board's picture of a results mail is not made in the tick: the outbox keeps it as its SVG,
marked with the format its reader wants, and the outbox sender makes it right before sending.
The relay receives what it received when the tick made
it: the text part byte for byte, the picture after it with the same name and type."""
from __future__ import annotations

import gzip
from email import message_from_bytes, policy


from judge.drawing.raster import encode
from judge.mailout.envelope import PICTURE_AS
from judge.runtime.config import SmtpOutSection
from judge.runtime.cycle import run_cycle
from judge.runtime.outbox import OutboxSender
from judge.runtime.spool import open_spools
from judge.runtime.store import GameStore
from tests.support.faults import TICK_AT, everyone_ordered, started, write_config
from tests.support.transport import LOOPBACK


def ticked(tmp_path):
    """A judge folder whose game `g` was processed by a tick; its outbox."""
    config = write_config(tmp_path)
    store = GameStore(config.paths.games)
    started(store, "g")
    everyone_ordered(store, "g")
    outbox = open_spools(config).outbox
    run_cycle(store, config, TICK_AT, outbox=outbox)
    return config, outbox


def sender(config, outbox, port: int, **options) -> OutboxSender:
    return OutboxSender(outbox, SmtpOutSection(host=LOOPBACK, port=port), config.judge, **options)


def results_of(raws) -> dict[str, bytes]:
    """Results mails by Message-ID."""
    found = {}
    for raw in raws:
        head = message_from_bytes(raw, policy=policy.default)
        if str(head["Subject"]).startswith("Diplomacy results"):
            found[str(head["Message-ID"])] = raw
    return found


def text_part(raw: bytes) -> bytes:
    """The text part as written (headers and body, line ends made LF)."""
    mail = message_from_bytes(raw, policy=policy.default)
    lines = raw.replace(b"\r\n", b"\n")
    if not mail.is_multipart():
        return lines.partition(b"\n\n")[2]
    delimiter = b"\n--" + mail.get_boundary().encode()
    return lines.split(delimiter)[1]


def test_the_tick_keeps_each_picture_as_its_svg(tmp_path):
    config, outbox = ticked(tmp_path)
    stored = results_of(outbox.read(item) for item in outbox.waiting())
    assert len(stored) == 8  # the seven players and the Master
    for raw in stored.values():
        text, picture = message_from_bytes(raw, policy=policy.default).iter_parts()
        assert picture.get_content_type() == "application/gzip" and picture[PICTURE_AS] == "png"
        assert picture.get_filename() == "g-S1901M.svg.gz"
        assert gzip.decompress(picture.get_content()).startswith(b"<svg")


def test_the_relay_gets_the_png_made_of_the_svg_kept(tmp_path, relay):
    config, outbox = ticked(tmp_path)
    stored = results_of(outbox.read(item) for item in outbox.waiting())
    sender(config, outbox, relay.port).drain(0.0)
    received = results_of(r.raw for r in relay.received)
    assert received.keys() == stored.keys()
    for key, raw in received.items():
        sent = message_from_bytes(raw, policy=policy.default)
        kept = message_from_bytes(stored[key], policy=policy.default)
        text, picture = sent.iter_parts()
        svg = gzip.decompress(list(kept.iter_parts())[1].get_content()).decode()
        assert text_part(raw) == text_part(stored[key])
        assert picture.get_content_type() == "image/png" and picture.get_filename() == "g-S1901M.png"
        assert picture.get_content() == encode(svg, "png")
        assert PICTURE_AS.encode() not in raw and b"X-Judge-Envelope-To" not in raw
        assert [h for h in sent.keys() if h != "Content-Type"] == \
            [h for h in kept.keys() if h not in ("Content-Type", "X-Judge-Envelope-To")]


def test_a_picture_the_sender_cannot_make_leaves_the_mail_with_its_text(tmp_path, relay):
    config, outbox = ticked(tmp_path)
    stored = results_of(outbox.read(item) for item in outbox.waiting())
    sender(config, outbox, relay.port, pictures=lambda: lambda drawn, kind: None).drain(0.0)
    received = results_of(r.raw for r in relay.received)
    assert len(received) == 8
    for key, raw in received.items():
        assert not message_from_bytes(raw, policy=policy.default).is_multipart()
        assert text_part(raw) == text_part(stored[key]).partition(b"\n\n")[2]
