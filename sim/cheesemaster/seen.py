"""Cheese Master's events, read for the box's screen (sim/boxscreen.py):
the screen each event leaves the box on, the points, the plates locked, the
reason a press cost a point, and the log's own --json-like result (the
emulated chip has no other). Only the log: the box decides, this reads it."""

START = 7                                                  # every player starts with 7 points


def event(seen, e):
    """One event: the Seen updated; the reason it gives, or None."""
    ev = e.get("ev")
    p = e.get("p", "?")
    g = seen.g
    if ev == "menu":
        seen.state = "menu"
        g["choice"] = e.get("choice")
    elif ev == "game":
        _game(seen, e)
    elif ev == "roll":
        seen.state = "rolling"
        seen.plates = {}
        seen.notes = []
    elif ev == "faces":
        seen.state = "grab"
    elif ev == "grab":
        if e.get("plate") is not None:
            seen.plates[p] = e["plate"]
        seen.note("%s grabs%s" % (p, "" if e.get("plate") is None else " (plate %s)" % e["plate"]))
    elif ev in ("own_up", "take_back"):
        seen.note("%s %s" % (p, "owns up: a wrong card" if ev == "own_up" else "takes it back"))
    elif ev == "false_start":
        return "%s: false start (buzzer before the faces)" % p
    elif ev == "refused":
        seen.score[p] = e.get("points", seen.score.get(p))
        return "%s: grab refused (no key before the buzzer): -1 point, %s left" % (p, e.get("points", "?"))
    elif ev == "penalty":
        seen.score[p] = e.get("points", seen.score.get(p))
        return "%s: -1 point (penalty), %s left" % (p, e.get("points", "?"))
    elif ev == "score":
        return _score(seen, e)
    elif ev == "winner":
        seen.state = "gameover"
        g.update(winner=p, marked=None)
        g["out"] = e.get("out", g.get("out", []))
        if e.get("wins") is not None:
            g["wins"] = dict(e["wins"])
    elif ev == "king":
        seen.state = "king"
        g.update(king=p, wins=dict(e.get("wins") or {}))
    elif ev == "tour":
        seen.state = "tour" if e.get("on") else "ready"
    elif ev == "check":
        seen.state = "check"            # who holds a wheel: their grabs' lines say it already
    elif ev == "resume" and "points" in e:
        _resume(seen, e)
    return None


def _resume(seen, e):
    """A saved game again: its screen, points, who rolls, the campaign's tally
    (older boxes logged the points and rounds only: between rounds)."""
    g = seen.g
    seen.state = e.get("screen") or "ready"
    seen.score = dict(e["points"])
    seen.players = sorted(seen.score)
    g.update(rounds=e.get("round", 0), marked=e.get("marked"), winner=e.get("winner"),
             campaign=e.get("campaign"), wins=dict(e.get("wins") or {}), king=e.get("king"))


def _game(seen, e):
    seen.state = "ready"
    seen.players = list(e.get("players", []))
    seen.score = dict((q, START) for q in seen.players)
    seen.dice = list(e.get("dice", []))
    seen.plates = {}
    seen.notes = []
    seen.games += 1
    seen.g.update(rounds=0, replays=0, out=[], winner=None, campaign=e.get("campaign"), marked=None,
                  king=None)
    if e.get("campaign") is None:
        seen.g["wins"] = {}


def _score(seen, e):
    g = seen.g
    seen.state = "ready"
    seen.score.update(e.get("points", {}))
    g["rounds"] = g.get("rounds", 0) + 1
    g["out"] = list(e.get("out", []))
    g["marked"] = e.get("marked")
    if e.get("result") == "replay":
        g["replays"] = g.get("replays", 0) + 1
        return "tie replay: everyone still in would be out: points back, roll again"
    if e.get("lost"):
        return "round %s: %s" % (e.get("round", "?"), ", ".join(
            "%s -%d" % kv for kv in sorted(e["lost"].items())))
    return None


def result(seen, out):
    """The game's part of a --json-like result, from the log alone."""
    g = seen.g
    if not seen.players:
        return
    out["points"] = dict((q, seen.score.get(q)) for q in seen.players)
    out["eliminated"] = list(g.get("out", []))
    out["winner"] = g.get("winner")
    out["rounds"] = g.get("rounds", 0)
    out["replays"] = g.get("replays", 0)
    out["dice"] = list(seen.dice)
    out["marked"] = g.get("marked")
    if g.get("campaign") is not None:
        wins = g.get("wins") or {}
        out["campaign"] = {"game": g["campaign"], "wins": dict((q, wins.get(q, 0)) for q in seen.joined_now()),
                           "king": g.get("king")}
