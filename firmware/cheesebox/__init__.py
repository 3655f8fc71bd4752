"""The Cheese Box shell: what every game on the box shares.

The box (box.py) hosts one game at a time (games.py lists them; game.py is
the contract between the two): buttons, electronic plates, LEDs, tunes,
the saved game, the event log and the serial console. Everything here is
pure: no hardware imports (the port, rp2port/ on a Pico or sim/simport.py,
is injected), clock and random source injected, so CPython, the unix
MicroPython and the Pico run the same code. No module here imports a game.
"""


def forget(name):
    """Drop submodule `name` (of cheesebox, or a dotted path like
    "cheesonomics.game"), used only now and then, so its code and data
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
    for code needed only now and then (start-up checks, console commands).
    On the Pico the shell's modules it imported for the call go too (the
    board check's JSON reader), so none of them stays in the heap all night;
    a game's modules stay (a game loaded meanwhile is the box's to keep)."""
    import sys
    full = name if "." in name else "cheesebox." + name
    before = None
    if sys.implementation.name == "micropython":
        before = set(sys.modules)
    mod = __import__(full, None, None, (func,))
    try:
        return getattr(mod, func)(*args)
    finally:
        del mod
        forget(full)
        if before is not None:
            for m in list(sys.modules):
                if m not in before and m.startswith("cheesebox."):
                    forget(m)
