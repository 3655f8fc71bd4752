"""The browser's port: the box on a web page (make web; docs/web.md).

Implements the port contract (firmware/cheesebox/port.py) on what a page
has. The JavaScript side (app.js) hands it three things:

- clock_us(), clock_ms(): performance.now() in microseconds and in
  milliseconds, each already wrapped at 2**30 like a Pico's ticks;
- paint(chain, rgb, permille): a chain's frame (RGB bytes, wire pixel
  order, full scale) to draw on the canvas at that brightness;
- tone(freq, volume): the speaker (WebAudio), 0 = silent; volume the
  table's setting (0 off, 1 quiet, 2 loud).

Inputs are pushed by the page as they happen, each with its event's
timeStamp (press/release of an input; an answer key or a dial position),
and reach the box at its next poll() in the order of those stamps, not in
the order the handlers ran: a touch that arrived while the page was busy
keeps its time. Inputs stamped alike (within the clock's resolution) are
one sample, a tie that the box breaks as it always does, by its random
source.

Answer keys are reported with the time of the key press itself (the
contract's "first read that saw it down", with no read period); a dial's
new position likewise, and every dial's position once when the port starts.
Pure Python: runs on MicroPython (the page) and CPython (the tests).
"""
from array import array

from cheesebox import ticks

ROLL_BIT = 8
INPUT = 0       # an input goes up or down: (t_us, INPUT, bit, level)
PLATE = 1       # a key pressed or a dial turned: (t_us, PLATE, station, value)


def _nothing(*args):
    pass


class WebPort:
    def __init__(self, board, clock_us, clock_ms, paint=_nothing, tone=_nothing, dials=None):
        self.board = board
        self.clock_us = clock_us
        self.clock_ms = clock_ms
        self.paint = paint
        self.tone_out = tone
        self.level = 0                  # input levels, bit per input (1 = down)
        self.queue = []                 # pushed, not yet polled: (t_us, kind, a, b)
        self.answer_val = bytearray(8)
        self.answer_seq = bytearray(8)
        self.answer_us = array("i", [0] * 8)
        self.bufs = [None] * len(board.chains)
        self.dirty = bytearray(len(board.chains))
        self.permille = int(board.brightness * 1000)
        self.freq = 0
        self.volume_level = 2
        if board.plates == "dial":
            now = self.ticks_us()
            pos = dials if dials is not None else bytes(8)
            for s in range(board.stations):
                self.queue.append((now, PLATE, s, pos[s]))

    # -- what the page does ---------------------------------------------
    def push(self, t_us, kind, a, b):
        """An input event at t_us (its timeStamp): kind INPUT (a = input bit,
        b = level) or PLATE (a = station, b = key or dial position)."""
        q = self.queue
        i = len(q)
        while i > 0 and ticks.diff(q[i - 1][0], t_us) > 0:
            i -= 1
        q.insert(i, (t_us & ticks.MASK, kind, a, b))

    # -- the port contract -------------------------------------------------
    def ticks_us(self):
        return self.clock_us() & ticks.MASK

    def ticks_ms(self):
        return self.clock_ms() & ticks.MASK

    def poll(self, capture):
        q = self.queue
        if not q:
            return
        level = self.level
        n = len(q)
        k = 0
        while k < n:
            t, kind, a, b = q[k]
            k += 1
            if kind == PLATE:
                self.answer_val[a] = b
                self.answer_us[a] = t
                self.answer_seq[a] = (self.answer_seq[a] + 1) & 0xFF
                continue
            if b:
                level |= 1 << a
            else:
                level &= ~(1 << a)
            # inputs stamped alike are one sample: a tie
            if k < n and q[k][0] == t and q[k][1] == INPUT:
                continue
            capture.sample(level, t)
        self.level = level
        del q[:n]

    def reported_to(self, t_us):
        """Every placement is reported at the first poll() after it (it
        comes with its own stamp): nothing from before t_us is still out."""
        return True

    def show(self, chain, buf, lo=0, hi=-1):
        self.bufs[chain] = buf
        self.dirty[chain] = 1

    def commit(self):
        for ci in range(len(self.dirty)):
            if self.dirty[ci]:
                self.dirty[ci] = 0
                self.paint(ci, self.bufs[ci], self.permille)

    def tone(self, freq):
        if freq != self.freq:
            self.freq = freq
            self.tone_out(freq, self.volume_level)

    def idle(self, ms, exact_us=-1):
        pass                            # the page's event loop waits (app.js)

    # -- what the box's settings reach ------------------------------------
    def set_brightness(self, permille):
        """The table's brightness (settings.py); commit() repaints with it."""
        self.permille = permille
        for ci in range(len(self.dirty)):
            if self.bufs[ci] is not None:
                self.dirty[ci] = 1

    def volume(self, level):
        """The table's volume, 0 off, 1 quiet, 2 loud (sound.py)."""
        self.volume_level = level
