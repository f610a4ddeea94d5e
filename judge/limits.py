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
