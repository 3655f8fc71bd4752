# The dice: the rulings' default dice, dice files, menu choices, campaign, rolling.
# Runs under pytest on CPython and under tests/mp_runner.py on MicroPython.
from cheesemaster import dice as D
from cheesemaster import dicefile as DF
from cheesemaster import faces as F
from cheesemaster.campaign import campaign_dice, draw_campaign_yellows
from cheesemaster.dice import DiceError, load_dice, default_dice, dice_for_choice, RandomRoller
from sim.rng import SeededRandom
from flowkit import raises

# The ruling's table (INTERPRETATION.md, "The default dice"), in order.
RULING = (
    ("yellow A", ("cheese1", "cheese2", "cheese3", "cat", "mouse1", "mouse2")),
    ("yellow B", ("cheese1", "cheese2", "cheese3", "cat", "mouse1", "cheese1")),
    ("yellow C", ("cheese1", "cheese2", "cheese3", "cat", "mouse2", "cheese2")),
    ("orange dog", ("dog", "dog", "cheese1", "cheese2", "mouse1", "cat")),
    ("orange innkeeper", ("innkeeper", "cheese2", "cheese1", "mouse1", "mouse2", "cat")),
    ("orange king", ("king", "king", "cheese2", "cheese1", "mouse1", "cat")),
)


def valid_spec():
    """A fresh, valid dice file (the ruling's dice), safe to mutate."""
    dice = []
    for name, faces in RULING:
        dice.append({"name": name, "faces": list(faces)})
    return {"dice": dice}


def names_of(faces_bytes):
    return tuple(F.NAMES[f] for f in faces_bytes)


# -- the defaults ---------------------------------------------------------------
def test_default_dice_match_ruling_in_order():
    names, faces = default_dice()
    assert len(names) == 6 and len(faces) == 6
    for i in range(6):
        assert names[i] == RULING[i][0]
        assert names_of(faces[i]) == RULING[i][1]


def test_default_dice_table_colours():
    assert len(DF.DEFAULT_DICE) == 6
    for i in range(6):
        name, colour, faces = DF.DEFAULT_DICE[i]
        assert name == RULING[i][0]
        assert tuple(faces) == RULING[i][1]
        assert colour == ("yellow" if i < 3 else "orange")


def test_only_orange_dice_bring_new_characters():
    # yellow dice: cheese, cats and mice only; dog/innkeeper/king each on its own die
    names, faces = default_dice()
    for d in range(3):
        for f in faces[d]:
            assert F.NAMES[f] not in ("dog", "innkeeper", "king")
    assert F.DOG in faces[3]
    assert F.INNKEEPER in faces[4]
    assert F.KING in faces[5]


# -- dice files -------------------------------------------------------------------
def test_load_dice_accepts_the_ruling_dice():
    names, faces = load_dice(valid_spec(), "dice.json")
    assert names == default_dice()[0]
    assert faces == default_dice()[1]


def test_load_dice_accepts_a_replacement():
    spec = valid_spec()
    spec["dice"][0]["faces"] = ["cheese3", "cheese3", "cheese3", "cheese3", "cheese3", "king"]
    spec["dice"][5]["name"] = "big king"
    names, faces = load_dice(spec, "dice.json")
    assert names[5] == "big king"
    assert names_of(faces[0]) == ("cheese3", "cheese3", "cheese3", "cheese3", "cheese3", "king")
    assert names_of(faces[1]) == RULING[1][1]


def test_load_dice_refuses_missing_dice_field():
    e = raises(DiceError, load_dice, {"die": []}, "my.json")
    assert "my.json" in str(e)
    assert "dice" in str(e)
    e = raises(DiceError, load_dice, [], "my.json")
    assert "my.json" in str(e)


def test_load_dice_refuses_wrong_count():
    for n in (0, 5, 7):
        spec = valid_spec()
        while len(spec["dice"]) > n:
            spec["dice"].pop()
        while len(spec["dice"]) < n:
            spec["dice"].append({"name": "extra", "faces": list(RULING[0][1])})
        e = raises(DiceError, load_dice, spec, "my.json")
        assert "my.json" in str(e)
        assert "dice" in str(e)


def test_load_dice_refuses_five_faces():
    spec = valid_spec()
    spec["dice"][2]["faces"].pop()
    e = raises(DiceError, load_dice, spec, "my.json")
    msg = str(e)
    assert "my.json" in msg
    assert "die 3" in msg      # counted from 1, as a builder counts
    assert "faces" in msg


def test_load_dice_refuses_seven_faces():
    spec = valid_spec()
    spec["dice"][4]["faces"].append("cheese1")
    e = raises(DiceError, load_dice, spec, "my.json")
    msg = str(e)
    assert "my.json" in msg
    assert "die 5" in msg


def test_load_dice_refuses_unknown_face():
    spec = valid_spec()
    spec["dice"][3]["faces"][2] = "wolf"
    e = raises(DiceError, load_dice, spec, "my.json")
    msg = str(e)
    assert "my.json" in msg
    assert "die 4, face 3" in msg
    assert "wolf" in msg


def test_dice_error_is_a_value_error():
    spec = valid_spec()
    spec["dice"][0]["faces"][0] = "cheese4"
    raises(ValueError, load_dice, spec, "x.json")


def test_load_dice_refuses_non_list_faces():
    for bad in ("cheese1 cheese2 cheese3 cat mouse1 mouse2", 6, None,
                {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}):
        spec = valid_spec()
        spec["dice"][1]["faces"] = bad
        e = raises(DiceError, load_dice, spec, "my.json")
        assert "my.json" in str(e)
        assert "die 2" in str(e)


def test_load_dice_refuses_missing_faces_and_non_object_die():
    spec = valid_spec()
    del spec["dice"][5]["faces"]
    e = raises(DiceError, load_dice, spec, "my.json")
    assert "die 6" in str(e) and "faces" in str(e)
    spec = valid_spec()
    spec["dice"][0] = ["cheese1"] * 6
    e = raises(DiceError, load_dice, spec, "my.json")
    assert "die 1 " in str(e)


# -- menu choices -------------------------------------------------------------------
def test_dice_for_choice():
    assert tuple(dice_for_choice(0)) == (0, 1, 2)
    assert tuple(dice_for_choice(1)) == (0, 1, 2, 3)
    assert tuple(dice_for_choice(2)) == (0, 1, 2, 3, 4)
    assert tuple(dice_for_choice(3)) == (0, 1, 2, 3, 4, 5)


def test_dice_for_choice_names_in_order():
    names, faces = default_dice()
    got = [names[d] for d in dice_for_choice(3)]
    assert got == ["yellow A", "yellow B", "yellow C",
                   "orange dog", "orange innkeeper", "orange king"]
    # the orange dice come in the rulebook's order: dog, innkeeper, king
    assert names[dice_for_choice(1)[-1]] == "orange dog"
    assert names[dice_for_choice(2)[-1]] == "orange innkeeper"


def test_menu_choices():
    assert D.CHOICES == ("yellow", "yellow+1", "yellow+2", "yellow+3", "campaign")
    assert D.CHOICES[D.CAMPAIGN] == "campaign"      # "king" is only the Mouse King's die and face


# -- King of the Cheese Mountain ----------------------------------------------------
def test_campaign_dice_by_game():
    for first, second in ((0, 1), (2, 0), (1, 2)):
        assert tuple(campaign_dice(1, first, second)) == (first,)
        two = tuple(campaign_dice(2, first, second))
        assert len(two) == 2 and first in two and second in two
        assert two[0] < two[1]
        assert tuple(campaign_dice(3, first, second)) == (0, 1, 2)
        assert tuple(campaign_dice(4, first, second)) == (0, 1, 2, 3)
        assert tuple(campaign_dice(5, first, second)) == (0, 1, 2, 3, 4)
        assert tuple(campaign_dice(6, first, second)) == (0, 1, 2, 3, 4, 5)
        assert tuple(campaign_dice(7, first, second)) == (0, 1, 2, 3, 4, 5)
        assert tuple(campaign_dice(12, first, second)) == (0, 1, 2, 3, 4, 5)


def test_campaign_game_counts():
    counts = [len(campaign_dice(g, 0, 1)) for g in range(1, 8)]
    assert counts == [1, 2, 3, 4, 5, 6, 6]


def test_campaign_yellows_are_two_different_yellow_dice():
    seen_first = set()
    for seed in range(1, 60):
        a, b = draw_campaign_yellows(SeededRandom(seed))
        assert 0 <= a < 3 and 0 <= b < 3
        assert a != b
        seen_first.add(a)
    # "one random yellow die": every yellow die can open a campaign
    assert len(seen_first) == 3


# -- rolling ----------------------------------------------------------------------
def test_random_roller_only_gives_faces_of_the_die():
    names, faces = default_dice()
    roller = RandomRoller(SeededRandom(7))
    in_play = dice_for_choice(3)
    out = bytearray(6)
    for _ in range(300):
        roller.roll(faces, in_play, out)
        for i in range(6):
            assert out[i] in faces[in_play[i]]


def test_random_roller_shows_every_face_of_every_die():
    names, faces = default_dice()
    roller = RandomRoller(SeededRandom(12345))
    in_play = dice_for_choice(3)
    out = bytearray(6)
    # which of the six face positions were seen, per die (faces repeat on a die)
    seen = []
    for d in range(6):
        seen.append(set())
    for _ in range(600):
        roller.roll(faces, in_play, out)
        for i in range(6):
            seen[i].add(out[i])
    for d in range(6):
        assert seen[d] == set(faces[d]), "die %d" % d


def test_random_roller_rolls_only_dice_in_play():
    names, faces = default_dice()
    roller = RandomRoller(SeededRandom(3))
    in_play = bytes((1,))
    out = bytearray(1)
    for _ in range(100):
        roller.roll(faces, in_play, out)
        assert out[0] in faces[1]
    # a campaign game 2 with dice 0 and 2
    in_play = campaign_dice(2, 2, 0)
    out = bytearray(2)
    for _ in range(100):
        roller.roll(faces, in_play, out)
        assert out[0] in faces[0]
        assert out[1] in faces[2]


def test_random_roller_is_fair_enough():
    # each of the six positions of a die comes up roughly 1/6 of the time
    faces = (bytes((0, 1, 2, 3, 4, 5)),)
    roller = RandomRoller(SeededRandom(99))
    out = bytearray(1)
    counts = [0] * 6
    n = 1200
    for _ in range(n):
        roller.roll(faces, b"\x00", out)
        counts[out[0]] += 1
    for c in counts:
        assert 130 < c < 270, counts


def test_same_seed_same_rolls():
    names, faces = default_dice()
    in_play = dice_for_choice(3)
    a = RandomRoller(SeededRandom(5))
    b = RandomRoller(SeededRandom(5))
    oa = bytearray(6)
    ob = bytearray(6)
    for _ in range(50):
        a.roll(faces, in_play, oa)
        b.roll(faces, in_play, ob)
        assert oa == ob
