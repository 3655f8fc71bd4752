"""The Cheese Box: started by MicroPython at power-up.

Hold ROLL while powering up to skip the game (safe boot) and keep the REPL
free for mpremote.

Deployed as source, so it runs on any MicroPython: it checks the version
before importing the box's .mpy files, and a MicroPython older than the one
the box is tested on gets error code 4 (4 blinks of the Pico's LED, and the
message on the USB console, docs/deploy.md) instead of "incompatible .mpy
file" or a DMA set up with another chip's bit positions.
"""
import sys

TESTED = (1, 28, 0)         # the MicroPython the box is tested on (docs/deploy.md)
ERR_MICROPYTHON = 4


def too_old(version):
    """True for a MicroPython older than TESTED (version: sys.implementation.version)."""
    return tuple(version[:3]) < TESTED


def refuse(version):
    """Say so and blink the code for ever; the REPL stays reachable (Ctrl-C)."""
    import time
    import machine
    led = machine.Pin("LED", machine.Pin.OUT)
    have = ".".join(str(x) for x in version[:3])
    need = ".".join(str(x) for x in TESTED)
    while True:
        print("cheesebox error %d: MicroPython %s is older than %s, the version the box is "
              "tested on: install MicroPython %s or newer (docs/deploy.md), then make flash"
              % (ERR_MICROPYTHON, have, need, need))
        for _ in range(ERR_MICROPYTHON):
            led.value(1)
            time.sleep_ms(200)
            led.value(0)
            time.sleep_ms(300)
        time.sleep_ms(2000)


if sys.implementation.name == "micropython":     # (the host's tests import it to check too_old)
    if too_old(sys.implementation.version):
        refuse(sys.implementation.version)
    from rp2port.app import main
    main()
