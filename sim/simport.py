"""The simulated port: a virtual clock, fingers on buttons, LED frames.

Implements the port contract (firmware/cheesebox/port.py). Time is a plain
microsecond counter that only moves when the driver says so; the ticks it
hands out wrap at 2**30 exactly like a Pico's, and start close to the wrap
so every simulated game crosses it.

Button edges are scheduled at virtual times and reach the capture as the
Pico's PIO sampler delivers them: one word per 16 us loop whose snapshot
changed, decoded by the firmware's SampleDecoder; two presses seen by the
same loop are a tie.

Electronic plates are reported as the contract lets the Pico report them, at
its slowest: a key press is stamped by the next key read (reads 10 ms apart)
and reported then; a dial is read every 5 ms and reported 10 ms after the
read that first saw its new position; a dial that does not move reports
nothing, and every dial's position is reported when the port starts.
"""
from array import array

from cheesebox import ticks
from rp2port.sampler import LOOP_US, WORD_BITS, SampleDecoder

START_MS = ticks.PERIOD - 20000     # the ms ticks wrap 20 s into the run
ROLL_BIT = 8
KEY_READ_US = 10000     # answer keys: the slowest read the port contract allows
DIAL_READ_US = 5000     # dials: a read every 5 ms,
DIAL_SETTLE_US = 10000  # reported 10 ms after the first read at the new position


def encode(loop_n, level_bits, pins, base, width, active_low=True):
    """The word the Pico's sampler pushes at loop n for these pressed inputs
    (the inverse of the firmware's SampleDecoder)."""
    snap = 0
    for i in range(len(pins)):
        if pins[i] >= 0 and (level_bits >> i) & 1:
            snap |= 1 << (pins[i] - base)
    if active_low:
        snap ^= (1 << width) - 1
    kmask = (1 << (WORD_BITS - width)) - 1
    return (((-loop_n) & kmask) << width) | snap


class SimPort:
    def __init__(self, board, start_us=None, dials=None):
        self.board = board
        self.t = START_MS * 1000 if start_us is None else start_us   # virtual us
        self.t0 = self.t                # the sampler starts with the port
        self.pins = board.input_pins()
        self.decoder = SampleDecoder(self.pins, board.button_base, board.button_width,
                                     self.ticks_us())
        self.words = 0                  # sampler words made
        # the window's pins as the sampler reads them (pulled up, a press pulls
        # low), kept up to date edge by edge; encode() with loop 0 is just that
        self.snap = encode(0, 0, self.pins, board.button_base, board.button_width)
        self.pin_bit = [1 << (p - board.button_base) if p >= 0 else 0 for p in self.pins]
        self.kmask = (1 << (WORD_BITS - board.button_width)) - 1
        self.level = 0                  # raw pin levels, bit per input
        self.edges = []                 # scheduled (t_us, bit, level), sorted
        self.answer_val = bytearray(8)
        self.answer_seq = bytearray(8)
        self.answer_us = array("i", [0] * 8)
        self.reports = []               # placements not yet reported: (due us, s, value, stamp us)
        self.plates = board.plates
        self.dial = bytearray(dials if dials is not None else 8)   # where each dial stands
        if self.plates == "dial":
            for s in range(board.stations):
                self.reports.append((self.t, s, self.dial[s], self.t))
        n = len(board.chains)
        self.rgb = [bytes(c.pixels * 3) for c in board.chains]   # last frame shown
        self.shows = [0] * n            # how many times each chain was written
        self.freq = 0
        self.tones = 0                  # tone changes (for tests)
        self.on_show = None             # optional callback(chain, rgb bytes)

    # -- the port contract -------------------------------------------------
    def ticks_ms(self):
        return (self.t // 1000) & ticks.MASK

    def ticks_us(self):
        return self.t & ticks.MASK

    def poll(self, capture):
        """Deliver due edges as the Pico's sampler would: one word per 16 us
        loop in which the snapshot changed, decoded by the firmware's own
        SampleDecoder."""
        if self.reports and self.reports[0][0] <= self.t:
            self._report_answers()
        edges = self.edges
        now = self.t
        if not edges or edges[0][0] > now:
            return
        dec = self.decoder
        t0 = self.t0
        width = self.board.button_width
        k = 0
        n = len(edges)
        while k < n and edges[k][0] <= now:
            te, bit, lvl = edges[k]
            loop = -(-(te - t0) // LOOP_US)           # the loop that sees it
            if lvl:
                self.level |= 1 << bit
                self.snap &= ~self.pin_bit[bit]
            else:
                self.level &= ~(1 << bit)
                self.snap |= self.pin_bit[bit]
            k += 1
            # every edge the same loop sees lands in the same snapshot
            if k < n and edges[k][0] <= now and -(-(edges[k][0] - t0) // LOOP_US) == loop:
                continue
            self.words += 1
            word = (((-loop) & self.kmask) << width) | self.snap
            # the Pico reads words within ms of their loop: anchor the decoder
            # there (the capture itself confirms what settled before each word)
            dec.advance((t0 + loop * LOOP_US) & ticks.MASK)
            dec.feed(word, capture)
        del edges[:k]

    def show(self, chain, buf, lo=0, hi=-1):
        self.rgb[chain] = bytes(buf)
        self.shows[chain] += 1
        if self.on_show is not None:
            self.on_show(chain, self.rgb[chain])

    def commit(self):
        """Frames reach the view as they are shown (show() above)."""

    def tone(self, freq):
        if freq != self.freq:
            self.freq = freq
            self.tones += 1

    def idle(self, ms, exact_us=-1):
        pass

    # -- what the driver does --------------------------------------------
    def schedule(self, t_us, bit, level):
        """A finger changes input `bit` to `level` at virtual time t_us."""
        e = (t_us, bit, level)
        i = len(self.edges)
        while i > 0 and self.edges[i - 1][0] > t_us:
            i -= 1
        self.edges.insert(i, e)

    def next_edge(self, wanted=None):
        """Time of the next scheduled edge that wanted(bit, level) accepts
        (any edge if wanted is None), -1 if none."""
        for t, bit, level in self.edges:
            if wanted is None or wanted(bit, level):
                return t
        return -1

    def place(self, s, k, t=None):
        """Electronic plates: station s presses key k, or turns its dial to k,
        now (or at virtual time t). The port reports it later, as the Pico's
        would (see above)."""
        if t is None:
            t = self.t
        if self.plates == "dial":
            if self.dial[s] == k:
                return                  # the dial does not move: nothing to report
            self.dial[s] = k
            stamp = self._next_read(t, DIAL_READ_US)
            due = stamp + DIAL_SETTLE_US
        else:
            stamp = due = self._next_read(t, KEY_READ_US)
        e = (due, s, k, stamp)
        i = len(self.reports)
        while i > 0 and self.reports[i - 1][0] > due:
            i -= 1
        self.reports.insert(i, e)

    def next_report(self):
        """When the next placement is reported (virtual us), -1 if none."""
        return self.reports[0][0] if self.reports else -1

    def _next_read(self, t, period):
        """The first read at or after t of a reader running every period us."""
        return self.t0 + -(-(t - self.t0) // period) * period

    def _report_answers(self):
        now = self.t
        reps = self.reports
        k = 0
        while k < len(reps) and reps[k][0] <= now:
            _, s, v, stamp = reps[k]
            self.answer_val[s] = v
            self.answer_us[s] = stamp & ticks.MASK
            self.answer_seq[s] = (self.answer_seq[s] + 1) & 0xFF
            k += 1
        del reps[:k]
