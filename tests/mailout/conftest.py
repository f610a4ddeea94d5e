"""Fixtures of the mail tests: the bundled templates, a game's status and its Mailer."""
from __future__ import annotations

from pathlib import Path

import pytest

from judge.mailout.mailings import Mailer
from judge.mailout.render import environment
from judge.status import parse_status

HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def env():
    return environment()


@pytest.fixture
def status():
    return parse_status((HERE / "data" / "game.status").read_text())


@pytest.fixture
def mailer(env, status, standard):
    return Mailer(env, status, standard, judge="TEST")

