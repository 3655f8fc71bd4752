"""The firmware's shape (issue 9): one shell, games beside it. Neither game
imports the other, the shell imports no game (games.py names them), no
module imports itself back through others, and every registered game gives
the box what game.py says it needs."""
import ast
import os

import pytest

from cheesebox import game as contract
from cheesebox import games

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(REPO, "firmware")
CHEESE_MASTER = {"cheesemaster.flow", "cheesemaster.match", "cheesemaster.rules", "cheesemaster.dicefile",
                 "cheesemaster.campaign", "cheesemaster.resume", "cheesemaster.faces"}


def imports():
    """{module: set of firmware modules it imports (anywhere in the file)}."""
    graph = {}
    for pkg in ("cheesebox", "cheesonomics"):
        for fn in os.listdir(os.path.join(FIRMWARE, pkg)):
            if not fn.endswith(".py"):
                continue
            mod = pkg + "." + fn[:-3] if fn != "__init__.py" else pkg
            tree = ast.parse(open(os.path.join(FIRMWARE, pkg, fn)).read())
            deps = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    if node.module in ("cheesebox", "cheesonomics"):
                        deps |= {node.module + "." + a.name for a in node.names}
                    else:
                        deps.add(node.module)
                elif isinstance(node, ast.Import):
                    deps |= {a.name for a in node.names}
            graph[mod] = {d for d in deps if d.split(".")[0] in ("cheesebox", "cheesonomics") and d != mod}
    return graph


def reaches(graph, start):
    seen, todo = set(), [start]
    while todo:
        for d in graph.get(todo.pop(), ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def test_no_import_cycles():
    graph = imports()
    cycles = [m for m in graph if m in reaches(graph, m) and m not in ("cheesebox", "cheesonomics")]
    assert cycles == [], cycles


def test_neither_game_imports_the_other_and_the_shell_imports_neither():
    graph = imports()
    companion = reaches(graph, "cheesonomics.companion")
    assert not companion & CHEESE_MASTER, companion & CHEESE_MASTER
    assert not any(m.startswith("cheesonomics") for m in reaches(graph, "cheesemaster.flow"))
    shell = reaches(graph, "cheesebox.box")
    assert "cheesemaster.flow" not in shell and "cheesonomics.companion" not in shell


@pytest.mark.parametrize("i", range(len(games.GAMES)))
def test_every_registered_game_keeps_the_contract(i):
    mod = games.load(i)
    assert contract.check_module(mod) == []
    assert mod.NAME == games.GAMES[i][0]
    assert games.index(mod.NAME) == i
    from flowkit import board
    from sim.scenario import Sim
    sim = Sim(board("pico-8p"))
    g = mod.new(sim.box, [0, 1, 2])
    assert contract.check_game(g) == []
