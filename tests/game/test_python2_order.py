"""The order DPjudge (Python 2.7) lists a dictionary's string keys in, as Python 2.7 itself listed
them (recorded with `python2.7 -c 'd = {}; ...; print d.keys()'`)."""
from __future__ import annotations

from judge.game.python2_order import python2_order

STANDARD_UNITS = ("A BUD|A VIE|F TRI|F EDI|F LON|A LVP|F BRE|A MAR|A PAR|F KIE|A BER|A MUN|F NAP|A ROM|"
                  "A VEN|A WAR|A MOS|F SEV|F STP/SC|F ANK|A CON|A SMY").split("|")


def test_the_standard_openings_units_are_listed_as_python_2_lists_them():
    assert python2_order(STANDARD_UNITS) == ("F LON|F BRE|F NAP|A BER|A VIE|A VEN|A WAR|F TRI|A ROM|F EDI|A BUD|"
                                             "A LVP|A MOS|F SEV|A MAR|F STP/SC|A CON|F KIE|A MUN|A PAR|F ANK|"
                                             "A SMY").split("|")


def test_a_table_grown_twice_lists_its_keys_as_python_2_does():
    listed = ("x50|x52|x47|x46|x45|x44|x43|x42|x41|x40|x49|x48|x53|x29|x28|x57|x25|x24|x27|x26|x21|x20|x23|"
              "x22|x54|x55|x56|x8|x9|x2|x3|x0|x1|x6|x7|x4|x5|x32|x33|x30|x31|x36|x37|x34|x35|x38|x39|x58|x59|"
              "x18|x19|x51|x10|x11|x12|x13|x14|x15|x16|x17")
    assert python2_order(f"x{n}" for n in range(60)) == listed.split("|")


def test_a_key_given_twice_is_listed_once():
    assert python2_order(["A PAR", "A PAR"]) == ["A PAR"]
