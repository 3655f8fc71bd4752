"""Long idle: after 10, 20 and 60 minutes without a press the
buttons still work, and a grab long after the reveal is a grab, never a
false start, whatever the ticks_us wrap (2**30 us, ~17.9 min) has done.

The simulator runs the firmware's own sampler decoder, as the Pico does;
the same check runs on the emulated Pico in tests/emu/test_emu_idle.py.
"""
import pytest

from cheesebox.board import read_board
from sim.scenario import Sim, run_script
from sim.scenario import match_of

MIN = 60000


@pytest.mark.parametrize("minutes", [10, 20, 60])
def test_roll_after_long_idle_starts_the_roll(minutes):
    sim = Sim(read_board("boards/pico-4p.json"), seed=3)
    r = run_script(sim, "players 2\ndice yellow\nwait %d\nrollbutton\n" % (minutes * MIN))
    assert r["state"] == "rolling"


@pytest.mark.parametrize("minutes", [10, 20, 60])
def test_join_after_long_idle(minutes):
    sim = Sim(read_board("boards/pico-4p.json"), seed=3)
    sim.wait(minutes * MIN)
    run_script(sim, "buzz P1\nbuzz P2\n")
    assert list(sim.box.joined[:2]) == [1, 1]


@pytest.mark.parametrize("minutes", [10, 20, 60])
def test_grab_long_after_the_reveal_is_a_grab(minutes):
    sim = Sim(read_board("boards/pico-4p.json"), seed=3)
    r = run_script(sim, "players 3\ndice yellow\nrollbutton\nwait 3000\nwait %d\nbuzz P1\nbuzz P2\n"
                   % (minutes * MIN))
    assert r["false_starts"] == 0
    assert r["state"] == "check"          # both wheels taken: the plate-card check


@pytest.mark.parametrize("minutes", [10, 20])
def test_dial_left_alone_for_minutes_still_shows_its_plate(minutes):
    """A dial set before a long pause is the answer at the grab (its placement
    stamp is minutes old: older than half the ticks_us period)."""
    sim = Sim(read_board("boards/pico2-8p.json"), seed=3)
    r = run_script(sim, "players 2\ndice yellow\nanswer P1 3\nwait %d\nrollbutton\nwait 1700\n"
                   "buzz P1\n" % (minutes * MIN))
    grabs = [e for e in match_of(sim.box).locked[:1]]
    assert grabs == [3]
    assert r["rounds"] == 1


@pytest.mark.parametrize("minutes", [10, 20])
def test_key_pressed_long_before_the_buzzer_counts(minutes):
    sim = Sim(read_board("boards/pico-8p.json"), seed=3)
    r = run_script(sim, "players 2\ndice yellow\nrollbutton\nwait 1700\nanswer P1 4\nwait %d\n"
                   "buzz P1\n" % (minutes * MIN))
    assert match_of(sim.box).locked[0] == 4
    assert r["rounds"] == 1
