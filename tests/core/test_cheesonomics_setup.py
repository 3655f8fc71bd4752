# Setup: deck by player count, the deal, the market, private market cards.
from sim.cheesonomics.engine import Game, RuleError
from sim.cheesonomics.arrange import cards, new_game
from sim.rng import SeededRandom


def test_cards_removed_by_player_count_60_40_20_0():
    for n, removed in ((2, 60), (3, 40), (4, 20), (5, 0)):
        g = new_game(n)
        assert len(g.removed) == removed
        assert g.deck_count() == 100 - removed - 5 * n
        g.census()


def test_everyone_is_dealt_five():
    for n in range(2, 6):
        g = new_game(n)
        assert [len(h) for h in g.hands] == [5] * n
        assert g.table == [[]] * n and g.sold == [[]] * n
        assert g.money == [0] * n


def test_one_or_six_players_is_refused():
    for n in (0, 1, 6):
        try:
            new_game(n)
        except RuleError as e:
            assert "2 to 5 players" in str(e)
        else:
            assert False


def test_market_of_15_cards_in_3_sectors_of_5_rest_out_of_the_game():
    g = new_game(3)
    assert len(g.mk) == 15 and len(set(g.mk)) == 15
    assert len(g.out_market) == 10
    assert g.own == [[], [], []] and g.reserve == []
    g.market_census()


def test_advanced_deals_2_3_5_market_cards_rest_to_the_reserve():
    for n, each, reserve in ((2, 5, 0), (3, 3, 1), (4, 2, 2), (5, 2, 0)):
        g = new_game(n, advanced=True)
        assert [len(o) for o in g.own] == [each] * n
        assert len(g.reserve) == reserve
        assert len(g.out_market) == 0
        g.market_census()


def test_same_seed_same_game_other_seed_other_game():
    a = new_game(4, seed=5)
    b = new_game(4, seed=5)
    c = new_game(4, seed=6)
    assert a.hands == b.hands and a.mk == b.mk and a.side == b.side
    assert a.hands != c.hands


def test_first_player_drawn_from_the_seed_or_given():
    seen = set()
    for s in range(1, 40):
        g = Game(cards(), 4, SeededRandom(s))
        assert g.cur == g.first
        seen.add(g.first)
    assert seen == {0, 1, 2, 3}
    assert Game(cards(), 4, SeededRandom(1), first=2).cur == 2


def test_prices_are_sums_of_signs_each_card_shows_one_side():
    g = new_game(5, seed=3)
    total = 0
    for k in range(5):
        total += g.price(k)
    assert total == sum(g.signs(i) for i in range(15))
    assert 15 <= total <= 30
