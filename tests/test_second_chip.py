"""make test leaves out the emulated tests marked second_chip (make test-emu
runs them all): each is the second chip's run of a behaviour that a test in
make test already checks on the first chip. This keeps the promise checkable:
docs/emulator.md lists every marked test, a marked twin (a body of
tests/emu_twins.py) has an unmarked caller that make test runs, and the
Makefile selects them as the docs say."""
import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SUITES = ("tests/emu", "tests/emu2350")
MARK = "second_chip"


def _is_mark(node):
    """pytest.mark.second_chip (also inside a list or tuple)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(_is_mark(e) for e in node.elts)
    return (isinstance(node, ast.Attribute) and node.attr == MARK and isinstance(node.value, ast.Attribute)
            and node.value.attr == "mark")


def _twins_called(fn):
    return {n.attr for n in ast.walk(fn) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id == "emu_twins"}


def _tests():
    """{"tests/emu2350/test_x.py::test_y": (marked, emu_twins bodies it calls)}."""
    out = {}
    for suite in SUITES:
        for path in sorted((REPO / suite).glob("test_*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            rel = path.relative_to(REPO).as_posix()
            module = [n.value for n in tree.body if isinstance(n, ast.Assign)
                      and any(getattr(t, "id", "") == "pytestmark" for t in n.targets)]
            whole = any(_is_mark(v) for v in module)
            placed = module[:]
            for fn in tree.body:
                if isinstance(fn, ast.FunctionDef) and fn.name.startswith("test_"):
                    placed += fn.decorator_list
                    out[rel + "::" + fn.name] = (whole or any(_is_mark(d) for d in fn.decorator_list),
                                                 _twins_called(fn))
            # a mark anywhere else (pytest.param(..., marks=...), a class) is not
            # followed here, so it is refused: mark a test function or the module
            everywhere = sum(1 for n in ast.walk(tree) if isinstance(n, ast.Attribute) and _is_mark(n))
            allowed = sum(1 for p in placed for n in ast.walk(p) if isinstance(n, ast.Attribute) and _is_mark(n))
            assert everywhere == allowed, (
                "%s: mark a test function (@pytest.mark.%s) or the module (pytestmark = ...), nothing else"
                % (rel, MARK))
    return out


def _listed():
    """The tests docs/emulator.md lists as make test-emu's only."""
    text = (REPO / "docs" / "emulator.md").read_text(encoding="utf-8")
    m = re.search(r"^## What `make test` leaves to `make test-emu`\n(.*?)(?=^## )", text, re.M | re.S)
    assert m, "docs/emulator.md: no section on what make test leaves to make test-emu"
    return set(re.findall(r"`(tests/emu\w*/test_\w+\.py::test_\w+)`", m.group(1)))


def test_the_docs_list_every_test_make_test_leaves_out():
    tests = _tests()
    marked = {k for k, (m, _) in tests.items() if m}
    assert marked, "no test is marked %s: then docs/emulator.md says too much" % MARK
    assert _listed() == marked, ("listed, not marked: %s; marked, not listed: %s"
                                 % (sorted(_listed() - marked), sorted(marked - _listed())))


def test_every_marked_twin_runs_on_the_first_chip_in_make_test():
    tests = _tests()
    kept = set().union(*(calls for m, calls in tests.values() if not m))
    for name, (marked, calls) in tests.items():
        if marked:
            assert name.startswith("tests/emu2350/"), name + ": the second chip is the Pico 2"
            assert calls <= kept, "%s: %s runs in no test make test runs" % (name, sorted(calls - kept))


def test_make_test_leaves_them_out_and_make_test_emu_runs_them():
    make = (REPO / "Makefile").read_text(encoding="utf-8")
    py = re.search(r"^test-py:.*\n((?:\t.*\n)+)", make, re.M).group(1)
    emu = re.search(r"^test-emu:.*\n((?:\t.*\n)+)", make, re.M).group(1)
    assert re.search(r'-m "[^"]*\bnot %s\b[^"]*"' % MARK, py) and "tests" in py.split()
    assert all(re.search(r'-m "[^"]*\bnot %s\b' % MARK, line) for line in py.splitlines() if "pytest" in line)
    assert MARK not in emu and "tests/emu" in emu and "tests/emu2350" in emu
    ini = (REPO / "pytest.ini").read_text(encoding="utf-8")
    assert re.search(r"^    %s: " % MARK, ini, re.M) and "--strict-markers" in ini
