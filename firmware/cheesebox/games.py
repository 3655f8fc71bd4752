"""The games the box hosts, in the order the joining screen offers them.

Each entry names a game module (see game.py for what it provides). The box
imports a game when it is offered; on the Pico, a game in a package of its
own is dropped again when the table picks another (box.py, _forget_game).
Adding a game is one line here.
"""

GAMES = (
    ("cheese master", "cheesebox.cheesemaster"),
    ("cheesonomics", "cheesonomics.companion"),
)


def load(i):
    """Game module number i (imported now)."""
    path = GAMES[i][1]
    return __import__(path, None, None, ("NAME",))


def index(name):
    """The number of the game called `name`, or -1."""
    for i in range(len(GAMES)):
        if GAMES[i][0] == name:
            return i
    return -1
