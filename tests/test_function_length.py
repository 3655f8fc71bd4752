"""No function outside tests/ is longer than 80 lines (its def to its last
line, docstring included): a longer one is split where it reads as steps,
or into a table of small functions (sim/scenario.py's commands)."""
import ast
import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LINES = 80
TREES = ("firmware", "sim", "emu", "host_tools", "bench", "web")
SKIP_DIRS = {"node_modules", "__pycache__"}
# (file, function): longer for now, with the reason
ALLOWED = set()


def python_files():
    for tree in TREES:
        for d, dirs, files in os.walk(os.path.join(REPO, tree)):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(d, f)
    web = os.path.join(REPO, "web")
    for f in sorted(os.listdir(web)):
        if f.endswith(".py"):
            yield os.path.join(web, f)


def long_functions():
    out = []
    for path in python_files():
        rel = os.path.relpath(path, REPO).replace(os.sep, "/")
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), rel)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_LINES:
                    out.append((rel, node.name, node.lineno, n))
    return out


def test_no_function_is_longer_than_80_lines():
    found = long_functions()
    assert [f for f in found if (f[0], f[1]) not in ALLOWED] == []
    # an allowance that is no longer needed goes
    assert {(f[0], f[1]) for f in found} >= ALLOWED
