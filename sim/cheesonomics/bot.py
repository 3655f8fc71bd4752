"""Cheesonomics players for a lone human's table and for tests.

Bot plays a plain, sensible strategy: gather one animal (collect it while it
is short, produce it by three), sell full lots of three where the price is
good, pass back the cards it needs least, and empty its table in the final
turns. RandomAgent makes any legal choice at random: the fuzzer of the
randomized whole-game tests. Both only read the game, never change it.
"""
from sim.cheesonomics.engine import randbelow, MARKET
from cheesonomics.cardfile import NONE


def _animals(cards):
    k = bytearray(5)
    for c in cards:
        k[c // 20] += 1
    return k


def _best_country(g, rng=None):
    """(country, price) of the best price; ties drawn at random when rng is
    given (always the first would sell there more often, and so turn its
    cards over more often: a bias the balance lab would see)."""
    best, bp, ties = -1, 0, 0
    for k in range(5):
        pr = g.price(k)
        if pr > bp:
            best, bp, ties = k, pr, 1
        elif pr == bp and pr and rng is not None:
            ties += 1
            if randbelow(rng, ties) == 0:
                best = k
    return best, bp


class Bot:
    def __init__(self, rng, produce_at=3, sell_price=5):
        self.rng = rng
        self.produce_at = produce_at      # produce an animal once this many are in hand
        self.sell_price = sell_price      # sell a lot of 3 at this price or more
        self.streak = 0                   # collects in a row (a stuck table produces)

    def turn(self, g, p):
        act = self._turn(g, p)
        self.streak = self.streak + 1 if act[0] == "collect" else 0
        return act

    def _turn(self, g, p):
        hand = g.hands[p]
        inhand = _animals(hand)
        ontable = _animals(g.table[p])
        country, price = _best_country(g, self.rng)
        lot_a, lot = -1, 0
        for a in range(5):
            k = min(3, ontable[a])
            if k > lot or (k == lot and k and ontable[a] > ontable[lot_a]):
                lot_a, lot = a, k
        last = g.final_turns()
        short = g.deck_count() <= 2 * g.n
        grp_a = 0
        for a in range(5):
            if inhand[a] > inhand[grp_a]:
                grp_a = a
        grp = inhand[grp_a]
        if lot and country >= 0:
            if last or lot * price >= 3 * self.sell_price or (short and lot * price >= 2 * self.sell_price):
                return ("sell", lot_a, country, self._pieces(g.table[p], lot_a, lot))
        if grp and (grp >= self.produce_at or last or (short and grp >= 2)
                    or (self.streak >= 2 and grp >= 2) or self.streak >= 4):
            return ("produce", grp_a, [c for c in hand if c // 20 == grp_a])
        if last and not hand and not lot:
            return ("pass",)
        # collect the animal we hold most of (table counts a little), unlocked
        order = []
        for a in range(5):
            order.append((inhand[a] * 2 + (1 if ontable[a] else 0), randbelow(self.rng, 4), a))
        order.sort()
        for i in range(4, -1, -1):
            t = order[i][2]
            if g.locked_by(t, p) < 0:
                return ("collect", t)
        for t in range(5, 10):
            if g.locked_by(t, p) < 0:
                return ("collect", t)
        return ("pass",)

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
        return action, self._replacement(g, country, own)

    def _worst_own(self, g, p):
        worst, ws = None, 9
        for m in g.own[p]:
            s = g.cards.sides[2 * m] + g.cards.sides[2 * m + 1]
            if s < ws:
                worst, ws = m, s
        return worst

    def _replacement(self, g, country, own):
        """Exchange when it leaves a better best price than turning over."""
        cs, sides = g.cards.country, g.cards.sides
        pr = bytearray(5)           # prices once the sold country is turned over
        for i in range(MARKET):
            m = g.mk[i]
            up = g.side[i] ^ (1 if cs[m] == country else 0)
            pr[cs[m]] += sides[2 * m + up]
        best, choice = max(pr), None
        for pos in range(MARKET):
            m0 = g.mk[pos]
            if cs[m0] != country:
                continue
            s0 = sides[2 * m0 + (g.side[pos] ^ 1)]
            for m in own:
                for s in (0, 1):
                    pr[country] -= s0
                    pr[cs[m]] += sides[2 * m + s]
                    if max(pr) > best:
                        best, choice = max(pr), ("exchange", pos, m, s)
                    pr[cs[m]] -= sides[2 * m + s]
                    pr[country] += s0
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
