"""Every word the judge mails comes from a Jinja2 template under `templates/`.

Plain text, `StrictUndefined` (a missing value is an error, never an empty gap), no autoescape (these
are not web pages), and lines kept under 78 characters by the templates themselves (tested).
"""
from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from pathlib import Path

import jinja2

from judge.timing import written

MAX_LINE = 78
_GLUE = "\u00a0"  # holds a date's words together while prose is filled (textwrap splits on ASCII blanks)


def bundled_templates_dir() -> Path:
    """`templates/` of the source tree, or <prefix>/share/judge/templates for a wheel install."""
    source_tree = Path(__file__).resolve().parent.parent.parent / "templates"
    if source_tree.is_dir():
        return source_tree
    return Path(sys.prefix) / "share" / "judge" / "templates"


@dataclass(frozen=True)
class Rendered:
    subject: str
    body: str


def environment(folder: Path | None = None) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder or bundled_templates_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["wrap"] = wrap
    for form in (written.date_form, written.day_form, written.long_form, written.short_form,
                 written.offset_form):
        env.filters[form.__name__] = form
    return env


@functools.cache
def bundled_environment() -> jinja2.Environment:
    """The bundled templates, made once a process, for words written where no mailing brought its
    own environment (a results archive's entries, a Crystal Ball game's lists file): making one
    costs milliseconds, more than rendering the words."""
    return environment()


def wrap(text: str, width: int = MAX_LINE - 2, indent: str = "") -> str:
    """Fill prose to the mail width (press and notices quote players' own long lines). A word is
    never broken: a path, an address or a URL must be copied whole, so one longer than the line
    stands whole on a line of its own; nor is a date (`written.WRITTEN_DATE`)."""
    import textwrap
    lines = []
    for paragraph in str(text).split("\n"):
        if _as_filled(paragraph, width):
            lines.append(paragraph)
            continue
        kept = written.WRITTEN_DATE.sub(lambda m: m.group(0).replace(" ", _GLUE), paragraph)
        lines.extend(textwrap.wrap(kept, width, subsequent_indent=indent,
                                   break_long_words=False, break_on_hyphens=False) or [""])
    return "\n".join(lines).replace(_GLUE, " ")


def _as_filled(paragraph: str, width: int) -> bool:
    """Whether filling leaves the paragraph as it is: it fits the width, ends in no blank, and
    holds nothing textwrap or the date's glue would change (most notices' lines: filling them
    cost more than rendering the rest of the mail)."""
    return len(paragraph) <= width and not paragraph.endswith(" ") \
        and not any(c in paragraph for c in _CHANGED_BY_FILLING)


_CHANGED_BY_FILLING = "\t\x0b\x0c\r" + _GLUE


def render(env: jinja2.Environment, name: str, **context) -> Rendered:
    """Render `templates/<name>.txt`: its first line is `Subject: ...`, then a blank line, then the body."""
    text = env.get_template(f"{name}.txt").render(**context)
    head, _, body = text.partition("\n\n")
    if not head.startswith("Subject: "):
        raise ValueError(f"template {name}.txt must start with a 'Subject: ' line and a blank line")
    return Rendered(head[len("Subject: "):].strip(), body)
