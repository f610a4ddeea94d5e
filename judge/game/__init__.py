"""The game's life: forming, starting, processing phases, ending, rolling back.

Pure functions of a `GameStatus`, the game's map (with its MORPH lines) and `now`, each returning
the new status and the events to mail (`judge.events`); `judge.runtime.game_files` runs them on a game
directory. What the command layer calls:

- seats: `join`, `observe`, `resign`, `takeover`, `make_dummy`, `start_game` (the Master's start under
  START_MASTER), `open_seats`;
- votes: `cast_vote`, `propose`;
- processing: `on_process` (PROCESS / PROCESS!), `preview` (PREVIEW), `readiness`;
  what happens next and when: `judge.game.clock`; the cycle: `judge.game.schedule.on_tick`;
- rollback: `roll_to` (pure), ROLLBACK and ROLLFORWARD (`judge.app.master`; the snapshot found by the command);
- reading: `duties` (who owes orders, who is late), `rules_in_force`, `orders_on_file`.
"""
from judge.game.clock import readiness
from judge.game.orders import Duties, duties, orders_on_file
from judge.game.process import NotReady, on_process, preview
from judge.game.rollback import roll_to
from judge.game.rules import rules_in_force
from judge.game.seats import (
           GameError,
           make_dummy,
           observe,
           open_seats,
           resign,
           takeover,
)
from judge.game.start import join, start_game
from judge.game.victory import cast_vote, propose

__all__ = ["Duties", "GameError", "NotReady", "cast_vote", "duties", "join", "make_dummy", "observe", "on_process",
           "open_seats", "orders_on_file", "preview", "propose", "readiness", "resign", "roll_to",
           "rules_in_force", "start_game", "takeover"]
