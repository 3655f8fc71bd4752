"""Cheesonomics' events, read for the box's screen (sim/boxscreen.py): the
screen each event leaves the box on, the money, the deck, whose turn, and
the lines of the turn (what was keyed and refused, what the action did, an
undo), kept until the next player's turn is over; the log's own
--json-like result (the emulated chip has no other); and what each die
means, read from its picture. Loaded by the screen only (host.py reaches
it), so a scenario on a small MicroPython heap never holds it."""


def event(seen, e):
    """One event: the Seen updated; the reason it gives, or None."""
    ev = e.get("ev")
    p = e.get("p", "?")
    g = seen.g
    if ev == "variant":
        seen.state = "variant"
        g["variant"] = e.get("variant")
    elif ev == "market":
        _market(seen, e)
    elif ev == "action":
        _action(seen, e)
    elif ev == "layout":
        if e.get("done"):
            seen.state = "turn"
            line(seen, "the market is laid out: %s plays first" % g.get("turn", "?"))
        else:
            line(seen, "sector %s of 3 laid out" % e.get("sector", "?"))
    elif ev == "not_allowed" and seen.state in ("turn", "final"):
        line(seen, "%s: not allowed: %s" % (p, e.get("why", "?")))     # as the why line says it
    elif ev == "undo":
        seen.state = "turn"
        seen.score[p] = e.get("money", seen.score.get(p))
        g.update(deck=e.get("deck", g.get("deck")), turn=p, undo=None)
        if "prices" in e:
            g["prices"] = e["prices"]
        line(seen, "%s's action undone: money %s, deck %s, the prices as before: %s plays again"
             % (p, e.get("money", "?"), e.get("deck", "?"), p))
    elif ev == "final_turns":
        line(seen, "the deck is out: final turns for %s" % ", ".join(e.get("left", [])))
        g["final"] = True
    elif ev == "final":
        seen.state = "final"
        seen.score.update(e.get("money", {}))
        g.update(winners=list(e.get("winners", [])), turn=None)
        line(seen, "final count: %s; winner %s" % (
            ", ".join("%s %s" % kv for kv in sorted(e.get("money", {}).items())),
            " and ".join(e.get("winners", []))))
    elif ev == "resume" and "money" in e:
        seen.score = dict(e["money"])
        seen.players = sorted(seen.score)
        seen.state = e.get("screen") or ("final" if e.get("turn") is None else "turn")    # older boxes: no screen
        g.update(deck=e.get("deck"), turn=e.get("turn"), undo=None, turns=[], last=[], winners=[])
    return None


def line(seen, text):
    """A line of the turn in progress."""
    seen.g.setdefault("turns", []).append(text)
    _shown(seen)


def _shown(seen):
    """The screen's notes: the last finished turn's lines, then this one's."""
    g = seen.g
    seen.notes = (g.get("last", []) + g.get("turns", []))[-6:]


def _market(seen, e):
    seen.players = list(e.get("players", []))
    seen.score = dict((q, 0) for q in seen.players)
    seen.games += 1
    advanced = e.get("variant") == "advanced"
    seen.state = "layout" if advanced else "turn"
    seen.g.update(variant=e.get("variant"), deck=e.get("deck"), turn=e.get("first"),
                  prices=e.get("prices"), winners=[], undo=None, turns=[], last=[], final=False)
    seen.notes = []


def _action(seen, e):
    g = seen.g
    p = e.get("p", "?")
    seen.state = "turn"
    seen.score[p] = e.get("money", seen.score.get(p))
    g.update(deck=e.get("deck", g.get("deck")), undo=p)
    if "prices" in e:
        g["prices"] = e["prices"]
    ps = seen.players
    if p in ps:
        g["turn"] = ps[(ps.index(p) + 1) % len(ps)]
    g.setdefault("turns", []).append(said(e))
    g["last"], g["turns"] = g["turns"], []
    _shown(seen)


def said(e):
    """An action in words, as the table would say it."""
    p = e.get("p", "?")
    act = e.get("act")
    if act == "collect":
        what = "%s collects %s" % (p, e.get("type", "?"))
    elif act == "produce":
        k = e.get("cards", 0)
        what = "%s produces: %s card%s laid out" % (p, k, "" if k == 1 else "s")
    elif act == "sell":
        k = e.get("pieces", 0)
        what = "%s sells %s %s piece%s in %s at %s: +%s" % (
            p, k, e.get("animal", "?"), "" if k == 1 else "s", e.get("country", "?"),
            e.get("price", "?"), e.get("paid", "?"))
        if e.get("exchange"):
            what += ", %s exchanged for %s" % (e["exchange"], e.get("laid", "?"))
    elif act == "pass":
        what = "%s passes (a final turn left out)" % p
    else:
        what = "%s: %s" % (p, act)
    return "%s (money %s, deck %s)" % (what, e.get("money", "?"), e.get("deck", "?"))


def keyed(seen, s, k):
    """A value the screen's own keys sent (the emulated chip's only record
    of what was keyed before the action). Keyed while die 6 shows whose turn
    it is, it is the action: it tells whether "which" asks for an animal or
    a place."""
    line(seen, "P%d keys %s" % (s + 1, k))
    d6 = seen.shown[5] if len(seen.shown) > 5 else None
    if d6 is not None and not d6.bar and d6.text == "P%d" % (s + 1):
        seen.g["act"] = int(k)
    elif d6 is None or d6.text == ":cross":
        seen.g["act"] = None            # after a refusal the step is not known from die 6


def result(seen, out):
    """The game's part of a --json-like result, from the log alone."""
    g = seen.g
    c = {"variant": g.get("variant") or "basic"}
    if seen.players and seen.state in ("layout", "turn", "final", "stop?"):
        c.update(money=dict((q, seen.score.get(q)) for q in seen.players), deck=g.get("deck"),
                 turn=g.get("turn"), winners=list(g.get("winners", [])), undo=g.get("undo"))
    out["cheesonomics"] = c


# -- the dice, read from their pictures ----------------------------------------------
_cards = []


def card_list():
    """The card list, read once as the box reads it (labels before a game)."""
    if not _cards:
        from cheesonomics.cardfile import load
        _cards.append(load())
    return _cards[0]


def patterns():
    """Its own pictures, beside the font and the icons: (name, 8 row bytes)."""
    from cheesonomics.game import COIN, UNDO
    return (("coin", COIN), ("undo", UNDO))


def turn(seen):
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
    c = card_list()
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
        who = turn(seen) or "the player"
        out[:5] = ["%s: money" % who, "%s: money" % who, "", "deck", "cards in deck"]
    elif (dice[5].text.isdigit() and not dice[5].bar      # another player's money, for 3 s
          and (not dice[4].text or dice[4].rgb == dice[5].rgb)):   # (not a card's signs keyed)
        who = _whose(dice[5])
        out[4:] = ["%s: money" % who, "%s: money" % who]
    elif dice[5].text == ":coin" and dice[4].text.startswith("P"):  # whose money, every other second
        out[4:] = ["%s: money" % dice[4].text, "%s: money" % dice[4].text]
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
    if len(t) == 2 and not t.startswith(":"):
        return "keyed: %s" % t          # the value's name (GO goat, IT Italy, K3, 12)
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
