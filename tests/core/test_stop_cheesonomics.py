# Cheesonomics: the box's one stop gesture (the same as in Cheese Master) in a
# turn and in the advanced layout, and the final screen (everyone's money,
# the winners) surviving a power cut or a watchdog reset until the table
# leaves it; saves from before still resume. Through the simulator,
# animations and tunes on. Runs on CPython and on MicroPython.
import cheesonomics.game  # noqa: F401  (compiled first, while the heap is in one piece)
from flowkit import START_CHEESONOMICS, logged
from sim.scenario import run_script
from stopkit import STOP_DICE, box_sim as _sim, dice as _dice, with_save as _old


# -- the stop gesture: Cheesonomics ---------------------------------------------

def _co(script, name="pico-8p"):
    sim, lines = _sim(name)
    r = run_script(sim, START_CHEESONOMICS + script)
    return r, sim, lines


def test_cheesonomics_long_roll_asks_and_roll_stops_the_game():
    r, sim, lines = _co("produce P2 3\nholdroll 2500\n")
    assert r["state"] == "stop?" and _dice(sim) == STOP_DICE
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "join" and not r["saved"]
    assert logged(lines, "stop")[0]["game"] == "cheesonomics"
    r = run_script(sim, "powercut\n")
    assert r["state"] == "join"


def test_cheesonomics_stop_cancelled_keeps_the_turn_half_keyed():
    # P3 has keyed "collect by animal" when the long ROLL comes
    r, sim, lines = _co("produce P2 3\nenter P3 1\n")
    g = sim.box.game
    before = (r["cheesonomics"], g.entry.k, bytes(g.entry.v), sim.fs.files["game.json"])
    assert g.step_name().startswith("which")
    r = run_script(sim, "holdroll 2500\nbuzz P1\n")
    assert r["state"] == "turn"
    assert (r["cheesonomics"], g.entry.k, bytes(g.entry.v), sim.fs.files["game.json"]) == before
    assert g.step_name().startswith("which")
    # the entry goes on from "which": 2, the goat
    run_script(sim, "enter P3 2\n")
    act = logged(lines, "action")[-1]
    assert act["p"] == "P3" and act["act"] == "collect" and act["type"] == "goat"


def test_cheesonomics_stop_cancelled_by_a_key():
    # a key pressed while "stop?" is up: no, and the key still counts for the turn
    r, sim, lines = _co("produce P2 3\nholdroll 2500\nanswer P3 1\n")
    assert r["state"] == "turn" and logged(lines, "go_on")[-1]["why"] == "plate"
    assert not logged(lines, "stop")


def test_a_long_roll_during_the_advanced_layout_asks_and_leaves_the_page():
    sim, lines = _sim("pico-8p")
    run_script(sim, "game cheesonomics\nplayers 3\nbuzz P1\nrollbutton\nrollbutton\n")
    g = sim.box.game
    assert sim.box.state_name() == "layout" and g.page == 1
    shown = _dice(sim)
    assert shown[5] == "S1"                     # die 6: the second sector
    r = run_script(sim, "holdroll 2500\n")
    assert r["state"] == "stop?" and g.page == 1 and r["saved"]
    r = run_script(sim, "buzz P2\n")            # no: the same sector, not the next
    # the same cards (each die turns between a card's signs and its country)
    assert r["state"] == "layout" and g.page == 1
    assert [x[:2] for x in _dice(sim)] == [x[:2] for x in shown]
    r = run_script(sim, "rollbutton\nrollbutton\n")
    assert r["state"] == "turn"                 # the layout pages on as before
    r = run_script(sim, "holdroll 2500\nrollbutton\n")
    assert r["state"] == "join" and not r["saved"]


def test_cheesonomics_final_screen_survives_a_power_cut():
    r, sim, lines = _co("produce P2 3\n")
    sim.box.game.bank.deck = 0
    r = run_script(sim, "pass P3\npass P1\npass P2\n")
    assert r["state"] == "final"
    money = r["cheesonomics"]["money"]
    winners = sim.box.game.bank.winners
    r = run_script(sim, "powercut\n")
    assert r["boots"] == 2 and r["state"] == "final"
    assert r["cheesonomics"]["money"] == money and sim.box.game.bank.winners == winners
    assert _dice(sim)[0] == "P%d" % (sim.box.game.stations[0])      # the first seat's page
    # ROLL acts as on the final screen: another game; the result is let go then
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "variant" and not r["saved"]
    r = run_script(sim, "powercut\n")
    assert r["state"] == "join"


def test_cheesonomics_final_screen_survives_a_watchdog_reset():
    r, sim, lines = _co("produce P2 3\n")
    sim.box.game.bank.deck = 0
    r = run_script(sim, "pass P3\npass P1\npass P2\nhang 9000\n")
    assert r["boots"] == 2 and r["state"] == "final"
    r = run_script(sim, "holdroll 2500\n")      # a long ROLL on the final screen: joining
    assert r["state"] == "join" and not r["saved"]


# (written by the firmware of commit 573e698: no "final" in the envelope)
OLD_CO = ('{"stations": [0, 1, 2], "bank": {"save": 1, "n": 3, "advanced": 0, "first": 1, "cur": 0, '
          '"over": 0, "deck": 42, "mk": [19, 6, 14, 16, 12, 20, 0, 10, 8, 9, 15, 3, 18, 17, 13], '
          '"side": [1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0], "money": [0, 0, 0], "income": '
          '[0, 0, 0], "bonus": [0, 0, 0], "unsold_bonus": [0, 0, 0], "table": [0, 3, 0], "sold": '
          '[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "knife": [255, 255, 1], "forbid": [255, '
          '255, 255], "turns": [0, 1, 1], "winners": [], "top_bonus": [[], [], [], [], []]}, "v": 1, '
          '"game": "cheesonomics", "board": "pico-8p", "joined": [1, 1, 1, 0, 0, 0, 0, 0], '
          '"games": 1}\n1edb7027\n')


def test_an_old_cheesonomics_save_is_offered_and_resumes():
    sim, lines = _old(OLD_CO, "pico-8p")
    assert sim.box.state_name() == "resume"
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "turn" and r["cheesonomics"]["turn"] == "P1"
    assert r["cheesonomics"]["deck"] == 42
