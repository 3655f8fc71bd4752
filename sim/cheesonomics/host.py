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


_cards = []


def _card_list():
    """The card list, read once as the box reads it (labels before a game)."""
    if not _cards:
        from cheesonomics.cardfile import load
        _cards.append(load())
    return _cards[0]


def labels(view, state):
    """Dice 1-5 are the market's countries, die 6 the turn (or the variant)."""
    box = view.sim.box
    countries = list(box.game.cards.countries if box.game is not None else _card_list().countries)
    if state == "variant":
        return countries + ["variant -/+"]
    if state == "layout":
        return ["card %d" % (i + 1) for i in range(5)] + ["sector"]
    if state == "final":
        return ["who", "S sales U A1-5 =", "amount", "amount", "", "winner"]
    if state == "join":
        return countries + ["joined"]
    b = box.game.bank if box.game is not None else None
    if state == "turn" and b is not None and b.final_turns():
        return countries + ["turn / F final turns left"]
    return countries + ["turn, money"]


def in_play(box, d):
    return False


def keyed(box, s, k):
    """A value of the turn, not a plate (the active player's step takes it)."""
    return "P%d %s %s" % (s + 1, "dials" if box.dials else "keys", k)


def station_note(box, s):
    return None


def status(box, r, head, lines):
    """The view's status lines: the variant, the turn, the deck, the money."""
    from rich.text import Text
    c = r.get("cheesonomics")
    if c is None:
        return
    head.append(Text(c["variant"]))
    if "money" in c:
        head.append(Text("game %d" % r["games"]))
        if c["turn"]:
            head.append(Text("turn " + c["turn"]))
        head.append(Text("deck %d" % c["deck"]))
        lines.append([Text("%s %d" % kv, style="bold green" if kv[0] in c["winners"] else "")
                      for kv in c["money"].items()])


def step_legend(g):
    """The step the active player is on, with what each value means."""
    from cheesonomics import entry as E
    c = g.cards
    e = g.entry
    if e.complete(g.advanced):
        return "confirm: your buzzer"
    st = e.step()
    kinds = (None,) + tuple(E.kind_name(i) for i in range(1, 5))
    names = {E.ACT: ("pass", "collect animal", "collect place", "produce", "sell"),
             E.ANIMAL: (None,) + tuple(c.animals), E.COUNTRY: (None,) + tuple(c.countries),
             E.MARK: ("none, or a reserve or a trade (done with the cards)",)
             + tuple(c.marks), E.CARD_C: (None,) + tuple(c.countries),
             E.SWAP: ("turn over",) + kinds[1:], E.CARD_K: kinds}
    if st == E.WHICH:
        names[st] = (None,) + tuple(c.animals if e.v[0] == 1 else c.places)
    legend = names.get(st)
    if legend is None:
        return g.step_name()
    return "%s: %s" % (E.STEP_NAMES[st], ", ".join("%d %s" % (v, legend[v]) for v in range(len(legend))
                                                  if legend[v] is not None))


def hint(sim, state):
    box = sim.box
    if state == "turn":
        from sim.keys import PLATE_KEYS
        g = box.game
        s = g.active()
        if box.dials:
            how = "%s + a digit (dial), then %d (buzzer)" % (PLATE_KEYS[s], s + 1)
        else:
            how = "%s + digits (a key a value), then %d (buzzer)" % (PLATE_KEYS[s], s + 1)
        text = "P%d, %s: %s; space: back a step (none keyed: deck, money)" % (s + 1, step_legend(g), how)
        undo = gesture(box, state)
        if undo is not None:        # only while it can be undone, and by whom
            text += "; %s: %s" % (undo[0], undo[2])
        return text + "; other buzzers: their money"
    text = HINTS.get(state)
    if state == "final" and text is not None and gesture(box, state) is not None:
        text += "; %s: %s" % gesture(box, state)[::2]
    return text


def gesture(box, state):
    """The last action's player undoes it, until the next player keys a value."""
    g = box.game
    if g.undo is None or state not in ("turn", "final") or g.entry.k:
        return None
    p = g.stations[g.undo["cur"]] + 1
    return "p %d" % p, "undo", "P%d undoes their last action" % p


def answer_keys(box):
    s = box.game.active()
    if s < 0:
        return None
    if box.dials:
        return "dial a value", "P%d's dial: a value, then the buzzer" % (s + 1)
    return "key a value", "P%d's keys: a value a key" % (s + 1)


def command(sim, cmd, args, player):
    if cmd not in COMMANDS:
        return False
    boxscript.run(sim, cmd, args, player)
    return True


def before_press(sim, cmd, s):
    pass
