"""The USB serial console: the event log out, commands in, never blocking.

Event-log lines go out through a queue, a byte at a time while the USB
host takes them: a PC that holds the port open without reading would
otherwise block each print for 1 s (MicroPython's CDC timeout).
"""
import select
import sys
import time
from micropython import const

_LINE_MAX = const(120)           # longest serial command line
_OUT_BYTES = const(2048)         # event-log lines waiting for the USB host
_OUT_BURST = const(256)          # bytes written per loop pass at most
_NOT_TEXT = const(1)             # why a console line is refused
_TOO_LONG = const(2)


class Usb:
    """store, base: where the queue of lines out lives: _OUT_BYTES bytes of
    store from base on, round its end (its length a power of two). The port
    gives it the 2 KiB beside the button ring that the ring's alignment
    leaves over (buttons.py), so the queue costs no heap of its own."""

    def __init__(self, store=None, base=0):
        self.serial = select.poll()
        self.serial.register(sys.stdin, select.POLLIN)
        self.out = store if store is not None else bytearray(_OUT_BYTES)
        self.out_base = base
        self.out_wrap = len(self.out) - 1
        self.out_head = 0               # next byte to send
        self.out_len = 0                # bytes queued
        self.out_dropped = 0            # lines dropped while the queue was full
        self.one = bytearray(1)
        self.stdout = sys.stdout.buffer  # pyright: ignore[reportAttributeAccessIssue]
        self.writable = select.poll()
        self.writable.register(sys.stdout, select.POLLOUT)
        self.stdin = sys.stdin.buffer  # pyright: ignore[reportAttributeAccessIssue]
        self.byte = bytearray(1)
        self.line = bytearray(_LINE_MAX)
        self.line_len = 0
        self.line_bad = 0               # _NOT_TEXT | _TOO_LONG seen in this line

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
        if self.out_len + n > _OUT_BYTES:
            return False
        tail = (self.out_head + self.out_len) % _OUT_BYTES
        out = self.out
        base = self.out_base
        wrap = self.out_wrap
        for b in data:
            out[(base + tail) & wrap] = b
            tail = (tail + 1) % _OUT_BYTES
        out[(base + tail) & wrap] = 10
        self.out_len += n
        return True

    def flush_out(self):
        """Send queued bytes while the host takes them (at most _OUT_BURST a
        call); one byte never waits when the CDC buffer has room."""
        sent = 0
        one = self.one
        out = self.out
        base = self.out_base
        wrap = self.out_wrap
        while self.out_len and sent < _OUT_BURST:
            ready = False
            for _ in self.writable.ipoll(0):
                ready = True
            if not ready:
                return
            one[0] = out[(base + self.out_head) & wrap]
            self.stdout.write(one)
            self.out_head = (self.out_head + 1) % _OUT_BYTES
            self.out_len -= 1
            sent += 1
        if not self.out_len:
            self._note_dropped()        # the PC reads again: tell it what it missed

    def read_line(self):
        """A complete line typed on the USB serial console, or None. Never blocks.

        Commands are printable ASCII: a line with any other byte (UTF-8, NUL,
        a terminal's escape) or longer than _LINE_MAX is answered with one
        `cheesebox:` line and dropped, never decoded (MicroPython's decode
        ignores "replace" and raises on a bad sequence)."""
        byte = self.byte
        while self.ready():
            if not self.stdin.readinto(byte):
                return None
            c = byte[0]
            if c == 10 or c == 13:
                n = self.line_len
                self.line_len = 0
                bad = self.line_bad
                self.line_bad = 0
                if bad:
                    self._refuse(bad, n)
                elif n:
                    return bytes(self.line[:n]).decode()
                continue
            if self.line_len >= _LINE_MAX:
                self.line_bad |= _TOO_LONG
            elif c < 32 or c > 126:
                self.line_bad |= _NOT_TEXT
            else:
                self.line[self.line_len] = c
                self.line_len += 1
        return None

    def _refuse(self, bad, n):
        """Answer a console line the box cannot read (the game goes on)."""
        why = "longer than %d characters" % _LINE_MAX if bad & _TOO_LONG else \
            "not plain ASCII text"
        self.write_line("cheesebox: console line ignored: %s (try: help)" % why)

    def ready(self):
        """A byte is waiting on the console."""
        for _ in self.serial.ipoll(0):          # allocation-free, unlike poll()
            return True
        return False
