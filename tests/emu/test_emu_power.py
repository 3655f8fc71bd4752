"""Flash, power and the watchdog on both chips: a press during a save
is not lost; a power cut at any point of a save comes back with the last
complete save; a hung loop is reset by the watchdog and the game resumes.
On the Pico 2 the harness rebuilds the chip with its flash (and, for the
watchdog, its scratch registers and reset reason) as rp2350js cannot. The
cut after each flash operation of a save runs on pico-8p in make test, on
pico2-8p too in make test-emu (second_chip); the Pico 2's own watchdog and
cut save stay in make test."""
import pytest

from emu.table import MS, EmuTable


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


def _resumed(t, since):
    """Up again after a power cut (a boot event since `since`): the box offers
    its saved game, never loses it, and ROLL resumes it; the state then."""
    boot = t.wait_event("boot", 3000, since=since)
    assert boot["resume"] is True
    t.run(200)
    assert _state(t)["state"] == "resume"
    t.press("roll")
    t.run(300)
    return _state(t)


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
            after_pts = _resumed(t, n)["points"]
            new = dict(before)
            new["P2"] = before["P2"] - 1      # the round just scored: P2 had no wheel
            assert after_pts in (before, new), (k, before, after_pts)
            checked += 1
            k += 1
        assert checked >= 3


# -- one save, cut after each of its flash operations ------------------------------
def _penalty(t, s):
    """A table penalty for station s (ROLL held, the buzzer 400 ms later, as
    sim/drive.py does it): the box saves the point at once, ROLL still held.
    A power cut rebuilds the chip and drops its pending alarms, the fingers'
    later moves with them: the fingers still let go when they would have
    (ROLL held through the reboot would be a safe boot). True if the power
    was cut."""
    r, g = t.pin_of("roll"), t.pin_of(s)
    now = t.pico.nanos + 1000
    moves = [(now, r, 0), (now + 400 * MS, g, 0), (now + 440 * MS, g, None), (now + 460 * MS, r, None)]
    t.pico.schedule(pins=moves)
    if not t.run(500):
        return False
    t.pico.schedule(pins=[m for m in moves if m[0] > t.pico.nanos])
    t.run(max(0.0, (now + 500 * MS - t.pico.nanos) / MS))
    return True


def _resume(t, since):
    """The box is up offering its saved game: ROLL resumes it; its points."""
    assert t.wait_event("boot", 3000, since=since)["resume"] is True   # offered, never lost
    t.run(150)
    assert _state(t)["state"] == "resume"
    n = len(t.events)
    t.press("roll")
    return t.wait_event("resume", 1000, since=n)["points"]


def two_players_in_a_game(t):
    """Power-up from the box's image, P1 and P2 join, ROLL twice: a game of
    3 yellow dice (the dice menu's first choice) waits for its first roll."""
    t.boot(3000)
    t.press(0)
    t.press(1)
    t.press("roll")
    t.press("roll")
    return t.wait_event("game", 1000)


def _game_with_a_save(t):
    """Power-up from the box's image, two players, a game; P1's table
    penalty is its first save, complete. Returns the points."""
    two_players_in_a_game(t)
    assert not _penalty(t, 0)
    t.run(100)
    return _state(t)["points"]


@pytest.mark.parametrize("board", ["pico-8p", pytest.param("pico2-8p", marks=pytest.mark.second_chip)])
def test_a_power_cut_after_each_flash_operation_of_a_save_resumes_the_last_complete_save(image, board):
    """One save, P2's table penalty after P1's, cut after its 1st, 2nd, ...,
    last flash operation: each run powers up from the same image and plays
    the same (the emulator is deterministic: the same operations, checked).
    Every time the box comes back offering a saved game, and ROLL resumes the
    old points until the cut falls after the operation that completes the
    save, the new ones from there on (after the last one always). A first run
    without a cut counts the save's operations."""
    old, new = {"P1": 6, "P2": 7}, {"P1": 6, "P2": 6}
    whole, runs = None, []                    # runs: (operations before the cut, points resumed)
    while whole is None or len(runs) < len(whole):
        k = len(runs) + 1 if whole is not None else 0
        with EmuTable(board, flash=image(board)) as t:
            assert _game_with_a_save(t) == old
            c0, _ = t.pico.flash_log()
            if k:
                t.pico.cut_after(k)
            n = len(t.events)
            cut = _penalty(t, 1)
            _, ops = t.pico.flash_log(c0)
            ops = [o[1:] for o in ops]        # (kind, address, bytes)
            if not k:
                assert not cut
                t.run(100)
                assert _state(t)["points"] == new
                whole = ops
                assert 2 <= len(whole) <= 12, whole
                continue
            assert cut and len(ops) >= k, (k, ops)
            runs.append((ops[:k], _resume(t, n)))
            assert _state(t)["state"] == "ready"
    assert [r[0] for r in runs] == [whole[:k] for k in range(1, len(whole) + 1)]
    resumed = [r[1] for r in runs]
    assert all(p in (old, new) for p in resumed) and resumed[-1] == new, resumed
    done = resumed.index(new)                 # the operation that completes the save
    assert done > 0 and resumed[done:] == [new] * (len(resumed) - done), resumed


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


# -- the Pico 2: its watchdog and a cut save, dialled rounds ---------------------
def _dialled_round(t, dial):
    """P2 turns the dial and takes the only wheel: scored at once, then saved."""
    n = len(t.events)
    t.press("roll")
    t.wait_event("faces", 3000, since=n)
    t.run(100)
    t.place(1, dial)
    t.run(30)
    t.press(1)
    return n


@pytest.mark.rp2350
def test_a_hung_loop_is_reset_by_the_watchdog_and_a_cut_save_comes_back_on_the_pico2(image):
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        two_players_in_a_game(t)
        n = _dialled_round(t, 3)
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
        n = _dialled_round(t, 6)
        t.run(600)
        assert [r["reason"] for r in t.pico.stats()["resets"]][-1] == "power"
        c1, ops = t.pico.flash_log(c0)
        assert ops, "no flash operation before the cut"
        pts = _resumed(t, n)["points"]
        # the last complete save: before this round, or with it (P1 -1, P2 +-)
        assert pts == before["points"] or pts["P1"] == before["points"]["P1"] - 1, (before, pts)
