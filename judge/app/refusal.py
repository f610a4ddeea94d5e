"""A use case's refusal: what was asked cannot be done, and why (the reason first, then each
detail). Every door tells it its own way: the mail's reply, the shell's message, the web page."""
from __future__ import annotations


class Refusal(Exception):
    """A command that cannot be done; the message says why. It stops the rest of the mail."""

    def __init__(self, reason: str, *details: str):
        super().__init__(reason)
        self.reason = reason
        self.details = details


UNKEPT = "the status file has no directive to keep a game's {what} yet, so this judge cannot {act}"


def unkept(what: str, act: str) -> Refusal:
    """The refusal of what the status file has no way to keep."""
    return Refusal(UNKEPT.format(what=what, act=act))
