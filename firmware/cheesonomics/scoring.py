"""What the rules engine (engine.Game) and the box's bank (bank.Bank) share:
the setup draws, the market price and turning over, the turn order with its
knives, and the final bonuses. Pure and deterministic like the engine; it
imports nothing of the engine, so the box's bank loads without it.
"""
from micropython import const

from cheesebox.rand import randbelow
from cheesebox.rand import shuffle as _shuffle
from cheesonomics.cardfile import NONE

MARKET = const(15)
REMOVED = (0, 0, 60, 40, 20, 0)        # milk-cheese cards removed, by player count


class RuleError(ValueError):
    pass


def only(n, one, many, where):
    """A refusal's count in words: 'only 1 piece of cheese is on the table',
    'no milk-cheese cards are left in the hands'."""
    if n == 1:
        return "only 1 %s is %s" % (one, where)
    return "%s %s are %s" % ("only %d" % n if n else "no", many, where)


def shuffle(rng, seq):
    """The whole list, in place (the box's Fisher-Yates, cheesebox/rand.py)."""
    _shuffle(rng, seq, 0, len(seq))


def kinds_of(sold, p):
    """How many animals p has sold (sold[p*5+a] = pieces): the bonus tie-break."""
    k = 0
    for a in range(5):
        if sold[p * 5 + a]:
            k += 1
    return k


class Turns:
    """The part of a table Game and Bank keep alike: the market (mk: the
    card at each position, side: which side is up), money, knives and
    forbidden marks, whose turn it is, and the end. A subclass provides
    final_turns() (the deck has run out) and _finish() (calls _award)."""

    def _setup(self, cards, players, rng, advanced, first):
        """The seeded setup; returns (shuffled 100 milk-cheese cards, the
        10 market cards not laid out). rng None: no shuffle (restoring)."""
        if players < 2 or players > 5:
            raise RuleError("Cheesonomics is for 2 to 5 players, not %d" % players)
        self.cards = cards
        self.n = players
        self.advanced = advanced
        deck = bytearray(range(100))
        order = bytearray(range(25))
        self.side = bytearray(MARKET)           # which side is up
        if rng is not None:
            shuffle(rng, deck)
            shuffle(rng, order)
            for i in range(MARKET):
                self.side[i] = rng.getrandbits(1)
        self.mk = bytearray(order[:MARKET])      # market card at each position
        self.money = [0] * players
        self.income = [0] * players         # money from sales
        self.bonus = [0] * players          # money from the final bonuses
        self.unsold_bonus = [0] * players
        self.top_bonus = [None] * 5  # type: list  # per animal: (amount, [players]) or None
        self.knife = bytearray(b"\xff" * players)   # type each knife locks, NONE if on no sector
        self.forbid = bytearray(b"\xff" * players)  # mark each player forbids (advanced)
        self.turns = [0] * players
        if first < 0:
            first = randbelow(rng, players) if rng is not None else 0
        elif first >= players:
            raise RuleError("no player %d to start" % (first + 1))
        self.first = first
        self.cur = first
        self.over = False
        self.winners = []
        self._prices = None                 # prices(), for the market as in _mk_was, _side_was
        self._mk_was = bytearray(MARKET)
        self._side_was = bytearray(MARKET)
        return deck, order[MARKET:]

    # -- the market ------------------------------------------------------------
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

    def prices(self):
        """The five countries' prices, worked out again only when the market
        has changed (1.7 ms on a Pico, and the dice show them at every
        blink); checking it is two 15-byte compares. The list is the bank's
        own: a new list whenever the prices are worked out again."""
        p = self._prices
        if p is None or self._mk_was != self.mk or self._side_was != self.side:
            self._mk_was[:] = self.mk
            self._side_was[:] = self.side
            p = self._prices = [self.price(c) for c in range(5)]
        return p

    def turn_over(self, country, keep=-1):
        """After a sale: the country's market cards turn over (but position keep)."""
        for i in range(MARKET):
            if i != keep and self.cards.country[self.mk[i]] == country:
                self.side[i] ^= 1

    # -- turns ------------------------------------------------------------------
    def final_turns(self):
        raise NotImplementedError

    def _finish(self):
        raise NotImplementedError

    def locked_by(self, t, p):
        """The player whose knife keeps p from naming type t, or -1."""
        for q in range(self.n):
            if q != p and self.knife[q] == t:
                return q
        return -1

    def _check_playing(self):
        if self.over:
            raise RuleError("the game is over")

    def _check_type(self, t):
        """t is a milk type 0..9 the active player may name (no other knife on it)."""
        if type(t) is not int or t < 0 or t > 9:
            raise RuleError("no milk type %r" % (t,))

    def _check_collect(self, t):
        self._check_playing()
        self._check_type(t)
        q = self.locked_by(t, self.cur)
        if q >= 0:
            raise RuleError("%s is locked by player %d's knife" % (self.type_name(t), q + 1))

    def pass_turn(self):
        """A final turn may be left out (the rulebook: players 'may' take it)."""
        self._check_playing()
        if not self.final_turns():
            raise RuleError("only a final turn may be passed")
        self._end_turn()

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

    def _award(self, unsold, sold):
        """The end: unsold[p] pieces pay 1 each; per animal the most sold
        (sold[p*5+a]) pays that many, tie: more animals sold, still tied:
        all of them; winners: the most money."""
        self.over = True
        n = self.n
        for p in range(n):
            k = unsold[p]
            self.unsold_bonus[p] = k
            self.bonus[p] += k
            self.money[p] += k
        kinds = [kinds_of(sold, p) for p in range(n)]
        for a in range(5):
            best = 0
            for p in range(n):
                best = max(best, sold[p * 5 + a])
            if best == 0:
                continue
            tied = [p for p in range(n) if sold[p * 5 + a] == best]
            most = max(kinds[p] for p in tied)
            won = [p for p in tied if kinds[p] == most]
            self.top_bonus[a] = (best, won)
            for p in won:
                self.bonus[p] += best
                self.money[p] += best
        top = max(self.money)
        self.winners = [p for p in range(n) if self.money[p] == top]

    # -- names --------------------------------------------------------------------
    def type_name(self, t):
        if 0 <= t < 5:
            return self.cards.animals[t]
        if 5 <= t < 10:
            return self.cards.places[t - 5]
        return "?"
