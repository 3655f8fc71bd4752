"""Answer keys during a save, on the emulated pico-8p with 400 ms flash
erases (the W25Q16JV's maximum).

A refused grab is saved at once, and the save holds the loop (here ~430 ms:
the erase, then pages). The keys are read between its writes, as at any
other time: a key pressed 10 ms before a buzzer that comes during the save
counts for that grab (the rulings). Before, only the buttons were read
there: the key was stamped after the save, after the buzzer, and the grab
was refused (-1). Only while a flash call holds the CPU (LittleFS's flush:
the erase and its first pages) is nothing read: a key pressed then is
stamped as it returns.
"""
from emu.table import EmuTable

MS = 1000000
WRAP = 1 << 30


def _refused_save(image, erase_ms, page_ms, key_ms, buzz_ms, erase_no=1):
    """P1 and P2 play, the faces are up; P1 grabs with no key (refused,
    saved); key_ms and buzz_ms after the save's erase_no-th erase ends, P2
    presses key 3, then the buzzer (buzz_ms None: no finger). Returns (events
    since P1's press, flash operations of the save from that erase on, key
    reads (ns) from then, P2's buzzer (ns)). How many sectors a save erases
    depends on where LittleFS put the files: this image's save erases two."""
    with EmuTable("pico-8p", flash=image("pico-8p")) as t:
        load = t.board.answers["load"]
        t.pico.watch(load)                       # SH/LD low: a key read
        t.boot()
        assert t.pico.flash_times(erase_ms=erase_ms, page_ms=page_ms) == (erase_ms, page_ms)
        t.press(0)
        t.press(1)
        t.press("roll")
        t.press("roll")
        t.wait_event("game", 3000)
        t.run(1500)
        t.press("roll")
        t.wait_event("faces", 3000)
        t.run(100)
        p2 = t.pin_of(1)
        if buzz_ms is not None:
            t.pico.pins_on_flash(erase_no, [(buzz_ms * MS, p2, 0), ((buzz_ms + 60) * MS, p2, None)],
                                 kind="erase", at="end",
                                 keys=[(key_ms * MS, 1, 1 << 3), ((key_ms + 60) * MS, 1, 0)])
        n = len(t.events)
        c0, _ = t.pico.flash_log()
        e0 = len(t.pico.edges(load))
        p1_at = t.pico.nanos + 1000
        t.press(0)                               # P1: no key, refused, saved at once
        t.run(1500)
        assert not t.pico.fingers_armed(), "the refused grab's save erased no sector"
        ev = t.events[n:]
        _, ops = t.pico.flash_log(since=c0)
        erase = [i for i, o in enumerate(ops) if o[1] == "erase"][erase_no - 1]
        k = erase                                # the save: its operations back to back (an erase
        while k + 1 < len(ops) and ops[k + 1][0] - ops[k][0] < (   # ends erase_ms after the last)
                (erase_ms if ops[k + 1][1] == "erase" else 0) + 30) * MS:
            k += 1
        presses = dict((e["p"], e["t_us"]) for e in ev if e["ev"] == "press")
        buzz = p1_at + ((presses["P2"] - presses["P1"]) % WRAP) * 1000 if "P2" in presses else -1
        reads = [e[0] for e in t.pico.edges(load, e0) if e[1] == 0]
        return ev, ops[erase:k + 1], reads, buzz


def _report(ops, reads, buzz):
    end = ops[0][0]
    print("after the erase (ms): flash operations end", [round((o[0] - end) / MS, 1) for o in ops],
          "key reads", [round((r - end) / MS, 1) for r in reads if end <= r <= ops[-1][0] + 5 * MS],
          "P2's buzzer", round((buzz - end) / MS, 1))


def test_a_key_10_ms_before_a_buzzer_during_a_refused_grabs_save_counts(image):
    """400 ms erases, 0.4 ms pages: P2's key 2 ms after the erase (LittleFS
    still writing its first pages), the buzzer 10 ms later, while the save
    still writes: the key counts, the grab takes plate 3."""
    ev, ops, reads, buzz = _refused_save(image, 400, 0.4, 2, 12)
    _report(ops, reads, buzz)
    refused = [e["p"] for e in ev if e["ev"] == "refused"]
    grabs = [(e["p"], e["plate"]) for e in ev if e["ev"] == "grab"]
    assert refused == ["P1"], ev
    assert grabs == [("P2", 3)], ev
    end = ops[0][0]
    assert abs(buzz - (end + 12 * MS)) < 100000          # the sampler's stamp
    assert buzz < ops[-1][0], "the buzzer came after the save"


def test_key_reads_during_a_save_at_the_flash_maximum_times(image):
    """The datasheet's maximum, 400 ms erases and 3 ms pages: the keys are
    read at every return from the flash, so the only gaps are the flash
    calls themselves: each sector erase (400 ms: a key pressed then is
    stamped when it returns, which no CPU read can help) and each program
    (a 1 KiB one, 15 ms). After the save's last erase, P2's key during a
    512-byte program is stamped by the read after it, within 11 ms, and
    counts for a buzzer 12 ms after the key. (A dry run first counts the
    save's erases: where LittleFS puts the files decides it, two here.)"""
    erases = sum(1 for o in _refused_save(image, 400, 3, 0, None)[1] if o[1] == "erase")
    ev, ops, reads, buzz = _refused_save(image, 400, 3, 23, 35, erase_no=erases)     # after the last erase
    _report(ops, reads, buzz)
    grabs = [(e["p"], e["plate"]) for e in ev if e["ev"] == "grab"]
    assert grabs == [("P2", 3)], ev
    end = ops[0][0]
    after = [r for r in reads if end <= r <= ops[-1][0] + 2 * MS]
    gaps = [(b - a) / MS for a, b in zip(after, after[1:])]
    print("key reads after the flush, ms apart:", ["%.1f" % g for g in gaps])
    assert len(after) >= 2 and all(g <= 12 for g in gaps), gaps
