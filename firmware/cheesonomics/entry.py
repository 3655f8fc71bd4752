"""One turn's entry at the active station: the values keyed so far, which
step comes next, and each value checked against the bank the moment it is
keyed, so a refusal comes at the step where it becomes knowable
(docs/cheesonomics-box.md, "A turn"). Pure: no box, no clock.

  action   0 pass (final turns), 1 collect by animal, 2 collect by place,
           3 produce, 4 sell; on a dial 4, 5, 6 sell 1, 2, 3 pieces (the
           pieces come with the action, so a dialled sale is three steps)
  collect  which (1-5)
  produce  how many cards laid out (1-5)
  sell     animal (1-5), country (1-5), pieces (1-3); advanced: the mark it
           forbids (0 none, 1-5), then 0 to turn the country's cards over or
           the market card to exchange, by its signs up|back (KIND_CODES), then
           the card laid: its country (1-5) and its signs up|back
"""
from micropython import const

from cheesonomics.scoring import MARKET, only

ACT = const(0)
WHICH = const(1)
COUNT = const(2)
ANIMAL = const(3)
COUNTRY = const(4)
PIECES = const(5)
MARK = const(6)
SWAP = const(7)
CARD_C = const(8)
CARD_K = const(9)
ACTION_NAMES = ("pass", "collect by animal", "collect by place", "produce", "sell")   # action keys 0-4
STEP_NAMES = ("action", "which", "cards", "animal", "country", "pieces", "forbid mark",
              "exchange", "laid card's country", "laid card's signs")
# what die 6 shows for the step (the step in letters, not colour alone)
STEP_SIGNS = ("", "W", "K", "A", "C", "N", "M", "X", "X2", "X3")
LOW = (0, 1, 1, 1, 1, 1, 0, 0, 1, 1)
HIGH = (4, 5, 5, 5, 5, 3, 5, 4, 5, 4)
# a market card by what is printed on it: signs on the side up | on the back
KIND_CODES = ((1, 1), (1, 2), (2, 1), (2, 2))
_MAX = const(8)
DIAL_SELL = const(4)        # a dial's action 4-6: sell 1-3 pieces
_DIAL_ACT_HIGH = const(6)


def high(st, dials):
    """The highest value of step st (a dial's action goes to 6: sell 3)."""
    return _DIAL_ACT_HIGH if dials and st == ACT else HIGH[st]


def short(names, i):
    """Name i of a list of 5, as die 6 can show it: its first two letters
    (GO goat, IT Italy), or its first and the next letter that tells it
    from the names before it (a card file may name two alike)."""
    from cheesebox.font import CHARS
    letters = [ch for ch in names[i].upper() if ch in CHARS and ch != " "]
    if not letters:
        return str(i + 1)
    taken = [short(names, j) for j in range(i)]
    for ch in letters[1:]:
        if letters[0] + ch not in taken:
            return letters[0] + ch
    return letters[0] + str(i + 1)


# an action by its first letters, as the reference card names it
ACTION_SHORT = ("PA", "CA", "CP", "PR", "SE")


def value_name(cards, act, st, v, dials=False):
    """What value v means at step st (act: the action keyed, which tells an
    animal from a place), in at most two glyphs for die 6, so a player reads
    what was keyed, not only its number: an animal, place, country or mark
    by its first letters, a number of cards or pieces with its step's letter
    (K3, N2), a market card by its signs up and back (12). "" outside the
    step's values. On a dial the action sell names its pieces (S1-S3)."""
    if v < LOW[st] or v > high(st, dials):
        return ""
    if st == ACT:
        return "S%d" % (v - DIAL_SELL + 1) if dials and v >= DIAL_SELL else ACTION_SHORT[v]
    if st == WHICH:
        return short(cards.animals if act == 1 else cards.places, v - 1)
    if st == ANIMAL:
        return short(cards.animals, v - 1)
    if st == COUNTRY or st == CARD_C:
        return short(cards.countries, v - 1)
    if st == MARK:
        return short(cards.marks, v - 1) if v else "M-"
    if st == SWAP and v == 0:
        return "X0"
    if st == SWAP or st == CARD_K:
        u, b = KIND_CODES[v - 1]
        return "%d%d" % (u, b)
    return "%s%d" % (STEP_SIGNS[st], v)        # cards, pieces


def kind_name(code):
    """'1|2' for code 2 (keys 1-4)."""
    u, b = KIND_CODES[code - 1]
    return "%d|%d" % (u, b)


def card_kind(cards, m, side):
    """Market card m lying with `side` up, as the code 1-4 of its signs up|back."""
    u = cards.sides[2 * m + side]
    b = cards.sides[2 * m + 1 - side]
    return (u - 1) * 2 + b


def _on_market(bank, m):
    for i in range(MARKET):
        if bank.mk[i] == m:
            return True
    return False


class Entry:
    """The values the active player has keyed this turn. On dials a sale's
    pieces are the action's value (4-6: sell 1-3), so a dial saves the step
    (and the turn) that keys them; the values are kept as keys keep them."""

    def __init__(self, dials=False):
        self.v = bytearray(_MAX)
        self.k = 0
        self.dials = dials

    def clear(self):
        self.k = 0

    def step(self):
        k = self.k
        if k == 0:
            return ACT
        act = self.v[0]
        if act == 1 or act == 2:
            return WHICH
        if act == 3:
            return COUNT
        return (ANIMAL, COUNTRY, PIECES, MARK, SWAP, CARD_C, CARD_K, CARD_K)[min(k, 7) - 1]

    def complete(self, advanced):
        """The values make a whole action (the buzzer may confirm it)."""
        k = self.k
        if k == 0:
            return False
        act = self.v[0]
        if act == 0:
            return True
        if act < 4:
            return k == 2
        if not advanced:
            return k == 4
        return k >= 6 and (self.v[5] == 0 or k == 8)

    def check(self, bank, v):
        """Why value v cannot be this step's now ("" if it can); the bank's
        state decides (a locked type, a country off the market, pieces not on
        the table, a card not in a hand)."""
        st = self.step()
        if self.complete(bank.advanced):
            return "the action is complete: confirm it with the buzzer"
        hi = high(st, self.dials)
        if v < LOW[st] or v > hi:
            return "%s takes %d to %d, not %d" % (STEP_NAMES[st], LOW[st], hi, v)
        p = bank.cur
        cards = bank.cards
        if st == ACT:
            if v == 0 and not bank.final_turns():
                return "a turn may be passed only in the final turns"
            if v >= 4 and bank.table[p] == 0:
                return "no cheese on the table to sell"
            if v > 4 and self.dials and v - DIAL_SELL + 1 > bank.table[p]:
                return only(bank.table[p], "piece of cheese", "pieces of cheese", "on the table")
        elif st == WHICH:
            t = (self.v[0] - 1) * 5 + v - 1
            q = bank.locked_by(t, p)
            if q >= 0:
                return "%s is locked by player %d's knife" % (bank.type_name(t), q + 1)
        elif st == COUNT:
            left = bank.in_hands()
            if v > left:
                return only(left, "milk-cheese card", "milk-cheese cards", "left in the hands")
        elif st == COUNTRY:
            if bank.prices()[v - 1] == 0:
                return "%s is not on the market" % cards.countries[v - 1]
        elif st == PIECES:
            if v > bank.table[p]:
                return only(bank.table[p], "piece of cheese", "pieces of cheese", "on the table")
        elif st == SWAP:
            if v and self.market_pos(bank, v) < 0:
                return "no %s card lies %s on the market" % (cards.countries[self.v[2] - 1], kind_name(v))
        elif st == CARD_C:
            if self.in_hand(bank, v - 1, 0) < 0:
                return "every %s card is on the market" % cards.countries[v - 1]
        elif st == CARD_K:
            if self.in_hand(bank, self.v[6] - 1, v) < 0:
                return "no %s %s card is in a hand" % (cards.countries[self.v[6] - 1], kind_name(v))
        return ""

    def market_pos(self, bank, code):
        """A market position of the sold country whose card lies as `code`, or -1."""
        c = self.v[2] - 1
        cards = bank.cards
        for i in range(MARKET):
            m = bank.mk[i]
            if cards.country[m] == c and card_kind(cards, m, bank.side[i]) == code:
                return i
        return -1

    def in_hand(self, bank, c, code):
        """A card of country c off the market (in a hand) that can lie as
        `code` (0: any), or -1; cards of one kind are one."""
        cards = bank.cards
        for m in range(25):
            if cards.country[m] != c or _on_market(bank, m):
                continue
            if code == 0 or card_kind(cards, m, 0) == code or card_kind(cards, m, 1) == code:
                return m
        return -1

    def take(self, v):
        if self.dials and self.k == 0 and v >= DIAL_SELL:
            self.v[3] = v - DIAL_SELL + 1   # the pieces, keyed with the action
            v = 4
        self.v[self.k] = v
        self.k += 1
        if self.dials and self.k == 3 and self.v[0] == 4:
            self.k = 4                      # the pieces are in: past their step

    def back(self):
        if self.k:
            self.k -= 1
        if self.dials and self.k == 3 and self.v[0] == 4:
            self.k = 2                      # back over the country (the pieces came with the action)

    def play(self, bank, fields):
        """The whole action on the bank (RuleError if it still refuses);
        fills the event's fields (a sale's new prices the caller adds, once
        the press's LEDs are out)."""
        v = self.v
        cards = bank.cards
        act = v[0]
        if act == 0:
            bank.pass_turn()
            fields["act"] = "pass"
        elif act < 3:
            t = (act - 1) * 5 + v[1] - 1
            bank.collect(t)
            fields["act"] = "collect"
            fields["type"] = bank.type_name(t)
        elif act == 3:
            bank.produce(v[1])
            fields["act"] = "produce"
            fields["cards"] = v[1]
        else:
            a, c, k = v[1] - 1, v[2] - 1, v[3]
            price = bank.prices()[c]
            mark = None
            swap = None
            if bank.advanced:
                if v[4]:
                    mark = v[4] - 1
                if v[5]:
                    pos = self.market_pos(bank, v[5])
                    m = self.in_hand(bank, v[6] - 1, v[7])
                    side = 0 if card_kind(cards, m, 0) == v[7] else 1
                    swap = (pos, m, side)
                    fields["exchange"] = "%s %s" % (cards.countries[c], kind_name(v[5]))
                    fields["laid"] = "%s %s" % (cards.countries[v[6] - 1], kind_name(v[7]))
            bank.sell(a, c, k, mark, swap)
            fields["act"] = "sell"
            fields["animal"] = cards.animals[a]
            fields["country"] = cards.countries[c]
            fields["pieces"] = k
            fields["price"] = price
            fields["paid"] = price * k
            if mark is not None:
                fields["forbid"] = cards.marks[mark]
        return fields
