# Cheesonomics on the box: power cuts, the watchdog, damaged saves, and what
# the box keeps for the next table. Runs on CPython and on MicroPython.
import json

from flowkit import START_CHEESONOMICS as START
from flowkit import board, logged, play, play_logged as _play
from sim.scenario import Sim, run_script
from sim.simfs import SimFS


def test_a_power_cut_offers_the_game_and_roll_resumes_it():
    fs = SimFS()
    script = START + "produce P2 3\ncollect P3 goat\n"
    r, sim, lines = _play(script + "powercut\n", fs=fs)
    assert r["state"] == "resume"
    r2 = run_script(sim, "rollbutton\n")
    assert r2["state"] == "turn" and r2["cheesonomics"]["turn"] == "P1"
    assert r2["cheesonomics"]["deck"] == 42
    # the knife survives too: P1 may not name goat
    run_script(sim, "collect P1 goat\n")
    assert sim.box.game.bank.knife[2] != 255 and sim.box.game.bank.cur == 0


def test_a_watchdog_reset_resumes_at_once():
    r, sim, lines = _play(START + "produce P2 3\nhang 9000\n")
    assert r["state"] == "turn" and r["cheesonomics"]["turn"] == "P3"


def test_a_damaged_save_is_set_aside_with_a_message():
    fs = SimFS()
    r, sim, lines = _play(START + "produce P2 3\n", fs=fs)
    text = fs.files["game.json"].decode() if isinstance(fs.files["game.json"], bytes) else fs.files["game.json"]
    d = json.loads(text.split("\n")[0])
    d["bank"]["money"][0] = -5
    from cheesebox.save import encode
    fs.files["game.json"] = encode(d).encode() if isinstance(fs.files["game.json"], bytes) else encode(d)
    lines2 = []
    sim2 = Sim(board("pico-8p"), seed=1, log=lines2.append, fs=fs)
    assert sim2.box.state_name() == "join"
    err = logged(lines2, "error")
    assert len(err) == 1 and "saved game unusable" in err[0]["what"]


def test_an_advanced_game_stays_advanced_after_a_power_cut():
    r, sim, lines = _play("game cheesonomics\nplayers 3\nvariant advanced\nproduce P2 3\nproduce P3 2\n"
                          "produce P1 1\npowercut\nrollbutton\nsell P2 cow Italy 2 forbid trowel\n")
    assert r["cheesonomics"]["variant"] == "advanced" and r["games"] == 1
    sale = logged(lines, "action")[-1]
    assert sale["act"] == "sell" and sale["forbid"] == "trowel" and sale["p"] == "P2"


def test_the_variant_and_the_dice_choice_are_remembered_for_the_next_table():
    r, sim, lines = _play("game cheesonomics\nplayers 2\nvariant advanced\n")
    sim.box.game.bank.deck = 0          # the deck runs out: the final turns
    first = r["cheesonomics"]["turn"]
    run_script(sim, "pass %s\npass %s\n" % (first, "P2" if first == "P1" else "P1"))
    r = run_script(sim, "holdroll 2500\nplayers 2\n")
    assert r["state"] == "variant" and sim.box.game.advanced
    r, sim = play("players 2\ndice yellow+2\n" + "penalty P1\n" * 7 + "holdroll 2500\nplayers 2\n",
                  name="pico-8p")
    assert r["state"] == "menu" and sim.box.game.choice == 2


def test_a_power_cut_while_laying_out_shows_the_layout_again():
    r, sim, lines = _play("game cheesonomics\nplayers 3\nbuzz P1\nrollbutton\nrollbutton\npowercut\n"
                          "rollbutton\n")
    assert r["state"] == "layout" and sim.box.game.page == 0
