"""Whole 3-player Cheesonomics games keyed in on pico-8p through the scenario
language (tests/scenarios/cheesonomics/, written by sim/cheesonomics/keycount.py
from a bot game on the full rules engine), animations and tunes on: every
action takes the inputs the keying promises (docs/cheesonomics-box.md) and
the box ends with the engine's money, having refused nothing."""
import json
import os

from sim.cheesonomics.keycount import board_of, count_lines, _advanced
from sim.scenario import Sim

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = os.path.join(REPO, "tests", "scenarios", "cheesonomics")


def _run(name, seed, board="pico-8p"):
    with open(os.path.join(GAMES, name)) as f:
        text = f.read().splitlines()
    _advanced[0] = "variant advanced" in text
    log = []
    sim = Sim(board_of(board), seed=seed, log=log.append)
    counts = count_lines(sim, text)
    evs = [json.loads(x) for x in log]
    return counts, sim, evs


def test_a_basic_game_one_buzzer_press_an_action():
    counts, sim, evs = _run("basic_3p_pico-8p.txt", 1)
    assert set(counts["collect"]) == {3} and set(counts["produce"]) == {3}
    assert set(counts["sale (basic)"]) == {5}
    assert [e for e in evs if e["ev"] == "not_allowed"] == []
    assert sim.box.state_name() == "final"
    final = [e for e in evs if e["ev"] == "final"][0]
    assert final["money"] == {"P1": 121, "P2": 94, "P3": 138}   # the engine's (keycount checks it)


def test_an_advanced_game_with_forbids_and_exchanges_by_what_is_printed():
    counts, sim, evs = _run("advanced_3p_pico-8p.txt", 2)
    assert set(counts["sale (advanced)"]) == {7} and set(counts["sale with exchange"]) == {9}
    assert [e for e in evs if e["ev"] == "not_allowed"] == []
    sales = [e for e in evs if e["ev"] == "action" and e.get("exchange")]
    assert sales and all("|" in e["exchange"] and "|" in e["laid"] for e in sales)
    final = [e for e in evs if e["ev"] == "final"][0]
    assert final["money"] == {"P1": 105, "P2": 92, "P3": 105}


def test_the_same_game_dialled_takes_a_sale_in_three_presses():
    # pico2-8p: a sale's pieces come with the action (4-6: sell 1-3), so a
    # basic sale is 3 presses and at most 3 turns; the game took 169 inputs
    # when a dialled sale was 4 presses (the pieces a step of their own)
    counts, sim, evs = _run("basic_3p_pico-8p.txt", 1, board="pico2-8p")
    assert max(counts["sale (basic)"]) <= 6 and set(counts["produce"]) <= {2, 3, 4}
    assert sum(sum(v) for v in counts.values()) < 169
    assert [e for e in evs if e["ev"] == "not_allowed"] == []
    final = [e for e in evs if e["ev"] == "final"][-1]
    assert final["money"] == {"P1": 121, "P2": 94, "P3": 138}
