"""Cheesonomics' host side on the box (sim/games.py lists what a host module
gives): what the simulator's view shows for its screens (the dice are the
market's countries), the undo gesture, the step legend of the active
player's keys, its scenario commands (boxscript.py) and its --json result."""
from sim.cheesonomics import boxscript

NAME = "cheesonomics"
TITLE = "Cheesonomics"                 # as the rulebook writes it
SCORE_WORD = "money"
RESUME = {"turns": "count", "deck": "count", "money": "money"}
TERMINAL = "sim.cheesonomics.cli"
COMMANDS = boxscript.COMMANDS
HINTS = {
    "variant": "any buzzer: basic (die 6: -) or advanced (+); ROLL starts",
    "final": "the final count (S sales, U unsold pieces, A1-A5 most sold of cow-camel, = total; then the"
             " winners); a buzzer: that player's count; ROLL: another game, same players;"
             " L (hold ROLL): back to joining",
    "layout": "lay out the market cards the dice show (in the country's colour: signs up, then on the"
              " back; die 6: sector 1-3), deal the others; ROLL or a buzzer: next sector",
}


def match(box):
    return None


def result(box, out):
    if box.game is not None:
        out["cheesonomics"] = boxscript.result(box)


VALUES = True                           # a station's key or dial is a value of the turn


def seen_event(seen, e):
    """Its events, read for the screen (seen.py)."""
    from sim.cheesonomics import seen as S
    return S.event(seen, e)


def seen_result(seen, out):
    from sim.cheesonomics import seen as S
    S.result(seen, out)


def labels(seen, state, dice):
    """What each die shows now, read from its picture (seen.py)."""
    from sim.cheesonomics import seen as S     # the screen's only: not loaded for a scenario
    return S.labels(seen, state, dice)


def patterns():
    from sim.cheesonomics import seen as S
    return S.patterns()


def _turn(seen):
    from sim.cheesonomics import seen as S
    return S.turn(seen)


def in_play(seen, d):
    return False


def keyed(seen, s, k):
    """A value of the turn, not a plate (the active player's step takes it)."""
    from sim.cheesonomics import seen as S
    S.keyed(seen, s, k)
    if "P%d" % (s + 1) == _turn(seen):
        seen.g["undo"] = None            # the next player has begun: no undo any more
    return "P%d %s %s" % (s + 1, "dials" if seen.board.plates == "dial" else "keys", k)


def station_note(seen, s):
    return None


def status(seen, r, head, lines):
    """The view's status lines: the turn, the variant, the deck, the money."""
    from rich.text import Text
    c = r.get("cheesonomics")
    if c is None:
        return
    if c.get("money") is not None and c.get("turn"):
        head.append(Text(c["turn"] + " plays"))
    head.append(Text(c["variant"]))
    if c.get("money") is not None:
        head.append(Text("deck %s" % c["deck"]))
        lines.append([Text("%s %s" % kv, style="bold green" if kv[0] in c.get("winners", []) else "")
                      for kv in c["money"].items()])


def step_legend(g):
    """The step the active player is on, with what each value means."""
    e = g.entry
    if e.complete(g.advanced):
        return "confirm: your buzzer"
    return _legend(g.cards, e.step(), e.v[0] if e.k else None, e.dials) or g.step_name()


def _legend(c, st, act, dials=False):
    """Step st's name and what each of its values means (act: the action
    keyed, which tells WHICH: an animal or a place; on a dial a sale's
    pieces come with the action), or None."""
    from cheesonomics import entry as E
    kinds = (None,) + tuple(E.kind_name(i) for i in range(1, 5))
    sell = ("sell 1", "sell 2", "sell 3") if dials else ("sell",)
    names = {E.ACT: ("pass", "collect animal", "collect place", "produce") + sell,
             E.ANIMAL: (None,) + tuple(c.animals), E.COUNTRY: (None,) + tuple(c.countries),
             E.MARK: ("none, or a reserve or a trade (done with the cards)",)
             + tuple(c.marks), E.CARD_C: (None,) + tuple(c.countries),
             E.SWAP: ("turn over",) + kinds[1:], E.CARD_K: kinds}
    if st == E.WHICH:
        if act is None:
            return None
        names[st] = (None,) + tuple(c.animals if act == 1 else c.places)
    legend = names.get(st)
    if legend is None:
        return None
    return "%s: %s" % (E.STEP_NAMES[st], ", ".join("%d %s" % (v, legend[v]) for v in range(len(legend))
                                                  if legend[v] is not None))


def _step_seen(seen):
    """The emulated chip's step, as die 6 shows it (its sign; a turn's start
    shows whose turn: the action), in words."""
    from cheesonomics.entry import STEP_NAMES, STEP_SIGNS, WHICH
    from sim.cheesonomics import seen as S
    t = seen.shown[5].text if len(seen.shown) > 5 else ""
    if t in ("OK", "0K"):
        return "confirm: your buzzer"
    if t in STEP_SIGNS[1:]:
        st = STEP_SIGNS.index(t)
        act = seen.g.get("act") if st == WHICH else None       # the action this screen's keys sent
        return _legend(S.card_list(), st, act, seen.board.plates == "dial") or "%s (die 6: %s)" % (STEP_NAMES[st], t)
    if len(t) == 2 and not t.startswith(":") and not (t[0] in "PF" and t[1].isdigit()):
        return "die 6 names the value keyed: %s" % t      # for 2 s, then the step's letter
    return _legend(S.card_list(), 0, None, seen.board.plates == "dial")


def hint(seen, state):
    box = seen.box
    if state == "turn":
        from sim.keys import PLATE_KEYS
        who = _turn(seen)
        s = int(who[1:]) - 1 if who else 0
        if seen.board.plates == "dial":
            how = "%s + a digit (dial), then %d (buzzer)" % (PLATE_KEYS[s], s + 1)
        else:
            how = "%s + digits (a key a value), then %d (buzzer)" % (PLATE_KEYS[s], s + 1)
        step = step_legend(box.game) if box is not None else _step_seen(seen)
        text = "P%d, %s: %s; space: back a step (none keyed: deck, money)" % (s + 1, step, how)
        undo = gesture(seen, state)
        if undo is not None:        # only while it can be undone, and by whom
            text += "; %s: %s" % (undo[0], undo[2])
        return text + "; other buzzers: their money"
    text = HINTS.get(state)
    if state == "final" and text is not None and gesture(seen, state) is not None:
        text += "; %s: %s" % gesture(seen, state)[::2]
    return text


def gesture(seen, state):
    """The last action's player undoes it, until the next player keys a value."""
    if state not in ("turn", "final"):
        return None
    box = seen.box
    if box is None:
        who = seen.g.get("undo")
        if who is None:
            return None
        return "p %s" % who[1:], "undo", "%s undoes their last action" % who
    g = box.game
    if g.undo is None or g.entry.k:
        return None
    p = g.stations[g.undo["cur"]] + 1
    return "p %d" % p, "undo", "P%d undoes their last action" % p


def answer_keys(seen, state):
    if state != "turn":
        return None
    who = _turn(seen)
    if not who:
        return None
    if seen.board.plates == "dial":
        return "dial a value", "%s's dial: a value, then the buzzer" % who
    return "key a value", "%s's keys: a value a key" % who


def command(sim, cmd, args, player):
    if cmd not in COMMANDS:
        return False
    boxscript.run(sim, cmd, args, player)
    return True


def before_press(sim, cmd, s):
    pass
