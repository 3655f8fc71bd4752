"""The Cheesonomics rules engine: one game, pure and deterministic.

Everything random (the shuffles, the side each market card shows, the first
player) comes from the injected source `rng` (anything with getrandbits), so
a seed replays a game. Each action is one call that checks every choice
before it changes anything: a refused action raises RuleError and leaves the
game as it was. The rulebook and our rulings: docs/cheesonomics.md.

Cards are numbers: milk-cheese card c = animal * 20 + place * 4 + copy;
market card m = 0..24 (cardfile.Cards). A milk "type" t names an animal
(t = 0..4) or a production place (t = 5..9).
"""
try:
    from micropython import const  # pyright: ignore  (typed apart from our fallback)
except ImportError:  # CPython: the simulator and host tools
    def const(x):
        return x

from cheesebox.rand import randbelow  # noqa: F401  (the one unbiased draw, for bot and driver too)
from cheesebox.rand import shuffle as _shuffle
from cheesonomics.cardfile import NONE

HAND = const(5)
MARKET = const(15)
REMOVED = (0, 0, 60, 40, 20, 0)        # milk-cheese cards removed, by player count
PRIVATE = (0, 0, 5, 3, 2, 2)           # advanced: market cards dealt to each player

# where a card is (census): deck, removed, hand/table/sold of player p, gone
DECK = const(0)
OUT = const(1)          # removed at setup
GONE = const(2)         # unsold cheese, removed after the final count
HAND0 = const(10)       # + player
TABLE0 = const(20)
SOLD0 = const(30)


class RuleError(ValueError):
    pass


def shuffle(rng, seq):
    """The whole list, in place (the box's Fisher-Yates, cheesebox/rand.py)."""
    _shuffle(rng, seq, 0, len(seq))


def animal(c):
    return c // 20


def place(c):
    return (c // 4) % 5


def is_type(c, t):
    """Card c is of milk type t (an animal 0..4 or a place 5..9)."""
    if t < 5:
        return c // 20 == t
    return (c // 4) % 5 == t - 5


class Game:
    """One game of 2..5 players; seat 0 sits first clockwise after the dealer."""

    def __init__(self, cards, players, rng, advanced=False, first=-1):
        if players < 2 or players > 5:
            raise RuleError("Cheesonomics is for 2 to 5 players, not %d" % players)
        self.cards = cards
        self.n = players
        self.advanced = advanced
        deck = bytearray(range(100))
        shuffle(rng, deck)
        r = REMOVED[players]
        self.removed = bytearray(deck[:r])
        self.hands = []
        top = r
        for p in range(players):
            self.hands.append(list(deck[top:top + HAND]))
            top += HAND
        self.deck = deck
        self.top = top                      # deck[top:] is the draw deck, top card first
        self.table = [[] for _ in range(players)]   # produced cheese, face up
        self.sold = [[] for _ in range(players)]    # sold cheese, face down
        self.gone = []
        order = bytearray(range(25))
        shuffle(rng, order)
        self.mk = bytearray(order[:MARKET])          # market card at each position
        self.side = bytearray(MARKET)                # which side is up
        for i in range(MARKET):
            self.side[i] = rng.getrandbits(1)
        rest = order[MARKET:]
        self.own = [[] for _ in range(players)]     # advanced: private market cards
        self.reserve = []
        self.out_market = b""
        if advanced:
            k = PRIVATE[players]
            for p in range(players):
                self.own[p] = list(rest[p * k:(p + 1) * k])
            self.reserve = list(rest[players * k:])
        else:
            self.out_market = bytes(rest)
        self.money = [0] * players
        self.income = [0] * players         # money from sales
        self.bonus = [0] * players          # money from the final bonuses
        self.unsold_bonus = [0] * players
        self.top_bonus = [None] * 5  # type: list  # per animal: (amount, [players]) or None
        self.knife = bytearray(b"\xff" * players)   # type each knife locks, NONE if on no sector
        self.forbid = bytearray(b"\xff" * players)  # mark each player forbids (advanced)
        self.turns = [0] * players
        self.first = randbelow(rng, players) if first < 0 else first
        self.cur = self.first
        self.over = False
        self.winners = []

    # -- what the table sees ---------------------------------------------
    def deck_count(self):
        return len(self.deck) - self.top

    def final_turns(self):
        """True once the deck has run out: the round is being finished."""
        return self.top >= len(self.deck)

    def signs(self, pos):
        m = self.mk[pos]
        return self.cards.sides[2 * m + self.side[pos]]

    def price(self, country):
        """Money for one piece sold to `country`: the sum of its signs on the market."""
        s = 0
        for i in range(MARKET):
            if self.cards.country[self.mk[i]] == country:
                s += self.signs(i)
        return s

    def locked_by(self, t, p):
        """The player whose knife keeps p from naming type t, or -1."""
        for q in range(self.n):
            if q != p and self.knife[q] == t:
                return q
        return -1

    def forbidden(self, p):
        """Marks p may not take this turn (forbidden by other players)."""
        fb = []
        for q in range(self.n):
            if q != p and self.forbid[q] != NONE:
                fb.append(self.forbid[q])
        return fb

    def give_options(self, q, t, p=-1):
        """(cards, giver_chooses) when p names t: q's cards of type t that p
        may take, q choosing; else every card p may take, p choosing (q
        shows the hand)."""
        if p < 0:
            p = self.cur
        fb = self.forbidden(p)
        own = []
        for c in self.hands[q]:
            if is_type(c, t) and self.cards.mark[c] not in fb:
                own.append(c)
        if own:
            return own, True
        return [c for c in self.hands[q] if self.cards.mark[c] not in fb], False

    def table_count(self, p, a):
        k = 0
        for c in self.table[p]:
            if c // 20 == a:
                k += 1
        return k

    def sold_count(self, p, a):
        k = 0
        for c in self.sold[p]:
            if c // 20 == a:
                k += 1
        return k

    # -- actions ----------------------------------------------------------
    def _check_playing(self):
        if self.over:
            raise RuleError("the game is over")

    def collect(self, t, gives, returns):
        """Collecting milk: name type t; gives[q] is the card q passes (None
        only when q has nothing p may take); returns[q] the card p passes
        back to q. p's knife then locks t until p's next turn."""
        self._check_playing()
        p = self.cur
        n = self.n
        if t < 0 or t > 9:
            raise RuleError("no milk type %r" % t)
        q = self.locked_by(t, p)
        if q >= 0:
            raise RuleError("%s is locked by player %d's knife" % (self.type_name(t), q + 1))
        if len(gives) != n or len(returns) != n:
            raise RuleError("one card from and to each player")
        got = []
        for q in range(n):
            if q == p:
                continue
            opts, _ = self.give_options(q, t, p)
            c = gives[q]
            if c is None:
                if opts:
                    raise RuleError("player %d must pass a card" % (q + 1))
            elif c not in opts:
                raise RuleError("player %d cannot pass %s" % (q + 1, self.card_name(c)))
            else:
                got.append(c)
        after = self.hands[p] + got
        back = 0
        for q in range(n):
            if q == p:
                continue
            c = returns[q]
            if c is None:
                continue
            if c not in after:
                raise RuleError("%s is not in the hand to pass back" % self.card_name(c))
            after.remove(c)
            back += 1
        want = min(n - 1, len(self.hands[p]) + len(got))
        if back != want:
            raise RuleError("pass back one card to each player (%d, not %d)" % (want, back))
        for q in range(n):
            if q != p and gives[q] is not None:
                self.hands[q].remove(gives[q])
        for q in range(n):
            if q != p and returns[q] is not None:
                self.hands[q].append(returns[q])
        self.hands[p] = after
        self.knife[p] = t
        self._end_turn()

    def produce(self, t, cards):
        """Producing cheese: lay cards of type t face up, then draw to 5."""
        self._check_playing()
        p = self.cur
        if t < 0 or t > 9:
            raise RuleError("no milk type %r" % t)
        if not cards:
            raise RuleError("produce at least one card")
        h = self.hands[p]
        for i in range(len(cards)):
            c = cards[i]
            if c not in h or c in cards[:i]:
                raise RuleError("%s is not in the hand" % self.card_name(c))
            if not is_type(c, t):
                raise RuleError("%s is not %s" % (self.card_name(c), self.type_name(t)))
        for c in cards:
            h.remove(c)
            self.table[p].append(c)
        while len(h) < HAND and self.top < len(self.deck):
            h.append(self.deck[self.top])
            self.top += 1
        self._end_turn()

    def sell(self, a, country, cards, action=None, replace=None):
        """Selling cheese: 1..3 pieces of animal a from the table to a country
        on the market, paid at its price each. Basic: that country's market
        cards turn over. Advanced: `action` (a special mark on a sold piece:
        ("reserve", own), ("trade", q, own, theirs) or ("forbid", mark)) and
        `replace` (None: turn over; ("exchange", pos, own, side))."""
        self._check_playing()
        p = self.cur
        if a < 0 or a > 4:
            raise RuleError("no animal %r" % a)
        if country < 0 or country > 4:
            raise RuleError("no country %r" % country)
        if not cards or len(cards) > 3:
            raise RuleError("sell 1 to 3 pieces, not %d" % len(cards))
        for i in range(len(cards)):
            c = cards[i]
            if c not in self.table[p] or c in cards[:i]:
                raise RuleError("%s is not among the cheese produced" % self.card_name(c))
            if c // 20 != a:
                raise RuleError("%s is not %s cheese" % (self.card_name(c), self.cards.animals[a]))
        price = self.price(country)
        if price == 0:
            raise RuleError("%s is not on the market" % self.cards.countries[country])
        own = self.own[p]
        if not self.advanced:
            if action is not None or replace is not None:
                raise RuleError("special marks and exchanges are for the advanced variant")
        else:
            own = self._check_extras(p, country, cards, action, replace)
        for c in cards:
            self.table[p].remove(c)
            self.sold[p].append(c)
        self.money[p] += price * len(cards)
        self.income[p] += price * len(cards)
        if action is not None:
            k = action[0]
            if k == "reserve":
                self.own[p].remove(action[1])
                self.own[p].append(self.reserve.pop(0))
                self.reserve.append(action[1])
            elif k == "trade":
                q = action[1]
                self.own[p].remove(action[2])
                self.own[q].remove(action[3])
                self.own[p].append(action[3])
                self.own[q].append(action[2])
            else:
                self.forbid[p] = action[1]
        swap = -1
        if replace is not None:
            swap = replace[1]
            taken = self.mk[swap]
            self.own[p].remove(replace[2])
            self.own[p].append(taken)
            self.mk[swap] = replace[2]
            self.side[swap] = replace[3]
        for i in range(MARKET):
            if i != swap and self.cards.country[self.mk[i]] == country:
                self.side[i] ^= 1
        self._end_turn()

    def _check_extras(self, p, country, cards, action, replace):
        own = list(self.own[p])
        if action is not None:
            marks = [self.cards.mark[c] for c in cards if self.cards.mark[c] != NONE]
            if not marks:
                raise RuleError("no sold piece has a special mark")
            k = action[0]
            if k == "reserve":
                if len(action) != 2 or action[1] not in own:
                    raise RuleError("discard one of your own market cards")
                if not self.reserve:
                    raise RuleError("the reserve is empty")
                own.remove(action[1])
                own.append(self.reserve[0])
            elif k == "trade":
                if len(action) != 4 or action[2] not in own:
                    raise RuleError("give one of your own market cards")
                q = action[1]
                if type(q) is not int or q < 0 or q >= self.n or q == p:
                    raise RuleError("trade with an opponent")
                if action[3] not in self.own[q]:
                    raise RuleError("take one of player %d's market cards" % (q + 1))
                own.remove(action[2])
                own.append(action[3])
            elif k == "forbid":
                if len(action) != 2 or action[1] not in marks:
                    raise RuleError("forbid a mark shown on a sold piece")
            else:
                raise RuleError("no special action %r" % (k,))
        if replace is not None:
            if len(replace) != 4 or replace[0] != "exchange":
                raise RuleError("replace by turning over (None) or ('exchange', pos, own, side)")
            pos = replace[1]
            if type(pos) is not int or pos < 0 or pos >= MARKET or self.cards.country[self.mk[pos]] != country:
                raise RuleError("exchange a market card of %s" % self.cards.countries[country])
            if replace[2] not in own:
                raise RuleError("exchange for one of your own market cards")
            if replace[3] not in (0, 1):
                raise RuleError("lay it with side 0 or 1 up")
        return own

    def pass_turn(self):
        """A final turn may be left out (the rulebook: players 'may' take it)."""
        self._check_playing()
        if not self.final_turns():
            raise RuleError("only a final turn may be passed")
        self._end_turn()

    # -- turn order and the end ----------------------------------------------
    def _end_turn(self):
        p = self.cur
        self.turns[p] += 1
        nxt = (p + 1) % self.n
        if self.final_turns() and nxt == self.first:
            self._finish()
            return
        self.cur = nxt
        # the next player takes the knife back: their lock (and forbid) ends
        self.knife[nxt] = NONE
        self.forbid[nxt] = NONE

    def _finish(self):
        self.over = True
        n = self.n
        for p in range(n):
            k = len(self.table[p])
            self.unsold_bonus[p] = k
            self.bonus[p] += k
            self.money[p] += k
            self.gone.extend(self.table[p])
            self.table[p] = []
        kinds = [self.kinds(p) for p in range(n)]
        for a in range(5):
            counts = [self.sold_count(p, a) for p in range(n)]
            best = max(counts)
            if best == 0:
                continue
            tied = [p for p in range(n) if counts[p] == best]
            most = max(kinds[p] for p in tied)
            won = [p for p in tied if kinds[p] == most]
            self.top_bonus[a] = (best, won)
            for p in won:
                self.bonus[p] += best
                self.money[p] += best
        top = max(self.money)
        self.winners = [p for p in range(n) if self.money[p] == top]

    def kinds(self, p):
        """How many different types of cheese p has sold (the bonus tie-break)."""
        k = 0
        for a in range(5):
            if self.sold_count(p, a):
                k += 1
        return k

    # -- checks and names ----------------------------------------------------
    def census(self):
        """Where each card is (bytearray of 100 codes); RuleError if a card
        is in two places or nowhere."""
        w = bytearray(b"\xff" * 100)

        def put(c, code):
            if w[c] != 255:
                raise RuleError("card %d is in two places" % c)
            w[c] = code

        for i in range(self.top, len(self.deck)):
            put(self.deck[i], DECK)
        for c in self.removed:
            put(c, OUT)
        for c in self.gone:
            put(c, GONE)
        for p in range(self.n):
            for c in self.hands[p]:
                put(c, HAND0 + p)
            for c in self.table[p]:
                put(c, TABLE0 + p)
            for c in self.sold[p]:
                put(c, SOLD0 + p)
        for c in range(100):
            if w[c] == 255:
                raise RuleError("card %d is nowhere" % c)
        return w

    def market_census(self):
        """RuleError unless every market card is in one place: on the
        market, out of the game, in the reserve or a player's own."""
        seen = bytearray(25)
        for pile in [self.mk, self.out_market, self.reserve] + self.own:
            for m in pile:
                seen[m] += 1
        for m in range(25):
            if seen[m] != 1:
                raise RuleError("market card %d is in %d places" % (m, seen[m]))

    def type_name(self, t):
        if 0 <= t < 5:
            return self.cards.animals[t]
        if 5 <= t < 10:
            return self.cards.places[t - 5]
        return "?"

    def card_name(self, c):
        if type(c) is not int or c < 0 or c > 99:
            return "card %r" % (c,)
        s = "%s/%s" % (self.cards.animals[c // 20], self.cards.places[(c // 4) % 5])
        m = self.cards.mark[c]
        if m != NONE:
            s += "/" + self.cards.marks[m]
        return s
