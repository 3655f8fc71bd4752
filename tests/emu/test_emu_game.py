"""A whole game on the chip and in the simulator: one scenario file, two
machines, the same event log and the same LED frames. On the Pico 2, Cheese
Master with answer dials, and a dial being turned locks where it stood when
the buzzer went down."""
import pytest

from emu.differential import differential, scenario_path
from emu.table import MS, EmuTable
from tests.emu.test_emu_power import two_players_in_a_game


@pytest.mark.parametrize("board,scenario", [("pico-4p", "game_4p.txt"), ("pico-8p", "game_8p.txt")])
def test_whole_game_same_on_the_chip_and_in_the_simulator(image, board, scenario):
    r = differential(board, image(board), open(scenario_path(scenario)).read())
    assert r["moves_same"], "the fingers changed with the chip's dice"
    assert r["pico"] == r["sim"]
    kinds = [e["ev"] for e in r["pico"]]
    assert "winner" in kinds and kinds.count("score") >= 4
    # the final LED frames: every chain the simulator's frame, all at one brightness
    common = set.intersection(*r["brightness"])
    assert common, r["brightness"]


# -- the Pico 2: Cheese Master with answer dials ---------------------------------------
@pytest.mark.rp2350
def test_a_whole_game_with_dials_same_on_the_chip_and_in_the_simulator(image):
    """Three players to a winner: three rounds, the dials turned between
    rounds (and one with the faces up), P3 out in round 2 and the game going
    on with one wheel, table penalties; the same event log and final LED
    frames on the emulated Pico 2 as in the simulator, with the chip's dice."""
    with open(scenario_path("game_8p_dials.txt"), encoding="utf-8") as f:
        text = f.read()
    r = differential("pico2-8p", image("pico2-8p"), text)
    assert r["moves_same"], "the fingers changed with the chip's dice"
    assert r["pico"] == r["sim"]
    ev = r["pico"]
    # each grab locked the plate its dial stood at when the buzzer went down
    grabs = [(e["p"], e["plate"]) for e in ev if e["ev"] == "grab"]
    assert grabs == [("P1", 3), ("P2", 5), ("P2", 2), ("P1", 6), ("P2", 4)], grabs
    scores = [e for e in ev if e["ev"] == "score"]
    assert [s["round"] for s in scores] == [1, 2, 3] and all(s["result"] == "scored" for s in scores)
    assert [s["out"] for s in scores] == [[], ["P3"], ["P3"]], scores     # out, and the game went on
    assert scores[2]["lost"]["P1"] == 1 and "P3" not in scores[2]["lost"]
    won = [e for e in ev if e["ev"] == "winner"]
    assert len(won) == 1 and won[0]["p"] in ("P1", "P2") and won[0]["out"][0] == "P3", won
    # the penalties given after the game's end did nothing, and said so
    after = ev[ev.index(won[0]) + 1:]
    assert all(e["ev"] == "not_allowed" and e["why"] == "no penalty outside a game" for e in after), after
    common = set.intersection(*r["brightness"])
    assert common, r["brightness"]


@pytest.mark.rp2350
def test_a_dial_turned_while_the_buzzer_goes_down_locks_where_it_stood(image):
    """P2 turns the dial slowly from 0 to 7 (28 ms a position, passing every
    contact, bridging two at each step) and buzzes while it stands at 4."""
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        two_players_in_a_game(t)
        n = len(t.events)
        t.press("roll")
        t.wait_event("faces", 3000, since=n)
        t.run(100)
        t0 = t.pico.nanos + MS
        t.dial(1, 7, at_ns=t0, turn_ms=7 * 28)
        # position 4 alone is touched from 3.65 to 4.35 positions: 102-122 ms
        t.press_at(1, t0 + 116 * MS)
        grab = t.wait_event("grab", 1000, since=n)
        assert grab["p"] == "P2" and grab["plate"] == 4, grab
        t.run(150)
        assert t.pico.dials()["positions"][1] == 7
