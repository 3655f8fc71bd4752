# The box as market and bank (companion mode): the players hold the
# milk-cheese cards, the box keeps the market, the money, the deck count,
# the knives, the pieces produced and sold, the turns and the bonuses.
import json

from cheesokit import (COW, GOAT, SHEEP, BUFFALO, CAMEL, RED, FRANCE, ITALY, SWISS, GREECE,
                       TROWEL, HORN, refused)
from cheesonomics.bank import Bank, restore
from cheesonomics.cardfile import NONE
from sim.cheesonomics.engine import Game
from flowkit import raises
from sim.cheesonomics.arrange import cards
from sim.rng import SeededRandom


def positions(b, country):
    """Market positions holding `country`'s cards, in position order."""
    return [i for i in range(len(b.mk)) if b.cards.country[b.mk[i]] == country]


def _bank(n, advanced=False, seed=1, first=0):
    return Bank(cards(), n, SeededRandom(seed), advanced, first)


def _market(b):
    # the default list: card 5k+i of country k shows (1|2, 2|1, 1|1, 2|2, 1|2)
    # France: cards 0, 1, 3 (side A up: 1 + 2 + 2 = 5); Italy: card 5 side B (2),
    # 9 6 7 8 side A (1 + 2 + 1 + 2); Switzerland 10, 11 side A (1 + 2 = 3);
    # Netherlands: 15..19 side A (1 + 2 + 1 + 2 + 1); Greece absent (cards 20..24)
    b.mk = bytearray([0, 1, 3, 5, 10, 11, 15, 16, 17, 18, 19, 9, 6, 7, 8])
    b.side = bytearray([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])


def _same(b, snap):
    assert b.snapshot() == snap


def _collect_free(b):
    """The active player names the first type no other knife locks."""
    t = 0
    while b.locked_by(t, b.cur) >= 0:
        t += 1
    b.collect(t)


def _finish(b):
    """Run the deck out now and let everyone pass their final turns."""
    b.deck = 0
    while not b.over:
        b.pass_turn()


# -- setup -----------------------------------------------------------------------

def test_the_deck_holds_what_is_not_removed_or_dealt():
    for n, left in ((2, 30), (3, 45), (4, 60), (5, 75)):
        b = _bank(n)
        assert b.deck == left == 100 - (0, 0, 60, 40, 20, 0)[n] - 5 * n
        assert b.deck_count() == left and not b.final_turns()
        assert len(b.mk) == 15 and len(set(b.mk)) == 15
        assert all(s in (0, 1) for s in b.side)
        assert b.money == [0] * n and list(b.table) == [0] * n and list(b.sold) == [0] * 5 * n
        assert list(b.knife) == [NONE] * n and list(b.forbid) == [NONE] * n
        assert b.turns == [0] * n and b.cur == b.first == 0 and not b.over


def test_one_or_six_players_or_a_missing_first_player_is_refused():
    for n in (0, 1, 6):
        assert "2 to 5 players" in str(raises(Exception, _bank, n))
    assert "no player 4" in str(raises(Exception, _bank, 3, False, 1, 3))


def test_same_seed_same_market_and_first_player_as_the_engine():
    for seed in (1, 2, 9):
        b = Bank(cards(), 4, SeededRandom(seed))
        g = Game(cards(), 4, SeededRandom(seed))
        assert b.mk == g.mk and b.side == g.side and b.first == g.first == b.cur


# -- the market --------------------------------------------------------------------

def test_price_is_the_sum_of_the_countrys_signs():
    b = _bank(3)
    _market(b)
    assert [b.price(k) for k in range(5)] == [5, 8, 3, 7, 0]
    assert positions(b, FRANCE) == [0, 1, 2]
    assert positions(b, ITALY) == [3, 11, 12, 13, 14]
    assert positions(b, GREECE) == []


def test_cards_are_labelled_by_country_and_signs():
    b = _bank(2)
    assert b.card_label(0) == "France 1|2"          # no number: cards carry none
    assert b.card_label(7) == "Italy 1|1"
    assert b.card_label(23) == "Greece 2|2"


# -- collecting milk and the knives ---------------------------------------------------

def test_a_knife_locks_the_type_for_the_others_until_the_owners_next_turn():
    b = _bank(3)
    b.collect(COW)                               # P1 locks cow
    assert b.knife[0] == COW and b.cur == 1
    assert b.locked_by(COW, 1) == 0 and b.locked_by(COW, 0) == -1
    snap = b.snapshot()
    assert "cow is locked by player 1's knife" in refused(b.collect, COW)
    _same(b, snap)
    b.collect(5 + RED)                           # a place is another type, even if it holds cows
    assert "red is locked by player 2's knife" in refused(b.collect, 5 + RED)
    b.collect(GOAT)
    b.collect(COW)                               # P1 took the knife back: free for the owner
    assert b.knife[0] == COW
    b.collect(SHEEP)                             # P2's turn: took back red
    assert b.knife[1] == SHEEP
    b.produce(1)                                 # P3: goat lock ends
    assert b.knife[2] == NONE and b.cur == 0
    b.collect(GOAT)                              # P1's turn cleared the cow lock ...
    assert b.locked_by(COW, 1) == -1             # ... and set a goat lock
    assert b.locked_by(GOAT, 1) == 0


def test_no_such_milk_type_is_refused():
    b = _bank(2)
    for t in (-1, 10, "cow", None):
        assert "no milk type" in refused(b.collect, t)
    assert b.cur == 0 and b.turns == [0, 0]


# -- producing ------------------------------------------------------------------------

def test_producing_lays_the_pieces_and_draws_back_to_five():
    b = _bank(2)
    b.produce(3)
    assert list(b.table) == [3, 0] and b.deck == 27 and b.cur == 1
    b.produce(5)
    assert list(b.table) == [3, 5] and b.deck == 22
    for k in (0, 6, -1, "3"):
        assert "produce 1 to 5 pieces" in refused(b.produce, k)
    assert b.deck == 22 and b.cur == 0


def test_the_last_draw_empties_the_deck_and_starts_the_final_turns():
    b = _bank(2)
    b.deck = 2
    b.produce(4)                                 # draws only 2
    assert b.deck == 0 and b.final_turns() and not b.over
    b.produce(2)                                 # a final turn draws nothing
    assert b.deck == 0 and b.over


def test_production_needs_cards_in_the_hands():
    b = _bank(2)
    b.deck = 0
    b.table = bytearray([5, 0])
    b.sold = bytearray([0, 0, 0, 0, 0, 0, 3, 0, 0, 0])   # P2 sold 3 goats
    assert b.in_hands() == 40 - 8
    b.table[0] = 35
    assert "only 2 milk-cheese cards are left" in refused(b.produce, 3)
    b.produce(2)
    assert b.in_hands() == 0


# -- the end of the deck and the final turns ----------------------------------------------

def test_everyone_has_the_same_number_of_turns():
    for n in range(2, 6):
        for first in range(n):
            for emptier in range(n):
                b = _bank(n, first=first)
                for _ in range(n + emptier):     # a round, then up to the one who empties it
                    _collect_free(b)
                b.deck = 1
                b.produce(1)
                while not b.over:
                    b.pass_turn()
                assert b.turns == [b.turns[0]] * n, (n, first, emptier, b.turns)
                assert b.cur == (first - 1) % n
                assert "the game is over" in refused(b.collect, COW)


def test_a_final_turn_may_be_passed_but_no_other_turn():
    b = _bank(3, first=1)
    assert "only a final turn" in refused(b.pass_turn)
    b.deck = 1
    b.produce(1)                                 # P2, the first player, empties the deck
    assert b.cur == 2 and not b.over
    b.pass_turn()
    b.collect(CAMEL)                             # the last seat before the first player
    assert b.over and b.turns == [1, 1, 1]


# -- selling -------------------------------------------------------------------------

def test_a_sale_pays_pieces_times_price_and_turns_the_country_over():
    b = _bank(3)
    _market(b)
    b.table = bytearray([4, 0, 0])
    sides = bytes(b.side)
    b.sell(COW, FRANCE, 3)
    assert b.money == [15, 0, 0] and b.income == [15, 0, 0]
    assert b.sold[0 * 5 + COW] == 3 and list(b.table) == [1, 0, 0]
    assert list(b.side[:3]) == [1, 1, 1] and bytes(b.side)[3:] == sides[3:]
    assert b.price(FRANCE) == 2 + 1 + 2
    assert b.cur == 1 and b.turns == [1, 0, 0]


def test_turning_over_changes_the_next_price():
    b = _bank(2)
    _market(b)
    b.table = bytearray([1, 1])
    b.sell(GOAT, ITALY, 1)                       # 8, then 1+2 ... turned: 2+1+2+1+1
    assert b.money[0] == 8 and b.price(ITALY) == 7
    b.sell(SHEEP, ITALY, 1)
    assert b.money[1] == 7 and b.price(ITALY) == 8


def test_refused_sales_change_nothing():
    b = _bank(2)
    _market(b)
    b.table = bytearray([5, 2])
    snap = b.snapshot()
    assert "sell 1 to 3 pieces, not 4" in refused(b.sell, COW, FRANCE, 4)
    assert "sell 1 to 3 pieces, not 0" in refused(b.sell, COW, FRANCE, 0)
    assert "Greece is not on the market" in refused(b.sell, COW, GREECE, 1)
    assert "no animal" in refused(b.sell, 5, FRANCE, 1)
    assert "no country" in refused(b.sell, COW, 5, 1)
    assert "special marks and exchanges are for the advanced variant" in refused(b.sell, COW, FRANCE, 1, TROWEL)
    assert "advanced variant" in refused(b.sell, COW, FRANCE, 1, None, (0, 20, 0))
    _same(b, snap)
    b.produce(1)
    assert "only 2 pieces of cheese are on the table" in refused(b.sell, COW, FRANCE, 3)


def test_a_refusal_counts_in_words():
    """'only 1 piece ... is', never 'only 1 pieces ... are'; none is 'no'."""
    from cheesonomics.scoring import only
    assert only(1, "piece of cheese", "pieces of cheese", "on the table") == "only 1 piece of cheese is on the table"
    assert only(2, "piece of cheese", "pieces of cheese", "on the table") == "only 2 pieces of cheese are on the table"
    assert only(0, "milk-cheese card", "milk-cheese cards", "left in the hands") == \
        "no milk-cheese cards are left in the hands"


# -- advanced: forbidden mark and exchange -------------------------------------------------

def test_a_forbidden_mark_is_shown_until_the_sellers_next_turn():
    b = _bank(2, advanced=True)
    _market(b)
    b.table = bytearray([3, 3])
    assert "no special mark" in refused(b.sell, COW, FRANCE, 1, 5)
    b.sell(COW, FRANCE, 1, HORN)
    assert b.forbid[0] == HORN
    b.sell(GOAT, ITALY, 1)
    assert b.forbid[0] == NONE                   # P1 took the knife back


def test_an_exchange_lays_a_hand_card_and_turns_the_rest_over():
    b = _bank(3, advanced=True)
    _market(b)
    b.table = bytearray([3, 0, 0])
    snap = b.snapshot()
    greece4 = 23                                 # Greece 2|2
    assert "exchange one of the market cards of France" in refused(b.sell, COW, FRANCE, 2, None, (3, greece4, 0))
    assert "France 1|2 is on the market, not in a hand" in refused(b.sell, COW, FRANCE, 2, None, (1, 0, 0))
    assert "side A (0) or B (1)" in refused(b.sell, COW, FRANCE, 2, None, (1, greece4, 2))
    assert "(market position, card, side)" in refused(b.sell, COW, FRANCE, 2, None, (1, greece4))
    assert "no market card" in refused(b.sell, COW, FRANCE, 2, None, (1, 25, 0))
    _same(b, snap)
    b.sell(COW, FRANCE, 2, None, (1, greece4, 1))  # France 2 (2 signs) leaves for a hand
    assert b.money[0] == 10
    assert list(b.mk[:3]) == [0, greece4, 3] and list(b.side[:3]) == [1, 1, 1]
    assert b.price(FRANCE) == 2 + 2 and b.price(GREECE) == 2
    assert positions(b, GREECE) == [1]


def test_exchanging_a_countrys_only_card_takes_it_off_the_market():
    b = _bank(2, advanced=True)
    _market(b)
    b.table = bytearray([1, 1])
    b.sell(CAMEL, SWISS, 1)                      # Switzerland 10, 11 turn over
    b.mk[5] = 20                                 # now Switzerland has one card, position 4
    b.side[5] = 0
    assert positions(b, SWISS) == [4]
    b.sell(CAMEL, SWISS, 1, None, (4, 21, 0))
    assert b.price(SWISS) == 0 and b.price(GREECE) == 1 + 2
    b.table[0] = 1
    assert "Switzerland is not on the market" in refused(b.sell, COW, SWISS, 1)


# -- the bonuses and the winner -------------------------------------------------------

def _ended(n, sold=(), table=None, money=None):
    """A game ended now: sold = (player, animal, pieces) ..., table = unsold
    pieces, money = money from sales, each player's."""
    b = _bank(n)
    for p, a, k in sold:
        b.sold[p * 5 + a] = k
    if table:
        b.table = bytearray(table)
    if money:
        b.money = list(money)
        b.income = list(money)
    _finish(b)
    return b


def test_unsold_cheese_pays_1_a_piece_and_leaves_the_table():
    b = _ended(2, table=[3, 0])
    assert b.unsold_bonus == [3, 0] and list(b.table) == [0, 0]
    assert b.money == [3, 0] and b.bonus == [3, 0] and b.winners == [0]


def test_most_sold_of_an_animal_earns_that_many():
    b = _ended(3, [(0, COW, 3), (1, COW, 1), (1, GOAT, 1)])
    assert b.top_bonus == [(3, [0]), (1, [1]), None, None, None]
    assert b.bonus == [3, 1, 0] and b.money == [3, 1, 0] and b.winners == [0]


def test_a_tie_goes_to_more_different_types_of_cheese():
    b = _ended(3, [(0, COW, 2), (1, COW, 2), (1, SHEEP, 1)])
    assert b.kinds(0) == 1 and b.kinds(1) == 2
    assert b.top_bonus[COW] == (2, [1])
    assert b.bonus == [0, 2 + 1, 0]


def test_still_tied_both_receive_it():
    b = _ended(3, [(0, COW, 2), (0, GOAT, 1), (2, COW, 2), (2, SHEEP, 1)])
    assert b.top_bonus[COW] == (2, [0, 2])
    assert b.bonus == [3, 0, 3]
    assert b.winners == [0, 2]                   # a tie for the most money is a shared win


def test_unsold_pieces_do_not_count_for_the_biggest_seller():
    b = _ended(2, [(0, BUFFALO, 1)], table=[0, 3])
    assert b.top_bonus[BUFFALO] == (1, [0]) and b.bonus == [1, 3]


def test_the_winner_has_the_most_money_with_bonuses():
    b = _ended(2, [(1, SHEEP, 2)], money=[10, 9])
    assert b.money == [10, 11] and b.winners == [1]


# -- saving -------------------------------------------------------------------------

def _played(seed=4, n=4, advanced=True, turns=12):
    b = Bank(cards(), n, SeededRandom(seed), advanced)
    rng = SeededRandom(seed + 100)
    for _ in range(turns):
        if b.over:
            break
        _random_move(b, rng)
    return b


def test_a_snapshot_is_plain_json_and_restores_exactly():
    for b in (_bank(2), _played(), _played(5, 3, False, 200)):
        snap = b.snapshot()
        text = json.dumps(snap)
        c = restore(cards(), json.loads(text))
        assert c.snapshot() == snap and json.dumps(c.snapshot()) == text
        assert c.mk == b.mk and c.side == b.side and c.table == b.table and c.sold == b.sold
        assert c.top_bonus == b.top_bonus and c.winners == b.winners and c.over == b.over
        if not b.over:                           # both go on alike
            r1, r2 = SeededRandom(7), SeededRandom(7)
            for _ in range(30):
                _random_move(b, r1)
                _random_move(c, r2)
            assert c.snapshot() == b.snapshot()


def _corrupt(snap, key, value):
    d = json.loads(json.dumps(snap))
    d[key] = value
    return str(raises(ValueError, restore, cards(), d))


def test_a_corrupt_save_is_refused_with_a_reason():
    snap = _played().snapshot()
    n = snap["n"]
    assert "not a saved game" in str(raises(ValueError, restore, cards(), [1, 2]))
    assert "not a Cheesonomics bank save" in str(raises(ValueError, restore, cards(), {}))
    assert "'money'" in _corrupt(snap, "money", [-1] + snap["money"][1:])
    assert "'money'" in _corrupt(snap, "money", snap["money"][1:])
    assert "'sold'" in _corrupt(snap, "sold", snap["sold"] + [0])
    assert "'side'" in _corrupt(snap, "side", [2] + snap["side"][1:])
    assert "'side'" in _corrupt(snap, "side", None)
    mk = list(snap["mk"])
    mk[1] = mk[0]
    assert "market card %d is on the market twice" % mk[0] in _corrupt(snap, "mk", mk)
    assert "'mk'" in _corrupt(snap, "mk", [25] + mk[1:])
    assert "'cur'" in _corrupt(snap, "cur", n)
    assert "'cur'" in _corrupt(snap, "cur", "1")
    assert "'n'" in _corrupt(snap, "n", 6)
    assert "'deck'" in _corrupt(snap, "deck", -1)
    assert "'deck'" in _corrupt(snap, "deck", 61)
    assert "'knife'" in _corrupt(snap, "knife", [10] * n)
    assert "two knives" in _corrupt(snap, "knife", [COW, COW] + [NONE] * (n - 2))
    assert "'winners'" in _corrupt(snap, "winners", 3)
    assert "'top_bonus'" in _corrupt(snap, "top_bonus", [])
    money = list(snap["money"])
    money[0] += 1
    assert "is not sales" in _corrupt(snap, "money", money)
    assert "turn order" in _corrupt(snap, "turns", [0] * (n - 1) + [5])
    assert "more cheese than cards drawn" in _corrupt(snap, "table", [60] * n)
    assert "do not add up" in _corrupt(snap, "winners", [0])
    basic = _played(advanced=False).snapshot()
    assert "advanced variant" in _corrupt(basic, "forbid", [TROWEL] + [NONE] * (n - 1))


def test_no_corrupt_field_gets_past_restore_or_crashes_it():
    for snap in (_played().snapshot(), _played(6, 3, False, 300).snapshot()):
        n = snap["n"]
        for key in snap:
            for bad in (None, -1, "1", [], [None] * n, [-1] * n, [300] * (5 * n), 10 ** 6, {}, [[]] * 5):
                d = json.loads(json.dumps(snap))
                d[key] = bad
                try:
                    b = restore(cards(), d)
                except ValueError as e:
                    assert str(e).startswith("save: "), e
                else:                            # harmless only if it changed nothing
                    assert b.snapshot() == snap, (key, bad)


def test_a_finished_game_is_checked_too():
    b = _played(6, 3, False, 300)
    assert b.over
    snap = b.snapshot()
    assert restore(cards(), snap).snapshot() == snap
    bonus = list(snap["bonus"])
    bonus[0] += 1
    money = list(snap["money"])
    money[0] += 1
    d = json.loads(json.dumps(snap))
    d["bonus"], d["money"] = bonus, money
    assert "do not add up" in str(raises(ValueError, restore, cards(), d))
    assert "round is not" in _corrupt(snap, "deck", 1)
    assert _corrupt(snap, "over", 0).startswith("save: ")


# -- whole games --------------------------------------------------------------------

def _random_move(b, rng):
    """Any move the box accepts (refused ones are retried); returns what was done."""
    p = b.cur
    while True:
        r = rng.getrandbits(4)
        try:
            if r < 5:
                b.collect(rng.getrandbits(4) % 10)
                return ("collect", p, 0)
            if r < 10:
                b.produce(1 + rng.getrandbits(3) % 5)
                return ("produce", p, 0)
            if r < 15:
                country = rng.getrandbits(3) % 5
                price = b.price(country)
                k = 1 + rng.getrandbits(2) % 3
                mark = exchange = None
                if b.advanced and rng.getrandbits(1):
                    mark = rng.getrandbits(3) % 5
                if b.advanced and rng.getrandbits(1) and price:
                    pos = positions(b, country)
                    out = [m for m in range(25) if m not in list(b.mk)]
                    exchange = (pos[rng.getrandbits(4) % len(pos)], out[rng.getrandbits(4) % len(out)],
                                rng.getrandbits(1))
                b.sell(rng.getrandbits(3) % 5, country, k, mark, exchange)
                return ("sell", p, price * k)
            b.pass_turn()
            return ("pass", p, 0)
        except ValueError:
            pass


def test_whole_games_keep_the_books():
    for seed in range(1, 9):
        n = 2 + seed % 4
        b = Bank(cards(), n, SeededRandom(seed), seed % 2 == 1)
        rng = SeededRandom(seed * 31)
        moves = 0
        while not b.over:
            money = list(b.money)
            deck = b.deck
            what, p, paid = _random_move(b, rng)
            moves += 1
            assert 0 <= b.deck <= deck
            for q in range(n):                   # money only from this sale (and the bonuses)
                assert b.money[q] == money[q] + (paid if q == p else 0) + (b.bonus[q] if b.over else 0)
                assert b.bonus[q] == 0 or b.over
            assert len(set(b.mk)) == 15
            t = b.turns
            assert max(t) - min(t) <= 1
            if moves % 7 == 0:
                assert restore(cards(), json.loads(json.dumps(b.snapshot()))).snapshot() == b.snapshot()
        assert b.turns == [b.turns[0]] * n
        assert b.money == [b.income[q] + b.bonus[q] for q in range(n)]
        assert sum(b.bonus) >= sum(b.unsold_bonus)
        assert b.winners and all(b.money[w] == max(b.money) for w in b.winners)
        assert b.deck == 0 and list(b.table) == [0] * n
