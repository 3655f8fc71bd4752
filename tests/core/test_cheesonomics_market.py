# Producing cheese (one type, then draw to 5) and selling it (at most 3
# pieces of one animal to one country, paid the sum of its signs, the
# country's market cards turned over).
from cheesokit import (
    COW, GOAT, SHEEP, RED, YELLOW, GREEN, BLUE, PURPLE, FRANCE, ITALY, SWISS, DUTCH, GREECE,
    refused as _refused)
from sim.cheesonomics.arrange import card, deck_left, deck_top, move, new_game, set_hand, set_market


def _market(g):
    # default list: card 5k+i of country k shows (1|2, 2|1, 1|1, 2|2, 1|2)
    # France: cards 0, 1, 3 (side A up: 1 + 2 + 2 = 5); Italy: card 5 side B (2),
    # 9 6 7 8 side A (1 + 2 + 1 + 2); Switzerland 10, 11 side A (1 + 2 = 3);
    # Netherlands: 15..19 side A (1 + 2 + 1 + 2 + 1); Greece absent
    mk = [0, 1, 3, 5, 10, 11, 15, 16, 17, 18, 19, 9, 6, 7, 8]
    sides = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    set_market(g, mk, sides)
    g.market_census()


def test_producing_lays_one_type_and_draws_to_five():
    g = new_game(2)
    hand = [card(COW, RED), card(COW, BLUE), card(COW, GREEN), card(GOAT, RED), card(SHEEP, RED)]
    set_hand(g, 0, hand)
    deck = g.deck_count()
    nxt = [g.deck[g.top], g.deck[g.top + 1], g.deck[g.top + 2]]
    g.produce(COW, hand[:3])
    assert sorted(g.table[0]) == sorted(hand[:3])
    assert sorted(g.hands[0]) == sorted(hand[3:] + nxt)
    assert g.deck_count() == deck - 3
    g.census()


def test_producing_by_place_and_only_some_of_the_type():
    g = new_game(2)
    hand = [card(COW, RED), card(GOAT, RED), card(SHEEP, RED), card(GOAT, BLUE), card(SHEEP, BLUE)]
    set_hand(g, 0, hand)
    g.produce(5 + RED, [card(COW, RED), card(GOAT, RED)])
    assert len(g.table[0]) == 2 and card(SHEEP, RED) in g.hands[0] and len(g.hands[0]) == 5


def test_producing_mixed_types_or_nothing_is_refused():
    g = new_game(2)
    hand = [card(COW, RED), card(GOAT, RED), card(SHEEP, YELLOW), card(GOAT, BLUE), card(SHEEP, BLUE)]
    set_hand(g, 0, hand)
    assert "goat/red is not cow" in _refused(g.produce, COW, [card(COW, RED), card(GOAT, RED)])
    assert "goat/blue is not red" in _refused(g.produce, 5 + RED, [card(COW, RED), card(GOAT, BLUE)])
    assert "at least one" in _refused(g.produce, COW, [])
    assert "not in the hand" in _refused(g.produce, COW, [card(COW, BLUE)])
    assert "not in the hand" in _refused(g.produce, COW, [card(COW, RED), card(COW, RED)])
    assert g.table[0] == [] and g.cur == 0


def test_drawing_stops_when_the_deck_runs_out():
    g = new_game(2)
    hand = [card(COW, RED), card(COW, BLUE), card(COW, GREEN), card(GOAT, RED), card(SHEEP, RED)]
    set_hand(g, 0, hand)
    deck_left(g, 2)
    g.produce(COW, hand[:3])
    assert len(g.hands[0]) == 4 and g.deck_count() == 0 and g.final_turns()
    g.census()


def test_price_is_the_sum_of_the_countrys_signs():
    g = new_game(3)
    _market(g)
    assert g.price(FRANCE) == 5
    assert g.price(ITALY) == 8
    assert g.price(SWISS) == 3
    assert g.price(DUTCH) == 1 + 2 + 1 + 2 + 1
    assert g.price(GREECE) == 0


def test_selling_pays_pieces_times_price_and_turns_the_country_over():
    g = new_game(3)
    _market(g)
    for c in (card(COW, RED), card(COW, BLUE), card(COW, GREEN), card(COW, YELLOW)):
        move(g, c, g.table[0])
    sides = bytes(g.side)
    g.sell(COW, FRANCE, [card(COW, RED), card(COW, BLUE), card(COW, GREEN)])
    assert g.money == [15, 0, 0] and g.income == [15, 0, 0]
    assert sorted(g.sold[0]) == sorted([card(COW, RED), card(COW, BLUE), card(COW, GREEN)])
    assert g.table[0] == [card(COW, YELLOW)]
    # France's cards 0, 1, 3 turned over: 2 + 1 + 2; nobody else's moved
    assert g.price(FRANCE) == 5
    assert [g.side[i] for i in range(3)] == [1, 1, 1]
    assert bytes(g.side)[3:] == sides[3:]
    assert g.cur == 1
    g.census()


def test_turning_over_changes_the_price_for_the_next_sale():
    g = new_game(2)
    _market(g)
    move(g, card(GOAT, RED), g.table[0])
    move(g, card(SHEEP, RED), g.table[1])
    g.sell(GOAT, ITALY, [card(GOAT, RED)])       # Italy 8 -> 5 A, 9 B, 6 B, 7 B, 8 B = 1+2+1+1+2
    assert g.money[0] == 8
    assert g.price(ITALY) == 7
    g.sell(SHEEP, ITALY, [card(SHEEP, RED)])
    assert g.money[1] == 7 and g.price(ITALY) == 8


def test_sales_break_no_rule():
    g = new_game(2)
    _market(g)
    for c in (card(COW, RED), card(COW, BLUE), card(COW, GREEN), card(COW, YELLOW), card(GOAT, RED)):
        move(g, c, g.table[0])
    four = [card(COW, RED), card(COW, BLUE), card(COW, GREEN), card(COW, YELLOW)]
    assert "1 to 3 pieces, not 4" in _refused(g.sell, COW, FRANCE, four)
    assert "1 to 3 pieces, not 0" in _refused(g.sell, COW, FRANCE, [])
    assert "goat/red is not cow cheese" in _refused(g.sell, COW, FRANCE, [card(COW, RED), card(GOAT, RED)])
    assert "Greece is not on the market" in _refused(g.sell, COW, GREECE, [card(COW, RED)])
    assert "not among the cheese produced" in _refused(g.sell, COW, FRANCE, [card(COW, PURPLE)])
    assert "not among the cheese produced" in _refused(g.sell, COW, FRANCE, [card(COW, RED), card(COW, RED)])
    assert "advanced variant" in _refused(g.sell, COW, FRANCE, [card(COW, RED)], ("forbid", 0))
    assert g.money == [0, 0] and len(g.table[0]) == 5 and g.cur == 0
    g.census()


def test_deck_top_arranges_the_draws():
    g = new_game(2)
    hand = list(g.hands[0])
    last = g.deck[len(g.deck) - 1]
    deck_top(g, [last])
    assert g.deck[g.top] == last
    a = hand[0] // 20
    g.produce(a, [c for c in hand if c // 20 == a])
    assert last in g.hands[0]
    assert "not in the deck" in _arrange_error(deck_top, g, [g.hands[1][0]])
    g.census()


def _arrange_error(fn, *args):
    from sim.cheesonomics.arrange import ArrangeError
    try:
        fn(*args)
    except ArrangeError as e:
        return str(e)
    assert False
