"""The six dice, the dice choices of the menu, and rolling.

A die is a bytes of six face numbers (faces.py). Dice are numbered 0-5:
yellow A, B, C, then the orange dice in the order the rulebook adds them
(dog, innkeeper, king). Matrix d of the box shows die d.
"""
from cheesebox import faces as F
from cheesebox.rand import randbelow

DEFAULT_DICE = (
    ("yellow A", "yellow", ("cheese1", "cheese2", "cheese3", "cat", "mouse1", "mouse2")),
    ("yellow B", "yellow", ("cheese1", "cheese2", "cheese3", "cat", "mouse1", "cheese1")),
    ("yellow C", "yellow", ("cheese1", "cheese2", "cheese3", "cat", "mouse2", "cheese2")),
    ("orange dog", "orange", ("dog", "dog", "cheese1", "cheese2", "mouse1", "cat")),
    ("orange innkeeper", "orange", ("innkeeper", "cheese2", "cheese1", "mouse1", "mouse2", "cat")),
    ("orange king", "orange", ("king", "king", "cheese2", "cheese1", "mouse1", "cat")),
)
N_DICE = 6
N_YELLOW = 3

# Menu choices, in the order the ROLL menu cycles through them.
CHOICES = ("yellow", "yellow+1", "yellow+2", "yellow+3", "king")
CAMPAIGN = 4


class DiceError(ValueError):
    """A dice file that cannot be used; the message names the field."""


def _faces_of(spec, where):
    if not isinstance(spec, (list, tuple)) or len(spec) != 6:
        raise DiceError("%s: a die needs a list of six faces" % where)
    out = bytearray(6)
    for i, name in enumerate(spec):
        try:
            out[i] = F.face_id(name)
        except ValueError as e:
            raise DiceError("%s face %d: %s" % (where, i + 1, e))
    return bytes(out)


def load_dice(spec, source="dice file"):
    """Dice from a parsed dice file: {"dice": [{"name", "faces": [6 names]} x6]}.

    Returns (names, faces): two tuples of six. Order is the box's die order:
    three yellow dice, then the dog, innkeeper and king dice.
    """
    if not isinstance(spec, dict) or "dice" not in spec:
        raise DiceError("%s: missing field 'dice'" % source)
    dice = spec["dice"]
    if not isinstance(dice, list) or len(dice) != N_DICE:
        raise DiceError("%s: field 'dice' must list exactly %d dice" % (source, N_DICE))
    names = []
    faces = []
    for i, die in enumerate(dice):
        where = "%s: dice[%d]" % (source, i)
        if not isinstance(die, dict):
            raise DiceError("%s must be an object with 'name' and 'faces'" % where)
        name = die.get("name", "die %d" % (i + 1))
        if not isinstance(name, str):
            raise DiceError("%s.name must be text" % where)
        if "faces" not in die:
            raise DiceError("%s: missing field 'faces'" % where)
        names.append(name)
        faces.append(_faces_of(die["faces"], where + ".faces"))
    return tuple(names), tuple(faces)


def default_dice():
    """(names, faces) of the rulings' default dice."""
    return load_dice({"dice": [{"name": n, "faces": list(f)} for n, _, f in DEFAULT_DICE]},
                     "default dice")


def dice_for_choice(choice):
    """Die numbers in play for a non-campaign menu choice (0-3)."""
    return bytes(range(N_YELLOW + choice))


def campaign_dice(game, first_yellow, second_yellow):
    """Dice of King of the Cheese Mountain game `game` (1-based).

    Game 1: one random yellow die; 2: two; 3: three; 4: + dog; 5: + innkeeper;
    6 and on: all six. The random yellow dice are drawn once per campaign.
    """
    if game == 1:
        return bytes((first_yellow,))
    if game == 2:
        a, b = first_yellow, second_yellow
        return bytes((a, b) if a < b else (b, a))
    extra = game - 3
    if extra > 3:
        extra = 3
    return bytes(range(N_YELLOW + extra))


def draw_campaign_yellows(rng):
    """The two random yellow dice that open a campaign (games 1 and 2)."""
    first = randbelow(rng, N_YELLOW)
    second = randbelow(rng, N_YELLOW - 1)
    if second >= first:
        second += 1
    return first, second


class RandomRoller:
    """Rolls the dice in play with the injected random source."""

    def __init__(self, rng):
        self.rng = rng

    def roll(self, dice_faces, in_play, out):
        """Fill out[i] with the face number of die in_play[i]."""
        for i in range(len(in_play)):
            out[i] = dice_faces[in_play[i]][randbelow(self.rng, 6)]
