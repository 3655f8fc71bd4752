"""The project's shape, checked over the whole repository.

firmware/ holds the shell (cheesebox/), the Pico port (rp2port/) and one
package per game (cheesemaster/, cheesonomics/), and nothing host-only but
its deploy list (manifest.py). Only the port imports hardware modules; the
shell imports no game; no game imports another or the port; a game reaches
the box only through the members game.py lists; no module anywhere imports
itself back through others; every registered game keeps game.py's contract.
"""
import ast
import os

import pytest

from cheesebox import game as contract
from cheesebox import games

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(REPO, "firmware")
SKIP_DIRS = {".git", ".venv", ".typecheck", "node_modules", "build", "__pycache__", ".pytest_cache",
             ".hypothesis", ".cache"}
SHELL, PORT = "cheesebox", "rp2port"
GAME_PACKAGES = sorted({path.split(".")[0] for _, path, _ in games.GAMES})
HARDWARE = {"machine", "rp2", "uctypes", "select", "neopixel"}
# what MicroPython on the Pico has: firmware may import these and its own packages
MICROPYTHON = {"array", "binascii", "gc", "io", "json", "math", "micropython", "os", "random",
               "struct", "sys", "time"} | HARDWARE


def python_files():
    for d, dirs, files in os.walk(REPO):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(d, f)


def module_name(path):
    """The dotted name a file is imported by: firmware/ and the repository
    root are both on the import path (the venv's .pth file)."""
    rel = os.path.relpath(path, REPO)
    if rel.startswith("firmware" + os.sep):
        rel = rel[len("firmware" + os.sep):]
    rel = rel[:-3].replace(os.sep, ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


MODULES = {module_name(p): p for p in python_files()}


def _imported(path):
    """(name, guarded) of every import in a file: guarded when it sits in a
    try whose except catches ImportError (an optional import) or under `if
    TYPE_CHECKING:` (for pyright only: it never runs)."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    guarded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
                h.type is not None and "ImportError" in ast.dump(h.type) for h in node.handlers):
            body = node.body
        elif isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            body = node.body
        else:
            continue
        for stmt in body:
            for sub in ast.walk(stmt):
                guarded.add(id(sub))
    here = module_name(path).rsplit(".", 1)[0] if "." in module_name(path) else ""
    out = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [node.module + "." + a.name for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for n in names:
            # a host tool imports its neighbour by its plain name
            if here and here + "." + n in MODULES and n not in MODULES:
                n = here + "." + n
            out.append((n, id(node) in guarded))
    return out


def graph():
    """{module: set of the repository's modules it imports (anywhere in the file)}."""
    g = {}
    for mod, path in MODULES.items():
        deps = set()
        for n, _ in _imported(path):
            if n in MODULES and n != mod:
                deps.add(n)
        g[mod] = deps
    return g


GRAPH = graph()


def reaches(start):
    seen, todo = set(), [start]
    while todo:
        for d in GRAPH.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def package_of(mod):
    return mod.split(".")[0]


def firmware_modules():
    return [m for m, p in MODULES.items() if p.startswith(FIRMWARE + os.sep)
            and m != "manifest"]


def test_no_import_cycle_anywhere_in_the_repository():
    cycles = sorted(m for m in GRAPH if m in reaches(m) and "." in m)
    assert cycles == [], "modules that import themselves back: %s" % cycles


def test_the_host_tools_import_no_emulator_and_no_bench():
    """The layers run one way: the emulator and the bench use the host tools
    (deploy, table, builder, labs) and the simulator, never the other way
    round (make uf2 finds MicroPython's firmware without the emulator)."""
    bad = sorted("%s reaches %s" % (mod, d) for mod in MODULES if package_of(mod) == "host_tools"
                 for d in reaches(mod) if package_of(d) in ("emu", "bench"))
    assert bad == []


def test_only_the_port_imports_hardware_modules():
    bad = []
    for mod in MODULES:
        if package_of(mod) in (PORT, "tests", "sim", "bench", "main", "gate") or mod.startswith("tests."):
            # the port; main.py (gate.py) blinks an old MicroPython's error before any port
            # .mpy; tests fake the hardware; the host's select (sim/keys.py)
            continue
        for n, _ in _imported(MODULES[mod]):
            if n.split(".")[0] in HARDWARE - {"select"} or (
                    n == "select" and MODULES[mod].startswith(FIRMWARE)):
                bad.append("%s imports %s" % (mod, n))
    assert bad == []


def test_the_shell_imports_no_game_and_no_port():
    for mod in firmware_modules():
        if package_of(mod) == SHELL:
            wrong = {d for d in reaches(mod) if package_of(d) in GAME_PACKAGES + [PORT]}
            assert not wrong, "%s reaches %s" % (mod, sorted(wrong))


def test_no_game_imports_another_game_or_the_port():
    for mod in firmware_modules():
        pkg = package_of(mod)
        if pkg in GAME_PACKAGES:
            wrong = {d for d in reaches(mod) if package_of(d) in GAME_PACKAGES + [PORT]
                     and package_of(d) != pkg}
            assert not wrong, "%s reaches %s" % (mod, sorted(wrong))


def test_nothing_host_only_under_firmware():
    """Every file under firmware/ goes on the board (the manifest lists it),
    and imports only what MicroPython on the Pico has, or the firmware's own
    packages; CPython-only imports are allowed only behind `except ImportError`."""
    from host_tools.deploy import deploylist
    assert deploylist.read().unlisted() == []
    own = {package_of(m) for m in firmware_modules()}
    bad = []
    for mod in firmware_modules():
        for n, guarded in _imported(MODULES[mod]):
            top = n.split(".")[0]
            if top not in own and top not in MICROPYTHON and not guarded:
                bad.append("%s imports %s" % (mod, n))
    assert bad == []


def box_members(path):
    """{member: [line, ...]} of what a module reaches on the box: `box.X`,
    `self.box.X`, and `b.X` after `b = self.box`."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    used = {}
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        aliases = {"box"}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and _is_self_box(node.value):
                aliases |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and (
                    (isinstance(node.value, ast.Name) and node.value.id in aliases)
                    or _is_self_box(node.value)):
                used.setdefault(node.attr, []).append(node.lineno)
    return used


def _is_self_box(node):
    return (isinstance(node, ast.Attribute) and node.attr == "box"
            and isinstance(node.value, ast.Name) and node.value.id == "self")


@pytest.mark.parametrize("pkg", GAME_PACKAGES)
def test_a_game_reaches_the_box_only_through_the_listed_members(pkg):
    bad = []
    for mod in firmware_modules():
        if package_of(mod) == pkg:
            for member, lines in sorted(box_members(MODULES[mod]).items()):
                if member not in contract.BOX:
                    bad.append("%s line %d: box.%s" % (os.path.relpath(MODULES[mod], REPO),
                                                      lines[0], member))
    assert bad == [], "not in cheesebox/game.py's BOX: %s" % bad


def shell_imports(path):
    """[(line, what)] of a module's imports from the shell: 'display' for
    `from cheesebox.display import X` or `import cheesebox.display`,
    'run_once' for `from cheesebox import run_once`."""
    out = []
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == SHELL:
            if node.module == SHELL:
                out += [(node.lineno, a.name) for a in node.names]
            else:
                out.append((node.lineno, node.module.split(".")[1]))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[1]) for a in node.names
                    if a.name.split(".")[0] == SHELL and "." in a.name]
    return out


@pytest.mark.parametrize("pkg", GAME_PACKAGES)
def test_a_game_imports_only_the_listed_shell_modules(pkg):
    allowed = set(contract.SHELL) | set(contract.SHELL_FUNCTIONS)
    bad = ["%s line %d: cheesebox.%s" % (os.path.relpath(MODULES[mod], REPO), line, what)
           for mod in firmware_modules() if package_of(mod) == pkg
           for line, what in shell_imports(MODULES[mod]) if what not in allowed]
    assert bad == [], "not in cheesebox/game.py's SHELL: %s" % bad


def test_the_shell_import_check_sees_every_form(tmp_path):
    p = tmp_path / "g.py"
    p.write_text("from cheesebox import forget, box\nfrom cheesebox.capture import Capture\n"
                 "import cheesebox.port\nfrom cheesebox.display import (OFF,\n    STATION)\n")
    assert shell_imports(str(p)) == [(1, "forget"), (1, "box"), (2, "capture"), (3, "port"), (4, "display")]
    assert set(contract.SHELL) <= {m.split(".")[1] for m in MODULES if package_of(m) == SHELL and "." in m}


def test_the_listed_members_are_the_box_s():
    from flowkit import board
    from sim.scenario import Sim
    box = Sim(board("pico-8p")).box
    assert [m for m in contract.BOX if not hasattr(box, m)] == []


def test_the_member_check_sees_every_way_a_game_reaches_the_box(tmp_path):
    p = tmp_path / "g.py"
    p.write_text("def f(box):\n    box.port.x()\n"
                 "class G:\n    def m(self):\n        b = self.box\n        b.plate[1]\n"
                 "        self.box.capture\n")
    assert sorted(box_members(str(p))) == ["capture", "plate", "port"]


@pytest.mark.parametrize("i", range(len(games.GAMES)))
def test_every_registered_game_keeps_the_contract(i):
    mod = games.load(i)
    assert contract.check_module(mod) == []
    assert mod.NAME == games.GAMES[i][games.NAME]
    assert games.index(mod.NAME) == i
    from flowkit import board
    from sim.scenario import Sim
    sim = Sim(board("pico-8p"))
    g = mod.new(sim.box, [0, 1, 2])
    assert contract.check_game(g) == []


# -- the host side ---------------------------------------------------------------
HOST_DIRS = ("sim", "emu", "host_tools", "bench", "web")


def _game_tests(tree):
    """Places that tell a game by its name or by a member it happens to have:
    `<x>.NAME == "..."` (or !=) and hasattr(<x>.game, ...)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) \
                and node.left.attr == "NAME" and any(isinstance(c, ast.Constant) for c in node.comparators):
            found.append(node.lineno)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("hasattr", "getattr") \
                and node.args and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "game":
            found.append(node.lineno)
        if isinstance(node, ast.Compare) and any(isinstance(c, ast.Constant) and c.value in
                                                 [g[0] for g in games.GAMES] for c in node.comparators):
            found.append(node.lineno)
    return sorted(set(found))


def test_the_host_side_finds_each_game_through_its_table():
    """sim/games.py maps a game's name to its host module; nothing else on
    the host side branches on a game's name or its members (a third game
    would fall into another game's branches)."""
    bad = []
    for top in HOST_DIRS:
        for root, dirs, files in os.walk(os.path.join(REPO, top)):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            for f in files:
                path = os.path.join(root, f)
                rel = os.path.relpath(path, REPO)
                if not f.endswith(".py") or rel == os.path.join("sim", "games.py"):
                    continue
                with open(path, encoding="utf-8") as fh:
                    tree = ast.parse(fh.read())
                bad += ["%s:%d" % (rel, n) for n in _game_tests(tree)]
    assert bad == []


def test_the_game_check_sees_a_name_test():
    assert _game_tests(ast.parse('if box.module.NAME == "cheesonomics": pass')) == [1]
    assert _game_tests(ast.parse('x = hasattr(box.game, "match")')) == [1]
    assert _game_tests(ast.parse('word = "money" if game == "cheesonomics" else "points"')) == [1]
    assert _game_tests(ast.parse('if box.module.NAME == want: pass')) == []


def test_every_game_has_a_host_side():
    """Each registered game has its host module, and it gives what sim/games.py lists."""
    from sim import games as host_games
    for name, _, _ in games.GAMES:
        host = host_games.named(name)
        assert host is not host_games.plain and host.NAME == name
        for member in dir(host_games.plain):
            if not member.startswith("_"):
                assert hasattr(host, member), (name, member)


# -- the icons: the shell's set holds what the shell or two games draw ----------
def _literals(pkg):
    """Every str constant in a firmware package's modules but its art."""
    out = set()
    for mod in firmware_modules():
        if package_of(mod) == pkg and not mod.endswith(".icons"):
            for node in ast.walk(ast.parse(open(MODULES[mod], encoding="utf-8").read())):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    out.add(node.value)
    return out


def test_the_shell_s_icons_are_the_shell_s_or_shared_and_a_game_s_are_its_own():
    from cheesebox import icons as shell_art
    drawn = {pkg: _literals(pkg) for pkg in GAME_PACKAGES + [SHELL, PORT]}
    for name in shell_art.ICONS:
        if name.isdigit():              # the digit font: error codes, self-test, counts
            continue
        by_games = [pkg for pkg in GAME_PACKAGES if name in drawn[pkg]]
        assert name in drawn[SHELL] | drawn[PORT] or len(by_games) >= 2, \
            "cheesebox/icons.py's %r is drawn only by %s: it belongs in that game's ICONS" % (name, by_games)
    for i in range(len(games.GAMES)):
        mod = games.load(i)
        if mod.ICONS is None:
            continue
        own = __import__(mod.ICONS, None, None, ("ICONS",)).ICONS
        pkg = mod.ICONS.split(".")[0]
        assert not set(own) & set(shell_art.ICONS), (mod.NAME, set(own) & set(shell_art.ICONS))
        assert [n for n in own if n not in drawn[pkg]] == [], (mod.NAME, "icons it never names")
        assert mod.ICONS.startswith(pkg + ".") and pkg in GAME_PACKAGES
