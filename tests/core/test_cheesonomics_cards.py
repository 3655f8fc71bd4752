# The card list (cards.json) and its check: what a table typing in its own
# cards is told. Runs under pytest and on MicroPython (tests/mp_runner.py).
import json

from cheesonomics import cardfile
from cheesonomics.cardfile import CardsError, NONE


def _raw():
    with open(cardfile.default_path()) as f:
        return json.loads(f.read())


def _error(obj):
    try:
        cardfile.parse(obj, "my-cards.json")
    except CardsError as e:
        return str(e)
    assert False, "the bad list was accepted"


def test_default_list_has_25_double_sided_market_cards_5_per_country():
    c = cardfile.load()
    assert len(c.country) == 25
    for k in range(5):
        assert sum(1 for m in range(25) if c.country[m] == k) == 5
    for v in c.sides:
        assert v in (1, 2)


def test_default_list_is_the_same_for_every_country():
    # our list gives no country an edge: the same five cards each
    c = cardfile.load()
    per = []
    for k in range(5):
        per.append(sorted((c.sides[2 * m], c.sides[2 * m + 1]) for m in range(25) if c.country[m] == k))
    for k in range(1, 5):
        assert per[k] == per[0]


def test_default_marks_one_per_animal_and_place_five_of_each():
    c = cardfile.load()
    marked = [i for i in range(100) if c.mark[i] != NONE]
    assert len(marked) == 25
    for k in range(5):
        assert sum(1 for i in marked if c.mark[i] == k) == 5
        assert sorted(i // 20 for i in marked if c.mark[i] == k) == [0, 1, 2, 3, 4]
        assert sorted((i // 4) % 5 for i in marked if c.mark[i] == k) == [0, 1, 2, 3, 4]
    assert c.marks == ("trowel", "mountain", "bucket", "horn", "rake")


def test_a_typed_in_list_is_read():
    raw = _raw()
    raw["market"][0] = ["France", 2, 2]
    raw["countries"][4] = "Spain"
    for e in raw["market"]:
        if e[0] == "Greece":
            e[0] = "Spain"
    raw["marked"]["cow"] = "TMBH ---- ---- ---- ----"
    c = cardfile.parse(raw)
    assert c.sides[0] == 2 and c.sides[1] == 2
    assert c.countries[4] == "Spain"
    assert [c.mark[i] for i in range(4)] == [0, 1, 2, 3]
    assert c.mark[4] == NONE


def test_bad_lists_say_what_is_wrong():
    raw = _raw()
    raw["market"] = raw["market"][:24]
    assert "25 market cards" in _error(raw)
    raw = _raw()
    raw["market"][3] = ["France", 3, 1]
    assert "market card 4: side A must show 1 or 2 signs" in _error(raw)
    raw = _raw()
    raw["market"][3] = ["Atlantis", 1, 1]
    assert "'Atlantis' is not one of the countries" in _error(raw)
    raw = _raw()
    raw["market"][24] = ["France", 1, 1]
    assert "France has 6 cards" in _error(raw)
    raw = _raw()
    raw["marked"]["goat"] = "T--- M---"
    assert "goat: 5 groups of 4 letters" in _error(raw)
    raw = _raw()
    raw["marked"]["goat"] = "X--- ---- ---- ---- ----"
    assert "'X' is not a mark initial" in _error(raw)
    raw = _raw()
    raw["marks"][1] = "tap"
    assert "two marks start with T" in _error(raw)
    raw = _raw()
    raw["animals"][1] = "cow"
    assert "cow is named twice" in _error(raw)
    raw = _raw()
    del raw["marked"]["camel"]
    assert "no line for camel" in _error(raw)
    assert "'format'" in _error({"market": []})
    assert "JSON object" in _error([1, 2])


def test_error_names_the_file():
    raw = _raw()
    raw["market"] = []
    assert _error(raw).startswith("my-cards.json: ")


def test_missing_file_is_a_cards_error():
    try:
        cardfile.load("no/such/cards.json")
    except CardsError as e:
        assert "no/such/cards.json: cannot be read" in str(e)
    else:
        assert False
