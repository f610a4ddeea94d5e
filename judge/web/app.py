"""The game's pages: a Starlette application served by `judge serve` (uvicorn, on the daemon's
own asyncio loop). Every page that reads a game runs the mail command that would tell the same
(LIST, MAP) through `MailDoor`, or reads what HISTORY reads; every form is the mail it stands for,
carried out by the inbox runner under the daemon's work lock. Nothing here decides a game.

Sessions: Starlette's signed cookie (itsdangerous), HttpOnly, SameSite=Strict, Secure when the
judge's url is https, lasting `[web] session_minutes`; it holds a random key only: the password
a sign-on gave stays in the server's memory (`SignOns`), for the mails the forms become. Forms:
asgi-csrf's signed double-submit token, checked on every POST. Every page carries a strict
Content-Security-Policy: scripts and styles from the judge's own files only (one small script,
offering the browser's time zone; every page works without it), nothing inline.
"""
from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
from asgi_csrf import asgi_csrf  # type: ignore[import-untyped]
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from judge.commands.auth import addresses_of, master_addresses, role_name
from judge.errors import MapError, StatusError
from judge.mailout.render import bundled_templates_dir
from judge.rule_names import Rule
from judge.runtime.config import Config
from judge.runtime.game_access import StoreGames
from judge.runtime.inbox import MailHandler
from judge.status.model import GameStatus
from judge.types import MASTER
from judge.web import views
from judge.web.deadline import READER_ZONE, deadlines, moments, reader_zone, zone_names
from judge.web.door import (
    Answer,
    Credentials,
    FormError,
    MailDoor,
    body_lines,
    credentials,
    game_name,
)
from judge.web.editor import Editor

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'")
FORMS = ("signon", "orders", "press", "vote", "address", "password", "master", "state",
         "morph", "status", "rules", "signoff")
MASTER_ACTIONS = ("PROCESS", "PROCESS!", "PREVIEW", "ROLLBACK", "ROLLFORWARD")
# the sender of the mails a page reads by (LIST, MAP) and of a sign-on: nobody's address, so the
# page shows what a stranger's mail is told; such mails make no mail
ANONYMOUS = "anonymous@web.invalid"


@dataclass(frozen=True)
class SignOn:
    """A sign-on on the web: the credentials the forms' mails carry, the address they come from
    (the seat's own, so that the answers go where a mail's would), and when it lapses."""

    credentials: Credentials
    sender: str
    expires: datetime


class SignOns:
    """The sign-ons in hand, by the random key the session cookie holds; in memory only, so a
    password given on the web is never written, and a restart signs everyone off."""

    def __init__(self, clock: Callable[[], datetime], lifetime: timedelta):
        self.clock = clock
        self.lifetime = lifetime
        self.held: dict[str, SignOn] = {}

    def add(self, creds: Credentials, sender: str) -> str:
        now = self.clock()
        self.held = {k: v for k, v in self.held.items() if v.expires > now}
        key = secrets.token_urlsafe(32)
        self.held[key] = SignOn(creds, sender, now + self.lifetime)
        return key

    def get(self, key: object) -> SignOn | None:
        found = self.held.get(key) if isinstance(key, str) else None
        return found if found is not None and found.expires > self.clock() else None

    def repassword(self, key: str, password: str) -> None:
        found = self.held.get(key)
        if found is not None:
            self.held[key] = replace(found, credentials=replace(found.credentials,
                                                                password=password))

    def drop(self, key: object) -> None:
        if isinstance(key, str):
            self.held.pop(key, None)


def base_path(url: str) -> str:
    """The path of the judge's public url the pages answer at ("" for the root)."""
    return urlsplit(url).path.rstrip("/") if url else ""


def web_environment(folder: Path | None = None) -> jinja2.Environment:
    """The pages' templates (templates/web/), every value escaped."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str((folder or bundled_templates_dir()) / "web")),
        autoescape=True, undefined=jinja2.StrictUndefined)
    env.filters["moments"] = moments
    return env


class Pages:
    """The handlers; `door` carries out the mails, `handler` is the inbox runner it uses."""

    def __init__(self, config: Config, door: MailDoor):
        self.config = config
        self.door = door
        self.handler: MailHandler = door.handler
        self.env = web_environment()
        self.base = base_path(config.judge.url)
        self.signons = SignOns(door.clock, timedelta(minutes=config.web.session_minutes))

    def url(self, name: str = "") -> str:
        return f"{self.base}/{name}" if name or not self.base else self.base

    def page(self, request: Request, template: str, code: int = 200, **values: Any
             ) -> HTMLResponse:
        token = request.scope["csrftoken"]()
        html = self.env.get_template(template).render(
            url=self.url, csrftoken=token, judge=self.config.judge.id, **values)
        return HTMLResponse(html, status_code=code)

    def refused(self, request: Request, why: str, code: int = 400) -> HTMLResponse:
        return self.page(request, "refused.html", code, why=why)

    # -- reading -----------------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        game = request.query_params.get("game")
        if game is not None:
            try:
                return await self.game(request, game_name(game))
            except FormError:
                return self.refused(request, f"there is no game '{game}' on this judge", 404)
        rows = await asyncio.to_thread(self.index_rows)
        return self.page(request, "index.html", sections=rows)

    def index_rows(self) -> dict[str, list[views.IndexRow]]:
        with StoreGames(self.handler.store, self.handler.settings, self.handler.maps) as games:
            return views.index_rows(games)

    async def game(self, request: Request, name: str) -> Response:
        status = await asyncio.to_thread(self.handler.read, name)
        if status is None or not (await asyncio.to_thread(self.listed, name)):
            return self.refused(request, f"there is no game '{name}' on this judge", 404)
        # a finished game has no LIST: its SUMMARY tells it, as the mail says to ask
        told = "SUMMARY" if status.completed else "LIST"
        listing = await self.door.look(ANONYMOUS, [f"{told} {name}", f"MAP {name}"])
        blind_in_play = Rule.BLIND in views.in_force(status, self.handler.maps) \
            and not status.completed
        readers = None if status.completed else ()
        phases = [] if blind_in_play else await asyncio.to_thread(
            views.archive_phases, self.handler.store, name, readers)
        shown, board = await asyncio.to_thread(self.phase_shown, request, name, status, phases,
                                               listing)
        lists = None if shown is None else await asyncio.to_thread(
            views.locked_lists, self.handler.store, self.handler.maps, status, name, phases[shown].phase)
        press = await asyncio.to_thread(views.press_page, self.handler.store, name, None,
                                        page_number(request))
        zone = reader_zone(request.session.get(READER_ZONE))
        return self.page(request, "game.html", game=status, name=name, listing=listing.text,
                         deadline=deadlines(status, zone), zone=zone, board=board,
                         phases=phases, shown=shown, lists=lists, press=press,
                         press_link=f"{self.url()}?game={name}&press=",
                         rules=views.rules_of(status, self.handler.maps))

    def listed(self, name: str) -> bool:
        with StoreGames(self.handler.store, self.handler.settings, self.handler.maps) as games:
            try:
                standing = games.standing(name)
            except (OSError, StatusError):
                return False
        return not standing.hidden

    def phase_shown(self, request: Request, name: str, status: Any, phases: list[views.Phase],
                    listing: Answer) -> tuple[int | None, Markup | None]:
        """The archive entry asked for (`phase=N`, else none) and the board to show with it: that
        phase's own, or the board as it stands (as MAP draws it) with none asked for."""
        try:
            number = int(request.query_params.get("phase", ""))
        except ValueError:
            number = None
        if number is not None and 0 <= number < len(phases):
            phase = phases[number].phase
            svg = views.snapshot_board(self.handler.templates(), self.handler.store,
                                       self.handler.maps, name, phase) if phase else None
            return number, Markup(svg) if svg else None
        svg = views.drawn(self.handler.templates(), status, self.handler.maps,
                          listing.pictures[0]) if listing.pictures else None
        return None, Markup(svg) if svg else None

    async def stylesheet(self, request: Request) -> Response:
        css = (bundled_templates_dir() / "web" / "web.css").read_text(encoding="utf-8")
        return Response(css, media_type="text/css")

    async def script(self, request: Request) -> Response:
        js = (bundled_templates_dir() / "web" / "web.js").read_text(encoding="utf-8")
        return Response(js, media_type="text/javascript")

    # -- the reader's time zone ----------------------------------------------------------------
    async def zone_form(self, request: Request) -> Response:
        back, game = self.back(request.query_params.get("game"))
        return self.page(request, "zone.html", zones=zone_names(), game=game, back=back,
                         chosen=reader_zone(request.session.get(READER_ZONE)))

    async def set_zone(self, request: Request) -> Response:
        """The reader's zone kept in the session (with no sign-on needed): each deadline is then
        shown in it too."""
        form = await request.form()
        zone = reader_zone(form.get("zone"))
        if zone is None:
            return self.refused(request, "choose a time zone from the list, like Europe/Paris")
        request.session[READER_ZONE] = zone
        return RedirectResponse(self.back(form.get("game"))[0], status_code=303)

    def back(self, game: object) -> tuple[str, str]:
        """The game's page to go back to and the game's name (the index and "" when no game is
        named, or a bad one)."""
        try:
            name = game_name(game) if isinstance(game, str) and game else ""
        except FormError:
            name = ""
        return (f"{self.url()}?game={name}" if name else self.url()), name

    # -- signing on --------------------------------------------------------------------------
    async def signon_form(self, request: Request) -> Response:
        return self.page(request, "signon.html", game=request.query_params.get("game", ""))

    async def signon(self, request: Request) -> Response:
        form = await request.form()
        try:
            creds = credentials(str(form.get("game", "")), str(form.get("power", "")),
                                str(form.get("password", "")))
        except FormError as exc:
            return self.refused(request, str(exc))
        answer = await self.door.run(ANONYMOUS, [creds.signon_line()],
                                     send=False)
        if not answer.signed_on:
            return self.page(request, "answer.html", 403, answer=answer, back=self.url("signon"))
        sender = await asyncio.to_thread(self.seat_address, creds)
        if not sender:
            return self.refused(request, "this seat has no address to answer at: SET ADDRESS "
                                "by mail first", 403)
        zone = request.session.get(READER_ZONE)
        request.session.clear()  # a new session at each sign-on, keeping only the reader's zone
        if zone is not None:
            request.session[READER_ZONE] = zone
        request.session["signon"] = self.signons.add(creds, sender)
        return RedirectResponse(self.url("power"), status_code=303)

    def seat_address(self, creds: Credentials) -> str:
        """Where the mails a form becomes come from: the seat's first address (the Master's for
        MASTER), so they are answered as the seat's own mail is."""
        status = self.handler.read(creds.game)
        if status is None:
            return ""
        role = self.role_of(status, creds)
        if role == MASTER:
            found = master_addresses(status)
        else:
            block = status.power(role) if role else None
            found = addresses_of(block, self.handler.settings.addresses_per_player) \
                if block is not None else ()
        return found[0] if found else ""

    def role_of(self, status: GameStatus, creds: Credentials) -> str | None:
        """The role a sign-on names in the game (a block's name, or MASTER)."""
        try:
            m = self.handler.maps.get(status.map_name, status.morphs)
        except MapError:
            return None
        return role_name(status, m, creds.who)

    def signed(self, request: Request) -> tuple[str, SignOn] | None:
        key = request.session.get("signon")
        found = self.signons.get(key)
        return (key, found) if isinstance(key, str) and found is not None else None

    async def signoff(self, request: Request) -> Response:
        self.signons.drop(request.session.get("signon"))
        request.session.clear()
        return RedirectResponse(self.url(), status_code=303)

    # -- a power's or the Master's page --------------------------------------------------------
    async def power(self, request: Request) -> Response:
        held = self.signed(request)
        if held is None:
            return RedirectResponse(self.url("signon"), status_code=303)
        _, signon = held
        creds = signon.credentials
        answer = await self.door.run(signon.sender, [creds.signon_line(), "STATUS", "LIST", "MAP"],
                                     send=False)
        if not answer.signed_on:  # the password changed by mail meanwhile
            self.signons.drop(request.session.get("signon"))
            request.session.clear()
            return self.page(request, "answer.html", 403, answer=answer, back=self.url("signon"))
        status = await asyncio.to_thread(self.handler.read, creds.game)
        svg = views.drawn(self.handler.templates(), status, self.handler.maps,
                          answer.pictures[0]) if status is not None and answer.pictures else None
        master = creds.is_master
        states = await asyncio.to_thread(self.states, creds.game) if master else None
        role = self.role_of(status, creds) if status is not None else None
        press = await asyncio.to_thread(views.press_page, self.handler.store, creds.game, role,
                                        page_number(request)) if role else None
        lists = views.lists_of(status, self.handler.maps, role) if role and status is not None else None
        return self.page(request, "power.html", creds=creds, listing=answer.text,
                         board=Markup(svg) if svg else None, master=master, states=states,
                         actions=MASTER_ACTIONS, powers=self.powers_of(status), press=press,
                         lists=lists, press_link=f"{self.url('power')}?press=",
                         zone=reader_zone(request.session.get(READER_ZONE)))

    def states(self, name: str) -> views.States | None:
        with StoreGames(self.handler.store, self.handler.settings, self.handler.maps) as games:
            return views.master_states(games, name)

    @staticmethod
    def powers_of(status: Any) -> list[str]:
        return [b.name for b in status.powers if b.is_power] if status is not None else []

    async def form(self, request: Request) -> Response:
        """A form posted: the mail it stands for carried out, answered with that mail's words."""
        held = self.signed(request)
        if held is None:
            return self.refused(request, "sign on first", 403)
        key, signon = held
        fields = await request.form()
        kind = request.path_params["form"]
        try:
            lines = form_lines(kind, {k: str(v) for k, v in fields.items()},
                               fields.getlist("to"))
        except FormError as exc:
            return self.refused(request, str(exc))
        answer = await self.door.run(signon.sender, [signon.credentials.signon_line(), *lines,
                                                     "SIGNOFF"])
        if kind == "password" and not answer.failed:
            self.signons.repassword(key, str(fields.get("password", "")).strip())
        return self.page(request, "answer.html", answer=answer, back=self.url("power"))


def form_lines(kind: str, fields: dict[str, str], to: list[Any]) -> list[str]:
    """The mail lines a form stands for."""
    if kind == "orders":
        return body_lines(fields.get("orders", ""))
    if kind == "press":
        names = " ".join(str(t).strip() for t in to if str(t).strip())
        if not all(n.isalnum() for n in names.split()):
            raise FormError("press goes to powers named by the form")
        head = f"PRESS TO {names}" if names else "BROADCAST"
        return [head, *body_lines(fields.get("text", "")), "ENDPRESS"]
    if kind == "vote":
        return [f"VOTE {one_line(fields.get('vote', ''))}"]
    if kind == "address":
        return [f"SET ADDRESS {one_line(fields.get('address', ''))}"]
    if kind == "password":
        return [f"SET PASSWORD {one_line(fields.get('password', ''))}"]
    if kind == "master":
        action = fields.get("action", "")
        if action not in MASTER_ACTIONS:
            raise FormError(f"the Master's actions are {', '.join(MASTER_ACTIONS)}")
        return [action]
    if kind == "state":
        state = fields.get("state", "")
        if state not in views.STATE_COMMANDS:
            raise FormError("a game is made forming, active, waiting or terminated by its "
                            "Master; it is completed by its end")
        return [views.STATE_COMMANDS[state]]
    if kind == "morph":
        lines = [line for line in body_lines(fields.get("lines", "")) if line.strip()]
        if not lines or any(line.split()[:2] == ["END", "MORPH"] for line in
                            (x.upper() for x in lines)):
            raise FormError("MORPH takes map file lines (and no END MORPH among them)")
        return ["MORPH", *lines, "END MORPH"]
    raise FormError(f"no such form: {kind}")


def page_number(request: Request) -> int:
    """The page of press asked for (`press=N`, from 0; the first when none or a bad one)."""
    try:
        return max(int(request.query_params.get("press", "0")), 0)
    except ValueError:
        return 0


def one_line(text: str) -> str:
    """A field that fills one mail line: a second line would be a command of its own."""
    text = text.strip()
    if not text or "\n" in text or "\r" in text:
        raise FormError("this field takes one line")
    return text


def make_app(config: Config, door: MailDoor, secret: str | None = None) -> Any:
    """The pages as an ASGI application: Starlette, its session middleware, asgi-csrf on top.
    `secret`: signs the cookies (a new random one each start: a restart signs everyone off)."""
    pages = Pages(config, door)
    editor = Editor(pages)
    secret = secret or secrets.token_urlsafe(32)
    https = config.judge.url.startswith("https:")
    routes = [
        Route(pages.url(), pages.index),
        Route(pages.url("web.css"), pages.stylesheet),
        Route(pages.url("web.js"), pages.script),
        Route(pages.url("zone"), pages.zone_form),
        Route(pages.url("zone"), pages.set_zone, methods=["POST"]),
        Route(pages.url("signon"), pages.signon_form),
        Route(pages.url("signon"), pages.signon, methods=["POST"]),
        Route(pages.url("signoff"), pages.signoff, methods=["POST"]),
        Route(pages.url("power"), pages.power),
        Route(pages.url("status"), editor.show),
        Route(pages.url("do/status"), editor.save_text, methods=["POST"]),
        Route(pages.url("do/rules"), editor.save_rules, methods=["POST"]),
        Route(pages.url("do/{form}"), pages.form, methods=["POST"]),
    ]
    app = Starlette(routes=routes, middleware=[
        Middleware(SessionMiddleware, secret_key=secret, session_cookie="judge_session",
                   max_age=config.web.session_minutes * 60, same_site="strict",
                   https_only=https, path=pages.url("") if pages.base else "/"),
        Middleware(SecurityHeaders),
    ])
    posted = {pages.url("signon"), pages.url("signoff"), pages.url("zone"),
              *(pages.url(f"do/{f}") for f in FORMS)}
    return asgi_csrf(app, signing_secret=secret, always_protect=posted,
                     cookie_samesite="Strict", cookie_secure=https)


class SecurityHeaders:
    """Every answer with the strict Content-Security-Policy and its companions."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def with_headers(event: Any) -> None:
            if event["type"] == "http.response.start":
                event = {**event, "headers": [*event.get("headers", []),
                                              (b"content-security-policy", CSP.encode()),
                                              (b"x-content-type-options", b"nosniff"),
                                              (b"referrer-policy", b"same-origin")]}
            await send(event)
        await self.app(scope, receive, with_headers)



def daemon_pages(config: Config) -> Callable[[Any], Any]:
    """The pages for `judge serve`: the forms' mails carried out by the daemon's inbox runner
    (a new one when the daemon was given another handler), under its work lock, their mails
    put in its outbox."""
    def make(daemon: Any) -> Any:
        handler = daemon.handle_mail if isinstance(daemon.handle_mail, MailHandler) \
            else MailHandler(config)
        door = MailDoor(handler, daemon.work, daemon.queue, daemon.clock, daemon.outbox_wake.set)
        return make_app(config, door)
    return make
