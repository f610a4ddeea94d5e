"""The use cases: one function per thing a person or the clock does to a game, taking the game as
read, the actor and `now`, and giving an outcome (the new status, the events, what the reply
says). Every check a use case makes (the game's problems, AWAIT, the rules in force, who may act)
is made here, so it holds whichever door the request came through: mail (`judge.commands`), the
cycle and the shell (`judge.runtime`), the web pages (`judge.web`). Pure: no files, no clock.
"""
