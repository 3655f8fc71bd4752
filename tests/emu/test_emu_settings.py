"""The table's brightness at joining on the emulated Pico:
ROLL held 0.3 s, then buzzer 1 steps the brightness; the chains' wire bytes
say it, and after a power cut the box comes back at the new brightness."""
from emu.table import MS, EmuTable


def _gesture(t, station):
    """ROLL down, after 400 ms the buzzer, both let go."""
    now = t.pico.nanos + 1000
    t.press_at("roll", now, hold_ms=520)
    t.press_at(station, now + 400 * MS, hold_ms=60)
    t.run(600)


def test_buzzer_1_gesture_brightens_the_leds_and_it_survives_a_power_cut(image):
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.boot()
        t.run(200)
        t.press(0)                              # station 1 joins: its track lights red
        t.run(100)
        assert max(t.last_frame(1)[:21]) == 255 * 150 // 1000
        since = len(t.events)
        _gesture(t, 0)
        ev = t.wait_event("settings", since=since)
        assert ev["brightness"] == 250 and ev["volume"] == 2
        t.run(100)
        assert t.kinds(since).count("join") == 0 and t.kinds(since).count("leave") == 0
        assert max(t.last_frame(1)[:21]) == 255 * 250 // 1000
        t.pico.power_cycle()
        t.events.clear()
        t.boot()
        t.run(200)
        t.press(0)
        t.run(100)
        assert max(t.last_frame(1)[:21]) == 255 * 250 // 1000
