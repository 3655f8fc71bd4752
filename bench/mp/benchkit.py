# Shared set-up for the MicroPython-side bench scripts (mp_steady.py,
# mp_cost.py): a pico-8p box with all six dice, animating, brought into a
# chosen state through the simulated port. Runs on MicroPython (unix and
# webassembly) and CPython. See docs/bench.md.
import json
import sys

import sim.simport as SP
from cheesebox.board import load_board
from sim.scenario import Sim, run_line

WASM = sys.platform == "webassembly"
ROLL = SP.ROLL_BIT


def make_sim(board_name="pico-8p", small_clock=False):
    """A Sim with the box animating, 8 players joined, dice yellow+3 chosen.

    small_clock: start the virtual clock at 1 s instead of 20 s before the
    ms-ticks wrap. The sim's clock is a plain microsecond count (about 2**40
    by default), a big int on a 32-bit MicroPython: arithmetic on it would
    allocate in the sim itself and hide what the firmware does."""
    if small_clock:
        SP.START_MS = 1000
    with open("boards/%s.json" % board_name) as f:
        board = load_board(json.loads(f.read()), board_name)
    sim = Sim(board, seed=1)
    sim.box.animate = True
    sim.box.draw()
    stub_show(sim.port)
    run_line(sim, "players 8", 1)
    run_line(sim, "dice yellow+3", 2)
    return sim


def stub_show(port):
    """SimPort.show keeps each frame as a new bytes object (the simulator's
    own allocation); copy into preallocated buffers instead, so only the
    firmware's allocations and time count. On the Pico port.show is the
    NeoPixel write (about 30 us a pixel with interrupts off)."""
    frames = [bytearray(len(b)) for b in port.rgb]
    # one closed-over variable: MicroPython calls a closure with its closed
    # variables and arguments on the C stack only up to 5 of them together
    # (py/objclosure.c), so 2 + 4 arguments would allocate in this stub
    kept = (frames, port.shows)

    def show(chain, buf, lo=0, hi=-1):
        kept[0][chain][:] = buf
        kept[1][chain] += 1
    port.show = show
    port.frames = frames


def to_grab(sim):
    """ROLL, wait for the faces: GRAB, every player's right plate placed."""
    run_line(sim, "rollbutton", 0)
    sim.wait(1600)
    g = sim.box.game
    right = g.left if g.left < 7 else 7
    for s in range(sim.board.stations):
        sim.port.place(s, right)
    sim.wait(50)
    return sim


def to_ready_marked(sim, no_wheel=7):
    """A whole round in which `no_wheel` grabs nothing, then 3 s: READY with
    that player marked (blinking white), the faces/count cycling on the dice."""
    to_grab(sim)
    m = sim.box.game.match
    for s in range(sim.board.stations):
        if s != no_wheel and m.active[s]:
            sim.press(s)
    sim.wait(3000)
    return sim


def reset_points(sim):
    """Everybody back to 7 points, so a bench can play rounds for ever."""
    m = sim.box.game.match
    for s in range(8):
        if m.joined[s]:
            m.points[s] = 7


# -- Box.step() and Box.next_wake() piece by piece ------------------------------
# mp_steady.py locks each piece alone to name what allocates; mp_cost.py times
# them. So that this copy cannot drift from box.py unnoticed, two checks:
# STEP_CALLS / WAKE_CALLS are the calls Box.step() / Box.next_wake() make, in
# the order box.py writes them, and bench/run.py compares them with
# box.py's source (ast) before it runs anything; check_pieces() below runs a
# box on the pieces beside one on step()/next_wake() and fails on the first
# difference (state, LED buffers, frames shown, wake time).
STEP_CALLS = ("port.ticks_ms", "self.log.hold", "port.poll", "self._read_answers", "cap.pop",
              "port.ticks_us", "range", "self._on_input", "self._check_stuck", "self._ask_timer",
              "self.game.timers",
              "self.tunes.step", "self._render", "self.display.flush", "self.log.release")
WAKE_CALLS = ("self.port.ticks_ms", "self.capture.next_deadline", "self.port.ticks_us",
              "self._ask_wake", "self.game.timer_wake", "self._stuck_wake", "self.tunes.wake_in")
PLAY = 10        # box.py: box.mode while a game plays (a const there, not importable)


def step_pieces(box):
    """Box.step()'s body as (key, label, function) in its order; each
    function is one piece with the condition step() puts around it."""
    port = box.port
    cap = box.capture

    def clock():
        box.now = port.ticks_ms()

    def answers():
        if box.board.electronic:
            box._read_answers()

    def inputs():
        n = cap.pop(port.ticks_us())
        for i in range(n):
            box._on_input(cap.kind[i], cap.input[i], cap.time[i])

    def game_timers():
        if box.asking:
            box._ask_timer(box.now)         # "stop?" is up: the game is frozen
        elif box.mode == PLAY:
            box.game.timers(box.now)

    def tunes():
        if box._animate:
            box.tunes.step(box.now)

    def render():
        if box._animate:
            box._render(box.now)

    def flush():
        if box._animate:
            box.display.flush(port)

    return (
        ("clock", "box.py:Box.step (port.ticks_ms)", clock),
        ("hold", "events.py:EventLog.hold", box.log.hold),
        ("poll", "sim/simport.py:SimPort.poll", lambda: port.poll(cap)),
        ("answers", "box.py:Box._read_answers", answers),
        ("inputs", "capture.py:Capture.pop + box.py:Box._on_input", inputs),
        ("stuck", "box.py:Box._check_stuck", lambda: box._check_stuck(box.now)),
        ("timers", "game.timers (%s)" % game_name(box), game_timers),
        ("tunes", "sound.py:TunePlayer.step", tunes),
        ("render", "box.py:Box._render", render),
        ("flush", "display.py:Display.flush", flush),
        ("release", "events.py:EventLog.release", box.log.release),
    )


def wake_pieces(box):
    """Box.next_wake()'s parts as (key, label, function); they return ms or -1.
    wake_from(box, results) combines them as next_wake() does."""
    port = box.port
    return (
        ("deadline", "capture.py:Capture.next_deadline",
         lambda: box.capture.next_deadline(port.ticks_us())),
        ("timer_wake", "game.timer_wake (%s)" % game_name(box),
         lambda: (box._ask_wake(port.ticks_ms()) if box.asking else
                  box.game.timer_wake(port.ticks_ms()) if box.mode == PLAY else -1)),
        ("stuck_wake", "box.py:Box._stuck_wake", lambda: box._stuck_wake(port.ticks_ms())),
        ("tunes_wake", "sound.py:TunePlayer.wake_in",
         lambda: box.tunes.wake_in(port.ticks_ms()) if box._animate else -1),
    )


def wake_from(box, r):
    """next_wake()'s answer from wake_pieces' results (deadline in us, the rest ms)."""
    best = (r[0] + 999) // 1000 if r[0] >= 0 else -1
    for w in r[1:]:
        if w >= 0 and (best < 0 or w < best):
            best = w
    if box._animate and box.stuck:
        now = box.port.ticks_ms()
        w = 250 - now % 250          # box.py BLINK_MS
        if best < 0 or w < best:
            best = w
    return best


def game_name(box):
    return type(box.game).__name__ if box.game is not None else "no game"


def run_pieces(box):
    """One step() made of its pieces, then next_wake() from its parts."""
    for p in step_pieces(box):
        p[2]()
    return wake_from(box, [p[2]() for p in wake_pieces(box)])


class MirrorDrift(Exception):
    pass


def check_pieces(make, setup, n, dt):
    """Two boxes brought to the same state: one stepped by step() and
    next_wake(), one by the pieces above, n iterations `dt` us apart. Any
    difference means the pieces no longer are step(): MirrorDrift."""
    a = setup(make())
    b = setup(make())
    for i in range(n):
        a.port.t += dt
        b.port.t += dt
        a.box.step()
        wa = a.box.next_wake()
        wb = run_pieces(b.box)
        why = None
        if wa != wb:
            why = "next_wake %d != %d" % (wa, wb)
        elif a.box.state_name() != b.box.state_name():
            why = "state %s != %s" % (a.box.state_name(), b.box.state_name())
        elif a.port.shows != b.port.shows:
            why = "frames shown %r != %r" % (list(a.port.shows), list(b.port.shows))
        elif a.port.frames != b.port.frames:
            why = "LED frames differ"
        elif a.box.display.bufs != b.box.display.bufs:
            why = "LED buffers differ"
        if why is not None:
            raise MirrorDrift("bench/mp/benchkit.py's copy of Box.step differs from box.py after "
                              "%d iterations: %s" % (i + 1, why))
    return n
