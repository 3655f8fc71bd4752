"""The six dice, the dice choices of the menu, and rolling (the campaign's
growing dice are campaign.py's, loaded only for a campaign).

A die is a bytes of six face numbers (faces.py). Dice are numbered 0-5:
yellow A, B, C, then the orange dice in the order the rulebook adds them
(dog, innkeeper, king). Matrix d of the box shows die d.
"""
from cheesebox import run_once
from cheesebox.board import N_DICE  # noqa: F401  (dicefile, game and resume import it from here)
from cheesebox.rand import randbelow

N_YELLOW = 3

# Menu choices, in the order the ROLL menu cycles through them.
CHOICES = ("yellow", "yellow+1", "yellow+2", "yellow+3", "campaign")   # the menu, as the host tools name it
CAMPAIGN = 4


class DiceError(ValueError):
    """A dice file that cannot be used; the message names the field."""


def load_dice(spec, source="dice file"):
    """Dice from a parsed dice file: {"dice": [{"name", "faces": [6 names]} x6]}.

    Returns (names, faces): two tuples of six, in the box's die order (three
    yellow dice, then the dog, innkeeper and king dice). The checking code
    (dicefile.py) is loaded for this and dropped again.
    """
    return run_once("cheesemaster.dicefile", "load", spec, source)


def default_dice():
    """(names, faces) of the rulings' default dice."""
    return run_once("cheesemaster.dicefile", "default")


def dice_for_choice(choice):
    """Die numbers in play for a non-campaign menu choice (0-3)."""
    return bytes(range(N_YELLOW + choice))


class RandomRoller:
    """Rolls the dice in play with the injected random source."""

    def __init__(self, rng):
        self.rng = rng

    def roll(self, dice_faces, in_play, out):
        """Fill out[i] with the face number of die in_play[i]."""
        for i in range(len(in_play)):
            out[i] = dice_faces[in_play[i]][randbelow(self.rng, 6)]
