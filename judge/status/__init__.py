"""The game's status file: the model, its parser and its writer."""
from judge.status.model import GameStatus, PowerStatus
from judge.status.parser import parse_status
from judge.status.stanzas import apply_map_directives
from judge.status.writer import write_status

__all__ = ["GameStatus", "PowerStatus", "apply_map_directives", "parse_status", "write_status"]
