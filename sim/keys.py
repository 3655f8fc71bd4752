"""Single key presses from a terminal, without Enter, for the interactive box.

The terminal goes into cbreak mode (no line buffering, no echo; Ctrl-C still
raises KeyboardInterrupt) and is put back as it was on exit, whatever ends
the game. Reads never block longer than asked, so the game clock keeps going.
"""
import os
import select
import termios
import tty

ESC = "esc"
PLATE_KEYS = "qwertyui"     # select station 1-8's electronic plate


def parse(data):
    """Keys in a chunk read from the terminal: a lone Esc is ESC, escape
    sequences (arrows, function keys, Alt+key) are dropped, not taken for
    Esc followed by letters."""
    keys = []
    i = 0
    while i < len(data):
        ch = data[i]
        i += 1
        if ch != "\x1b":
            keys.append(ch)
        elif i == len(data):
            keys.append(ESC)
        elif data[i] == "[":
            i += 1          # CSI: parameters up to a final byte @..~
            while i < len(data) and not "@" <= data[i] <= "~":
                i += 1
            i += 1
        else:
            i += 1          # SS3 (ESC O x) keeps one more byte; Alt+key is done
            if data[i - 1] == "O":
                i += 1
    return keys


class Keys:
    """A terminal's stdin in cbreak mode, as a context manager."""

    def __init__(self, stream):
        self.fd = stream.fileno()
        self.saved = None

    def __enter__(self):
        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc):
        termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)

    def read(self, timeout):
        """Keys typed within `timeout` seconds (an empty list if none)."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return []
        return parse(os.read(self.fd, 64).decode("utf-8", "replace"))
