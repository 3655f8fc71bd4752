"""Cheesonomics players for a lone human's table and for tests.

Bot plays a plain, sensible strategy: gather one animal (collect it while it
is short, produce it by three), sell full lots of three where the price is
good, pass back the cards it needs least, and empty its table in the final
turns, or sooner when the players after it in the round are likely to empty
the deck first. It weighs what a sale does to the market: of the sales that
pay enough it makes the one worth most once turning the country's cards over
is counted (a best price raised for the next players, who hold cheese to
sell, counts against it; for itself, with cheese left, for it), and in the
advanced variant it exchanges a card to bring the best price down for them
(or up for itself), not to hand the next seller a better market.
RandomAgent makes any legal choice at random: the fuzzer of the randomized
whole-game tests. Both only read the game, never change it; both are
deterministic given their random source.
"""
from sim.cheesonomics.engine import randbelow, MARKET
from cheesonomics.cardfile import NONE


def _animals(cards):
    k = bytearray(5)
    for c in cards:
        k[c // 20] += 1
    return k


def _market(g):
    """(price of each country now, its price once its cards turn over)."""
    cs, sides = g.cards.country, g.cards.sides
    now = bytearray(5)
    flip = bytearray(5)
    for i in range(MARKET):
        m = g.mk[i]
        up = g.side[i]
        now[cs[m]] += sides[2 * m + up]
        flip[cs[m]] += sides[2 * m + (up ^ 1)]
    return now, flip


def _lot(table):
    """The most pieces of one animal a player could sell next (at most 3)."""
    k = _animals(table)
    return min(3, max(k))


class Bot:
    def __init__(self, rng, produce_at=3, sell_price=5, rivals=2, mine=2, endgame=4):
        self.rng = rng
        self.produce_at = produce_at      # produce an animal once this many are in hand
        self.sell_price = sell_price      # sell a lot of 3 at this price or more
        # a sign more or less on the best price we leave is worth, per piece
        # its seller may sell next: rivals/4 to the next player (against us),
        # half that to the one after, and so on; mine/4 to ourselves (for us)
        self.rivals = rivals
        self.mine = mine
        self.streak = 0                   # collects in a row (a stuck table produces)
        # fear the end when the players left in this round, drawing at
        # endgame/4 times the rate seen so far, would empty the deck (0: never)
        self.endgame = endgame
        self.d0 = -1                      # the deck count and turns played when we first saw them
        self.t0 = 0
        self.why = ""                     # why the last turn did what it did (one line, for the table)

    def _at_risk(self, g, p):
        """This may be our last turn although the deck still holds cards:
        the players after us in this round (up to the first player) draw as
        many cards as they produce, and at the rate the deck has gone down
        so far (a card a turn before we have seen any) they would empty it.
        The last seat of a round (before the first player) never fears: the
        next round comes unless it empties the deck itself."""
        d = g.deck_count()
        t = 0
        for x in g.turns:
            t += x
        if self.d0 < 0:
            self.d0, self.t0 = d, t
        m = (g.first - p - 1) % g.n
        if not m or not self.endgame:
            return False
        t -= self.t0
        if not t:
            return 4 * d <= m * self.endgame
        return 4 * d * t <= m * (self.d0 - d) * self.endgame

    def _stake(self, g, p, left):
        """What a change of one in the best price is worth to us after our
        turn, in quarters: our own next lot (`left` pieces remain on our
        table) counts for us, each next player's lot against us, the nearest
        most (it sells first, at the market we leave)."""
        w = self.mine * min(3, left)
        f = self.rivals * 4
        for i in range(1, g.n):
            q = (p + i) % g.n
            w -= f * _lot(g.table[q]) // 4
            f = f // 2
        return w

    def turn(self, g, p):
        act = self._turn(g, p)
        self.streak = self.streak + 1 if act[0] == "collect" else 0
        return act

    def _sale(self, g, p, last, short):
        """The sale to make now, (animal, country, pieces), or None. A sale
        pays enough (a lot of 3 at sell_price; less near the end; anything
        in the final turns); among those, the one that is worth most once
        its market move is counted: the country's cards turn over, which
        may raise or lower the best price the next players (and we, later)
        sell at. Ties are drawn at random (seeded). self.why says why."""
        table = g.table[p]
        ontable = _animals(table)
        now, flip = _market(g)
        top = max(now)
        need = 3 * self.sell_price if not short else 2 * self.sell_price
        best, bs, ties = None, 0, 0
        seen = []                       # (pay, country, best price left) of each sale that pays enough
        for a in range(5):
            k = min(3, ontable[a])
            if not k:
                continue
            ontable[a] -= k
            left = max(ontable)
            ontable[a] += k
            stake = self._stake(g, p, left)
            for c in range(5):
                pr = now[c]
                if not pr or (not last and k * pr < need):
                    continue
                moved = flip[c]
                for x in range(5):
                    if x != c and now[x] > moved:
                        moved = now[x]
                seen.append((k * pr, c, moved))
                sc = 4 * k * pr + stake * (moved - top)
                if best is None or sc > bs:
                    best, bs, ties = (a, c, k, stake, moved), sc, 1
                elif sc == bs:
                    ties += 1
                    if randbelow(self.rng, ties) == 0:
                        best = (a, c, k, stake, moved)
        if best is None:
            a = 0
            for x in range(5):
                if ontable[x] > ontable[a]:
                    a = x
            k = min(3, ontable[a])
            self.why = "its %s cheese waits: %d at %d would pay %d, it sells at %d" % (
                g.cards.animals[a], k, top, k * top, need)
            return None
        a, c, k, stake, moved = best
        self.why = self._sale_why(g, p, last, need, k * now[c], c, stake, moved, seen)
        return a, c, self._pieces(table, a, k)

    def _sale_why(self, g, p, last, need, pay, c, stake, moved, seen):
        """Why this sale: it pays enough (or the end is near), and what it
        leaves on the market, against the sale that would have paid most."""
        names = g.cards.countries
        if g.final_turns():
            why = "final turns: it sells what it has"
        elif last and pay < need:
            why = "the players after it may empty the deck first: it sells now"
        else:
            why = "%d is enough (it sells at %d)" % (pay, need)
        alt = None
        for s in seen:
            if s[1] != c and s[0] >= pay and s[2] != moved and (alt is None or s[0] > alt[0]):
                alt = s
        if alt is not None:
            whose = "the next players" if stake < 0 else "its own next sale"
            why += "; %s pays %s, but turned over would leave %s %d, not %d" % (
                names[alt[1]], "%d too" % alt[0] if alt[0] == pay else alt[0], whose, alt[2], moved)
        return why

    def _turn(self, g, p):
        hand = g.hands[p]
        inhand = _animals(hand)
        ontable = _animals(g.table[p])
        lot = min(3, max(ontable))
        final = g.final_turns()
        last = final or self._at_risk(g, p)
        short = g.deck_count() <= 2 * g.n
        grp_a = 0
        for a in range(5):
            if inhand[a] > inhand[grp_a]:
                grp_a = a
        grp = inhand[grp_a]
        wait = ""
        if lot:
            sale = self._sale(g, p, last, short)
            if sale is not None:
                return ("sell", sale[0], sale[1], sale[2])
            wait = "; " + self.why
        name = g.cards.animals[grp_a]
        if grp and (grp >= self.produce_at or last or (short and grp >= 2)
                    or (self.streak >= 2 and grp >= 2) or self.streak >= 4):
            self.why = self._produce_why(g, grp, name, final, last, short) + wait
            return ("produce", grp_a, [c for c in hand if c // 20 == grp_a])
        if final and not hand and not lot:
            self.why = "nothing in hand or on the table for its last turn"
            return ("pass",)
        # collect the animal we hold most of (table counts a little), unlocked
        order = []
        for a in range(5):
            order.append((inhand[a] * 2 + (1 if ontable[a] else 0), randbelow(self.rng, 4), a))
        order.sort()
        for i in range(4, -1, -1):
            t = order[i][2]
            if g.locked_by(t, p) < 0:
                self.why = "gathering %s, its biggest group, toward a lot of 3" % g.type_name(t)
                if i < 4:
                    top = order[4][2]
                    self.why = "gathering %s: %s is under P%d's knife" % (
                        g.type_name(t), g.type_name(top), g.locked_by(top, p) + 1)
                self.why += wait
                return ("collect", t)
        for t in range(5, 10):
            if g.locked_by(t, p) < 0:
                self.why = "every animal is under a knife: it names a place" + wait
                return ("collect", t)
        self.why = "every type is under a knife" + wait
        return ("pass",)

    def _produce_why(self, g, grp, name, final, last, short):
        if grp >= self.produce_at:
            return "%d %s are a lot to sell (it produces at %d)" % (grp, name, self.produce_at)
        if final:
            return "final turns: it lays what it holds (an unsold piece pays 1)"
        if last:
            return "the players after it may empty the deck first: it lays what it holds"
        if short and grp >= 2:
            return "the deck is nearly out (%d cards): it lays its %s" % (g.deck_count(), name)
        return "%d collects in a row made no lot: it lays its %s" % (self.streak, name)

    def _pieces(self, table, a, k):
        out = []
        for c in table:
            if c // 20 == a and len(out) < k:
                out.append(c)
        return out

    def give(self, g, q, t, p, opts):
        """Pass the card of the named type we need least."""
        inhand = _animals(g.hands[q])
        best = opts[0]
        for c in opts:
            if inhand[c // 20] < inhand[best // 20]:
                best = c
        return best

    def pick(self, g, p, q, t, opts):
        """From a shown hand, take the card that grows our biggest group."""
        inhand = _animals(g.hands[p])
        best, bk = opts[0], -1
        for c in opts:
            k = inhand[c // 20] + (8 if c // 20 == t else 0)
            if k > bk:
                best, bk = c, k
        return best

    def returns(self, g, p, hand, others):
        inhand = _animals(hand)
        rest = sorted(hand, key=lambda c: (inhand[c // 20], c))
        return rest[:min(len(others), len(rest))]

    def after_sale(self, g, p, a, country, cards):
        action = None
        marks = [g.cards.mark[c] for c in cards if g.cards.mark[c] != NONE]
        if marks:
            if g.reserve and g.own[p] and self._worst_own(g, p) is not None and randbelow(self.rng, 2):
                action = ("reserve", self._worst_own(g, p))
            else:
                action = ("forbid", marks[0])
        own = list(g.own[p])
        if action is not None and action[0] == "reserve":
            own.remove(action[1])
            own.append(g.reserve[0])
        replace = self._replacement(g, p, country, own, cards)
        if action is not None and action[0] == "forbid":
            self.why += "; it forbids %s, the mark it sold" % g.cards.marks[action[1]]
        elif action is not None:
            self.why += "; it swaps its weakest market card for the reserve's top one"
        return action, replace

    def _worst_own(self, g, p):
        worst, ws = None, 9
        for m in g.own[p]:
            s = g.cards.sides[2 * m] + g.cards.sides[2 * m + 1]
            if s < ws:
                worst, ws = m, s
        return worst

    def _replacement(self, g, p, country, own, sold):
        """Turn the sold country's cards over, or exchange one for one of
        our own: whichever leaves the best price worth most to us (lower
        while the next players hold cheese to sell, higher when we do)."""
        left = _animals([c for c in g.table[p] if c not in sold])
        stake = self._stake(g, p, max(left))
        if not stake:
            return None
        cs, sides = g.cards.country, g.cards.sides
        pr = bytearray(5)           # prices once the sold country is turned over
        for i in range(MARKET):
            m = g.mk[i]
            up = g.side[i] ^ (1 if cs[m] == country else 0)
            pr[cs[m]] += sides[2 * m + up]
        best, choice = stake * max(pr), None
        for pos in range(MARKET):
            m0 = g.mk[pos]
            if cs[m0] != country:
                continue
            s0 = sides[2 * m0 + (g.side[pos] ^ 1)]
            for m in own:
                for s in (0, 1):
                    pr[country] -= s0
                    pr[cs[m]] += sides[2 * m + s]
                    v = stake * max(pr)
                    if v > best:
                        best, choice = v, ("exchange", pos, m, s)
                    pr[cs[m]] -= sides[2 * m + s]
                    pr[country] += s0
        if choice is not None:
            self.why += "; it lays one of its market cards to leave %s a best price of %d, not %d" % (
                "the next players" if stake < 0 else "its own next sale", best // stake, max(pr))
        return choice


class RandomAgent:
    """Any legal choice, at random (weighted so that games end)."""

    def __init__(self, rng):
        self.rng = rng

    def _r(self, n):
        return randbelow(self.rng, n)

    def turn(self, g, p):
        hand = g.hands[p]
        sells = []
        for a in range(5):
            if g.table_count(p, a):
                for k in range(5):
                    if g.price(k):
                        sells.append((a, k))
        roll = self._r(10)
        if g.final_turns() and roll == 0:
            return ("pass",)
        if sells and roll < 4:
            a, k = sells[self._r(len(sells))]
            pile = [c for c in g.table[p] if c // 20 == a]
            n = 1 + self._r(min(3, len(pile)))
            pieces = []
            while len(pieces) < n:
                c = pile[self._r(len(pile))]
                if c not in pieces:
                    pieces.append(c)
            return ("sell", a, k, pieces)
        if hand and roll < 8:
            c = hand[self._r(len(hand))]
            t = c // 20 if self._r(2) else 5 + (c // 4) % 5
            of = [x for x in hand if (x // 20 == t if t < 5 else 5 + (x // 4) % 5 == t)]
            pieces = [x for x in of if self._r(3)] or [c]
            return ("produce", t, pieces)
        while True:
            t = self._r(10)
            if g.locked_by(t, p) < 0:
                return ("collect", t)

    def give(self, g, q, t, p, opts):
        return opts[self._r(len(opts))]

    def pick(self, g, p, q, t, opts):
        return opts[self._r(len(opts))]

    def returns(self, g, p, hand, others):
        hand = list(hand)
        out = []
        while hand and len(out) < len(others):
            out.append(hand.pop(self._r(len(hand))))
        return out

    def after_sale(self, g, p, a, country, cards):
        marks = [g.cards.mark[c] for c in cards if g.cards.mark[c] != NONE]
        own = list(g.own[p])
        action = None
        if marks and self._r(4):
            k = self._r(3)
            if k == 0 and g.reserve and own:
                action = ("reserve", own[self._r(len(own))])
                own.remove(action[1])
                own.append(g.reserve[0])
            elif k == 1 and own:
                q = self._r(g.n - 1)
                q = q + 1 if q >= p else q
                if g.own[q]:
                    theirs = g.own[q][self._r(len(g.own[q]))]
                    action = ("trade", q, own[self._r(len(own))], theirs)
                    own.remove(action[2])
                    own.append(theirs)
            else:
                action = ("forbid", marks[self._r(len(marks))])
        replace = None
        if own and self._r(2):
            pos = [i for i in range(MARKET) if g.cards.country[g.mk[i]] == country]
            replace = ("exchange", pos[self._r(len(pos))], own[self._r(len(own))], self._r(2))
        return action, replace
