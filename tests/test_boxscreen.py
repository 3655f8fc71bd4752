"""The box's screen (sim/boxscreen.py) as a player reads it in the
simulator: Cheesonomics' die labels follow what the dice show, an undo is
said, the turn's lines stay readable, the status fits the terminal, no die
label is cut; and the screen's reading of the log agrees with the box (the
emulated chip has only the log)."""
import io
import json
import os
import re

from rich.console import Console

from cheesebox.board import read_board
from sim.boxscreen import Seen
from sim.scenario import Sim, run_script
from sim.view import Game

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = "game cheesonomics\nplayers 3\nvariant basic\n"     # seed 1: P2 plays first


def board(name):
    return read_board(os.path.join(REPO, "boards", name + ".json"))


def shown(game, w=140, h=50):
    """The screen's lines as a w x h terminal shows them."""
    console = Console(record=True, width=w, height=h, file=io.StringIO())
    console.print(game.frame(w, h))
    return console.export_text().rstrip("\n").split("\n")


def text(game, w=140, h=50):
    return "\n".join(shown(game, w, h))


def flat(game, w=140, h=50):
    """The keys panel's words (beside the box on a wide terminal, the lines
    under it on a small one), wrapped lines joined again."""
    console = Console(record=True, width=w, height=h, file=io.StringIO())
    console.print(game.help() if w >= 112 else game.frame(w, h))
    return " ".join(console.export_text().replace("\u2502", " ").split())


def test_cheesonomics_die_labels_follow_what_the_dice_show():
    game = Game(Sim(board("pico-8p")))
    run_script(game.sim, START + "produce P2 3\n")
    t = text(game)
    assert "1 France" in t and "5 Greece" in t and "6 P3's turn" in t
    run_script(game.sim, "look P3\nwait 100\n")        # ROLL, nothing keyed: P3's money and the deck
    t = text(game)
    assert "1 P3: money" in t and "4 deck" in t and "5 cards in deck" in t and "France" not in t
    run_script(game.sim, "wait 3100\nbuzz P1\nwait 100\n")     # another player's buzzer: their money
    t = text(game)
    assert "5 P1: money" in t and "6 P1: money" in t and "1 France" in t and "Greece" not in t
    run_script(game.sim, "wait 1000\n")              # every other second: whose, P1 and a coin
    t = text(game)
    assert "5 P1: money" in t and "6 P1: money" in t and "1 France" in t and "Greece" not in t
    # a sale: die 6 shows what it paid (underlined), then whose sale, every other second
    run_script(game.sim, "wait 3100\nproduce P3 3\nproduce P1 3\nsell P2 cow Netherlands 3\nwait 100\n")
    sale = [x for x in game.seen.notes if "P2 sells" in x]
    assert sale and "P2 sells 3 cow pieces in Netherlands at " in sale[0], game.seen.notes
    paid = int(re.search(r": \+(\d+)", sale[0]).group(1))
    assert "6 sale's sum: %d" % paid in text(game)
    run_script(game.sim, "wait 1000\n")
    assert "6 P2's sale" in text(game)
    run_script(game.sim, "undo P2\nwait 100\n")        # undone: the arrow turning back in P2's colour
    assert "6 undone: P2" in text(game)


def test_an_undo_is_said_in_the_text():
    game = Game(Sim(board("pico-8p")))
    run_script(game.sim, START + "produce P2 3\nundo P2\nwait 100\n")
    words = flat(game)
    assert "P2's action undone: money 0, deck 45, the prices as before: P2 plays again" in words
    assert "P2's action undone" in flat(game, 80, 24)          # the small terminal says it too


def test_the_turns_entries_and_refusals_stay_until_the_next_turn_is_over():
    """A refused sale, then keys that became a collect: both read back
    during the next player's turn, with what the action did."""
    game = Game(Sim(board("pico-8p")))
    run_script(game.sim, START)
    # P2 keys 4 (sell) then 1 (cow): nothing on the table to sell, refused at that key
    for k in "w4":
        game.key(k)
    run_script(game.sim, "wait 200\n")
    run_script(game.sim, "collect P2 goat\nwait 100\n")
    words = flat(game)
    assert "P2 keys 4" in words and "P2: not allowed: no cheese on the table to sell" in words
    assert "P2 collects goat (money 0" in words
    run_script(game.sim, "wait 7000\n")                 # the why line is gone; the turn's lines are not
    words = flat(game)
    assert "why:" not in words and "P2: not allowed: no cheese on the table to sell" in words
    assert "P2 collects goat" in words
    run_script(game.sim, "produce P3 3\nwait 100\n")     # P3's turn is over: P2's lines go
    words = flat(game)
    assert "P3 produces: 3 cards laid out" in words and "P2 collects goat" not in words


def test_the_console_state_says_no_undo_once_the_next_player_keyed_a_value():
    for name, first in (("pico-8p", "answer P3 1\nwait 100\n"),
                        ("pico2-8p", "answer P3 1\nwait 600\nbuzz P3\nwait 400\n")):
        lines = []
        sim = Sim(board(name), log=lines.append)
        run_script(sim, START + "produce P2 3\nserial state\n" + first + "serial state\n")
        undo = [json.loads(x)["undo"] for x in lines if '"ev": "state"' in x]
        assert undo == [True, False], (name, undo)
    # on a dial, turned but not confirmed, nothing is keyed yet: the undo stays
    lines = []
    sim = Sim(board("pico2-8p"), log=lines.append)
    run_script(sim, START + "produce P2 3\nanswer P3 1\nwait 600\nserial state\n")
    assert [json.loads(x)["undo"] for x in lines if '"ev": "state"' in x] == [True]


def test_the_status_line_fits_120_and_80_columns_and_no_label_is_cut():
    game = Game(Sim(board("pico-8p")))
    # the advanced variant, past 1000 s: the longest head line (it wrapped "t 1004.0" / "s")
    run_script(game.sim, START.replace("basic", "advanced") + "rollbutton\nrollbutton\nrollbutton\n"
               "produce P2 3\nwait 1000000\n")
    for w, h in ((120, 40), (80, 24)):
        lines = shown(game, w, h)
        assert len(lines) <= h and all(len(x) <= w for x in lines), (w, h)
        assert any("deck 42" in x and "advanced" in x for x in lines), lines
        assert any(re.search(r"t 100\d\.\d s", x) for x in lines), lines     # the time whole, on one line
        assert not any(x.strip(" \u2502") in ("s", "s \u00b7") for x in lines), lines
    # Cheese Master's longest die name, orange innkeeper, on two lines, not cut
    game = Game(Sim(board("pico-8p")))
    for w, h in ((120, 40), (80, 24)):
        t = text(game, w, h)
        assert "5 orange" in t and "innkeeper" in t and "\u2026" not in t, t


def _states_over(script, name):
    """(the box's state, the screen's reading of the log) after every event."""
    sim = Sim(board(name))
    seen = Seen(sim.board, sim.elapsed_ms)            # no box: the log alone, as the chip's
    pairs = []

    def write(line):
        seen.line(line)
        pairs.append((json.loads(line)["ev"], seen.state))
    sim.log.write = write
    run_script(sim, script)
    return pairs, sim, seen


def test_the_screen_reads_the_boxs_screen_from_its_log():
    """The screen the log says the box is on is the box's own, at the end
    of each scenario: menu, game over, the Cheesonomics turn and final screen."""
    with open(os.path.join(REPO, "tests", "scenarios", "penalty.txt")) as f:
        script = f.read()
    _, sim, seen = _states_over("players 2\n", "pico-4p")
    assert seen.state == sim.box.state_name() == "menu"
    _, sim, seen = _states_over(script, "pico-4p")
    assert seen.state == sim.box.state_name() == "ready"
    assert seen.result()["points"] == sim.result()["points"]
    with open(os.path.join(REPO, "tests", "scenarios", "cheesonomics", "basic_3p_pico-8p.txt")) as f:
        script = f.read()
    _, sim, seen = _states_over(script, "pico-8p")
    assert seen.state == sim.box.state_name() == "final"
    assert seen.result()["cheesonomics"]["money"] == sim.result()["cheesonomics"]["money"]
    _, sim, seen = _states_over(START + "produce P2 3\nserial state\n", "pico-8p")
    c = seen.result()["cheesonomics"]
    assert c["turn"] == sim.result()["cheesonomics"]["turn"] == "P3" and c["deck"] == 42


def _line_by_line(path, name):
    """Each line of a scenario run on the simulated box; after each, the
    box's screen, who rolls next and the campaign, as the box says them and
    as the log alone tells them (all the emulated chip's screen has)."""
    with open(os.path.join(REPO, "tests", "scenarios", path)) as f:
        script = f.read()
    sim = Sim(board(name))
    seen = Seen(sim.board, sim.elapsed_ms)
    sim.log.write = seen.line
    seen_states, differ = set(), []
    for n, text in enumerate(script.splitlines(), 1):
        run_script(sim, text + "\n")
        box, log = sim.result(), seen.result()
        said = (sim.box.state_name(), box.get("marked"), box.get("campaign"))
        told = (seen.state, log.get("marked"), log.get("campaign"))
        seen_states.add(seen.state)
        if said != told:
            differ.append((n, text, said, told))
    return seen_states, differ


def test_the_log_tells_the_tour_the_check_the_king_and_who_rolls():
    """The dice tour, the plate-card check, the King's screen, the marked
    player and the campaign's wins: the log alone tells them as the box does."""
    for path, name, screens in (("dice_tour.txt", "pico-4p", {"tour", "ready", "rolling"}),
                                ("full_game_plate_cards.txt", "pico-4p", {"check", "gameover"}),
                                ("marked_buzzer.txt", "pico-8p", {"ready", "grab"}),
                                ("king_campaign.txt", "pico-4p", {"king", "gameover", "check"})):
        states, differ = _line_by_line(path, name)
        assert not differ, (path, differ[:3])
        assert screens <= states, (path, states)


def test_the_log_tells_the_end_of_the_advanced_layout():
    """The scenario's `variant advanced` pages through the layout: after it
    the log says the first turn has begun (before, the screen stayed on the
    layout until the first action)."""
    states, differ = _line_by_line(os.path.join("cheesonomics", "advanced_3p_pico-8p.txt"), "pico-8p")
    assert not differ, differ[:3]
    assert {"turn", "final"} <= states


def test_an_advanced_game_cut_during_its_layout_resumes_on_the_layout_in_the_log_too():
    sim = Sim(board("pico-8p"))
    seen = Seen(sim.board, sim.elapsed_ms)
    sim.log.write = seen.line
    run_script(sim, "game cheesonomics\nplayers 3\nbuzz P1\nwait 400\nrollbutton\nwait 400\n")  # advanced: the layout
    assert sim.box.state_name() == seen.state == "layout"
    run_script(sim, "powercut\nwait 500\nrollbutton\nwait 600\n")                 # resumed where it was
    assert sim.box.state_name() == seen.state == "layout"
