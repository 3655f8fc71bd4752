"""pytest setup for the Cheese Box (CPython side).

- firmware/ and the repo root are on sys.path through the venv's
  cheesebox.pth (Makefile), so tests import the firmware package exactly as
  the board does (`import cheesebox`) and the simulator as `import sim`.
- tests/ and tests/core are also importable by bare module name (at the end
  of sys.path), as on MicroPython (MICROPYPATH=firmware:.:tests/core); the
  host tools are imported as the package they are (host_tools.table ...).
- BLINKA_OS_AGNOSTIC=1 is set before anything imports board/neopixel, so
  Adafruit Blinka loads on a plain Linux host.
"""
import os
import sys

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# this checkout's firmware and tree first, for the tests and the tools they
# start: a venv made by another checkout (a git worktree) points elsewhere
_OWN = [os.path.join(REPO, "firmware"), REPO]
for _p in reversed(_OWN):
    while _p in sys.path:
        sys.path.remove(_p)
    sys.path.insert(0, _p)
os.environ["PYTHONPATH"] = os.pathsep.join(_OWN + [x for x in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                                    if x and x not in _OWN])
# test helpers stay importable by bare name, but after firmware and the repo
_LAST = [os.path.join(REPO, "tests"), os.path.join(REPO, "tests", "core")]
for _p in _LAST:
    while _p in sys.path:
        sys.path.remove(_p)
sys.path.extend(_LAST)
# pytest runs with --import-mode=importlib (pytest.ini), so it does not put
# tests/ back in front of firmware/.

# The MicroPython runner and the fake board are scripts, not test modules.
collect_ignore = ["mp_runner.py", "fake_board.py"]

try:
    from hypothesis import settings as _hsettings

    # No per-example deadline: CI machines have 2 cores and timing varies.
    _hsettings.register_profile("cheesebox", deadline=None)
    # In CI, derandomize so a run is reproducible.
    _hsettings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
    _hsettings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "cheesebox"))
except ImportError:  # hypothesis missing: tests that need it will say so
    pass
