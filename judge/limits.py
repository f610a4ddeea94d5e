"""The judgekeeper's limits on how much mail one incoming mail can make the judge send: the
`[limits]` section of judge.toml and its defaults (the password pauses are `throttle.Policy`)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    replies_per_sender: int = 20  # replies, copies included, to one sender within the window
    signed_replies_per_sender: int = 100  # the same for mail that gave a right password
    reply_window_minutes: int = 60
    addresses_per_player: int = 3  # a player's mail goes to the first few of his ADDRESS line
    recipients_per_mail: int = 200  # addresses reached by all the mails answering one mail
    picture_seconds: int = 20  # a PNG or PDF not drawn within this (in a child process) is left out
    picture_memory_mb: int = 512  # the address space of the process that draws it
    picture_pixels: int = 16_000_000  # a picture rendered larger (the PDF at its zoom) is refused
    picture_bytes: int = 4_000_000  # a picture file larger than this is left out of its mail
    reply_picture_bytes: int = 500_000  # each this many bytes of MAP's picture count one more reply
