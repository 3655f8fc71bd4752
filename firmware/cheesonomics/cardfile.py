"""The Cheesonomics card list: read and check cards.json (one data file).

The file names the animals, places, countries and special marks, lists both
sides of the 25 market cards and says which milk-cheese cards carry a mark,
so a table can type in its own printed cards (docs/cheesonomics.md). A bad
file raises CardsError naming the file and what is wrong; the game never
starts on a list it cannot trust.

A milk-cheese card is a number 0..99: animal * 20 + place * 4 + copy.
"""
from cheesebox import jsonfile
from cheesebox.jsonfile import whole

NONE = 255          # "no mark"
_FORMAT = "cheesonomics-cards 1"


class CardsError(ValueError):
    pass


class Cards:
    """The checked list, compact: names as tuples, numbers in bytearrays."""

    def __init__(self, animals, places, countries, marks, country, sides, mark):
        self.animals = animals      # 5 names
        self.places = places        # 5 names (stripe colours)
        self.countries = countries  # 5 names
        self.marks = marks          # 5 names
        self.country = country      # bytearray(25): country of market card m
        self.sides = sides          # bytearray(50): signs of card m, side s at 2*m+s
        self.mark = mark            # bytearray(100): mark of card c or NONE


def _names(obj, key, where):
    v = obj.get(key)
    if not isinstance(v, list) or len(v) != 5:
        raise CardsError("%s: '%s' must be a list of 5 names" % (where, key))
    seen = []
    for x in v:
        if not isinstance(x, str) or not x or len(x) > 16:
            raise CardsError("%s: '%s': %r is not a name (1-16 characters)" % (where, key, x))
        if x.lower() in seen:
            raise CardsError("%s: '%s': %s is named twice" % (where, key, x))
        seen.append(x.lower())
    return tuple(v)


def _sign(v, where, i, side):
    if not whole(v) or v < 1 or v > 2:
        raise CardsError("%s: market card %d: side %s must show 1 or 2 signs, not %r"
                         % (where, i + 1, side, v))
    return v


def parse(obj, where="cards"):
    """A Cards from the decoded JSON object; CardsError if anything is off."""
    if not isinstance(obj, dict):
        raise CardsError("%s: must be a JSON object" % where)
    if obj.get("format") != _FORMAT:
        raise CardsError("%s: 'format' must be \"%s\"" % (where, _FORMAT))
    animals = _names(obj, "animals", where)
    places = _names(obj, "places", where)
    countries = _names(obj, "countries", where)
    marks = _names(obj, "marks", where)
    initials = [m[0].upper() for m in marks]
    for i in range(5):
        if initials.index(initials[i]) != i:
            raise CardsError("%s: 'marks': two marks start with %s (the letter names a mark in 'marked')"
                             % (where, initials[i]))
    market = obj.get("market")
    if not isinstance(market, list) or len(market) != 25:
        raise CardsError("%s: 'market' must list the 25 market cards" % where)
    country = bytearray(25)
    sides = bytearray(50)
    per = bytearray(5)
    for i in range(25):
        e = market[i]
        if not isinstance(e, list) or len(e) != 3:
            raise CardsError("%s: market card %d: must be [country, signs side A, signs side B]"
                             % (where, i + 1))
        if e[0] not in countries:
            raise CardsError("%s: market card %d: %r is not one of the countries" % (where, i + 1, e[0]))
        k = countries.index(e[0])
        country[i] = k
        per[k] += 1
        sides[2 * i] = _sign(e[1], where, i, "A")
        sides[2 * i + 1] = _sign(e[2], where, i, "B")
    for k in range(5):
        if per[k] != 5:
            raise CardsError("%s: 'market': %s has %d cards, each country has 5"
                             % (where, countries[k], per[k]))
    marked = obj.get("marked")
    if not isinstance(marked, dict):
        raise CardsError("%s: 'marked' must map each animal to its marks" % where)
    mark = bytearray(b"\xff" * 100)
    for a in range(5):
        row = marked.get(animals[a])
        if not isinstance(row, str):
            raise CardsError("%s: 'marked': no line for %s" % (where, animals[a]))
        groups = row.split()
        if len(groups) != 5 or any(len(g) != 4 for g in groups):
            raise CardsError("%s: 'marked': %s: 5 groups of 4 letters (one group per place), not %r"
                             % (where, animals[a], row))
        for p in range(5):
            for c in range(4):
                ch = groups[p][c].upper()
                if ch == "-":
                    continue
                if ch not in initials:
                    raise CardsError("%s: 'marked': %s: %r is not a mark initial or '-'"
                                     % (where, animals[a], groups[p][c]))
                mark[a * 20 + p * 4 + c] = initials.index(ch)
    for k in marked:
        if k not in animals:
            raise CardsError("%s: 'marked': %r is not one of the animals" % (where, k))
    return Cards(animals, places, countries, marks, country, sides, mark)


def default_path():
    """cards.json beside this module (firmware/ on the PC, / on the Pico)."""
    f = globals().get("__file__") or "cheesonomics/cardfile.py"
    i = f.rfind("/")
    return (f[:i + 1] if i >= 0 else "") + "cards.json"


def load(path=None):
    """Read and check a card file (default: the box's own cards.json)."""
    if path is None:
        path = default_path()
    return parse(jsonfile.read(path, CardsError), path)
