"""The games the box hosts, in the order the joining screen offers them.

Each entry: the game's name, its module (see game.py for what it provides),
and whether it stays in memory once loaded. A resident game is the one the
box boots into: loading it again and again would only cut a small heap
into pieces. A game that is not resident is dropped again on the Pico when
the table picks another, so the next game has the heap (box.py,
_forget_game). Adding a game is a new package and one line here.
"""

NAME = 0
MODULE = 1
RESIDENT = 2

GAMES = (
    ("cheese master", "cheesemaster.game", True),
    ("cheesonomics", "cheesonomics.game", False),
)


def load(i):
    """Game module number i (imported now)."""
    path = GAMES[i][MODULE]
    return __import__(path, None, None, ("NAME",))


def index(name):
    """The number of the game called `name`, or -1."""
    for i in range(len(GAMES)):
        if GAMES[i][NAME] == name:
            return i
    return -1
