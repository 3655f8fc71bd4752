"""The emulated Pico from Python: starts emu/server.mjs and talks to it.

The official MicroPython rp2 firmware runs on rp2040js (the Pico, chip
"rp2040") or on rp2350js (the Pico 2, chip "rp2350", emu/rp2350/); both speak
one control protocol, so everything above this serves both. This client presses
pins, types on the USB serial console, moves emulated time and reads the LED
chains off their wires. Tests, `make emu` and the bench use it; nothing here
knows the game: everything goes through pins and the serial port, as on a table.
"""
import json
import os
import shutil
import subprocess

from host_tools.deploy.micropython_files import (  # noqa: F401  (emu's tools import them from here)
    SHARED, CACHE, CHIPS, EmulatorMissing, firmware_and_bootrom, package, _missing, locate_firmware)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LED_GPIO = 25          # the Pico's own LED


def locate(chip="rp2040"):
    """(firmware, bootrom) paths of that chip, as firmware_and_bootrom() finds
    them, with Node and the chip's emulator package (CHIPS: emu/node_modules/rp2040js,
    emu/rp2350/node_modules/rp2350js). Raises EmulatorMissing with one clear
    sentence."""
    c = CHIPS[chip]
    fw, rom = firmware_and_bootrom(chip)
    missing = [p for p in (fw, rom) if not os.path.isfile(p)]
    if missing:
        raise _missing(missing, chip)
    if shutil.which("node") is None:
        raise EmulatorMissing("emulated %s: node (Node.js 20) is not installed, see docs/emulator.md"
                              % c["name"])
    where = os.path.join(HERE, c["node_modules"])
    if not os.path.isdir(os.path.join(where, c["emulator"])):
        raise EmulatorMissing(_not_installed(chip))
    return fw, rom


def _not_installed(chip):
    """The sentence for a chip whose emulator package is not installed."""
    c = CHIPS[chip]
    if not c["package"]:
        return ("emulated %s: emu/%s is missing: run `make emu-deps` (npm ci in emu/)"
                % (c["name"], c["node_modules"]))
    return ("emulated %s: %s is not installed in emu/%s: run `make emu-deps` (it installs %s; "
            "without it, `make emu-firmware` builds one; see docs/emulator.md)"
            % (c["name"], c["emulator"], c["node_modules"], package(chip)))


def chip_of(board_name):
    """The chip a board file names (its "mcu": rp2040 or rp2350)."""
    with open(os.path.join(ROOT, "boards", board_name + ".json"), encoding="utf-8") as f:
        return json.load(f).get("mcu", "rp2040")


class EmuError(Exception):
    pass


class EmulatedPico:
    """One emulated Pico (one Node process). Times are emulated nanoseconds
    since its first power-on unless a name says ms."""

    def __init__(self, flash=None, serial_port=None, verbose=False, chip="rp2040", flash_times=None):
        fw, rom = locate(chip)
        self.chip = chip
        cmd = ["node", os.path.join(HERE, "server.mjs"), "--chip", chip, "--bootrom", rom]
        cmd += ["--flash", flash] if flash else ["--firmware", fw]
        if flash_times is not None:             # "typical" (default) or "max": W25Q16JV datasheet
            cmd += ["--flash-times", flash_times]
        if serial_port is not None:
            cmd += ["--serial-port", str(serial_port)]
        if verbose:
            cmd.append("--verbose")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=None if verbose else subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self._id = 0
        self.nanos = 0
        self.serial = ""          # everything read from the serial port so far

    # -- protocol ---------------------------------------------------------------
    def call(self, cmd, **kw):
        self._id += 1
        kw["cmd"] = cmd
        kw["id"] = self._id
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(kw) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise EmuError("the emulator process ended (exit %s)" % self.proc.poll())
        res = json.loads(line)
        if "error" in res:
            raise EmuError(res["error"])
        self.nanos = res.get("nanos", self.nanos)
        return res

    def close(self):
        if self.proc.poll() is None:
            try:
                self.call("quit")
            except (EmuError, OSError, ValueError):
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- time and serial ----------------------------------------------------------
    @property
    def ms(self):
        return self.nanos / 1e6

    def run(self, ms):
        """Let ms of emulated time pass; True if a power cut armed by cut_after() fell."""
        return self.call("run", ms=ms)["cut"]

    def read(self):
        """Serial output since the last read (also appended to self.serial)."""
        out = self.call("read")["out"]
        self.serial += out
        return out

    def wait_for(self, text, ms=10000):
        """Run until text appears on the serial port (after what was read);
        returns the output read, raises EmuError on a time-out."""
        r = self.call("run_until", text=text, ms=ms)
        out = self.read()
        if not r["found"]:
            raise EmuError("no %r on the serial port within %d ms (cut: %s); got: %r"
                           % (text, ms, r["cut"], out[-600:]))
        return out

    def send(self, text):
        self.call("send", data=text)

    # -- pins -----------------------------------------------------------------------
    def drive(self, gpio, level):
        """Drive a pin now: 0, 1, or None (let go: pull-ups apply)."""
        self.call("drive", pins=[[gpio, level]])

    def schedule(self, pins=(), keys=(), dials=()):
        """pins: (nanos, gpio, level|None); keys: (nanos, station, mask); dials:
        (nanos, station, position, turn_ms|None): at those absolute emulated
        times, exact to the instruction."""
        self.call("schedule", pins=[list(p) for p in pins], keys=[list(k) for k in keys],
                  dials=[list(d) for d in dials])

    def hc165(self, load, clock, data, chips):
        self.call("hc165", load=load, clock=clock, data=data, chips=chips)

    def keys(self, station, mask):
        self.call("keys", station=station, mask=mask)

    def mux4051(self, adc, select, stations, ladder="per-dial"):
        """The dials: a 4051 on select pins (A, B, C) into ADC pin adc, each
        station's dial on channel Y(station), with its own resistor ladder
        ("per-dial") or all on one ("shared", the wiring first drawn)."""
        self.call("mux4051", adc=adc, select=list(select), stations=stations, ladder=ladder)

    def dial(self, station, position, turn_ms=None):
        """Station turns its dial to position (0-7) now, taking turn_ms
        (default 1.5 ms a position passed)."""
        self.call("dial", station=station, position=position, turn_ms=turn_ms)

    def dials(self):
        """{positions (fractional while turning), channel, com (fraction of 3.3 V), reads}."""
        return self.call("dials")

    def watch_chains(self, gpios):
        self.call("ws2812", gpios=list(gpios))

    def frames(self, gpio, since=0, pixels=None, last=False):
        """(count, frames) decoded on that pin; a frame is {start, end, hex,
        pixel_ends (for the pixel indices asked)}."""
        r = self.call("frames", gpio=gpio, since=since, pixels=pixels, last=last)
        return r["count"], r["frames"]

    def writing_since(self, gpio):
        """Start (ns) of the frame going out on that pin right now, or -1."""
        return self.call("frames", gpio=gpio, since=10 ** 9)["writing_since"]

    def watch(self, gpio):
        self.call("watch", gpio=gpio)

    def watch_tone(self, gpio):
        """Follow the pitch the PWM drives on gpio (the piezo) from now on."""
        self.call("watch_tone", gpio=gpio)

    def tones(self, since=0):
        """[(emulated ns, Hz)] of the piezo since entry `since` (0 Hz: silent)."""
        return [tuple(x) for x in self.call("tones", since=since)["tones"]]

    def edges(self, gpio, since=0):
        return self.call("edges", gpio=gpio, since=since)["edges"]

    # -- power ----------------------------------------------------------------------
    def power_cycle(self):
        self.call("power_cycle")

    def cut_after(self, flash_ops):
        """Cut the power right after the n-th flash erase/program from now; the
        Pico then powers up again from the flash as that operation left it."""
        self.call("arm_cut", after_ops=flash_ops)

    def press_on_flash(self, flash_ops, gpio, hold_ms=60):
        """Press (pull low) gpio right after the n-th flash erase/program from
        now, while the chip is writing its flash; let go hold_ms later."""
        self.call("press_on_flash", after_ops=flash_ops, gpio=gpio, hold_ms=hold_ms)

    def pins_on_flash(self, flash_ops, pins, kind=None, at="end", keys=()):
        """pins: (nanos from the n-th flash operation from now, gpio,
        level|None): fingers that move while the chip writes its flash. kind:
        count only "erase" or "program" operations; at: "start" (the fingers
        move during that operation, the CPU held) or "end". keys: (nanos
        from it, station, mask): the 74HC165 answer keys held down then."""
        self.call("pins_on_flash", after_ops=flash_ops, pins=[list(p) for p in pins],
                  kind=kind, at=at, keys=[list(k) for k in keys])

    def fingers_armed(self):
        """pins_on_flash's fingers still wait for their flash operation."""
        return self.call("fingers_armed")["armed"]

    def flash_log(self, since=0):
        """(count, [[nanos, 'erase'|'program', addr, bytes], ...]) since index since."""
        r = self.call("flash_log", since=since)
        return r["count"], r["ops"]

    def host_reads(self, on):
        """False: the PC holds the serial port open and stops reading it."""
        self.call("host_reads", on=on)

    def flash_times(self, preset=None, erase_ms=None, page_ms=None):
        """Erase/program times from now: preset "typical" (45 ms a 4 KiB erase,
        0.4 ms a page) or "max" (400 ms, 3 ms: the W25Q16JV datasheet's
        maximum), or given in ms. Returns (erase_ms, page_ms)."""
        r = self.call("flash_times", preset=preset, erase_ms=erase_ms, page_ms=page_ms)
        return r["erase_ms"], r["page_ms"]

    def chatter(self, gpio, half_us, ms):
        """The pin chatters (a loose wire): low, released, every half_us, for ms."""
        self.call("chatter", gpio=gpio, half_us=half_us, ms=ms)

    def hang(self, ms):
        """The program hangs for ms: the core stops doing anything useful while
        time, the PIO, the DMA and the watchdog go on."""
        self.call("hang", ms=ms)

    def save_flash(self, path):
        self.call("save_flash", path=path)

    def serve(self, port=0, pace=1.0):
        """Open the USB serial port as socket://127.0.0.1:PORT and run freely
        (pace: emulated s per wall s at most; 0: as fast as it goes)."""
        return self.call("serve", port=port, pace=pace)["port"]

    def free(self, on, pace=0.0):
        self.call("free", on=on, pace=pace)

    def stats(self):
        return self.call("stats")
