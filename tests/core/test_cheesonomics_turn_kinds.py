# Market cards named by what is printed on them (country, signs up|back):
# cards of one kind are one, whichever copy lies where (entry.py). Runs on
# CPython and MicroPython.
from cheesonomics.bank import Bank
from cheesonomics.cardfile import load
from cheesonomics.entry import Entry, card_kind, kind_name
from sim.rng import SeededRandom


def _selling(country):
    """An advanced bank and an entry at the exchange step of a sale to `country`."""
    b = Bank(load(), 3, SeededRandom(1), advanced=True)
    b.table[b.cur] = 3
    e = Entry()
    for v in (4, 1, country + 1, 1, 0):
        assert e.check(b, v) == "", v
        e.take(v)
    return b, e


def _on_market(b, country):
    """The kinds-with-side-up of `country`'s market cards (codes 1-4)."""
    return [card_kind(b.cards, b.mk[i], b.side[i]) for i in range(15) if b.cards.country[b.mk[i]] == country]


def test_the_card_to_exchange_is_named_by_its_signs_as_it_lies():
    b = Bank(load(), 3, SeededRandom(1), advanced=True)
    c = [x for x in range(5) if b.price(x)][0]
    b, e = _selling(c)
    lying = _on_market(b, c)
    for code in (1, 2, 3, 4):
        why = e.check(b, code)
        assert (why == "") == (code in lying), (code, why)
        if why:
            assert "lies %s" % kind_name(code) in why


def test_a_card_in_a_hand_may_be_laid_either_side_up_and_copies_are_one():
    b = Bank(load(), 3, SeededRandom(1), advanced=True)
    c = [x for x in range(5) if b.price(x)][0]
    b, e = _selling(c)
    e.take(_on_market(b, c)[0])
    e.take(1)                                     # laid card: France
    cards = b.cards
    on = list(b.mk)
    for code in (1, 2, 3, 4):
        u, back = (code - 1) // 2 + 1, (code - 1) % 2 + 1
        # any France card off the market whose two sides are u and back (either way round)
        free = [m for m in range(5) if m not in on
                and sorted((cards.sides[2 * m], cards.sides[2 * m + 1])) == sorted((u, back))]
        why = e.check(b, code)
        assert (why == "") == bool(free), (code, why, free)
        if why:
            assert "no France %s card is in a hand" % kind_name(code) == why
