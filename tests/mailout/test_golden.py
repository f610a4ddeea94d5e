"""Every template rendered from fixture events and real adjudications, compared with golden mails."""
from __future__ import annotations

import jinja2
import pytest

from judge.mailout.mailings import Mailer
from judge.mailout.render import bundled_templates_dir, environment
from tests.support.mail_cases import CASES
from tests.support.golden import check_golden


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name, mailer, standard):
    check_golden(name, CASES[name](mailer, standard))


class _Recording(jinja2.FileSystemLoader):
    def __init__(self, folder: str) -> None:
        super().__init__(folder)
        self.loaded: set[str] = set()

    def get_source(self, environment, template):
        self.loaded.add(template)
        return super().get_source(environment, template)


def test_every_template_has_a_golden_case(status, standard):
    env = environment()
    loader = _Recording(str(bundled_templates_dir()))
    env.loader = loader
    mailer = Mailer(env, status, standard, judge="TEST")
    for build in CASES.values():
        build(mailer, standard)
    files = {p.name for p in bundled_templates_dir().glob("*.txt")}
    assert files - loader.loaded == set()
