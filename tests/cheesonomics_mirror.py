"""A CPython Bank that follows a Cheesonomics game the box runs elsewhere
(the emulated chip, the web page): laid out from the box's `market` event,
fed the same turns, it must end with the box's accounts. The turns are a
simple player's: produce, sell where it pays most, now and then collect."""
from cheesonomics.bank import Bank


def mirror_of(market, cards):
    """A CPython Bank with the chip's market (its `market` event: each card by
    its country and signs up|back; a card of that kind not yet laid)."""
    from cheesonomics.entry import KIND_CODES, card_kind
    b = Bank(cards, len(market["players"]), None, first=market["players"].index(market["first"]))
    used = []
    for i, label in enumerate(market["cards"]):
        country, signs = label.rsplit(" ", 1)
        c = list(cards.countries).index(country)
        code = KIND_CODES.index(tuple(int(x) for x in signs.split("|"))) + 1
        for m in range(25):
            if cards.country[m] != c or m in used:
                continue
            side = 0 if card_kind(cards, m, 0) == code else 1 if card_kind(cards, m, 1) == code else -1
            if side >= 0:
                break
        used.append(m)
        b.mk[i] = m
        b.side[i] = side
    return b


def turn_values(b, k):
    """The k-th turn's entry: produce, sell where it pays most, now and then collect."""
    p = b.cur
    best = max(range(5), key=b.price)
    if b.table[p] >= 2 and b.price(best) > 0 and k % 2:
        return [4, 1 + k % 5, best + 1, min(3, b.table[p])]
    if k % 4 == 3:
        for t in range(10):
            if b.locked_by(t, p) < 0:
                return [1 + t // 5, 1 + t % 5]
    return [3, 3]


def apply(b, values):
    if values[0] in (1, 2):
        b.collect((values[0] - 1) * 5 + values[1] - 1)
    elif values[0] == 3:
        b.produce(values[1])
    else:
        b.sell(values[1] - 1, values[2] - 1, values[3])
