"""Names a person types for Cheesonomics things (scenario scripts and the
terminal game): players P1..P5, milk types, countries, marks, cards.

Names come from the card file, case-insensitive; a unique prefix is enough
("sw" for Switzerland, "bu" for buffalo). Each parser raises NameError_ with
a sentence saying what was expected.
"""


class NameError_(ValueError):
    pass


def _pick(word, names, what):
    w = word.lower()
    hits = [i for i in range(len(names)) if names[i].lower() == w]
    if not hits:
        hits = [i for i in range(len(names)) if names[i].lower().startswith(w)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise NameError_("%r could be %s" % (word, " or ".join(names[i] for i in hits)))
    raise NameError_("%r is not a %s (%s)" % (word, what, ", ".join(names)))


def player(word, n):
    w = word.upper()
    if len(w) == 2 and w[0] == "P" and w[1] in "12345" and int(w[1]) <= n:
        return int(w[1]) - 1
    raise NameError_("%r is not a player (P1..P%d)" % (word, n))


def milk_type(word, cards):
    """An animal (0..4) or a place (5..9)."""
    return _pick(word, list(cards.animals) + list(cards.places), "milk type")


def animal(word, cards):
    return _pick(word, cards.animals, "animal")


def country(word, cards):
    return _pick(word, cards.countries, "country")


def mark(word, cards):
    return _pick(word, cards.marks, "special mark")


def number(word, lo, hi, what):
    try:
        v = int(word)
    except ValueError:
        v = None
    if v is None or v < lo or v > hi:
        raise NameError_("%r is not a %s (%d-%d)" % (word, what, lo, hi))
    return v


def card_of(word, cards, pool):
    """The card named animal/place[/mark] found in `pool` (a list of card
    numbers, searched in order; without a mark, unmarked copies first)."""
    parts = word.split("/")
    if len(parts) not in (2, 3):
        raise NameError_("%r is not a card (animal/place or animal/place/mark)" % word)
    a = animal(parts[0], cards)
    p = _pick(parts[1], cards.places, "place")
    m = mark(parts[2], cards) if len(parts) == 3 else None
    best = None
    for c in pool:
        if c // 20 != a or (c // 4) % 5 != p:
            continue
        cm = cards.mark[c]
        if m is not None:
            if cm == m:
                return c
        elif cm == 255:
            return c
        elif best is None:
            best = c
    if best is not None:
        return best
    raise NameError_("no %s there" % word)


ADVANCED_WORDS = ("forbid", "reserve", "trade", "exchange")


def advanced_only(word):
    """Why a basic game refuses an advanced-only word of a sale."""
    return "'%s' is for the advanced variant (this game is basic)" % word


def too_few(cards, a, k):
    """Why a sale of more pieces than lie on the table is refused (the box's
    reason, for one animal)."""
    if k == 0:
        return "no %s cheese is on the table" % cards.animals[a]
    return "only %d piece%s of %s cheese %s on the table" % (k, "" if k == 1 else "s", cards.animals[a],
                                                             "is" if k == 1 else "are")


def card_name(cards, c):
    s = "%s/%s" % (cards.animals[c // 20], cards.places[(c // 4) % 5])
    if cards.mark[c] != 255:
        s += "/" + cards.marks[cards.mark[c]]
    return s


def market_name(cards, m, side=None):
    s = "%s %d|%d" % (cards.countries[cards.country[m]], cards.sides[2 * m], cards.sides[2 * m + 1])
    if side is not None:
        s += " (%s up)" % "AB"[side]
    return s
