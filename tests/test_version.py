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


def test_main_refuses_a_micropython_older_than_tested():
    m = _main_py()
    assert m.TESTED == (1, 28, 0)
    assert m.too_old((1, 27, 0)) and m.too_old((1, 24, 1, "")) and m.too_old((1, 19, 1))
    assert not m.too_old((1, 28, 0, "")) and not m.too_old((1, 29, 0, "preview"))


def test_an_old_micropython_gets_error_code_4_and_a_message(monkeypatch, capsys):
    """The blinks and the line a builder sees on a Pico with MicroPython 1.24."""
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
        m.refuse((1, 24, 1, ""))
    except KeyboardInterrupt:
        pass
    assert len(blinks) == 4
    out = capsys.readouterr().out
    assert "cheesebox error 4: MicroPython 1.24.1 is older than 1.28.0" in out
    assert "docs/deploy.md" in out


def test_flash_warns_of_the_same_versions_main_refuses():
    fl = _load("flash_tool_v", "host_tools", "deploy", "flash.py")
    assert fl.TESTED_MICROPYTHON == _main_py().TESTED
