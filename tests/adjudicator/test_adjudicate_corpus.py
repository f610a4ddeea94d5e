"""`judge adjudicate` writes, byte for byte, what it always wrote: a corpus of requests and answers.

The corpus (adjudicate_corpus.json) holds requests of every phase kind on several maps, with orders
canonical, oddly spelled, unreadable, illegal and missing, and a few bad requests; with each, the
exit code and the answer (or the error line) the command gave when the corpus was made. Its standard
output was then exactly `json.dumps(answer, indent=1)` and a newline, which is what is expected here.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from judge.cli import main

CORPUS = json.loads((Path(__file__).parent / "adjudicate_corpus.json").read_text(encoding="utf-8"))


def _name(case: dict) -> str:
    request = case["request"]
    if isinstance(request, dict):
        return f"{request.get('map')}-{request.get('phase')}"
    return type(request).__name__


@pytest.mark.parametrize("case", CORPUS, ids=[f"{i}-{_name(c)}" for i, c in enumerate(CORPUS)])
def test_the_answer_is_written_as_before(case, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(case["request"])))
    assert main(["adjudicate"]) == case["exit"]
    captured = capsys.readouterr()
    if case["exit"] == 0:
        assert captured.out == json.dumps(case["answer"], indent=1) + "\n"
        assert captured.err == ""
    else:
        assert (captured.out, captured.err) == ("", case["stderr"])
