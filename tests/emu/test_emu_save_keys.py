"""Answer keys during a save, on the emulated pico-8p with the flash at the
W25Q16JV's maximum times (a 4 KiB erase 400 ms, a page 3 ms).

A refused grab is saved at once, and the save holds the loop (here ~450 ms:
the erase, then pages). The keys are read between its writes, as at any
other time: a key pressed 10 ms before a buzzer that comes during the save
counts for that grab (the rulings). Before, only the buttons were read
there: the key was stamped after the save, after the buzzer, and the grab
was refused (-1).
"""
from emu.table import EmuTable

MS = 1000000
WRAP = 1 << 30


def test_a_key_10_ms_before_a_buzzer_during_a_refused_grabs_save_counts(image):
    with EmuTable("pico-8p", flash=image("pico-8p")) as t:
        t.boot()
        assert t.pico.flash_times("max") == (400, 3)
        t.press(0)
        t.press(1)
        t.press("roll")
        t.press("roll")
        t.wait_event("game", 3000)
        t.run(1500)
        t.press("roll")
        t.wait_event("faces", 3000)
        t.run(100)
        # after the save's erase, as its pages are written: P2's key 3, and
        # 10 ms later P2's buzzer (the save goes on ~30 ms after the erase)
        p2 = t.pin_of(1)
        t.pico.pins_on_flash(1, [(23 * MS, p2, 0), (83 * MS, p2, None)], kind="erase", at="end",
                             keys=[(13 * MS, 1, 1 << 3), (73 * MS, 1, 0)])
        n = len(t.events)
        c0, _ = t.pico.flash_log()
        p1_at = t.pico.nanos + 1000
        t.press(0)                               # P1: no key, refused, saved at once
        t.run(1500)
        assert not t.pico.fingers_armed(), "the refused grab's save erased no sector"
        ev = t.events[n:]
        refused = [e["p"] for e in ev if e["ev"] == "refused"]
        grabs = [(e["p"], e["plate"]) for e in ev if e["ev"] == "grab"]
        assert refused == ["P1"], ev
        assert grabs == [("P2", 3)], ev
        # the buzzer came during the save: before its last flash operation ended
        _, ops = t.pico.flash_log(since=c0)
        erase = next(i for i, o in enumerate(ops) if o[1] == "erase")
        k = erase
        while k + 1 < len(ops) and ops[k + 1][0] - ops[k][0] < 50 * MS:
            k += 1
        presses = dict((e["p"], e["t_us"]) for e in ev if e["ev"] == "press")
        buzz = p1_at + ((presses["P2"] - presses["P1"]) % WRAP) * 1000
        assert abs(buzz - (ops[erase][0] + 23 * MS)) < 100000          # the sampler's stamp
        assert buzz < ops[k][0], (buzz - ops[k][0]) / MS
        print("save: erase ended %.1f ms after P1's press, the last write %.1f ms after the erase;"
              " P2's buzzer %.1f ms after the erase"
              % ((ops[erase][0] - p1_at) / MS, (ops[k][0] - ops[erase][0]) / MS,
                 (buzz - ops[erase][0]) / MS))
