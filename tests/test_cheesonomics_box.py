"""Cheesonomics with the box as market and bank, checked against the full
rules engine: bots play whole games on engine.Game (which sees every card),
and each of their turns is keyed in at the box's stations the way a table
would (keys: a key a value, then the buzzer; a dial: value, buzzer a step;
firmware/cheesonomics/entry.py). The box never
sees a card, yet it must end with the same money, bonuses and winners, having
refused nothing. Stations are picked apart on purpose (P2, P5, ...): seats
follow station order."""
import json
import os

import pytest

from cheesebox.board import read_board
from sim.cheesonomics import bot, driver
from sim.cheesonomics.engine import Game
from sim.cheesonomics.arrange import cards, set_market
from sim.rng import SeededRandom
from sim.scenario import Sim, run_script

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD = read_board(os.path.join(REPO, "boards", "pico-8p.json"))
DIAL_BOARD = read_board(os.path.join(REPO, "boards", "pico2-8p.json"))
STATIONS = {2: [1, 6], 3: [1, 4, 6], 4: [0, 2, 5, 7], 5: [0, 1, 3, 4, 6]}


def start(board, stations, advanced, seed):
    lines = []
    sim = Sim(board, seed=seed, log=lines.append)
    run_script(sim, "game cheesonomics\n")
    for s in stations:
        sim.press(s)
    sim.press(8)                                    # ROLL: the variant
    run_script(sim, "variant %s\n" % ("advanced" if advanced else "basic"))
    return sim, lines


def key_in(sim, s, values):
    from sim.cheesonomics.boxscript import _enter, dialled
    if sim.box.dials:
        values = dialled(values)    # a dial's sale: the pieces with the action
    _enter(sim, s, values)          # keys: one a value, then the buzzer; dials: value, buzzer


def entries(g, name, args, kwargs):
    """What the active player keys in at the box for one engine action
    (firmware/cheesonomics/entry.py): market cards by their signs up|back."""
    from cheesonomics.entry import card_kind
    if name == "pass_turn":
        return [0]
    if name == "collect":
        t = args[0]
        return [1 + t // 5, 1 + t % 5]
    if name == "produce":
        return [3, len(args[1])]
    a, country, sold = args[0], args[1], args[2]
    action = args[3] if len(args) > 3 else kwargs.get("action")
    replace = args[4] if len(args) > 4 else kwargs.get("replace")
    v = [4, a + 1, country + 1, len(sold)]
    if g.advanced:
        v.append(action[1] + 1 if action is not None and action[0] == "forbid" else 0)
        if replace is None:
            v.append(0)
        else:
            pos, m, side = replace[1], replace[2], replace[3]
            v += [card_kind(g.cards, g.mk[pos], g.side[pos]), g.cards.country[m] + 1,
                  card_kind(g.cards, m, side)]
    return v


def play_both(board, n, advanced, seed):
    stations = STATIONS[n]
    sim, lines = start(board, stations, advanced, seed)
    bank = sim.box.game.bank
    g = Game(cards(), n, SeededRandom(seed + 1000), advanced=advanced, first=bank.first)
    set_market(g, list(bank.mk), list(bank.side))
    g.market_census()
    assert g.deck_count() == bank.deck
    rng = SeededRandom(seed + 2000)
    agents = [bot.Bot(rng) for _ in range(n)]
    done = []

    def wrap(name):
        real = getattr(g, name)

        def call(*args, **kwargs):
            # the table's view before the engine moves: market positions, own cards
            done.append((g.cur, entries(g, name, args, kwargs)))
            return real(*args, **kwargs)
        return call

    for name in ("collect", "produce", "sell", "pass_turn"):
        setattr(g, name, wrap(name))
    turns = 0
    while not g.over:
        driver.play_turn(g, agents, rng)
        p, values = done.pop()
        since = len(lines)
        key_in(sim, stations[p], values)
        turns += 1
        assert turns < 1000
        assert bank.money == g.money, (turns, values)
        # the action's money is the player's sales so far: never a final bonus
        # (those are in the final event), also in the game's last action
        act = [e for e in map(json.loads, lines[since:]) if e["ev"] == "action"]
        assert [e["money"] for e in act] == [g.income[p]], (turns, act)
        assert bank.cur == g.cur or g.over
    evs = [json.loads(x) for x in lines]
    return sim, g, bank, evs, turns


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("advanced", [False, True])
def test_the_box_keeps_the_same_accounts_as_the_full_rules(n, advanced):
    for seed in (1, 2):
        sim, g, bank, evs, turns = play_both(BOARD, n, advanced, seed)
        assert bank.over and sim.box.state_name() == "final"
        assert [e for e in evs if e["ev"] == "not_allowed"] == []
        assert bank.money == g.money and bank.bonus == g.bonus and bank.winners == g.winners
        assert bank.turns == g.turns and len(set(bank.turns)) == 1
        final = [e for e in evs if e["ev"] == "final"]
        names = ["P%d" % (s + 1) for s in STATIONS[n]]
        assert final[0]["money"] == dict(zip(names, g.money))
        assert final[0]["winners"] == [names[p] for p in g.winners]
        assert len([e for e in evs if e["ev"] == "action"]) == turns
        # the final screen is kept for a power cut, not offered to resume
        assert json.loads(sim.fs.files["game.json"].split("\n")[0])["final"] is True


def test_a_whole_games_last_action_shows_its_sales_and_the_final_adds_the_bonuses():
    """The table reads the last action's money as what that player had from
    sales; the final bonuses come once, on the final screen (the final event)."""
    sim, g, bank, evs, turns = play_both(BOARD, 3, False, 1)
    names = ["P%d" % (s + 1) for s in STATIONS[3]]
    last = [e for e in evs if e["ev"] == "action"][-1]
    p = names.index(last["p"])
    final = [e for e in evs if e["ev"] == "final"][0]
    assert g.bonus[p] > 0                                    # this game has a bonus to leave out
    assert last["money"] == g.income[p] == g.money[p] - g.bonus[p]
    assert final["money"][last["p"]] == g.money[p] and final["bonus"][last["p"]] == g.bonus[p]


def test_dials_enter_the_same_game():
    """pico2-8p: a dial shows its value all the time; the same turns work."""
    sim, g, bank, evs, _ = play_both(DIAL_BOARD, 3, False, 5)
    assert bank.over and bank.money == g.money and bank.winners == g.winners


def test_the_simulator_s_legend_gives_a_dial_s_sale_with_its_pieces():
    from sim.cheesonomics.host import step_legend
    sim = Sim(DIAL_BOARD, seed=1)
    run_script(sim, "game cheesonomics\nplayers 3\nvariant basic\n")
    legend = step_legend(sim.box.game)
    assert "4 sell 1, 5 sell 2, 6 sell 3" in legend and "3 produce" in legend
    keys = Sim(BOARD, seed=1)
    run_script(keys, "game cheesonomics\nplayers 3\nvariant basic\n")
    assert step_legend(keys.box.game).endswith("3 produce, 4 sell")


def test_the_mark_step_says_a_reserve_or_a_trade_is_done_with_the_cards():
    from sim.cheesonomics.host import step_legend
    sim = Sim(BOARD, seed=1)
    run_script(sim, "game cheesonomics\nplayers 3\nvariant advanced\nproduce P2 3\nproduce P3 3\n"
                    "produce P1 2\nenter P2 4 1 2 2\n")
    g = sim.box.game
    assert g.step_name().startswith("forbid mark")
    legend = step_legend(g)
    assert "0 none, or a reserve or a trade (done with the cards)" in legend and "1 trowel" in legend
