"""The host side of each game the box hosts, found by the game's name as
firmware/cheesebox/games.py finds its firmware side.

The simulator's view, the scenarios, the emulated box's view and the log
tools ask the game's host module what only the game knows (what its dice
mean on a screen, its hints and gestures, its scenario commands, the fields
of its resume event), so none of them tests a game's name or its members.
A game with no host module here still plays: it gets `plain`, which shows
the box's own screens and nothing of the game's.

A host module provides (sim/cheesemaster/host.py is the fullest example):
    NAME                 the game's name, as in cheesebox/games.py
    TITLE                its name as the rulebook writes it ("Cheese Master")
    SCORE_WORD           what its track counts ("points", "money")
    RESUME               a resume event's own fields: {field: "count"|"points"|"money"}
    TERMINAL             module of a terminal game of its own (sim --game NAME), or None
    match(box)           Cheese Master's match, or None (scenario commands use it)
    result(box, out)     add the game's part of the simulator's --json result
    COMMANDS             its own scenario commands' names
    VALUES               True: a station's key or dial is a value (Cheesonomics), not a plate
    TUNE_MODULES         (optional) modules beside the entry module with the game's own TUNE_*
                         constants, for the tunes' names (sim/tunes.py)
  for the box's screen (sim/boxscreen.py), `seen` a Seen: what the log said (and the
  simulated box, seen.box, or None on the emulated chip); `dice` what each die shows:
    seen_event(seen, e)  read one event of the log into seen; the reason it gives, or None
    seen_result(seen, out)  its part of a --json-like result from the log alone (the chip's)
    patterns()           its own die pictures beside the font and icons: (name, 8 row bytes)
    labels(seen, state, dice)  what each of the 6 dice means now (or None: no words)
    in_play(seen, d)     die d is in play now (its label is bold)
    keyed(seen, s, k)    what the view says when station s keys (or dials) value k
    station_note(seen, s)  a word after station s's track in the view, or None
    status(seen, r, head, lines)  its parts of the status lines (r: the --json result)
    hint(seen, state)    what the box wants now, in words, or None (the box's own hint)
    gesture(seen, state) the ROLL+buzzer gesture in a game: (keys, word, words), or None
    answer_keys(seen, state)  what the keys or dials do in a game: (word, words), or None
    command(sim, cmd, args, player)  one of its scenario commands (player(tok): a station)
    before_press(sim, cmd, s)  wait as a table would before a scenario's press (own-up, rollbutton)
"""
HOSTS = {
    "cheese master": "sim.cheesemaster.host",
    "cheesonomics": "sim.cheesonomics.host",
}


class _Plain:
    """A game with no host module: the box's own words only."""
    NAME = None
    TITLE = None
    SCORE_WORD = "points"
    RESUME = {}
    TERMINAL = None
    COMMANDS = ()
    VALUES = False

    @staticmethod
    def seen_event(seen, e):
        return None

    @staticmethod
    def seen_result(seen, out):
        pass

    @staticmethod
    def patterns():
        return ()

    @staticmethod
    def match(box):
        return None

    @staticmethod
    def result(box, out):
        pass

    @staticmethod
    def labels(seen, state, dice):
        return None

    @staticmethod
    def keyed(seen, s, k):
        return "P%d keys %s" % (s + 1, k)

    @staticmethod
    def station_note(seen, s):
        return None

    @staticmethod
    def status(seen, r, head, lines):
        pass

    @staticmethod
    def in_play(seen, d):
        return False

    @staticmethod
    def hint(seen, state):
        return None

    @staticmethod
    def gesture(seen, state):
        return None

    @staticmethod
    def answer_keys(seen, state):
        return None

    @staticmethod
    def command(sim, cmd, args, player):
        return False

    @staticmethod
    def before_press(sim, cmd, s):
        pass


plain = _Plain()


def named(name):
    """The host module of the game called name (plain if it has none)."""
    path = HOSTS.get(name)
    if path is None:
        return plain
    return __import__(path, None, None, ("NAME",))


def of(box):
    """The host module of the game the box has picked."""
    return named(box.module.NAME)


def claiming(cmd):
    """The host module of the game whose scenario command cmd is, or None."""
    for name in HOSTS:
        host = named(name)
        if cmd in host.COMMANDS:
            return host
    return None


def terminal_games():
    """{name: module} of the games that also play on their own in the terminal."""
    out = {}
    for name in HOSTS:
        t = named(name).TERMINAL
        if t is not None:
            out[name] = t
    return out
