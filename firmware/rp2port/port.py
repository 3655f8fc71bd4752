"""The Raspberry Pi Pico port (RP2040 and RP2350): the Rp2Port the box runs on.

Composed of one module per device: buttons.py (the PIO sampler and its DMA
ring), leds.py (WS2812 chains over PIO and DMA, inside the power budget),
plates.py (74HC165 answer keys or 4051 dials, imported only on a board that
has them), usb.py (the event log out and commands in over the USB serial
console); the piezo is a PWM pin. idle() sleeps the core until one of them
has something, so a press is seen within microseconds and an idle box costs
no CPU.
"""
import machine
import select
import sys
import time
from micropython import const

from rp2port.buttons import Buttons
from rp2port.leds import Leds
from rp2port.usb import Usb

_IDLE_MAX_MS = const(4000)       # sleep at most this long: half the watchdog's 8 s
_EXACT_US = const(2000)          # a press counting this soon: slept to the us


class Rp2Port:
    """The port contract (cheesebox/port.py) on a Pico; board: a checked Board.
    segment: words each sampler DMA channel moves before the other takes
    over (a test sets it small to see the switch often)."""

    def __init__(self, board, sm_id=0, segment=None):
        self.board = board
        self.plates = None              # plate cards: nothing to read
        if board.plates == "keys":
            from rp2port.keys import Keys
            self.plates = Keys(board)
        elif board.plates == "dial":
            from rp2port.dials import Dials
            self.plates = Dials(board)
        if self.plates is not None:
            p = self.plates
            self.answer_val = p.val
            self.answer_seq = p.seq
            self.answer_us = p.us
        self.buttons = Buttons(board, sm_id) if segment is None else Buttons(board, sm_id, segment)
        self.leds = Leds(board)
        self.show = self.leds.show
        self.commit = self.leds.commit
        self.set_brightness = self.leds.set_brightness
        self.pwm = machine.PWM(machine.Pin(board.piezo_pin))
        self.pwm.duty_u16(0)
        self.freq = 0
        self.duty = 32768               # the piezo drive (volume())
        self.wdt = None
        self.usb = Usb(*self.buttons.spare())    # its queue beside the button ring
        self.write_line = self.usb.write_line
        self.read_line = self.usb.read_line
        # idle() sleeps on the sampler's interrupt or the console
        self.sleeper = select.poll()
        self.sleeper.register(self.buttons.wake, select.POLLIN)
        self.sleeper.register(sys.stdin, select.POLLIN)
        self.sleeper.register(sys.stdout, 0)    # POLLOUT while lines wait (idle)
        self.out_waiting = False

    @property
    def overruns(self):
        return self.buttons.overruns

    def close(self):
        """Stop the state machines and free the DMA channels (a second main()
        after Ctrl-C builds a new port: the old one must let go of them)."""
        self.buttons.close()
        self.leds.close()
        self.wdt = None

    def poll(self, capture):
        if self.plates is not None:
            self.plates.poll()
        self.buttons.poll(capture)

    def between(self, capture):
        """Between a save's flash operations (each holds the CPU: an erase
        45-400 ms, a page 0.4-3 ms): the button ring, and the keys (at every
        call) or the dials (when half due), so a key pressed during a save is
        stamped there, not after it."""
        if self.plates is not None:
            self.plates.poll(True)
        self.buttons.poll(capture)

    def reported_to(self, t_us):
        return self.plates is None or self.plates.reported_to(t_us)

    # -- piezo, clock, idle --------------------------------------------------
    def tone(self, freq):
        if freq == self.freq:
            return
        self.freq = freq
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(self.duty)
        else:
            self.pwm.duty_u16(0)

    def volume(self, level):
        """The table's volume: the PWM duty (a square wave at 50 % is the
        loudest a piezo gets, 2 % is quiet)."""
        self.duty = 32768 if level >= 2 else 1300
        self.freq = -1                  # the next tone() sets the new duty

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def watchdog(self, timeout_ms):
        """Start the hardware watchdog: idle() feeds it."""
        self.wdt = machine.WDT(timeout=timeout_ms)

    def idle(self, ms, exact_us=-1):
        """Nothing to do for up to ms (-1: until something happens). The core
        sleeps until the sampler pushes a word (its PIO interrupt), a line comes
        in on the console or the time is up, so a press is seen within
        microseconds and an idle box costs no CPU. Answer keys and dials are
        read here when due; only a new placement ends the sleep.
        exact_us >= 0: a press counts that many us from now (its glitch
        window): wake then to the microsecond, not at the next whole ms
        (ms sleeps end up to 1 ms late: that was a wheel LED 1-2 ms later)."""
        if self.wdt is not None:
            self.wdt.feed()
        if ms == 0:
            return
        if ms < 0 or ms > _IDLE_MAX_MS:
            ms = _IDLE_MAX_MS
        end = time.ticks_add(time.ticks_ms(), ms)
        exact = time.ticks_add(time.ticks_us(), exact_us)
        plates = self.plates
        usb = self.usb
        buttons = self.buttons
        wake = buttons.wake
        while True:
            wait = time.ticks_diff(end, time.ticks_ms())
            if plates is not None:
                due = plates.due(time.ticks_ms())
                if due <= 0:
                    placed = plates.count
                    plates.poll()
                    if plates.count != placed:
                        return              # a plate placed: the box takes it now
                    continue
                if due < wait:
                    wait = due
            if exact_us >= 0:
                left = time.ticks_diff(exact, time.ticks_us())
                if left <= _EXACT_US:
                    # the press counts within 2 ms: a short exact sleep (words
                    # coming meanwhile wait in the ring; none can count sooner)
                    if usb.out_len:
                        usb.flush_out()
                    if left > 0:
                        time.sleep_us(left)
                    return
                if left // 1000 - 1 < wait:
                    wait = left // 1000 - 1     # whole ms, never past it
            if wait <= 0:
                return
            if usb.out_len:
                usb.flush_out()         # the log goes out while nothing else happens
            waiting = usb.out_len > 0   # then wake when the host takes more
            if waiting != self.out_waiting:
                self.out_waiting = waiting
                self.sleeper.modify(sys.stdout, select.POLLOUT if waiting else 0)
            # the sampler's interrupt is on only for the sleep (a chattering pin
            # would raise it for every word): words waiting already, no sleep
            # (and no interrupt); else flag cleared, interrupt on, then the
            # ring checked again, so a word from now on wakes the core
            if buttons.changed():
                return
            wake.up = False
            buttons.irq_on()
            if buttons.changed():
                buttons.irq_off()
                return                  # words came since poll(): no sleep
            woke = False
            for _ in self.sleeper.ipoll(wait):
                woke = True
            buttons.irq_off()
            if woke and (not usb.out_len or not self._only_writable()):
                return
            # timed out, or woke for the log only: send, sleep on

    def _only_writable(self):
        """The wake-up was only the USB host taking bytes (no press, no line)."""
        return not self.buttons.wake.up and not self.usb.ready()
