"""Cheese Master with answer dials on the Pico 2 (issue 18): one scenario
file, two machines (the simulator and the emulated chip), the same event log
and final LED frames; a dial being turned locks where it stood when the
buzzer went down."""
import os

from emu.differential import differential
from emu.table import MS, EmuTable

SCENARIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scenarios")


def test_a_short_game_with_dials_same_on_the_chip_and_in_the_simulator(image):
    with open(os.path.join(SCENARIOS, "game_dials.txt"), encoding="utf-8") as f:
        text = f.read()
    r = differential("pico2-8p", image("pico2-8p"), text)
    assert r["moves_same"], "the fingers changed with the chip's dice"
    assert r["pico"] == r["sim"]
    grabs = [e for e in r["pico"] if e["ev"] == "grab"]
    assert [(g["p"], g["plate"]) for g in grabs] == [("P2", 5), ("P2", 1)], grabs   # the dials, read
    assert [e["ev"] for e in r["pico"]][-1] == "winner"
    common = set.intersection(*r["brightness"])
    assert common, r["brightness"]


def test_a_dial_turned_while_the_buzzer_goes_down_locks_where_it_stood(image):
    """P2 turns the dial slowly from 0 to 7 (28 ms a position, passing every
    contact, bridging two at each step) and buzzes while it stands at 4."""
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        t.boot(3000)
        t.press(0)
        t.press(1)
        t.press("roll")
        t.press("roll")
        t.wait_event("game", 1000)
        n = len(t.events)
        t.press("roll")
        t.wait_event("faces", 3000, since=n)
        t.run(100)
        t0 = t.pico.nanos + MS
        t.dial(1, 7, at_ns=t0, turn_ms=7 * 28)
        # position 4 alone is touched from 3.65 to 4.35 positions: 102-122 ms
        t.press_at(1, t0 + 116 * MS)
        grab = t.wait_event("grab", 1000, since=n)
        assert grab["p"] == "P2" and grab["plate"] == 4, grab
        t.run(150)
        assert t.pico.dials()["positions"][1] == 7
