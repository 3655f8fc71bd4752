"""Flash, power and the watchdog on the chip: a press during a save
is not lost; a power cut at any point of a save comes back with the last
complete save; a hung loop is reset by the watchdog and the game resumes."""
import emu_twins
from emu.table import EmuTable


def _start_game(t, players=2):
    t.boot()
    for s in range(players):
        t.press(s)
    t.press("roll")
    t.press("roll")
    t.wait_event("game", 1000)


def _state(t):
    n = len(t.events)
    t.pico.send("state\r\n")
    return t.wait_event("state", 1000, since=n)


def _power_cuts(t):
    return sum(1 for r in t.pico.stats()["resets"] if r["reason"] == "power")


def _round_to_check(t):
    """A round on plate cards, 2 players: P1 grabs, P2 is left without; the
    count is up (check) long enough for ROLL to end it."""
    n = len(t.events)
    t.press("roll")
    t.wait_event("faces", 3000, since=n)
    t.run(200)
    t.press(0)
    t.run(3100)


def test_a_press_during_a_save_is_not_lost(image):
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        _start_game(t)
        _round_to_check(t)
        c0, _ = t.pico.flash_log()
        # ROLL ends the check: the round is scored and saved; ROLL goes down
        # again while the flash is being written (the next roll)
        t.pico.press_on_flash(1, t.pin_of("roll"), hold_ms=60)
        n = len(t.events)
        t.press("roll")
        t.run(600)
        c1, ops = t.pico.flash_log(c0)
        assert c1 > c0 + 1, "no save"
        kinds = t.kinds(n)
        assert "score" in kinds and "roll" in kinds[kinds.index("score"):], kinds
        roll = [e for e in t.events[n:] if e["ev"] == "roll"][0]
        assert roll["round"] == 2


def test_power_cut_at_every_point_of_a_save(image):
    """One game, cut at the 1st, 2nd, ... flash operation of successive saves
    (each a round's score); every time the box comes back offering the last
    complete save, resumes it with ROLL, and plays on."""
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        _start_game(t)
        ops_per_save = None
        k = 1
        checked = 0
        while ops_per_save is None or k <= ops_per_save:
            before = _state(t)["points"]
            _round_to_check(t)
            c0, _ = t.pico.flash_log()
            cuts = _power_cuts(t)
            t.pico.cut_after(k)
            n = len(t.events)
            t.press("roll")                   # end the check: score, then save
            t.run(1500)
            if _power_cuts(t) == cuts:        # the save had fewer than k operations
                t.pico.cut_after(10 ** 6)     # disarm
                c1, _ = t.pico.flash_log(c0)
                ops_per_save = c1 - c0
                assert checked >= 2, "saves of %d operations" % ops_per_save
                break
            boot = t.wait_event("boot", 3000, since=n)
            assert boot["resume"] is True     # a saved game is offered, never lost
            t.run(200)
            assert _state(t)["state"] == "resume"
            t.press("roll")                   # resume it
            t.run(300)
            after = _state(t)
            after_pts = after["points"]
            new = dict(before)
            new["P2"] = before["P2"] - 1      # the round just scored: P2 had no wheel
            assert after_pts in (before, new), (k, before, after_pts)
            checked += 1
            k += 1
        assert checked >= 3


def test_a_power_cut_after_each_flash_operation_of_a_save_resumes_the_last_complete_save(image):
    """pico-8p: the Pico 2's test, the same body (tests/emu_twins.py)."""
    emu_twins.a_power_cut_after_each_flash_operation_of_a_save_resumes_the_last_complete_save(
        image, "pico-8p")


def test_watchdog_resets_a_hung_loop_and_the_game_resumes(image):
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        _start_game(t)
        _round_to_check(t)
        t.press("roll")
        t.run(500)
        before = _state(t)
        n = len(t.events)
        t.pico.hang(9000)                     # the loop stops feeding the watchdog
        t.run(9500)
        resets = [r for r in t.pico.stats()["resets"] if r["reason"] == "watchdog"]
        assert resets, "the watchdog did not fire"
        boot = t.wait_event("boot", 3000, since=n)
        assert boot["resume"] is True
        t.run(300)
        after = _state(t)
        assert after["state"] == "ready" and after["points"] == before["points"]
        # a deliberate reset (Ctrl-C, then machine.reset(), as mpremote does)
        # offers the game instead of resuming it silently
        t.pico.send("\x03")
        t.run(300)
        n = len(t.events)
        t.pico.send("\x01import machine\r\nmachine.reset()\r\n\x04")
        t.wait_event("boot", 4000, since=n)
        t.run(300)
        assert _state(t)["state"] == "resume"
