"""Cheesonomics on the box (companion mode): the market and the bank.

The players hold the milk-cheese cards; the box keeps what the table would
otherwise keep in cards, banknotes and arithmetic: the 15 market cards and
their sides, each player's money, the count of cards left in the draw deck,
the knives, how many pieces each player has produced and sold, the turn order
and the final bonuses. It does not see the cards, so it asks only for counts
(pieces produced, pieces of one animal sold) and trusts them as far as it
cannot check them. Pure and deterministic like engine.Game (same seed, same
market and first player); each action checks everything first and raises
RuleError, changing nothing, when it is refused. docs/cheesonomics.md,
"On the box: market and bank".
"""
from cheesebox.jsonfile import whole
from cheesonomics.cardfile import NONE
from cheesonomics.scoring import MARKET, REMOVED, RuleError, Turns, kinds_of, only

HAND = 5
_SAVE = 1               # snapshot format
_MONEY = 9999           # more than any game pays (at most 100 pieces at 10 each, and bonuses)


class Bank(Turns):
    """One game of 2..5 players. The market, turn order and bonuses are
    scoring.Turns (shared with engine.Game). rng None: no shuffle (restore)."""

    def __init__(self, cards, players, rng, advanced=False, first=-1):
        self._setup(cards, players, rng, advanced, first)
        self.advanced = bool(advanced)
        self.deck = 100 - REMOVED[players] - HAND * players   # cards left to draw
        self.table = bytearray(players)        # produced, unsold pieces (all animals)
        self.sold = bytearray(5 * players)     # pieces of animal a player p sold: [p * 5 + a]

    # -- what the table sees -------------------------------------------------
    def deck_count(self):
        return self.deck

    def final_turns(self):
        """True once the deck has run out: the round is being finished."""
        return self.deck == 0

    def kinds(self, p):
        """How many different animals p has sold (the bonus tie-break)."""
        return kinds_of(self.sold, p)

    def in_hands(self):
        """Milk-cheese cards in all the players' hands together."""
        k = 100 - REMOVED[self.n] - self.deck
        for x in self.table:
            k -= x
        for x in self.sold:
            k -= x
        return k

    # -- actions --------------------------------------------------------------
    def collect(self, t):
        """Collecting milk: the active player names type t (animal 0..4,
        place 5..9); the cards change hands on the table. Their knife then
        locks t until their next turn."""
        self._check_collect(t)
        self.knife[self.cur] = t
        self._end_turn()

    def produce(self, k):
        """Producing cheese: k pieces laid face up; the player draws back to 5."""
        self._check_playing()
        if not whole(k) or k < 1 or k > HAND:
            raise RuleError("produce 1 to %d pieces, not %r" % (HAND, k))
        left = self.in_hands()
        if k > left:
            raise RuleError(only(left, "milk-cheese card", "milk-cheese cards", "left in the hands"))
        self.table[self.cur] += k
        self.deck -= min(k, self.deck)
        self._end_turn()

    def sell(self, a, country, k, forbid_mark=None, exchange=None):
        """Selling cheese: k (1..3) pieces of animal a to a country on the
        market at its price each; then that country's market cards turn
        over. Advanced: forbid_mark (a special mark on a sold piece) is
        shown as forbidden until the seller's next turn; exchange = (pos, m,
        side) lays the seller's own market card m at position pos (one of
        the country's) with `side` up instead of turning that card over."""
        self._check_playing()
        p = self.cur
        names = self.cards
        if not whole(a) or a < 0 or a > 4:
            raise RuleError("no animal %r" % (a,))
        if not whole(country) or country < 0 or country > 4:
            raise RuleError("no country %r" % (country,))
        if not whole(k) or k < 1 or k > 3:
            raise RuleError("sell 1 to 3 pieces, not %r" % (k,))
        if k > self.table[p]:
            raise RuleError(only(self.table[p], "piece of cheese", "pieces of cheese", "on the table"))
        price = self.prices()[country]
        if price == 0:
            raise RuleError("%s is not on the market" % names.countries[country])
        pos = -1
        if not self.advanced:
            if forbid_mark is not None or exchange is not None:
                raise RuleError("special marks and exchanges are for the advanced variant")
        else:
            if forbid_mark is not None and (not whole(forbid_mark) or forbid_mark < 0 or forbid_mark > 4):
                raise RuleError("no special mark %r" % (forbid_mark,))
            if exchange is not None:
                pos = self._check_exchange(country, exchange)
        self.money[p] += price * k
        self.income[p] += price * k
        self.sold[p * 5 + a] += k
        self.table[p] -= k
        if forbid_mark is not None:
            self.forbid[p] = forbid_mark
        if pos >= 0:
            self.mk[pos] = exchange[1]
            self.side[pos] = exchange[2]
        self.turn_over(country, pos)
        self._end_turn()

    def _check_exchange(self, country, exchange):
        if type(exchange) not in (tuple, list) or len(exchange) != 3:
            raise RuleError("an exchange is (market position, card, side)")
        pos, m, s = exchange
        if not whole(pos) or pos < 0 or pos >= MARKET or self.cards.country[self.mk[pos]] != country:
            raise RuleError("exchange one of the market cards of %s" % self.cards.countries[country])
        if not whole(m) or m < 0 or m > 24:
            raise RuleError("no market card %r" % (m,))
        for i in range(MARKET):
            if self.mk[i] == m:
                raise RuleError("%s is on the market, not in a hand" % self.card_label(m))
        if not whole(s) or s < 0 or s > 1:
            raise RuleError("lay the card with side A (0) or B (1) up")
        return pos

    def _finish(self):
        unsold = bytes(self.table)
        for p in range(self.n):
            self.table[p] = 0           # unsold pieces leave the game after the count
        self._award(unsold, self.sold)

    # -- market cards by what is printed on them ---------------------------------
    def card_label(self, m):
        """'Italy 1|2': the country and the signs on side A | side B (cards
        carry no number: a kind is its country and its two signs)."""
        sides = self.cards.sides
        return "%s %d|%d" % (self.cards.countries[self.cards.country[m]], sides[2 * m], sides[2 * m + 1])

    # -- saving --------------------------------------------------------------------
    def snapshot(self):
        """The whole state as plain JSON values (ints and lists)."""
        top = []
        for t in self.top_bonus:
            top.append([] if t is None else [t[0]] + list(t[1]))
        return {
            "save": _SAVE, "n": self.n, "advanced": int(self.advanced),
            "first": self.first, "cur": self.cur, "over": int(self.over), "deck": self.deck,
            "mk": list(self.mk), "side": list(self.side),
            "money": list(self.money), "income": list(self.income), "bonus": list(self.bonus),
            "unsold_bonus": list(self.unsold_bonus), "table": list(self.table),
            "sold": list(self.sold), "knife": list(self.knife), "forbid": list(self.forbid),
            "turns": list(self.turns), "winners": list(self.winners), "top_bonus": top,
        }


def _int(d, key, lo, hi):
    v = d.get(key)
    if not whole(v) or v < lo or v > hi:
        raise ValueError("save: '%s' must be a whole number %d..%d, not %r" % (key, lo, hi, v))
    return v


def _ints(d, key, size, lo, hi, other=None):
    """A list of `size` (-1: any number of) whole numbers lo..hi (or `other`)."""
    v = d.get(key)
    if type(v) is not list or size >= 0 and len(v) != size:
        raise ValueError("save: '%s' must be a list of %s numbers" % (key, size if size >= 0 else "whole"))
    for x in v:
        if not whole(x) or (x < lo or x > hi) and x != other:
            raise ValueError("save: '%s': %r is not %d..%d" % (key, x, lo, hi))
    return list(v)


def _top(d):
    v = d.get("top_bonus")
    if type(v) is not list or len(v) != 5:
        raise ValueError("save: 'top_bonus' must be a list of 5 entries")
    top = []
    for e in v:
        if type(e) is not list:
            raise ValueError("save: 'top_bonus': %r is not a list" % (e,))
        top.append(None if not e else (e[0], e[1:]))
    return top


def _check_turns(n, first, cur, over, turns):
    """Everyone from the first player to the one before cur has had one turn more."""
    base = turns[cur]
    for p in range(n):
        extra = 0 if over else int((p - first) % n < (cur - first) % n)
        if turns[p] != base + extra:
            raise ValueError("save: 'turns' %r do not follow the turn order" % (turns,))


def restore(cards, d):
    """A Bank from a snapshot; ValueError naming what is wrong if anything is
    off (a corrupt save is refused, never half loaded)."""
    if type(d) is not dict:
        raise ValueError("save: not a saved game")
    if d.get("save") != _SAVE:
        raise ValueError("save: not a Cheesonomics bank save (format %d)" % _SAVE)
    n = _int(d, "n", 2, 5)
    adv = _int(d, "advanced", 0, 1)
    first = _int(d, "first", 0, n - 1)
    cur = _int(d, "cur", 0, n - 1)
    over = _int(d, "over", 0, 1)
    in_play = 100 - REMOVED[n]
    deck = _int(d, "deck", 0, in_play - HAND * n)
    mk = _ints(d, "mk", MARKET, 0, 24)
    for i in range(MARKET):
        if mk.index(mk[i]) != i:
            raise ValueError("save: 'mk': market card %d is on the market twice" % mk[i])
    side = _ints(d, "side", MARKET, 0, 1)
    money = _ints(d, "money", n, 0, _MONEY)
    income = _ints(d, "income", n, 0, _MONEY)
    bonus = _ints(d, "bonus", n, 0, _MONEY)
    unsold = _ints(d, "unsold_bonus", n, 0, in_play)
    table = _ints(d, "table", n, 0, in_play)
    sold = _ints(d, "sold", 5 * n, 0, in_play)
    knife = _ints(d, "knife", n, 0, 9, NONE)
    forbid = _ints(d, "forbid", n, 0, 4, NONE)
    if not adv and forbid != [NONE] * n:
        raise ValueError("save: 'forbid': forbidden marks are for the advanced variant")
    turns = _ints(d, "turns", n, 0, _MONEY)
    winners = _ints(d, "winners", -1, 0, n - 1)
    top = _top(d)
    for p in range(n):
        if money[p] != income[p] + bonus[p]:
            raise ValueError("save: player %d's money %d is not sales %d + bonuses %d"
                             % (p + 1, money[p], income[p], bonus[p]))
        if knife[p] != NONE and knife.index(knife[p]) != p:
            raise ValueError("save: 'knife': two knives lock type %d" % knife[p])
    if sum(table) + sum(sold) + sum(unsold) > in_play - deck:
        raise ValueError("save: more cheese than cards drawn")
    _check_turns(n, first, cur, over, turns)
    b = Bank(cards, n, None, bool(adv), first)
    b.cur = cur
    b.deck = deck
    b.mk = bytearray(mk)
    b.side = bytearray(side)
    b.income = income
    b.money = list(income)
    b.table = bytearray(table)
    b.sold = bytearray(sold)
    b.knife = bytearray(knife)
    b.forbid = bytearray(forbid)
    b.turns = turns
    if over:
        if deck or cur != (first - 1) % n or sum(table):
            raise ValueError("save: the game is over but its round is not")
        b._award(unsold, b.sold)
    else:
        if knife[cur] != NONE or forbid[cur] != NONE:
            raise ValueError("save: the active player's knife is still out")
        if deck == 0 and cur == first:
            raise ValueError("save: the round is finished but the game is not over")
    if (b.money != money or b.bonus != bonus or b.unsold_bonus != unsold
            or b.top_bonus != top or b.winners != winners):
        raise ValueError("save: the money, bonuses or winners do not add up")
    return b
