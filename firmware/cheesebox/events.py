"""The event log: one JSON line per event on the USB serial console.

A host (host_tools/table/eventlog.py, a spectator, a referee settling a dispute)
follows the game from these lines. Format version 1, documented in
docs/event-log.md: every line is a JSON object with "v" (format version),
"ev" (event name), "t" (box ms clock) and the event's own fields.
Logging happens on game events only, never in the capture path.
"""
import json

VERSION = 1


def name(s):
    """Player name of station s (0-7): P1..P8."""
    return "P%d" % (s + 1)


class EventLog:
    def __init__(self, write=None):
        self.write = write      # callable(str) or None (no log)
        self.clock = None       # callable() -> ms, set by the box
        self.held = None        # lines kept back while the box draws (hold/release)

    def hold(self):
        """Keep lines back until release(): a step lights the LEDs first, then
        writes its lines (a USB write takes ms; a wheel LED must not wait)."""
        if self.write is not None and self.held is None:
            self.held = []

    def release(self):
        held = self.held
        self.held = None
        if held:
            for d in held:
                self.write(json.dumps(d))

    def __call__(self, ev, fields=None):
        if self.write is None:
            return
        d = {} if fields is None else fields
        d["v"] = VERSION
        d["ev"] = ev
        if self.clock is not None:
            d["t"] = self.clock()
        if self.held is not None:
            self.held.append(d)             # made into JSON after the LEDs are out
        else:
            self.write(json.dumps(d))
