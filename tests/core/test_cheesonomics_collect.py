# Collecting milk: naming an animal or a place, the "no card of that type"
# case, passing back, and the knife lock until the player's next turn.
from cheesokit import (
    COW, GOAT, SHEEP, BUFFALO, CAMEL, RED, YELLOW, GREEN, BLUE, PURPLE,
    refused as _refused)
from sim.cheesonomics.arrange import card, deck_left, move, new_game, set_hand


def _three():
    g = new_game(3)
    set_hand(g, 0, [card(COW, RED), card(COW, BLUE), card(GOAT, RED), card(SHEEP, GREEN), card(CAMEL, PURPLE)])
    set_hand(g, 1, [card(COW, GREEN), card(GOAT, BLUE), card(GOAT, GREEN), card(SHEEP, RED), card(BUFFALO, BLUE)])
    set_hand(g, 2, [card(GOAT, YELLOW), card(SHEEP, YELLOW), card(SHEEP, BLUE), card(BUFFALO, RED),
                    card(BUFFALO, YELLOW)])
    return g


def test_each_player_passes_a_card_of_the_named_animal_and_gets_one_back():
    g = _three()
    opts, own = g.give_options(1, COW)
    assert own and opts == [card(COW, GREEN)]
    gives = [None, card(COW, GREEN), None]
    opts, own = g.give_options(2, COW)
    assert not own, "P3 has no cow: shows the hand, P1 picks"
    assert sorted(opts) == sorted(g.hands[2])
    gives[2] = card(SHEEP, BLUE)
    g.collect(COW, gives, [None, card(CAMEL, PURPLE), card(SHEEP, GREEN)])
    assert sorted(g.hands[0]) == sorted([card(COW, RED), card(COW, BLUE), card(GOAT, RED),
                                        card(COW, GREEN), card(SHEEP, BLUE)])
    assert card(CAMEL, PURPLE) in g.hands[1] and card(COW, GREEN) not in g.hands[1]
    assert card(SHEEP, GREEN) in g.hands[2] and card(SHEEP, BLUE) not in g.hands[2]
    assert [len(h) for h in g.hands] == [5, 5, 5]
    assert g.knife[0] == COW and g.cur == 1
    g.census()


def test_naming_a_place_takes_cards_of_that_stripe():
    g = _three()
    t = 5 + RED
    opts, own = g.give_options(1, t)
    assert own and opts == [card(SHEEP, RED)]
    opts, own = g.give_options(2, t)
    assert own and opts == [card(BUFFALO, RED)]
    g.collect(t, [None, card(SHEEP, RED), card(BUFFALO, RED)], [None, card(SHEEP, GREEN), card(CAMEL, PURPLE)])
    assert card(SHEEP, RED) in g.hands[0] and card(BUFFALO, RED) in g.hands[0]
    assert g.knife[0] == t


def test_a_player_holding_the_type_must_pass_it():
    g = _three()
    msg = _refused(g.collect, GOAT, [None, card(SHEEP, RED), card(GOAT, YELLOW)],
                   [None, card(CAMEL, PURPLE), card(SHEEP, GREEN)])
    assert "player 2 cannot pass sheep/red" in msg
    # the giver chooses which of their goats
    g.collect(GOAT, [None, card(GOAT, GREEN), card(GOAT, YELLOW)], [None, card(CAMEL, PURPLE), card(SHEEP, GREEN)])
    assert card(GOAT, BLUE) in g.hands[1]


def test_active_player_may_pass_back_a_card_just_received():
    g = _three()
    g.collect(COW, [None, card(COW, GREEN), card(SHEEP, BLUE)], [None, card(COW, GREEN), card(SHEEP, BLUE)])
    assert card(COW, GREEN) in g.hands[1] and card(SHEEP, BLUE) in g.hands[2]


def test_wrong_pass_backs_are_refused_and_change_nothing():
    g = _three()
    before = [list(h) for h in g.hands]
    gives = [None, card(COW, GREEN), card(SHEEP, BLUE)]
    assert "pass back one card to each player" in _refused(g.collect, COW, gives, [None, card(CAMEL, PURPLE), None])
    assert "not in the hand" in _refused(g.collect, COW, gives, [None, card(CAMEL, PURPLE), card(CAMEL, PURPLE)])
    assert "not in the hand" in _refused(g.collect, COW, gives, [None, card(BUFFALO, RED), card(CAMEL, PURPLE)])
    assert "must pass a card" in _refused(g.collect, COW, [None, None, card(SHEEP, BLUE)],
                                          [None, card(CAMEL, PURPLE), card(SHEEP, GREEN)])
    assert "no milk type" in _refused(g.collect, 10, gives, [None, card(CAMEL, PURPLE), card(SHEEP, GREEN)])
    assert g.hands == before and g.cur == 0 and g.knife[0] == 255
    g.census()


def test_knife_locks_the_type_for_others_until_its_owner_plays_again():
    g = _three()
    g.collect(COW, [None, card(COW, GREEN), card(SHEEP, BLUE)], [None, card(CAMEL, PURPLE), card(SHEEP, GREEN)])
    # P2 may not name cow, neither may P3; a place is still free
    assert g.locked_by(COW, 1) == 0
    assert "cow is locked by player 1's knife" in _refused(g.collect, COW, [None] * 3, [None] * 3)
    g.collect(5 + BLUE, [g.give_options(0, 5 + BLUE)[0][0], None, g.give_options(2, 5 + BLUE)[0][0]],
              [g.hands[1][0], None, g.hands[1][1]])
    assert g.cur == 2 and g.locked_by(COW, 2) == 0 and g.locked_by(5 + BLUE, 2) == 1
    g.produce(BUFFALO, [c for c in g.hands[2] if c // 20 == BUFFALO])
    # P1's turn: the knife comes back, P1 may name cow again; P2's lock holds
    assert g.cur == 0 and g.knife[0] == 255
    assert g.locked_by(COW, 1) == -1
    assert g.locked_by(5 + BLUE, 0) == 1
    o1 = g.give_options(1, COW)[0]
    o2 = g.give_options(2, COW)[0]
    g.collect(COW, [None, o1[0], o2[0]], [None, g.hands[0][0], g.hands[0][1]])
    assert g.knife[0] == COW


def test_an_empty_hand_passes_nothing():
    # final turns: a player who produced everything has no card to pass
    g = new_game(2)
    for c in list(g.hands[1]):
        move(g, c, g.removed)
    deck_left(g, 0)
    opts, _ = g.give_options(1, COW)
    assert opts == []
    g.collect(COW, [None, None], [None, g.hands[0][0]])
    assert len(g.hands[1]) == 1 and len(g.hands[0]) == 4
    g.census()
