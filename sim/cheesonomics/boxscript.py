"""Scenario commands for Cheesonomics on the box (companion mode).

They press what a table presses: a long ROLL at joining to pick the game,
buzzers for the variant, and at the active station: on answer keys one key
a value, then one buzzer press; on a dial the dial then the buzzer, one
value a step, 300 ms apart, a sale's pieces with the action (4-6: sell
1-3) (firmware/cheesonomics/entry.py). Names are
the card list's (cards.json): `sell P2 goat Italy 2`; a market card by
its country and signs up|back (`exchange France 1|2 Italy 2|1`).
"""

COMMANDS = ("variant", "enter", "collect", "produce", "sell", "pass", "undo", "look")
_DIAL_GAP_MS = 320      # a dial's steps are confirmed 300 ms apart at least


class ScriptError(Exception):
    pass


def _cards():
    from cheesonomics.cardfile import load
    return load()


def _index(names, word, what):
    for i in range(len(names)):
        if names[i].lower() == word.lower():
            return i + 1
    if word.isdigit() and 1 <= int(word) <= len(names):
        return int(word)
    raise ScriptError("%s must be one of %s (or 1-%d), got %r"
                      % (what, ", ".join(names), len(names), word))


def _kind(word):
    """'1|2' -> its key (entry.KIND_CODES)."""
    from cheesonomics.entry import KIND_CODES
    parts = word.split("|")
    if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
        code = (int(parts[0]), int(parts[1]))
        if code in KIND_CODES:
            return KIND_CODES.index(code) + 1
    raise ScriptError("a market card's signs are up|back: 1|1, 1|2, 2|1 or 2|2, got %r" % word)


def _clear(sim):
    """An action command starts from the action step: ROLL back over what was keyed."""
    g = sim.box.game
    while g.state_name() == "turn" and g.k > 0:
        sim.press(8)


def _enter(sim, s, values):
    """Keys: each value's key, then the buzzer once. A dial: each value, the buzzer."""
    if sim.box.dials:
        for v in values:
            sim.place(s, v)
            sim.press(s)
            sim.wait(_DIAL_GAP_MS)
        return
    for v in values:
        sim.place(s, v)
        sim.wait(40)
    sim.press(s)


def _variant(sim, g, args):
    if len(args) != 1 or args[0] not in ("basic", "advanced"):
        raise ScriptError("usage: variant basic|advanced")
    if g.state_name() != "variant":
        raise ScriptError("variant: the box is not choosing the variant (state %s)" % g.state_name())
    if g.advanced != (args[0] == "advanced"):
        sim.press(g.stations[0])
    sim.press(8)
    while sim.box.state_name() == "layout":
        sim.press(8)                # the table lays out a sector of market cards: next


def _values(rest):
    """`enter Pn VALUE ...`: the values, each 0-7."""
    try:
        values = [int(v) for v in rest]
    except ValueError:
        raise ScriptError("usage: enter Pn VALUE ... (0-7)")
    if not values or any(not 0 <= v <= 7 for v in values):
        raise ScriptError("usage: enter Pn VALUE ... (0-7)")
    return values


def _collect(rest, c):
    if len(rest) != 1:
        raise ScriptError("usage: collect Pn ANIMAL|PLACE (e.g. collect P1 goat, collect P1 red)")
    w = rest[0].lower()
    if w in [a.lower() for a in c.animals]:
        return [1, _index(c.animals, w, "animal")]
    return [2, _index(c.places, w, "a milk type (animal or place)")]


def dialled(values):
    """A turn's values as keys take them, as a dial takes them: a sale's
    pieces come with the action (4, 5, 6: sell 1, 2, 3 pieces)."""
    if len(values) >= 4 and values[0] == 4 and 1 <= values[3] <= 3:
        return [3 + values[3]] + values[1:3] + values[4:]
    return values


def _sell(g, rest, c, dials=False):
    """`sell Pn ANIMAL COUNTRY PIECES [forbid MARK] [exchange ...]`: the values keyed."""
    if len(rest) < 3:
        raise ScriptError("usage: sell Pn ANIMAL COUNTRY PIECES [forbid MARK] "
                          "[exchange COUNTRY-SIGNS COUNTRY SIGNS]")
    values = [4, _index(c.animals, rest[0], "animal"), _index(c.countries, rest[1], "country")]
    if not rest[2].isdigit():
        raise ScriptError("sell: pieces must be 1-3, got %r" % rest[2])
    values.append(int(rest[2]))
    if dials:
        values = dialled(values)
    extra = rest[3:]
    if not g.advanced:
        if extra:
            raise ScriptError("sell: forbid and exchange are for the advanced variant")
        return values
    mark = 0
    swap = [0]
    while extra:
        if extra[0] == "forbid" and len(extra) >= 2:
            mark = _index(c.marks, extra[1], "mark")
            extra = extra[2:]
        elif extra[0] == "exchange" and len(extra) >= 3:
            # the sold country's market card by its signs, then the card laid
            swap = [_kind(extra[1]), _index(c.countries, extra[2], "country"), _kind(extra[3])] \
                if len(extra) >= 4 else None
            if swap is None:
                raise ScriptError("usage: exchange SIGNS COUNTRY SIGNS (exchange 1|2 Italy 2|1)")
            extra = extra[4:]
        else:
            raise ScriptError("sell: after the pieces: forbid MARK, exchange SIGNS COUNTRY SIGNS")
    return values + [mark] + swap


def run(sim, cmd, args, player):
    """One command; `player(tok)` turns "P2" into station 1 (ScriptError-free
    checks are the caller's)."""
    box = sim.box
    if box.game is None:
        raise ScriptError("%s: no Cheesonomics game on the box (state %s)" % (cmd, box.state_name()))
    g = box.game
    if cmd == "variant":
        _variant(sim, g, args)
        return
    if not args:
        raise ScriptError("usage: %s Pn ..." % cmd)
    s = player(args[0])
    rest = args[1:]
    if cmd == "enter":
        _enter(sim, s, _values(rest))
        return
    c = _cards()
    if cmd == "undo":
        if rest:
            raise ScriptError("usage: undo Pn (the player whose action is undone)")
        sim.penalty(s)              # ROLL held 0.4 s, then Pn's buzzer
        return
    if cmd == "look":
        if rest:
            raise ScriptError("usage: look Pn")
        sim.press(8)                # ROLL with nothing keyed: deck and money
        return
    _clear(sim)
    if cmd == "pass":
        _enter(sim, s, [0])
    elif cmd == "produce":
        if len(rest) != 1 or not rest[0].isdigit():
            raise ScriptError("usage: produce Pn CARDS")
        _enter(sim, s, [3, int(rest[0])])
    elif cmd == "collect":
        _enter(sim, s, _collect(rest, c))
    elif cmd == "sell":
        _enter(sim, s, _sell(g, rest, c, box.dials))


def result(box):
    """The --json view of a Cheesonomics game on the box."""
    g = box.game
    b = g.bank
    out = {"variant": "advanced" if g.advanced else "basic"}
    if b is not None:
        out["money"] = dict(("P%d" % (g.stations[p] + 1), b.money[p]) for p in range(b.n))
        out["turns"] = dict(("P%d" % (g.stations[p] + 1), b.turns[p]) for p in range(b.n))
        out["deck"] = b.deck
        out["prices"] = [b.price(x) for x in range(5)]
        out["turn"] = "P%d" % (g.stations[b.cur] + 1) if not b.over else None
        out["over"] = b.over
        out["winners"] = ["P%d" % (g.stations[p] + 1) for p in b.winners]
    return out
