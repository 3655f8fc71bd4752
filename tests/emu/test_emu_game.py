"""A whole game on the chip and in the simulator: one scenario file, two
machines, the same event log and the same LED frames."""
import pytest

from emu.differential import differential, scenario_path


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
