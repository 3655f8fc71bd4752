"""Lamps: a third game, for the tests only (nothing in firmware/ names it).

Each buzzer press lights one more LED of that player's track; the first to
light all seven wins, and a long ROLL takes the table back to joining. A
test adds it to the games table at run time (tests/test_third_game.py):
a package and one line are all a game needs to be picked, played, saved
and resumed on the box, and shown by the simulator.
"""
from cheesebox.display import OFF, STATION
from cheesebox.events import name

NAME = "lamps"
ICONS = "lamps.icons"       # its own lamp beside the shell's icons
MIN_PLAYERS = 2
MAX_PLAYERS = 8
FULL = 7


def picked(box):
    """Nothing to read."""


def fits(board):
    return ""


def draw_join(box, joined):
    """Its own lamp on the first die, the others dark."""
    for d in range(6):
        box.display.die(d, "lamp" if d == 0 else "blank")


def unpack(box, d):
    players, lit = d["players"], d["lit"]
    if len(players) != len(lit) or not all(0 <= s < box.n for s in players) \
            or not all(0 <= k < FULL for k in lit):
        raise ValueError("saved lamps: %r" % (d,))
    return players, lit


def render_saved(box, saved):
    for s, k in zip(saved[0], saved[1]):
        box.display.score(s, k, STATION[s])


def new(box, players):
    return Lamps(box, players)


def resume(box, saved):
    g = Lamps(box, saved[0])
    g.lit = bytearray(saved[1])
    return g


class Lamps:
    def __init__(self, box, players):
        self.box = box
        self.players = list(players)
        self.lit = bytearray(len(players))
        self.winner = -1
        self.state = 0
        self.rolling = False

    def state_name(self):
        return "over" if self.winner >= 0 else "play"

    def in_game(self):
        return self.winner < 0

    def in_progress(self):
        return self.winner < 0

    def paused(self, ms):
        pass

    def status(self, fields):
        fields["lit"] = dict((name(s), self.lit[p]) for p, s in enumerate(self.players))

    def start(self):
        self.box.redraw = True

    def on_buzz(self, s, t_us):
        box = self.box
        if self.winner >= 0 or s not in self.players:
            return
        p = self.players.index(s)
        self.lit[p] += 1
        box.log("lamp", {"p": name(s), "lit": self.lit[p]})
        if self.lit[p] == FULL:
            self.winner = s
            box.log("over", {"winner": name(s)})
            box.save(None)
        else:
            box.save({"players": self.players, "lit": list(self.lit)})
        box.redraw = True

    def on_roll(self, t_us):
        pass

    def on_long_roll(self, t_us):
        self.box.back_to_join()

    def on_gesture(self, s):
        pass

    def on_answer(self, s, value):
        pass

    def timers(self, now):
        pass

    def timer_wake(self, now):
        return -1

    def look(self, now):
        return 0

    def draw_tracks(self, now, look):
        d = self.box.display
        for p, s in enumerate(self.players):
            d.score(s, self.lit[p], STATION[s])
            d.wheel(s, STATION[s] if s == self.winner else OFF)

    def render_dice(self):
        for d in range(6):
            self.box.display.die(d, "blank")
