"""`judge.toml` -> a frozen `Config`, passed explicitly to whatever needs it (never a global).

The file is found through `--config`, then `$JUDGE_CONFIG`, then `./judge.toml`; with none of them
the defaults apply, and they start a working judge in the current directory. Relative paths are
taken from the working directory the judge was started in. Secrets never sit in the TOML file
itself: the outgoing relay's password comes from `$JUDGE_SMTP_PASSWORD` or `[smtp_out]
password_file`, the IMAP password from `$JUDGE_IMAP_PASSWORD` or `[imap] password_file`.
"""
from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from judge.commands.throttle import Policy
from judge.errors import Problem, ProblemsError
from judge.identity import JudgeSection
from judge.limits import Limits
from judge.mailin.message import plain_address

CONFIG_FILE = "judge.toml"
_WEB_ADDRESS = re.compile(r"https?://[^\s?#]+")  # the results' `:: URL:` line adds ?game=NAME
CONFIG_ENV = "JUDGE_CONFIG"
SMTP_PASSWORD_ENV = "JUDGE_SMTP_PASSWORD"
IMAP_PASSWORD_ENV = "JUDGE_IMAP_PASSWORD"


class ConfigError(ProblemsError):
    """The configuration file is missing, is not TOML, or has an unknown key or a wrong value."""


@dataclass(frozen=True)
class PathsSection:
    games: Path = Path("games")
    maps: Path = Path("maps")
    spool: Path = Path("spool")


@dataclass(frozen=True)
class SmtpInSection:
    host: str = "127.0.0.1"
    port: int = 2525
    max_bytes: int = 1024 * 1024  # orders and press, not attachments


@dataclass(frozen=True)
class SmtpOutSection:
    host: str = ""  # empty: nothing is sent, mail waits in the outbox
    port: int = 25
    starttls: bool = False
    user: str = ""  # empty: no AUTH
    password_file: str = ""
    password: str = field(default="", repr=False)  # read from $JUDGE_SMTP_PASSWORD or password_file


@dataclass(frozen=True)
class ImapSection:
    host: str = ""  # empty: no IMAP poller
    port: int = 993  # 993: implicit TLS; another port: STARTTLS, except on a loopback host
    user: str = ""
    password_file: str = ""
    folder: str = "INBOX"
    interval: int = 60  # seconds between polls
    password: str = field(default="", repr=False)  # read from $JUDGE_IMAP_PASSWORD or password_file


def minutes(span: timedelta) -> int:
    return int(span.total_seconds()) // 60


@dataclass(frozen=True)
class PasswordsSection:
    """Wrong passwords pause the checks of a secret (`judge.commands.throttle.Policy`, whose
    defaults these are, in minutes). A password given for any role is also tested against the
    game's Master's and omniscient players' passwords, and against the judgekeeper's in every
    game: each of those counts every failure it was tested by, so it allows more of them."""

    free_failures: int = Policy.free  # wrong passwords in a row before the first pause
    window_minutes: int = minutes(Policy.window)  # quiet minutes after a pause that forget them
    first_pause_minutes: int = minutes(Policy.first_pause)  # each failure after it doubles it...
    max_pause_minutes: int = minutes(Policy.max_pause)  # ...up to this
    shared_free_failures: int = Policy.shared_free  # free_failures of the Master's, omniscients'
    judge_wide_free_failures: int = Policy.judge_wide_free  # ...and of the judgekeeper's

    def policy(self) -> Policy:
        return Policy(free=self.free_failures, window=timedelta(minutes=self.window_minutes),
                      first_pause=timedelta(minutes=self.first_pause_minutes),
                      max_pause=timedelta(minutes=self.max_pause_minutes),
                      shared_free=self.shared_free_failures,
                      judge_wide_free=self.judge_wide_free_failures)


@dataclass(frozen=True)
class MapsSection:
    attach: str = "png"  # the board's picture in results mails, for players who chose none (SET MAP)


PICTURE_KINDS = ("png", "pdf", "svg", "none")


@dataclass(frozen=True)
class WebSection:
    """The game's web pages (`judge.web`), served by `judge serve` beside the SMTP gateway; the
    public address the mails' `:: URL:` lines give is `[judge] url`, of which the pages take the
    path. Loopback by default: a reverse proxy in front adds TLS."""

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    session_minutes: int = 120  # a sign-on on the web lasts this long


@dataclass(frozen=True)
class Config:
    judge: JudgeSection = JudgeSection()
    paths: PathsSection = PathsSection()
    smtp_in: SmtpInSection = SmtpInSection()
    smtp_out: SmtpOutSection = SmtpOutSection()
    imap: ImapSection = ImapSection()
    limits: Limits = Limits()
    passwords: PasswordsSection = PasswordsSection()
    maps: MapsSection = MapsSection()
    web: WebSection = WebSection()
    source: str = ""  # the file it was read from; "" for the built-in defaults


SECTIONS: dict[str, type] = {"judge": JudgeSection, "paths": PathsSection,
                             "smtp_in": SmtpInSection, "smtp_out": SmtpOutSection,
                             "imap": ImapSection, "limits": Limits,
                             "passwords": PasswordsSection, "maps": MapsSection,
                             "web": WebSection}
SECRET_KEYS = {"smtp_out": {"password"}, "imap": {"password"}}  # never read from the file
POSITIVE = {("smtp_in", "max_bytes"), ("imap", "interval"), ("web", "session_minutes"),
            *(("limits", f.name) for f in fields(Limits)),
            *(("passwords", f.name) for f in fields(PasswordsSection))}


def find_config_file(explicit: str | Path | None, env: Mapping[str, str], cwd: Path) -> Path | None:
    """`--config`, else `$JUDGE_CONFIG`, else `./judge.toml` if it exists, else None (defaults)."""
    if explicit:
        return Path(explicit)
    if env.get(CONFIG_ENV):
        return Path(env[CONFIG_ENV])
    local = cwd / CONFIG_FILE
    return local if local.is_file() else None


def load_config(explicit: str | Path | None = None, env: Mapping[str, str] | None = None,
                cwd: Path | None = None) -> Config:
    """Find, read and check the configuration; raise ConfigError with file, line and key."""
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    path = find_config_file(explicit, env, cwd)
    if path is None:
        return with_secrets(parse_config("", "", cwd), env, cwd)
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError([Problem(str(path), 0, f"cannot read the configuration: {exc}")]) from exc
    return with_secrets(parse_config(text, str(path), cwd), env, cwd)


def parse_config(text: str, file: str, cwd: Path) -> Config:
    """TOML text -> Config; every problem in the file is reported at once, with its line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        raise ConfigError([Problem(file, int(match.group(1)) if match else 0,
                                   f"not valid TOML: {exc}")]) from None
    problems: list[Problem] = []
    sections: dict[str, Any] = {}
    where = Locator(text, file)
    for name, value in data.items():
        if name not in SECTIONS:
            problems.append(where.problem(name, None, f"unknown section [{name}] (known: "
                                          f"{', '.join(SECTIONS)})"))
        elif not isinstance(value, dict):
            problems.append(where.problem(None, name, f"{name} must be a [{name}] table"))
        else:
            sections[name] = section(SECTIONS[name], name, value, where, cwd, problems)
    if "paths" not in sections:
        sections["paths"] = section(PathsSection, "paths", {}, where, cwd, problems)
    pauses = sections.get("passwords")
    if pauses is not None and pauses.max_pause_minutes < pauses.first_pause_minutes:
        problems.append(where.problem("passwords", "max_pause_minutes", "[passwords] "
                                      "max_pause_minutes: must be at least first_pause_minutes "
                                      f"({pauses.first_pause_minutes}), got "
                                      f"{pauses.max_pause_minutes}"))
    if problems:
        raise ConfigError(problems)
    return Config(**sections, source=file)


def section(kind: type, name: str, values: dict[str, Any], where: Locator, cwd: Path,
            problems: list[Problem]) -> Any:
    known = {f.name: f for f in fields(kind) if f.name not in SECRET_KEYS.get(name, ())}
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        default = getattr(kind(), key, None) if key in known else None
        if key not in known:
            problems.append(where.problem(name, key, f"unknown key {key!r} in [{name}] "
                                          f"(known: {', '.join(known)})"))
        elif (message := value_problem(name, key, value, default)) is not None:
            problems.append(where.problem(name, key, f"[{name}] {key}: {message}"))
        elif isinstance(default, Path):
            kwargs[key] = cwd / value
        else:
            kwargs[key] = value
    if name == "paths":
        for key in ("games", "maps", "spool"):
            kwargs.setdefault(key, cwd / getattr(kind(), key))
    return kind(**kwargs)


def value_problem(section_name: str, key: str, value: Any, default: Any) -> str | None:
    """Why `value` cannot stand where `default` stands, or None when it can."""
    wanted = {bool: "true or false", int: "an integer", str: "a string", Path: "a path string"}
    kind = Path if isinstance(default, Path) else type(default)
    ok = isinstance(value, str) if kind is Path else type(value) is kind
    if not ok:
        return f"expected {wanted[kind]}, got {value!r}"
    if key == "port" and not 1 <= value <= 65535:
        return f"a port is between 1 and 65535, got {value}"
    if (section_name, key) in POSITIVE and value <= 0:
        return f"must be positive, got {value}"
    if (section_name, key) == ("maps", "attach") and value.lower() not in PICTURE_KINDS:
        return f"one of {', '.join(PICTURE_KINDS)}, got {value!r}"
    if key in ("address", "keeper") and not plain_address(value):  # it goes in mail headers
        return f"expected an e-mail address like judge@example.org, got {value!r}"
    if (section_name, key) == ("judge", "url") and value and not _WEB_ADDRESS.fullmatch(value):
        return f"expected empty or a web address like https://judge.example.org/games, got {value!r}"
    return None


class Locator:
    """Finds the line of `[section]` or `key =` in the TOML text (tomllib gives no positions)."""

    def __init__(self, text: str, file: str):
        self.lines = text.splitlines()
        self.file = file

    def problem(self, section_name: str | None, key: str | None, message: str) -> Problem:
        return Problem(self.file, self.line_of(section_name, key), message)

    def line_of(self, section_name: str | None, key: str | None) -> int:
        current = None
        for number, line in enumerate(self.lines, 1):
            text = line.strip()
            header = re.fullmatch(r"\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?", text)
            if header:
                current = header.group(1)
                if key is None and current == section_name:
                    return number
                continue
            assigned = re.match(r"([A-Za-z0-9_-]+)\s*=", text)
            if assigned and assigned.group(1) == key and current == section_name:
                return number
            dotted = re.match(r"([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\s*=", text)
            if dotted and current is None and dotted.groups() == (section_name, key):
                return number
        return 0


def with_secrets(config: Config, env: Mapping[str, str], cwd: Path) -> Config:
    """Fill in the passwords from the environment or the password files."""
    out = config.smtp_out
    imap = config.imap
    smtp_password = env.get(SMTP_PASSWORD_ENV) or \
        read_secret(config, "smtp_out", out.password_file, cwd)
    imap_password = env.get(IMAP_PASSWORD_ENV) or \
        read_secret(config, "imap", imap.password_file, cwd)
    return replace(config, smtp_out=replace(out, password=smtp_password),
                   imap=replace(imap, password=imap_password))


def read_secret(config: Config, section_name: str, name: str, cwd: Path) -> str:
    if not name:
        return ""
    try:
        return (cwd / name).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        where = Locator(_text_of(config.source), config.source)
        line = where.line_of(section_name, "password_file")
        raise ConfigError([Problem(config.source or "(defaults)", line,
                                   f"[{section_name}] password_file: cannot read {name}: {exc}")]) from exc


def _text_of(source: str) -> str:
    try:
        return Path(source).read_text(encoding="utf-8") if source else ""
    except OSError:
        return ""
