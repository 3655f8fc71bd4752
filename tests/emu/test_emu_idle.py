"""Long idle on the chip: after 60, 10 and 20 minutes without a
press the buttons still work. (The sampler decoder used to lose its anchor
after 2**29 us, ~9 minutes, without a word: presses were stamped in the
future and ROLL was ignored for minutes; a LED write after 9 minutes waited
for a stale timestamp.) 90 emulated minutes, in the box's quiet states."""
from emu.table import EmuTable

MIN = 60 * 1000


def test_buttons_work_after_60_10_and_20_minutes_idle(image):
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.boot()
        t.run(60 * MIN)                     # 60 minutes at the joining screen
        t.press(0)
        t.press(1)
        assert t.kinds()[-2:] == ["join", "join"]
        t.press("roll")
        t.press("roll")
        t.wait_event("game", 1000)
        t.run(10 * MIN)                     # 10 minutes ready: ROLL starts the roll
        n = len(t.events)
        t.press("roll")
        t.wait_event("roll", 1000, since=n)
        t.wait_event("faces", 3000, since=n)
        t.run(20 * MIN)                     # 20 minutes after the reveal: a grab is a grab
        n = len(t.events)
        t.press(0)
        t.wait_event("grab", 1000, since=n, p="P1")
        assert "false_start" not in t.kinds(n)
        t.run(3100)
        n = len(t.events)
        t.press("roll")                     # ends the check: the round is scored
        score = t.wait_event("score", 1000, since=n)
        assert score["lost"] == {"P2": 1}
        assert t.pico.ms > 90 * MIN
