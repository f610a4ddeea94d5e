"""Tests of the DATC table loader and of the tables' form (not of any adjudication)."""

import re
from pathlib import Path

import pytest

from tests.adjudicator.datc_cases import POWERS, RESULT_WORDS, Case, load_cases, parse_cases

DATC_DIR = Path(__file__).parent / 'datc'
SECTIONS = 'ABCDEFGHIJ'
# Cases per section in DATC 3.1; 6.J.9 holds two positions, tabled as 6.J.9a and 6.J.9b.
CASES_PER_SECTION = {'A': 12, 'B': 15, 'C': 9, 'D': 34, 'E': 15,
                     'F': 25, 'G': 20, 'H': 16, 'I': 7, 'J': 12}

PROVINCES = frozenset(
    'ADR AEG ALB ANK APU ARM BAL BAR BEL BER BLA BOH BOT BRE BUD BUL BUR CLY CON DEN EAS EDI ENG '
    'FIN GAL GAS GRE HEL HOL ION IRI KIE LON LVN LVP LYO MAO MAR MOS MUN NAF NAO NAP NTH NWG NWY '
    'PAR PIC PIE POR PRU ROM RUH RUM SER SEV SIL SKA SMY SPA STP SWE SYR TRI TUN TUS TYR TYS UKR '
    'VEN VIE WAL WAR WES YOR'.split())
COASTS = frozenset({'SPA/NC', 'SPA/SC', 'STP/NC', 'STP/SC', 'BUL/EC', 'BUL/SC'})
SUPPLY_CENTRES = frozenset(
    'ANK BEL BER BRE BUD BUL CON DEN EDI GRE HOL KIE LON LVP MAR MOS MUN NAP NWY PAR POR ROM RUM '
    'SER SEV SMY SPA STP SWE TRI TUN VEN VIE WAR'.split())


CASES = load_cases(DATC_DIR)


def case_key(case_id: str) -> tuple[str, int, str]:
    section, number = case_id.split('.')[1:]
    digits = re.match(r'[0-9]+', number).group()
    return section, int(digits), number[len(digits):]


def is_place(place: str) -> bool:
    return place in PROVINCES or place in COASTS


def is_unit(unit: str) -> bool:
    kind, _, place = unit.partition(' ')
    if kind == 'A':
        return place in PROVINCES
    return kind == 'F' and is_place(place) and place not in {'SPA', 'STP', 'BUL'}


def test_every_section_file_parses() -> None:
    names = {p.name for p in DATC_DIR.glob('*.txt')}
    assert {f'6{s}.txt' for s in SECTIONS} <= names
    for section in SECTIONS:
        path = DATC_DIR / f'6{section}.txt'
        cases = parse_cases(path.read_text(encoding='utf-8'), path.name)
        assert len(cases) == CASES_PER_SECTION[section], section


def test_ids_are_unique_and_in_order() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
    assert ids == sorted(ids, key=case_key)
    for case in CASES:
        assert case.source.startswith(f'6{case_key(case.id)[0]}.txt:'), case.id


@pytest.mark.parametrize('case', CASES, ids=lambda c: c.id)
def test_case_has_steps_and_a_title(case: Case) -> None:
    assert case.title
    assert case.steps
    first, *later = case.steps
    assert first.request['units'] is not None
    assert all(step.request['units'] is None for step in later)
    for step in case.steps:
        assert step.request['map'] == 'standard'
        assert isinstance(step.request['rules'], list)


@pytest.mark.parametrize('case', CASES, ids=lambda c: c.id)
def test_every_unit_line_is_well_formed(case: Case) -> None:
    for step in case.steps:
        groups = [step.expected.get('units', {})]
        if step.request['units'] is not None:
            groups.append(step.request['units'])
        for group in groups:
            for power, units in group.items():
                assert power in POWERS
                assert units == sorted(units)
                assert all(is_unit(u) for u in units), units
        for power, centres in step.request.get('centers', {}).items():
            assert power in POWERS
            assert set(centres) <= SUPPLY_CENTRES, centres
        for power, dislodged in step.expected.get('dislodged', {}).items():
            assert power in POWERS
            for unit, retreats in dislodged.items():
                assert is_unit(unit), unit
                assert retreats == sorted(retreats)
                assert all(is_place(p) for p in retreats), retreats


@pytest.mark.parametrize('case', CASES, ids=lambda c: c.id)
def test_every_order_has_one_result(case: Case) -> None:
    for step in case.steps:
        orders = [o for per_power in step.request['orders'].values() for o in per_power]
        results = step.expected['results']
        assert len(results) == len(orders)
        for key, words in results.items():
            assert set(words) <= RESULT_WORDS, words
            base = key.split(' #')[0]
            assert any(o == base or o.startswith(base + ' ') for o in orders), key
        for order in orders:
            words = order.split()
            if words[0] in ('BUILD', 'REMOVE'):
                words = words[1:]
            if words != ['WAIVE']:
                assert words[0] in ('A', 'F') and is_place(words[1]), order


def test_step_request_and_expected_shape() -> None:
    text = '\n'.join([
        'CASE 6.H.99  A retreat after a movement',
        'RULES COASTAL_CONVOY',
        'STEP SPRING 1901 MOVEMENT',
        'UNITS',
        '  ENGLAND  F NTH, A LON',
        '  FRANCE   F ENG',
        'ORDERS',
        '  ENGLAND  F NTH C A LON - BEL   => ok   # a comment',
        '  ENGLAND  A LON - BEL           => bounce',
        '  FRANCE   F ENG H               => dislodged',
        'AFTER',
        '  ENGLAND  F NTH, A LON',
        '  FRANCE   -',
        'DISLODGED',
        '  FRANCE   F ENG --> MAO IRI',
        'STEP SPRING 1901 RETREATS',
        'ORDERS',
        '  FRANCE   F ENG - IRI           => ok',
    ])
    (case,) = parse_cases(text, 'x.txt')
    assert (case.id, case.title, case.source) == ('6.H.99', 'A retreat after a movement', 'x.txt:1')
    movement, retreat = case.steps
    assert movement.request == {
        'map': 'standard', 'phase': 'SPRING 1901 MOVEMENT', 'rules': ['COASTAL_CONVOY'],
        'units': {'ENGLAND': ['A LON', 'F NTH'], 'FRANCE': ['F ENG']},
        'orders': {'ENGLAND': ['F NTH C A LON - BEL', 'A LON - BEL'], 'FRANCE': ['F ENG H']}}
    assert movement.expected == {
        'results': {'F NTH': [], 'A LON': ['bounce'], 'F ENG': ['dislodged']},
        'units': {'ENGLAND': ['A LON', 'F NTH'], 'FRANCE': []},
        'dislodged': {'FRANCE': {'F ENG': ['IRI', 'MAO']}}}
    assert retreat.request['units'] is None
    assert retreat.request['orders'] == {'FRANCE': ['F ENG - IRI']}
    assert retreat.expected == {'results': {'F ENG': []}}


def test_adjustment_step_has_centres_and_numbers_repeated_orders() -> None:
    text = '\n'.join([
        'CASE 6.I.7  Twice the same build',
        'STEP WINTER 1901 ADJUSTMENTS',
        'UNITS',
        '  RUSSIA   A WAR',
        'CENTERS',
        '  RUSSIA   WAR, MOS, STP',
        'ORDERS',
        '  RUSSIA   BUILD A MOS   => ok',
        '  RUSSIA   BUILD A MOS   => invalid',
        '  RUSSIA   WAIVE         => ok',
    ])
    (case,) = parse_cases(text, 'x.txt')
    (step,) = case.steps
    assert step.request['centers'] == {'RUSSIA': ['MOS', 'STP', 'WAR']}
    assert step.expected['results'] == {
        'BUILD A MOS': [], 'BUILD A MOS #2': ['invalid'], 'WAIVE': []}


GOOD_CASE = ['CASE 6.A.1  Fine', 'STEP SPRING 1901 MOVEMENT', 'UNITS', '  ENGLAND  F NTH', 'ORDERS',
             '  ENGLAND  F NTH - PIC  => invalid']


@pytest.mark.parametrize('line, replacement, message', [
    (5, '  ENGLAND  F NTH - PIC  => failed', 'unknown result word'),
    (5, '  ENGLAND  F NTH - PIC', 'order needs "=> result"'),
    (3, '  ENGLND   F NTH', 'unknown power'),
    (3, '  ENGLAND  F NORTH', 'bad unit'),
    (1, 'STEP SPRING 1901 MOVE', 'bad phase'),
    (0, 'CASE 6.A  Fine', 'bad case id'),
    (4, 'ORDERS  now', 'takes no value'),
    (2, 'UNIT', 'unknown keyword'),
])
def test_a_broken_table_names_file_and_line(line: int, replacement: str, message: str) -> None:
    lines = list(GOOD_CASE)
    lines[line] = replacement
    with pytest.raises(ValueError, match=rf'^broken\.txt:{line + 1}: .*{re.escape(message)}'):
        parse_cases('\n'.join(lines), 'broken.txt')


def test_a_step_without_orders_is_reported_at_its_step_line() -> None:
    text = '\n'.join(GOOD_CASE[:4] + ['', 'CASE 6.A.2  Next'] + GOOD_CASE[1:])
    with pytest.raises(ValueError, match=r'^broken\.txt:2: step has no ORDERS'):
        parse_cases(text, 'broken.txt')


def test_units_only_in_the_first_step() -> None:
    text = '\n'.join(GOOD_CASE + ['STEP SPRING 1901 RETREATS', 'UNITS'])
    with pytest.raises(ValueError, match=r'^broken\.txt:8: UNITS only in the first step'):
        parse_cases(text, 'broken.txt')


# --- the judge's own tables (tables/): the same format, on other maps too ------------------------------

TABLES_DIR = Path(__file__).parent / 'tables'


def test_the_judges_tables_parse_and_every_id_is_unique() -> None:
    names = {p.name for p in TABLES_DIR.glob('*.txt')}
    assert {'map_features.txt', 'builds.txt', 'rules.txt', 'real_play.txt'} <= names
    tables = load_cases(TABLES_DIR)
    assert all(parse_cases((TABLES_DIR / name).read_text(encoding='utf-8'), name) for name in names)
    ids = [case.id for case in CASES + tables]
    assert len(ids) == len(set(ids))
    assert {step.request['map'] for case in tables for step in case.steps} >= {'standard', 'strait'}


def test_a_table_on_another_map_names_its_powers_sees_owners_and_the_next_phase() -> None:
    text = '\n'.join([
        'CASE strait.example  A move across a strait',
        'MAP strait',
        'RULES NO_CHECK',
        'STEP SPRING 1901 MOVEMENT',
        'UNITS',
        '  REDLAND   A ALP',
        'ORDERS',
        '  REDLAND   A ALP - BRA     => ok',
        '  REDLAND   A ALP - CHA     => void "more than one order"',
        'AFTER',
        '  REDLAND   A ALP',
        'OWNED',
        '  REDLAND   ALP',
        '  BLUELAND  -',
        'NEXT FALL 1901 MOVEMENT',
    ])
    (case,) = parse_cases(text, 'x.txt')
    (step,) = case.steps
    assert step.request['map'] == 'strait' and step.request['rules'] == ['NO_CHECK']
    assert step.request['orders'] == {'REDLAND': ['A ALP - BRA', 'A ALP - CHA']}
    assert step.expected == {
        'results': {'A ALP': [], 'A ALP #2': ['void']}, 'errors': {'A ALP #2': 'more than one order'},
        'units': {'REDLAND': ['A ALP']}, 'centers': {'REDLAND': ['ALP'], 'BLUELAND': []},
        'next_phase': 'FALL 1901 MOVEMENT'}


@pytest.mark.parametrize('lines, message', [
    (['CASE strait.x  Fine', 'STEP SPRING 1901 MOVEMENT', 'UNITS', '  REDLAND  A ALP'], 'unknown power'),
    (['CASE strait.x  Fine', 'STEP SPRING 1901 MOVEMENT', 'MAP strait'], 'MAP must come once'),
    (['CASE strait.x  Fine', 'MAP Strait/x'], 'bad map name'),
    (['CASE Strait  Fine'], 'bad case id'),
    (['CASE strait.x  Fine', 'STEP SPRING 1901 MOVEMENT', 'NEXT SPRING 1901'], 'bad phase'),
])
def test_a_broken_table_of_the_judge_names_file_and_line(lines: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=rf'^broken\.txt:{len(lines)}: .*{re.escape(message)}'):
        parse_cases('\n'.join(lines), 'broken.txt')
