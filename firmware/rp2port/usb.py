"""The USB serial console: the event log out, commands in, never blocking.

Event-log lines go out through a queue, a byte at a time while the USB
host takes them: a PC that holds the port open without reading would
otherwise block each print for 1 s (MicroPython's CDC timeout).
"""
import select
import sys
import time
from micropython import const

LINE_MAX = const(120)           # longest serial command line
OUT_BYTES = const(2048)         # event-log lines waiting for the USB host
OUT_BURST = const(256)          # bytes written per loop pass at most


class Usb:
    def __init__(self):
        self.serial = select.poll()
        self.serial.register(sys.stdin, select.POLLIN)
        self.out = bytearray(OUT_BYTES)
        self.out_head = 0               # next byte to send
        self.out_len = 0                # bytes queued
        self.out_dropped = 0            # lines dropped while the queue was full
        self.one = bytearray(1)
        self.stdout = sys.stdout.buffer  # pyright: ignore[reportAttributeAccessIssue]
        self.writable = select.poll()
        self.writable.register(sys.stdout, select.POLLOUT)
        self.line = bytearray(LINE_MAX)
        self.line_len = 0

    def write_line(self, text):
        """Queue one line for the USB console; never blocks. A full queue drops
        the line (counted, and said in the next line that fits)."""
        self._note_dropped()
        if not self._queue(text):
            self.out_dropped += 1
        self.flush_out()

    def _note_dropped(self):
        """Say how many lines were lost, as soon as the queue has room for it."""
        if self.out_dropped:
            note = '{"v": 1, "ev": "dropped", "lines": %d, "t": %d}' % (self.out_dropped,
                                                                       time.ticks_ms())
            if self._queue(note):
                self.out_dropped = 0

    def _queue(self, text):
        data = text.encode() if isinstance(text, str) else text
        n = len(data) + 1
        if self.out_len + n > OUT_BYTES:
            return False
        tail = (self.out_head + self.out_len) % OUT_BYTES
        for b in data:
            self.out[tail] = b
            tail = (tail + 1) % OUT_BYTES
        self.out[tail] = 10
        self.out_len += n
        return True

    def flush_out(self):
        """Send queued bytes while the host takes them (at most OUT_BURST a
        call); one byte never waits when the CDC buffer has room."""
        sent = 0
        one = self.one
        while self.out_len and sent < OUT_BURST:
            ready = False
            for _ in self.writable.ipoll(0):
                ready = True
            if not ready:
                return
            one[0] = self.out[self.out_head]
            self.stdout.write(one)
            self.out_head = (self.out_head + 1) % OUT_BYTES
            self.out_len -= 1
            sent += 1
        if not self.out_len:
            self._note_dropped()        # the PC reads again: tell it what it missed

    def read_line(self):
        """A complete line typed on the USB serial console, or None. Never blocks;
        a line longer than LINE_MAX is cut there (the box then rejects it)."""
        while self.ready():
            c = sys.stdin.read(1)
            if c == "\n" or c == "\r":
                if not self.line_len:
                    continue
                text = bytes(self.line[:self.line_len]).decode("utf-8", "replace")
                self.line_len = 0
                return text
            if self.line_len < LINE_MAX:
                b = ord(c) if len(c) == 1 and ord(c) < 256 else 63     # '?'
                self.line[self.line_len] = b
                self.line_len += 1
        return None

    def ready(self):
        """A byte is waiting on the console."""
        for _ in self.serial.ipoll(0):          # allocation-free, unlike poll()
            return True
        return False
