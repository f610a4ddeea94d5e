"""Who the judge is: its short name, the address players write to, its judgekeeper and his password.

The `[judge]` section of `judge.toml` (`judge.runtime.config` reads it); the envelope of every mail
the judge sends is built from it, so it is a plain value the core can be given."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class JudgeSection:
    id: str = "LOCAL"  # the judge's short name, as in `:: Judge: LOCAL` and the From line
    address: str = "judge@localhost"  # the address players write to (and `local+tag@domain`)
    keeper: str = "judgekeeper@localhost"  # the judgekeeper, who gets alerts
    password: str = field(default="", repr=False)  # the judgekeeper's password in mail commands
    url: str = ""  # the games' web pages, as in `:: URL: <url>?game=NAME`; empty: no such line
    authserv_id: str = ""  # the MTA whose Authentication-Results: are trusted; empty: none

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2] or "localhost"
