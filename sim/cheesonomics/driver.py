"""One turn of Cheesonomics, asking each seat's agent (a bot or a person) for
the choices the rules give them, in the order the table makes them.

An agent has turn(g, p), give(g, q, t, p, opts), pick(g, p, q, t, opts),
returns(g, p, hand, others) and after_sale(g, p, a, country, cards)
(bot.Bot is one; the simulator's terminal player is another). An agent may
also have told(g, p, line): what seat p learns in private, a card another
player chose for them ("P2 gave you cow/red", "P3 took your sheep/red and
gave you goat/blue", "You drew cow/red, sheep/blue"). play_turn() returns a line saying what the table saw.
"""
from sim.cheesonomics.engine import randbelow


def _tell(agents, s, g, line):
    f = getattr(agents[s], "told", None)
    if f is not None:
        f(g, s, line)


def play_turn(g, agents, rng):
    p = g.cur
    act = agents[p].turn(g, p)
    k = act[0]
    who = "P%d" % (p + 1)
    if k == "collect":
        t = act[1]
        gives = [None] * g.n
        picked = [False] * g.n          # the card p took from q's shown hand
        shown = []
        for q in range(g.n):
            if q == p:
                continue
            opts, own = g.give_options(q, t, p)
            if not opts:
                continue
            if own:
                gives[q] = agents[q].give(g, q, t, p, opts)
            else:
                shown.append("P%d" % (q + 1))
                gives[q] = agents[p].pick(g, p, q, t, opts)
                picked[q] = True
        for q in range(g.n):
            if gives[q] is not None and not picked[q]:
                _tell(agents, p, g, "P%d gave you %s" % (q + 1, g.card_name(gives[q])))
        hand = list(g.hands[p])
        for c in gives:
            if c is not None:
                hand.append(c)
        others = [q for q in range(g.n) if q != p]
        back = agents[p].returns(g, p, hand, others)
        returns = [None] * g.n
        for i in range(len(back)):
            returns[others[i]] = back[i]
        g.collect(t, gives, returns)
        for q in others:
            told = []
            if picked[q]:
                told.append("took your %s" % g.card_name(gives[q]))
            if returns[q] is not None:
                told.append("gave you %s" % g.card_name(returns[q]))
            if told:
                _tell(agents, q, g, "P%d %s" % (p + 1, " and ".join(told)))
        line = "%s collects %s" % (who, g.type_name(t))
        if shown:
            line += " (%s showed their hand)" % ", ".join(shown)
        return line
    if k == "produce":
        kept = len(g.hands[p]) - len(act[2])
        g.produce(act[1], act[2])
        drawn = g.hands[p][kept:]
        _tell(agents, p, g, "You drew %s" % (", ".join(g.card_name(c) for c in drawn) if drawn
                                             else "nothing: the deck is empty"))
        return "%s produces %d %s" % (who, len(act[2]), g.type_name(act[1]))
    if k == "sell":
        a, country, cards = act[1], act[2], act[3]
        price = g.price(country)
        action = replace = None
        if g.advanced:
            action, replace = agents[p].after_sale(g, p, a, country, cards)
            if action is not None and action[0] == "trade" and action[3] is None:
                theirs = g.own[action[1]]   # taken blind from the opponent's fan
                action = (action[0], action[1], action[2], theirs[randbelow(rng, len(theirs))] if theirs else None)
        g.sell(a, country, cards, action, replace)
        line = "%s sells %d %s to %s at %d: %d" % (
            who, len(cards), g.cards.animals[a], g.cards.countries[country], price, price * len(cards))
        if action is not None:
            line += "; %s" % action[0]
            if action[0] == "forbid":
                line += " %s" % g.cards.marks[action[1]]
        if replace is not None:
            line += "; exchanges one %s card" % g.cards.countries[country]
        return line
    if k == "pass":
        g.pass_turn()
        return "%s passes the final turn" % who
    raise ValueError("unknown action %r" % (k,))


def play_game(g, agents, rng, limit=2000):
    """Turns until the game is over (or `limit` turns: a stuck table)."""
    t = 0
    while not g.over and t < limit:
        play_turn(g, agents, rng)
        t += 1
    return t
