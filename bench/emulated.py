"""Figures of the real firmware on the emulated RP2040 (125 MHz), for `make bench`.

Emulated time, so they are stable from run to run (docs/emulator.md says where
a real chip differs). Everything is read through pins and the serial port,
except the main-loop cost, timed by the firmware itself in the REPL after
Ctrl-C.
"""
import os
import re
import statistics
import time

from emu import deploy
from emu import latency
from emu.latency import wheel_latency_ns
from emu.table import MS, EmuTable

LOOP_CODE = """
import time, random, gc
gc.collect()
from rp2port.app import load
from cheesebox.box import Box
from rp2port.port import Rp2Port
board = load()
port = Rp2Port(board)
box = Box(board, port, random)
# 2 s of steps first (the power-up tune, the first frames), then a collection:
# the figure is the idle loop's, not the start's (the first 100 steps took
# 4.6 ms each on average, the idle loop 0.6-0.75 ms)
w = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), w) < 2000:
    box.step()
gc.collect()
N = 100
t0 = time.ticks_us()
for i in range(N):
    box.step()
    port.read_line()
    w = box.next_wake()
t1 = time.ticks_us()
print("LOOP_US", time.ticks_diff(t1, t0) / N)
port.close()
"""


def _main_builtins():
    """main.py's BUILTINS (the built-in modules it keeps before the box's imports)."""
    import ast
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware", "main.py")
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "BUILTINS":
            return ast.literal_eval(node.value)
    raise RuntimeError("firmware/main.py has no BUILTINS")


# Where the boot goes, timed by the firmware after a soft reset (a fresh heap,
# nothing imported: main.py is not run from the raw REPL), step by step as
# rp2port/app.py main() takes them; the roll_held check's 5 ms settle included.
BOOT_PARTS_CODE = """
import sys
for name in %r:                 # as main.py does first (keep_builtins)
    sys.modules[name] = __import__("u" + name)
import time
T = [time.ticks_us()]
import json, sys, machine, micropython
from cheesebox.board import BoardError, load_board
import rp2port.app as app
T.append(time.ticks_us())
raw = app._board_json()
held = app._safe_boot(raw)
T.append(time.ticks_us())
board = app.load(app.BOARD_FILE, raw)
T.append(time.ticks_us())
import os, random
from cheesebox.box import Box
from cheesebox.events import EventLog
from cheesebox.save import Store
from rp2port.port import Rp2Port
T.append(time.ticks_us())
port = Rp2Port(board)
T.append(time.ticks_us())
box = Box(board, port, random, store=Store(os), log=EventLog(port.write_line))
T.append(time.ticks_us())
box.step()
T.append(time.ticks_us())
print("BOOT_US", " ".join(str(time.ticks_diff(T[i + 1], T[i])) for i in range(len(T) - 1)))
port.close()
""" % (_main_builtins(),)
BOOT_PARTS = ("import rp2port.app (json, machine, board.py)",
              "board.json read, safe-boot check (ROLL pin, 5 ms settle)", "board file checked",
              "import box, events, save, port (and what they import)", "Rp2Port(board): PIO, DMA, LEDs",
              "Box(...): the shell, Cheese Master's joining screen, the first frame", "first step()")


def _boot_parts(board):
    """Microseconds of each boot step (BOOT_PARTS), on the emulated chip."""
    img = deploy.image(board)
    with EmuTable(board, flash=img) as t:
        t.boot(5000)
        t.run(200)
        t.pico.send("\r\x03\x03\x01")
        t.pico.wait_for("raw REPL; CTRL-B to exit\r\n>", 5000)
        t.pico.send("\x04")                      # soft reset: a fresh heap
        t.pico.wait_for("soft reboot", 5000)
        t.pico.wait_for(">", 5000)
        out, err = t.exec_raw(BOOT_PARTS_CODE, ms=20000)
    m = re.search(r"BOOT_US ([0-9 ]+)", out)
    if not m:
        raise RuntimeError("boot parts not timed: %s" % ((err.strip().splitlines() or ["?"])[-1],))
    return dict(zip(BOOT_PARTS, [int(x) for x in m.group(1).split()]))


def _boot(board, keep_py):
    img = deploy.image(board, keep_py)
    with EmuTable(board, flash=img) as t:
        # from .py the Pico compiles every module first: over 3 s emulated
        boot = t.boot(15000)
        t.run(400)
        _, dice = t.frames(0)
        # the joining screen: the dice chain written (dark until players join)
        return {"boot_event_ms": boot["t"],
                "joining_shown_ms": round(dice[0]["end"] / 1e6, 1) if dice else None}


def _deploy_wall(board):
    img = deploy.image(board)
    text = open(img + ".log").read()
    m = re.search(r"flash wall ([0-9.]+) s", text)
    return float(m.group(1)) if m else None


def _game(log, board="pico-8p"):
    """An 8-player game (pico-8p: answer keys; pico2-8p: dials): every grab's
    wheel-LED latency, the heap (console `state` every half second), LED
    frame times, the main loop."""
    img = deploy.image(board)
    lat = []
    free = []
    with EmuTable(board, flash=img) as t:
        dials = t.board.plates == "dial"
        t.boot()
        t.run(300)

        def heap():
            n = len(t.events)
            t.pico.send("state\r\n")
            ev = t.wait_event("state", 1000, since=n)
            if ev.get("free") is not None:
                free.append(ev["free"])
        heap()
        after_boot = free[-1] if free else None
        for s in range(8):
            t.press(s)
        t.press("roll")
        t.press("roll")
        t.wait_event("game", 1000)
        for rnd in range(3):
            n = len(t.events)
            t.press("roll")
            t.wait_event("faces", 3000, since=n)
            heap()
            for s in range(7):
                if dials:
                    t.place(s, 1 + (s + rnd) % 7)
                else:
                    t.key(s, 3)
                t.run(30)
                at = t.pico.nanos + MS
                c0, _ = t.frames(1)
                t.press_at(s, at)
                t.run(150)
                d = wheel_latency_ns(t, s, at, since=c0)
                if d is not None:
                    lat.append(d / 1000.0)
            heap()
            t.run(2500)
            heap()
        frame_us = {}
        for ci, c in enumerate(t.board.chains):
            _, fr = t.frames(ci)
            if fr:
                frame_us[c.name] = round(statistics.median(f["end"] - f["start"] for f in fr) / 1000, 1)
        t.pico.send("\x03")
        t.run(300)
        out, err = t.exec_raw(LOOP_CODE, ms=20000)
        m = re.search(r"LOOP_US ([0-9.]+)", out)
        loop_us = float(m.group(1)) if m else None
        if loop_us is None:
            log("  main loop not timed: %s" % (err.strip().splitlines() or ["?"])[-1])
    return {"latency_us": lat, "heap_free_after_boot": after_boot,
            "heap_free_min": min(free) if free else None, "frame_us": frame_us,
            "loop_us": loop_us}


def _cheesonomics():
    """Heap free beside a Cheesonomics game (5 players, advanced: the biggest
    bank) on pico-8p, after two turns, from the console's `state`."""
    img = deploy.image("pico-8p")
    with EmuTable("pico-8p", flash=img) as t:
        t.boot()
        t.press("roll", hold_ms=2500)
        for s in range(5):
            t.press(s)
        t.press("roll")
        t.press(0)                      # advanced
        t.press("roll")
        market = t.wait_event("market", 5000)
        for _ in range(3):              # the market layout, sector by sector
            t.press("roll")
        first = int(market["first"][1:]) - 1
        for s in (first, (first + 1) % 5):
            since = len(t.events)
            for v in (3, 3):            # produce 3: a key a value, then the buzzer
                t.key(s, v)
                t.run(90)
            t.press(s)
            t.wait_event("action", 5000, since=since)
        since = len(t.events)
        t.pico.send("state\r\n")
        return t.wait_event("state", 3000, since=since)["free"]


def _idle_speed():
    img = deploy.image("pico-4p")
    with EmuTable("pico-4p", flash=img) as t:
        t.boot()
        t.run(500)
        w = time.monotonic()
        t.run(20000)
        return 20.0 / (time.monotonic() - w)


def _speed_per_state():
    """Emulated s per wall s in each state of a Cheese Master round on
    pico-4p (3 players): joining, the tumble, the grabs waited for, the
    check (the count alternating with the faces). Wall time: it depends on
    this machine and its load (the bench prints the load average beside it)."""
    img = deploy.image("pico-4p")
    out = {}
    with EmuTable("pico-4p", flash=img) as t:
        t.boot()

        def timed(name, ms):
            w = time.monotonic()
            t.run(ms)
            out[name] = round(ms / 1000.0 / (time.monotonic() - w), 2)
        for s in range(3):
            t.press(s)
        timed("joining (3 joined)", 3000)
        t.press("roll")
        t.press("roll")
        t.wait_event("game", 2000)
        n = len(t.events)
        t.press("roll")
        timed("rolling (the tumble)", 1300)
        t.wait_event("faces", 2000, since=n)
        timed("grab (faces up, nobody pressing)", 2000)
        t.press(0)
        t.press(1)                      # the 2nd wheel: the check
        timed("check (count and faces alternating)", 3000)
    return out


def figures(log=print):
    R = {}
    log("  boot to the joining screen (.mpy, .py)")
    R["boot_mpy"] = _boot("pico-4p", False)
    R["boot_py"] = _boot("pico-4p", True)
    R["flash_wall_s"] = {"pico-4p": _deploy_wall("pico-4p"), "pico-8p": _deploy_wall("pico-8p")}
    log("  an 8-player game: buzz to wheel LED, heap, frames, main loop")
    R["game"] = _game(log)
    log("  Cheesonomics on pico-8p: heap beside the market and bank")
    R["cheesonomics_free"] = _cheesonomics()
    R["idle_speed_x"] = round(_idle_speed(), 1)
    from emu.pico import EmulatorMissing, locate
    try:
        locate("rp2350")
        boards = ("pico-4p", "pico-8p", "pico2-8p")
    except EmulatorMissing as e:
        R["rp2350"] = {"skipped": str(e)}
        boards = ("pico-4p", "pico-8p")
    log("  every press kind, pin edge to its LED on the wire (%s)" % ", ".join(boards))
    R["press_ms"] = latency.measure(boards)
    if "pico2-8p" in boards:
        log("  the Pico 2 (pico2-8p, emulated RP2350): boot, an 8-player game with dials")
        R["rp2350"] = {"boot_mpy": _boot("pico2-8p", False), "game": _game(log, "pico2-8p"),
                       "boot_parts_us": _boot_parts("pico2-8p")}
    log("  the emulator's speed per state (pico-4p)")
    R["speed_per_state"] = _speed_per_state()
    R["load_avg"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    log("  where the boot goes (pico-4p, .mpy; pico2-8p's above)")
    R["boot_parts_us"] = _boot_parts("pico-4p")
    return R


def press_rows(press_ms):
    """One row per board and press kind: max and median, against the bound."""
    out = []
    for board, kinds in press_ms.items():
        for kind, ms in latency.kinds_of(kinds).items():
            s = latency.summary(ms)
            out.append(("  %s %s" % (board, kind), "max %s ms, median %s ms, n=%d%s%s"
                        % (s["max_ms"], s["median_ms"], s["n"],
                           ", %d lit nothing" % s["unlit"] if s["unlit"] else "",
                           "" if s["max_ms"] is not None and s["max_ms"] <= latency.BOUND_MS
                           else "  OVER %g ms" % latency.BOUND_MS)))
        if "_switch_ms" in kinds:
            out.append(("  %s game switch (long ROLL fires -> pick event)" % board,
                        "%.0f ms (a press meanwhile waits for it)" % kinds["_switch_ms"][0]))
    return out


def rows(R):
    g = R["game"]
    lat = g["latency_us"]
    out = [("6 EMULATED PICO", "official MicroPython 1.28 rp2 firmware on rp2040js, 125 MHz, emulated time")]
    out.append(("power-on to the joining screen on the LEDs (.mpy)", "%s ms (boot event at %s ms)"
                % (R["boot_mpy"]["joining_shown_ms"], R["boot_mpy"]["boot_event_ms"])))
    out.append(("power-on to the joining screen on the LEDs (.py)", "%s ms (boot event at %s ms)"
                % (R["boot_py"]["joining_shown_ms"], R["boot_py"]["boot_event_ms"])))
    if lat:
        out.append(("buzz pin edge to wheel LED on the wire", "max %.0f us, median %.0f us, n=%d (pico-8p, 8 players)"
                    % (max(lat), statistics.median(lat), len(lat))))
    if "press_ms" in R:
        out.append(("press pin edge to its LED on the wire (bound %g ms)" % latency.BOUND_MS, ""))
        out += press_rows(R["press_ms"])
    if "boot_parts_us" in R:
        out += boot_part_rows(R["boot_parts_us"], "pico-4p")
    out.append(("main loop: step + read_line + next_wake, idle", "%s us" % g["loop_us"]))
    out.append(("LED frame on the wire, per chain", ", ".join("%s %s us" % kv for kv in g["frame_us"].items())))
    out.append(("heap free after boot (gc.collect, gc.mem_free)", "%s B" % g["heap_free_after_boot"]))
    out.append(("heap free, minimum over the game (after collections)", "%s B" % g["heap_free_min"]))
    out.append(("heap free in a Cheesonomics game (5 players, advanced)", "%s B" % R["cheesonomics_free"]))
    out.append(("make flash to the emulated Pico (wall)", ", ".join("%s %.0f s" % (k, v) for k, v in
                                                                  R["flash_wall_s"].items() if v)))
    out.append(("emulator speed, idle box", "%sx real time" % R["idle_speed_x"]))
    if "rp2350" in R:
        out += rp2350_rows(R["rp2350"])
    if "speed_per_state" in R:
        out.append(("emulator speed per state (pico-4p, 3 players)",
                    "emulated s / wall s, load average %s" % R.get("load_avg")))
        out += [("  " + k, "%sx" % v) for k, v in R["speed_per_state"].items()]
    return out



def rp2350_rows(P):
    """The Pico 2's own figures (its press kinds are in the press rows)."""
    if "skipped" in P:
        return [("6b EMULATED PICO 2", "skipped: " + P["skipped"])]
    g = P["game"]
    lat = g["latency_us"]
    out = [("6b EMULATED PICO 2", "official MicroPython 1.28 RPI_PICO2 firmware on rp2350js, 150 MHz, emulated time")]
    out.append(("power-on to the joining screen on the LEDs (pico2-8p, .mpy)", "%s ms (boot event at %s ms)"
                % (P["boot_mpy"]["joining_shown_ms"], P["boot_mpy"]["boot_event_ms"])))
    if lat:
        out.append(("buzz pin edge to wheel LED on the wire",
                    "max %.0f us, median %.0f us, n=%d (pico2-8p, 8 players, dials)"
                    % (max(lat), statistics.median(lat), len(lat))))
    if "boot_parts_us" in P:
        out += boot_part_rows(P["boot_parts_us"], "pico2-8p")
    out.append(("main loop: step + read_line + next_wake, idle", "%s us" % g["loop_us"]))
    out.append(("heap free after boot (gc.collect, gc.mem_free)", "%s B" % g["heap_free_after_boot"]))
    out.append(("heap free, minimum over the game (after collections)", "%s B" % g["heap_free_min"]))
    return out


def boot_part_rows(parts, board):
    """Where the boot goes on one board, step by step (BOOT_PARTS)."""
    return ([("where the boot goes (%s .mpy, after a soft reset)" % board,
              "%.0f ms in all" % (sum(parts.values()) / 1000))]
            + [("  " + k, "%.1f ms" % (v / 1000)) for k, v in parts.items()])


def smoke(log=print):
    """The smallest run for `bench.py --smoke`: power up pico-8p from its flash
    image (built on the host in about a second), read the console `state`
    once (the heap free after boot) and time one join."""
    img = deploy.image("pico-8p")
    with EmuTable("pico-8p", flash=img) as t:
        boot = t.boot()
        t.run(300)
        since = len(t.events)
        t.pico.send("state\r\n")
        ev = t.wait_event("state", 1000, since=since)
        r = latency.Recorder(t)
        r.press("join", 0)              # one press kind of the full run
    return {"smoke": "boot", "boot_event_ms": boot["t"], "heap_free_after_boot": ev.get("free"),
            "join_ms": r.ms["join"][0]}


def smoke_figure(R):
    """The one figure the smoke checks (positive)."""
    return R.get("heap_free_after_boot") if R.get("join_ms") else None


def smoke_rows(R):
    return [("6 EMULATED PICO (smoke: boot from a host-built flash image + one heap reading)",
             "official MicroPython 1.28 rp2 firmware on rp2040js, 125 MHz, emulated time"),
            ("boot event (pico-8p, .mpy)", "%s ms" % R["boot_event_ms"]),
            ("heap free after boot (gc.collect, gc.mem_free)", "%s B" % R["heap_free_after_boot"]),
            ("a join: pin edge to its track on the wire", "%s ms" % R["join_ms"])]
