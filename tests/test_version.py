"""The firmware says its own version: the one the deploy list declares."""
from cheesebox.version import VERSION
from host_tools.deploy.deploylist import read as read_manifest


def test_the_deployed_version_constant_is_the_manifests():
    # bump both together: the box says cheesebox/version.py's, make flash and
    # package.json read the manifest's
    assert VERSION == read_manifest().version, (
        "firmware/cheesebox/version.py says %r, firmware/manifest.py's metadata %r"
        % (VERSION, read_manifest().version))


def _load(name, *path):
    """A file of the repository as a module, by its path (main.py is no
    package module; on CPython it defines, it does not start the box)."""
    import importlib.util
    import os
    full = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), *path)
    spec = importlib.util.spec_from_file_location(name, full)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _main_py():
    return _load("box_main", "firmware", "main.py")


def _gate_py():
    """gate.py: main.py's version gate and start-up errors (loaded by main.py
    only off the tested path, so the Pico compiles it only then)."""
    return _load("box_gate", "firmware", "gate.py")


def test_main_refuses_a_micropython_below_the_chips_floor_and_warns_up_to_tested():
    """The floor is what the box needs (docs/deploy.md): 1.23 on the Pico (rp2.DMA,
    native .mpy 6.3), 1.24 on the Pico 2 (RP2350 support); up to the tested
    1.28.0 it runs with a warning. The same cases run on MicroPython
    (tests/core/test_version_gate.py)."""
    m = _main_py()
    g = _gate_py()
    assert m.TESTED == (1, 28, 0)
    assert m.FLOOR == {"rp2040": (1, 23, 0), "rp2350": (1, 24, 0)}
    cases = [((1, 19, 1), "rp2040", "refuse"), ((1, 22, 2, ""), "rp2040", "refuse"),
             ((1, 23, 0, ""), "rp2040", "warn"), ((1, 27, 0), "rp2040", "warn"),
             ((1, 23, 0, ""), "rp2350", "refuse"), ((1, 24, 0), "rp2350", "warn"),
             ((1, 24, 1, ""), "rp2350", "warn"), ((1, 28, 0, ""), "rp2350", "run"),
             ((1, 28, 0, ""), "rp2040", "run"), ((1, 29, 0, "preview"), "rp2040", "run"),
             ((1, 23, 0), None, "refuse"), ((1, 24, 0), None, "warn")]   # chip unknown: the higher floor
    for version, chip, want in cases:
        assert g.verdict(version, chip, m.TESTED, m.FLOOR) == want, (version, chip)
    assert g.chip_of("Raspberry Pi Pico with RP2040") == "rp2040"
    assert g.chip_of("Raspberry Pi Pico2 with RP2350") == "rp2350"
    assert g.chip_of("", "rp2350") == "rp2350" and g.chip_of("", "avr") is None
    assert g.refusal((1, 22, 2), "rp2040", m.TESTED, m.FLOOR) == (
        "MicroPython 1.22.2 is older than 1.23.0, the oldest the box runs on an RP2040 (Pico): "
        "install MicroPython 1.28.0 or newer (docs/deploy.md), then make flash")
    assert g.untested((1, 24, 1), m.TESTED).startswith(
        "MicroPython 1.24.1 is older than 1.28.0, the version the box is tested on: the box runs, untested")


def test_main_and_app_agree_which_start_up_failures_are_the_files(monkeypatch):
    """gate.py (for rp2port/app.mpy itself) and app.py (for the rest) pick
    error code 6 for the same exceptions, and both call it 6."""
    import importlib
    import sys
    import types
    monkeypatch.setitem(sys.modules, "machine", types.ModuleType("machine"))
    monkeypatch.delitem(sys.modules, "rp2port.app", raising=False)
    app = importlib.import_module("rp2port.app")
    monkeypatch.delitem(sys.modules, "rp2port.app")
    m = _gate_py()
    assert m.ERR_FILES == app.ERR_FILES == 6 and m.ERR_CRASH == app.ERR_CRASH == 3
    for e, unfit in [(ValueError("incompatible .mpy file"), True),
                     (ValueError("incompatible .mpy arch"), True),
                     (ImportError("no module named 'cheesebox.box'"), True),
                     (OSError(19), False), (ValueError("No DMA channels are available"), False),
                     (MemoryError(), False)]:
        assert m.files_unfit(e) == app.files_unfit(e) == unfit, e


def test_an_old_micropython_gets_error_code_4_and_a_message(monkeypatch, capsys):
    """The blinks and the line a builder sees on a Pico with MicroPython 1.22."""
    import sys
    import types
    blinks = []

    class Pin:
        OUT = 1

        def __init__(self, name, mode):
            assert name == "LED"

        def value(self, v):
            if v:
                blinks.append(v)

    sleeps = []

    def sleep_ms(ms):
        sleeps.append(ms)
        if ms == 2000:                  # one round of the code: stop the loop here
            raise KeyboardInterrupt

    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=Pin))
    monkeypatch.setattr("time.sleep_ms", sleep_ms, raising=False)
    m = _main_py()
    try:
        _gate_py().refuse((1, 22, 2, ""), "rp2040", m.TESTED, m.FLOOR)
    except KeyboardInterrupt:
        pass
    assert len(blinks) == 4
    out = capsys.readouterr().out
    assert "cheesebox error 4: MicroPython 1.22.2 is older than 1.23.0, the oldest" in out
    assert "docs/deploy.md" in out


def test_flash_warns_of_the_same_versions_main_refuses():
    fl = _load("flash_tool_v", "host_tools", "deploy", "flash.py")
    assert fl.TESTED_MICROPYTHON == _main_py().TESTED
