"""The watchdog and power cuts on the Pico 2: the harness rebuilds
the chip with its flash (and, for the watchdog, its scratch registers and
reset reason) as rp2350js cannot; the box resumes its saved game. A power cut
after each flash operation of one save (the Pico's test, the same body:
tests/emu_twins.py: make test runs it on the Pico's pico-8p, make test-emu here too)."""
import pytest

import emu_twins
from emu.table import EmuTable


def _state(t):
    n = len(t.events)
    t.pico.send("state\r\n")
    return t.wait_event("state", 1000, since=n)


def _round(t, dial):
    """P2 turns the dial and takes the only wheel: scored at once, then saved."""
    n = len(t.events)
    t.press("roll")
    t.wait_event("faces", 3000, since=n)
    t.run(100)
    t.place(1, dial)
    t.run(30)
    t.press(1)
    return n


def test_a_hung_loop_is_reset_by_the_watchdog_and_a_cut_save_comes_back(image):
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        emu_twins.two_players_in_a_game(t)
        n = _round(t, 3)
        t.wait_event("score", 1000, since=n)
        t.run(500)
        before = _state(t)
        n = len(t.events)
        t.pico.hang(9000)                     # the loop stops feeding the 8 s watchdog
        t.run(9500)
        resets = t.pico.stats()["resets"]
        assert [r["reason"] for r in resets] == ["watchdog"], resets
        boot = t.wait_event("boot", 3000, since=n)
        assert boot["resume"] is True         # the watchdog's reset resumes at once
        t.run(300)
        after = _state(t)
        assert after["state"] == "ready" and after["points"] == before["points"], (before, after)
        # the power goes right after the first flash operation of the next save
        c0, _ = t.pico.flash_log()
        t.pico.cut_after(1)
        n = _round(t, 6)
        t.run(600)
        assert [r["reason"] for r in t.pico.stats()["resets"]][-1] == "power"
        c1, ops = t.pico.flash_log(c0)
        assert ops, "no flash operation before the cut"
        boot = t.wait_event("boot", 3000, since=n)
        assert boot["resume"] is True         # a saved game is offered, never lost
        t.run(200)
        assert _state(t)["state"] == "resume"
        t.press("roll")                       # resume it
        t.run(300)
        pts = _state(t)["points"]
        # the last complete save: before this round, or with it (P1 -1, P2 +-)
        assert pts == before["points"] or pts["P1"] == before["points"]["P1"] - 1, (before, pts)


@pytest.mark.second_chip
def test_a_power_cut_after_each_flash_operation_of_a_save_resumes_the_last_complete_save(image):
    emu_twins.a_power_cut_after_each_flash_operation_of_a_save_resumes_the_last_complete_save(
        image, "pico2-8p")
