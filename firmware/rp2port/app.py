"""Start-up on the Pico: board file, safe boot, the main loop, error codes.

A broken board file never ends in a traceback loop: the message is printed
on the USB console every few seconds and the box blinks an error code (on
the Pico's own LED, and on the dice as a red X and the code's digit when the
LEDs are known), while the REPL stays reachable for mpremote. (A game's own
files, such as Cheese Master's dice.json, are read by the game when the
table picks it, and a bad one is shown at the joining screen: box.py.)
Whatever stops the box before its game runs gets a code too: its files that
do not load on this MicroPython 6, a state machine or DMA channel it cannot
claim 3 (cannot_start; main.py does the same for this file itself).
Holding ROLL at power-up skips the game (safe boot); holding buzzer 1 at
power-up runs the bring-up self-test first (selftest.py), as does the
console line `selftest` at the joining screen.
"""
import json
import sys
import time

import machine
import micropython
from micropython import const

from cheesebox.board import BoardError, load_board

BOARD_FILE = "board.json"
DEFAULT_ROLL_PIN = 14
WATCHDOG_MS = 8000

# error codes: blinks of the Pico's LED, digit on the dice
ERR_BOARD = 1
ERR_DICE = 2         # a bad dice file (shown at joining by Cheese Master)
ERR_CRASH = 3
ERR_CHIP = 5         # the board file is for the other chip (4: main.py's, MicroPython too old)
ERR_FILES = 6        # the box's own files do not load on this MicroPython (main.py's too)

CHIP_NAMES = {"rp2040": "RP2040 (Pico)", "rp2350": "RP2350 (Pico 2)"}
_SYSINFO_CHIP_ID = const(0x40000000)     # the same address on both chips

# Watchdog registers (RP2040 / RP2350). SCRATCH0 survives a watchdog reset and
# machine.reset() (both read as WDT_RESET on rp2), not a power cut: the main loop
# marks it while the game runs, so only a reset that caught a hung loop resumes
# the saved game at once; `make flash`'s reset (after Ctrl-C) and the crash
# path clear it first and offer the saved game instead.
WATCHDOG_BASE = {"rp2040": 0x40058000, "rp2350": 0x400D8000}
CTRL_ENABLE = 1 << 30
SCRATCH0 = 0x0C
RUNNING = 0x2C8E5E01        # "the game loop was running" (a small int)

_OVERRUN_LOG_MS = const(1000)
_BUSY_MS = const(50)          # a step this long: a collection after it (_run)
_SETTLE_MS = const(5)         # a button's pin after its pull-up is set (roll_held)

_port = None        # the running port: a second main() after Ctrl-C closes it first
_warning = None     # main.py's: the MicroPython is older than the one the box is tested on


def _read_json(path):
    with open(path) as f:
        return json.loads(f.read())


def roll_held(pin):
    """True when the button on `pin` (ROLL, or buzzer 1) is held down at
    power-up: it pulls the pin low. A free pin rises through the pull-up
    (50-80 kOhm inside the chip) and the button's 10 nF: 0.5-0.8 ms a time
    constant, so it reads high well within _SETTLE_MS."""
    p = _pulled_up(pin)
    time.sleep_ms(_SETTLE_MS)
    return p.value() == 0


def _pulled_up(pin):
    """A button's pin, an input with its pull-up (it reads 0 while held)."""
    return machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)


def show_error(code, message, board=None, seconds=None):
    """Print the message and blink the code; forever unless seconds is given."""
    led = machine.Pin("LED", machine.Pin.OUT)
    if board is not None:
        try:
            from cheesebox.display import Display
            from rp2port.port import Rp2Port
            port = Rp2Port(board)
            d = Display(board)
            d.die(0, "cross")
            d.die(1, str(code))
            d.flush(port)
        except Exception as e:          # the LEDs are only a bonus here
            print("cheesebox: cannot show the error on the LEDs:", e)
    start = time.ticks_ms()
    while seconds is None or time.ticks_diff(time.ticks_ms(), start) < seconds * 1000:
        print("cheesebox error %d: %s" % (code, message))
        for _ in range(code):
            led.value(1)
            time.sleep_ms(200)
            led.value(0)
            time.sleep_ms(300)
        time.sleep_ms(2000)


def _board_json():
    """board.json parsed, or the exception reading or parsing it raised: read
    once at power-up, for the safe-boot check and for load() (which says
    what is wrong with it)."""
    try:
        return _read_json(BOARD_FILE)
    except Exception as e:
        return e


def load(board_file=BOARD_FILE, raw=None):
    """The board from the flash (raw: the file as _board_json() gave it);
    shows an error code and stops on a bad file."""
    try:
        if raw is None:
            raw = _read_json(board_file)
        if isinstance(raw, Exception):
            raise raw
        return load_board(raw, board_file)
    except OSError:
        show_error(ERR_BOARD, "%s: missing (copy boards/NAME.json there)" % board_file)
    except BoardError as e:
        show_error(ERR_BOARD, str(e))
    except Exception as e:               # bad JSON, too deep or too big for the heap
        show_error(ERR_BOARD, "%s: is not valid JSON (%s: %s)" % (board_file, type(e).__name__, e))


def this_chip():
    """rp2040 or rp2350: from the name MicroPython's build gives its machine,
    else from SYSINFO's CHIP_ID part number (2: RP2040, 4: RP2350)."""
    name = sys.implementation._machine  # pyright: ignore[reportAttributeAccessIssue]
    for chip in CHIP_NAMES:
        if chip.upper() in name:
            return chip
    return "rp2350" if (machine.mem32[_SYSINFO_CHIP_ID] >> 12) & 0xFFFF == 4 else "rp2040"


def check_chip(board):
    """The Pico and the Pico 2 share a pinout, so a board file for the other
    chip is easily copied on; its register addresses would land on other
    registers (the Pico's watchdog scratch is the Pico 2's PLL_USB: USB gone).
    On a mismatch: error code 5 and nothing else, before any chip register."""
    chip = this_chip()
    if board.mcu != chip:
        show_error(ERR_CHIP, "%s (%s) is for the %s, but this is an %s: put a board file with "
                   "\"mcu\": \"%s\" there (make flash BOARD=..., docs/deploy.md)"
                   % (BOARD_FILE, board.name, CHIP_NAMES[board.mcu], CHIP_NAMES[chip], chip))


def _hung_loop_reset(wd):
    """True when this boot follows a watchdog reset of a running game loop."""
    marked = machine.mem32[wd + SCRATCH0] == RUNNING
    machine.mem32[wd + SCRATCH0] = 0
    return marked and machine.reset_cause() == machine.WDT_RESET


def _stop_watchdog(wd):
    """Ctrl-C: the game stops and so does the watchdog, so the REPL (and a soft
    reset) can take as long as it likes; main() starts it again."""
    machine.mem32[wd + SCRATCH0] = 0
    machine.mem32[wd] = machine.mem32[wd] & ~CTRL_ENABLE


def _safe_boot(raw):
    """True when ROLL is held at power-up (raw: the board file, _board_json(),
    names its pin)."""
    roll_pin = DEFAULT_ROLL_PIN
    try:
        roll_pin = int(raw["roll"])
    except Exception:
        pass                              # load() reports a bad board file
    try:
        return roll_held(roll_pin)
    except Exception:                     # not a usable pin: load() says why
        return roll_held(DEFAULT_ROLL_PIN)


def selftest(port, board, log, box=None):
    """The bring-up self-test (rp2port/selftest.py, loaded for it and dropped
    after); then the box's own picture goes out again."""
    from cheesebox import run_once
    run_once("rp2port.selftest", "run", port, board, log)
    if box is not None:
        bufs = box.display.bufs
        for ci in range(len(bufs)):
            port.show(ci, bufs[ci], 0, len(bufs[ci]))
        port.commit()


def _console(box, port, line):
    """A console line: `selftest` is the port's (it drives the LEDs, the
    piezo and the pins itself), at the joining screen only; the rest the box's."""
    if line.strip() != "selftest":
        box.command(line)
    elif box.state_name() != "join":
        box.log("error", {"what": "the self-test runs at the joining screen only",
                          "state": box.state_name()})
    else:
        selftest(port, box.board, box.log, box)


def _run(box, port):
    """The main loop: step, collect garbage in the shadow of a long step,
    serial commands, sleep until something can happen.

    Collections go where the box is busy anyway: once before the first step,
    after a step that held the loop _BUSY_MS or more (a game picked or
    started, a save: a press then waits for that step already) and when the
    dice start to tumble. A collection takes 17-21 ms on the emulated Pico
    (12-16 ms on the Pico 2), so one that met a press would put it past
    10 ms; and a heap left uncollected after such a step makes every
    allocation search it (a 100-byte bytearray took 320 us after boot, 25 us
    after a collection): that put the first join after boot at 11.7 ms."""
    import gc
    rolling = False
    buttons = port.buttons
    overruns = buttons.overruns
    said = port.ticks_ms()
    gc.collect()                        # start-up's garbage, before any press
    while True:
        began = port.ticks_ms()
        box.step()
        if time.ticks_diff(port.ticks_ms(), began) >= _BUSY_MS:
            gc.collect()
        if buttons.overruns != overruns and \
                time.ticks_diff(port.ticks_ms(), said) >= _OVERRUN_LOG_MS:
            # the ring lapped its reader: presses may be missing (the log says
            # so, at most once a second: a chattering pin laps it every pass)
            overruns = buttons.overruns
            said = port.ticks_ms()
            box.log("overrun", {"count": overruns, "lost": buttons.lost})
        if box.rolling != rolling:
            rolling = box.rolling
            if rolling:
                # collect while the dice tumble (1.5 s): a collection in the
                # middle of the grabs would cost a wheel LED milliseconds
                gc.collect()
        line = port.read_line()
        if line is not None:
            try:
                _console(box, port, line)
            except Exception as e:      # a console line never restarts a game
                box.log("error", {"what": "console command failed", "why": repr(e)})
        port.idle(box.next_wake(), box.confirm_in_us())


def files_unfit(e):
    """True for an exception of a box file this MicroPython cannot load: a
    missing module (ImportError), an .mpy of another .mpy version, sub-version
    or chip (ValueError "incompatible .mpy file" / "incompatible .mpy arch").
    (main.py has the same test, for this file itself.)"""
    return isinstance(e, ImportError) or ".mpy" in str(e)


def cannot_start(e, claiming=False):
    """The box cannot start: error code 6 when its files do not load on this
    MicroPython, else 3 (claiming: while the port claimed its state machines
    and DMA channels); for ever: a restart would only fail again."""
    sys.print_exception(e)
    if files_unfit(e):
        show_error(ERR_FILES, "the box's files do not load on MicroPython %s (%r): make flash "
                   "again (docs/deploy.md)"
                   % (".".join(str(x) for x in sys.implementation.version[:3]), e))
    if claiming:
        show_error(ERR_CRASH, "cannot start: %r while claiming the PIO state machines and DMA "
                   "channels (does a boot.py on the board take them?)" % e)
    show_error(ERR_CRASH, "cannot start: %r" % e)


def _open_port(board, segment):
    """The port: its modules loaded, its state machines and DMA channels claimed."""
    from rp2port.port import Rp2Port
    return Rp2Port(board, segment=segment)


def _new_box(board, port, resume_now):
    """The box on the port, its saves in the flash; what the start-up had to
    say (main.py's untested MicroPython, the LED encoder) in its event log."""
    import os
    import random
    from cheesebox.box import Box
    from cheesebox.events import EventLog
    from cheesebox.save import Store
    store = Store(os)
    box = Box(board, port, random, store=store, log=EventLog(port.write_line),
              resume_now=resume_now)
    if _warning is not None:
        box.log("error", {"what": "untested MicroPython", "why": _warning,
                          "micropython": ".".join(str(x) for x in sys.implementation.version[:3])})
    why = port.leds.wire_error
    if why is not None:
        box.log("error", {"what": "the native LED encoder does not load: the LEDs are encoded "
                          "in bytecode (slower)", "why": why})
    return box


def main(segment=None, warning=None):
    """segment: words each sampler DMA channel moves before the other takes
    over (None: the port's own; a test at the REPL sets it small). warning:
    main.py's, said again in the event log (kept for a main() after Ctrl-C)."""
    global _port, _warning
    micropython.alloc_emergency_exception_buf(100)
    if warning is not None:
        _warning = warning
    if _port is not None:               # main() again after Ctrl-C: free the old one
        _port.close()
        _port = None
    raw = _board_json()
    if _safe_boot(raw):
        print("cheesebox: ROLL held at power-up: safe boot, the game does not start")
        return
    board = load(BOARD_FILE, raw)
    check_chip(board)
    wd = WATCHDOG_BASE[board.mcu]
    resume_now = _hung_loop_reset(wd)
    # buzzer 1 held at power-up: the self-test. Read once the port is open: its
    # pull-up settles meanwhile (the port keeps it; roll_held's sleep, saved)
    buzzer1 = _pulled_up(board.buzzers[0])
    port = None
    box = None
    try:
        # a module that does not load, a DMA channel or state machine already
        # taken: error code 6 or 3 (cannot_start), never a bare traceback
        port = _open_port(board, segment)
        _port = port
        if buzzer1.value() == 0:
            from cheesebox.events import EventLog
            print("cheesebox: buzzer 1 held at power-up: the self-test")
            log = EventLog(port.write_line)
            log.clock = port.ticks_ms  # pyright: ignore[reportAttributeAccessIssue]
            selftest(port, board, log)
        # Ctrl-C (mpremote) may come while the box is still starting: the same
        # clean stop as in the loop
        box = _new_box(board, port, resume_now)
        port.watchdog(WATCHDOG_MS)
        machine.mem32[wd + SCRATCH0] = RUNNING
        port.write_line("cheesebox: %s ready, %d stations" % (board.name, board.stations))
        _run(box, port)
    except KeyboardInterrupt:
        _stop_watchdog(wd)
        if port is not None:
            port.close()
        _port = None
        print("cheesebox: stopped (Ctrl-C); the watchdog is off until the game runs again")
        raise
    except Exception as e:
        machine.mem32[wd + SCRATCH0] = 0
        if box is None:
            cannot_start(e, port is None)   # the box cannot even start: a restart would only fail again
        sys.print_exception(e)
        show_error(ERR_CRASH, "crashed: %r; restarting" % e, None, seconds=5)
        machine.reset()
