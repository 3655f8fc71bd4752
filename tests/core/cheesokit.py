# Shared by the Cheesonomics core tests: the names of the animals, places,
# countries and marks (card numbers in cards.json order) and the check that a
# move is refused. Runs on CPython and MicroPython.
from sim.cheesonomics.engine import RuleError
from flowkit import raises

COW, GOAT, SHEEP, BUFFALO, CAMEL = 0, 1, 2, 3, 4
RED, YELLOW, GREEN, BLUE, PURPLE = 0, 1, 2, 3, 4
FRANCE, ITALY, SWISS, DUTCH, GREECE = 0, 1, 2, 3, 4
TROWEL, MOUNTAIN, BUCKET, HORN, RAKE = 0, 1, 2, 3, 4


def refused(fn, *args):
    """The message of the RuleError the move raised; fails if it was allowed."""
    return str(raises(RuleError, fn, *args))
