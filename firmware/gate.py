"""The version gate and the start-up failures main.py hands over: loaded
only then, so the Pico does not compile it at every power-up.

Source, like main.py, so it runs on any MicroPython: it checks the version
before importing the box's .mpy files. Below the oldest MicroPython the box
runs on for this chip (main.py's FLOOR) it blinks error code 4 (4 blinks of
the Pico's LED, and the message on the USB console, docs/deploy.md) instead
of "incompatible .mpy file" or a DMA the MicroPython does not have; from
there up to the version the box is tested on (main.py's TESTED) it says so
on the console and in the event log, and runs. The box's own files that do
not load here (an .mpy of another version or chip, a missing one) blink
error code 6.

Why the floors (docs/deploy.md cites the release notes): v1.23.0 added
rp2.DMA (written to a state machine's TX FIFO with write=sm) and loads the
native LED encoder (.mpy 6.3); v1.24.0 added the RP2350.
"""
import sys

CHIP_NAMES = {"rp2040": "RP2040 (Pico)", "rp2350": "RP2350 (Pico 2)"}
ERR_CRASH = 3               # rp2port/app.py's: the box cannot start
ERR_MICROPYTHON = 4
ERR_FILES = 6               # rp2port/app.py's too: the box's files do not load here


def dotted(version):
    return ".".join(str(x) for x in version[:3])


def floor_of(chip, floor):
    """The oldest MicroPython for chip (rp2040, rp2350) in floor (main.py's
    FLOOR); an unknown chip the highest."""
    return floor.get(chip) or max(floor.values())


def verdict(version, chip, tested, floor):
    """What the box does on MicroPython `version` (sys.implementation.version)
    on `chip`: "refuse" below the chip's floor, "warn" from there up to
    `tested` (it runs, untested), "run" on `tested` or newer."""
    v = tuple(version[:3])
    if v < floor_of(chip, floor):
        return "refuse"
    return "warn" if v < tested else "run"


def refusal(version, chip, tested, floor):
    """The error 4 message."""
    need = floor_of(chip, floor)
    return ("MicroPython %s is older than %s, the oldest the box runs on %s: install MicroPython "
            "%s or newer (docs/deploy.md), then make flash"
            % (dotted(version), dotted(need), "an " + CHIP_NAMES[chip] if chip in CHIP_NAMES
               else "this chip", dotted(max(need, tested))))


def untested(version, tested):
    """The warning from the floor up to `tested`."""
    return ("MicroPython %s is older than %s, the version the box is tested on: the box runs, "
            "untested; install MicroPython %s or newer (docs/deploy.md), then make flash"
            % (dotted(version), dotted(tested), dotted(tested)))


def files_unfit(e):
    """True for an exception of a box file this MicroPython cannot load: a
    missing module (ImportError), an .mpy of another .mpy version, sub-version
    or chip (ValueError "incompatible .mpy file" / "incompatible .mpy arch")."""
    return isinstance(e, ImportError) or ".mpy" in str(e)


def chip_of(machine_name, board_mcu=None):
    """rp2040 or rp2350 from the name MicroPython gives the machine, else the
    board file's "mcu", else None."""
    for chip in CHIP_NAMES:
        if chip.upper() in machine_name:
            return chip
    return board_mcu if board_mcu in CHIP_NAMES else None


def this_chip():
    import os
    try:
        name = os.uname().machine
    except Exception:
        name = ""
    mcu = None
    if chip_of(name) is None:
        try:
            import json
            with open("board.json") as f:
                mcu = json.loads(f.read()).get("mcu")
        except Exception:
            pass
    return chip_of(name, mcu)


def blink(code, message):
    """Say so and blink the code for ever; the REPL stays reachable (Ctrl-C).
    rp2port/app.py's show_error blinks the same way, but this runs where the
    box's own modules may not load, so it imports nothing of theirs."""
    import time
    import machine
    led = machine.Pin("LED", machine.Pin.OUT)
    while True:
        print("cheesebox error %d: %s" % (code, message))
        for _ in range(code):
            led.value(1)
            time.sleep_ms(200)
            led.value(0)
            time.sleep_ms(300)
        time.sleep_ms(2000)


def refuse(version, chip, tested, floor):
    """Error code 4 for ever: MicroPython older than the chip's floor."""
    blink(ERR_MICROPYTHON, refusal(version, chip, tested, floor))


def cannot_start(version, e):
    """Error code 6 (the box's files do not load here) or 3, for ever."""
    sys.print_exception(e)
    if files_unfit(e):
        blink(ERR_FILES, "the box's files do not load on MicroPython %s (%r): make flash "
              "again (docs/deploy.md)" % (dotted(version), e))
    blink(ERR_CRASH, "cannot start: %r" % e)


def start(tested, floor):
    """main.py's start on a MicroPython older than `tested` (or than a
    floor): refused with error code 4 below the chip's floor, else the box
    runs and says it is untested (the console now, the event log after the
    boot event)."""
    version = sys.implementation.version
    chip = this_chip()
    v = verdict(version, chip, tested, floor)
    if v == "refuse":
        refuse(version, chip, tested, floor)
    warning = untested(version, tested) if v == "warn" else None
    if warning is not None:
        print("cheesebox: " + warning)
    try:
        from rp2port.app import main
        if warning is None:
            main()
        else:
            main(warning=warning)
    except Exception as e:              # its .mpy (or one it imports) does not load; outside app.main's guard
        cannot_start(version, e)
