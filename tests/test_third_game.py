"""A third game, added the way a new game is: its package (tests/lamps/,
nothing in firmware/ names it) and one line in the games table, here added
at run time. It is picked at joining, played, saved and resumed after a
power cut, shown by the simulator's view, and keeps the contract
(cheesebox/game.py), as the two real games do."""
import os

import pytest

from cheesebox import game as contract
from cheesebox import games
from flowkit import board, track
from sim import games as host_games
from sim.scenario import Sim, run_script
from sim.view import DARK, snapshot

LAMPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lamps", "game.py")


@pytest.fixture
def lamps(monkeypatch):
    monkeypatch.setattr(games, "GAMES", games.GAMES + (("lamps", "lamps.game", False),))
    return games.index("lamps")


def test_it_keeps_the_contract_and_reaches_the_box_only_through_it(lamps):
    from test_architecture import box_members, shell_imports
    mod = games.load(lamps)
    assert contract.check_module(mod) == [] and mod.NAME == "lamps"
    assert contract.check_game(mod.new(Sim(board("pico-8p")).box, [0, 1])) == []
    assert sorted(set(box_members(LAMPS)) - set(contract.BOX)) == []
    assert {w for _, w in shell_imports(LAMPS)} <= set(contract.SHELL) | set(contract.SHELL_FUNCTIONS)
    # no host module of its own: the simulator shows the box's own words
    assert host_games.named("lamps") is host_games.plain


def _play(text):
    sim = Sim(board("pico-8p"))
    run_script(sim, text)
    return sim


def test_a_table_picks_it_with_long_rolls_and_plays_it_to_the_end(lamps):
    sim = _play("game lamps\nplayers 3\nbuzz P2\nbuzz P2\nbuzz P1\n")
    box = sim.box
    assert box.module.NAME == "lamps" and box.state_name() == "play"
    assert list(box.game.lit) == [1, 2, 0]
    # what the table sees on the wires: P1's track one LED, P2's two, P3's none,
    # each in the player's colour; no wheel LED lit
    sim.box.step()
    seen = [track(sim, s) for s in range(3)]
    assert [t[0] for t in seen] == [1, 2, 0] and seen[0][1] != seen[1][1]
    assert all(t[2] == (0, 0, 0) for t in seen)
    run_script(sim, "buzz P2\n" * 5)
    assert box.state_name() == "over" and box.game.winner == 1
    sim.box.step()
    assert track(sim, 1)[0] == 7 and track(sim, 1)[2] != (0, 0, 0)   # the winner's wheel LED
    run_script(sim, "holdroll 2500\n")
    assert box.state_name() == "join"


def test_a_power_cut_mid_game_resumes_it(lamps):
    sim = _play("game lamps\nplayers 2\nbuzz P1\nbuzz P1\nbuzz P2\npowercut\n")
    box = sim.box
    assert box.state_name() == "resume"
    run_script(sim, "rollbutton\n")
    assert sim.box.module.NAME == "lamps" and list(sim.box.game.lit) == [2, 1]


def test_the_simulators_view_shows_it(lamps):
    """The view draws the wires: P3's two lamps lit, the others dark, and the
    box's state in the status line (no host module: no words of the game's)."""
    from test_view import screen, text_of, track_leds
    sim = _play("game lamps\nplayers 3\nbuzz P3\nbuzz P3\n")
    rows = screen(lambda c: snapshot(sim, c))
    lit = [sum(1 for c in track_leds(rows, s)[:7] if c != DARK) for s in (1, 2, 3)]
    assert lit == [0, 0, 2]
    assert text_of(rows).strip().split("\n")[-1].startswith("play")


def _die_rgb(box, d):
    """{(x, y): (r, g, b)} of die d as its buffer holds it (full scale)."""
    from cheesebox.display import wire_index
    view = box.display.views[d]
    layout = box.board.dice[d][2]
    return {(x, y): tuple(view[wire_index(layout, x, y) * 3:wire_index(layout, x, y) * 3 + 3])
            for y in range(8) for x in range(8)}


def test_its_own_icon_set_comes_through_the_contract_and_goes_with_it(lamps):
    """The lamp is in no firmware file: the display draws it, in its own
    colour, because the game's module names its art (ICONS); picking the
    next game drops it, and Cheese Master's faces come with Cheese Master."""
    from cheesebox import icons as shell
    from lamps import icons as art
    sim = _play("game lamps\n")
    box = sim.box
    colours = dict(shell.PALETTE, **art.PALETTE)
    want = {(x, y): colours[chr(art.ICONS["lamp"][y][x])] for y in range(8) for x in range(8)}
    assert _die_rgb(box, 0) == want and art.PALETTE["L"] in want.values()
    assert "lamp" not in shell.ICONS and "cheese1" not in shell.ICONS
    run_script(sim, "holdroll 2500\n")          # the next game: Cheese Master again
    assert box.module.NAME == "cheese master"
    with pytest.raises(KeyError):
        box.display.die(0, "lamp")
    box.display.die(0, "cheese1")               # its faces are its own set's
    assert _die_rgb(box, 0)[(6, 1)] == colours["Y"]
