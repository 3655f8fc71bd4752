"""`make emu`'s view beside the picture, as `make sim` shows it:
the state, the points or money and the plates, read from the box's log;
the speed the emulator runs at now, not its average since the start."""
import types

from emu import view


def test_state_points_and_plates_follow_the_log():
    ev = [{"ev": "boot"}, {"ev": "join", "p": "P1"}, {"ev": "join", "p": "P2"},
          {"ev": "game", "players": ["P1", "P2"]}]
    assert view.summary(ev) == ["state: ready (cheese master)", "points: P1 -  P2 -",
                                "plates this round: -"]
    ev += [{"ev": "roll", "round": 1}, {"ev": "faces"},
           {"ev": "grab", "p": "P2", "plate": 5},
           {"ev": "score", "points": {"P1": 6, "P2": 7}}]
    assert view.summary(ev) == ["state: ready (cheese master)", "points: P1 6  P2 7",
                                "plates this round: P2 5"]
    ev += [{"ev": "roll", "round": 2}, {"ev": "penalty", "p": "P1", "points": 5}]
    assert view.summary(ev)[:3] == ["state: rolling (cheese master)", "points: P1 5  P2 7",
                                    "plates this round: -"]
    ev += [{"ev": "winner", "p": "P2"}]
    assert view.summary(ev)[0] == "state: game over (cheese master)"


def test_cheesonomics_shows_money_and_the_turn():
    ev = [{"ev": "boot"}, {"ev": "pick", "game": "cheesonomics"},
          {"ev": "market", "players": ["P1", "P2"]},
          {"ev": "action", "p": "P2", "act": "sell", "money": 18}]
    assert view.summary(ev)[:2] == ["state: turn (cheesonomics)", "money: P2 18"]
    ev += [{"ev": "final", "money": {"P1": 40, "P2": 52}}]
    assert view.summary(ev)[:2] == ["state: final (cheesonomics)", "money: P1 40  P2 52"]


def test_the_speed_line_is_the_last_two_seconds_not_the_average(monkeypatch):
    pico = types.SimpleNamespace(nanos=0)
    table = types.SimpleNamespace(pico=pico, board=types.SimpleNamespace(mcu="rp2040"))
    clock = [100.0]
    monkeypatch.setattr(view.time, "monotonic", lambda: clock[0])
    v = view.EmuView(table)
    for _ in range(10):                 # 10 s at real time
        clock[0] += 1.0
        pico.nanos += 1_000_000_000
        v.speed()
    for _ in range(4):                  # then 4 s at 0.25x (a tumble on a busy machine)
        clock[0] += 1.0
        pico.nanos += 250_000_000
        s = v.speed()
    assert abs(s - 0.25) < 0.01         # the average since the start would say 0.79x


def test_the_view_says_when_it_runs_slower_than_real_time(monkeypatch):
    """At 0.25x a grab window or the check's 3 s last four times as long as
    the box says: the view says so in words, and not at real time."""
    pico = types.SimpleNamespace(nanos=0)
    table = types.SimpleNamespace(pico=pico, board=types.SimpleNamespace(mcu="rp2040"), events=[])
    clock = [100.0]
    monkeypatch.setattr(view.time, "monotonic", lambda: clock[0])
    v = view.EmuView(table)
    for rate in (1.0, 0.25):
        for _ in range(4):
            clock[0] += 1.0
            pico.nanos += int(rate * 1e9)
            head = str(v.status()[0])
        assert ("slower than real time" in head) == (rate < 1.0), (rate, head)
