"""Cheesonomics' host side on the box (sim/games.py lists what a host module
gives): what the simulator's view shows for its screens (the dice are the
market's countries), the undo gesture, the step legend of the active
player's keys, its scenario commands (boxscript.py) and its --json result."""
from sim.cheesonomics import boxscript
from sim.cheesonomics import seen as S

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
VALUES = True                           # a station's key or dial is a value of the turn


def patterns():
    """Its own pictures, beside the font and the icons: (name, 8 row bytes)."""
    from cheesonomics.game import COIN, UNDO
    return (("coin", COIN), ("undo", UNDO))


def seen_event(seen, e):
    """Its events, read for the screen (seen.py)."""
    return S.event(seen, e)


def seen_result(seen, out):
    S.result(seen, out)


def _card_list():
    """The card list, read once as the box reads it (labels before a game)."""
    if not _cards:
        from cheesonomics.cardfile import load
        _cards.append(load())
    return _cards[0]


def _turn(seen):
    """Whose turn it is ("P2"), or None: the simulated box's, or the log's."""
    box = seen.box
    if box is not None:
        s = box.game.active() if box.game is not None else -1
        return "P%d" % (s + 1) if s >= 0 else None
    return seen.g.get("turn")


def _whose(shown):
    """The player whose colour a die is drawn in."""
    from cheesebox.display import STATION
    return "P%d" % (shown.colour_of(STATION) + 1)


FINAL_LINES = {"S": "sales", "U": "unsold pieces bonus", "=": "total"}


def labels(seen, state, dice):
    """What each die shows now, read from its picture: dice 1-5 the
    market's countries (their prices), or the money and the deck shown for a
    moment; die 6 whose turn, the step, a sale's sum, an undo."""
    c = _card_list()
    countries = list(c.countries)
    if state == "variant":
        return countries + ["variant: %s" % {"-": "basic", "+": "advanced"}.get(dice[5].text, "-/+")]
    if state == "layout":
        return ["card %d" % (i + 1) for i in range(5)] + ["sector %s" % dice[5].text]
    if state == "final":
        return _final_labels(dice, c)
    if state != "turn":
        return countries + ["joined"]
    out = ["%s%s" % (countries[i], ": not on the market" if dice[i].text == "-" else "") for i in range(5)]
    out.append(_die6(seen, dice[5]))
    if dice[3].text == "D":             # ROLL with nothing keyed: money, the deck count
        who = _turn(seen) or "the player"
        out[:5] = ["%s: money" % who, "%s: money" % who, "", "deck", "cards in deck"]
    elif dice[5].text.isdigit() and not dice[5].bar:    # another player's money, for 3 s
        who = _whose(dice[5])
        out[4:] = ["%s: money" % who, "%s: money" % who]
    return out


def _die6(seen, d):
    from cheesonomics.entry import STEP_NAMES, STEP_SIGNS
    t = d.text
    if t == ":undo":
        return "undone: %s" % _whose(d)
    if t == ":cross":
        return "refused"
    if d.bar:
        return "%s's sale" % t if t.startswith("P") else "sale's sum: %s" % t
    if t.startswith("F") and t[1:].isdigit():
        return "final turns: %s" % t[1:]
    if t.startswith("P") and t[1:].isdigit():
        return "%s's turn" % t
    if t in ("OK", "0K"):
        return "OK: buzzer"
    if t in STEP_SIGNS[1:]:
        return "next: %s" % STEP_NAMES[STEP_SIGNS.index(t)]
    return "turn"


def _final_labels(dice, c):
    if dice[5].text == ":crown" and dice[1].text.startswith("P"):
        return ["winner"] * 5 + ["crown: the winners"]
    t = dice[1].text
    line = FINAL_LINES.get(t)
    if line is None and t.startswith("A") and t[1:].isdigit():
        line = "most sold %s" % c.animals[int(t[1:]) - 1]
    who = dice[0].text + "'s count" if dice[0].text.startswith("P") else "who"
    return [who, line or "line", "amount", "amount", "",
            "winner's total" if dice[5].text == ":crown" else ""]


def in_play(seen, d):
    return False


def keyed(seen, s, k):
    """A value of the turn, not a plate (the active player's step takes it)."""
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
        step = step_legend(box.game) if box is not None else "your action"
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
