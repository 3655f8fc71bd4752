# Board files: the shipped boards load; malformed ones are refused with a
# BoardError naming the file and the field.
# Runs under pytest on CPython and under tests/mp_runner.py on MicroPython
# (cwd = repo root in both).
import json

from cheesebox.board import load_board, read_board, BoardError

P4 = "boards/pico-4p.json"
P8 = "boards/pico-8p.json"


def spec(path):
    """A fresh parsed copy of a board file (safe to change)."""
    with open(path) as f:
        return json.loads(f.read())


def refused(s, field, src="bad.json"):
    """load_board(s) must fail naming the file and the field; returns the message."""
    try:
        load_board(s, src)
    except BoardError as e:
        msg = str(e)
        assert src in msg, msg
        assert ("'%s'" % field) in msg, "want field %s in: %s" % (field, msg)
        return msg
    assert False, "board with a bad %s was accepted" % field


# -- the shipped boards ---------------------------------------------------------------
def test_pico_4p_loads():
    b = load_board(spec(P4), P4)
    assert b.name == "pico-4p"
    assert b.stations == 4
    assert not b.electronic and b.plates == "cards"
    assert b.buzzers == [6, 7, 8, 9]
    assert b.roll_pin == 14 and b.piezo_pin == 15
    assert len(b.dice) == 6 and len(b.tracks) == 4
    assert b.debounce_ms == 12
    assert 0 < b.brightness <= 1
    assert not b.answers                  # no plate wiring
    assert b.source == P4


def test_pico_8p_loads():
    b = load_board(spec(P8), P8)
    assert b.name == "pico-8p"
    assert b.stations == 8
    assert b.electronic and b.plates == "keys"
    assert b.buzzers == [6, 7, 8, 9, 10, 11, 12, 13]
    assert len(b.dice) == 6 and len(b.tracks) == 8
    assert b.answers["load"] == 16 and b.answers["data"] == 18


def test_read_board_from_disk():
    assert read_board(P4).stations == 4
    assert read_board(P8).stations == 8


def test_read_board_missing_file_is_a_board_error():
    try:
        read_board("boards/no-such-board.json")
    except BoardError as e:
        assert "no-such-board.json" in str(e)
        return
    assert False, "missing board file accepted"


def test_dial_plates_board_loads():
    s = spec(P8)
    s["plates"] = "dial"
    s["answers"] = {"adc": 26, "s0": 16, "s1": 17, "s2": 18}
    b = load_board(s, "dial.json")
    assert b.electronic and b.plates == "dial"


def test_optional_fields_default():
    s = spec(P4)
    for k in ("brightness", "max_ma", "debounce_ms", "mcu"):
        s.pop(k, None)
    b = load_board(s, "min.json")
    assert b.debounce_ms == 12 and b.brightness == 0.2


# -- refused --------------------------------------------------------------------------
def test_not_an_object():
    try:
        load_board([], "bad.json")
    except BoardError as e:
        assert "bad.json" in str(e)
        return
    assert False


def test_missing_fields():
    for field in ("name", "plates", "roll", "piezo", "chains", "dice", "stations"):
        s = spec(P4)
        del s[field]
        refused(s, field)
    s = spec(P4)
    del s["stations"][2]["buzzer"]
    refused(s, "stations[2].buzzer")
    s = spec(P4)
    del s["chains"][1]["pixels"]
    refused(s, "chains[1].pixels")


def test_wrong_types():
    s = spec(P4)
    s["roll"] = "14"
    refused(s, "roll")
    s = spec(P4)
    s["roll"] = True                      # a bool is not a pin number
    refused(s, "roll")
    s = spec(P4)
    s["name"] = 4
    refused(s, "name")
    s = spec(P4)
    s["stations"] = {"0": 6}
    refused(s, "stations")
    s = spec(P4)
    s["chains"][0]["pixels"] = 384.0
    refused(s, "chains[0].pixels")


def test_pin_out_of_range():
    s = spec(P4)
    s["piezo"] = 30
    refused(s, "piezo")
    s = spec(P4)
    s["stations"][1]["buzzer"] = -1
    refused(s, "stations[1].buzzer")
    s = spec(P4)
    s["chains"][0]["pin"] = 40
    refused(s, "chains[0].pin")


def test_duplicate_pin():
    s = spec(P4)
    s["stations"][1]["buzzer"] = 6        # station 0's buzzer
    msg = refused(s, "stations[1].buzzer")
    assert "stations[0].buzzer" in msg
    s = spec(P4)
    s["piezo"] = 14                       # the ROLL button's pin
    refused(s, "piezo")
    s = spec(P8)
    s["answers"]["data"] = 3              # the tracks chain's pin
    refused(s, "answers.data")


def test_station_count():
    s = spec(P4)
    s["stations"] = s["stations"][:1]
    refused(s, "stations")
    s = spec(P8)
    s["stations"].append({"buzzer": 5, "track": {"chain": "tracks", "start": 56}})
    assert len(s["stations"]) == 9
    refused(s, "stations")


def test_five_dice():
    s = spec(P4)
    s["dice"].pop()
    refused(s, "dice")
    s = spec(P4)
    s["dice"].append({"chain": "dice", "start": 0})
    refused(s, "dice")


def test_track_beyond_chain():
    s = spec(P4)
    s["stations"][3]["track"]["start"] = 28      # needs 28-35, chain has 32
    refused(s, "stations[3].track")
    s = spec(P4)
    s["chains"][0]["pixels"] = 300               # the dice need 384
    refused(s, "dice[4]")


def test_overlapping_displays():
    s = spec(P4)
    s["dice"][1]["start"] = 32                   # half over die 0
    refused(s, "dice[1]")
    s = spec(P4)
    s["stations"][2]["track"]["start"] = 12      # over station 1's track
    refused(s, "stations[2].track")


def test_chain_reference():
    s = spec(P4)
    s["dice"][0]["chain"] = "nope"
    refused(s, "dice[0].chain")
    s = spec(P4)
    s["stations"][0]["track"]["start"] = -8
    refused(s, "stations[0].track.start")
    s = spec(P4)
    s["chains"][1]["name"] = "dice"              # two chains named alike
    refused(s, "chains[1].name")


def test_plates_type():
    s = spec(P4)
    s["plates"] = "buttons"
    refused(s, "plates")


def test_electronic_plates_need_answers():
    s = spec(P4)
    s["plates"] = "keys"
    refused(s, "answers")
    s = spec(P8)
    del s["answers"]
    refused(s, "answers")
    s = spec(P8)
    del s["answers"]["clock"]
    refused(s, "answers.clock")
    s = spec(P8)
    s["plates"] = "dial"                         # keys wiring for a dial
    refused(s, "answers.adc")


def test_plate_cards_with_answers_refused():
    s = spec(P8)
    s["plates"] = "cards"
    refused(s, "answers")


def test_bad_layout():
    s = spec(P4)
    s["dice"][2]["layout"] = "zigzag"
    refused(s, "dice[2].layout")
    s = spec(P4)
    s["dice"][2]["layout"] = 1
    refused(s, "dice[2].layout")


def test_bad_brightness():
    for bad in (0, -0.1, 1.5, 2, True, "0.2"):
        s = spec(P4)
        s["brightness"] = bad
        refused(s, "brightness")
    s = spec(P4)
    s["brightness"] = 1
    assert load_board(s, "ok.json").brightness == 1


def test_other_limits():
    s = spec(P4)
    s["max_ma"] = 50
    refused(s, "max_ma")
    s = spec(P4)
    s["debounce_ms"] = 0
    refused(s, "debounce_ms")
    s = spec(P4)
    s["chains"][0]["order"] = "RGBW"
    refused(s, "chains[0].order")
