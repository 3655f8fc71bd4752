"""The nine die faces, as small ints, and their names from the rulings.

Faces are ints so that a roll is a bytearray and counting allocates nothing.
"""
from micropython import const

CHEESE1 = const(0)
CHEESE2 = const(1)
CHEESE3 = const(2)
MOUSE1 = const(3)
MOUSE2 = const(4)
CAT = const(5)
DOG = const(6)
INNKEEPER = const(7)
KING = const(8)
COUNT = const(9)

NAMES = ("cheese1", "cheese2", "cheese3", "mouse1", "mouse2",
         "cat", "dog", "innkeeper", "king")


def face_id(name):
    """Face number for a name; ValueError naming the bad face otherwise."""
    try:
        return NAMES.index(name)
    except ValueError:
        raise ValueError("unknown face %r (known: %s)" % (name, " ".join(NAMES)))
