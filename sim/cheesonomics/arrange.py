"""Lay out a Cheesonomics table on purpose (tests and scenario scripts).

Every change moves or swaps cards between the game's own piles, so each card
stays in exactly one place and the deck count stays the cards not drawn.
"""
from sim.cheesonomics.engine import MARKET, Game
from cheesonomics import cardfile
from sim.rng import SeededRandom

_cards = []


def cards():
    """The box's own card list, read once."""
    if not _cards:
        _cards.append(cardfile.load(cardfile.default_path()))
    return _cards[0]


def card(a, p, copy=1):
    """Milk-cheese card number: animal a, place p, copy (copy 0 carries the
    special mark in the default list, so tests use copy 1 unless they mean it)."""
    return a * 20 + p * 4 + copy


def new_game(n, advanced=False, seed=1, first=0):
    return Game(cards(), n, SeededRandom(seed), advanced=advanced, first=first)


class ArrangeError(ValueError):
    pass


def _piles(g):
    yield g.removed
    yield g.gone
    for p in range(g.n):
        yield g.hands[p]
        yield g.table[p]
        yield g.sold[p]


def find(g, c):
    """(pile, index) of card c; the deck counts only from its top."""
    for i in range(g.top, len(g.deck)):
        if g.deck[i] == c:
            return g.deck, i
    for pile in _piles(g):
        for i in range(len(pile)):
            if pile[i] == c:
                return pile, i
    raise ArrangeError("card %d is nowhere" % c)


def swap(g, c, x):
    """Cards c and x trade places."""
    a, i = find(g, c)
    b, j = find(g, x)
    a[i] = x
    b[j] = c


def set_hand(g, p, cards):
    """Player p holds exactly `cards` (as many as now); the cards they held
    go where the new ones came from."""
    hand = g.hands[p]
    if len(cards) != len(hand):
        raise ArrangeError("P%d holds %d cards, not %d" % (p + 1, len(hand), len(cards)))
    for i in range(len(cards)):
        if cards[i] in cards[:i]:
            raise ArrangeError("card %d twice" % cards[i])
    for c in cards:
        if c not in hand:
            for x in hand:
                if x not in cards:
                    swap(g, c, x)
                    break
    hand.sort()


def move(g, c, dest):
    """Card c leaves its pile (the deck too) and goes on the list `dest`."""
    a, i = find(g, c)
    if a is g.deck:
        g.deck = g.deck[:i] + g.deck[i + 1:]
    elif a is g.removed:
        g.removed = g.removed[:i] + g.removed[i + 1:]
    else:
        a.pop(i)
    dest.append(c)


def deck_left(g, k):
    """Leave k cards in the deck (the rest of it is removed from the game)."""
    if k > g.deck_count():
        raise ArrangeError("the deck holds only %d cards" % g.deck_count())
    while g.deck_count() > k:
        c = g.deck[len(g.deck) - 1]
        g.deck = g.deck[:len(g.deck) - 1]
        g.removed.append(c)


def deck_top(g, cards):
    """The next draws are `cards`, in order."""
    for i in range(len(cards)):
        a, j = find(g, cards[i])
        if a is not g.deck:
            raise ArrangeError("card %d is not in the deck" % cards[i])
        swap(g, cards[i], g.deck[g.top + i])


def set_market(g, cards, sides):
    """The 15 market positions show market cards `cards` with `sides` up;
    the market cards this displaces take the newcomers' places (out of
    the game, a reserve or a player's own cards)."""
    if len(cards) != MARKET or len(sides) != MARKET:
        raise ArrangeError("the market has 15 positions")
    others = [g.out_market if isinstance(g.out_market, list) else None, g.reserve] + g.own
    if not isinstance(g.out_market, list):
        g.out_market = list(g.out_market)
        others[0] = g.out_market
    for i in range(MARKET):
        m = cards[i]
        for j in range(MARKET):
            if g.mk[j] == m and j != i:
                g.mk[i], g.mk[j] = g.mk[j], g.mk[i]
                break
        else:
            if g.mk[i] != m:
                for pile in others:
                    if m in pile:
                        pile[pile.index(m)] = g.mk[i]
                        g.mk[i] = m
                        break
                else:
                    raise ArrangeError("market card %d is nowhere" % m)
        g.side[i] = sides[i]


def set_own(g, p, cards):
    """Player p's own market cards are exactly `cards` (advanced)."""
    own = g.own[p]
    if len(cards) != len(own):
        raise ArrangeError("P%d has %d market cards" % (p + 1, len(own)))
    for m in cards:
        if m in own:
            continue
        x = [y for y in own if y not in cards][0]
        for pile in [g.reserve] + g.own:
            if m in pile and pile is not own:
                pile[pile.index(m)] = x
                own[own.index(x)] = m
                break
        else:
            for j in range(MARKET):
                if g.mk[j] == m:
                    g.mk[j] = x
                    own[own.index(x)] = m
                    break
            else:
                raise ArrangeError("market card %d is nowhere" % m)
