"""A whole game by mail, end to end: `judge serve` as a process on loopback ports, with an aiosmtpd relay as its
outgoing server, and people who only speak smtplib. The Master creates a game by mail, seven players
JOIN and get their power assignments, every power sends its orders, the Master's PROCESS
adjudicates Spring 1901, everyone gets the results, and SIGTERM stops the judge cleanly."""
from __future__ import annotations

import re
import signal
import smtplib
from email import message_from_bytes, policy
from email.message import EmailMessage
from itertools import count

import pytest

from judge.mailout.render import MAX_LINE
from tests.support.transport import LOOPBACK, Relay, judge_serve, wait_for

GAME = "e2e"
JUDGE = "judge@judge.test"
MASTER = "gm@players.test"
PLAYERS = tuple(f"player{n}@players.test" for n in range(7))
PASSWORDS = {address: f"pw{n}" for n, address in enumerate(PLAYERS)}
ORDERS = {
    "AUSTRIA": ["A BUD - SER", "A VIE - GAL", "F TRI - ALB"],
    "ENGLAND": ["F EDI - NTH", "F LON - ENG", "A LVP - YOR"],
    "FRANCE": ["F BRE - MAO", "A PAR - BUR", "A MAR - SPA"],
    "GERMANY": ["F KIE - DEN", "A BER - KIE", "A MUN - RUH"],
    "ITALY": ["F NAP - ION", "A ROM - APU", "A VEN H"],
    "RUSSIA": ["F STP/SC - BOT", "A MOS - UKR", "A WAR - GAL", "F SEV - BLA"],
    "TURKEY": ["F ANK - BLA", "A CON - BUL", "A SMY - CON"],
}
RESULTS = [  # some lines of the Spring 1901 results, in the layout players' tools parse
    f"Movement results for Spring of 1901.  ({GAME}.S1901M)",
    "Austria: Army Budapest -> Serbia.",
    "Austria: Army Vienna -> Galicia.  (*bounce*)",
    "France: Army Paris -> Burgundy.",
    "Russia: Fleet St Petersburg (south coast) -> Gulf of Bothnia.",
    "Russia: Army Warsaw -> Galicia.  (*bounce*)",
    "Russia: Fleet Sevastopol -> Black Sea.  (*bounce*)",
    "Turkey: Fleet Ankara -> Black Sea.  (*bounce*)",
    "Turkey: Army Smyrna -> Constantinople.",
    f"The next phase of '{GAME}' will be Movement for Fall of 1901.",
]
TIMEOUT = 60.0


class Mailboxes:
    """The people's side: mail to the judge through its gateway (smtplib only), and the mail the
    judge sent, read from the relay it hands it to."""

    def __init__(self, port: int, relay: Relay):
        self.port, self.relay = port, relay
        self.numbers = count(1)
        self.parsed: list[EmailMessage] = []

    def send(self, sender: str, body: str) -> None:
        n = next(self.numbers)
        raw = (f"From: {sender}\r\nTo: {JUDGE}\r\nSubject: mail {n}\r\n"
               f"Message-ID: <m{n}@players.test>\r\n\r\n{body}\r\n").encode()
        with smtplib.SMTP(LOOPBACK, self.port, timeout=10) as smtp:
            smtp.sendmail(sender, [JUDGE], raw)  # a 250 here: the mail is in the judge's spool

    def all(self) -> list[EmailMessage]:
        """Every mail the relay got, in order (each parsed once)."""
        for received in self.relay.received[len(self.parsed):]:
            self.parsed.append(message_from_bytes(received.raw, policy=policy.default))
        return list(self.parsed)

    def of(self, address: str, subject: str = "") -> list[EmailMessage]:
        return [m for m in self.all() if m["To"] == address and subject in m["Subject"]]

    def wait(self, addresses: tuple[str, ...], subject: str, text: str = "") -> dict[str, str]:
        """Each address's one mail whose subject holds `subject` and whose text holds `text`,
        once all have come: address -> the mail's text."""
        def arrived() -> dict[str, str] | None:
            found = {}
            for address in addresses:
                texts = [m.get_body(("plain",)).get_content() for m in self.of(address, subject)]
                texts = [t for t in texts if text in t]
                if not texts:
                    return None
                [found[address]] = texts
            return found
        return wait_for(arrived, timeout=TIMEOUT, step=0.05)


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def served(make_config, relay, notify, tmp_path):
    """`judge serve` with the relay as its outgoing server; after the test, stopped (killed if
    SIGTERM did not do it) and its output shown on failure."""
    config = make_config(smtp_out={"host": LOOPBACK, "port": relay.port})
    process = judge_serve(tmp_path, notify)
    yield Mailboxes(config.smtp_in.port, relay), process
    if process.poll() is None:
        process.kill()
        print(process.communicate(timeout=30)[0].decode())


def test_a_game_by_mail_from_create_to_the_first_results(served, notify):
    mail, process = served
    mail.send(MASTER, f"CREATE {GAME} masterpw\nMAP standard\nFORM")
    created = mail.wait((MASTER,), "Re: mail 1")[MASTER]
    assert f"Game '{GAME}' has been created on the standard map" in created

    for player in PLAYERS:
        mail.send(player, f"JOIN {GAME} {PASSWORDS[player]}")
    assignments = mail.wait(PLAYERS, "Diplomacy power assignment")
    mail.wait((*PLAYERS, MASTER), f"Diplomacy game {GAME} starting")
    powers = {}
    for player, text in assignments.items():
        name = re.search(r"selected to play (\w+) in game", flat(text)).group(1).upper()
        letter = re.search(rf"SIGNON (\w){GAME} password", text).group(1)
        powers[name] = (player, letter)
    assert sorted(powers) == sorted(ORDERS)  # seven players, seven different powers

    for power, (player, letter) in powers.items():
        mail.send(player, f"SIGNON {letter}{GAME} {PASSWORDS[player]}\n" + "\n".join(ORDERS[power]))
    for power, (player, _) in powers.items():
        # a mail of orders only is answered by its order confirmation, as DPjudge answers it
        confirmed = mail.wait((player,), f"Diplomacy orders {GAME} S1901M",
                              f"Current orders for {power.title()}:")
        assert all(order in confirmed[player] for order in ORDERS[power])

    mail.send(MASTER, f"SIGNON M{GAME} masterpw\nPROCESS")
    results = mail.wait((*PLAYERS, MASTER), f"Diplomacy results {GAME} S1901M")
    for text in results.values():
        assert [line for line in RESULTS if line not in text] == []
    for address in (*PLAYERS, MASTER):  # the board, after the text
        [sent] = mail.of(address, f"Diplomacy results {GAME} S1901M")
        assert [p.get_content_type() for p in sent.iter_parts()] == ["text/plain", "image/png"]
    processed = mail.wait((MASTER,), "Re: mail", "SPRING 1901 MOVEMENT was processed")[MASTER]
    assert "The game is now in FALL 1901 MOVEMENT." in flat(processed)

    process.send_signal(signal.SIGTERM)
    output = process.communicate(timeout=30)[0].decode()
    assert process.returncode == 0, output
    assert "stopped" in output
    notify.wait_for("STOPPING=1")
    check_every_mail(mail)


def check_every_mail(mail: Mailboxes) -> None:
    """Each mail the relay got is for one person, names nobody else's address (an anonymous game
    stays anonymous), comes from the judge as a robot, and keeps its lines under 78 columns."""
    people = (MASTER, *PLAYERS)
    for received, message in zip(mail.relay.received, mail.all(), strict=True):
        reader = str(message["To"])
        assert received.rcpt_tos == [reader] and reader in people
        text = received.raw.decode("utf-8", "replace")
        assert [a for a in people if a != reader and a in text] == [], message["Subject"]
        assert message["From"] == f"Judge TEST <{JUDGE}>" and message["X-Loop"] == JUDGE
        assert message["Auto-Submitted"] in ("auto-replied", "auto-generated")
        body = message.get_body(("plain",)).get_content()
        assert [line for line in body.splitlines() if len(line) >= MAX_LINE] == []
    ids = [m["Message-ID"] for m in mail.all()]
    assert len(ids) == len(set(ids))  # nothing sent twice

