"""The Cheese Box firmware: game logic for Cheese Master and Cheesonomics.

Everything in this package except the port modules (port_rp2*) is pure: no
hardware imports, clock and random source injected, so CPython, the unix
MicroPython and the Pico run the same code.
"""


def forget(name):
    """Drop submodule `name`, used only at start-up, so its code and data
    leave the Pico's heap (the next import loads it again)."""
    import sys
    sys.modules.pop("cheesebox." + name, None)
    pkg = sys.modules.get("cheesebox")
    if pkg is not None and name in pkg.__dict__:
        delattr(pkg, name)
