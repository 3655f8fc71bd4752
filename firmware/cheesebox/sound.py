"""Piezo tunes: short, distinct, never blocking the game loop.

A tune is a flat tuple (freq Hz, ms, freq, ms, ...); freq 0 is a rest. The
player steps it from the main loop and the port only ever gets tone(freq)
(and volume(level), when the port has it).

The happy tunes stay below 1.6 kHz; the warnings sit at the piezo's
resonance (2-4 kHz), where it is loudest: a warning must be heard over a
noisy table. Each warning has its own pitch and rhythm.

The tunes every game may play are here; a game's own tunes live in its
package (Cheese Master's reveal, false start, penalty... in cheesemaster/flow.py).
"""
from cheesebox import ticks

JOIN = (880, 60, 1320, 80)
LEAVE = (660, 60, 440, 80)
MENU = (990, 40)
ROLL = (300, 30, 0, 30, 350, 30, 0, 30, 300, 30, 0, 30, 400, 30)
GRAB = (1175, 50)
REFUSED = (2200, 100, 0, 50, 2200, 100)      # two low beeps: not yours
TAKE_BACK = (400, 60, 500, 80)
TOO_SOON = (260, 50)        # the marked player's buzzer in the 1 s after scoring: not yet
WIN = (523, 120, 659, 120, 784, 120, 1047, 360)
WARNINGS = (REFUSED,)       # a game adds its own (Cheese Master: a false start, a penalty)
VOLUMES = 3                 # 0 off, 1 quiet, 2 loud (the table's setting)


class TunePlayer:
    """Plays one tune at a time on the port's piezo."""

    def __init__(self, port):
        self.port = port
        self.on = True          # False only in a speed benchmark (Box.animate)
        self.tune = None
        self.pos = 0
        self.until = 0
        self.volume = VOLUMES - 1

    def set_volume(self, level):
        """The table's volume (0: no sound at all); the port sets its drive."""
        self.volume = level
        if level == 0:
            self.tune = None
            self.port.tone(0)
        vol = getattr(self.port, "volume", None)
        if vol is not None:
            vol(level)

    def play(self, tune, now_ms):
        if not self.on or self.volume == 0:
            return
        self.tune = tune
        self.pos = 0
        self._note(now_ms)

    def _note(self, now_ms):
        tune = self.tune
        if tune is None or self.pos >= len(tune):
            self.tune = None
            self.port.tone(0)
            return
        self.port.tone(tune[self.pos])
        self.until = ticks.add(now_ms, tune[self.pos + 1])
        self.pos += 2

    def step(self, now_ms):
        if self.tune is not None and ticks.diff(now_ms, self.until) >= 0:
            self._note(now_ms)

    def wake_in(self, now_ms):
        """ms until the next note change, -1 if silent."""
        if self.tune is None:
            return -1
        d = ticks.diff(self.until, now_ms)
        return d if d > 0 else 0
