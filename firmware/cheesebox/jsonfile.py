"""The box's JSON files (board, dice, cards, saved game): one reader, one
check of a whole number.

Every file is read the same way and a bad one is named the same way, with
the error class of the file's own checker: "cannot be read", "is not a text
file", "is not valid JSON". JSON's true and false are never whole numbers
(Python's bool is an int: a board file with "roll": true must be refused,
not read as pin 1).
"""
import json

# pyright reads the typing names; MicroPython has no typing module (a failed
# import costs ~3 ms of flash lookups at boot) and never evaluates annotations
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeGuard


def read(path, error):
    """The parsed JSON of the file at `path`; raises error(message) naming it."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise error("%s: cannot be read (%s)" % (path, e))
    except UnicodeError:
        raise error("%s: is not a text file (not UTF-8)" % path)
    return parse(text, path, error)


def parse(text, name, error):
    """The parsed JSON of `text` (file `name`); raises error(message) naming it."""
    try:
        return json.loads(text)
    except (ValueError, RuntimeError, MemoryError) as e:   # RecursionError: too deep
        raise error("%s: is not valid JSON (%s)" % (name, e))


def whole(v) -> "TypeGuard[int]":
    """A JSON whole number: an int, and not true or false."""
    return type(v) is int
