"""The `judge` command (`main`): `main.py` parses the command line and runs the map, adjudicate,
serve, outbox, mail and check commands; `games.py` the commands on one game's folder."""
from judge.cli.main import main

__all__ = ["main"]
