"""Lines written in whole words are looked up word by word (`lex`): the same lexemes, orders and
errors as the full reading (`lex_words`), for canonical orders, odd spellings and word salad, on
maps whose aliases try to join or split the words."""
from __future__ import annotations

import random

import pytest

from judge.errors import OrderError
from judge.maps.loader import load_map
from judge.orders.lexer import PlaceIndex, lex, lex_words, place_index, tokenize
from judge.orders.parser import OrderableUnits, OrderReader
from judge.types import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, Unit, UnitType
from tests.support.maps import map_from_text
from tests.support.orders import TINY
from tests.support.spellings import canonical_text, respell, word_salad

# Aliases that are order words (TO, H, VIA), coast words (NC, N), COAST and a filler (THE), and
# aliases that run on into the next word (`BET H`, `GAM S A`, `THE SEA`).
TRICKY = """\
Alpha = alp
Beta = bet bet+h
Gamma = gam gam+s+a
North Carolina = ncr nc
Toledo = tol to
The Sea = the sea
Spain = spa
Spain (north coast) = spa/nc
Spain (south coast) = spa/sc spa/wc
Hook = hok h
Viana = via
Coastland = cot coast
Norland = nor n
LAND ALP ABUTS BET GAM NCR TOL HOK VIA COT NOR
COAST BET ABUTS ALP GAM THE SPA/NC
COAST GAM ABUTS ALP BET NCR THE
LAND NCR ABUTS ALP GAM TOL
LAND TOL ABUTS ALP NCR
LAND HOK ABUTS ALP
LAND VIA ABUTS ALP
LAND COT ABUTS ALP
LAND NOR ABUTS ALP
WATER THE ABUTS BET GAM SPA/SC
COAST SPA/NC ABUTS BET
COAST SPA/SC ABUTS THE
COAST spa ABUTS BET THE
XLAND (XISH:X) ALP NCR
A ALP
F BET
YLAND (YISH:Y) GAM SPA
F GAM
A NCR
UNOWNED TOL
"""

MAPS = ["standard", "modern", "youngstown", "ancmed", "1900", "tiny", "tricky"]
LINES_A_MAP = 1500


@pytest.fixture(scope="module", params=MAPS)
def board(request):
    if request.param == "tiny":
        return map_from_text(TINY)
    if request.param == "tricky":
        return map_from_text(TRICKY)
    return load_map(request.param)


def texts(m, rng: random.Random) -> list[str]:
    """Canonical orders, the same respelled, and word salad, in equal shares."""
    made = []
    for _ in range(LINES_A_MAP // 3):
        canonical = canonical_text(m, rng)
        made += [canonical, respell(m, canonical, rng, rng.choice([0.2, 0.5, 1.0])), word_salad(m, rng)]
    return made


def outcome(read, *args):
    try:
        return read(*args)
    except OrderError as exc:
        return f"OrderError: {exc}"


def test_whole_words_lex_as_the_full_reading(board):
    rng = random.Random(f"lex {board.name}")
    index = place_index(board)
    looked_up = 0
    for text in texts(board, rng):
        fast = outcome(lex, index, text)
        assert fast == outcome(lex_words, index, tokenize(text)), text
        looked_up += all(map(index.is_whole, text.upper().split()))
    assert looked_up > LINES_A_MAP // 4  # (the canonical third at least, on every map)


def random_units(m, rng: random.Random) -> dict[str, tuple[Unit, ...]]:
    places = sorted(m.locations)
    units: dict[str, list[Unit]] = {power: [] for power in sorted(m.powers)}
    taken = set()
    for location in rng.sample(places, len(places) // 2):
        unit = Unit(rng.choice(list(UnitType)), location)
        if m.can_stand(unit) and unit.province not in taken:
            taken.add(unit.province)
            units[rng.choice(sorted(m.powers))].append(unit)
    return {power: tuple(mine) for power, mine in units.items()}


@pytest.mark.parametrize("kind", [MOVEMENT, RETREATS, ADJUSTMENTS])
@pytest.mark.parametrize("rules", [frozenset(), frozenset({"NO_CHECK"}), frozenset({"ORDER_ANY"})],
                         ids=["plain", "NO_CHECK", "ORDER_ANY"])
def test_orders_and_errors_are_those_of_the_full_reading(board, kind, rules, monkeypatch):
    rng = random.Random(f"read {board.name} {kind} {sorted(rules)}")
    reader = OrderReader(board, rules)
    phase = Phase("SPRING" if kind != ADJUSTMENTS else "WINTER", 1901, kind)
    units = OrderableUnits(random_units(board, rng))
    lines = [(rng.choice(sorted(board.powers)), text) for text in texts(board, rng)[:LINES_A_MAP // 3]]
    read = [outcome(reader.read, power, text, phase, units) for power, text in lines]
    monkeypatch.setattr("judge.orders.parser.lex", lambda index, text: lex_words(index, tokenize(text)))
    for (power, text), fast in zip(lines, read):
        assert fast == outcome(reader.read, power, text, phase, units), text


def test_an_alias_running_on_into_the_next_word_is_read_whole():
    """`GAM S A` is an alias of Gamma: `F GAM S A ALP` is not a support of the army in Alpha."""
    index = place_index(map_from_text(TRICKY))
    assert not index.is_whole("GAM") and not index.is_whole("THE")
    assert [getattr(lx, "options", None) for lx in lex(index, "F GAM S A ALP")] == [None, ("GAM",), ("ALP",)]


def test_words_that_may_start_a_coast_are_not_whole():
    """`NC` may be the north coast of the place before it (`SPA NC`), and `N` too (`SPA N COAST`)."""
    index = place_index(map_from_text(TRICKY))
    assert not any(map(index.is_whole, ["NC", "N", "COAST", "(NC)"]))
    assert index.is_whole("SPA/NC") and index.is_whole("S")


def test_only_the_maps_own_words_are_remembered(standard):
    """Whatever players write, what the index learns is bounded by the map's words."""
    index = PlaceIndex(standard)
    rng = random.Random("junk")
    for _ in range(2000):
        outcome(lex, index, "A PAR - " + " ".join(f"W{rng.randrange(10**9)}" for _ in range(5)))
    assert index.whole_words.keys() == {"A", "PAR", "-"} and not index.not_whole


def test_a_line_read_again_gives_the_same_lexemes(board):
    rng = random.Random(f"again {board.name}")
    index = PlaceIndex(board)
    lines = texts(board, rng)[:60]
    first = [outcome(lex, index, text) for text in lines]
    assert index.lines  # (some lines were kept)
    assert [outcome(lex, index, text) for text in lines] == first
    assert first == [outcome(lex_words, index, tokenize(text)) for text in lines]


def test_lines_kept_are_bounded_and_errors_are_not_kept(standard, monkeypatch):
    """Whatever players write, the lines an index keeps are few, and a line in error is read anew."""
    monkeypatch.setattr("judge.orders.lexer.LINES_KEPT", 50)
    index = PlaceIndex(standard)
    for n in range(200):
        lex(index, f"A PAR - BUR {'H ' * (n % 7)}" + "- PIC " * (n // 7))
    outcome(lex, index, "A PAR - NOWHERE")
    assert len(index.lines) == 50 and "A PAR - NOWHERE" not in index.lines
    kept = lex(index, "A PAR - BUR")
    kept.clear()  # (a caller changing what it was given changes nothing kept)
    assert len(lex(index, "A PAR - BUR")) == 4
