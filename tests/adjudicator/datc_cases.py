"""Adjudication cases as data tables: the DATC test cases (Lucas B. Kruijswijk, version 3.1),
sections 6.A to 6.J, and the judge's own tables in the same format (map features, rule variants,
bugs found in real play).

The DATC tables live in ``datc/6A.txt`` ... ``datc/6J.txt``, the others in ``tables/``. This
module turns them into ``Case`` values whose steps are the JSON requests of ``judge adjudicate``
and the part of its answer the case fixes. It is pure: only ``load_cases`` touches the file system.

Table syntax
------------
Keyword lines start in column 0, content lines are indented; ``#`` starts a comment; blank lines
are ignored. A content line starts with a power name (AUSTRIA ENGLAND FRANCE GERMANY ITALY RUSSIA
TURKEY)::

    CASE 6.D.2  A move cuts a support to hold
    STEP SPRING 1901 MOVEMENT
    UNITS
      AUSTRIA  F ADR, A TRI, A VIE
      ITALY    A VEN, A TYR
    ORDERS
      AUSTRIA  F ADR S A TRI - VEN      => ok
      AUSTRIA  A TRI - VEN              => ok
      AUSTRIA  A VIE - TYR              => bounce
      ITALY    A VEN H                  => dislodged
      ITALY    A TYR S A VEN            => cut
    AFTER
      AUSTRIA  A VEN, A VIE, F ADR
      ITALY    A TYR
    DISLODGED
      ITALY    A VEN --> APU PIE ROM TUS

``CASE id title`` opens a case (id ``6.X.n``, with a letter after ``n`` where the DATC gives
one case two positions; in the other tables a lower-case name such as ``strait.empty``). Optional
``RULES name ...`` and ``MAP name`` lines follow it. Each ``STEP phase`` (``SPRING 1901
MOVEMENT``, ``SPRING 1901 RETREATS``, ``WINTER 1901 ADJUSTMENTS``) has sections:

``UNITS``      the position, first step only (later steps start from the previous outcome);
``CENTERS``    supply-centre ownership (adjustment steps, or where a crossing needs a centre);
``ORDERS``     one order a line as a player writes it, then ``=>`` and its result (the
               section is mandatory but may be empty);
``AFTER``      the units standing after the step, for every power of the case (``-``: none);
``DISLODGED``  each dislodged unit and its legal retreats (``F POR -->`` alone: destroyed);
``OWNED``      the supply centres each power owns after the step, for every power owning one.

and may give ``NEXT phase``, the phase the answer says comes next.

Other maps
----------
``MAP name`` adjudicates the case on another map: a shipped one (``1900``, ``testing``) or one of
``tables/maps/`` (small maps made for a feature). Its power names are those of that map; without
``MAP`` the case is on the standard map and a power is one of the seven.

Result words
------------
``ok`` is the table's spelling of "no result word" (success). Otherwise a comma list of:

``bounce``      a move or retreat that failed against other units (standoff, weaker, or no
                self-dislodgement);
``cut``         a support that was cut;
``dislodged``   the unit was dislodged (added to whatever its order did);
``void``        an order with no effect: a legal support or convoy that matches no order
                (also a convoy of an army that goes over land), an order for a unit its
                power does not own, an adjustment order past the number allowed, and an
                illegal order in the DATC's sense (4.E.1: it could not be valid whatever the
                other orders; `judge adjudicate` adds an "error" text), ignored so the unit
                holds; also a retreat to a place the unit may not go;
``invalid``     the same illegal orders, in a NO_CHECK game (face-to-face play), where they
                are accepted and adjudicated rather than rejected;
``no convoy``   an army move needing a convoy while no complete route of fleets ordered to
                convoy it exists, or whose every route was broken by a dislodged fleet or
                cancelled by the paradox rule (Szykman), and a support of such a move that
                was not cut (DPjudge's words; its convoying fleets get none, or `void` when
                the army's written route leaves them out);
``destroyed``   a dislodged unit that did not survive its retreat order.

A result may end with a quoted text the order's error must contain (an illegal or void order's
reason), e.g. ``=> void "more than one order"``.

Results are keyed by the unit as written in the order (``A LON``); adjustment orders by their
text (``BUILD A KIE``). When the same key comes again in one step, the later ones get ``" #2"``,
``" #3"``... (``REMOVE A PAR #2``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

POWERS = frozenset({'AUSTRIA', 'ENGLAND', 'FRANCE', 'GERMANY', 'ITALY', 'RUSSIA', 'TURKEY'})
RESULT_WORDS = frozenset({'bounce', 'cut', 'dislodged', 'void', 'no convoy', 'invalid', 'destroyed'})
SECTIONS = ('UNITS', 'CENTERS', 'ORDERS', 'AFTER', 'DISLODGED', 'OWNED')

CASE_ID = re.compile(r'6\.[A-J]\.[1-9][0-9]*[a-z]?|[a-z0-9]+(?:[.-][a-z0-9]+)*')
POWER = re.compile(r'[A-Z][A-Z_]*')
MAP_NAME = re.compile(r'[a-z0-9][a-z0-9_-]*')
ERROR_TEXT = re.compile(r'(.*?)\s*"([^"]+)"')
PHASE = re.compile(r'(SPRING|FALL|WINTER) [0-9]{4} (MOVEMENT|RETREATS|ADJUSTMENTS)')
RULE = re.compile(r'[A-Z][A-Z_]*')
PLACE = r'[A-Z]{3}(?:/(?:NC|SC|EC|WC))?'
UNIT = re.compile(rf'[AF] {PLACE}')
CENTER = re.compile(r'[A-Z]{3}')
ADJUSTMENT = re.compile(rf'(?:BUILD [AF] {PLACE}|REMOVE [AF] {PLACE}|WAIVE)')
UNIT_ORDER = re.compile(rf'([AF] {PLACE})(?: .*)?')


@dataclass(frozen=True)
class Step:
    """One phase of a case: the ``judge adjudicate`` request and the expected part of its answer."""
    request: dict
    expected: dict


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    source: str
    steps: list[Step] = field(default_factory=list)


class _StepBuilder:
    def __init__(self, phase: str, line: int) -> None:
        self.phase = phase
        self.line = line
        self.sections: dict[str, dict] = {}
        self.results: dict[str, list[str]] = {}
        self.errors: dict[str, str] = {}
        self.next: str | None = None


class _CaseBuilder:
    def __init__(self, case_id: str, title: str, line: int) -> None:
        self.id = case_id
        self.title = title
        self.line = line
        self.rules: list[str] | None = None
        self.map: str | None = None
        self.steps: list[_StepBuilder] = []


def load_cases(directory: str | Path) -> list[Case]:
    """Read every ``*.txt`` table in ``directory``, in name order."""
    cases: list[Case] = []
    for path in sorted(Path(directory).glob('*.txt')):
        cases.extend(parse_cases(path.read_text(encoding='utf-8'), path.name))
    return cases


def parse_cases(text: str, filename: str) -> list[Case]:
    """Parse the tables of one file; errors raise ``ValueError('FILE:LINE: what')``."""
    parser = _Parser(filename)
    for number, raw in enumerate(text.splitlines(), start=1):
        parser.feed(number, raw)
    return parser.finish()


class _Parser:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.line = 0
        self.cases: list[_CaseBuilder] = []
        self.section: str | None = None

    def error(self, message: str, line: int | None = None) -> ValueError:
        return ValueError(f'{self.filename}:{self.line if line is None else line}: {message}')

    def feed(self, number: int, raw: str) -> None:
        self.line = number
        text = raw.split('#', 1)[0].rstrip()
        if not text.strip():
            return
        if text[0].isspace():
            self.content(text.strip())
        else:
            self.keyword(text)

    # -- keyword lines ----------------------------------------------------------------------

    def keyword(self, text: str) -> None:
        word, _, rest = text.partition(' ')
        rest = rest.strip()
        if word == 'CASE':
            self.open_case(rest)
        elif word == 'RULES':
            self.set_rules(rest)
        elif word == 'MAP':
            self.set_map(rest)
        elif word == 'STEP':
            self.open_step(rest)
        elif word == 'NEXT':
            self.set_next(rest)
        elif word in SECTIONS:
            self.open_section(word, rest)
        else:
            raise self.error(f'unknown keyword {word!r}')

    def open_case(self, rest: str) -> None:
        case_id, _, title = rest.partition(' ')
        if not CASE_ID.fullmatch(case_id):
            raise self.error(f'bad case id {case_id!r} (want 6.X.n, or a name such as strait.empty)')
        if not title.strip():
            raise self.error(f'case {case_id} has no title')
        self.close_case()
        self.cases.append(_CaseBuilder(case_id, title.strip(), self.line))
        self.section = None

    def set_rules(self, rest: str) -> None:
        case = self.current_case()
        if case.steps or case.rules is not None:
            raise self.error('RULES must come once, before the first STEP')
        rules = rest.split()
        for rule in rules:
            if not RULE.fullmatch(rule):
                raise self.error(f'bad rule name {rule!r}')
        case.rules = rules

    def set_map(self, rest: str) -> None:
        case = self.current_case()
        if case.steps or case.map is not None:
            raise self.error('MAP must come once, before the first STEP')
        if not MAP_NAME.fullmatch(rest):
            raise self.error(f'bad map name {rest!r}')
        case.map = rest

    def set_next(self, rest: str) -> None:
        step = self.current_step()
        phase = ' '.join(rest.split())
        if not PHASE.fullmatch(phase):
            raise self.error(f'bad phase {rest!r} (want e.g. SPRING 1902 MOVEMENT)')
        if step.next is not None:
            raise self.error('NEXT given twice in this step')
        step.next = phase
        self.section = None

    def open_step(self, rest: str) -> None:
        case = self.current_case()
        phase = ' '.join(rest.split())
        if not PHASE.fullmatch(phase):
            raise self.error(f'bad phase {rest!r} (want e.g. SPRING 1901 MOVEMENT)')
        self.close_step()
        case.steps.append(_StepBuilder(phase, self.line))
        self.section = None

    def open_section(self, word: str, rest: str) -> None:
        step = self.current_step()
        if rest:
            raise self.error(f'{word} takes no value on its own line')
        if word in step.sections:
            raise self.error(f'{word} given twice in this step')
        if word == 'UNITS' and len(self.current_case().steps) > 1:
            raise self.error('UNITS only in the first step: later ones start from the previous')
        step.sections[word] = {}
        self.section = word

    # -- content lines ----------------------------------------------------------------------

    def content(self, text: str) -> None:
        if self.section is None:
            raise self.error('content line outside a section')
        power, _, rest = text.partition(' ')
        if not POWER.fullmatch(power) or (self.current_case().map is None and power not in POWERS):
            raise self.error(f'unknown power {power!r}')
        rest = rest.strip()
        if not rest:
            raise self.error(f'nothing after {power}')
        getattr(self, f'content_{self.section.lower()}')(power, rest)

    def content_units(self, power: str, rest: str) -> None:
        self.put(power, self.unit_list(rest))

    def content_after(self, power: str, rest: str) -> None:
        self.put(power, self.unit_list(rest))

    def content_owned(self, power: str, rest: str) -> None:
        self.content_centers(power, rest)

    def content_centers(self, power: str, rest: str) -> None:
        centers = [] if rest == '-' else [c.strip() for c in rest.split(',')]
        for center in centers:
            if not CENTER.fullmatch(center):
                raise self.error(f'bad supply centre {center!r}')
        if len(set(centers)) != len(centers):
            raise self.error(f'a supply centre of {power} is listed twice')
        self.put(power, sorted(centers))

    def content_dislodged(self, power: str, rest: str) -> None:
        unit, arrow, places = rest.partition('-->')
        unit = ' '.join(unit.split())
        if not arrow:
            raise self.error(f'dislodged unit needs "-->" and its retreats: {rest!r}')
        if not UNIT.fullmatch(unit):
            raise self.error(f'bad unit {unit!r}')
        retreats = places.split()
        for place in retreats:
            if not re.fullmatch(PLACE, place):
                raise self.error(f'bad retreat place {place!r}')
        units = self.current_step().sections['DISLODGED'].setdefault(power, {})
        if unit in units:
            raise self.error(f'{unit} listed twice')
        units[unit] = sorted(retreats)

    def content_orders(self, power: str, rest: str) -> None:
        order, arrow, outcome = rest.partition('=>')
        order = ' '.join(order.split())
        if not arrow:
            raise self.error(f'order needs "=> result": {rest!r}')
        key = self.order_key(order)
        quoted = ERROR_TEXT.fullmatch(outcome.strip())
        if quoted:
            outcome, error = quoted.groups()
        words = self.result_words(outcome)
        step = self.current_step()
        step.sections['ORDERS'].setdefault(power, []).append(order)
        unique, n = key, 1
        while unique in step.results:
            n += 1
            unique = f'{key} #{n}'
        step.results[unique] = words
        if quoted:
            step.errors[unique] = error

    def order_key(self, order: str) -> str:
        if order.startswith(('BUILD', 'REMOVE', 'WAIVE')):
            if not ADJUSTMENT.fullmatch(order):
                raise self.error(f'bad adjustment order {order!r}')
            return order
        match = UNIT_ORDER.fullmatch(order)
        if not match:
            raise self.error(f'order does not start with a unit: {order!r}')
        return match.group(1)

    def result_words(self, outcome: str) -> list[str]:
        outcome = ' '.join(outcome.split())
        if outcome == 'ok':
            return []
        words = [w.strip() for w in outcome.split(',')]
        for word in words:
            if word not in RESULT_WORDS:
                known = ', '.join(sorted(RESULT_WORDS))
                raise self.error(f'unknown result word {word!r} (ok or {known})')
        if len(set(words)) != len(words):
            raise self.error(f'result word repeated in {outcome!r}')
        return words

    def unit_list(self, rest: str) -> list[str]:
        units = [] if rest == '-' else [' '.join(u.split()) for u in rest.split(',')]
        for unit in units:
            if not UNIT.fullmatch(unit):
                raise self.error(f'bad unit {unit!r} (want e.g. A PAR or F STP/SC)')
        if len(set(units)) != len(units):
            raise self.error('a unit is listed twice')
        return sorted(units)

    def put(self, power: str, value: list[str]) -> None:
        section = self.current_step().sections[self.section]
        if power in section:
            raise self.error(f'{power} given twice in {self.section}')
        section[power] = value

    # -- structure --------------------------------------------------------------------------

    def current_case(self) -> _CaseBuilder:
        if not self.cases:
            raise self.error('expected a CASE line first')
        return self.cases[-1]

    def current_step(self) -> _StepBuilder:
        case = self.current_case()
        if not case.steps:
            raise self.error('expected a STEP line first')
        return case.steps[-1]

    def close_step(self) -> None:
        if not self.cases or not self.cases[-1].steps:
            return
        step = self.cases[-1].steps[-1]
        if 'ORDERS' not in step.sections:
            raise self.error('step has no ORDERS section', step.line)
        if len(self.cases[-1].steps) == 1 and 'UNITS' not in step.sections:
            raise self.error('the first step needs UNITS', step.line)

    def close_case(self) -> None:
        if not self.cases:
            return
        self.close_step()
        if not self.cases[-1].steps:
            raise self.error(f'case {self.cases[-1].id} has no STEP', self.cases[-1].line)

    def finish(self) -> list[Case]:
        self.close_case()
        return [self.build(case) for case in self.cases]

    def build(self, case: _CaseBuilder) -> Case:
        rules = list(case.rules or [])
        steps = []
        for index, step in enumerate(case.steps):
            sections = step.sections
            request: dict = {'map': case.map or 'standard', 'phase': step.phase, 'rules': rules,
                             'units': sections['UNITS'] if index == 0 else None}
            if 'CENTERS' in sections:
                request['centers'] = sections['CENTERS']
            request['orders'] = sections['ORDERS']
            expected: dict = {'results': step.results}
            if 'AFTER' in sections:
                expected['units'] = sections['AFTER']
            if 'DISLODGED' in sections:
                expected['dislodged'] = sections['DISLODGED']
            if 'OWNED' in sections:
                expected['centers'] = sections['OWNED']
            if step.errors:
                expected['errors'] = step.errors
            if step.next is not None:
                expected['next_phase'] = step.next
            steps.append(Step(request=request, expected=expected))
        source = f'{self.filename}:{case.line}'
        return Case(id=case.id, title=case.title, source=source, steps=steps)
