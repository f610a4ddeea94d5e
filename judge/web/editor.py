"""The Master's status-file page: the file in an editor and the game's rules as checkboxes, each
saved only when the whole file passes the checks a game must pass to be played
(`judge.web.status_edit`); the Master's password checked as a SIGNON mail checks it, in the
daemon's turn (`MailDoor.as_master`)."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from judge.commands.session import Refusal
from judge.errors import ProblemsError
from judge.game.rule_table import RULES
from judge.status import parse_status
from judge.web import status_edit
from judge.web.door import Answer

if TYPE_CHECKING:
    from judge.web.app import Pages

RULE_NAMES = frozenset(rule.name for rule in RULES)
Work = Callable[[datetime, str], list[str]]  # (now, game) -> the problems; none: saved


class Editor:
    """The handlers of the status-file page, on top of the pages' sessions and door."""

    def __init__(self, pages: Pages):
        self.pages = pages

    async def show(self, request: Request) -> Response:
        held = self.pages.signed(request)
        if held is None:
            return RedirectResponse(self.pages.url("signon"), status_code=303)
        creds = held[1].credentials
        if not creds.is_master:
            return self.pages.refused(request, "only the game's Master edits its status file", 403)
        text = await asyncio.to_thread(self.current, creds.game)
        if text is None:
            return self.pages.refused(request, f"game '{creds.game}' cannot be read now", 404)
        return self.form(request, creds.game, text, [])

    def current(self, game: str) -> str | None:
        """The status file as it stands; None when it cannot be read (the cycle tells its
        Master why)."""
        try:
            return status_edit.read_text(self.pages.handler, game)
        except (LookupError, Refusal):
            return None

    def form(self, request: Request, game: str, text: str, problems: list[str],
             code: int = 200) -> Response:
        try:
            own = parse_status(text, status_edit.status_file(game)).rules
        except (ProblemsError, ValueError):
            own = frozenset()
        rules = [(rule.name, rule.note, rule.name in own) for rule in RULES if rule.implemented
                 or rule.name in own]
        return self.pages.page(request, "status.html", code, game=game, text=text,
                               problems=problems, rules=rules)

    async def save_text(self, request: Request) -> Response:
        fields = await request.form()
        text = str(fields.get("text", ""))
        return await self.saved(request, text, lambda now, game: status_edit.save(
            self.pages.handler, game, text, now))

    async def save_rules(self, request: Request) -> Response:
        fields = await request.form()
        chosen = {str(v) for v in fields.getlist("rule")}
        if not chosen <= RULE_NAMES:
            return self.pages.refused(request, "the rules form names the judge's rules only")
        handler = self.pages.handler

        def edit(now: datetime, game: str) -> list[str]:  # the rules put into the file as it stands, in the same turn
            try:
                text = status_edit.with_rules(status_edit.read_text(handler, game), game, chosen)
            except ProblemsError as exc:
                return [str(p) for p in exc.problems]
            return status_edit.save(handler, game, text, now)
        return await self.saved(request, None, edit)

    async def saved(self, request: Request, text: str | None, work: Work) -> Response:
        """`work(now, game)` (its problems) done for the signed-on Master; the answer."""
        held = self.pages.signed(request)
        if held is None:
            return self.pages.refused(request, "sign on first", 403)
        signon = held[1]
        creds = signon.credentials
        answer, problems = await self.pages.door.as_master(
            signon.sender, creds, lambda now: work(now, creds.game))
        if problems is None:
            why = "only the game's Master edits its status file" if answer.signed_on \
                else answer.text
            return self.pages.refused(request, why, 403)
        if problems:
            shown = text if text is not None else await asyncio.to_thread(self.current, creds.game)
            return self.form(request, creds.game, shown or "", problems, 400)
        done = Answer(f"The status file of game '{creds.game}' is saved.", True, False)
        return self.pages.page(request, "answer.html", answer=done, back=self.pages.url("status"))

