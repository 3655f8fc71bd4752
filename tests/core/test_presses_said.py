# Every press either game does nothing with is seen at its station and
# logged (`not_allowed`), the list in docs/event-log.md ("Presses that do
# nothing"); what stays silent has a rulebook reason. Runs on CPython and on
# MicroPython.
from cheesebox import display as D
from flowkit import START_CHEESONOMICS, logged, play_logged, track
from sim.scenario import run_script

RED = (255, 0, 0)
# 3 players, answer keys: P1 and P2 grab right (3 pieces), P3 is left without
ROUND3 = ("players 3\ndice yellow\nrollbutton\nroll cheese1 cheese1 cheese1\nwait 3000\n"
          "answer P1 3\nbuzz P1\nanswer P2 3\nbuzz P2\n")


def _wheels(sim, s, ms=300):
    """The colours station s's wheel LED takes over the next ms."""
    out = set()
    for _ in range(ms // 10):
        out.add(track(sim, s)[2])
        sim.wait(10)
    return out


def _tracks(sim, s, ms=300):
    """The colours station s's score track takes over the next ms."""
    out = set()
    for _ in range(ms // 10):
        out.add(track(sim, s)[1])
        sim.wait(10)
    return out


def _said(sim, lines, script, p, words):
    """script's last press is said: one not_allowed for p, with these words."""
    before = len(logged(lines, "not_allowed"))
    run_script(sim, script)
    new = logged(lines, "not_allowed")[before:]
    assert [e["p"] for e in new] == [p], (script, new)
    assert words in new[0]["why"], (words, new[0]["why"])


# -- Cheese Master ------------------------------------------------------------------

def test_a_buzzer_that_does_not_roll_is_seen_and_said():
    r, sim, lines = play_logged(ROUND3)
    assert r["marked"] == "P3"
    _said(sim, lines, "buzz P3\n", "P3", "too soon")          # the 1 s after the scoring
    assert D.BAD in _wheels(sim, 2)
    _said(sim, lines, "wait 1500\nbuzz P1\n", "P1", "P3 rolls")
    assert D.BAD in _wheels(sim, 0)
    assert sim.box.game.state_name() == "ready"               # nothing rolled


def test_a_plate_key_that_counts_for_no_grab_is_seen_and_said():
    r, sim, lines = play_logged(ROUND3)
    _said(sim, lines, "wait 1500\nanswer P1 2\n", "P1", "from the roll on")
    assert D.BAD in _wheels(sim, 0)
    run_script(sim, "rollbutton\nroll cheese1 cheese1 cheese1\nwait 3000\nanswer P1 3\nbuzz P1\n")
    _said(sim, lines, "answer P1 5\n", "P1", "locked")
    assert D.BAD in _wheels(sim, 0) and sim.box.game.match.locked[0] == 3


def test_an_out_players_presses_are_seen_and_said():
    r, sim, lines = play_logged("players 3\ndice yellow\n" + "penalty P3\n" * 7 + "wait 700\n")
    assert r["eliminated"] == ["P3"]
    assert D.BAD not in _wheels(sim, 2)
    _said(sim, lines, "buzz P3\n", "P3", "out")
    assert D.BAD in _wheels(sim, 2)
    _said(sim, lines, "wait 700\npenalty P3\n", "P3", "out")
    _said(sim, lines, "wait 700\nanswer P3 2\n", "P3", "out")


def test_a_press_without_a_wheel_at_the_check_is_said():
    r, sim, lines = play_logged("players 2\ndice yellow\nroll cheese1 cheese2 cheese3\nrollbutton\n"
                                "wait 2000\nbuzz P2\n", "pico-4p")
    assert sim.box.game.state_name() == "check"
    _said(sim, lines, "buzz P1\n", "P1", "nothing to own up to")


def test_a_dial_press_after_the_last_wheel_is_said():
    # P2 takes the only wheel; P1 presses 5 ms later, while the grab is locking
    r, sim, lines = play_logged("players 2\ndice yellow\nroll cheese1 cheese1 cheese1\nrollbutton\n"
                                "wait 2000\nfingers P2 0-60 P1 5-65\n", "pico2-8p")
    assert [e["p"] for e in logged(lines, "grab")] == ["P2"]
    assert [(e["p"], e["why"]) for e in logged(lines, "not_allowed")] == [("P1", "no wheel left")]


def test_the_penalty_gesture_outside_a_game_is_said_and_does_nothing():
    r, sim, lines = play_logged("players 2\n")
    _said(sim, lines, "fingers ROLL 0-600 P1 400-460\n", "P1", "no penalty")
    assert sim.box.game.state_name() == "menu" and sim.box.game.choice == 0


# -- Cheesonomics ---------------------------------------------------------------------

def test_keys_of_a_player_whose_turn_it_is_not_are_seen_and_said():
    r, sim, lines = play_logged(START_CHEESONOMICS)
    g = sim.box.game
    assert g.active() == 1                                  # P2 plays
    assert RED not in _tracks(sim, 0)
    _said(sim, lines, "answer P1 3\n", "P1", "not your turn: P2 plays")
    assert RED in _tracks(sim, 0) and g.k == 0              # P2 keyed nothing


def test_a_dial_of_a_player_whose_turn_it_is_not_is_seen_and_said_once():
    r, sim, lines = play_logged(START_CHEESONOMICS, "pico2-8p")
    _said(sim, lines, "answer P3 2\n", "P3", "not your turn: P2 plays")
    run_script(sim, "answer P3 3\nanswer P3 4\n")             # turned on through the sign
    assert len(logged(lines, "not_allowed")) == 1
    assert RED in _tracks(sim, 2)


def test_keys_with_no_turn_are_said():
    r, sim, lines = play_logged("game cheesonomics\nplayers 3\nbuzz P1\nrollbutton\n")
    assert sim.box.state_name() == "layout"
    _said(sim, lines, "answer P1 3\n", "P1", "no turn now")


def test_a_dial_press_inside_its_own_300_ms_is_seen_and_said():
    r, sim, lines = play_logged(START_CHEESONOMICS + "answer P2 3\nwait 300\nbuzz P2\n", "pico2-8p")
    g = sim.box.game
    assert g.k == 1
    _said(sim, lines, "buzz P2\n", "P2", "too soon")          # 100 ms after its own step
    assert g.k == 1 and sim.box.display.shown[5] == "cross"


def test_the_300_ms_between_dial_steps_are_counted_per_station():
    # P2's last step plays the action; P3's first press, 120 ms later, counts
    r, sim, lines = play_logged(START_CHEESONOMICS + "answer P2 3\nwait 300\nbuzz P2\nwait 320\n"
                                "answer P2 2\nbuzz P2\nanswer P3 3\nbuzz P3\n", "pico2-8p")
    assert [e["p"] for e in logged(lines, "action")] == ["P2"]
    assert logged(lines, "not_allowed") == []
    assert sim.box.game.active() == 2 and sim.box.game.k == 1
