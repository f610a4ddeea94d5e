"""Shared fixtures: the standard map, and the mail transport around a judge (a loopback relay that
records what the judge sends, a judge.toml in tmp_path, the systemd notification socket of
`judge serve`); their helpers are in tests/support/transport.py."""
from __future__ import annotations

import pytest

from judge.runtime.config import Config, parse_config
from judge.maps.loader import load_map
from tests.support.transport import Notifications, Relay, config_text, free_port


@pytest.fixture(scope="session")
def standard():
    return load_map("standard")


@pytest.fixture
def relay():
    server = Relay(free_port()).start()
    yield server
    server.stop()


@pytest.fixture
def make_config(tmp_path):
    """Write tmp_path/judge.toml (loopback defaults, sections overridden) and read it back."""
    def make(**sections) -> Config:
        text = config_text(tmp_path, **sections)
        (tmp_path / "judge.toml").write_text(text)
        return parse_config(text, str(tmp_path / "judge.toml"), tmp_path)
    return make


@pytest.fixture
def notify():
    listener = Notifications()
    yield listener
    listener.close()
