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
    assert (g.money, g.winners, g.turns) == ([67, 68, 72, 77], [3], [11, 11, 11, 11]), (g.money, g.winners, g.turns)


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


# -- what a sale does to the market ---------------------------------------------
# Market cards (the card list, 0-based): France 0-4, Italy 5-9, Switzerland
# 10-14, Netherlands 15-19, Greece 20-24; in each country card 0 and 4 are
# 1|2, card 1 2|1, card 2 1|1, card 3 2|2.
# France 7 (0 B, 1 A, 3, 4 A), turned over 6; Italy 7 (5 A, 6 A, 7, 8, 9 A),
# turned over 8; the rest 2.
TWO_TOPS = ([0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 17, 20, 22],
            [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0])
FRANCE, ITALY = 0, 1


def _table(n, advanced=False, seed=1, first=0):
    from sim.cheesonomics.arrange import card, move, set_market
    g = new_game(n, advanced=advanced, seed=seed, first=first)
    set_market(g, TWO_TOPS[0], TWO_TOPS[1])
    for p in range(n):
        for place in range(3):      # each player: 3 pieces of one animal produced
            move(g, card(p, place), g.table[p])
    return g


def test_of_two_equal_prices_the_bot_sells_where_turning_over_does_not_raise_the_best():
    # France and Italy both pay 7: turning France over leaves the best price
    # at 7 (Italy), turning Italy over makes it 8 for the next player, who
    # has 3 pieces ready: the bot sells to France, whatever the seed
    for seed in range(1, 9):
        g = _table(3)
        assert (g.price(FRANCE), g.price(ITALY)) == (7, 7)
        act = bot.Bot(SeededRandom(seed)).turn(g, 0)
        assert act[0] == "sell" and act[2] == FRANCE and len(act[3]) == 3, (seed, act)


def test_the_bots_exchange_leaves_the_next_player_the_lowest_best_price():
    # advanced: P1 sells to Italy, whose cards turned over would pay 8; P1
    # may lay one of their own market cards instead of turning one over;
    # with P2 and P3 holding cheese the bot lays it to bring the best price
    # down (to France's 7), never leaves it up
    from sim.cheesonomics import driver
    from sim.cheesonomics.arrange import set_own
    for seed in range(1, 6):
        g = _table(3, advanced=True)
        set_own(g, 0, [13, 2, 21])          # Switzerland 2|2, France 1|1, Greece 2|1
        rng = SeededRandom(seed)
        sold = list(g.table[0])
        options = [None]
        for pos in range(15):
            if g.cards.country[g.mk[pos]] == ITALY:
                for m in g.own[0]:
                    options += [("exchange", pos, m, 0), ("exchange", pos, m, 1)]
        tops = []
        for r in options:
            saved = (bytearray(g.mk), bytearray(g.side))
            g.turn_over(ITALY, -1 if r is None else r[1])
            if r is not None:
                g.mk[r[1]], g.side[r[1]] = r[2], r[3]
            tops.append(max(g.price(k) for k in range(5)))
            g.mk, g.side = saved
        assert (tops[0], min(tops)) == (8, 7)
        agents = [bot.Bot(rng), bot.Bot(rng), bot.Bot(rng)]
        agents[0].turn = lambda g, p: ("sell", 0, ITALY, sold)
        driver.play_turn(g, agents, rng)
        assert max(g.price(k) for k in range(5)) == 7, seed


LOW = ([0, 2, 4, 5, 7, 9, 10, 12, 14, 15, 17, 19, 20, 22, 24], [0] * 15)    # every country 3


def test_a_bot_that_may_not_get_another_turn_sells_what_it_has():
    # 3 players, the first player's turn, 2 cards left to draw: the two
    # players after it are likely to empty the deck and end the game before
    # its next turn, so it sells its 2 pieces at 3 (unsold, they pay 1 each)
    from sim.cheesonomics.arrange import card, deck_left, move, set_market

    def table(first):
        g = new_game(3, seed=4, first=first)
        set_market(g, LOW[0], LOW[1])
        for place in range(2):
            move(g, card(0, place), g.table[0])
        deck_left(g, 2)
        return g

    act = bot.Bot(SeededRandom(1)).turn(table(0), 0)
    assert act[0] == "sell" and len(act[3]) == 2, act
    # the last seat of the round knows the next round comes (unless it
    # empties the deck itself): it goes on building its lot
    assert bot.Bot(SeededRandom(1)).turn(table(1), 0)[0] != "sell"
