# -*- coding: utf-8 -*-
"""What DPjudge makes of every map's names, recorded for tests that need no Python 2.

Run by hand, under Python 2.7, from the checkout's root:

    PYENV_VERSION=2.7.18 python tests/maps/dpjudge_names.py ../shared/reference/dpjudge \
        > tests/maps/dpjudge_names.json

For each map of DPjudge's DPjudge/maps/ (key `dpjudge/NAME`) and of this project's maps/ (key
`judge/NAME`, read by DPjudge with its own geography files beside it), DPjudge's Map is loaded and
this is written: each power's name, letter and ownership word; each place name with its
abbreviation; each name or alias as the map writes it ([text, marked `?`, the words DPjudge reads
it as]); the aliases marked `?`; for DPjudge's maps this project ships, the ABUTS list of each
location in the map's order; and the map's errors (or, where DPjudge cannot load the map at all,
why). tests/maps/test_dpjudge_names.py checks this project agrees.
"""
import json
import os
import shutil
import sys
import tempfile
import types


def load_dpjudge(src, package):
    host = types.ModuleType('host')
    host.packageDir = package
    host.dpjudgeDir = package
    host.notify = 0
    host.judgekeeper = None
    sys.modules['host'] = host
    sys.path.insert(0, os.path.join(src, 'DPjudge'))
    import Map
    return Map.Map


def written_names(package, files):
    """(text, unclear) for each place name and alias of the map's place lines, as written."""
    found = []
    for name in files:
        for line in open(os.path.join(package, 'maps', name)):
            word = line.split()
            if not word or word[0][0] == '#' or '=' not in line:
                continue
            left, right = line.split('=', 1)
            place = left.split('->')[-1].strip()
            found.append((place, False))
            for alias in right.split():
                found.append((alias.rstrip('?'), alias.endswith('?')))
    return found


def facts(Map, package, name, with_abuts):
    m = Map(name)
    powers = [{'name': p, 'letter': m.abbrev.get(p, p[0]), 'own': m.ownWord.get(p, p)}
              for p in m.powers]
    names = [[text, unclear, m.compact(text)] for text, unclear in written_names(package, m.files)]
    found = {
        'errors': m.error,
        'powers': powers,
        'places': dict((k, v) for k, v in m.locName.items()),
        'names': names,
        'unclear': m.unclear,
    }
    if with_abuts:
        found['abuts'] = dict((k.upper(), v) for k, v in m.locAbut.items())
    return found


def main():
    src = os.path.abspath(sys.argv[1])
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    theirs = os.path.join(src, 'DPjudge')
    ours = tempfile.mkdtemp()
    try:
        os.mkdir(os.path.join(ours, 'maps'))
        for f in os.listdir(os.path.join(theirs, 'maps')):  # the files a USE line may name
            if not f.endswith(('.map', '.ps')):
                shutil.copy(os.path.join(theirs, 'maps', f), os.path.join(ours, 'maps', f))
        for f in os.listdir(os.path.join(here, 'maps')):
            if f.endswith('.map'):
                shutil.copy(os.path.join(here, 'maps', f), os.path.join(ours, 'maps', f))
        result = {}
        for key, package in (('dpjudge', theirs), ('judge', ours)):
            Map = load_dpjudge(src, package)
            for f in sorted(os.listdir(os.path.join(package, 'maps'))):
                shipped = os.path.exists(os.path.join(here, 'maps', f))
                if f.endswith('.map') and (key == 'dpjudge' or shipped):
                    try:
                        result[key + '/' + f[:-4]] = facts(Map, package, f[:-4], key == 'dpjudge' and shipped)
                    except Exception as exc:  # DPjudge cannot load the map at all
                        result[key + '/' + f[:-4]] = {'crash': '%s: %s' % (type(exc).__name__, exc)}
            del sys.modules['host'], sys.modules['Map']
            sys.path.pop(0)
        lines = ['%s: %s' % (json.dumps(key), json.dumps(result[key], sort_keys=True, separators=(',', ':')))
                 for key in sorted(result)]  # a map a line
        sys.stdout.write('{\n' + ',\n'.join(lines) + '\n}\n')
    finally:
        shutil.rmtree(ours)


main()
