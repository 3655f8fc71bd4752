"""Fair, debounced button capture from raw pin samples.

The port pushes raw samples: (bit snapshot of every button, time in us) each
time any pin changes; on the Pico a PIO state machine takes them, so a sample
is one instant for all pins and presses during a LED write are not lost.
This module turns samples into press/release events:

- a change counts only once the pin has held its new level for the debounce
  window: bounces and glitches shorter than that never make an event;
- a press counts sooner, so a wheel LED lights within a few ms: once the pin
  has been held down, with no edge at all, for the glitch window (2 ms on our
  boards). Noise, or any train of pulses each shorter than that, is never a
  press; a contact that bounces after it was confirmed comes back within the
  (longer) release debounce, so that makes no event either;
- the event is stamped with the FIRST edge of the change (the finger's real
  contact time), not with the moment it was confirmed;
- events leave in time order, and only when no other pin still has an earlier
  unconfirmed edge, so a bouncy switch can't lose to a clean one that came later;
- events with the same timestamp (same sample) are a tie, ordered by the
  random source, never by pin number.
Everything is preallocated: sample() and pop() allocate nothing.
"""
from array import array

from micropython import const

from cheesebox import ticks
from cheesebox.rand import shuffle

_NONE = const(-1)
RELEASE = const(0)
PRESS = const(1)
_MAX_INPUTS = const(16)
# confirmed events waiting for pop(): 8 players pressing 3 times each during a
# 400 ms flash erase are 48 (the port reads the buttons between a save's
# flash operations, the box pops only after the save)
_QUEUE = const(64)
_NOISE_WINDOWS = const(4)   # pending longer than 4 debounce windows: noise


class Capture:
    """Debouncer and fair orderer for up to 16 inputs (bit i = input i)."""

    def __init__(self, n_inputs, debounce_us, rng, glitch_us=0):
        self.n = n_inputs
        self.debounce_us = debounce_us
        # a press held this long with no edge is confirmed (0: no fast path)
        self.glitch_us = glitch_us if 0 < glitch_us < debounce_us else debounce_us
        self.rng = rng
        self.raw = 0            # last raw level of every pin (1 = pressed)
        self.stable = 0         # debounced level
        self.first = array("i", [_NONE] * n_inputs)  # first edge of a pending change
        self.last = array("i", [0] * n_inputs)      # latest edge on the pin
        self.pending = 0        # bit set: pin has an unconfirmed change
        # confirmed events waiting to leave, in arrival order
        self.q_kind = bytearray(_QUEUE)
        self.q_input = bytearray(_QUEUE)
        self.q_time = array("i", [0] * _QUEUE)
        self.q_len = 0
        self.order = bytearray(_QUEUE)   # scratch for sorting
        # events handed out by pop()
        self.kind = bytearray(_QUEUE)
        self.input = bytearray(_QUEUE)
        self.time = array("i", [0] * _QUEUE)

    def sample(self, bits, t_us):
        """A raw snapshot of all pins at t_us (called by the port).

        Samples may arrive in a batch (the port reads them after an LED write):
        what had settled before this one is confirmed first, as if polled then."""
        changed = bits ^ self.raw
        if not changed:
            return
        if self.pending:
            self._confirm(t_us)
        self.raw = bits
        i = 0
        while changed:
            if changed & 1:
                self.last[i] = t_us
                if not (self.pending >> i) & 1:
                    self.pending |= 1 << i
                    self.first[i] = t_us
            changed >>= 1
            i += 1

    def restart(self, t_us):
        """Samples were lost before t_us (the port's ring overran): a pin
        pending then may have changed in the gap, so its debounce starts
        again at t_us; it must not settle across a gap it was not seen in."""
        p = self.pending
        i = 0
        while p:
            if p & 1:
                self.last[i] = t_us
            p >>= 1
            i += 1

    def next_deadline(self, now_us):
        """Microseconds until a pending change may confirm, or -1 if none."""
        if not self.pending:
            return -1
        best = -1
        for i in range(self.n):
            if (self.pending >> i) & 1:
                d = self.debounce_us - ticks.diff(now_us, self.last[i])
                if (self.raw & ~self.stable) & (1 << i):        # a press: the fast path
                    d -= self.debounce_us - self.glitch_us
                if d < 0:
                    d = 0
                if best < 0 or d < best:
                    best = d
        return best

    def settle(self, now_us):
        """Confirm what the debounce window allows; events wait for pop()."""
        self._confirm(now_us)

    def _confirm(self, now_us):
        p = self.pending
        i = -1
        while p:
            i += 1
            bit = 1 << i
            if not p & bit:
                continue
            p &= ~bit
            if ticks.diff(now_us, self.last[i]) < self.debounce_us:
                # not settled yet; a press held the glitch window may go now
                if not ((self.raw & ~self.stable) & bit) \
                        or ticks.diff(now_us, self.last[i]) < self.glitch_us:
                    continue
            if (self.raw ^ self.stable) & bit and self.q_len >= _QUEUE:
                continue            # queue full: stays pending, confirmed at a later pop
            self.pending &= ~bit
            if (self.raw ^ self.stable) & bit:
                self.stable ^= bit
                k = self.q_len
                self.q_kind[k] = PRESS if self.stable & bit else RELEASE
                self.q_input[k] = i
                self.q_time[k] = self.first[i]
                self.q_len = k + 1
            # else: a glitch or a bounce that came back: no event
            self.first[i] = _NONE

    def pop(self, now_us):
        """Confirm what can be confirmed; returns the count of events ready.

        The events are in self.kind / self.input / self.time[0:count], in
        time order, ties shuffled by the random source. They stay valid until
        the next call.
        """
        self._confirm(now_us)
        n = self.q_len
        if not n:
            return 0
        if n == 1 and not self.pending:      # the usual case: one event, nothing else
            self.kind[0] = self.q_kind[0]
            self.input[0] = self.q_input[0]
            self.time[0] = self.q_time[0]
            self.q_len = 0
            return 1
        # the earliest edge still unconfirmed: nothing at or after it may leave.
        # A pin chattering for longer than any bounce (a loose wire) does not
        # hold the others back: it is noise, not a press still settling.
        horizon = _NONE
        for i in range(self.n if self.pending else 0):
            if (self.pending >> i) & 1 and \
                    ticks.diff(now_us, self.first[i]) < _NOISE_WINDOWS * self.debounce_us:
                if horizon == _NONE or ticks.diff(self.first[i], horizon) < 0:
                    horizon = self.first[i]
        order = self.order
        m = 0
        for k in range(n):
            if horizon == _NONE or ticks.diff(self.q_time[k], horizon) < 0:
                order[m] = k
                m += 1
        if not m:
            return 0
        # insertion sort by time (m is tiny)
        for a in range(1, m):
            k = order[a]
            t = self.q_time[k]
            b = a - 1
            while b >= 0 and ticks.diff(self.q_time[order[b]], t) > 0:
                order[b + 1] = order[b]
                b -= 1
            order[b + 1] = k
        # ties: shuffle each run of equal timestamps
        a = 0
        while a < m:
            b = a + 1
            while b < m and self.q_time[order[b]] == self.q_time[order[a]]:
                b += 1
            if b - a > 1:
                shuffle(self.rng, order, a, b)
            a = b
        for j in range(m):
            k = order[j]
            self.kind[j] = self.q_kind[k]
            self.input[j] = self.q_input[k]
            self.time[j] = self.q_time[k]
        # keep the ones held back, in arrival order
        left = 0
        for k in range(n):
            if not (horizon == _NONE or ticks.diff(self.q_time[k], horizon) < 0):
                self.q_kind[left] = self.q_kind[k]
                self.q_input[left] = self.q_input[k]
                self.q_time[left] = self.q_time[k]
                left += 1
        self.q_len = left
        return m
