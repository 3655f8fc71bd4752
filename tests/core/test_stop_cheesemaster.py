# Cheese Master: the box's one stop gesture (a long ROLL asks "stop?", ROLL
# confirms, anything else or 5 s goes on) and the final screens (game over,
# the King) surviving a power cut or a watchdog reset until the table leaves
# them; saves from before still resume. Through the simulator, animations and
# tunes on. Runs on CPython and on MicroPython.
from cheesebox import display as D
from flowkit import logged, track
from sim.scenario import run_script, match_of
from stopkit import STOP_DICE, box_sim as _sim, dice as _dice, with_save as _old

ROUND_P1 = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 100\n"    # pico-4p, 2 players
GAME_P1 = ROUND_P1 * 7                                                   # P1 wins


def _cm_view(sim):
    """What the table sees of its game: points, out, marked, rounds, games."""
    m = match_of(sim.box)
    return (list(m.points), list(m.eliminated), m.marked, m.rounds_played, sim.box.games)


# -- the stop gesture: Cheese Master ----------------------------------------------

def test_cheese_master_long_roll_asks_and_roll_stops_the_game():
    sim, lines = _sim()
    r = run_script(sim, "players 2\ndice yellow\n" + ROUND_P1 * 2 + "holdroll 2500\n")
    assert r["state"] == "stop?" and r["saved"]
    assert _dice(sim) == STOP_DICE              # a picture: a stop sign, "?", a tick for ROLL
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "join" and not r["saved"] and not any(sim.box.joined)
    stop = logged(lines, "stop")
    assert len(stop) == 1 and stop[0]["game"] == "cheese master" and stop[0]["state"] == "ready"
    # a new table: nothing of the stopped game is offered after a power cut
    r = run_script(sim, "powercut\n")
    assert r["state"] == "join"


def test_cheese_master_stop_cancelled_by_a_buzzer_changes_nothing():
    sim, lines = _sim()
    run_script(sim, "players 2\ndice yellow\n" + ROUND_P1 * 2)
    before = _cm_view(sim)
    saved = sim.fs.files["game.json"]
    marked = "P%d" % (match_of(sim.box).marked + 1)
    assert sim.box.state_name() == "ready" and before[2] >= 0
    # the marked player's buzzer would roll: while "stop?" is up it only says no
    r = run_script(sim, "holdroll 2500\nbuzz %s\n" % marked)
    assert r["state"] == "ready" and _cm_view(sim) == before
    assert sim.fs.files["game.json"] == saved
    assert logged(lines, "go_on")[-1]["why"] == marked
    # the game's dice are back: the last roll's faces, or its count
    dice = _dice(sim)[:3]
    assert dice == r["last_roll"] or dice == [str(r["cheese_left"])] * 3, dice
    # and the game goes on: the same buzzer rolls now
    r = run_script(sim, "buzz %s\nwait 3000\n" % marked)
    assert r["state"] == "grab"


def test_cheese_master_stop_goes_on_by_itself_and_a_penalty_then_costs_nothing():
    sim, lines = _sim()
    run_script(sim, "players 2\ndice yellow\n" + ROUND_P1)
    before = _cm_view(sim)
    r = run_script(sim, "holdroll 2500\nwait 4800\n")
    assert r["state"] == "stop?"
    r = run_script(sim, "wait 300\n")
    assert r["state"] == "ready" and _cm_view(sim) == before
    assert logged(lines, "go_on")[-1]["why"] == "timeout"
    # the penalty gesture while "stop?" is up: no point lost, the game goes on
    r = run_script(sim, "holdroll 2500\npenalty P2\n")
    assert r["state"] == "ready" and _cm_view(sim) == before
    assert not logged(lines, "penalty")
    # a second long ROLL says no as well (only a short ROLL stops)
    r = run_script(sim, "holdroll 2500\nholdroll 2500\n")
    assert r["state"] == "ready" and logged(lines, "go_on")[-1]["why"] == "long ROLL"


def test_cheese_master_stop_cancelled_in_the_check_keeps_its_30_s():
    # plate cards: the check ends by itself 30 s after the last wheel; the
    # time "stop?" was up is not taken from it
    sim, lines = _sim()
    run_script(sim, "players 2\ndice yellow\nrollbutton\nwait 3000\nbuzz P1\n")
    assert sim.box.state_name() == "check"
    t0 = sim.elapsed_ms()
    r = run_script(sim, "holdroll 2500\nwait 4000\nbuzz P2\n")
    assert r["state"] == "check" and not logged(lines, "own_up")
    paused = logged(lines, "go_on")[-1]["paused_ms"]
    assert 4000 <= paused <= 4300
    sim.wait(t0 + 30000 + 500 - sim.elapsed_ms())
    assert sim.box.state_name() == "check"      # without the pause it would be over
    sim.wait(paused)
    assert sim.box.state_name() == "ready"
    assert match_of(sim.box).points[1] == 6     # P2 had no wheel: scored as before


def test_a_campaign_is_stopped_by_the_same_gesture_and_not_at_once():
    sim, lines = _sim()
    r = run_script(sim, "players 2\ndice campaign\n" + ROUND_P1 * 2 + "holdroll 2500\n")
    assert r["state"] == "stop?" and r["campaign"]["game"] == 1
    r = run_script(sim, "buzz P1\n")
    assert r["state"] == "ready" and r["campaign"]["game"] == 1
    r = run_script(sim, "holdroll 2500\nrollbutton\n")
    assert r["state"] == "join" and not r["saved"] and "campaign" not in r


# -- the final screen through a power cut and a watchdog reset ------------------------

def test_cheese_master_final_screen_survives_a_power_cut():
    sim, lines = _sim()
    r = run_script(sim, "players 2\ndice yellow\n" + GAME_P1)
    assert r["state"] == "gameover" and r["winner"] == "P1"
    before = _cm_view(sim)
    r = run_script(sim, "powercut\n")
    assert r["boots"] == 2 and r["state"] == "gameover" and r["winner"] == "P1"
    assert _cm_view(sim) == before
    assert _dice(sim) == ["crown", "P0"] * 3     # crowns and the winner, P1
    sim.wait(300)
    assert track(sim, 0)[2] == D.WHEEL          # the winner's wheel LED
    assert track(sim, 1)[:2] == (1, D.OUT)      # the loser: out
    # ROLL acts as on the final screen: a new game, the same players
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "ready" and r["games"] == 2 and r["points"] == {"P1": 7, "P2": 7}


def test_cheese_master_final_screen_survives_a_watchdog_reset_and_long_roll_leaves():
    sim, lines = _sim()
    run_script(sim, "players 2\ndice yellow\n" + GAME_P1)
    r = run_script(sim, "hang 9000\n")
    assert r["boots"] == 2 and r["state"] == "gameover" and r["winner"] == "P1"
    r = run_script(sim, "holdroll 2500\n")
    assert r["state"] == "join" and not r["saved"]
    r = run_script(sim, "powercut\n")
    assert r["state"] == "join"


def test_the_kings_screen_survives_a_power_cut():
    sim, lines = _sim()
    run_script(sim, "players 2\ndice campaign\n" + GAME_P1 + "holdroll 2500\n")
    r = run_script(sim, "powercut\n")
    assert r["state"] == "king" and r["campaign"]["king"] == "P1"
    assert r["campaign"]["wins"] == {"P1": 1, "P2": 0}
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "join" and not r["saved"]


# -- saved games written before the final screen was kept -------------------------
# (written by the firmware of commit 573e698: no "final" in the envelope)
OLD_CM = ('{"choice": 0, "in_play": [0, 1, 2], "match": {"stations": [0, 1], "points": [7, 5, 0, 0, '
          '0, 0, 0, 0], "active": [1, 1, 0, 0, 0, 0, 0, 0], "eliminated": [], "round_no": 2, '
          '"rounds": 2, "replays": 0, "marked": 1, "no_wheel": 1, "winner": -1, "lost": [0, 1, 0, '
          '0, 0, 0, 0, 0]}, "campaign": null, "v": 1, "game": "cheese master", "board": "pico-4p", '
          '"joined": [1, 1, 0, 0, 0, 0, 0, 0], "games": 1}\nbbb00ed6\n')
OLD_CAMPAIGN_OVER = (
    '{"choice": 4, "in_play": [1], "match": {"stations": [0, 1], "points": [7, 0, 0, 0, 0, 0, 0, '
    '0], "active": [1, 0, 0, 0, 0, 0, 0, 0], "eliminated": [1], "round_no": 7, "rounds": 7, '
    '"replays": 0, "marked": -1, "no_wheel": 1, "winner": 0, "lost": [0, 1, 0, 0, 0, 0, 0, 0]}, '
    '"campaign": {"wins": [1, 0, 0, 0, 0, 0, 0, 0], "game": 1, "yellows": [1, 2], "tiebreak": [], '
    '"king": -1}, "v": 1, "game": "cheese master", "board": "pico-4p", "joined": [1, 1, 0, 0, 0, '
    '0, 0, 0], "games": 1}\n2e05ce44\n')


def test_an_old_cheese_master_save_is_offered_and_resumes():
    sim, lines = _old(OLD_CM, "pico-4p")
    assert sim.box.state_name() == "resume" and not logged(lines, "error")
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "ready" and r["points"] == {"P1": 7, "P2": 5} and r["marked"] == "P2"


def test_an_old_campaign_game_over_save_is_still_offered():
    # before, a campaign's game over was saved as any save: offered, not jumped into
    sim, lines = _old(OLD_CAMPAIGN_OVER, "pico-4p")
    assert sim.box.state_name() == "resume"
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "gameover" and r["campaign"]["wins"] == {"P1": 1, "P2": 0}
