"""The bring-up self-test on the emulated Pico, through its pins:
each chain lit pixel by pixel as decoded on its data pin, every buzzer,
ROLL and answer key seen, a stuck and a chattering input flagged, and the
PC side's checklist made from what the box said."""
from emu.table import MS, EmuTable
from host_tools.builder import selftest as host


def _lit(frame_hex):
    b = bytes.fromhex(frame_hex)
    return [i // 3 for i in range(0, len(b) - 2, 3) if b[i] or b[i + 1] or b[i + 2]]


def _steps(t, since):
    return [e for e in t.events[since:] if e["ev"] == "selftest"]


def test_selftest_from_the_console_on_pico_8p(image):
    with EmuTable("pico-8p", flash=image("pico-8p")) as t:
        t.boot()
        t.run(300)
        marks = [t.frames(ci)[0] for ci in range(2)]
        since = len(t.events)
        t.pico.send("selftest\r\n")
        start = t.wait_event("selftest", since=since, step="start")
        assert start["chains"] == [["dice", 384], ["tracks", 64]]
        assert start["budget"]["room_ma"] == 2632 and start["budget"]["white_permille"] == 87
        # between its steps the self-test sleeps: the CRLF that ended the command
        # left its LF waiting on the console, which woke every sleep at once
        # (the core spun at 64 % through the whole self-test; now ~16 %, the
        # walk's frames and the answer keys' reads every 8 ms)
        s0 = t.pico.stats()
        t.run(1000)
        s1 = t.pico.stats()
        busy = (s1["instructions"] - s0["instructions"]) / ((s1["nanos"] - s0["nanos"]) * 0.125)
        assert busy < 0.3, "the core is busy %.0f %% of the self-test's walk" % (100 * busy)
        t.wait_event("selftest", ms=60000, since=since, step="matrices")
        # the walk, as the chains' first LEDs received it: one pixel at a time, 0 to the last
        for ci, n in ((0, 384), (1, 64)):
            _, frames = t.frames(ci, since=marks[ci])
            walk = [f for f in (_lit(f["hex"]) for f in frames) if len(f) == 1]
            assert [w[0] for w in walk] == list(range(n)), ci
        t.wait_event("selftest", ms=20000, since=since, step="inputs")
        # every buzzer, then ROLL, then every key of every station (all stations at once)
        for s in range(8):
            t.press(s)
        t.press("roll")
        for k in range(8):
            mark = len(t.events)
            now = t.pico.nanos + 1000
            t.pico.schedule(keys=[(now, s, 1 << k) for s in range(8)]
                            + [(now + 60 * MS, s, 0) for s in range(8)])
            t.run(100)
            for s in range(8):              # the table waits until the box has shown each
                t.wait_event("selftest", since=mark, step="plate", station=s + 1, value=k)
        # P3 held 6 s: stuck; P4 chattering, a contact every 10 ms for a second
        g4 = t.pin_of(3)
        now = t.pico.nanos + 1000
        t.pico.schedule(pins=[(now + i * 10 * MS, g4, 0 if i % 2 == 0 else None) for i in range(100)])
        t.press(2, hold_ms=6000)
        t.wait_event("selftest", since=since, step="chatter", input="P4")
        t.wait_event("selftest", since=since, step="stuck", input="P3")
        # the builder holds ROLL 3 s: the end
        t.press("roll", hold_ms=3300)
        t.wait_event("selftest", ms=3000, since=since, step="end")
        steps = _steps(t, since)
        assert sorted(e["value"] for e in steps if e["step"] == "plate" and e["station"] == 5) \
            == list(range(8))
        lines, ok = host.checklist(steps, confirm=lambda text: True)
        report = "\n".join(lines)
        assert "station 5: buzzer pressed; keys 0-7 all seen" in report
        assert "PROBLEM: P3 stuck" in report and "PROBLEM: P4 chatters" in report and not ok
        # back at the joining screen: the box plays on
        t.press(0)
        t.wait_event("join", since=since)


def test_buzzer_1_held_at_power_up_starts_the_selftest(image):
    """The builder's way in without a PC: buzzer 1 held while plugging in.
    The box says so on the console, starts the self-test (no game: no boot
    event) and walks the dice chain from its first pixel."""
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.pico.drive(t.pin_of(0), 0)             # buzzer 1 held while plugging in
        start = t.wait_event("selftest", ms=5000, step="start")
        t.pico.drive(t.pin_of(0), None)
        assert any("buzzer 1 held at power-up" in line for line in t.lines), t.lines[-5:]
        assert start["board"] == "pico-4p" and not [e for e in t.events if e["ev"] == "boot"]
        t.run(1500)
        _, frames = t.frames(0)
        walk = [f for f in (_lit(f["hex"]) for f in frames) if len(f) == 1]
        assert [w[0] for w in walk][:3] == [0, 1, 2], walk[:5]
