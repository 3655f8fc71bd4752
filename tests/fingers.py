"""Finger and switch models: raw button edges for the simulated port.

Each model schedules raw pin edges with `port.schedule(t_us, bit, level)`
(bit 0-7: the buzzers of stations P1-P8, bit 8: ROLL) and returns the
INTENDED presses it stands for: what a perfect box would register. A glitch
(electrical noise, no finger) returns none; a bouncy press returns one, stamped
at its first contact; a mash returns one per press.

Times are virtual microseconds (SimPort.t). The port only needs `schedule`
(and `t0`, the sampler's start, for `stamp`), so the models also feed a plain
edge list for unit tests of the capture alone (EdgeList).

Rules the models keep, so that "intended" is well defined:
- edges on one pin are at least MIN_GAP_US apart, so every edge is seen by its
  own 16 us sampler loop (a faster bounce would be invisible to any sampler);
- each model owns its pin from its first edge to its last; another model on
  the same pin must keep a debounce window (+1 ms) clear of it (`is_free`),
  otherwise a glitch and a press would merge into one debounced change and the
  press would honestly be stamped at the glitch;
- contact bounce: an even number (2-8) of extra edges within 10 ms of the
  first edge, at the press and at the release; the switch then holds its level
  longer than the debounce window.
"""
from collections import Counter

LOOP_US = 16          # the PIO sampler loop (rp2port/sampler.py)
MIN_GAP_US = 20       # bounce edges on one pin at least this far apart
ROLL = 8


class Press:
    """An intended press: station `bit`, first contact at `t` (virtual us)."""
    __slots__ = ("bit", "t", "settled", "up", "up_settled", "kind")

    def __init__(self, bit, t, settled, up, up_settled, kind):
        self.bit = bit
        self.t = t                      # first contact (the stamp a perfect box gives)
        self.settled = settled          # last edge of the press chatter
        self.up = up                    # first edge of the release (None: never let go)
        self.up_settled = up_settled    # last edge of the release chatter
        self.kind = kind                # clean, bounce, held, stuck, mash, tie, ...

    def __repr__(self):
        return "Press(%s %s t=%d up=%s)" % ("ROLL" if self.bit == ROLL else "P%d" % (self.bit + 1),
                                            self.kind, self.t, self.up)


class EdgeList:
    """A stand-in port for unit tests: collects the edges, sorted by time."""

    def __init__(self, t0=0):
        self.t0 = t0
        self.edges = []

    def schedule(self, t_us, bit, level):
        self.edges.append((t_us, bit, level))

    def sorted(self):
        return sorted(self.edges, key=lambda e: e[0])


class Fingers:
    """Schedules realistic presses, bounces and glitches on `port`."""

    def __init__(self, port, rng, debounce_us=12000, glitch_us=2000):
        self.port = port
        self.r = rng                    # a random.Random
        self.debounce_us = debounce_us
        self.glitch_us = glitch_us      # a press held this long with no edge counts
        self.guard = debounce_us + 1000
        self.busy = {}                  # bit -> [(first edge, last edge)]
        self.presses = []               # every intended press, in the order made
        self.counts = Counter()         # faults injected

    # -- bookkeeping ------------------------------------------------------
    def stamp(self, t):
        """The time the sampler stamps an edge at t: its loop's time."""
        t0 = self.port.t0
        return t0 + -(-(t - t0) // LOOP_US) * LOOP_US

    def is_free(self, bit, t0, t1):
        """True if a model may use `bit` from t0 to t1."""
        g = self.guard
        for a, b in self.busy.get(bit, ()):
            if not (t1 + g <= a or b + g <= t0):
                return False
        return True

    def free_after(self, bit):
        """The earliest time after every model on `bit` (plus the guard)."""
        last = max([b for _, b in self.busy.get(bit, ())] or [-10 ** 18])
        return last + self.guard

    def held_at(self, bit, t):
        """True if a model holds `bit` down at t (per its intended presses)."""
        for p in self.presses:
            if p.bit == bit and p.t <= t and (p.up is None or t < p.up):
                return True
        return False

    def _claim(self, bit, t0, t1):
        assert self.is_free(bit, t0, t1), "fingers: pin %d is busy at %d-%d" % (bit, t0, t1)
        self.busy.setdefault(bit, []).append((t0, t1))

    def _edge(self, t, bit, level):
        self.port.schedule(int(t), bit, level)

    def _chatter(self, bit, t, level, n_extra, span_us):
        """The edge to `level` at t, then n_extra (even) bounce edges within
        span_us, ending at `level`. Returns the time of the last edge."""
        self._edge(t, bit, level)
        if n_extra <= 0:
            return t
        assert n_extra % 2 == 0
        room = max(0, span_us - n_extra * MIN_GAP_US)
        offs = sorted(self.r.randint(0, room) for _ in range(n_extra))
        last = t
        for i, o in enumerate(offs):
            last = t + o + (i + 1) * MIN_GAP_US
            self._edge(last, bit, level ^ 1 if i % 2 == 0 else level)
        return last

    def _bounce(self, small=False):
        """(extra edges, span) of one contact bounce."""
        if small:
            return self.r.choice((0, 2, 2, 4)), self.r.randint(200, 3000)
        return self.r.choice((2, 4, 6, 8)), self.r.randint(300, 10000)

    def _press(self, bit, t, hold_us, kind, bounce_in=(0, 0), bounce_out=(0, 0), claim=True,
               dropouts=0):
        """A finger closes `bit` at t and opens it hold_us later (None: never)."""
        t = int(t)
        end_in = t + bounce_in[1]
        if hold_us is not None:
            up = t + int(hold_us)
            assert up >= end_in + self.guard, "hold too short for the bounce + debounce"
            end = up + bounce_out[1]
        else:
            up = None
            end = end_in + 10 ** 12
        if claim:
            self._claim(bit, t, end)
        settled = self._chatter(bit, t, 1, *bounce_in)
        for _ in range(dropouts):
            # the contact opens for under the debounce window while held: vibration
            lo = settled + self.guard
            hi = (up if up is not None else lo + 10 ** 6) - self.guard - 8000
            if hi > lo:
                a = self.r.randint(lo, hi)
                w = self.r.randint(50, 8000)
                self._edge(a, bit, 0)
                self._edge(a + w, bit, 1)
                self.counts["dropout"] += 1
        up_settled = None
        if up is not None:
            up_settled = self._chatter(bit, up, 0, *bounce_out)
        p = Press(bit, t, settled, up, up_settled, kind)
        self.presses.append(p)
        return p

    # -- the models -------------------------------------------------------
    def clean(self, bit, t, hold_us=60000):
        """A clean press: one edge down, one edge up."""
        self.counts["clean"] += 1
        return [self._press(bit, t, hold_us, "clean")]

    def bouncy(self, bit, t, hold_us=None, kind="bounce"):
        """A press with contact bounce: 2-8 chatter edges over up to 10 ms at
        the contact and at the release."""
        bi, bo = self._bounce(), self._bounce()
        if hold_us is None:
            hold_us = self.r.randint(bi[1] + self.guard + 1000, 250000)
        hold_us = max(hold_us, bi[1] + self.guard)
        self.counts["bounce"] += 1
        self.counts["bounce_edges"] += bi[0] + bo[0]
        return [self._press(bit, t, hold_us, kind, bi, bo)]

    def press(self, bit, t, hold_us=None, kind=None):
        """A clean or bouncy press, at random."""
        if self.r.random() < 0.5:
            return self.clean(bit, t, hold_us if hold_us is not None else self.r.randint(30000, 200000))
        return self.bouncy(bit, t, hold_us, kind or "bounce")

    def glitch(self, bit, t, width_us=None):
        """Noise on a released pin, no finger: a pulse shorter than the glitch
        window (0.05 ms up to it; now and then a spike under one sampler loop)."""
        if width_us is None:
            if self.r.random() < 0.1:
                width_us = self.r.randint(1, 15)
            else:
                width_us = self.r.randint(50, self.glitch_us - LOOP_US)
        assert width_us < self.glitch_us - LOOP_US + 1
        t = int(t)
        self._claim(bit, t, t + width_us)
        self._edge(t, bit, 1)
        self._edge(t + width_us, bit, 0)
        self.counts["glitch"] += 1
        return []

    def held_before(self, bit, t, release_at):
        """Pressed before the faces appear (during the roll) and held through
        the reveal, let go at release_at. The one intended press is stamped t."""
        self.counts["held"] += 1
        bi, bo = self._bounce(), self._bounce()
        return [self._press(bit, t, release_at - t, "held", bi, bo)]

    def stuck(self, bit, t, hold_us=None):
        """A jammed switch: held 5.2-20 s (past the 5 s stuck limit), with some
        contact dropouts shorter than the debounce window while held."""
        if hold_us is None:
            hold_us = self.r.randint(5200000, 20000000)
        self.counts["stuck_roll" if bit == ROLL else "stuck"] += 1
        bi, bo = self._bounce(), self._bounce()
        return [self._press(bit, t, hold_us, "stuck", bi, bo, dropouts=self.r.choice((0, 0, 1, 3)))]

    def all_at_once(self, bits, t, same_sample=True, spread_us=5, clean=False):
        """Every button in `bits` at once: in the same 16 us sampler loop, or
        within spread_us of each other (which may straddle two loops). Each
        press clean or with a small bounce (all clean if `clean`)."""
        self.counts["tie_group"] += 1
        out = []
        if same_sample:
            s = self.stamp(t)                      # the loop that sees t
            times = [s - self.r.randint(0, LOOP_US - 1) for _ in bits]
        else:
            times = [t + self.r.randint(0, spread_us) for _ in bits]
        for bit, tb in zip(bits, times):
            hold = self.r.randint(40000, 200000)
            if clean or self.r.random() < 0.5:
                out.append(self._press(bit, tb, hold, "tie"))
            else:
                bi, bo = self._bounce(small=True), self._bounce(small=True)
                self.counts["bounce_edges"] += bi[0] + bo[0]
                out.append(self._press(bit, tb, hold, "tie", bi, bo))
        return out

    def mash(self, bit, t, presses=None, down_us=25000, up_us=25000):
        """Mashing at 20 presses a second: 25 ms down / 25 ms up, each edge
        with a small bounce (the level still holds > debounce each way)."""
        if presses is None:
            presses = self.r.randint(3, 12)
        t = int(t)
        period = down_us + up_us
        self._claim(bit, t, t + presses * period)
        self.counts["mash"] += 1
        self.counts["mash_presses"] += presses
        out = []
        for k in range(presses):
            bi, bo = self._bounce(small=True), self._bounce(small=True)
            self.counts["bounce_edges"] += bi[0] + bo[0]
            out.append(self._press(bit, t + k * period, down_us, "mash", bi, bo, claim=False))
        return out
