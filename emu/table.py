"""A table around the emulated Pico: buzzers, ROLL, answer keys, dials, the event log.

Fingers press pins (a press pulls the pin low; let go, the Pico's pull-up
takes it high again), 74HC165 answer keys are held down, dials are turned
(a 4051 into the ADC, mux4051.mjs), and what the box
says comes back as the JSON event lines on its USB serial port. The board
file says which pin is which, exactly as it tells the firmware.
"""
import json
import os

from cheesebox.board import read_board    # the firmware's own board check
from emu.pico import LED_GPIO, ROOT, EmulatedPico

MS = 1000000          # ns


class EmuTable:
    """The box (an EmulatedPico booted from `flash`) with a board's wiring."""

    def __init__(self, board_name, flash=None, pico=None, chip=None):
        self.board = read_board(os.path.join(ROOT, "boards", board_name + ".json"))
        b = self.board
        # the board file's "mcu" says which chip: the Pico (rp2040) or the Pico 2
        # (rp2350); `chip` another (a board file for the other chip on a box)
        self.pico = pico if pico is not None else EmulatedPico(flash=flash, chip=chip or b.mcu)
        self.chain_pins = [c.pin for c in b.chains]
        self.pico.watch_chains(self.chain_pins)
        self.pico.watch(LED_GPIO)
        if b.plates == "keys":
            a = b.answers
            self.pico.hc165(a["load"], a["clock"], a["data"], b.stations)
        elif b.plates == "dial":
            a = b.answers
            self.pico.mux4051(a["adc"], (a["s0"], a["s1"], a["s2"]), b.stations)
        self.events = []          # parsed event-log lines
        self.lines = []           # every serial line
        self._partial = ""
        self.keys_down = [0] * 8

    def close(self):
        self.pico.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- pins ------------------------------------------------------------------------
    def pin_of(self, who):
        """GPIO of a station (0-7) or 'roll'."""
        return self.board.roll_pin if who == "roll" else self.board.buzzers[who]

    def press_at(self, who, t_ns, hold_ms=60):
        g = self.pin_of(who)
        self.pico.schedule(pins=[(t_ns, g, 0), (t_ns + int(hold_ms * MS), g, None)])

    def press(self, who, hold_ms=60, gap_ms=40):
        """A clean press now, then run until the command is over."""
        self.press_at(who, self.pico.nanos + 1000, hold_ms)
        self.run(hold_ms + gap_ms)

    def key(self, station, k, hold_ms=60, at_ns=None):
        """Answer key k of a station pressed (held hold_ms) from at_ns (default: now)."""
        t = self.pico.nanos + 1000 if at_ns is None else at_ns
        self.pico.schedule(keys=[(t, station, 1 << k), (t + int(hold_ms * MS), station, 0)])

    def dial(self, station, k, at_ns=None, turn_ms=None):
        """Station turns its dial to position k from at_ns (default: now),
        passing every position in between (turn_ms: default 1.5 ms a position)."""
        t = self.pico.nanos + 1000 if at_ns is None else at_ns
        self.pico.schedule(dials=[(t, station, k, turn_ms)])

    def place(self, station, k, at_ns=None):
        """Answer k on the board's electronic plate: a key pressed, or the dial turned."""
        if self.board.plates == "dial":
            self.dial(station, k, at_ns)
        else:
            self.key(station, k, at_ns=at_ns)

    # -- time and the log ------------------------------------------------------------
    def run(self, ms):
        cut = self.pico.run(ms)
        self._take()
        return cut

    def _take(self):
        text = self.pico.read()
        if not text:
            return
        text = self._partial + text.replace("\r", "")
        parts = text.split("\n")
        self._partial = parts.pop()
        for line in parts:
            self.lines.append(line)
            i = line.find("{")           # a REPL prompt may stand before it (">OK{...")
            if i >= 0 and '"ev"' in line:
                try:
                    ev = json.loads(line[i:])
                except ValueError:
                    continue
                if isinstance(ev, dict) and "ev" in ev:
                    self.events.append(ev)

    def wait_event(self, kind, ms=5000, since=None, **match):
        """Run (in 20 ms steps) until an event of that kind (with those fields)
        is logged after index `since`; returns it, or raises AssertionError."""
        start = len(self.events) if since is None else since
        waited = 0
        while True:
            for ev in self.events[start:]:
                if ev.get("ev") == kind and all(ev.get(k) == v for k, v in match.items()):
                    return ev
            if waited >= ms:
                raise AssertionError("no %r event %r within %d ms; last lines: %r"
                                     % (kind, match, ms, self.lines[-12:]))
            self.run(20)
            waited += 20

    def kinds(self, since=0):
        return [e["ev"] for e in self.events[since:]]

    def boot(self, ms=3000):
        """Power-up until the box logs its boot event and is ready."""
        return self.wait_event("boot", ms)

    # -- the REPL (safe boot, or after Ctrl-C) ------------------------------------------
    def exec_raw(self, code, ms=10000):
        """Run code in the raw REPL; returns (stdout, stderr) text."""
        p = self.pico
        p.send("\r\x03\x03\x01")
        p.wait_for("raw REPL; CTRL-B to exit\r\n>", ms)
        p.send(code.replace("\n", "\r\n") + "\x04")
        out = p.wait_for("\x04>", ms)
        body = out[out.index("OK") + 2:] if "OK" in out else out
        parts = body.split("\x04")
        return parts[0].replace("\r", ""), (parts[1] if len(parts) > 1 else "").replace("\r", "")

    # -- LEDs ------------------------------------------------------------------------------
    def last_frame(self, chain):
        """Bytes of the last complete frame on a chain (as its first LED reads them)."""
        _, fr = self.pico.frames(self.chain_pins[chain], last=True)
        return bytes.fromhex(fr[0]["hex"]) if fr else b""

    def shown(self, chain, n_bytes, back=8):
        """The bytes a chain of n_bytes shows, as its LEDs latch what came
        down the wire: each frame sets the first LEDs it reaches, so a frame
        cut short by a gap (50 us low latches it) is shown as far as it went,
        and what follows the gap starts again at the first LED. The last
        `back` frames are laid over each other from the last whole one."""
        count, _ = self.pico.frames(self.chain_pins[chain], last=True)
        _, fr = self.frames(chain, since=max(0, count - back))
        wires = [bytes.fromhex(f["hex"]) for f in fr]
        first = max((i for i, w in enumerate(wires) if len(w) >= n_bytes), default=0)
        out = bytearray(n_bytes)
        for w in wires[first:]:
            w = w[:n_bytes]
            out[:len(w)] = w
        return bytes(out)

    def frames(self, chain, since=0, pixels=None):
        return self.pico.frames(self.chain_pins[chain], since=since, pixels=pixels)
