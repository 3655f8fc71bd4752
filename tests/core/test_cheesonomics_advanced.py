# The advanced variant: own market cards, the reserve, special marks and
# their three actions, and the end-of-turn replacement (turn over or
# exchange for one of your own market cards).
from cheesokit import (
    COW, GOAT, SHEEP, CAMEL, RED, GREEN, BLUE, FRANCE, GREECE, TROWEL, HORN, RAKE,
    refused as _refused)
from sim.cheesonomics.arrange import card, move, new_game, set_hand, set_market, set_own


def _table(n=4):
    g = new_game(n, advanced=True)
    # France 0, 1, 3 side A (5); Italy 5..9; Switzerland 10..14 all A; Greece absent
    set_market(g, [0, 1, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], [0] * 15)
    set_own(g, 0, [20, 23])     # Greece 1|2 and 2|2
    set_own(g, 1, [24, 21])
    g.market_census()
    # P1 has a cow/red with the trowel and two plain cows on the table
    for c in (card(COW, RED, 0), card(COW, BLUE), card(COW, GREEN)):
        move(g, c, g.table[0])
    return g


def test_the_special_mark_distribution():
    g = new_game(2, advanced=True)
    assert g.card_name(card(COW, RED, 0)) == "cow/red/trowel"
    assert g.card_name(card(GOAT, RED, 0)) == "goat/red/mountain"
    assert g.card_name(card(COW, RED, 1)) == "cow/red"


def test_selling_without_extras_turns_the_country_over():
    g = _table()
    g.sell(COW, FRANCE, [card(COW, BLUE)])
    assert g.money[0] == 5 and [g.side[i] for i in range(3)] == [1, 1, 1]


def test_exchange_lays_an_own_card_and_turns_the_rest_over():
    g = _table()
    g.sell(COW, FRANCE, [card(COW, BLUE)], None, ("exchange", 1, 23, 1))
    assert g.money[0] == 5
    assert g.mk[1] == 23 and g.side[1] == 1        # Greece 2|2 laid, side B
    assert sorted(g.own[0]) == [1, 20]              # the France card is now P1's
    assert g.side[0] == 1 and g.side[2] == 1        # the other France cards turned over
    assert g.price(FRANCE) == 2 + 2 and g.price(GREECE) == 2
    g.market_census()


def test_exchange_must_take_a_card_of_the_sold_country_for_an_own_card():
    g = _table()
    assert "exchange a market card of France" in _refused(
        g.sell, COW, FRANCE, [card(COW, BLUE)], None, ("exchange", 4, 23, 0))
    assert "one of your own market cards" in _refused(
        g.sell, COW, FRANCE, [card(COW, BLUE)], None, ("exchange", 1, 24, 0))
    assert "side 0 or 1" in _refused(g.sell, COW, FRANCE, [card(COW, BLUE)], None, ("exchange", 1, 23, 2))
    assert g.money[0] == 0 and g.cur == 0


def test_a_mark_action_needs_a_marked_piece():
    g = _table()
    assert "no sold piece has a special mark" in _refused(
        g.sell, COW, FRANCE, [card(COW, BLUE)], ("forbid", TROWEL))
    assert "forbid a mark shown on a sold piece" in _refused(
        g.sell, COW, FRANCE, [card(COW, RED, 0)], ("forbid", HORN))


def test_reserve_action_swaps_an_own_card_for_the_reserve_top():
    g = _table(4)
    assert len(g.reserve) == 2
    top = g.reserve[0]
    g.sell(COW, FRANCE, [card(COW, RED, 0), card(COW, BLUE)], ("reserve", 20))
    assert sorted(g.own[0]) == sorted([23, top])
    assert g.reserve[-1] == 20 and len(g.reserve) == 2
    g.market_census()


def test_reserve_action_needs_a_reserve():
    g = new_game(5, advanced=True)
    assert g.reserve == []
    move(g, card(COW, RED, 0), g.table[g.cur])
    k = g.cards.country[g.mk[0]]
    own = g.own[g.cur][0]
    assert "the reserve is empty" in _refused(g.sell, COW, k, [card(COW, RED, 0)], ("reserve", own))


def test_trade_action_gives_an_own_card_for_an_opponents():
    g = _table()
    g.sell(COW, FRANCE, [card(COW, RED, 0)], ("trade", 1, 20, 24))
    assert sorted(g.own[0]) == [23, 24] and sorted(g.own[1]) == [20, 21]

    g = _table()
    assert "trade with an opponent" in _refused(
        g.sell, COW, FRANCE, [card(COW, RED, 0)], ("trade", 0, 20, 23))
    assert "take one of player 2's market cards" in _refused(
        g.sell, COW, FRANCE, [card(COW, RED, 0)], ("trade", 1, 20, 22))
    assert "give one of your own market cards" in _refused(
        g.sell, COW, FRANCE, [card(COW, RED, 0)], ("trade", 1, 24, 21))


def test_trade_then_exchange_uses_the_card_just_taken():
    g = _table()
    g.sell(COW, FRANCE, [card(COW, RED, 0)], ("trade", 1, 20, 24), ("exchange", 0, 24, 0))
    assert g.mk[0] == 24 and 0 in g.own[0] and 24 not in g.own[0]
    g.market_census()


def test_forbid_keeps_marked_cards_from_being_taken_until_the_forbidders_turn():
    g = _table(4)
    g.sell(COW, FRANCE, [card(COW, RED, 0)], ("forbid", TROWEL))
    assert g.forbid[0] == TROWEL
    # P2 names sheep; P1 holds only a trowel sheep: shows the hand and P2
    # may pick anything but trowel cards
    set_hand(g, 0, [card(SHEEP, BLUE, 0), card(CAMEL, RED, 0), card(GOAT, RED, 1),
                    card(GOAT, BLUE, 1), card(GOAT, GREEN, 1)])
    assert g.cards.mark[card(SHEEP, BLUE, 0)] == TROWEL
    assert g.cards.mark[card(CAMEL, RED, 0)] == RAKE
    opts, own = g.give_options(0, SHEEP)
    assert not own and card(SHEEP, BLUE, 0) not in opts and len(opts) == 4
    gives = [card(SHEEP, BLUE, 0), None, g.give_options(2, SHEEP)[0][0], g.give_options(3, SHEEP)[0][0]]
    back = [g.hands[1][0], None, g.hands[1][1], g.hands[1][2]]
    assert "cannot pass" in _refused(g.collect, SHEEP, gives, back)
    gives[0] = card(GOAT, RED, 1)
    g.collect(SHEEP, gives, back)
    # the forbidder itself is not bound; P3 and P4 still are
    assert g.forbidden(2) == [TROWEL] and g.forbidden(0) == []
    g.produce(g.hands[2][0] // 20, [g.hands[2][0]])
    g.produce(g.hands[3][0] // 20, [g.hands[3][0]])
    # P1's next turn: the forbid ends
    assert g.cur == 0 and g.forbid[0] == 255 and g.forbidden(1) == []


def test_private_market_cards_move_but_never_vanish_in_a_whole_game():
    from sim.cheesonomics import bot, driver
    from sim.rng import SeededRandom
    for n in (2, 3, 4, 5):
        rng = SeededRandom(n)
        g = new_game(n, advanced=True, seed=n)
        agents = [bot.RandomAgent(rng) for _ in range(n)]
        while not g.over:
            driver.play_turn(g, agents, rng)
            g.market_census()
        assert [len(o) for o in g.own] == [(0, 0, 5, 3, 2, 2)[n]] * n
        g.census()
