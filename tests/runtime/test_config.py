"""judge.toml: where it is found, its defaults, and errors with file, line and key."""
from __future__ import annotations

import subprocess
import sys
from dataclasses import fields
from datetime import timedelta

import pytest

from judge.commands.session import Settings
from judge.commands.throttle import Policy
from judge.limits import Limits
from judge.runtime.config import Config, ConfigError, load_config, parse_config


def problems_of(text: str, tmp_path) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "judge.toml", tmp_path)
    return [str(p) for p in caught.value.problems]


def test_defaults_work_on_a_fresh_machine(tmp_path):
    config = load_config(env={}, cwd=tmp_path)
    assert config.smtp_in.host == "127.0.0.1" and config.smtp_in.port == 2525
    assert config.smtp_out.host == "" and config.imap.host == ""
    assert config.paths.spool == tmp_path / "spool" and config.paths.games == tmp_path / "games"
    assert config.source == ""


def test_explicit_file_wins_over_environment_and_working_directory(tmp_path):
    (tmp_path / "judge.toml").write_text('[judge]\nid = "CWD"\n')
    (tmp_path / "env.toml").write_text('[judge]\nid = "ENV"\n')
    (tmp_path / "cli.toml").write_text('[judge]\nid = "CLI"\n')
    env = {"JUDGE_CONFIG": str(tmp_path / "env.toml")}
    assert load_config(tmp_path / "cli.toml", env, tmp_path).judge.id == "CLI"
    assert load_config(None, env, tmp_path).judge.id == "ENV"
    assert load_config(None, {}, tmp_path).judge.id == "CWD"


def test_config_is_frozen(tmp_path):
    config = load_config(env={}, cwd=tmp_path)
    with pytest.raises(AttributeError):
        config.smtp_in.port = 25  # type: ignore[misc]
    assert isinstance(config, Config)


def test_relative_paths_are_taken_from_the_working_directory(tmp_path):
    config = parse_config('[paths]\nspool = "var/spool"\n', "judge.toml", tmp_path)
    assert config.paths.spool == tmp_path / "var" / "spool"
    assert config.paths.games == tmp_path / "games"


def test_unknown_key_is_reported_with_its_line(tmp_path):
    text = '[judge]\nid = "X"\n\n[smtp_in]\nport = 2525\nmax_size = 10\n'
    assert problems_of(text, tmp_path) == [
        "judge.toml:6: unknown key 'max_size' in [smtp_in] (known: host, port, max_bytes)"]


def test_unknown_section_is_reported_with_its_line(tmp_path):
    assert problems_of('[judge]\nid = "X"\n[smtp]\nhost = "x"\n', tmp_path) == [
        ("judge.toml:3: unknown section [smtp] (known: judge, paths, smtp_in, smtp_out, imap, "
         "limits, passwords, maps, web)")]


def test_the_pictures_results_carry_by_default(tmp_path):
    assert parse_config("", "judge.toml", tmp_path).maps.attach == "png"
    assert parse_config('[maps]\nattach = "pdf"\n', "judge.toml", tmp_path).maps.attach == "pdf"
    assert problems_of('[maps]\nattach = "gif"\n', tmp_path) == [
        "judge.toml:2: [maps] attach: one of png, pdf, svg, none, got 'gif'"]


def test_the_password_pauses_reach_the_command_layer(tmp_path):
    defaults = parse_config("", "judge.toml", tmp_path)
    assert Settings.from_config(defaults).password_policy == Policy()
    text = ("[passwords]\nfree_failures = 3\nwindow_minutes = 10\nfirst_pause_minutes = 2\n"
            "max_pause_minutes = 60\n")
    policy = Settings.from_config(parse_config(text, "judge.toml", tmp_path)).password_policy
    assert policy == Policy(3, timedelta(minutes=10), timedelta(minutes=2), timedelta(hours=1))


def test_the_shared_and_judge_wide_counts_reach_the_command_layer(tmp_path):
    text = "[passwords]\nshared_free_failures = 8\njudge_wide_free_failures = 50\n"
    policy = Settings.from_config(parse_config(text, "judge.toml", tmp_path)).password_policy
    assert (policy.free, policy.shared_free, policy.judge_wide_free) == (Policy.free, 8, 50)


@pytest.mark.parametrize("lines, message", [
    ("free_failures = 0", "judge.toml:2: [passwords] free_failures: must be positive, got 0"),
    ("judge_wide_free_failures = 0",
     "judge.toml:2: [passwords] judge_wide_free_failures: must be positive, got 0"),
    ('shared_free_failures = "10"',
     "judge.toml:2: [passwords] shared_free_failures: expected an integer, got '10'"),
    ('window_minutes = "30"', "judge.toml:2: [passwords] window_minutes: expected an integer, "
                              "got '30'"),
    ("first_pause_minutes = 10\nmax_pause_minutes = 5",
     "judge.toml:3: [passwords] max_pause_minutes: must be at least first_pause_minutes (10), "
     "got 5"),
])
def test_wrong_password_pauses_are_reported_with_line_and_key(tmp_path, lines, message):
    assert problems_of(f"[passwords]\n{lines}\n", tmp_path) == [message]


@pytest.mark.parametrize("line, message", [
    ('port = "25"', "[smtp_out] port: expected an integer, got '25'"),
    ("port = true", "[smtp_out] port: expected an integer, got True"),
    ("port = 70000", "[smtp_out] port: a port is between 1 and 65535, got 70000"),
    ('starttls = "yes"', "[smtp_out] starttls: expected true or false, got 'yes'"),
    ("user = 3", "[smtp_out] user: expected a string, got 3"),
])
def test_wrong_types_are_reported_with_line_and_key(tmp_path, line, message):
    assert problems_of(f"[smtp_out]\nhost = \"relay\"\n{line}\n", tmp_path) == [
        f"judge.toml:3: {message}"]


def test_every_problem_is_reported_at_once(tmp_path):
    text = '[judge]\naddress = "no-at-sign"\n[imap]\ninterval = 0\npassword = "x"\n'
    assert problems_of(text, tmp_path) == [
        ("judge.toml:2: [judge] address: expected an e-mail address like judge@example.org, "
         "got 'no-at-sign'"),
        "judge.toml:4: [imap] interval: must be positive, got 0",
        ("judge.toml:5: unknown key 'password' in [imap] "
         "(known: host, port, user, password_file, folder, interval)")]


def test_the_limits_reach_the_command_layer(tmp_path):
    text = ("[limits]\nreplies_per_sender = 8\nreply_window_minutes = 30\n"
            "addresses_per_player = 2\nrecipients_per_mail = 50\n")
    settings = Settings.from_config(parse_config(text, "judge.toml", tmp_path))
    assert (settings.replies_per_window, settings.reply_window) == (8, timedelta(minutes=30))
    assert (settings.addresses_per_player, settings.recipients_per_mail) == (2, 50)
    assert Settings.from_config(load_config(env={}, cwd=tmp_path)) == Settings(
        judge_id="LOCAL", address="judge@localhost", map_dirs=(tmp_path / "maps",))


@pytest.mark.parametrize("line, message", [
    ("addresses_per_player = 0", "[limits] addresses_per_player: must be positive, got 0"),
    ('replies_per_sender = "20"', "[limits] replies_per_sender: expected an integer, got '20'"),
    ("recipients_per_mail = -1", "[limits] recipients_per_mail: must be positive, got -1"),
    ("reply_window_minutes = 1.5", "[limits] reply_window_minutes: expected an integer, got 1.5"),
    ("password_tries = 5", "unknown key 'password_tries' in [limits] (known: "
                           f"{', '.join(f.name for f in fields(Limits))})"),
])
def test_a_wrong_limit_is_reported_with_line_and_key(tmp_path, line, message):
    assert problems_of(f"[judge]\nid = \"X\"\n\n[limits]\n{line}\n", tmp_path) == [
        f"judge.toml:5: {message}"]


@pytest.mark.parametrize("keeper", ["jörg@exämple.test", "Keeper <k@x.test>",
                                    "k@x.test Bcc: v@v.test"])
def test_the_keepers_address_is_a_plain_ascii_one(tmp_path, keeper):
    assert problems_of(f'[judge]\nkeeper = "{keeper}"\n', tmp_path) == [
        f"judge.toml:2: [judge] keeper: expected an e-mail address like judge@example.org, "
        f"got {keeper!r}"]


def test_bad_toml_gives_the_line_tomllib_found(tmp_path):
    [problem] = problems_of('[judge]\nid = "X"\nkeeper = \n', tmp_path)
    assert problem.startswith("judge.toml:3: not valid TOML: ")


def test_missing_explicit_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the configuration"):
        load_config(tmp_path / "nowhere.toml", {}, tmp_path)


def test_smtp_password_comes_from_the_environment_first(tmp_path):
    (tmp_path / "secret").write_text("from-file\n")
    (tmp_path / "judge.toml").write_text('[smtp_out]\nuser = "u"\npassword_file = "secret"\n')
    assert load_config(None, {}, tmp_path).smtp_out.password == "from-file"
    env = {"JUDGE_SMTP_PASSWORD": "from-env"}
    assert load_config(None, env, tmp_path).smtp_out.password == "from-env"
    assert "from-file" not in repr(load_config(None, {}, tmp_path))


def test_unreadable_password_file_names_the_key(tmp_path):
    (tmp_path / "judge.toml").write_text('[imap]\nhost = "imap.test"\npassword_file = "nope"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(None, {}, tmp_path)
    [problem] = caught.value.problems
    assert problem.line == 3 and "[imap] password_file: cannot read nope" in problem.message


def test_judge_serve_with_a_bad_config_exits_78_with_the_location(tmp_path):
    (tmp_path / "judge.toml").write_text('[smtp_in]\nport = "twenty-five"\n')
    done = subprocess.run([sys.executable, "-m", "judge.cli", "serve", "--config",
                           str(tmp_path / "judge.toml")], check=False, capture_output=True,
                          text=True,
                          timeout=60)
    assert done.returncode == 78
    assert f"{tmp_path / 'judge.toml'}:2: [smtp_in] port: expected an integer" in done.stderr


@pytest.mark.parametrize("url", ["judge.example.org", "https://judge.example.org/x?game=", "ftp://x"])
def test_the_results_url_is_a_web_address(tmp_path, url):
    assert problems_of(f'[judge]\nurl = "{url}"\n', tmp_path) == [
        f"judge.toml:2: [judge] url: expected empty or a web address like "
        f"https://judge.example.org/games, got {url!r}"]


def test_the_results_url_is_empty_by_default_and_kept_as_written(tmp_path):
    assert load_config(env={}, cwd=tmp_path).judge.url == ""
    config = parse_config('[judge]\nurl = "https://dip.example.org/games"\n', "judge.toml", tmp_path)
    assert config.judge.url == "https://dip.example.org/games"


def test_the_web_pages_listen_on_loopback_8080_by_default(tmp_path):
    web = parse_config("", "", tmp_path).web
    assert (web.enabled, web.host, web.port) == (True, "127.0.0.1", 8080)


def test_the_web_section_is_read_and_checked(tmp_path):
    config = parse_config('[web]\nenabled = false\nhost = "0.0.0.0"\nport = 8081\n', "j", tmp_path)
    assert (config.web.enabled, config.web.host, config.web.port) == (False, "0.0.0.0", 8081)
    with pytest.raises(ConfigError, match="port is between 1 and 65535"):
        parse_config("[web]\nport = 0\n", "j", tmp_path)
