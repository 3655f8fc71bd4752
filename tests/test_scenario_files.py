"""The readable scenario files in tests/scenarios/: each plays a table situation
(rulebook examples, box rulings) and must end with the JSON fields given here.

Some run through the command line (python -m sim --json) as a user would, the
rest in-process through run_script (faster, and lets a test look inside).
"""
import json
import os
import subprocess
import sys

import pytest

from cheesemaster import flow as CM
from cheesebox.board import read_board
from sim.scenario import Sim, run_line, run_script
from sim.scenario import match_of

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCEN = os.path.join(REPO, "tests", "scenarios")

# file -> (board, expected fields of the final --json object)
EXPECTED = {
    "anna_wrong_answer": ("pico-8p", {
        "points": {"P1": 5, "P2": 7, "P3": 6}, "rounds": 1, "eliminated": [], "winner": None,
        "cheese_left": 2, "marked": "P3", "state": "ready", "replays": 0}),
    "andrey_flipped": ("pico-4p", {
        "points": {"P1": 2, "P2": 6, "P3": 6}, "rounds": 3, "eliminated": [], "winner": None,
        "marked": "P2", "state": "ready"}),
    "final_tie_replay": ("pico-8p", {
        "points": {"P1": 2, "P2": 0}, "rounds": 4, "replays": 1, "eliminated": ["P2"],
        "winner": "P1", "state": "gameover", "marked": None}),
    "full_game_plate_cards": ("pico-4p", {
        "points": {"P1": 6, "P2": 0, "P3": 0}, "rounds": 7, "replays": 0,
        "eliminated": ["P3", "P2"], "winner": "P1", "state": "gameover"}),
    "penalty": ("pico-4p", {
        "points": {"P1": 7, "P2": 5, "P3": 6}, "rounds": 1, "marked": "P2", "state": "ready"}),
    "refused_grab": ("pico-8p", {
        "points": {"P1": 7, "P2": 6, "P3": 6}, "rounds": 1, "marked": "P3", "state": "ready"}),
    "false_start": ("pico-4p", {
        "points": {"P1": 6, "P2": 7}, "rounds": 1, "false_starts": 1, "marked": "P1",
        "state": "ready"}),
    "marked_buzzer": ("pico-8p", {
        "points": {"P1": 7, "P2": 6, "P3": 6}, "rounds": 2, "marked": "P2", "state": "ready",
        "last_roll": ["cheese3", "cheese3", "mouse2"], "cheese_left": 4}),
    "dice_tour": ("pico-4p", {
        "points": {"P1": 7, "P2": 7}, "rounds": 0, "state": "grab", "cheese_left": 15,
        "dice": ["yellow A", "yellow B", "yellow C", "orange dog", "orange innkeeper",
                 "orange king"]}),
    "king_campaign": ("pico-4p", {
        "points": {"P1": 7, "P2": 0}, "rounds": 7, "winner": "P1", "eliminated": ["P2"],
        "state": "king", "games": 1,
        "campaign": {"game": 1, "wins": {"P1": 1, "P2": 0}, "king": "P1"}}),
    "thirty_rounds": ("pico-8p", {
        "points": {"P1": 4, "P2": 4, "P3": 3, "P4": 3, "P5": 3, "P6": 3, "P7": 3, "P8": 3},
        "rounds": 30, "replays": 0, "eliminated": [], "winner": None, "state": "ready"}),
    "cheesonomics_exchange": ("pico-8p", {
        "state": "turn", "games": 1,
        "cheesonomics": {"variant": "advanced", "money": {"P1": 0, "P2": 27, "P3": 0},
                         "turns": {"P1": 1, "P2": 2, "P3": 1}, "deck": 36, "prices": [5, 4, 6, 5, 1],
                         "turn": "P3", "over": False, "winners": []}}),
}
VIA_CLI = ("anna_wrong_answer", "final_tie_replay", "full_game_plate_cards", "king_campaign",
           "cheesonomics_exchange")


def path(name):
    return os.path.join(SCEN, name + ".txt")


def cli(name, board):
    env = dict(os.environ, BLINKA_OS_AGNOSTIC="1")
    p = subprocess.run([sys.executable, "-m", "sim", "--board", board, "--script", path(name), "--json"],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    return json.loads(p.stdout)


def in_process(name, board, seed=1):
    sim = Sim(read_board(os.path.join(REPO, "boards", board + ".json")), seed=seed)
    with open(path(name)) as f:
        return run_script(sim, f.read()), sim


def check(result, want):
    for k, v in want.items():
        assert result[k] == v, (k, result[k], v)


def test_every_scenario_file_is_listed_and_has_a_header():
    files = sorted(f[:-4] for f in os.listdir(SCEN) if f.endswith(".txt"))
    assert files == sorted(EXPECTED)
    for name in files:
        with open(path(name)) as f:
            head = f.read().split("\n")[:3]
        assert all(line.startswith("#") for line in head), name
        board = EXPECTED[name][0]
        assert board in "\n".join(head), "%s: the header names the board" % name


@pytest.mark.parametrize("name", VIA_CLI)
def test_scenario_through_the_cli(name):
    board, want = EXPECTED[name]
    check(cli(name, board), want)


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - set(VIA_CLI)))
def test_scenario_in_process(name):
    board, want = EXPECTED[name]
    result, sim = in_process(name, board)
    check(result, want)


def test_andrey_card_is_flipped_below_4():
    result, sim = in_process("andrey_flipped", "pico-4p")
    m = match_of(sim.box)
    assert m.flipped(0) and not m.flipped(1)
    assert list(m.lost[:3]) == [2, 1, 0]          # the last round: Andrey -2, P2 -1


def test_rulebook_examples_do_not_depend_on_the_seed():
    # every roll in them is forced: any seed plays the same game
    for name in ("anna_wrong_answer", "final_tie_replay", "full_game_plate_cards"):
        board, want = EXPECTED[name]
        for seed in (2, 77, 12345):
            check(in_process(name, board, seed)[0], want)


def test_king_campaign_game_one_has_one_yellow_die():
    for seed in (1, 2, 3, 4, 5):
        result, sim = in_process("king_campaign", "pico-4p", seed)
        assert len(result["dice"]) == 1 and result["dice"][0].startswith("yellow ")
        assert result["campaign"]["king"] == "P1"


def _run_lines(name, board, upto):
    sim = Sim(read_board(os.path.join(REPO, "boards", board + ".json")), seed=1)
    with open(path(name)) as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines[:upto]):
        run_line(sim, line, i + 1)
    return sim, lines


def test_dice_tour_returns_to_waiting_for_roll():
    sim, lines = _run_lines("dice_tour", "pico-4p", 0)
    n = next(i for i, line in enumerate(lines) if line.startswith("wait 6000")) + 1
    sim, _ = _run_lines("dice_tour", "pico-4p", n)
    assert sim.box.state == CM.READY and match_of(sim.box).round_no == 0


def test_final_tie_is_replayed_with_the_points_back():
    sim, lines = _run_lines("final_tie_replay", "pico-8p", 0)
    n = next(i for i, line in enumerate(lines) if line.startswith("# replayed")) + 1
    sim, _ = _run_lines("final_tie_replay", "pico-8p", n)
    m = match_of(sim.box)
    r = sim.result()
    assert r["points"] == {"P1": 2, "P2": 1} and r["replays"] == 1 and r["eliminated"] == []
    assert r["marked"] == "P2" and r["state"] == "ready" and m.rounds_played == 3
