"""The Cheese Box firmware: the box for the dice game Cheese Master.

Everything in this package except the Pico's own modules (port_rp2,
pio_sampler, app) is pure: no hardware imports, clock and random source
injected, so CPython, the unix MicroPython and the Pico run the same code.
"""


def forget(name):
    """Drop submodule `name` (of cheesebox, or a dotted path like
    "cheesonomics.companion"), used only now and then, so its code and data
    leave the Pico's heap (the next import loads it again)."""
    import sys
    full = name if "." in name else "cheesebox." + name
    sys.modules.pop(full, None)
    i = full.rfind(".")
    pkg = sys.modules.get(full[:i])
    attr = full[i + 1:]
    if pkg is not None and attr in pkg.__dict__:
        delattr(pkg, attr)


def run_once(name, func, *args):
    """Call `func` of submodule `name`, then drop the module again (forget):
    for code needed only now and then (start-up checks, console commands)."""
    mod = __import__("cheesebox." + name, None, None, (func,))
    try:
        return getattr(mod, func)(*args)
    finally:
        del mod
        forget(name)
