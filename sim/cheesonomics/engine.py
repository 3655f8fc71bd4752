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
from micropython import const

from cheesebox.rand import randbelow  # noqa: F401  (the one unbiased draw, for bot and driver too)
from cheesonomics.cardfile import NONE
from cheesonomics.scoring import MARKET, REMOVED, RuleError, Turns, kinds_of, shuffle  # noqa: F401  (ours to import)

HAND = const(5)
PRIVATE = (0, 0, 5, 3, 2, 2)           # advanced: market cards dealt to each player

# where a card is (census): deck, removed, hand/table/sold of player p, gone
DECK = const(0)
OUT = const(1)          # removed at setup
GONE = const(2)         # unsold cheese, removed after the final count
HAND0 = const(10)       # + player
TABLE0 = const(20)
SOLD0 = const(30)


def animal(c):
    return c // 20


def place(c):
    return (c // 4) % 5


def is_type(c, t):
    """Card c is of milk type t (an animal 0..4 or a place 5..9)."""
    if t < 5:
        return c // 20 == t
    return (c // 4) % 5 == t - 5


class Game(Turns):
    """One game of 2..5 players; seat 0 sits first clockwise after the dealer.
    The market, turn order and final bonuses: scoring.Turns."""

    def __init__(self, cards, players, rng, advanced=False, first=-1):
        deck, rest = self._setup(cards, players, rng, advanced, first)
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

    # -- what the table sees ---------------------------------------------
    def deck_count(self):
        return len(self.deck) - self.top

    def final_turns(self):
        """True once the deck has run out: the round is being finished."""
        return self.top >= len(self.deck)

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

    # -- actions ----------------------------------------------------------
    def collect(self, t, gives, returns):
        """Collecting milk: name type t; gives[q] is the card q passes (None
        only when q has nothing p may take); returns[q] the card p passes
        back to q. p's knife then locks t until p's next turn."""
        self._check_collect(t)
        p = self.cur
        n = self.n
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
        self._check_type(t)
        p = self.cur
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
        if not self.advanced:
            if action is not None or replace is not None:
                raise RuleError("special marks and exchanges are for the advanced variant")
        else:
            self._check_extras(p, country, cards, action, replace)
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
        self.turn_over(country, swap)
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

    # -- the end ------------------------------------------------------------
    def _finish(self):
        unsold = [len(t) for t in self.table]
        for p in range(self.n):
            self.gone.extend(self.table[p])
            self.table[p] = []
        self._award(unsold, self.sold_counts())

    def sold_counts(self):
        """bytearray(5 * n): pieces of animal a player p sold at [p * 5 + a]."""
        k = bytearray(5 * self.n)
        for p in range(self.n):
            for c in self.sold[p]:
                k[p * 5 + c // 20] += 1
        return k

    def kinds(self, p):
        """How many different types of cheese p has sold (the bonus tie-break)."""
        return kinds_of(self.sold_counts(), p)

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

    def card_name(self, c):
        if type(c) is not int or c < 0 or c > 99:
            return "card %r" % (c,)
        s = "%s/%s" % (self.cards.animals[c // 20], self.cards.places[(c // 4) % 5])
        m = self.cards.mark[c]
        if m != NONE:
            s += "/" + self.cards.marks[m]
        return s
