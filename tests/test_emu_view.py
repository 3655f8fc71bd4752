"""`make emu`'s screen, the simulator's (sim/boxscreen.py), fed from the
box's log: the state, the points or money, the hints and reasons; the
speed the emulator runs at now, not its average since the start.
(tests/emu/test_emu_screen.py drives the emulated chip itself.)"""
import io
import os
import types

from rich.console import Console

from cheesebox.board import read_board
from emu import view

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _table(name, events):
    """A stand-in for EmuTable: a board, the log's events, dark wires."""
    return types.SimpleNamespace(board=read_board(os.path.join(REPO, "boards", name + ".json")),
                                 events=events, pico=types.SimpleNamespace(nanos=0, call=lambda cmd: {},
                                                                           watch_tone=lambda g: None,
                                                                           tones=lambda since=0: []),
                                 last_frame=lambda ci: b"", shown=lambda ci, n: bytes(n),
                                 place=lambda s, k, at_ns=None: None)


def _words(v, w=140, h=50):
    """The screen's words at w x h; on a wide one, the box and then its keys
    panel (not side by side: a wrapped line reads on)."""
    console = Console(record=True, width=w, height=h, file=io.StringIO())
    console.print(v.frame(w, h))
    if w >= 112:
        console.print(v.screen.help(v.said))
    return " ".join(console.export_text().replace("\u2502", " ").split())


def test_the_state_and_the_points_follow_the_log_as_the_simulator_shows_them():
    ev = [{"ev": "boot", "resume": False}, {"ev": "join", "p": "P1"}, {"ev": "join", "p": "P2"}]
    v = view.EmuView(_table("pico-4p", ev))
    assert "join · joined P1 P2 · game cheese master" in _words(v)
    ev.append({"ev": "menu", "choice": "yellow"})          # ROLL opened the dice menu
    words = _words(v)
    assert "menu · choice yellow" in words and "dice: yellow (the menu opens on the last choice)" in words
    ev.append({"ev": "game", "players": ["P1", "P2"], "dice": ["yellow A", "yellow B", "yellow C"],
               "campaign": None})
    words = _words(v)
    assert "ready · game 1 · rounds 0" in words and "P1 7 · P2 7" in words      # 7 each, not "-"
    assert "ROLL rolls; a buzzer: dice tour" in words
    ev += [{"ev": "roll", "round": 1}, {"ev": "faces", "faces": [], "left": 4},
           {"ev": "grab", "p": "P2", "plate": None},
           {"ev": "score", "round": 1, "left": 4, "result": "scored", "lost": {"P1": 1},
            "points": {"P1": 6, "P2": 7}, "out": []}]
    words = _words(v)
    assert "P1 6 · P2 7" in words and "why: round 1: P1 -1" in words and "rounds 1" in words
    ev += [{"ev": "roll", "round": 2}, {"ev": "false_start", "p": "P1"}]
    words = _words(v, 80, 24)
    # compact: no frame, the box's name on the first line where it fits, then the dice
    assert words.startswith("the Cheese Box - pico-4p - emulated Pico 1 yellow A")
    assert "rolling" in words and "why: P1: false start" in words
    ev += [{"ev": "winner", "p": "P2", "out": ["P1"]}]
    assert "gameover" in _words(v) and "winner P2" in _words(v)


def test_cheesonomics_shows_money_the_turn_and_the_turns_lines():
    ev = [{"ev": "boot"}, {"ev": "pick", "game": "cheesonomics"}, {"ev": "variant", "variant": "basic"}]
    v = view.EmuView(_table("pico-8p", ev))
    assert "variant · basic" in _words(v)
    ev += [{"ev": "market", "players": ["P1", "P2"], "variant": "basic", "first": "P2",
            "prices": [3, 4, 6, 9, 1], "deck": 45},
           {"ev": "not_allowed", "p": "P2", "why": "no cheese on the table to sell"},
           {"ev": "action", "p": "P2", "act": "collect", "type": "goat", "money": 0, "deck": 44}]
    words = _words(v)
    assert "P1 plays" in words and "deck 44" in words and "P1 0 · P2 0" in words
    assert "P1, action: 0 pass, 1 collect animal, 2 collect place, 3 produce, 4 sell" in words
    assert "P2: not allowed: no cheese on the table to sell" in words and "P2 collects goat" in words
    assert "p 2 undo" in _words(v, 80, 24)                 # P2 may undo until P1 keys a value
    v.key("q")
    v.key("1")
    assert "undo" not in _words(v, 80, 24).split("Esc")[0]
    ev += [{"ev": "final", "money": {"P1": 40, "P2": 52}, "bonus": {}, "winners": ["P2"]}]
    words = _words(v)
    assert "final" in words and "P1 40 · P2 52" in words


def test_the_speed_line_is_the_last_two_seconds_not_the_average(monkeypatch):
    pico = types.SimpleNamespace(nanos=0, watch_tone=lambda g: None)
    table = types.SimpleNamespace(pico=pico, board=types.SimpleNamespace(mcu="rp2040", piezo_pin=22))
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
    pico = types.SimpleNamespace(nanos=0, watch_tone=lambda g: None)
    table = types.SimpleNamespace(pico=pico, board=types.SimpleNamespace(mcu="rp2040", piezo_pin=22), events=[])
    clock = [100.0]
    monkeypatch.setattr(view.time, "monotonic", lambda: clock[0])
    v = view.EmuView(table)
    for rate in (1.0, 0.25):
        for _ in range(4):
            clock[0] += 1.0
            pico.nanos += int(rate * 1e9)
            head = str(v.status()[0])
        assert ("slower than real time" in head) == (rate < 1.0), (rate, head)


def test_a_key_presses_after_the_emulators_time_now_not_the_last_answers():
    """make emu runs the chip freely: the time of the last answer can be a
    frame (100 ms) old. A ROLL pressed and let go both before the emulator's
    now land at one instant, in either order: ROLL left held, "stuck"."""
    pressed = []
    pico = types.SimpleNamespace(nanos=0, watch_tone=lambda g: None)

    def call(cmd):
        pico.nanos += 120 * view.MS              # the chip ran on since the last answer
        return {}
    pico.call = call
    table = types.SimpleNamespace(board=read_board(os.path.join(REPO, "boards", "pico-4p.json")),
                                  events=[], pico=pico,
                                  press_at=lambda who, t_ns, ms: pressed.append((who, t_ns, ms)))
    v = view.EmuView(table)
    v.key(" ")
    (who, t_ns, ms), = pressed
    assert who == "roll" and t_ns > 120 * view.MS and ms == view.TAP_MS


def test_roll_at_joining_is_judged_once_the_box_has_had_it():
    """A slow emulator has not had P2's join yet when ROLL is typed: the
    reason is told from what the box did with it, not guessed before."""
    ev = [{"ev": "boot"}, {"ev": "join", "p": "P1"}]
    table = _table("pico-4p", ev)
    table.press_at = lambda who, t_ns, ms: None
    v = view.EmuView(table)
    v.key("2")
    v.key(" ")
    assert "why:" not in _words(v, 80, 24)              # not judged yet
    ev += [{"ev": "join", "p": "P2"}, {"ev": "menu", "choice": "yellow"}]
    table.pico.nanos += 500 * view.MS
    words = _words(v, 80, 24)
    assert "menu · choice yellow" in words and "why:" not in words
    # one player alone: ROLL starts nothing, and the screen says why, once the box had it
    ev += [{"ev": "joining"}, {"ev": "join", "p": "P1"}]
    v.key(" ")
    table.pico.nanos += 500 * view.MS
    assert "why: ROLL: cheese master needs 2 players, 1 joined" in _words(v, 80, 24)


def test_roll_answering_stop_is_not_judged_as_roll_at_joining():
    ev = [{"ev": "boot"}, {"ev": "join", "p": "P1"}, {"ev": "join", "p": "P2"},
          {"ev": "menu", "choice": "yellow"}, {"ev": "game", "players": ["P1", "P2"], "dice": []},
          {"ev": "stop_asked", "state": "ready"}]
    table = _table("pico-4p", ev)
    table.press_at = lambda who, t_ns, ms: None
    v = view.EmuView(table)
    v.key(" ")                                          # ROLL: stop
    ev += [{"ev": "stop", "game": "cheese master", "state": "ready"}, {"ev": "joining"}]
    table.pico.nanos += 500 * view.MS
    words = _words(v, 80, 24)
    assert "why: stopped: cheese master ended unfinished" in words and "needs 2 players" not in words
