"""Exhaustive check of the counting rules against an independent reference.

CPython only (pytest). The reference below is written from the ruling text in
INTERPRETATION.md ("Counting: how much cheese is left"), not from rules.py:
it resolves the characters one by one, as a player at the table would.
"""
import itertools
from collections import Counter

import pytest

from cheesemaster.rules import cheese_left, answer_is_right
from cheesemaster.dicefile import DEFAULT_DICE

FACES = ("cheese1", "cheese2", "cheese3", "mouse1", "mouse2",
         "cat", "dog", "innkeeper", "king")

# The ruling's table, typed in again here (not read from dice.py).
RULING_DICE = (
    ("cheese1", "cheese2", "cheese3", "cat", "mouse1", "mouse2"),
    ("cheese1", "cheese2", "cheese3", "cat", "mouse1", "cheese1"),
    ("cheese1", "cheese2", "cheese3", "cat", "mouse2", "cheese2"),
    ("dog", "dog", "cheese1", "cheese2", "mouse1", "cat"),
    ("innkeeper", "cheese2", "cheese1", "mouse1", "mouse2", "cat"),
    ("king", "king", "cheese2", "cheese1", "mouse1", "cat"),
)

# Stated chance (per cent) of each answer 0..7+ with all six default dice.
STATED = (16, 9, 11, 13, 13, 12, 10, 16)


def reference_left(roll):
    """How much cheese a careful player counts, written from the ruling.

    Builds a table of who is on it, lets each character act in the
    rulebook's order, and removes chased-away characters from the table.
    """
    table = Counter(roll)
    pieces = table["cheese1"] * 1 + table["cheese2"] * 2 + table["cheese3"] * 3
    # Mouse Kings: each eats one piece, nobody chases them.
    eaten = table["king"]
    # Mice as individuals: a mouse2 face is two mice.
    mice_on_table = table["mouse1"] + 2 * table["mouse2"]
    cats_on_table = table["cat"]
    dogs_on_table = table["dog"]
    if table["innkeeper"] > 0:
        # all dogs, cats and mice leave the inn
        dogs_on_table = cats_on_table = mice_on_table = 0
    # each dog, in turn, chases one cat if there is one
    for _ in range(dogs_on_table):
        if cats_on_table:
            cats_on_table -= 1
    # each remaining cat, in turn, chases one mouse if there is one
    for _ in range(cats_on_table):
        if mice_on_table:
            mice_on_table -= 1
    # the mice still there each eat a piece
    eaten += mice_on_table
    # you can't eat cheese that isn't there
    remaining = pieces
    for _ in range(eaten):
        if remaining:
            remaining -= 1
    return remaining


def test_reference_agrees_with_rulebook_example():
    assert reference_left(["cheese3", "cheese1", "king", "dog", "cat", "mouse1"]) == 2


def test_default_dice_are_the_rulings_table():
    assert tuple(f for _, _, f in DEFAULT_DICE) == RULING_DICE


def test_every_roll_of_the_six_default_dice():
    n = 0
    for roll in itertools.product(*RULING_DICE):
        got = cheese_left(list(roll))
        want = reference_left(roll)
        assert got == want, "roll %s: firmware %d, reference %d" % (roll, got, want)
        n += 1
    assert n == 6 ** 6


@pytest.mark.parametrize("k", range(0, 7))
def test_every_multiset_of_faces(k):
    count = 0
    for combo in itertools.combinations_with_replacement(FACES, k):
        got = cheese_left(list(combo))
        want = reference_left(combo)
        assert got == want, "faces %s: firmware %d, reference %d" % (combo, got, want)
        assert got >= 0
        # order of the faces never matters
        assert cheese_left(list(reversed(combo))) == got
        count += 1
    # multisets of size k from 9 kinds: C(9 + k - 1, k)
    from math import comb
    assert count == comb(9 + k - 1, k)


def test_distribution_with_all_six_dice_matches_ruling():
    hist = [0] * 8
    for roll in itertools.product(*RULING_DICE):
        left = cheese_left(list(roll))
        plate = left if left < 7 else 7
        hist[plate] += 1
    total = sum(hist)
    assert total == 46656
    for answer, stated in enumerate(STATED):
        pct = 100.0 * hist[answer] / total
        assert abs(pct - stated) <= 1.0, "answer %d: %.2f%% vs stated %d%%" % (answer, pct, stated)


def test_exactly_one_plate_is_right_for_every_roll():
    seen = set()
    for roll in itertools.product(*RULING_DICE):
        left = cheese_left(list(roll))
        if left in seen:
            continue
        seen.add(left)
        right = [k for k in range(8) if answer_is_right(k, left)]
        assert len(right) == 1
        assert right[0] == min(left, 7)
