"""The deployment examples stay true to the code: the example config loads, the unit is hardened."""
from __future__ import annotations

import configparser
from dataclasses import fields, replace
from pathlib import Path

from judge.runtime.config import SECRET_KEYS, SECTIONS, parse_config

DEPLOY = Path(__file__).parents[2] / "deploy"


def test_example_config_loads_and_names_every_key(tmp_path):
    text = (DEPLOY / "judge.toml.example").read_text()
    parse_config(text, "judge.toml.example", tmp_path)  # loads without a problem
    for name, kind in SECTIONS.items():
        for field in fields(kind):
            if field.name not in SECRET_KEYS.get(name, ()):
                assert f"\n{field.name} = " in text.split(f"[{name}]", 1)[1], (name, field.name)


def test_example_config_values_are_the_defaults(tmp_path):
    """What the example shows is what a judge without a file does: every key at its default."""
    text = (DEPLOY / "judge.toml.example").read_text()
    example = parse_config(text, "judge.toml.example", tmp_path)
    assert replace(example, source="") == parse_config("", "", tmp_path)


def test_systemd_unit_is_hardened_and_waits_for_readiness():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(DEPLOY / "systemd" / "judge.service")
    service = unit["Service"]
    assert service["Type"] == "notify" and service["User"] == "judge"
    assert service["StateDirectory"] == "judge" and service["ProtectSystem"] == "strict"
    assert service["NoNewPrivileges"] == "yes" and service["Restart"] == "on-failure"
    assert service["ExecStart"].endswith("judge serve --config /etc/judge/judge.toml")
    assert service["RestartPreventExitStatus"] == "78"


def test_the_reverse_proxy_hands_the_pages_to_the_judge_on_loopback(tmp_path):
    text = (DEPLOY / "nginx" / "judge.conf").read_text()
    web = parse_config("", "", tmp_path).web
    assert f"proxy_pass http://{web.host}:{web.port};" in text
    assert "listen 443 ssl;" in text
