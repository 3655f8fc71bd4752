"""Say why: what the box's LEDs and tunes tell a table when a press did
nothing or cost a point, in words for the simulator's view.

Derived from the box's own event log (docs/event-log.md) and state, never
from a second copy of the rules: the box decides, this only reads it out.
"""
import json

SHOW_MS = 6000      # a reason stays on screen this long (virtual time)


class Why:
    """Follows the event log; `text` is the latest reason, `at` its virtual ms."""

    def __init__(self, sim):
        self.sim = sim
        self.text = ""
        self.at = 0

    def attach(self):
        """Read every line the box logs from now on (the log still goes
        wherever it went: a --log file, or nowhere)."""
        log = self.sim.log
        write = log.write

        def both(line):
            self.line(line)
            if write is not None:
                write(line)
        log.write = both
        return self

    def say(self, text):
        self.text = text
        self.at = self.sim.elapsed_ms()

    def now(self):
        """The reason to show now, or ""."""
        if self.text and self.sim.elapsed_ms() - self.at < SHOW_MS:
            return self.text
        return ""

    def line(self, line):
        """One event-log line (JSON), as the box wrote it."""
        try:
            e = json.loads(line)
        except ValueError:
            return
        text = self.event(e)
        if text:
            self.say(text)
        elif e.get("ev") == "pick":
            self.text = ""      # another game offered: the last one's problem goes, as its cross does

    def event(self, e):
        """The reason an event gives, or ""."""
        ev = e.get("ev")
        p = e.get("p", "?")
        if ev == "false_start":
            return "%s: false start (buzzer before the faces)" % p
        if ev == "refused":
            return "%s: grab refused (no key before the buzzer): -1 point, %s left" % (p, e.get("points", "?"))
        if ev == "penalty":
            return "%s: -1 point (penalty), %s left" % (p, e.get("points", "?"))
        if ev == "score" and e.get("result") == "replay":
            return "tie replay: everyone still in would be out: points back, roll again"
        if ev == "score" and e.get("lost"):
            return "round %s: %s" % (e.get("round", "?"), ", ".join(
                "%s -%d" % kv for kv in sorted(e["lost"].items())))
        if ev == "not_allowed":
            return "%s: not allowed: %s" % (p, e.get("why", "?"))
        if ev == "error":
            return "box: %s" % e.get("what", "?")
        if ev == "stuck":
            return "%s held too long: ignored until let go (blinks blue)" % e.get("input", "?")
        if ev == "pick":
            why = self.sim.box.module.fits(self.sim.board)
            if why:
                return "%s cannot start on this board: %s" % (e.get("game", "?"), why)
        return ""

    def roll_at_join(self):
        """ROLL at joining starts nothing with too few players: the box is
        silent then, the view is not."""
        box = self.sim.box
        if box.state_name() != "join":
            return
        mod = box.module
        k = sum(box.joined)
        why = mod.fits(self.sim.board)
        if why and k < mod.MIN_PLAYERS:
            self.say("ROLL: %s cannot start on this board: %s" % (mod.NAME, why))
        elif k < mod.MIN_PLAYERS:
            self.say("ROLL: %s needs %d players, %d joined (buzzers join)" % (mod.NAME, mod.MIN_PLAYERS, k))
