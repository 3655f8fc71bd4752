"""Piezo tunes: short, distinct, never blocking the game loop.

A tune is a flat tuple (freq Hz, ms, freq, ms, ...); freq 0 is a rest. The
player steps it from the main loop and the port only ever gets tone(freq)
(and volume(level), when the port has it).

The happy tunes stay below 1.6 kHz; the warnings sit at the piezo's
resonance (2-4 kHz), where it is loudest: a warning must be heard over a
noisy table. Each warning has its own pitch and rhythm.
"""
from cheesebox import ticks

JOIN = (880, 60, 1320, 80)
LEAVE = (660, 60, 440, 80)
MENU = (990, 40)
ROLL = (300, 30, 0, 30, 350, 30, 0, 30, 300, 30, 0, 30, 400, 30)
REVEAL = (1568, 90)
GRAB = (1175, 50)
FALSE_START = (3300, 80, 2500, 120)         # falling: too early
REFUSED = (2200, 100, 0, 50, 2200, 100)      # two low beeps: not yours
OWN_UP = (500, 60, 400, 80)
TAKE_BACK = (400, 60, 500, 80)
LOSS = (440, 120, 330, 160)
REPLAY = (523, 80, 0, 40, 523, 80, 0, 40, 523, 80)
PENALTY = (2800, 300)                        # one long: the table's penalty
TOO_SOON = (260, 50)        # the marked player's buzzer in the 1 s after scoring: not yet
WIN = (523, 120, 659, 120, 784, 120, 1047, 360)
KING = (523, 100, 659, 100, 784, 100, 1047, 200, 784, 100, 1047, 400)
WARNINGS = (FALSE_START, REFUSED, PENALTY)
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
