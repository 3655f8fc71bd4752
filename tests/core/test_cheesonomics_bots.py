# Whole games by bots and random players, every invariant checked each turn
# (sim/cheesonomics/watch.py); on MicroPython too, where the same seed must
# give the same game as on CPython.
from sim.cheesonomics import bot
from sim.cheesonomics.arrange import new_game
from sim.cheesonomics.watch import Watch
from sim.rng import SeededRandom


def _game(n, advanced, seed, kind=bot.Bot):
    rng = SeededRandom(seed + 1000)
    g = new_game(n, advanced=advanced, seed=seed, first=-1)
    return Watch(g, [kind(rng) for _ in range(n)], rng).play()


def test_bot_games_end_by_the_rules_basic():
    for n in range(2, 6):
        for seed in (1, 2):
            g = _game(n, False, seed)
            assert sum(g.income) > 0


def test_bot_games_end_by_the_rules_advanced():
    for n in range(2, 6):
        g = _game(n, True, 3)
        assert sum(g.income) > 0


def test_random_players_cannot_break_a_rule():
    for n in range(2, 6):
        for adv in (False, True):
            _game(n, adv, 7, bot.RandomAgent)


def test_a_seed_replays_the_same_game_on_every_interpreter():
    g = _game(3, False, 11)
    assert (g.money, g.winners, g.turns) == ([85, 83, 83], [0], [12, 12, 12]), (g.money, g.winners, g.turns)
    g = _game(4, True, 11)
    assert (g.money, g.winners, g.turns) == ([95, 98, 101, 112], [3], [12, 12, 12, 12]), (g.money, g.winners, g.turns)


def test_a_whole_game_fits_in_a_few_kib_of_heap():
    # on MicroPython: the heap in use after a collection grows by less than
    # 8 KiB (64-bit build) from before the game to its fullest turn; CPython
    # has no gc.mem_alloc and only plays the game
    import gc
    from sim.cheesonomics import driver
    alloc = getattr(gc, "mem_alloc", None)
    rng = SeededRandom(5)
    gc.collect()
    before = alloc() if alloc else 0
    g = new_game(5, advanced=True, seed=5)
    agents = [bot.Bot(rng) for _ in range(5)]
    peak = 0
    while not g.over:
        driver.play_turn(g, agents, rng)
        if alloc:
            gc.collect()
            peak = max(peak, alloc() - before)
    assert g.over
    assert peak < 8 * 1024, peak
