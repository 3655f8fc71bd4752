"""The box's tunes by name, for the screens that say what the piezo plays:
the shell's (cheesebox/sound.py) and each game's own (the TUNE_* constants
of its entry module and of the modules its host module names in
TUNE_MODULES: Cheese Master's are in cheesemaster/flow.py).

The simulated box says which tune it plays; the emulated chip only drives
its piezo pin, so `named()` tells a tune from the pitches heard so far."""
from cheesebox import games, sound

TOLERANCE = 0.02        # the chip's PWM divides its clock: 3300 Hz may come out 3301


def _is_tune(v):
    return isinstance(v, tuple) and v and len(v) % 2 == 0 and all(isinstance(x, int) for x in v)


def table():
    """name -> tune, every tune the box can play."""
    out = dict((k.lower().replace("_", " "), v) for k, v in vars(sound).items()
               if k.isupper() and _is_tune(v))
    from sim import games as hosts
    for i in range(len(games.GAMES)):
        mods = [games.load(i)] + list(getattr(hosts.named(games.GAMES[i][games.NAME]), "TUNE_MODULES", ()))
        for mod in mods:
            for k, v in vars(mod).items():
                if k.startswith("TUNE_") and _is_tune(v):
                    out[k[5:].lower().replace("_", " ")] = v
    return out


def pitches(tune):
    """A tune's pitches in the order the piezo changes to them (a rest is 0;
    the port ignores a note at the pitch it already plays)."""
    out = []
    for f in tune[0::2]:
        if not out or out[-1] != f:
            out.append(f)
    return out


def _same(a, b):
    return a == b or (a and b and abs(a - b) <= TOLERANCE * b)


def starting(heard, tunes):
    """The names of the tunes whose start is `heard` (pitches, rests as 0)."""
    return [name for name, tune in tunes.items()
            if len(heard) <= len(pitches(tune))
            and all(_same(h, p) for h, p in zip(heard, pitches(tune)))]


def named(heard, tunes=None, ended=False):
    """What `heard` is: the one tune that starts so; the few that do ("win /
    king") while it could still be either; the one of exactly that length
    once it has ended; None when no tune starts so."""
    tunes = table() if tunes is None else tunes
    found = starting(heard, tunes)
    if ended:
        whole = [name for name in found if len(pitches(tunes[name])) == len(heard)]
        found = whole or found
    return " / ".join(found) if found else None
