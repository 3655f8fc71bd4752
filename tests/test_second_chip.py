"""make test leaves out the emulated tests marked second_chip (make test-emu
runs them all): each is the second chip's run of a behaviour that a test in
make test already checks on the first chip. This keeps the promise checkable:
docs/emulator.md lists every marked case, each marked case runs on the Pico 2,
a marked case of a test parametrised by chip has an unmarked case that make
test runs, and the Makefile selects them as the docs say. The cases are the
ones pytest collects (tests/emu/conftest.py gives each its chip's marker)."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SUITE = "tests/emu"
MARK = "second_chip"


# one collection of the suite, in a process of its own: each case's node id,
# whether it is marked, its chip (the conftest's markers)
_LISTER = """
import json, sys, pytest
class Lister:
    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items):
        print(json.dumps([[i.nodeid, i.get_closest_marker(%r) is not None,
                           i.get_closest_marker('rp2350') is not None] for i in items]))
sys.exit(pytest.main(['--collect-only', '-q', '-p', 'no:cacheprovider', '-p', 'no:xdist', %r],
                     plugins=[Lister()]))
""" % (MARK, SUITE)
_cases = {}


def _collected():
    """{node id: (marked, on the Pico 2)} of every case of the emulated suite."""
    if not _cases:
        p = subprocess.run([sys.executable, "-c", _LISTER], cwd=REPO, capture_output=True, text=True,
                           timeout=120, env=dict(os.environ, PYTEST_ADDOPTS=""))
        assert p.returncode == 0, p.stdout + p.stderr
        line = next(ln for ln in p.stdout.splitlines() if ln.startswith("[["))
        _cases.update({n: (m, pico2) for n, m, pico2 in json.loads(line)})
    return _cases


def _collect(expr):
    """The node ids of the cases marked (expr MARK) or not (expr "not " + MARK)."""
    want = not expr.startswith("not ")
    return {n for n, (m, _) in _collected().items() if m == want}


def _function(node_id):
    return node_id.split("[")[0]


def _listed():
    """The cases docs/emulator.md lists as make test-emu's only."""
    text = (REPO / "docs" / "emulator.md").read_text(encoding="utf-8")
    m = re.search(r"^## What `make test` leaves to `make test-emu`\n(.*?)(?=^## )", text, re.M | re.S)
    assert m, "docs/emulator.md: no section on what make test leaves to make test-emu"
    return set(re.findall(r"`(tests/emu/test_\w+\.py::test_\w+(?:\[[^\]`]+\])?)`", m.group(1)))


def test_the_docs_list_every_case_make_test_leaves_out_and_each_is_the_pico2s():
    marked = _collect(MARK)
    assert marked, "no test is marked %s: then docs/emulator.md says too much" % MARK
    assert _listed() == marked, ("listed, not marked: %s; marked, not listed: %s"
                                 % (sorted(_listed() - marked), sorted(marked - _listed())))
    assert all(_collected()[n][1] for n in marked), "the second chip is the Pico 2"


def test_every_marked_case_of_a_test_by_chip_runs_on_the_first_chip_in_make_test():
    kept = {_function(n) for n in _collect("not " + MARK)}
    for case in _collect(MARK):
        if "[" in case:
            assert _function(case) in kept, "%s: no case of it runs in make test" % case


def test_make_test_leaves_them_out_and_make_test_emu_runs_them():
    make = (REPO / "Makefile").read_text(encoding="utf-8")
    py = re.search(r"^test-py:.*\n((?:\t.*\n)+)", make, re.M).group(1)
    emu = re.search(r"^test-emu:.*\n((?:\t.*\n)+)", make, re.M).group(1)
    assert re.search(r'-m "[^"]*\bnot %s\b[^"]*"' % MARK, py) and "tests" in py.split()
    assert all(re.search(r'-m "[^"]*\bnot %s\b' % MARK, line) for line in py.splitlines() if "pytest" in line)
    assert MARK not in emu and SUITE in emu.split()
    ini = (REPO / "pytest.ini").read_text(encoding="utf-8")
    assert re.search(r"^    %s: " % MARK, ini, re.M) and "--strict-markers" in ini
