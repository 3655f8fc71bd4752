"""The final screen survives a power cut on the chip: a Cheese Master game
played to its end through the pins, the power cut on the game-over screen,
and the box boots straight back into it (no offer to resume), the winner and
the points as they were; ROLL then starts the next game, as on that screen."""
from emu.table import EmuTable, MS


def _state(t):
    n = len(t.events)
    t.pico.send("state\r\n")
    return t.wait_event("state", 1000, since=n)


def _penalty(t, who):
    """The table-penalty gesture: ROLL held, the buzzer 400 ms later, let go."""
    now = t.pico.nanos + 1000
    t.press_at("roll", now, hold_ms=500)
    t.press_at(who, now + 400 * MS, hold_ms=60)
    t.run(600)


def test_a_power_cut_on_the_game_over_screen_boots_back_into_it(image):
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.boot()
        t.press(0)
        t.press(1)
        t.press("roll")                       # the dice menu
        t.press("roll")                       # 3 yellow dice: the game
        t.wait_event("game", 1000)
        n = len(t.events)
        for _ in range(7):                    # P2 loses a point a penalty: out
            _penalty(t, 1)
        t.wait_event("winner", 1000, since=n, p="P1")
        t.run(300)
        before = _state(t)
        assert before["state"] == "gameover" and before["points"] == {"P1": 7, "P2": 0}
        n = len(t.events)
        t.pico.power_cycle()
        boot = t.wait_event("boot", 3000, since=n)
        assert boot["resume"] is True
        t.wait_event("resume", 1000, since=n)
        t.run(300)
        after = _state(t)
        assert after["state"] == "gameover", after    # no offer to resume: the screen itself
        assert after["points"] == before["points"]
        # ROLL acts as on the game-over screen: the next game, the same players
        n = len(t.events)
        t.press("roll")
        game = t.wait_event("game", 1000, since=n)
        assert game["players"] == ["P1", "P2"]
        assert _state(t)["state"] == "ready"
