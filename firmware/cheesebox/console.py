"""Commands typed on the USB serial console; answers go to the event log.

Malformed lines are answered with an "error" event and change nothing.
"""
import gc

from cheesebox.version import VERSION


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
        # points, rounds, campaign: Cheese Master's (empty in another game or at
        # joining: the log's format 1 has them in every state event)
        fields = {"state": box.state_name(), "game": box.module.NAME, "points": {}, "rounds": 0,
                  "campaign": None}
        if box.game is not None:
            box.game.status(fields)
        fields["stuck"] = box.stuck_names()
        fields["version"] = VERSION         # the firmware's (manifest.py's metadata)
        # bytes of heap free after a collection (MicroPython): the headroom
        # left beside the live data, for a host watching
        fields["free"] = _free()
        box.log("state", fields)
    elif words[0] == "game" and len(words) >= 2:
        from cheesebox import games
        i = games.index(" ".join(words[1:]).lower())
        if i < 0:
            box.log("error", {"what": "no such game", "games": [g[0] for g in games.GAMES]})
        elif not box.pick_game(i):
            box.log("error", {"what": "a game is picked at joining only", "state": box.state_name()})
    elif words[0] == "help" and len(words) == 1:
        box.log("help", {"commands": ["state", "game NAME", "help"]})
    else:
        box.log("error", {"what": "unknown command", "line": line[:80]})
