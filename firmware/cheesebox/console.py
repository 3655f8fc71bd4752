"""Commands typed on the USB serial console; answers go to the event log.

Malformed lines are answered with an "error" event and change nothing.
"""
import gc

from cheesebox.box import N_INPUTS
from cheesebox.events import name


def _free():
    if not hasattr(gc, "mem_free"):
        return None                     # CPython (the simulator)
    gc.collect()
    return gc.mem_free()


def command(box, line):
    """One line from the USB serial console; answers on the event log."""
    words = line.strip().split()
    if not words:
        return
    if words[0] == "state" and len(words) == 1:
        m = box.match
        box.log("state", {"state": box.state_name(),
                           "points": dict((name(s), m.points[s]) for s in range(8)
                                          if m.joined[s]) if m is not None else {},
                           "rounds": m.rounds_played if m is not None else 0,
                           "campaign": ({"game": box.campaign.game,
                                         "wins": dict((name(s), box.campaign.wins[s]) for s in range(8)
                                                      if box.joined[s])}
                                        if box.campaign is not None else None),
                           "stuck": [box._input_name(i) for i in range(N_INPUTS)
                                     if (box.stuck >> i) & 1],
                           # bytes of heap free after a collection (MicroPython): the
                           # headroom left beside the live data, for a host watching
                           "free": _free()})
    elif words[0] == "help" and len(words) == 1:
        box.log("help", {"commands": ["state", "help"]})
    else:
        box.log("error", {"what": "unknown command", "line": line[:80]})
