# Counting rules (INTERPRETATION.md, "Counting: how much cheese is left").
# Runs under pytest on CPython and under tests/mp_runner.py on MicroPython.
from cheesemaster.rules import cheese_left, count_ids, answer_is_right
from cheesemaster import faces as F
from flowkit import raises


# -- the rulebook's counting example ---------------------------------------
def test_rulebook_counting_example_leaves_two():
    # 3+1 cheese, the king eats 1, the dog chases the cat, the mouse eats 1
    assert cheese_left(["cheese3", "cheese1", "king", "dog", "cat", "mouse1"]) == 2


def test_rulebook_example_order_does_not_matter():
    assert cheese_left(["mouse1", "cat", "dog", "king", "cheese1", "cheese3"]) == 2
    assert cheese_left(["cat", "cheese1", "mouse1", "cheese3", "dog", "king"]) == 2


def test_andrey_example_three_yellow_dice():
    # "only 2 pieces of cheese are left" with three yellow dice, e.g.
    assert cheese_left(["cheese3", "cat", "mouse2"]) == 2


# -- step 1: cheese faces ----------------------------------------------------
def test_cheese_faces_add_up():
    assert cheese_left([]) == 0
    assert cheese_left(["cheese1"]) == 1
    assert cheese_left(["cheese2"]) == 2
    assert cheese_left(["cheese3"]) == 3
    assert cheese_left(["cheese1", "cheese2", "cheese3"]) == 6
    assert cheese_left(["cheese3", "cheese3", "cheese3", "cheese3", "cheese3", "cheese3"]) == 18


# -- step 2: the king eats no matter what -------------------------------------
def test_king_eats_one():
    assert cheese_left(["cheese3", "king"]) == 2
    assert cheese_left(["cheese3", "king", "king"]) == 1


def test_king_eats_even_with_innkeeper():
    assert cheese_left(["cheese3", "king", "innkeeper"]) == 2


def test_king_eats_even_with_cats():
    # cats chase mice, not the Mouse King
    assert cheese_left(["cheese3", "king", "cat"]) == 2
    assert cheese_left(["cheese3", "king", "cat", "cat", "cat"]) == 2


def test_king_eats_with_dogs_and_everything():
    assert cheese_left(["cheese3", "cheese3", "king", "dog", "cat", "innkeeper"]) == 5


# -- step 3: the innkeeper ----------------------------------------------------
def test_innkeeper_chases_mice():
    assert cheese_left(["cheese3", "mouse1", "innkeeper"]) == 3
    assert cheese_left(["cheese3", "mouse2", "mouse2", "innkeeper"]) == 3


def test_innkeeper_chases_cats_and_dogs_too():
    # with the innkeeper there are no cats left to chase mice, and no mice
    assert cheese_left(["cheese2", "cat", "dog", "mouse1", "innkeeper"]) == 2


def test_innkeeper_does_not_chase_king():
    assert cheese_left(["cheese2", "innkeeper", "king", "mouse2"]) == 1


def test_two_innkeepers_same_as_one():
    assert cheese_left(["cheese3", "mouse1", "innkeeper", "innkeeper"]) == 3


def test_innkeeper_alone_is_no_cheese():
    assert cheese_left(["innkeeper"]) == 0
    assert cheese_left(["innkeeper", "cheese1"]) == 1


# -- step 4: the dog chases one cat --------------------------------------------
def test_dog_chases_one_cat():
    # without the dog the cat would stop the mouse: 3 left
    assert cheese_left(["cheese3", "cat", "mouse1"]) == 3
    assert cheese_left(["cheese3", "cat", "mouse1", "dog"]) == 2


def test_dog_chases_only_one_cat():
    # two cats, one dog: one cat still chases one mouse
    assert cheese_left(["cheese3", "cat", "cat", "dog", "mouse1"]) == 3
    assert cheese_left(["cheese3", "cat", "cat", "dog", "mouse2"]) == 2


def test_more_dogs_than_cats():
    assert cheese_left(["cheese3", "dog", "dog", "cat", "mouse1"]) == 2
    assert cheese_left(["cheese3", "dog", "dog", "mouse1"]) == 2


def test_dog_does_not_eat_cheese():
    assert cheese_left(["cheese2", "dog"]) == 2
    assert cheese_left(["cheese2", "dog", "dog"]) == 2


# -- step 5: each cat chases one mouse ------------------------------------------
def test_each_cat_chases_one_mouse():
    assert cheese_left(["cheese3", "mouse1", "mouse1"]) == 1
    assert cheese_left(["cheese3", "mouse1", "mouse1", "cat"]) == 2
    assert cheese_left(["cheese3", "mouse1", "mouse1", "cat", "cat"]) == 3


def test_cat_chases_one_of_the_two_mice_on_mouse2():
    assert cheese_left(["cheese3", "mouse2", "cat"]) == 2
    assert cheese_left(["cheese3", "mouse2", "cat", "cat"]) == 3


def test_spare_cats_do_nothing():
    assert cheese_left(["cheese2", "cat", "cat", "cat", "mouse1"]) == 2
    assert cheese_left(["cheese2", "cat"]) == 2


# -- step 6: mice eat -----------------------------------------------------------
def test_mouse2_is_two_mice():
    assert cheese_left(["cheese3", "mouse2"]) == 1
    assert cheese_left(["cheese3", "cheese2", "mouse2"]) == 3
    assert cheese_left(["cheese3", "cheese3", "mouse2", "mouse2"]) == 2
    # mouse2 eats the same as two mouse1 faces
    assert cheese_left(["cheese3", "cheese3", "mouse2"]) == cheese_left(
        ["cheese3", "cheese3", "mouse1", "mouse1"])


# -- step 7: never negative -----------------------------------------------------
def test_never_negative():
    assert cheese_left(["mouse1"]) == 0
    assert cheese_left(["king"]) == 0
    assert cheese_left(["cheese1", "mouse2", "mouse2"]) == 0
    assert cheese_left(["king", "king", "king", "mouse2", "mouse2", "mouse2"]) == 0
    assert cheese_left(["cheese1", "king", "king"]) == 0


def test_count_ids_matches_names():
    names = ["cheese3", "cheese1", "king", "dog", "cat", "mouse1"]
    ids = bytearray(len(names))
    for i in range(len(names)):
        ids[i] = F.face_id(names[i])
    assert count_ids(ids) == 2
    assert count_ids(bytes([F.CHEESE3, F.MOUSE2])) == 1
    assert count_ids(bytes([F.CHEESE2, F.INNKEEPER, F.KING, F.MOUSE2])) == 1


def test_face_names_are_the_rulings_vocabulary():
    want = ["cheese1", "cheese2", "cheese3", "mouse1", "mouse2",
            "cat", "dog", "innkeeper", "king"]
    assert sorted(F.NAMES) == sorted(want)
    assert len(F.NAMES) == 9
    for n in want:
        assert F.NAMES[F.face_id(n)] == n


# -- plates: 7 means 7+ ----------------------------------------------------------
def test_seven_plate_means_seven_or_more():
    assert answer_is_right(7, 7)
    assert answer_is_right(7, 9)
    assert answer_is_right(7, 18)
    assert not answer_is_right(7, 6)
    assert not answer_is_right(7, 0)


def test_lower_plates_must_be_exact():
    assert not answer_is_right(6, 9)
    assert not answer_is_right(6, 7)
    assert answer_is_right(6, 6)
    assert answer_is_right(0, 0)
    assert not answer_is_right(0, 1)
    assert not answer_is_right(3, 2)   # Anna's mistake
    assert answer_is_right(2, 2)
    for k in range(7):
        for left in range(12):
            assert answer_is_right(k, left) == (k == left)


# -- bad input -------------------------------------------------------------------
def test_unknown_face_raises_value_error_naming_it():
    e = raises(ValueError, cheese_left, ["cheese3", "unicorn"])
    assert "unicorn" in str(e)


def test_misspelt_face_raises():
    e = raises(ValueError, cheese_left, ["Cheese3"])
    assert "Cheese3" in str(e)
    e = raises(ValueError, cheese_left, ["mouse"])
    assert "mouse" in str(e)
