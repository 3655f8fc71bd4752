"""make soak: a night of play on the emulated Pico (what a unit test cannot hit).

    python -m emu.soak [--minutes 120] [--seed N] [--wall-minutes 30] [--json FILE]

pico-8p, the real firmware, driven only through its pins and serial port:
six players press at random (clean and bouncing presses, ROLL, answer keys,
table penalties), a loose wire chatters now and then, the box saves after
rounds and penalties, and the power is cut in the middle of saves. The
sampler's DMA segment is one ring, 512 words (main(segment=512) typed at
the REPL after every boot), so its two chained channels take over from each
other every 512 words, thousands of times a night.

What it checks, and prints as figures:
- no press lost: every buzzer press of a player in a running game gets its
  `press` event (presses while the power is cut do not count);
- the heap minimum stays flat: `free` of the console's `state` (after a
  collection) in a running game (the joining screen holds no game: its heap
  is not comparable), every emulated minute (an eighth of a shorter run), the
  lowest of the first and last quarter, at most 1 KiB apart; a run with fewer
  than 4 such readings cannot judge it and fails, saying so;
- the watchdog never fires (the emulator's reset log);
- no ring overrun but during a chattering wire.
It stops at --minutes of emulated time or --wall-minutes of wall time,
whichever comes first, and says which. Exit code 1 when a check fails.
"""
import argparse
import json
import random
import sys
import time

from emu.table import EmuTable

MS = 1000000
SEGMENT = 512
_SAID_LATE_MS = 1500    # the box says an overrun at most once a second, up to 1 s late asleep
_IN_GAME = ("ready", "tour", "rolling", "grab", "check")   # Cheese Master logs presses there
_HEAP_SAMPLES = 4       # heap readings in a game a verdict needs (a quarter of them at least 1)
PLAYERS = 6             # stations 0-5 play; station 7's wire is the loose one
LOOSE = 7


class Soak:
    def __init__(self, table, rng):
        self.t = table
        self.rng = rng
        self.in_game = False
        self.players = set()
        self.joined = set()
        self.expected = 0       # presses that must be logged
        self.logged = 0
        self.lost = []          # (emulated ms, player) of presses never logged
        self.free = []          # (emulated minute, bytes free)
        self.cuts = 0
        self.boots = 0
        self.overruns_quiet = []  # (emulated ms, count, lost) of overruns with no chatter going on
        self.chatter_until = 0
        self.chatters = []      # (start, end) nanos of every chatter of the loose wire
        self.reset_ns = 0       # when the chip last restarted: its ticks_ms count from there
        self.seen = 0           # events looked at

    # -- what the box says -----------------------------------------------------------
    def _events(self):
        t = self.t
        for ev in t.events[self.seen:]:
            k = ev["ev"]
            if k == "boot":
                self.in_game = False
                self.joined = set()
                resets = t.pico.stats()["resets"]
                self.reset_ns = resets[-1]["nanos"] if resets else 0
            elif k == "game":
                self.in_game = True
                self.players = set(ev["players"])
            elif k == "resume":
                self.in_game = True
                self.players = set(ev["points"])
            elif k == "winner":
                self.in_game = False
            elif k == "join":
                self.joined.add(ev["p"])
            elif k == "leave":
                self.joined.discard(ev["p"])
            elif k == "overrun":
                # when the box said it (its own clock), not when this loop
                # looked (after a run of up to 4 s); said up to 1 s after the
                # wire stopped, it is still the wire's
                at = self.reset_ns + ev["t"] * MS
                if not any(a <= at <= b + _SAID_LATE_MS * MS for a, b in self.chatters):
                    self.overruns_quiet.append((round(at / MS), ev.get("count"), ev.get("lost")))
        self.seen = len(t.events)

    def run(self, ms):
        """Run; True when a power cut fell (then the box is booted again)."""
        cut = self.t.run(ms)
        self._events()
        if cut:
            self.cuts += 1
            self.after_boot()
        return cut

    def after_boot(self, cut=True):
        """The box came up (power cut): the small segment again, at the REPL.
        A cut rebuilds the chip and drops the fingers' scheduled moves
        (docs/emulator.md): every input is let go first, as each finger was
        within 60 ms (a buzzer 1 left held would start the self-test)."""
        t = self.t
        if cut:
            for who in list(range(8)) + ["roll"]:
                t.pico.drive(t.pin_of(who), None)
        t.wait_event("boot", 5000, since=self.seen)
        t.pico.send("\x03")
        t.run(300)
        n = len(t.events)
        t.pico.send("from rp2port.app import main\r\nmain(segment=%d)\r\n" % SEGMENT)
        t.wait_event("boot", 5000, since=n)
        self.boots += 1
        self._events()

    # -- what the table does -------------------------------------------------------------
    def press(self, s, bouncy=False):
        t = self.t
        g = t.pin_of(s)
        at = t.pico.nanos + 1000
        if bouncy:
            steps = [(at + k * 90000, g, 0 if k % 2 == 0 else None) for k in range(7)]
            steps += [(at + 60 * MS + k * 90000, g, None if k % 2 == 0 else 0) for k in range(7)]
            t.pico.schedule(pins=steps)
        else:
            t.press_at(s, at, 60)
        who = "P%d" % (s + 1)
        counted = self.in_game and who in self.players
        n = len(t.events)
        if self.run(self.rng.randrange(150, 700)):
            return
        if counted:
            if any(e["ev"] == "press" and e["p"] == who for e in t.events[n:]):
                self.expected += 1
                self.logged += 1
                return
            # not logged: ask the box where it is (a game that ended in the
            # meantime logs no presses: the driver's view was behind)
            ev = self.heap()
            where = ev["state"] if ev is not None else "no answer"
            if where in _IN_GAME or ev is None:
                self.expected += 1
                # did the loose wire chatter just before (the ring can overflow)?
                chatter = at <= self.chatter_until + 100 * MS
                self.lost.append((round(t.pico.ms), who, where, "within 100 ms of chatter" if chatter else "quiet"))
            else:
                self.in_game = False

    def roll(self, hold=60):
        self.t.press_at("roll", self.t.pico.nanos + 1000, hold)
        self.run(hold + self.rng.randrange(100, 600))

    def step(self):
        r = self.rng.random()
        t = self.t
        if not self.in_game:
            missing = [s for s in range(PLAYERS) if "P%d" % (s + 1) not in self.joined]
            if missing and self.rng.random() < 0.8:
                self.press(self.rng.choice(missing))
            else:
                self.roll()
            return
        if r < 0.55:
            self.press(self.rng.randrange(PLAYERS), bouncy=self.rng.random() < 0.5)
        elif r < 0.75:
            self.roll()
        elif r < 0.83:
            t.key(self.rng.randrange(PLAYERS), self.rng.randrange(8))
            self.run(self.rng.randrange(50, 300))
        elif r < 0.87:                          # a table penalty: ROLL held, then a buzzer
            t.press_at("roll", t.pico.nanos + 1000, 440)
            t.press_at(self.rng.randrange(PLAYERS), t.pico.nanos + 400 * MS, 30)
            self.run(700)
        elif r < 0.90:                          # the loose wire
            ms = self.rng.randrange(50, 400)
            t.pico.chatter(t.pin_of(LOOSE), self.rng.randrange(40, 400), ms)
            self.chatter_until = t.pico.nanos + ms * MS
            self.chatters.append((t.pico.nanos, self.chatter_until))
            self.run(ms)
        else:
            self.run(self.rng.randrange(500, 4000))

    def heap(self):
        t = self.t
        n = len(t.events)
        t.pico.send("state\r\n")
        try:
            ev = t.wait_event("state", 2000, since=n)
        except AssertionError:
            return None
        self._events()
        return ev


def soak(minutes=120.0, seed=1, wall_minutes=30.0, image=None, out=print, log_path=None):
    """Play; returns the figures (a dict) and whether every check held."""
    from emu import deploy
    rng = random.Random(seed)
    flash = image or deploy.image("pico-8p", False, False)
    wall0 = time.monotonic()
    with EmuTable("pico-8p", flash=flash) as t:
        s = Soak(t, rng)
        t.boot()
        s.seen = 0
        s.after_boot(cut=False)
        start = t.pico.ms
        next_heap = start
        heap_every = min(60000, minutes * 60000 / 8)
        next_cut = start + rng.uniform(3, 9) * 60000
        version = None
        while True:
            emu_min = (t.pico.ms - start) / 60000
            wall_min = (time.monotonic() - wall0) / 60
            if emu_min >= minutes or wall_min >= wall_minutes:
                break
            if t.pico.ms >= next_heap:
                ev = s.heap()
                if ev is not None and ev.get("free") is not None and ev.get("state") in _IN_GAME:
                    s.free.append((round(emu_min, 2), ev["free"]))
                if ev is not None:
                    version = ev.get("version") or version
                next_heap = t.pico.ms + heap_every
            if t.pico.ms >= next_cut:
                t.pico.cut_after(rng.randrange(1, 5))   # during one of the next saves
                next_cut = t.pico.ms + rng.uniform(3, 9) * 60000
            s.step()
        st = t.pico.stats()
        lines = t.lines
        emu_min = (t.pico.ms - start) / 60000
        wall_s = time.monotonic() - wall0
    watchdog = sum(1 for r in st["resets"] if r["reason"] == "watchdog")
    q = max(1, len(s.free) // 4)
    first = min(f for _, f in s.free[:q]) if s.free else None
    last = min(f for _, f in s.free[-q:]) if s.free else None
    fig = {
        "emulated_minutes": round(emu_min, 2), "wall_seconds": round(wall_s, 1),
        "stopped_by": "minutes" if emu_min >= minutes else "wall clock",
        "seed": seed, "segment_words": SEGMENT, "firmware": version,
        "presses_expected": s.expected, "presses_logged": s.logged, "presses_lost": s.lost[:20],
        "power_cuts": s.cuts, "boots": s.boots, "watchdog_resets": watchdog,
        "flash_ops": st["flash_ops"], "pio0_irqs": st["pio0_irqs"],
        "overruns_without_chatter": len(s.overruns_quiet),
        "overruns_without_chatter_at": s.overruns_quiet[:20],
        "heap_free_min_first_quarter": first, "heap_free_min_last_quarter": last,
        "heap_samples": len(s.free), "heap_every_s": round(heap_every / 1000, 1),
        "heap_judged": len(s.free) >= _HEAP_SAMPLES,
    }
    if log_path:
        with open(log_path, "w") as f:
            f.write("\n".join(lines) + "\n")
    ok = (not s.lost and watchdog == 0 and not s.overruns_quiet and s.expected > 0
          and len(s.free) >= _HEAP_SAMPLES and last >= first - 1024)
    fig["ok"] = ok
    if len(s.free) < _HEAP_SAMPLES:
        fig["why"] = ("too short to judge the heap: %d readings in a game, %d needed"
                      % (len(s.free), _HEAP_SAMPLES))
    out(json.dumps(fig))
    return fig, ok


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m emu.soak", description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=120.0, help="emulated minutes (default 120)")
    ap.add_argument("--wall-minutes", type=float, default=30.0, help="stop after this much wall time")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--log", help="write the box's serial output (the event log) to this file")
    a = ap.parse_args(argv)
    fig, ok = soak(a.minutes, a.seed, a.wall_minutes, log_path=a.log)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(fig, f, indent=1)
    if not ok:
        print("soak: FAILED (see the figures above)", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
