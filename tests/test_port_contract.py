"""Every port keeps the port contract (firmware/cheesebox/port.py), on every board.

The three ports are built as their runners build them: SimPort as sim/scenario.py
does, WebPort as web/webmain.py does (with the page's callbacks stood in), and
the Pico's Rp2Port with stand-ins for machine, rp2 and uctypes. Rp2Port's own
constructor runs, and so do its plate readers (keys.py, dials.py); its buttons,
LEDs and USB console are instances of the real classes left unset (their
hardware setup is tests/test_rp2_dma.py's and the emulator's), so the members
it takes from them (show, commit, read_line ...) are their real methods.
check_port compares names and, through inspect, the argument counts.
"""
import importlib
import importlib.util
import inspect
import os
import sys
import types

import pytest

from cheesebox import port as contract
from cheesebox.board import read_board
from sim.simport import SimPort

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = sorted(f[:-5] for f in os.listdir(os.path.join(REPO, "boards")) if f.endswith(".json"))
RP2 = ("rp2port.port", "rp2port.buttons", "rp2port.leds", "rp2port.usb", "rp2port.keys",
       "rp2port.dials", "rp2port.plates", "rp2port.wire")


def takes(f):
    """(fewest, most) positional arguments f accepts; most -1: any. A
    keyword-only argument without a default counts as one more needed (the
    box passes none)."""
    ps = inspect.signature(f).parameters.values()
    pos = [p for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    fewest = sum(p.default is p.empty for p in pos)
    fewest += sum(p.kind == p.KEYWORD_ONLY and p.default is p.empty for p in ps)
    most = -1 if any(p.kind == p.VAR_POSITIONAL for p in ps) else len(pos)
    return fewest, most


class Anything:
    """Stands in for any hardware object: each attribute, call or item is another one."""

    def __getattr__(self, name):
        return Anything()

    def __call__(self, *args, **kwargs):
        return Anything()

    def __setitem__(self, key, value):
        pass


def sim_port(board):
    return SimPort(board)


def web_port(board):
    spec = importlib.util.spec_from_file_location("webport", os.path.join(REPO, "web", "webport.py"))
    webport = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(webport)
    host = types.SimpleNamespace(clock_us=lambda: 0, clock_ms=lambda: 0,
                                 paint=lambda chain, rgb, permille: None, tone=lambda freq, volume: None)
    return webport.WebPort(board, host.clock_us, host.clock_ms, host.paint, host.tone, None)


@pytest.fixture
def rp2_port(monkeypatch):
    """A builder of Rp2Port(board) against stand-in hardware modules."""
    for name in RP2:
        monkeypatch.delitem(sys.modules, name, raising=False)
    for name in ("machine", "rp2", "uctypes", "rp2port.wire"):
        monkeypatch.setitem(sys.modules, name, Anything())
    port = importlib.import_module("rp2port.port")
    plates = importlib.import_module("rp2port.plates")
    from rp2port.buttons import Buttons, Wake
    from rp2port.leds import Leds
    from rp2port.usb import Usb
    clock = types.SimpleNamespace(ticks_ms=lambda: 0, ticks_us=lambda: 0)
    monkeypatch.setattr(plates, "time", clock)         # CPython's time has no ticks_ms
    monkeypatch.setattr(importlib.import_module("rp2port.dials"), "time", clock)
    monkeypatch.setattr(port, "select", Anything())

    def unset(cls, **attrs):
        def make(*args, **kwargs):
            obj = cls.__new__(cls)
            obj.__dict__.update(attrs)
            return obj
        return make
    monkeypatch.setattr(port, "Buttons", lambda *a: unset(Buttons, wake=Wake(),
                                                          spare=lambda: (bytearray(4096), 2048))())
    monkeypatch.setattr(port, "Leds", unset(Leds))
    monkeypatch.setattr(port, "Usb", unset(Usb))
    yield port.Rp2Port


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("make", [sim_port, web_port, "rp2"])
def test_every_port_keeps_the_contract(make, name, request):
    board = read_board(os.path.join(REPO, "boards", name + ".json"))
    if make == "rp2":
        make = request.getfixturevalue("rp2_port")
    p = make(board)
    assert contract.check_port(p, board.electronic, takes) == []
    if make is not sim_port and make is not web_port:
        # the Pico's app.py needs the optional members too (the console, the settings)
        assert [m for m, _, _ in contract.OPTIONAL if not hasattr(p, m)] == []


class Lacking:
    """A port that breaks the contract in every way check_port looks at."""
    answer_val = bytearray(8)
    answer_seq = bytearray(4)

    def ticks_ms(self):
        return 0

    def ticks_us(self, extra):
        return 0

    def poll(self, capture):
        pass

    def show(self, chain, buf):
        pass

    commit = None

    def tone(self, freq):
        pass

    def idle(self, *args):
        pass

    def volume(self, *, level):
        pass


def test_check_port_names_what_is_missing_or_taken_wrongly():
    assert contract.check_port(Lacking(), True, takes) == [
        "ticks_us: takes 1 to 1 arguments, the box passes 0 to 0",
        "show: takes 2 to 2 arguments, the box passes 4 to 4",
        "commit: not callable",
        "answer_seq: fewer than 8 stations",
        "answer_us: missing",
        "reported_to: missing",
        "volume: takes 1 to 0 arguments, the box passes 1 to 1",
    ]
    # without plates, or on MicroPython (no takes), less is asked; what is there is still checked
    assert contract.check_port(Lacking()) == ["commit: not callable", "answer_seq: fewer than 8 stations"]
