"""The terminal view: what a player would see on the screen.

Pictures are recorded with Rich and read back cell by cell (character,
foreground and background colour), so these tests check the drawing a
player gets, not the view's internals.
"""
import io
import json
import os
import sys

import pytest
from rich.console import Console
from rich.text import Text

from cheesebox.board import load_board, read_board
from sim.iconart import icons, palette
from sim.keys import ESC, parse
from sim.scenario import Sim, run_script
from sim.view import DARK, BoxView, Game, play, snapshot
from sim.wire import WireEncoder

BOARDS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "boards")
ROUND = """players 3
dice yellow
roll cheese3 cheese1 cat
rollbutton
wait 1600
buzz P1
buzz P2
"""


def board(name="pico-4p", **chain_and_dice):
    """A board from boards/, optionally with every chain's order or every die's layout changed."""
    with open(os.path.join(BOARDS, name + ".json")) as f:
        spec = json.load(f)
    for c in spec["chains"]:
        c["order"] = chain_and_dice.get("order", c["order"])
    for d in spec["dice"]:
        d["layout"] = chain_and_dice.get("layout", d["layout"])
    return load_board(spec, name)


def headless(b, script=""):
    sim = Sim(b)
    run_script(sim, script)
    return sim


def screen(draw):
    """Rows of (char, fg, bg) cells of what `draw(console)` printed."""
    console = Console(record=True, width=120, file=io.StringIO())
    draw(console)
    rows = []
    for line in Text.from_ansi(console.export_text(styles=True)).split("\n"):
        row = []
        for i, ch in enumerate(line.plain):
            st = line.get_style_at_offset(console, i)
            fg = tuple(st.color.triplet) if st.color and st.color.triplet else None
            bg = tuple(st.bgcolor.triplet) if st.bgcolor and st.bgcolor.triplet else None
            row.append((ch, fg, bg))
        rows.append(row)
    return rows


def text_of(rows):
    return "\n".join("".join(c[0] for c in row) for row in rows)


def die_pixels(rows, d, name):
    """The 8x8 colours drawn under the label 'd name' (2 columns, half a line per LED;
    a long label goes on in a second line)."""
    label = "%d %s" % (d, name)
    for r, row in enumerate(rows):
        col = "".join(c[0] for c in row).find(label)
        if col >= 0:
            if rows[r + 1][col][0] != "\u2580":
                r += 1
            return [[rows[r + 1 + y // 2][col + 2 * x][1 if y % 2 == 0 else 2] for x in range(8)]
                    for y in range(8)]
    raise AssertionError("no die labelled %r on screen" % label)


def track_leds(rows, s):
    """Colours of station s's 7 score LEDs and its wheel LED."""
    for row in rows:
        line = "".join(c[0] for c in row)
        if line.startswith("[%d] P%d" % (s, s)):
            return [c[1] for c in row if c[0] in "\u25cf\u25c9"]
    raise AssertionError("no track for P%d on screen" % s)


def close(a, b):
    return a is not None and all(abs(x - y) <= 4 for x, y in zip(a, b))


def icon(name):
    colours = palette()
    return [[colours[ch] if ch != "." else DARK for ch in row.decode()] for row in icons()[name]]


def same_picture(got, want):
    return all(close(got[y][x], want[y][x]) for y in range(8) for x in range(8))


@pytest.mark.parametrize("layout", ["serpentine", "rows"])
def test_revealed_faces_are_drawn_on_their_dice(layout):
    sim = headless(board(layout=layout), ROUND)
    rows = screen(lambda c: snapshot(sim, c))
    assert same_picture(die_pixels(rows, 1, "yellow A"), icon("cheese3"))
    assert same_picture(die_pixels(rows, 2, "yellow B"), icon("cheese1"))
    assert same_picture(die_pixels(rows, 3, "yellow C"), icon("cat"))
    cheese = palette()["Y"]
    assert any(close(c, cheese) for line in die_pixels(rows, 1, "yellow A") for c in line)
    assert not any(close(c, cheese) for line in die_pixels(rows, 3, "yellow C") for c in line)
    # the orange dice are not in play: dark, but their outline is there
    assert all(c == DARK for line in die_pixels(rows, 4, "orange dog") for c in line)


def test_tracks_and_status_after_a_scored_round():
    sim = headless(board(), ROUND)
    rows = screen(lambda c: snapshot(sim, c))
    assert text_of(rows).strip().split("\n")[-2].startswith("check")
    run_script(sim, "rollbutton\nwait 3000")      # scored; the loss blink is over
    rows = screen(lambda c: snapshot(sim, c))
    lit = [sum(1 for c in track_leds(rows, s)[:7] if c != DARK) for s in (1, 2, 3, 4)]
    assert lit == [7, 7, 6, 0]
    assert all(close(c, (0, 170, 40)) for c in track_leds(rows, 3)[:6])   # points, card unflipped
    state, points = text_of(rows).strip().split("\n")[-2:]
    assert state.startswith("ready") and "rounds 1" in state and "marked P3" in state
    assert points.split(" \u00b7 ") == ["P1 7", "P2 7", "P3 6"]


def test_an_eliminated_player_glows_dim_red_not_off():
    sim = headless(board(), "players 3\ndice yellow\n" + "penalty P3\n" * 7 + "wait 700\n")   # after the flash
    leds = track_leds(screen(lambda c: snapshot(sim, c)), 3)
    # one LED at the far end, next to the wheel LED: never a single point's first LED
    r, g, b = leds[6]
    assert r >= 100 and g == b == 0
    assert leds[:6] == [DARK] * 6 and leds[7] == DARK


@pytest.mark.parametrize("order", ["GRB", "RGB", "BGR"])
def test_colour_order_is_decoded_from_the_wire(order):
    b = board(order=order)
    sim = Sim(b)
    red = bytes((255, 0, 0)) * b.chains[0].pixels
    sim.port.rgb[0] = red
    wire = WireEncoder(b).encode(0, red)
    r = order.index("R")
    assert wire[r] > 0 and all(wire[i] == 0 for i in range(3) if i != r)
    if order == "GRB":
        assert wire[0] == 0 and wire[2] == 0
    rows = screen(lambda c: c.print(BoxView(sim).render()))
    assert all(close(c, (255, 0, 0)) for line in die_pixels(rows, 1, "yellow A") for c in line)


def test_without_a_terminal_play_shows_the_demo(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert play(read_board(os.path.join(BOARDS, "pico-4p.json"))) == 0
    out = capsys.readouterr().out
    assert "needs a terminal" in out
    assert "gameover" in out and "winner P1" in out and "P2 0 out" in out


def test_without_a_terminal_electronic_plates_show_the_idle_box(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert play(read_board(os.path.join(BOARDS, "pico-8p.json"))) == 0
    out = capsys.readouterr().out
    assert "needs a terminal" in out and "demo" not in out
    assert out.strip().split("\n")[-1].startswith("join")


def keys(game, typed, ms=300):
    """Type keys into the game, the clock running `ms` after each."""
    for k in typed:
        assert game.key(k)
        game.sim.run_until(game.sim.now_us + ms * 1000)


def test_keys_join_choose_roll_and_penalise():
    game = Game(Sim(board()))
    keys(game, ["1", "2", "3", " "])
    assert game.sim.box.state_name() == "menu"
    keys(game, ["1", " "])
    r = game.sim.result()
    assert r["state"] == "ready" and r["dice"] == ["yellow A", "yellow B", "yellow C", "orange dog"]
    keys(game, ["p", "2", "p", "x", "9"])       # x cancels the second penalty; 9 is no buzzer here
    assert game.sim.result()["points"] == {"P1": 7, "P2": 6, "P3": 7}
    keys(game, [" "], ms=1700)
    assert game.sim.box.state_name() == "grab"
    assert game._changed() and not game._changed()    # nothing new: no redraw
    keys(game, ["3"], ms=0)
    assert game._changed()
    assert game.key(ESC) is False


def test_keys_place_electronic_plates_and_hold_roll():
    game = Game(Sim(board("pico-8p")))
    keys(game, ["1", "2", " ", " "])
    run_script(game.sim, "roll mouse2 cheese1 cat")     # nothing left: plate 0 is right
    keys(game, [" "], ms=1700)
    keys(game, ["w", "3", "q", "0", "1"])
    port = game.sim.port
    assert (port.answer_val[1], port.answer_seq[1]) == (3, 1)
    assert (port.answer_val[0], port.answer_seq[0]) == (0, 1)
    assert game.sim.box.state_name() == "ready"      # P1 grabbed: scored at once
    assert game.sim.result()["points"] == {"P1": 7, "P2": 6}
    keys(game, ["L"], ms=2500)
    assert game.sim.box.state_name() == "stop?"      # a long ROLL in a game asks to stop it
    keys(game, ["1"])                               # no: the game goes on
    assert game.sim.box.state_name() == "ready"
    keys(game, [" "], ms=100)
    assert game.sim.box.state_name() == "rolling"
    game.sim.run_until(game.sim.now_us + 1700000)
    assert game.sim.box.state_name() == "grab"


def test_terminal_keys_are_parsed():
    assert parse("12 ") == ["1", "2", " "]
    assert parse("\x1b") == [ESC]
    assert parse("\x1b[A1\x1bOP2\x1b[15~3") == ["1", "2", "3"]


def test_a_placed_plate_is_drawn_without_waiting_for_a_buzzer():
    # pico-8p: a key placed is reported by the port and the box takes it at
    # once (the simulator wakes the box for it): the screen shows it
    game = Game(Sim(board("pico-8p")))
    keys(game, ["1", "2", " ", " "])
    keys(game, [" "], ms=1700)
    assert game.sim.box.state_name() == "grab"
    game._changed()
    keys(game, ["q", "5"], ms=30)
    assert game.sim.box.plate[0] == 5
    assert game._changed()
    rows = screen(lambda c: c.print(game.view.render()))
    assert "plate 5" in text_of(rows)
    # a dial board shows where each dial stands
    game = Game(Sim(board("pico2-8p")))
    keys(game, ["1", "2", " ", " "])
    keys(game, ["q", "4"], ms=30)
    assert "dial 4" in text_of(screen(lambda c: c.print(game.view.render())))


def test_status_counts_campaign_games_and_shows_the_tally():
    game7 = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 100\n" * 7
    sim = headless(board(), "players 2\ndice yellow\n" + game7 + "holdroll 2500\nplayers 2\ndice campaign\n" + game7)
    assert sim.box.games == 2                       # since power-up
    text = text_of(screen(lambda c: snapshot(sim, c)))
    assert "campaign game 1" in text and "game 2" not in text
    assert "wins P1 1 \u00b7" not in text and "wins P1 1 P2 0" in text


def test_join_status_says_who_has_joined():
    sim = headless(board(), "buzz P1\nbuzz P3\n")
    assert "joined P1 P3" in text_of(screen(lambda c: snapshot(sim, c)))
    sim = headless(board(), "")
    assert "joined nobody yet" in text_of(screen(lambda c: snapshot(sim, c)))


def test_marked_player_is_shown_only_while_they_may_roll():
    sim = headless(board(), ROUND + "rollbutton\nwait 2000\n")
    assert "marked P3" in text_of(screen(lambda c: snapshot(sim, c)))
    run_script(sim, "rollbutton\nwait 200")
    assert "marked" not in text_of(screen(lambda c: snapshot(sim, c)))


def test_help_fits_an_80x24_terminal():
    # 8 stations, electronic plates, a campaign: the tallest picture there is
    sim = headless(board("pico-8p"), "players 8\ndice campaign\nrollbutton\nwait 1600\n")
    game = Game(sim)
    game.pending = 2
    for w, h in ((80, 24), (100, 40)):
        console = Console(record=True, width=w, height=h, file=io.StringIO())
        console.print(game.frame(w, h))
        lines = console.export_text().rstrip("\n").split("\n")
        assert len(lines) <= h, (w, h, len(lines))
        text = "\n".join(lines)
        assert "Esc" in text and "space" in text and "q-i 0-7" in text
        assert "P3 selected" in text
        assert all(len(x) <= w for x in lines)
    # a large terminal still gets the help panel beside the box
    console = Console(record=True, width=140, height=50, file=io.StringIO())
    console.print(game.frame(140, 50))
    assert "buzzer of P1" in console.export_text()


def test_hints_tell_the_truth():
    from sim.view import hint
    sim = headless(board(), "players 3\ndice yellow\n")
    assert "dice tour" in hint(sim)
    run_script(sim, "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nrollbutton\n")
    assert "dice tour" not in hint(sim)
    assert "P3's buzzer too, in a moment" in hint(sim)        # the 1 s guard
    run_script(sim, "wait 1000\n")
    assert "or P3's buzzer" in hint(sim)
    run_script(sim, "rollbutton\nwait 3000\nbuzz P1\nbuzz P3\nrollbutton\nwait 1000\nbuzz P2\n")
    assert sim.box.state_name() == "rolling"
    # dials are turned, keys pressed
    sim = headless(board("pico2-8p"), "players 2\ndice yellow\nrollbutton\nwait 1600\n")
    assert "turn your dial" in hint(sim)


def test_every_session_rolls_fresh_dice_and_prints_the_seed(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    seeds = []
    for _ in range(2):
        out = io.StringIO()
        play(read_board(os.path.join(BOARDS, "pico-8p.json")), console=Console(file=out, width=120))
        first = out.getvalue().split("\n")[0]
        assert first.startswith("seed ") and "--seed" in first
        seeds.append(int(first.split()[1]))
    assert seeds[0] != seeds[1]
    out = io.StringIO()
    play(read_board(os.path.join(BOARDS, "pico-8p.json")), seed=42, console=Console(file=out, width=120))
    assert out.getvalue().startswith("seed 42 ")


def test_cheesonomics_on_the_box_in_the_terminal():
    """The market on the dice (country names as labels), whose turn, money, and a
    hint naming what each value means; it still fits 80x24."""
    from sim.view import hint
    sim = headless(board("pico-8p"), "game cheesonomics\n")
    assert "game cheesonomics" in text_of(screen(lambda c: snapshot(sim, c)))
    run_script(sim, "players 3\nvariant basic\nproduce P2 3\n")
    text = text_of(screen(lambda c: snapshot(sim, c)))
    assert "1 France" in text and "5 Greece" in text and "6 P3's turn" in text
    assert "P3 plays" in text and "deck 42" in text and "P1 0 · P2 0 · P3 0" in text
    h = hint(sim)
    assert h.startswith("P3, action: 0 pass, 1 collect animal, 2 collect place, 3 produce, 4 sell: "
                        "e + digits (a key a value)")
    run_script(sim, "produce P3 2\nproduce P1 1\nanswer P2 4\nanswer P2 1\n")
    assert hint(sim).startswith("P2, country: 1 France, 2 Italy")
    game = Game(sim)
    console = Console(record=True, width=80, height=24, file=io.StringIO())
    console.print(game.frame(80, 24))
    lines = console.export_text().rstrip("\n").split("\n")
    assert len(lines) <= 24 and all(len(x) <= 80 for x in lines)


def _shown(game, w=140, h=50):
    """The help's text as a w x h terminal shows it (the panel beside the box,
    or the lines under it on a small one), wrapped lines joined again."""
    console = Console(record=True, width=w, height=h, file=io.StringIO())
    console.print(game.help() if w >= 112 else game.frame(w, h))
    return " ".join(console.export_text().replace("\u2502", " ").split())


def test_the_view_says_why_a_press_did_nothing_or_cost_a_point():
    # a false start: a buzzer while the dice tumble
    game = Game(Sim(board()))
    keys(game, ["1", "2", " ", " ", " "])
    assert game.sim.box.state_name() == "rolling"
    keys(game, ["2"])
    assert "why: P2: false start" in _shown(game)
    assert "why: P2: false start" in _shown(game, 80, 24)     # the small terminal says it too
    # a refused grab (answer keys: no key before the buzzer) costs a point
    game = Game(Sim(board("pico-8p")))
    keys(game, ["1", "2", " ", " ", " "], ms=300)
    keys(game, [], ms=0)
    game.sim.run_until(game.sim.now_us + 1700000)
    keys(game, ["2"])
    assert "why: P2: grab refused (no key before the buzzer): -1 point, 6 left" in _shown(game)


def test_the_view_says_why_roll_did_not_start_a_game():
    game = Game(Sim(board()))
    keys(game, ["1", " "])
    assert game.sim.box.state_name() == "join"
    assert "why: ROLL: cheese master needs 2 players, 1 joined" in _shown(game)
    # pico-4p (plate cards) cannot host Cheesonomics: said when it is offered, and at ROLL
    keys(game, ["L"], ms=2600)
    assert game.sim.box.module.NAME == "cheesonomics"
    assert "why: cheesonomics cannot start on this board" in _shown(game)
    keys(game, [" "])                       # one has joined: the board is the reason, not the count
    assert "why: ROLL: cheesonomics cannot start on this board" in _shown(game)
    keys(game, ["2", " "])
    assert game.sim.box.state_name() == "join"
    assert "why: box: cheesonomics needs answer keys or dials" in _shown(game)


def test_the_view_says_why_for_a_tie_replay_and_a_locked_type():
    game = Game(Sim(board("pico-8p")))
    setup = "players 2\ndice yellow\n" + "penalty P1\n" * 5 + "penalty P2\n" * 5
    run_script(game.sim, setup + "rollbutton\nroll cheese1 cheese2 cheese3\nwait 3000\npenalty P2\n"
               "answer P1 1\nbuzz P1\nwait 1200\n")
    assert game.sim.result()["replays"] == 1
    assert "why: tie replay" in _shown(game)
    game = Game(Sim(board("pico-8p")))
    # P3 keys 1 (collect by animal), then 2, the goat P2's knife locks: refused at that key
    run_script(game.sim, "game cheesonomics\nplayers 3\nvariant basic\ncollect P2 goat\n"
               "answer P3 1\nwait 100\nanswer P3 2\nwait 100\n")
    assert "why: P3: not allowed: goat is locked by P2's knife" in _shown(game)


def test_small_terminals_keep_the_legend_on_one_line_and_the_whole_hint():
    from sim.view import hint
    for name, script, keys in (("pico-8p", "game cheesonomics\nplayers 3\nvariant basic\n", "1-3"),
                               ("pico2-8p", "game cheesonomics\nplayers 3\nvariant advanced\n", "1-3"),
                               ("pico-8p", "players 8\ndice campaign\nrollbutton\nwait 1600\n", "1-8"),
                               ("pico-8p", "", "1-8")):             # joining: every station may join
        game = Game(headless(board(name), script))
        for w in (80, 100):
            console = Console(record=True, width=w, height=24, file=io.StringIO())
            console.print(game.frame(w, 24))
            lines = console.export_text().rstrip("\n").split("\n")
            assert len(lines) <= 24 and all(len(x) <= w for x in lines)
            legend = [x for x in lines if x.startswith(keys + " buzzer")]     # the players' buzzers only
            assert len(legend) == 1 and legend[0].endswith("Esc quit"), lines[-4:]   # not wrapped
            shown = " ".join(" ".join(lines[lines.index(legend[0]) + 1:]).split())
            assert " ".join(hint(game.sim).split()) in shown, (w, shown)           # not cut


def test_the_menu_hint_says_it_opens_on_the_last_choice():
    from sim.view import hint
    # a game on yellow+2 ends (P2's penalties), the table joins again: the menu
    sim = headless(board(), "players 2\ndice yellow+2\n" + "penalty P2\n" * 7 + "holdroll 2500\nplayers 2\n")
    assert sim.box.state_name() == "menu"
    assert hint(sim).startswith("dice: yellow+2 (the menu opens on the last choice)")


def test_the_campaign_game_over_hint_gives_each_key_one_meaning():
    from sim.view import hint
    sim = headless(board(), "players 2\ndice campaign\n" + "penalty P2\n" * 7)
    assert sim.box.state_name() == "gameover" and sim.result()["campaign"]["game"] == 1
    h = hint(sim)
    assert h.count("L ") == 1 and "end the campaign" in h and "back to joining" not in h
    assert "ROLL: the campaign's next game" in h


def _lit(pixels):
    return [c for line in pixels for c in line if c != DARK]


def test_the_dice_labels_say_what_the_dice_show_for_the_picked_game():
    # joining with Cheesonomics picked: five coins in the countries' colours, how many joined on die 6
    sim = headless(board("pico-8p"), "game cheesonomics\n")
    rows = screen(lambda c: snapshot(sim, c))
    text = text_of(rows)
    assert "yellow" not in text and "orange" not in text
    assert "1 France" in text and "5 Greece" in text and "6 joined" in text
    france, italy = _lit(die_pixels(rows, 1, "France")), _lit(die_pixels(rows, 2, "Italy"))
    assert france and all(b > r and b > g for r, g, b in france)     # a blue coin
    assert italy and all(g > r and g > b for r, g, b in italy)       # a green one
    run_script(sim, "game cheese master\n")                          # and back: Cheese Master's dice
    text = text_of(screen(lambda c: snapshot(sim, c)))
    assert "1 yellow A" in text and "6 orange king" in text and "France" not in text
    # a board that cannot host it: the cross on die 1 is labelled as the problem it is
    sim = headless(board(), "game cheesonomics\nplayers 3\n")
    assert sim.box.display.shown[0] == "cross"
    assert "1 problem" in text_of(screen(lambda c: snapshot(sim, c)))
    # the offer to resume: a tick (ROLL) and a plus (hold ROLL), in either game
    for script in ("game cheesonomics\nplayers 3\nvariant basic\nproduce P2 3\npowercut\n",
                   "players 2\ndice yellow\npowercut\n"):
        sim = headless(board("pico-8p"), script)
        assert sim.box.state_name() == "resume"
        text = text_of(screen(lambda c: snapshot(sim, c)))
        assert "1 ROLL: resume" in text and "2 L: new game" in text and "France" not in text
        assert "yellow" not in text


def _legend(game, w=80):
    """The one-line legend of a w x 24 terminal."""
    console = Console(record=True, width=w, height=24, file=io.StringIO())
    console.print(game.frame(w, 24))
    return [x for x in console.export_text().split("\n") if x.startswith("1-")][0]


def test_the_legend_names_only_what_the_keys_do_in_this_game_and_screen():
    from sim.view import hint
    game = Game(headless(board("pico-8p"), "game cheesonomics\nplayers 3\nvariant basic\n"))
    legend, wide = _legend(game), _shown(game)
    assert "penalty" not in legend and "penalty" not in wide     # no penalties in Cheesonomics
    assert "p 1-8" not in legend and "undo" not in legend          # nothing to undo yet
    assert "undo" not in wide and "undo" not in hint(game.sim)
    assert "q-i 0-7 key a value" in legend and "P2's keys: a value a key" in wide
    run_script(game.sim, "produce P2 3\n")
    assert "p 2 undo" in _legend(game) and "P2 undoes their last action" in _shown(game)
    assert "p 2: P2 undoes their last action" in hint(game.sim)
    run_script(game.sim, "answer P3 1\n")                          # the next player has keyed: too late
    assert "undo" not in _legend(game) and "undo" not in hint(game.sim)
    # Cheese Master: a penalty only in a game; the plates only while a round is played
    game = Game(headless(board("pico-8p"), "players 3\n"))
    legend = _legend(game)
    assert game.sim.box.state_name() == "menu"
    assert "penalty" not in legend and "p 1-8" not in legend and "plate" not in legend
    run_script(game.sim, "dice yellow\n")
    assert "p 1-3 penalty" in _legend(game) and "q-i 0-7 plate key" in _legend(game)   # the players'
    assert "table penalty" in _shown(game)
    # joining: ROLL held + buzzer 1 or 2 (brightness, volume); the plates do nothing there
    game = Game(headless(board("pico-8p")))
    legend = _legend(game)
    assert "p 1/2 light/sound" in legend and "q-i" not in legend and "penalty" not in legend
    assert "1 brightness, 2 volume" in _shown(game)


def test_a_refusals_tune_shows_at_every_width():
    # P3 keys 1 (collect by animal), then 2, the goat P2's knife locks: the low buzz plays
    game = Game(headless(board("pico-8p"), "game cheesonomics\nplayers 3\nvariant basic\n"
                         "collect P2 goat\nanswer P3 1\nwait 100\nanswer P3 2\nwait 20\n"))
    assert game.sim.box.tunes.tune is not None
    for w, h in ((140, 50), (111, 50), (100, 24), (80, 24), (140, 24)):
        console = Console(record=True, width=w, height=h, file=io.StringIO())
        console.print(game.frame(w, h))
        text = console.export_text()
        lines = text.rstrip("\n").split("\n")
        assert "\u266a refused" in text, (w, h)
        assert len(lines) <= h and all(len(x) <= w for x in lines), (w, h)
    # the 8-station Cheese Master round, the tallest picture: the sign still fits in 80x24
    game = Game(headless(board("pico-8p"), "players 8\ndice campaign\nrollbutton\nwait 1600\n"
                         "buzz P1\nwait 10\n"))                      # a grab with no key: refused
    assert game.sim.box.tunes.tune is not None
    console = Console(record=True, width=80, height=24, file=io.StringIO())
    console.print(game.frame(80, 24))
    assert "\u266a refused" in console.export_text()
    run_script(game.sim, "wait 1000\n")                              # the tune is over: no sign
    console = Console(record=True, width=80, height=24, file=io.StringIO())
    console.print(game.frame(80, 24))
    assert "\u266a" not in console.export_text()


def test_back_to_cheese_master_on_pico_4p_the_cross_and_its_reason_go():
    game = Game(Sim(board()))
    keys(game, ["L"], ms=2600)                          # a long ROLL: Cheesonomics offered
    keys(game, ["1", "2", " "])                         # ROLL: refused, a red cross on die 1
    assert game.sim.box.display.shown[0] == "cross"
    assert "why: box: cheesonomics needs answer keys or dials" in _shown(game)
    assert "1 problem" in text_of(screen(lambda c: snapshot(game.sim, c)))
    keys(game, ["L"], ms=2600)                          # back to Cheese Master
    assert game.sim.box.module.NAME == "cheese master"
    assert game.sim.box.display.shown[0] != "cross"
    assert "cheesonomics" not in _shown(game) and "cheesonomics" not in _shown(game, 80, 24)
    text = text_of(screen(lambda c: snapshot(game.sim, c)))
    assert "1 yellow A" in text and "problem" not in text


def test_a_keyed_value_is_said_in_the_games_words_and_the_legend_lists_who_plays():
    """Cheesonomics: a value keyed is a value ("P3 keys 1"), not a plate;
    Cheese Master's is a plate. In a game the legend lists the buzzers of the
    stations that play, not all eight."""
    game = Game(headless(board("pico-8p"), "game cheesonomics\nplayers 3\nvariant basic\n"))
    game.key("e")
    game.key("1")
    assert game.said == "P3 keys 1"
    wide = _shown(game)
    assert "buzzer of P3" in wide and "buzzer of P4" not in wide and "buzzer of P8" not in wide
    game = Game(headless(board("pico-8p"), "players 3\ndice yellow\n"))
    game.key("w")
    game.key("5")
    assert game.said == "P2 places plate 5"
    game = Game(headless(board("pico-8p")))             # joining: every station may join
    assert "buzzer of P8" in _shown(game)


def test_every_tune_is_named_the_games_own_too():
    """The tune line names a game's own tunes as the shell's: a false start's
    falling pair, not its pitch in Hz (Cheese Master's tunes live in its package)."""
    game = Game(headless(board("pico-4p"), "players 2\ndice yellow\nrollbutton\nwait 200\nbuzz P1\nwait 10\n"))
    assert game.sim.box.tunes.tune is not None
    assert game.tune_text() == "\u266a false start", game.tune_text()
