"""Counting rules of Cheese Master: how much cheese is left after a roll.

The box judges answers with it. The order (docs/box-rulings.md, "Faces and
counting"): add up the cheese faces; each king eats one piece whatever else
shows (nothing chases a king); an innkeeper chases every dog, cat and mouse;
without one, each dog chases one cat and each cat left chases one mouse
(mouse2 is two mice); each mouse left eats one piece; never below 0.
"""
from micropython import const

from cheesemaster import faces as F

PLATE_MAX = const(7)   # the "7+" plate


def count_ids(ids):
    """Cheese left for a sequence of face numbers (see faces.py)."""
    cheese = kings = mice = cats = dogs = 0
    innkeeper = False
    for f in ids:
        if f <= F.CHEESE3:
            cheese += f + 1
        elif f == F.KING:
            kings += 1
        elif f == F.INNKEEPER:
            innkeeper = True
        elif f == F.DOG:
            dogs += 1
        elif f == F.CAT:
            cats += 1
        elif f == F.MOUSE1:
            mice += 1
        elif f == F.MOUSE2:
            mice += 2
    if innkeeper:                      # chases every dog, cat and mouse
        active_mice = 0
    else:
        active_cats = cats - dogs if cats > dogs else 0
        active_mice = mice - active_cats if mice > active_cats else 0
    left = cheese - kings - active_mice
    return left if left > 0 else 0


def cheese_left(faces):
    """Cheese left for a sequence of face names, e.g. ["cheese3", "king"]."""
    return count_ids([F.face_id(name) for name in faces])


def answer_is_right(answer, left):
    """Plate 7 means "7+": right whenever 7 or more pieces are left."""
    if answer >= PLATE_MAX:
        return left >= PLATE_MAX
    return answer == left
