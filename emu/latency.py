"""Press to LED on the wire, measured on the emulated Pico, for every press kind.

For a press of station s at pin time T, the latency is the time at which the
last changed bit of s's LEDs (its score track and wheel LED) leaves the Pico,
in the first frame of s's chain that starts after T and differs there from
the frame on the wire before T: what the player sees, to the nanosecond.
A press that lights nothing within the window counts as None (the bench and
the test fail on it: every press kind must light something).
"""
import statistics

from cheesebox.board import TRACK_PIXELS
from emu.table import MS, EmuTable

BOUND_MS = 10.0          # every press lit within 10 ms, worst case (what a table sees as at once)
_WINDOW_MS = 150         # run this long after a press before reading the frames


def wheel_pixel(board, s):
    ci, start = board.tracks[s]
    i = 0 if board.track_reversed else TRACK_PIXELS - 1
    return ci, start + i


def wheel_latency_ns(table, s, press_ns, since=0):
    """ns from press_ns until station s's wheel LED is lit on the wire (None
    if no such frame). since: frame index to start looking from."""
    ci, px = wheel_pixel(table.board, s)
    _, frames = table.frames(ci, since=since, pixels=[px])
    for f in frames:
        if f["start"] < press_ns:
            continue
        b = bytes.fromhex(f["hex"])[3 * px:3 * px + 3]
        if any(b):
            return f["pixel_ends"][0] - press_ns
    return None


def station_latency_ns(table, s, press_ns):
    """ns from press_ns until station s's LEDs (track + wheel) change on the
    wire (None if they did not). A frame begun before the press could count
    (its glitch window) cannot hold its answer: it is taken as the state
    before the press, so a track blinking on its own just then is not filed
    as the answer (one that blinks later still can be)."""
    ci, start = table.board.tracks[s]
    pxs = list(range(start, start + TRACK_PIXELS))
    _, frames = table.frames(ci, pixels=pxs)
    counts = press_ns + table.board.glitch_ms * MS
    before = b""
    for f in frames:
        if f["start"] < counts:
            before = bytes.fromhex(f["hex"])
    for f in frames:
        if f["start"] < counts:
            continue
        now = bytes.fromhex(f["hex"])
        ends = [e for p, e in zip(pxs, f["pixel_ends"]) if now[3 * p:3 * p + 3] != before[3 * p:3 * p + 3]]
        if ends:
            return max(ends) - press_ns
    return None


class Recorder:
    """Presses a station at a known pin time and files the latency by kind."""

    def __init__(self, table):
        self.t = table
        self.ms = {}                    # kind -> [ms or None]

    def press(self, kind, s, hold_ms=60, key=None, lead_ms=0, after_ms=_WINDOW_MS):
        """Press station s soon (pico-8p: answer key `key` pressed lead_ms
        before it and held with it), run, file the latency under `kind`."""
        t = self.t
        at = t.pico.nanos + MS + int(lead_ms * MS)
        if key is not None:
            t.key(s, key, hold_ms=hold_ms + lead_ms, at_ns=at - int(lead_ms * MS))
        t.press_at(s, at, hold_ms)
        t.run(after_ms)
        d = station_latency_ns(t, s, at)
        self.ms.setdefault(kind, []).append(None if d is None else d / 1e6)
        return d


def _cheese_master(board, image, rec_kinds, rounds=3, events=None):
    """Joins and leaves (3 players, then a 4th), 3 yellow dice, then rounds:
    a false start while the dice tumble, grabs (pico-8p: each with its answer
    key pressed 10 ms before and held, and one with no key: refused), an
    own-up and its take-back (plate cards). The last grab of a round scores
    it and saves the game on the flash."""
    with EmuTable(board, flash=image) as t:
        t.boot(5000)
        t.run(300)
        r = Recorder(t)
        for s in (0, 1, 2):
            r.press("join", s)
        r.press("leave", 2)
        r.press("join", 2)
        t.press(3)                      # a 4th player: one more wheel to grab
        t.press("roll")                 # the dice menu
        t.press("roll")                 # 3 yellow dice
        t.wait_event("game", 2000)
        keys = t.board.plates == "keys"
        dials = t.board.plates == "dial"
        for rnd in range(rounds):
            n = len(t.events)
            t.press("roll")
            t.run(200)
            # the dice tumble for ~1.5 s
            r.press("false start", (rnd + 1) % 4, after_ms=100)
            t.wait_event("faces", 3000, since=n)
            t.run(300)
            grabbers = [s for s in range(4) if s != rnd % 4]
            if keys:
                r.press("refused grab", rnd % 4)     # no key pressed: -1 point
                t.run(300)
            for s in grabbers:
                if keys:
                    # the ruling: a key 10 ms or more before the buzzer counts
                    r.press("grab, its key 10 ms before", s, key=3, lead_ms=10)
                elif dials:
                    # the dial turned to its answer just before the slam
                    t.place(s, 2 + (s + rnd) % 5)
                    t.run(30)
                    r.press("grab, the dial turned 30 ms before", s)
                else:
                    r.press("grab", s)
                t.run(300)
            if not keys and not dials:
                r.press("own-up", grabbers[0])
                t.run(600)
                r.press("take back", grabbers[0])
                t.run(3500)
                t.press("roll")         # end the check
            t.run(2500)
        rec_kinds.update(r.ms)
        if events is not None:
            events.extend(t.events)


def _cheesonomics(image, rec_kinds, turns=6, events=None, board="pico-8p"):
    """Cheesonomics picked, 3 players, basic; entry steps (pico-8p: a key,
    then the buzzer; pico2-8p: the dial turned, then the buzzer) and money
    on demand (another player's buzzer). Three turns produce; from the
    fourth, each player sells 3 of what they made (on a dial the pieces come
    with the action: 6, sell 3; the sale's steps are a kind of their own:
    the country step draws the market's prices; the next turn's money on
    demand comes while the sale's sum shows)."""
    with EmuTable(board, flash=image) as t:
        dials = t.board.plates == "dial"
        t.boot(5000)
        down = t.pico.nanos
        t.press("roll", hold_ms=2500)   # the game menu: Cheesonomics
        # the switch imports Cheesonomics (~0.6 s after the 2 s hold): a
        # press meanwhile waits for it; the joins come once it is picked
        pick = t.wait_event("pick", 3000)
        rec_kinds["_switch_ms"] = [pick["t"] - down / 1e6 - 2000]
        t.run(200)
        r = Recorder(t)
        for s in range(3):
            r.press("join (Cheesonomics)", s)
        t.press("roll")                 # the variant screen
        t.press("roll")                 # basic
        market = t.wait_event("market", 5000)
        first = int(market["first"][1:]) - 1
        sale_country = 1
        for turn in range(turns):
            s = (first + turn) % 3
            since = len(t.events)
            other = (s + 1) % 3
            r.press("money on demand", other)
            t.run(3200)                 # it stays up 3 s
            # produce (action key 3), 3 cards; from the fourth turn on each
            # player sells what they produced (sell 4, animal 1, a country on
            # the market, 3 pieces): a sale's LED too
            sale = turn >= 3
            if not sale:
                steps = (3, 3)
            elif dials:
                steps = (6, 1, sale_country)    # a dial's 6: sell 3 pieces, with the action
            else:
                steps = (4, 1, sale_country, 3)
            for v in steps:
                if dials:
                    # a dial step: the station shows it, 300 ms after the last
                    t.place(s, v)
                    t.run(350)
                else:
                    t.key(s, v)
                    t.run(90)
                r.press("Cheesonomics sale step" if sale else "Cheesonomics entry step", s)
                t.run(200)
            t.wait_event("action", 5000, since=since)
        rec_kinds.update(r.ms)
        if events is not None:
            events.extend(t.events)


def measure(boards=("pico-4p", "pico-8p"), image=None):
    """{board: {kind: [ms or None, ...]}} on each board named."""
    from emu import deploy
    image = image or deploy.image
    out = {}
    for b in boards:
        kinds = {}
        _cheese_master(b, image(b), kinds)
        if b in ("pico-8p", "pico2-8p"):
            _cheesonomics(image(b), kinds, board=b)
        out[b] = kinds
    return out


def kinds_of(board_figures):
    """The press kinds measured (not the figures beside them, named _...)."""
    return dict((k, v) for k, v in board_figures.items() if not k.startswith("_"))


def summary(ms_list):
    """max and median (ms) of the lit presses, and how many lit nothing."""
    lit = [x for x in ms_list if x is not None]
    return {"n": len(ms_list), "unlit": len(ms_list) - len(lit),
            "max_ms": round(max(lit), 2) if lit else None,
            "median_ms": round(statistics.median(lit), 2) if lit else None}
