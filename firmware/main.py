"""The Cheese Box: started by MicroPython at power-up (hold ROLL: safe boot).

Source, as MicroPython runs main.py, compiled at every power-up: so it is
small. On a MicroPython the box is tested on it starts the box; below that
(an older MicroPython: error code 4, or untested: a warning) and when the
box's files do not load (error code 6), gate.py (source too, compiled only
then) says so.
"""
import sys

TESTED = (1, 28, 0)         # the MicroPython the box is tested on (docs/deploy.md)
# the oldest it runs on, by chip (gate.py says why, docs/deploy.md cites the release notes)
FLOOR = {"rp2040": (1, 23, 0), "rp2350": (1, 24, 0)}
# MicroPython looks for an extensible built-in (time, json...) on the flash at
# every import (~3 ms of LittleFS lookups each): kept under its own name, found at once
BUILTINS = ("array", "binascii", "io", "json", "machine", "os", "random", "select", "time")


def start():
    for name in BUILTINS:
        if name not in sys.modules:
            try:
                sys.modules[name] = __import__("u" + name)
            except ImportError:
                pass
    version = sys.implementation.version
    if tuple(version[:3]) < max(TESTED, max(FLOOR.values())):
        import gate
        gate.start(TESTED, FLOOR)
        return
    try:
        from rp2port.app import main
        main()
    except Exception as e:
        import gate
        gate.cannot_start(version, e)


if sys.platform == "rp2":       # (the host's tests and the unix MicroPython import it)
    start()
