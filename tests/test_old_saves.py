"""Saved games written by the firmware before the reorganisation
(commit 033e3ca: a Cheese Master game on pico-4p, a Cheesonomics game on
pico-8p, each cut mid-game) still resume on today's firmware: the box
offers them, ROLL resumes them, and the table finds its game as it was.
A Cheesonomics final screen saved before the final count was shown (commit
3980f73: 3 players, P3 won with 13) boots straight back into the final
screen."""
import json
import os

from cheesebox.board import read_board
from sim.scenario import Sim, run_script
from sim.simfs import SimFS

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def _boot_with(save, board):
    fs = SimFS()
    with open(os.path.join(HERE, "saves", save)) as f:
        fs.files["game.json"] = f.read()
    return Sim(read_board(os.path.join(REPO, "boards", board + ".json")), fs=fs)


def _saved(save):
    with open(os.path.join(HERE, "saves", save)) as f:
        return json.loads(f.read().split("\n")[0])


def test_a_cheese_master_game_saved_before_the_layout_resumes():
    sim = _boot_with("cheese-master-before-the-layout.json", "pico-4p")
    assert sim.box.state_name() == "resume"
    run_script(sim, "rollbutton\nwait 500\n")
    d = _saved("cheese-master-before-the-layout.json")
    g = sim.box.game
    assert sim.box.module.NAME == "cheese master"
    assert list(g.match.points) == d["match"]["points"]
    assert list(sim.box.joined) == d["joined"] and sim.box.games == d["games"]
    assert sim.box.state_name() == "ready"


def test_a_cheesonomics_game_saved_before_the_layout_resumes():
    sim = _boot_with("cheesonomics-before-the-layout.json", "pico-8p")
    assert sim.box.state_name() == "resume"
    run_script(sim, "rollbutton\nwait 500\n")
    d = _saved("cheesonomics-before-the-layout.json")
    g = sim.box.game
    assert sim.box.module.NAME == "cheesonomics"
    assert list(g.bank.money) == d["bank"]["money"] and g.bank.deck == d["bank"]["deck"]
    assert list(sim.box.joined) == d["joined"] and list(g.stations) == d["stations"]
    assert sim.box.state_name() == "turn"


def test_a_cheesonomics_final_screen_saved_before_the_final_count_boots_into_it():
    sim = _boot_with("cheesonomics-final-screen.json", "pico-8p")
    assert sim.box.state_name() == "final"          # no offer to resume: the result
    d = _saved("cheesonomics-final-screen.json")
    b = sim.box.game.bank
    assert list(b.money) == d["bank"]["money"] == [7, 11, 13]
    assert list(b.income) == d["bank"]["income"] and list(b.winners) == [2]
    assert sim.box.game.undo is not None            # the last action can still be undone
    shown = sim.box.display.shown                   # the final count, from its first line:
    assert shown[0] == "P0" and shown[1] == "fS"    # P1 (station 0), money from sales
    assert (shown[2], shown[3]) == ("m  0", "m 6.0")
