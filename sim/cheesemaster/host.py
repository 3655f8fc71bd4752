"""Cheese Master's host side (sim/games.py lists what a host module gives):
the words the simulator's view shows for its screens, the penalty gesture,
the plate keys, its scenario commands and its part of the --json result."""
from cheesebox import ticks
from cheesemaster import faces as F
from cheesemaster import flow as CM
from cheesemaster.dice import CHOICES

NAME = "cheese master"
TITLE = "Cheese Master"                 # as the rulebook writes it
SCORE_WORD = "points"
RESUME = {"round": "count", "points": "points"}
TERMINAL = None
COMMANDS = ("dice",)
TUNE_MODULES = (CM,)                    # its own tunes live with the game (flow.py)
HINTS = {
    "menu": "any buzzer: next dice choice; ROLL confirms",
    "ready": "ROLL rolls",
    "tour": "a buzzer stops the tour; ROLL rolls",
    "rolling": "wait for the faces: a buzzer now is a false start",
    "grab": "grab a cheese wheel: press your buzzer!",
    "check": "wheel holders with a wrong card own up with their buzzer; ROLL scores (after 3 s)",
    "gameover": "ROLL: new game, same players; a buzzer: the dice menu, same players; L (hold ROLL): back to joining",
    "king": "ROLL: back to joining; a buzzer: the dice menu, same players",
}
NAMES = ["P%d" % (s + 1) for s in range(8)]
IN_GAME = ("ready", "tour", "rolling", "grab", "check")   # penalties count (game.py's in_game)


def match(box):
    """The match being played, or None (the dice menu, no game)."""
    return box.game.match if box.game is not None else None


def result(box, out):
    """The match and the campaign in the simulator's --json result."""
    m = match(box)
    if m is not None:
        out["points"] = dict((NAMES[s], m.points[s]) for s in range(8) if m.joined[s])
        out["eliminated"] = [NAMES[s] for s in m.eliminated]
        out["winner"] = NAMES[m.winner] if m.winner >= 0 else None
        out["rounds"] = m.rounds_played
        out["replays"] = m.replays
        out["dice"] = [box.game.dice_names[d] for d in box.game.in_play]
        out["marked"] = NAMES[m.marked] if m.marked >= 0 else None
        if box.game.shown_roll:
            out["last_roll"] = [F.NAMES[box.game.roll[i]] for i in range(len(box.game.in_play))]
            out["cheese_left"] = box.game.left
    c = box.game.campaign if box.game is not None else None
    if c is not None:
        out["campaign"] = {"game": c.game,
                           "wins": dict((NAMES[s], c.wins[s]) for s in range(8) if box.joined[s]),
                           "king": NAMES[c.king] if c.king >= 0 else None}


VALUES = False                          # a station's key or dial is its plate
_default = []


def patterns():
    """Its dice show the icons and the font only."""
    return ()


def seen_event(seen, e):
    """Its events, read for the screen (seen.py)."""
    from sim.cheesemaster import seen as S     # the screen's only: not loaded for a scenario
    return S.event(seen, e)


def seen_result(seen, out):
    from sim.cheesemaster import seen as S
    S.result(seen, out)


def _dice_names(seen):
    """The six dice's names: the simulated box's dice file, or the default
    dice (the emulated chip's flash has no other)."""
    if seen.box is not None and seen.box.keep.get("dice") is not None:
        return list(seen.box.keep["dice"][0])     # (None: the default dice, none made yet)
    if not _default:
        from cheesemaster.dicefile import default
        _default.append(list(default()[0]))
    return list(_default[0])


def labels(seen, state, dice):
    """Each die is a die: its name in the dice file."""
    return _dice_names(seen)


def in_play(seen, d):
    """Die d is rolled in this match (its label is bold)."""
    return seen.state_now() in IN_GAME + ("gameover", "king") and _dice_names(seen)[d] in seen.dice


def keyed(seen, s, k):
    seen.g.setdefault("keyed", {})[NAMES[s]] = k
    return "P%d places plate %s" % (s + 1, k)


def station_note(seen, s):
    """The plate the box knows now at a joined station (keys: this round's
    last key; a dial: where it stands); a wheel holder's is locked. The
    emulated chip's: the plate locked by a grab (the log), or the last one
    keyed here."""
    from cheesemaster.match import NO_ANSWER
    word = "dial" if seen.board.plates == "dial" else "plate"
    box = seen.box
    if box is None:
        if NAMES[s] not in seen.players:
            return None
        if NAMES[s] in seen.plates:
            return "%s %s locked" % (word, seen.plates[NAMES[s]])
        k = seen.g.get("keyed", {}).get(NAMES[s])
        return "%s %s" % (word, "-" if k is None else k)
    m = match(box)
    if m is None or not m.joined[s]:
        return None
    k = m.locked[s] if m.holder[s] else box.plate[s]
    return "%s %s%s" % (word, "-" if k == NO_ANSWER else k, " locked" if m.holder[s] else "")


def status(seen, r, head, lines):
    """The view's status lines: the dice choice, the game and its rounds,
    the points (and who is out), the campaign's wins."""
    from rich.text import Text
    state = r["state"]
    if state == "menu" and _choice(seen):
        head.append(Text("choice " + _choice(seen)))
    if not r.get("points") or state in ("join", "menu"):
        return
    c = r.get("campaign")
    if c is not None:
        box = seen.box
        tie = " (tie-break)" if box is not None and box.game.campaign.tiebreak else ""
        head.append(Text("campaign game %d%s" % (c["game"], tie)))
    else:
        head.append(Text("game %d" % r["games"]))
    head.append(Text("rounds %d" % r["rounds"]))
    if r.get("marked") and state == "ready":     # they start the next roll
        head.append(Text("marked " + r["marked"]))
    if r.get("winner"):
        head.append(Text("winner " + r["winner"], style="bold green"))
    out = r["eliminated"]
    lines.append([Text("%s %s%s" % (name, "-" if p is None else p, " out" if name in out else ""),
                       style="dim" if name in out else "") for name, p in r["points"].items()])
    if c is not None and c.get("wins"):
        lines.append([Text("wins " + " ".join("%s %d" % kv for kv in c["wins"].items()))]
                     + ([Text("king " + c["king"], style="bold yellow")] if c["king"] else []))


def _choice(seen):
    """The dice menu's choice: the simulated box's, or the log's last."""
    box = seen.box
    if box is not None:
        return CHOICES[box.game.choice] if box.game is not None else None
    return seen.g.get("choice")


def hint(seen, state):
    box = seen.box
    m = match(box) if box is not None else None
    n = seen.board.stations
    g = box.game if box is not None else None
    campaign = g.campaign is not None if g is not None else seen.g.get("campaign") is not None
    if state == "ready":
        parts = ["ROLL rolls"]
        if m is not None and m.marked >= 0:
            if ticks.diff(box.port.ticks_ms(), g.scored_at) < CM.GUARD_MS:
                parts.append("P%d's buzzer too, in a moment" % (m.marked + 1))
            else:
                parts.append("or P%d's buzzer" % (m.marked + 1))
        elif m is None and seen.g.get("marked"):
            parts.append("or %s's buzzer" % seen.g["marked"])     # the chip's log says who
        elif (m.round_no if m is not None else seen.g.get("rounds", 0)) == 0:
            parts.append("a buzzer: dice tour (every face)")
        text = "; ".join(parts)
        if campaign:
            text += "; L (hold ROLL): abandon the campaign"
        return text
    if state == "grab" and seen.board.electronic:
        from sim.keys import PLATE_KEYS
        what = "turn your dial" if seen.board.plates == "dial" else "press your plate key"
        return "%s (%s-%s, 0-7), then grab with your buzzer!" % (what, PLATE_KEYS[0], PLATE_KEYS[n - 1])
    if state == "menu" and _choice(seen):
        # the menu opens on the table's last choice (game.py keeps it): say so
        return "dice: %s (the menu opens on the last choice); any buzzer: next; ROLL confirms" % (
            _choice(seen))
    if state == "gameover" and campaign:
        # one meaning a key: ROLL plays on, L ends the campaign (game.py: on_roll / on_long_roll)
        menu = "; a buzzer: leave it for the dice menu"
        if g is not None and g.campaign is not None and g.campaign.tiebreak:
            return "ROLL or L (hold ROLL): end the campaign, crown the king" + menu
        return "ROLL: the campaign's next game; L (hold ROLL): end the campaign, crown the king" + menu
    return HINTS.get(state)


def gesture(seen, state):
    if state in IN_GAME:
        # the players' buzzers only, as the keys panel names them
        from sim.boxscreen import stations_text
        return ("p " + stations_text(seen.playing(), seen.board.stations), "penalty",
                "table penalty: 1 point")
    return None                         # the menu, game over, the King


def answer_keys(seen, state):
    if state not in IN_GAME:
        return None
    if seen.board.plates == "dial":
        return "dial", "turn a station's dial (its plate)"
    return "plate key", "place a station's plate"


def command(sim, cmd, args, player):
    """Cheese Master's own scenario commands and the waits a table makes
    before a press: True if it took cmd (args checked here; player(tok) is
    the station a token names, or raises)."""
    from sim.scenario import ScenarioError
    from sim.simport import ROLL_BIT
    box = sim.box
    if cmd == "dice":
        if len(args) != 1:
            raise ScenarioError("usage: dice yellow|yellow+1|yellow+2|yellow+3|campaign")
        want = args[0].lower()
        if want not in CHOICES:
            raise ScenarioError("dice must be one of %s, got %r" % (" ".join(CHOICES), args[0]))
        if box.game is None or box.state != CM.MENU:
            raise ScenarioError("dice: the box is not choosing dice (state %s)" % box.state_name())
        while CHOICES[box.game.choice] != want:
            sim.press(0)
        sim.press(ROLL_BIT)
        return True
    return False


def before_press(sim, cmd, s):
    """Wait as a table would before the press a scenario command makes:
    an own-up comes after seeing the count, never in the grab's own slam
    (the box takes a press within 500 ms of the grab for that); ROLL ends
    the check once the count has been up 3 s (the box holds an earlier
    ROLL until then: see the fingers command)."""
    box = sim.box
    if box.state != CM.CHECK:
        return
    if cmd == "own-up" and match(box).holder[s]:
        rest = CM.SLAM_US - ticks.diff(sim.port.ticks_us(), box.game.grab_us[s])
        if rest > 0:
            sim.wait((rest + 999) // 1000)
    elif cmd == "rollbutton":
        rest = CM.CHECK_MIN_MS - ticks.diff(sim.port.ticks_ms(), box.game.state_at)
        if rest > 0:
            sim.wait(rest)
