"""Malformed board and dice files, and malformed serial commands.

Every bad file is a small mutation of a good one (boards/pico-4p.json,
boards/pico-8p.json, the default dice), written to disk and refused on all
three paths that read it:

  (a) cheesebox.board.read_board / cheesemaster.dice.load_dice: BoardError /
      DiceError whose message names the file and the field;
  (b) the simulator's command line: exit code 2, "error: <file>: ... <field>"
      on stderr, no traceback (in-process for every case, and a handful
      through a real `python -m sim` subprocess);
  (c) the Pico's start-up (rp2port.app.load, with fake machine/micropython
      modules): the message is printed naming the file and the field, the
      LED blinks the error code (1 board, 2 dice) once per cycle, the dice
      show a red X and the digit when the board is known, and nothing is
      raised: the box never falls into a traceback loop.

Then malformed serial-console lines: each gives exactly one "error" event
(an empty line: nothing), and leaves the game as it was.
"""
import importlib
import json
import os
import subprocess
import sys

import pytest

from cheesebox.board import BoardError, read_board
from cheesemaster.dice import DiceError, load_dice
from cheesemaster.dicefile import DEFAULT_DICE
from sim.scenario import match_of

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
P4 = os.path.join(REPO, "boards", "pico-4p.json")
P8 = os.path.join(REPO, "boards", "pico-8p.json")
TINY_SCRIPT = "wait 10\n"


def _spec(path):
    with open(path) as f:
        return json.load(f)


def _dump(spec):
    return json.dumps(spec, indent=1)


def _good_dice():
    return {"dice": [{"name": n, "faces": list(f)} for n, _, f in DEFAULT_DICE]}


# -- the bad files ---------------------------------------------------------------------
# A case: (id, base, change, wants). base is P4/P8/"dice"; change is a function
# mutating the parsed file, or raw text (str/bytes) written as is. wants: the
# strings the message must hold besides the file's path (for a board field,
# "'field'"; for a file that is not a JSON object at all, what is wrong).

def _set(path, value):
    """A change setting spec[path...] = value (path: keys and indexes)."""
    def change(s):
        for k in path[:-1]:
            s = s[k]
        s[path[-1]] = value
    return change


def _del(path):
    def change(s):
        for k in path[:-1]:
            s = s[k]
        del s[path[-1]]
    return change


def _both(*changes):
    def change(s):
        for c in changes:
            c(s)
    return change


def _replace(fn):
    """A change whose result is the new file (not a change in place)."""
    fn.replaces = True
    return fn


def _good_text(base):
    return _dump(_spec(base))


# bytes that are not UTF-8: "not a text file" from the loaders, "not valid JSON" from
# app.py (which lets json report it); either is fine as long as it names the file
NOT_TEXT = ("not a text file", "not valid JSON")

BOARD_CASES = [
    # not a JSON object at all
    ("not-json", P4, '{name: "pico-4p", plates: cards}', ["not valid JSON"]),
    ("empty-file", P4, "", ["not valid JSON"]),
    ("blank-lines", P4, "\n\n   \n", ["not valid JSON"]),
    ("truncated", P4, _good_text(P4)[:300], ["not valid JSON"]),
    ("trailing-comma", P4, _good_text(P4)[:-2] + ",\n}", ["not valid JSON"]),
    ("list-not-object", P4, "[" + _good_text(P4) + "]", ["must be a JSON object"]),
    ("string-not-object", P4, '"pico-4p"', ["must be a JSON object"]),
    ("null", P4, "null", ["must be a JSON object"]),
    ("binary-garbage", P4, b"\xff\xfe\x00\x01\x89PNG\r\n\x1a\n\x00\x00", [NOT_TEXT]),
    ("nested-too-deep", P4, "[" * 5000 + "]" * 5000, ["JSON"]),
    # top-level fields
    ("name-missing", P4, _del(["name"]), ["'name'", "missing"]),
    ("name-a-list", P4, _set(["name"], ["pico-4p"]), ["'name'"]),
    ("mcu-a-number", P4, _set(["mcu"], 2040), ["'mcu'"]),
    ("mcu-unknown", P4, _set(["mcu"], "esp32"), ["'mcu'", "esp32"]),
    ("plates-unknown", P4, _set(["plates"], "touch"), ["'plates'", "touch"]),
    ("plates-missing", P4, _del(["plates"]), ["'plates'"]),
    ("roll-missing", P4, _del(["roll"]), ["'roll'"]),
    ("roll-a-float", P4, _set(["roll"], 14.0), ["'roll'", "whole number"]),
    ("roll-null", P4, _set(["roll"], None), ["'roll'"]),
    ("piezo-negative", P4, _set(["piezo"], -3), ["'piezo'", "GPIO"]),
    ("piezo-on-the-led", P4, _set(["piezo"], 25), ["'piezo'", "25"]),   # GP25: not on the header
    ("piezo-on-roll-pin", P4, _set(["piezo"], 14), ["'piezo'", "'roll'"]),
    ("brightness-text", P4, _set(["brightness"], "bright"), ["'brightness'"]),
    ("brightness-zero", P4, _set(["brightness"], 0), ["'brightness'"]),
    ("max-ma-too-high", P4, _set(["max_ma"], 20000), ["'max_ma'"]),
    ("max-ma-text", P4, _set(["max_ma"], "500"), ["'max_ma'"]),
    ("debounce-too-long", P4, _set(["debounce_ms"], 51), ["'debounce_ms'"]),
    ("debounce-fraction", P4, _set(["debounce_ms"], 12.5), ["'debounce_ms'"]),
    ("track-reversed-text", P4, _set(["track_reversed"], "yes"), ["'track_reversed'"]),
    # chains
    ("chains-empty", P4, _set(["chains"], []), ["'chains'"]),
    ("chains-an-object", P4, _set(["chains"], {"dice": 2}), ["'chains'"]),
    ("chain-a-number", P4, _set(["chains", 0], 2), ["'chains[0]'", "object"]),
    ("chain-name-missing", P4, _del(["chains", 0, "name"]), ["'chains[0].name'"]),
    ("chain-no-pixels", P4, _set(["chains", 1, "pixels"], 0), ["'chains[1].pixels'"]),
    ("chain-too-long", P4, _set(["chains", 0, "pixels"], 2000), ["'chains[0].pixels'"]),
    ("chain-order-lowercase", P4, _set(["chains", 0, "order"], "grb"), ["'chains[0].order'"]),
    ("chain-pin-on-roll", P4, _set(["chains", 1, "pin"], 14), ["'chains[1].pin'", "GP14"]),
    # dice matrices
    ("dice-an-object", P4, _set(["dice"], {"0": {"chain": "dice", "start": 0}}), ["'dice'"]),
    ("seven-dice", P4, lambda s: s["dice"].append({"chain": "dice", "start": 384}), ["'dice'", "6"]),
    ("die-a-string", P4, _set(["dice", 3], "dice"), ["'dice[3]'"]),
    ("die-chain-missing", P4, _del(["dice", 0, "chain"]), ["'dice[0].chain'"]),
    ("die-start-negative", P4, _set(["dice", 5, "start"], -64), ["'dice[5].start'"]),
    ("die-start-text", P4, _set(["dice", 5, "start"], "320"), ["'dice[5].start'"]),
    ("die-layout-unknown", P4, _set(["dice", 2, "layout"], "spiral"), ["'dice[2].layout'"]),
    ("die-on-short-chain", P4, _set(["dice", 1, "chain"], "tracks"), ["'dice[1]'"]),
    # stations
    ("stations-empty", P4, _set(["stations"], []), ["'stations'", "2 to 8"]),
    ("stations-text", P4, _set(["stations"], "6,7,8,9"), ["'stations'"]),
    ("station-a-number", P4, _set(["stations", 1], 7), ["'stations[1]'", "object"]),
    ("station-track-missing", P4, _del(["stations", 0, "track"]), ["'stations[0].track'"]),
    ("station-track-text", P4, _set(["stations", 0, "track"], "tracks"), ["'stations[0].track'"]),
    ("station-track-chain-unknown", P4, _set(["stations", 2, "track", "chain"], "leds"),
     ["'stations[2].track.chain'", "leds"]),
    ("buzzer-on-led-pin", P4, _set(["stations", 3, "buzzer"], 2), ["'stations[3].buzzer'", "GP2"]),
    ("buzzer-a-float", P4, _set(["stations", 0, "buzzer"], 6.5), ["'stations[0].buzzer'"]),
    # the button window (PIO sampler: buzzers and ROLL in 12 consecutive GPIOs)
    ("buzzer-outside-window", P4, _set(["stations", 0, "buzzer"], 0), ["'stations'", "12 consecutive"]),
    ("roll-outside-window", P4, _set(["roll"], 27), ["'stations'", "12 consecutive"]),
    ("piezo-inside-window", P4, _set(["piezo"], 10), ["'piezo'", "button window"]),
    ("led-pin-inside-window", P4, _set(["chains", 0, "pin"], 12), ["'chains[0].pin'", "button window"]),
    ("answers-pin-inside-window", P4,
     _both(_set(["plates"], "keys"), _set(["answers"], {"load": 11, "clock": 16, "data": 17})),
     ["'answers.load'", "button window"]),
    # electronic plates
    ("answers-a-list", P8, _set(["answers"], [16, 17, 18]), ["'answers'"]),
    ("answers-pin-30", P8, _set(["answers", "clock"], 30), ["'answers.clock'"]),
    ("answers-pin-text", P8, _set(["answers", "data"], "18"), ["'answers.data'"]),
    ("dial-duplicate-select", P8,
     _both(_set(["plates"], "dial"), _set(["answers"], {"adc": 26, "s0": 16, "s1": 16, "s2": 18})),
     ["'answers.s1'", "'answers.s0'"]),
    ("cards-with-answers", P4, _set(["answers"], {}), ["'answers'", "plate cards"]),
]

DICE_CASES = [
    ("dice-not-json", "faces: cheese1 cheese2", ["not valid JSON"]),
    ("dice-empty-file", "", ["not valid JSON"]),
    ("dice-binary", b"\x00\x9f\x92\x96 \xff", [NOT_TEXT]),
    ("dice-nested-too-deep", '{"dice": ' + "[" * 5000 + "]" * 5000 + "}", ["JSON"]),
    ("dice-list-not-object", _replace(lambda s: s["dice"]), ["'dice'"]),
    ("dice-key-misspelt", _replace(lambda s: {"die": s["dice"]}), ["'dice'"]),
    ("dice-null", _set(["dice"], None), ["'dice'"]),
    ("five-dice", lambda s: s["dice"].pop(), ["'dice'", "6"]),
    ("seven-dice", lambda s: s["dice"].append(dict(s["dice"][0])), ["'dice'", "6"]),
    ("dice-an-object", _set(["dice"], {"yellow A": ["cheese1"] * 6}), ["'dice'"]),
    ("die-a-string", _set(["dice", 2], "yellow C"), ["die 3 "]),
    ("die-faces-missing", _del(["dice", 1, "faces"]), ["die 2:", "'faces'"]),
    ("die-five-faces", lambda s: s["dice"][0]["faces"].pop(), ["die 1:", "'faces'", "six"]),
    ("die-seven-faces", lambda s: s["dice"][0]["faces"].append("cat"), ["die 1:", "'faces'", "six"]),
    ("die-faces-text", _set(["dice", 4, "faces"], "catdog"), ["die 5:", "'faces'"]),
    ("die-unknown-face", _set(["dice", 3, "faces", 1], "pizza"), ["die 4, face 2:", "pizza"]),
    ("die-face-a-number", _set(["dice", 4, "faces", 5], 3), ["die 5, face 6:"]),
    ("die-face-capitalised", _set(["dice", 0, "faces", 0], "Cheese1"), ["die 1, face 1:", "Cheese1"]),
    ("die-name-a-number", _set(["dice", 5, "name"], 6), ["die 6:", "'name'"]),
]

# run through a real `python -m sim` subprocess as well (the rest in-process)
SUBPROCESS_CASES = {"not-json", "binary-garbage", "nested-too-deep", "list-not-object",
                    "piezo-inside-window", "station-track-chain-unknown",
                    "dice-not-json", "dice-nested-too-deep", "die-unknown-face"}


def _write(path, base, change):
    if isinstance(change, (str, bytes)):
        data = change
    else:
        spec = _good_dice() if base == "dice" else _spec(base)
        new = change(spec)
        data = _dump(new if getattr(change, "replaces", False) else spec)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)
    return path


@pytest.fixture(scope="module")
def bad_dir(tmp_path_factory):
    """Every bad file on disk, under its case id."""
    d = tmp_path_factory.mktemp("bad_files")
    for cid, base, change, _ in BOARD_CASES:
        _write(str(d / ("board-" + cid + ".json")), base, change)
    for cid, change, _ in DICE_CASES:
        _write(str(d / ("dice-" + cid + ".json")), "dice", change)
    with open(d / "tiny.txt", "w") as f:
        f.write(TINY_SCRIPT)
    return d


def _board_file(bad_dir, cid):
    return str(bad_dir / ("board-" + cid + ".json"))


def _dice_file(bad_dir, cid):
    return str(bad_dir / ("dice-" + cid + ".json"))


def _names_it(msg, path, wants):
    assert path in msg, "the message does not name the file %s: %s" % (path, msg)
    for w in wants:
        if isinstance(w, tuple):          # any one of these
            assert any(x in msg for x in w), "want one of %r in the message: %s" % (w, msg)
        else:
            assert w in msg, "want %r in the message: %s" % (w, msg)
    assert "Traceback" not in msg


BOARD_IDS = [c[0] for c in BOARD_CASES]
DICE_IDS = [c[0] for c in DICE_CASES]


def test_case_counts():
    """Enough cases, all distinct; the count is printed (pytest -s shows it)."""
    assert len(BOARD_CASES) >= 30 and len(DICE_CASES) >= 10
    assert len(set(BOARD_IDS)) == len(BOARD_IDS) and len(set(DICE_IDS)) == len(DICE_IDS)
    print("bad files: %d board files, %d dice files; %d through a real subprocess; "
          "3 paths each (loader, sim CLI, Pico start-up)"
          % (len(BOARD_CASES), len(DICE_CASES), len(SUBPROCESS_CASES)))


def test_the_good_files_are_good(tmp_path):
    """The bases of the mutations load (so every refusal is the mutation's)."""
    read_board(P4)
    read_board(P8)
    names, faces = load_dice(_good_dice(), "good.json")
    assert len(names) == 6


# -- (a) the loaders -------------------------------------------------------------------
@pytest.mark.parametrize("cid,base,change,wants", BOARD_CASES, ids=BOARD_IDS)
def test_read_board_refuses(bad_dir, cid, base, change, wants):
    path = _board_file(bad_dir, cid)
    with pytest.raises(BoardError) as e:
        read_board(path)
    _names_it(str(e.value), path, wants)


def _load_dice_file(path):
    """As app.py and the simulator read a dice file."""
    with open(path) as f:
        spec = json.loads(f.read())
    return load_dice(spec, path)


@pytest.mark.parametrize("cid,change,wants", [c for c in DICE_CASES if not isinstance(c[1], (str, bytes))],
                         ids=[c[0] for c in DICE_CASES if not isinstance(c[1], (str, bytes))])
def test_load_dice_refuses(bad_dir, cid, change, wants):
    path = _dice_file(bad_dir, cid)
    with pytest.raises(DiceError) as e:
        _load_dice_file(path)
    _names_it(str(e.value), path, wants)


# -- (b) the simulator's command line --------------------------------------------------
def _sim_main(argv, capsys):
    from sim.__main__ import main
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _check_cli(rc, out, err, path, wants):
    assert rc == 2, "exit code %r, stderr: %s" % (rc, err)
    assert "Traceback" not in err and "Traceback" not in out
    assert err.startswith("error: "), err
    assert len(err.strip().splitlines()) == 1, "one line of error: %r" % err
    _names_it(err, path, wants)


@pytest.mark.parametrize("cid,base,change,wants", BOARD_CASES, ids=BOARD_IDS)
def test_sim_cli_bad_board(bad_dir, capsys, cid, base, change, wants):
    path = _board_file(bad_dir, cid)
    try:
        rc, out, err = _sim_main(["--board", path, "--script", str(bad_dir / "tiny.txt"), "--json"], capsys)
    except BaseException as e:        # a traceback on the real command line
        pytest.fail("python -m sim raised %s: %s" % (type(e).__name__, str(e)[:200]))
    _check_cli(rc, out, err, path, wants)


@pytest.mark.parametrize("cid,change,wants", DICE_CASES, ids=DICE_IDS)
def test_sim_cli_bad_dice(bad_dir, capsys, cid, change, wants):
    path = _dice_file(bad_dir, cid)
    try:
        rc, out, err = _sim_main(["--board", P4, "--dice", path, "--script", str(bad_dir / "tiny.txt"),
                                  "--json"], capsys)
    except BaseException as e:
        pytest.fail("python -m sim raised %s: %s" % (type(e).__name__, str(e)[:200]))
    _check_cli(rc, out, err, path, wants)


_SUB = [("board", c[0], c[3]) for c in BOARD_CASES if c[0] in SUBPROCESS_CASES] + \
       [("dice", c[0], c[2]) for c in DICE_CASES if c[0] in SUBPROCESS_CASES]


@pytest.mark.parametrize("kind,cid,wants", _SUB, ids=[k + "-" + c for k, c, _ in _SUB])
def test_sim_subprocess_bad_file(bad_dir, kind, cid, wants):
    """The real `python -m sim`, one process per file."""
    script = str(bad_dir / "tiny.txt")
    if kind == "board":
        path = _board_file(bad_dir, cid)
        argv = ["--board", path]
    else:
        path = _dice_file(bad_dir, cid)
        argv = ["--board", "pico-4p", "--dice", path]
    p = subprocess.run([sys.executable, "-m", "sim"] + argv + ["--script", script, "--json"],
                       cwd=REPO, capture_output=True, text=True, timeout=60)
    _check_cli(p.returncode, p.stdout, p.stderr, path, wants)
    assert p.stdout == ""


# -- (c) the Pico's start-up -----------------------------------------------------------
class StopBlinking(Exception):
    """Raised by the fake sleep_ms to end show_error's endless loop."""


class FakePico:
    """machine, micropython and time as app.py uses them, recording the LED."""
    CYCLES = 2          # stop at the long pause ending the second blink cycle

    def __init__(self):
        self.trace = []            # ("led", 0/1) and ("sleep", ms), in order
        self.pauses = 0
        self.ms = 0
        pico = self

        class Pin:
            IN, OUT, PULL_UP = 0, 1, 2

            def __init__(self, pin, mode=None, pull=None, value=None):
                self.pin = pin

            def value(self, v=None):
                if v is None:
                    return 1
                if self.pin == "LED":
                    pico.trace.append(("led", v))

        self.machine = type(sys)("machine")
        self.machine.Pin = Pin
        self.machine.reset = lambda: pico.trace.append(("reset",))
        self.machine.reset_cause = lambda: 0
        self.machine.WDT_RESET = 3
        self.micropython = type(sys)("micropython")
        self.micropython.const = lambda x: x
        self.micropython.alloc_emergency_exception_buf = lambda n: None
        self.time = type(sys)("time")
        self.time.sleep_ms = self.sleep_ms
        self.time.ticks_ms = lambda: pico.ms
        self.time.ticks_diff = lambda a, b: a - b

    def sleep_ms(self, ms):
        self.trace.append(("sleep", ms))
        self.ms += ms
        if ms >= 1000:
            self.pauses += 1
            if self.pauses >= self.CYCLES:
                raise StopBlinking()
        if len(self.trace) > 1000:
            raise AssertionError("the blink loop runs away: %r" % self.trace[-10:])

    def blinks_per_cycle(self):
        """LED on-pulses between the long pauses, one number a cycle."""
        cycles = []
        n = 0
        for item in self.trace:
            if item == ("led", 1):
                n += 1
            elif item[0] == "sleep" and item[1] >= 1000:
                cycles.append(n)
                n = 0
        return cycles


class FakeRp2Port:
    """rp2port.port.Rp2Port for show_error: records what the LEDs get."""
    shown = {}

    def __init__(self, board):
        self.board = board

    def show(self, ci, buf, lo=0, hi=-1):
        FakeRp2Port.shown[ci] = bytes(buf)

    def commit(self):
        pass


@pytest.fixture
def pico(monkeypatch, tmp_path):
    """rp2port.app imported against a fake Pico, in an empty flash (cwd)."""
    fake = FakePico()
    monkeypatch.setitem(sys.modules, "machine", fake.machine)
    monkeypatch.setitem(sys.modules, "micropython", fake.micropython)
    port_mod = type(sys)("rp2port.port")
    port_mod.Rp2Port = FakeRp2Port
    FakeRp2Port.shown = {}
    monkeypatch.setitem(sys.modules, "rp2port.port", port_mod)
    monkeypatch.delitem(sys.modules, "rp2port.app", raising=False)
    app = importlib.import_module("rp2port.app")
    monkeypatch.setattr(app, "time", fake.time)
    monkeypatch.chdir(tmp_path)
    fake.app = app
    yield fake
    sys.modules.pop("rp2port.app", None)


def _copy(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    with open(dst, "wb") as f:
        f.write(data)


def _boot(pico, capsys):
    """app.load() until the fake stops the blinking; (stdout, cycles)."""
    try:
        pico.app.load()
    except StopBlinking:
        pass
    else:
        pytest.fail("app.load() returned with a bad file")
    out = capsys.readouterr().out
    assert "Traceback" not in out
    return out, pico.blinks_per_cycle()


def _check_error(out, cycles, code, fname, wants):
    lines = [ln for ln in out.splitlines() if ln.startswith("cheesebox error %d: " % code)]
    assert len(lines) == FakePico.CYCLES, "the message once a cycle: %r" % out
    assert lines[0] == lines[1]
    _names_it(lines[0], fname, wants)
    assert cycles == [code] * FakePico.CYCLES, "blinks per cycle %r, want %d" % (cycles, code)


@pytest.mark.parametrize("cid,base,change,wants", BOARD_CASES, ids=BOARD_IDS)
def test_pico_bad_board_blinks_1(bad_dir, pico, capsys, cid, base, change, wants):
    _copy(_board_file(bad_dir, cid), "board.json")
    out, cycles = _boot(pico, capsys)
    _check_error(out, cycles, 1, "board.json", wants)
    assert FakeRp2Port.shown == {}        # the LEDs are not known: the Pico's LED only


def test_pico_missing_board_blinks_1(pico, capsys):
    out, cycles = _boot(pico, capsys)
    _check_error(out, cycles, 1, "board.json", ["missing"])


def _box_with_dice_file(data, monkeypatch=None):
    """A box on pico-4p whose flash holds `data` as dice.json (as flash.py
    --dice puts it there): the box reads it when Cheese Master is picked."""
    from sim.scenario import Sim
    from sim.simfs import SimFS
    fs = SimFS()
    if isinstance(data, bytes):         # the simulated flash holds text
        data = data.decode("utf-8", "replace")
    f = fs.open("dice.json", "w")
    f.write(data)
    f.close()
    lines = []
    sim = Sim(read_board(P4), fs=fs, log=lines.append)
    sim.events = lines
    return sim


def _errors(sim):
    return [e for e in map(json.loads, sim.events) if e["ev"] == "error"]


def _dice_show_cross_and_2(sim):
    from cheesebox.display import Display
    d = Display(sim.board)
    d.die(0, "cross")
    d.die(1, "2")
    assert bytes(sim.box.display.views[0]) == bytes(d.views[0]), "no cross on die 1"
    assert bytes(sim.box.display.views[1]) == bytes(d.views[1]), "no code 2 on die 2"


@pytest.mark.parametrize("cid,change,wants", DICE_CASES, ids=DICE_IDS)
def test_bad_dice_file_shows_cross_and_2_at_joining_and_the_default_dice_play(bad_dir, cid,
                                                                            change, wants):
    """Never at boot, never a stopped box: Cheese Master, picked at power-up,
    reads dice.json, says what is wrong (an error event naming the file, a
    cross and code 2 on the dice), and plays with the default dice."""
    with open(_dice_file(bad_dir, cid), "rb") as f:
        data = f.read()
    sim = _box_with_dice_file(data)
    errors = _errors(sim)
    assert errors and errors[0]["code"] == 2, sim.log.events
    _names_it(errors[0]["what"], "dice.json", wants)
    assert sim.box.state_name() == "join"
    _dice_show_cross_and_2(sim)
    from sim.scenario import run_script
    run_script(sim, "players 2\ndice yellow\nrollbutton\nwait 2000\n")
    assert sim.box.game.dice_names == tuple(n for n, _, _ in DEFAULT_DICE)


def test_bad_dice_file_never_stops_cheesonomics(bad_dir):
    with open(_dice_file(bad_dir, DICE_CASES[0][0]), "rb") as f:
        data = f.read()
    from sim.scenario import Sim, run_script
    from sim.simfs import SimFS
    fs = SimFS()
    f = fs.open("dice.json", "w")
    f.write(data.decode("utf-8", "replace"))
    f.close()
    sim = Sim(read_board(P8), fs=fs)
    run_script(sim, "game cheesonomics\nplayers 3\nwait 500\n")
    assert sim.box.module.NAME == "cheesonomics" and sim.box.state_name() != "join"


def test_dice_file_too_big_for_the_heap_is_said_not_a_crash(monkeypatch):
    from cheesebox import save
    real = save.Store.read

    def read(self, name):
        if name == "dice.json":
            raise MemoryError("memory allocation failed, allocating 65536 bytes")
        return real(self, name)
    monkeypatch.setattr(save.Store, "read", read)
    sim = _box_with_dice_file(_dump(_good_dice()))
    errors = _errors(sim)
    assert errors and errors[0]["code"] == 2 and "dice.json" in errors[0]["what"]


def _read_json_running_out_of_heap(victim, real):
    """app._read_json that fails as MicroPython does on a file too big for the
    Pico's heap (a UF2 copied as board.json; a deeply nested file: measured with
    the unix port at a Pico-sized heap, json.loads raises MemoryError)."""
    def read(path):
        if path == victim:
            raise MemoryError("memory allocation failed, allocating 65536 bytes")
        return real(path)
    return read


@pytest.mark.parametrize("victim,code", [("board.json", 1)])
def test_pico_file_too_big_for_the_heap(pico, capsys, monkeypatch, victim, code):
    _copy(P4, "board.json")
    with open("dice.json", "w") as f:
        f.write(_dump(_good_dice()))
    monkeypatch.setattr(pico.app, "_read_json", _read_json_running_out_of_heap(victim, pico.app._read_json))
    try:
        out, cycles = _boot(pico, capsys)
    except MemoryError:
        pytest.fail("app.load() let a MemoryError out: main() dies with a traceback instead of "
                    "blinking error %d" % code)
    _check_error(out, cycles, code, victim, [])


def test_pico_good_files_load(pico, capsys):
    _copy(P4, "board.json")
    with open("dice.json", "w") as f:
        f.write(_dump(_good_dice()))
    board = pico.app.load()
    assert board.name == "pico-4p"
    assert pico.trace == []


# -- serial commands -------------------------------------------------------------------
BAD_LINES = [
    ("garbage", "xyzzy"),
    ("two-garbage-words", "rm -rf /"),
    ("overlong", "state" * 100),
    ("overlong-spaces", "a " * 250),
    ("binary", "\x00\x01\xff\xfe\x1b[2J"),
    ("replacement-chars", "\ufffd\ufffd\ufffd"),
    ("state-extra-word", "state now"),
    ("help-extra-word", "help me please"),
    ("state-uppercase", "STATE"),
    ("json-command", '{"cmd": "state"}'),
    ("json-event", '{"v": 1, "ev": "winner", "p": "P1", "t": 0}'),
    ("ctrl-c", "\x03"),
    ("python", "import machine; machine.reset()"),
]


def _events(lines, start=0):
    return [json.loads(ln) for ln in lines[start:]]


def _game(stage):
    """A 3-player game on pico-4p between rounds ("ready") or with the dice shown ("grab")."""
    from sim.scenario import Sim, run_script
    lines = []
    sim = Sim(read_board(P4), log=lines.append)
    script = ("players 3\ndice yellow\nrollbutton\nroll cheese1 cheese2 cheese3\nwait 3000\n"
              "buzz P1\nbuzz P2\nown-up P2\nrollbutton\n")
    if stage == "grab":
        script += "rollbutton\nroll cheese3 cat mouse2\nwait 3000\n"
    run_script(sim, script)
    return sim, lines


def _game_state(sim):
    box = sim.box
    return (box.state_name(), match_of(box).snapshot(), list(box.joined), box.stuck, box.games,
            bytes(box.game.in_play))


@pytest.mark.parametrize("stage", ["ready", "grab"])
@pytest.mark.parametrize("name,line", BAD_LINES, ids=[n for n, _ in BAD_LINES])
def test_bad_serial_line_one_error(stage, name, line):
    sim, lines = _game(stage)
    assert sim.box.state_name() == {"ready": "ready", "grab": "grab"}[stage]
    before = _game_state(sim)
    n = len(lines)
    sim.box.command(line)
    new = _events(lines, n)
    assert len(new) == 1, new
    ev = new[0]
    assert ev["ev"] == "error" and ev["v"] == 1 and isinstance(ev["t"], int)
    assert ev["line"] == line[:80]
    assert "unknown command" in ev["what"]
    assert len(lines[n]) < 400            # an overlong line is not echoed whole
    assert _game_state(sim) == before
    # and the game goes on: the next serial line still answers
    sim.box.command("state")
    st = _events(lines, n + 1)
    assert [e["ev"] for e in st] == ["state"]


@pytest.mark.parametrize("line", ["", " ", "\t \r", "\r\n"])
def test_empty_serial_line_says_nothing(line):
    sim, lines = _game("ready")
    before = _game_state(sim)
    n = len(lines)
    sim.box.command(line)
    assert lines[n:] == []
    assert _game_state(sim) == before


def test_state_and_help_answer():
    sim, lines = _game("ready")
    before = _game_state(sim)
    n = len(lines)
    sim.box.command("state")
    sim.box.command("  help \r")
    new = _events(lines, n)
    assert [e["ev"] for e in new] == ["state", "help"]
    st = new[0]
    res = sim.result()
    assert st["state"] == "ready" and st["points"] == res["points"] == {"P1": 7, "P2": 5, "P3": 6}
    assert st["rounds"] == res["rounds"] == 1 and st["stuck"] == []
    assert "state" in new[1]["commands"] and "help" in new[1]["commands"]
    assert _game_state(sim) == before


def test_serial_through_scenario_lines():
    """The scenario's `serial TEXT` command, as docs/scenarios.md shows it."""
    from sim.scenario import run_line
    sim, lines = _game("ready")
    before = _game_state(sim)
    n = len(lines)
    for i, text in enumerate(["serial", "serial     ", "serial bogus words here", "serial state extra",
                              "serial state", "serial help  # a comment"]):
        run_line(sim, text, 100 + i)
    assert [e["ev"] for e in _events(lines, n)] == ["error", "error", "state", "help"]
    assert _game_state(sim) == before


def test_serial_in_the_sim_cli_log(tmp_path, capsys):
    """End to end: a script with serial lines, its --log holds the answers."""
    script = tmp_path / "s.txt"
    script.write_text("players 2\nserial state\nserial nonsense\nserial\ndice yellow\nserial help\n")
    log = tmp_path / "log.jsonl"
    rc, out, err = _sim_main(["--script", str(script), "--json", "--log", str(log)], capsys)
    assert rc == 0, err
    evs = [json.loads(x) for x in log.read_text().splitlines()]
    answers = [e for e in evs if e["ev"] in ("state", "error", "help")]
    assert [e["ev"] for e in answers] == ["state", "error", "help"]
    assert answers[0]["state"] == "menu" and answers[0]["points"] == {}
    assert answers[1]["line"] == "nonsense"
    assert json.loads(out)["state"] == "ready"
