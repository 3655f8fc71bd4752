# The final screen of Cheesonomics does the paper game's final count for the
# table: line by line, each player's money from sales, each bonus they won
# (the unsold pieces, the most sold of an animal: which and how much), the
# total, then the winners. What the dice show is read back as the table
# reads it (die 1 who, die 2 which line, dice 3-4 the amount, die 6 a crown).
# Runs on CPython and MicroPython (tests/mp_runner.py).
import cheesonomics.game  # noqa: F401
from flowkit import START_CHEESONOMICS as START
from flowkit import board, logged, track
from sim.scenario import Sim, run_script

# seed 1: P2 plays first. P2 sells 2 cows, P3 2 goats and 1 sheep, P1 1 cow;
# P1 and P2 keep a piece unsold. Sales 6 / 8 / 10; P2 wins the cows' bonus
# (2: P1 sold 1), P3 the goats' (2) and the sheep's (1).
_GAME = (START + "produce P2 3\nproduce P3 3\nproduce P1 2\nsell P2 cow Italy 2\n"
         "sell P3 goat France 2\nsell P1 cow Italy 1\n")
_END = "pass P2\nsell P3 sheep Italy 1\npass P1\n"
_CYCLE = 2000


def _over(name="pico-8p"):
    lines = []
    sim = Sim(board(name), seed=1, log=lines.append)
    run_script(sim, _GAME)
    sim.box.game.bank.deck = 0                  # the deck runs out: the final turns
    sim.box.game.saved_bank = None
    run_script(sim, _END)
    assert sim.box.state_name() == "final"
    return sim, lines


def _amount(a, b):
    """Dice 3-4's money keys ("m  1", "m 8.1") as a number."""
    text = (a[1:3] + b[1:3]).strip()
    return int(text) if text else None


def _read(sim):
    """The line the dice show, as words: (who, line, amount, crown)."""
    shown = sim.box.display.shown
    if shown[5] == "crown" and not shown[1].startswith("f"):
        return ("winners", [int(k[1:]) + 1 for k in shown[:5] if k.startswith("P")])
    who = "P%d" % (int(shown[0][1:]) + 1)
    assert shown[1].startswith("f") and shown[4] == "blank", shown
    return (who, shown[1][1:], _amount(shown[2], shown[3]), shown[5] == "crown")


def _cycle(sim):
    """Every line of one cycle of the count, from the line on the dice now."""
    out = []
    first = _read(sim)
    while True:
        out.append(_read(sim))
        run_script(sim, "wait %d\n" % _CYCLE)
        if _read(sim) == first:
            return out


def test_the_final_screen_shows_the_paper_games_final_count():
    sim, lines = _over()
    final = logged(lines, "final")[0]
    assert final["money"] == {"P1": 7, "P2": 11, "P3": 13} and final["winners"] == ["P3"]
    count = _cycle(sim)
    assert count == [
        ("P1", "S", 6, False), ("P1", "U", 1, False), ("P1", "=", 7, False),
        ("P2", "S", 8, False), ("P2", "U", 1, False), ("P2", "A1", 2, False), ("P2", "=", 11, False),
        ("P3", "S", 10, False), ("P3", "A2", 2, False), ("P3", "A3", 1, False), ("P3", "=", 13, True),
        ("winners", [3]),
    ], count


def test_a_tie_shows_every_winner_and_a_crown_on_each_total():
    lines = []
    sim = Sim(board("pico-8p"), seed=1, log=lines.append)
    run_script(sim, START)
    sim.box.game.bank.deck = 0
    run_script(sim, "pass P2\npass P3\npass P1\n")  # nobody earned: all tied on 0
    count = _cycle(sim)
    assert count == [("P1", "S", 0, False), ("P1", "=", 0, True), ("P2", "S", 0, False),
                     ("P2", "=", 0, True), ("P3", "S", 0, False), ("P3", "=", 0, True),
                     ("winners", [1, 2, 3])], count


def test_a_buzzer_on_the_final_screen_shows_that_players_count():
    sim, lines = _over()
    run_script(sim, "buzz P2\n")
    assert _read(sim) == ("P2", "S", 8, False)
    run_script(sim, "wait %d\n" % _CYCLE)
    assert _read(sim) == ("P2", "U", 1, False)
    assert track(sim, 2)[2] != (0, 0, 0)        # the winner's wheel LED lit meanwhile


def test_the_count_comes_back_after_a_power_cut():
    sim, lines = _over()
    run_script(sim, "powercut\n")
    assert sim.box.state_name() == "final"
    assert _read(sim) == ("P1", "S", 6, False)     # from the first line again
