"""Map lines sent by mail: a game created with them, or MORPHed into a game created just before."""
from __future__ import annotations

from tests.support.commands import Judge, Sent
from tests.support.mail import mail

GM = "gm@example.org"


def create(name: str, *morph: str) -> bytes:
    """The mail creating game `name` with the map lines `morph`, forming at once."""
    return mail(GM, f"CREATE {name} pw", "MORPH", *morph, "END MORPH", "FORM")


def morph_later(judge: Judge, name: str, *morph: str) -> Sent:
    """Create the game `name`, then MORPH it with `morph`: the reply to the MORPH."""
    judge.send(mail(GM, f"CREATE {name} pw", "FORM"))
    return judge.send(mail(GM, f"SIGNON M{name} pw", "MORPH", *morph, "END MORPH", number=1))
