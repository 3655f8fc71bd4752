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
its slowest: answer keys are read where the Pico reads them, when a read is
due (10 ms after the last): while the box waits (the Pico's idle(), the
driver's jumps), at the start of a step (poll()) and between a save's flash
writes (between()); a save that takes time (Sim's flash model) holds them
as it holds the Pico's loop. A key is stamped and reported by the read that
first sees it. A dial is read every 5 ms and reported 10 ms after the read
that first saw its new position; a dial that does not move reports nothing,
and every dial's position is reported when the port starts.
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
        self.keys = []                  # answer keys pressed, not yet read: (t us, s, key)
        self.key_next = self.t          # when the next key read is due
        self.held_until = self.t        # the loop was held until then (hold()): no read before
        self.polled_at = self.t         # the last poll(): the step's start
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
        SampleDecoder. The key reads due while the box waited come first."""
        if self.keys:
            self._idle_key_reads()
        if self.key_next <= self.t:
            # the reads went on while the box waited (one now, if due): the
            # next is due on their beat, after now
            self.key_next = self._key_read_for(self.t + 1)
        self.polled_at = self.t
        self._deliver(capture)

    def between(self, capture):
        """Mid-step, between a save's writes: a key read, as the Pico makes
        at every one, then the buttons. A save that took no time (no flash
        model) reads nothing: poll() just did."""
        if self.t > self.polled_at:
            self._read_keys(self.t)
        self._deliver(capture)

    def reported_to(self, t_us):
        """Every placement stamped at or before t_us is reported: a key at
        once (its read stamps it); a dial 10 ms after the 5 ms read that
        first saw it, so once the last read at or before t_us is 10 ms old."""
        if self.plates != "dial":
            return True
        t = self.t - ticks.diff(self.ticks_us(), t_us)     # t_us on the virtual clock
        last = self.t0 + (t - self.t0) // DIAL_READ_US * DIAL_READ_US
        if self.t < last + DIAL_SETTLE_US:
            return False
        for r in self.reports:          # still waiting for reads (a hold)
            if r[3] <= t:
                return False
        return True

    def _deliver(self, capture):
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

    def hold(self, us):
        """The loop is held us (a flash operation, a long step): time
        passes, nothing is read (the sampler's words wait in its ring, as on
        the Pico). A dial's new position still needs the reads it lacked:
        they come from the end of the hold on, a read every DIAL_READ_US."""
        h0 = self.t
        self.t += us
        self.held_until = self.t
        reps = self.reports
        for i in range(len(reps)):
            due, s, v, stamp = reps[i]
            if due > h0:
                done = (h0 - stamp) // DIAL_READ_US if h0 >= stamp else 0
                left = DIAL_SETTLE_US // DIAL_READ_US - done
                reps[i] = (max(due, self.t + (left - 1) * DIAL_READ_US), s, v, stamp)
        reps.sort()

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
        if self.plates != "dial":
            i = len(self.keys)
            while i > 0 and self.keys[i - 1][0] > t:
                i -= 1
            self.keys.insert(i, (t, s, k))
            return
        if self.dial[s] == k:
            return                  # the dial does not move: nothing to report
        self.dial[s] = k
        stamp = self._next_read(t, DIAL_READ_US)
        due = stamp + DIAL_SETTLE_US
        e = (due, s, k, stamp)
        i = len(self.reports)
        while i > 0 and self.reports[i - 1][0] > due:
            i -= 1
        self.reports.insert(i, e)

    def next_report(self):
        """When the next placement is reported (virtual us), -1 if none."""
        first = self.reports[0][0] if self.reports else -1
        if self.keys:
            k = self._key_read_for(self.keys[0][0])
            if first < 0 or k < first:
                first = k
        return first

    def _next_read(self, t, period):
        """The first read at or after t of a reader running every period us."""
        return self.t0 + -(-(t - self.t0) // period) * period

    def _key_read_for(self, t):
        """The first key read at or after t, if the box waits until then
        (reads due every KEY_READ_US from the last one; none while the loop
        was held)."""
        if t <= self.key_next:
            r = self.key_next
        else:
            r = self.key_next + -(-(t - self.key_next) // KEY_READ_US) * KEY_READ_US
        return r if r >= self.held_until else self.held_until

    def _idle_key_reads(self):
        """The reads made while the box waited, up to now: each stamps the
        keys pressed by then."""
        while self.keys:
            at = self._key_read_for(self.keys[0][0])
            if at > self.t:
                break
            self._read_keys(at)

    def _read_keys(self, at):
        """A key read at virtual time `at`: every key pressed by then is
        placed, stamped `at`."""
        keys = self.keys
        k = 0
        while k < len(keys) and keys[k][0] <= at:
            _, s, v = keys[k]
            self.answer_val[s] = v
            self.answer_us[s] = at & ticks.MASK
            self.answer_seq[s] = (self.answer_seq[s] + 1) & 0xFF
            k += 1
        del keys[:k]
        self.key_next = at + KEY_READ_US

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
