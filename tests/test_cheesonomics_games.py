"""Randomized whole Cheesonomics games (CPython): Hypothesis picks the
table (players, variant, seed, which seats are bots and which play at
random) and sim/cheesonomics/watch.py checks every invariant each turn;
then a thousand plain bot games, checked at the end."""
from hypothesis import given, settings, strategies as st

from sim.cheesonomics import bot, driver
from sim.cheesonomics.arrange import new_game
from sim.cheesonomics.watch import Watch
from sim.rng import SeededRandom


@settings(max_examples=150)
@given(n=st.integers(2, 5), advanced=st.booleans(), seed=st.integers(1, 2 ** 30),
       mix=st.lists(st.booleans(), min_size=5, max_size=5))
def test_any_table_keeps_every_rule(n, advanced, seed, mix):
    rng = SeededRandom(seed ^ 0x5A5A)
    agents = [bot.Bot(rng) if mix[p] else bot.RandomAgent(rng) for p in range(n)]
    g = new_game(n, advanced=advanced, seed=seed, first=-1)
    Watch(g, agents, rng).play()


def test_a_thousand_bot_games_end_with_equal_turns_and_a_winner():
    lengths = []
    for i in range(1000):
        n = 2 + i % 4
        rng = SeededRandom(i + 1)
        g = new_game(n, advanced=bool(i & 4), seed=i + 1, first=-1)
        turns = driver.play_game(g, [bot.Bot(rng) for _ in range(n)], rng)
        assert g.over
        assert len(set(g.turns)) == 1 and turns == n * g.turns[0]
        g.census()
        g.market_census()
        assert g.money == [g.income[p] + g.bonus[p] for p in range(n)]
        assert g.winners
        lengths.append(g.turns[0])
    # the bots get somewhere: every game is a real game, not a stalemate
    assert min(lengths) >= 5 and max(lengths) < 60


def test_the_bot_beats_players_who_move_at_random():
    wins = 0
    for i in range(200):
        rng = SeededRandom(i + 1)
        g = new_game(3, advanced=bool(i & 1), seed=i + 1, first=-1)
        seat = i % 3
        agents = [bot.Bot(rng) if p == seat else bot.RandomAgent(rng) for p in range(3)]
        driver.play_game(g, agents, rng)
        wins += seat in g.winners
    assert wins >= 190, wins
