# The end: the deck runs out, the round is finished so that everyone had
# the same number of turns, then the bonuses (unsold pieces; most sold of
# each animal, tie-break on more different types, still tied: both) and the
# winner.
from cheesokit import (COW, GOAT, SHEEP, RED, YELLOW, GREEN, BLUE, refused as _refused)
from sim.cheesonomics.arrange import card, deck_left, move, new_game


def _produce_all_of_first_animal(g):
    h = g.hands[g.cur]
    a = h[0] // 20
    g.produce(a, [c for c in h if c // 20 == a])


def _collect_anything(g):
    p = g.cur
    t = 0
    while g.locked_by(t, p) >= 0:
        t += 1
    gives = [None] * g.n
    for q in range(g.n):
        if q != p:
            opts = g.give_options(q, t, p)[0]
            gives[q] = opts[0] if opts else None
    hand = list(g.hands[p]) + [c for c in gives if c is not None]
    back = [None] * g.n
    for q in range(g.n):
        if q != p and hand:
            back[q] = hand.pop()
    g.collect(t, gives, back)


def test_the_round_is_finished_after_the_deck_runs_out():
    g = new_game(4, first=0)
    _collect_anything(g)                 # P1
    deck_left(g, 1)
    _produce_all_of_first_animal(g)      # P2 draws the last card
    assert g.deck_count() == 0 and g.final_turns() and not g.over
    _collect_anything(g)                 # P3: final turn
    assert not g.over
    _produce_all_of_first_animal(g)      # P4: final turn, draws nothing
    assert g.over and g.turns == [1, 1, 1, 1]
    assert "the game is over" in _refused(_collect_anything, g)


def test_the_first_player_running_out_gives_everyone_a_last_turn():
    g = new_game(3, first=1)
    deck_left(g, 1)
    _produce_all_of_first_animal(g)      # P2 (the first player) empties the deck
    assert not g.over and g.cur == 2
    _collect_anything(g)
    assert not g.over and g.cur == 0
    _collect_anything(g)
    assert g.over and g.turns == [1, 1, 1]


def test_last_seat_running_out_exactly():
    g = new_game(3, first=0)
    _collect_anything(g)
    _collect_anything(g)
    h = g.hands[2]
    a = h[0] // 20
    pieces = [c for c in h if c // 20 == a]
    deck_left(g, len(pieces))
    g.produce(a, pieces)
    assert g.deck_count() == 0
    assert g.over and g.turns == [1, 1, 1]


def test_a_final_turn_may_be_passed_but_no_other_turn():
    g = new_game(2, first=0)
    assert "only a final turn" in _refused(g.pass_turn)
    deck_left(g, 1)
    _produce_all_of_first_animal(g)
    g.pass_turn()
    assert g.over and g.turns == [1, 1]


def _finish_now(g):
    """Run the deck out on P1's produce and let the others pass."""
    deck_left(g, 0)
    while not g.over:
        g.pass_turn()


def test_unsold_cheese_earns_1_a_piece_and_leaves_the_game():
    g = new_game(2)
    for c in (card(COW, RED), card(COW, BLUE), card(GOAT, RED)):
        move(g, c, g.table[0])
    _finish_now(g)
    assert g.unsold_bonus == [3, 0]
    assert g.table == [[], []] and len(g.gone) == 3
    assert g.money[0] == 3
    g.census()


def test_most_sold_of_an_animal_earns_that_many():
    g = new_game(3)
    for c in (card(COW, RED), card(COW, BLUE), card(COW, GREEN)):
        move(g, c, g.sold[0])
    for c in (card(COW, YELLOW), card(GOAT, RED)):
        move(g, c, g.sold[1])
    _finish_now(g)
    assert g.top_bonus[COW] == (3, [0])
    assert g.top_bonus[GOAT] == (1, [1])
    assert g.top_bonus[SHEEP] is None
    assert g.bonus == [3, 1, 0] and g.money == [3, 1, 0]
    assert g.winners == [0]


def test_a_tie_goes_to_more_different_types_of_cheese():
    g = new_game(3)
    for c in (card(COW, RED), card(COW, BLUE)):
        move(g, c, g.sold[0])
    for c in (card(COW, YELLOW), card(COW, GREEN), card(SHEEP, RED)):
        move(g, c, g.sold[1])
    _finish_now(g)
    assert g.top_bonus[COW] == (2, [1])
    assert g.bonus == [0, 2 + 1, 0]


def test_still_tied_both_receive_it():
    g = new_game(3)
    for c in (card(COW, RED), card(COW, BLUE), card(GOAT, BLUE)):
        move(g, c, g.sold[0])
    for c in (card(COW, YELLOW), card(COW, GREEN), card(SHEEP, RED)):
        move(g, c, g.sold[2])
    _finish_now(g)
    assert g.top_bonus[COW] == (2, [0, 2])
    assert g.bonus == [2 + 1, 0, 2 + 1]
    assert g.winners == [0, 2]        # a tie for the most money is a shared win


def test_unsold_pieces_do_not_count_for_the_biggest_seller():
    g = new_game(2)
    move(g, card(COW, RED), g.sold[0])
    for c in (card(COW, YELLOW), card(COW, GREEN), card(COW, BLUE)):
        move(g, c, g.table[1])
    _finish_now(g)
    assert g.top_bonus[COW] == (1, [0])
    assert g.bonus == [1, 3]


def test_the_winner_has_the_most_money_with_bonuses():
    g = new_game(2)
    g.money = [10, 9]
    g.income = [10, 9]
    for c in (card(SHEEP, YELLOW), card(SHEEP, GREEN)):
        move(g, c, g.sold[1])
    _finish_now(g)
    assert g.money == [10, 11] and g.winners == [1]
