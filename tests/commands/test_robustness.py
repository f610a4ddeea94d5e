"""Whatever a mail says, the judge answers with a reply or a refusal: no command raises."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.commands.dispatch import REGISTRY
from tests.support.commands import Judge

WORDS = sorted({w for c in REGISTRY.commands for k in c.call_words() for w in k.split()}
               | {"TO", "FAKE", "FROM", "GREY", "WHITE", "QUIET", "Fvienna", "Mvienna", "paris7",
                  "kr4k3n", "france@vienna", "A", "F", "PAR", "BUR", "-", "H", "S", "C", "+",
                  "vienna", "FRANCE", "ENDPRESS", "END", "12:00", "FRI", "24", "DEC", "3WAY",
                  "@", "x@y.org", "!", ",", "M", "1"})
LINE = st.lists(st.sampled_from(WORDS) | st.text(min_size=1, max_size=6), min_size=0, max_size=6)
HEAD = st.sampled_from(["SIGNON Fvienna paris7", "SIGNON Mvienna kr4k3n", ""])


def mail(head: str, lines: list[list[str]]) -> bytes:
    body = "\n".join([head] + [" ".join(words) for words in lines])
    return ("From: Chloe <chloe@example.fr>\nTo: judge@example.org\nSubject: fuzz\n"
            "Content-Type: text/plain; charset=utf-8\n\n" + body + "\n").encode()


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(head=HEAD, lines=st.lists(LINE, max_size=8))
def test_no_mail_makes_a_command_raise(tmp_path_factory, head, lines):
    judge = Judge(tmp_path_factory.mktemp("fuzz") / "games")
    judge.add("vienna")
    sent = judge.send(mail(head, lines))
    assert sent.reply is not None and sent.text.endswith("End of reply.\n")
    judge.status("vienna")  # still a valid status file
