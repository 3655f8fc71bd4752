"""The six default dice, and reading and checking a dice file.

Needed only while the box starts: dice.load_dice() and dice.default_dice()
load this module and drop it again, so its names and checks leave the
Pico's heap.
"""
from cheesemaster import faces as F
from cheesemaster.dice import N_DICE, DiceError

DEFAULT_DICE = (
    ("yellow A", "yellow", ("cheese1", "cheese2", "cheese3", "cat", "mouse1", "mouse2")),
    ("yellow B", "yellow", ("cheese1", "cheese2", "cheese3", "cat", "mouse1", "cheese1")),
    ("yellow C", "yellow", ("cheese1", "cheese2", "cheese3", "cat", "mouse2", "cheese2")),
    ("orange dog", "orange", ("dog", "dog", "cheese1", "cheese2", "mouse1", "cat")),
    ("orange innkeeper", "orange", ("innkeeper", "cheese2", "cheese1", "mouse1", "mouse2", "cat")),
    ("orange king", "orange", ("king", "king", "cheese2", "cheese1", "mouse1", "cat")),
)


def _faces_of(spec, where):
    if not isinstance(spec, (list, tuple)) or len(spec) != 6:
        raise DiceError("%s: 'faces' must list six faces" % where)
    out = bytearray(6)
    for i, name in enumerate(spec):
        try:
            out[i] = F.face_id(name)
        except ValueError as e:
            raise DiceError("%s, face %d: %s" % (where, i + 1, e))
    return bytes(out)


def load(spec, source="dice file"):
    """Dice from a parsed dice file: {"dice": [{"name", "faces": [6 names]} x6]}.

    Returns (names, faces): two tuples of six. Order is the box's die order:
    three yellow dice, then the dog, innkeeper and king dice. The messages
    count dice and faces from 1, as a builder does ("die 4, face 2"), never
    as list indexes.
    """
    if not isinstance(spec, dict) or "dice" not in spec:
        raise DiceError("%s: missing field 'dice'" % source)
    dice = spec["dice"]
    if not isinstance(dice, list) or len(dice) != N_DICE:
        raise DiceError("%s: field 'dice' must list exactly %d dice" % (source, N_DICE))
    names = []
    faces = []
    for i, die in enumerate(dice):
        where = "%s: die %d" % (source, i + 1)
        if not isinstance(die, dict):
            raise DiceError("%s must be an object with 'name' and 'faces'" % where)
        name = die.get("name", "die %d" % (i + 1))
        if not isinstance(name, str):
            raise DiceError("%s: 'name' must be text" % where)
        if "faces" not in die:
            raise DiceError("%s: missing field 'faces'" % where)
        names.append(name)
        faces.append(_faces_of(die["faces"], where))
    return tuple(names), tuple(faces)


def default():
    """(names, faces) of the rulings' default dice."""
    return load({"dice": [{"name": n, "faces": list(f)} for n, _, f in DEFAULT_DICE]},
                     "default dice")


ERR_DICE = 2                # the error code a bad dice file shows beside the cross


def table_dice(box, path, text):
    """(names, faces) of the dice the table plays from the text of the dice
    file `path` on the box's flash (dice.json: game.picked read it; text is
    the exception reading it raised if it could not), else the default dice.
    A bad file is said on the dice (a cross and code 2) and in an `error`
    event, and the default dice play: a dice file never stops the box, nor
    another game."""
    try:
        if isinstance(text, Exception):
            raise text
        from cheesebox.jsonfile import parse
        return load(parse(text, path, DiceError), path)
    except DiceError as e:
        box.problem("%s; the default dice play" % e, ERR_DICE)
    except UnicodeError:
        box.problem("%s: is not a text file (not UTF-8); the default dice play" % path,
                    ERR_DICE)
    except (OSError, MemoryError) as e:     # unreadable, or too big for the heap
        box.problem("%s: cannot be read (%s); the default dice play" % (path, e), ERR_DICE)
    return default()
