# Keying a Cheesonomics turn at the box, as a table does it, with the
# animations and tunes on: one key a value and one buzzer press per action
# on answer keys (pico-8p), a value a step on dials (pico2-8p) with a double
# tap entering one step; a refusal at the step where it becomes knowable,
# with a sign on the station; undo; what the table must see on the dice and
# tracks. Runs on CPython and MicroPython (tests/mp_runner.py).
# compiled once here, before a simulated box holds the heap: its names are
# interned now, so the qstr pool's next 4.6 KB block is not wanted later,
# in a heap the box has fragmented (the small MicroPython of make test-mp)
import cheesonomics.game  # noqa: F401
from flowkit import START_CHEESONOMICS as START
from flowkit import board, logged, track
from sim.scenario import Sim, run_script

PRODUCED = START + "produce P2 3\nproduce P3 2\nproduce P1 1\n"     # P2 to play, 3 pieces


def _sim(script, name="pico-8p", seed=1):
    lines = []
    sim = Sim(board(name), seed=seed, log=lines.append)       # animations and tunes on
    r = run_script(sim, script)
    return r, sim, lines


def _why(lines):
    return [e["why"] for e in logged(lines, "not_allowed")]


def test_one_buzzer_press_per_action_on_answer_keys():
    # collect 3 inputs, produce 3, a basic sale 5, a pass 2 (keys, then the buzzer)
    r, sim, lines = _sim(START + "answer P2 1\nanswer P2 2\nbuzz P2\n"        # collect goat
                         "answer P3 3\nanswer P3 2\nbuzz P3\n"                 # produce 2
                         "answer P1 3\nanswer P1 3\nbuzz P1\n"                 # produce 3
                         "answer P2 3\nanswer P2 2\nbuzz P2\n"
                         "answer P3 4\nanswer P3 1\nanswer P3 2\nanswer P3 2\nbuzz P3\n")  # sell 2 to Italy
    acts = logged(lines, "action")
    assert [a["act"] for a in acts] == ["collect", "produce", "produce", "produce", "sell"]
    assert acts[0]["type"] == "goat" and acts[4]["pieces"] == 2 and acts[4]["country"] == "Italy"
    assert _why(lines) == []
    sim.box.game.bank.deck = 0                     # the deck has run out: a pass is 2 inputs
    run_script(sim, "answer P1 0\nbuzz P1\n")
    assert logged(lines, "action")[-1]["act"] == "pass"


def test_a_locked_type_is_refused_at_which_with_a_sign_and_the_player_stays():
    r, sim, lines = _sim(START + "collect P2 goat\nanswer P3 1\nanswer P3 2\nwait 100\n")
    assert "goat is locked by P2's knife" in _why(lines)[0]     # before any buzzer
    g = sim.box.game
    assert g.k == 1 and g.step_name().startswith("which")       # still on "which"
    assert sim.box.display.shown[5] == "cross"                  # a cross on die 6
    seen = set()
    for _ in range(6):                                          # the station: 7 red LEDs, blinking
        run_script(sim, "wait 125\n")
        lit, colour, wheel = track(sim, 2)
        seen.add(lit)
        if lit:
            assert colour[0] > 0 and colour[1] == 0 and colour[2] == 0
    assert seen == {0, 7}
    run_script(sim, "wait 1500\nanswer P3 3\nbuzz P3\n")        # sheep: taken, confirmed
    assert logged(lines, "action")[-1]["type"] == "sheep"


def _take_off(bank, country):
    """Lay other countries' cards (from the hands) where `country`'s lie: it leaves the market."""
    spare = [m for m in range(25) if m not in list(bank.mk) and bank.cards.country[m] != country]
    for i in range(15):
        if bank.cards.country[bank.mk[i]] == country:
            bank.mk[i] = spare.pop()


def test_a_country_off_the_market_and_too_many_pieces_are_refused_at_their_step():
    r, sim, lines = _sim(PRODUCED + "answer P2 4\nanswer P2 1\n")
    _take_off(sim.box.game.bank, 0)
    run_script(sim, "answer P2 1\n")
    assert "France is not on the market" in _why(lines)[-1]
    assert sim.box.game.step_name().startswith("country")      # still on "country"
    run_script(sim, "wait 1500\nanswer P2 2\nanswer P2 3\n")   # Italy: taken; 3 pieces: P2 has 3
    assert sim.box.game.step_name().startswith("confirm")
    run_script(sim, "rollbutton\nanswer P2 4\n")                # back a step; 4 pieces: no such value
    assert "pieces takes 1 to 3, not 4" in _why(lines)[-1]
    r, sim, lines = _sim(START + "produce P2 2\nproduce P3 2\nproduce P1 2\n"
                         "answer P2 4\nanswer P2 1\nanswer P2 2\nanswer P2 3\n")
    assert "only 2 pieces of cheese are on the table" in _why(lines)[-1]
    assert sim.box.game.step_name().startswith("pieces")       # still on "pieces"
    assert logged(lines, "action")[-1]["act"] == "produce"      # nothing sold


def test_selling_with_nothing_on_the_table_is_refused_at_the_action():
    r, sim, lines = _sim(START + "answer P2 4\n")
    assert "no cheese on the table" in _why(lines)[0] and sim.box.game.k == 0


def test_a_buzzer_before_the_action_is_complete_is_refused_and_keeps_the_values():
    r, sim, lines = _sim(PRODUCED + "answer P2 4\nanswer P2 1\nbuzz P2\n")
    assert "not complete: country next" in _why(lines)[-1]
    run_script(sim, "answer P2 2\nanswer P2 1\nbuzz P2\n")
    assert logged(lines, "action")[-1]["act"] == "sell"


def _most_lit(sim, s):
    """The most LEDs station s's track lights over a blink period."""
    most = 0
    for _ in range(4):
        run_script(sim, "wait 130\n")
        most = max(most, track(sim, s)[0])
    return most


def test_each_step_has_its_position_on_the_track_and_its_letter_on_die_6():
    r, sim, lines = _sim(PRODUCED)
    signs = []
    for key in (4, 1, 2):
        run_script(sim, "answer P2 %d\nwait 2100\n" % key)     # after the value's name (2 s)
        signs.append(sim.box.display.shown[5])
        assert _most_lit(sim, 1) == sim.box.game.k + 1         # done steps + the blinking one
    assert signs[0] != signs[1] and signs[1] != signs[2]         # animal, country, pieces
    run_script(sim, "answer P2 1\nwait 2100\n")
    assert sim.box.display.shown[5].startswith("OK")            # complete: press the buzzer
    assert _most_lit(sim, 1) == 4 and track(sim, 1)[2] != (0, 0, 0)


def test_a_double_tap_on_a_dial_enters_one_step():
    # the dial at 3 (produce): two quick presses used to log a produce of 3
    r, sim, lines = _sim(START + "answer P2 3\nwait 300\nfingers P2 0-40 P2 90-130\nwait 500\n",
                         name="pico2-8p")
    assert logged(lines, "action") == []
    g = sim.box.game
    assert g.k == 1 and g.step_name().startswith("cards")
    run_script(sim, "buzz P2\n")                     # a step later, shown: 3 cards, the same dial
    assert logged(lines, "action")[0]["cards"] == 3


def test_a_dialled_sale_keys_its_pieces_with_the_action():
    # on a dial 4, 5, 6 sell 1, 2, 3 pieces: a basic sale is three presses
    # (the action, the animal, the country), the country's press plays it
    r, sim, lines = _sim(PRODUCED + "answer P2 5\nwait 400\n", name="pico2-8p")
    g = sim.box.game
    assert _die_lit(sim, 5) == _drawn("S2")                      # where it stands: sell 2
    run_script(sim, "buzz P2\nwait 400\nanswer P2 1\nbuzz P2\nwait 400\nanswer P2 2\nbuzz P2\n")
    acts = logged(lines, "action")
    assert acts[-1]["act"] == "sell" and acts[-1]["pieces"] == 2 and acts[-1]["country"] == "Italy"
    assert acts[-1]["animal"] == "cow" and _why(lines) == []
    assert g.k == 0 and acts[-1]["p"] == "P2"                    # played at the country: P3's turn now


def test_a_dialled_sale_of_more_pieces_than_on_the_table_is_refused_at_the_action():
    r, sim, lines = _sim(START + "produce P2 2\nproduce P3 2\nproduce P1 1\nanswer P2 6\nwait 400\nbuzz P2\n",
                         name="pico2-8p")
    g = sim.box.game
    assert "only 2 pieces of cheese are on the table" in _why(lines)[-1]
    assert g.k == 0 and sim.box.display.shown[5] == "cross"      # still on the action, the cross
    run_script(sim, "wait 1500\nanswer P2 5\nbuzz P2\nwait 400\nanswer P2 1\nbuzz P2\n"
                    "wait 400\nanswer P2 2\nbuzz P2\nwait 400\n")
    assert g.k == 0 and logged(lines, "action")[-1]["pieces"] == 2  # sell 2: taken, played


def test_roll_steps_back_over_a_dialled_sale_s_country_to_its_animal():
    r, sim, lines = _sim("game cheesonomics\nplayers 3\nvariant advanced\nproduce P2 3\nproduce P3 3\n"
                         "produce P1 2\nenter P2 6 1 2\n", name="pico2-8p")
    g = sim.box.game
    assert g.step_name().startswith("forbid mark")               # sell 3, cow, Italy: the mark next
    run_script(sim, "rollbutton\n")
    assert g.step_name().startswith("country")                  # back over the country, not to pieces
    run_script(sim, "rollbutton\n")
    assert g.step_name().startswith("animal")


def test_holding_roll_during_the_advanced_layout_keeps_the_game():
    """It used to abandon the game; now it only asks "stop?" (the box's one
    stop gesture), and a buzzer says no: the same sector, ROLL pages on."""
    r, sim, lines = _sim("game cheesonomics\nplayers 3\nbuzz P1\nrollbutton\n")
    assert sim.box.state_name() == "layout"
    run_script(sim, "holdroll 2500\n")
    assert sim.box.state_name() == "stop?" and sim.box.game.page == 0
    run_script(sim, "buzz P1\n")
    assert sim.box.state_name() == "layout" and sim.box.game.page == 0
    run_script(sim, "rollbutton\nrollbutton\nrollbutton\n")
    assert sim.box.state_name() == "turn"


def test_undo_restores_the_bank_exactly_and_survives_a_power_cut():
    r, sim, lines = _sim(PRODUCED)
    before = sim.box.game.bank.snapshot()
    run_script(sim, "sell P2 cow Italy 2\n")
    assert sim.box.game.bank.money[1] > 0
    run_script(sim, "powercut\nrollbutton\n")                   # resumed: the undo is still there
    run_script(sim, "undo P2\n")
    assert sim.box.game.bank.snapshot() == before              # money, market sides, deck, knives, turn
    undo = logged(lines, "undo")
    assert len(undo) == 1 and undo[0]["p"] == "P2" and undo[0]["money"] == 0
    run_script(sim, "powercut\nrollbutton\n")
    assert sim.box.game.bank.snapshot() == before              # the undo was saved too


def _die_lit(sim, d):
    """Which of die d's 64 pixels are lit, row by row (a shape, whatever its colour)."""
    from cheesebox.display import wire_index
    ci, start, layout = sim.board.dice[d]
    rgb = sim.port.rgb[ci]
    out = []
    for y in range(8):
        for x in range(8):
            i = 3 * (start + wire_index(layout, x, y))
            out.append(any(rgb[i:i + 3]))
    return out


def _drawn(text):
    """The 64 pixels `text` lights on a die (font.py), row by row."""
    from cheesebox.font import rows_for
    rows = rows_for(text, bytearray(8))
    return [bool((rows[y] >> (7 - x)) & 1) for y in range(8) for x in range(8)]


def test_die_6_names_what_was_keyed_in_letters_on_keys():
    # sell, goat, Italy, 3 pieces: each value's name, not only its number
    r, sim, lines = _sim(PRODUCED)
    for key, name in ((4, "SE"), (2, "GO"), (2, "IT"), (3, "N3")):
        run_script(sim, "answer P2 %d\nwait 100\n" % key)
        assert _die_lit(sim, 5) == _drawn(name), name
    run_script(sim, "wait 2000\n")
    assert _die_lit(sim, 5) == _drawn("OK")                     # then: complete, press the buzzer
    r, sim, lines = _sim(START + "answer P2 2\nanswer P2 2\nwait 100\n")
    assert _die_lit(sim, 5) == _drawn("YE")                     # collect by place: yellow


def test_die_6_names_where_the_dial_stands_before_it_is_taken():
    r, sim, lines = _sim(PRODUCED, name="pico2-8p")
    g = sim.box.game
    run_script(sim, "answer P2 4\nwait 100\n")
    assert g.k == 0 and _die_lit(sim, 5) == _drawn("S1")       # not taken yet: what it would be (sell 1)
    run_script(sim, "buzz P2\nwait 400\nanswer P2 5\nwait 100\n")
    assert g.k == 1 and _die_lit(sim, 5) == _drawn("CA")       # sell taken by the buzzer; the dial on camel
    run_script(sim, "answer P2 7\nwait 100\n")
    assert _die_lit(sim, 5) == _drawn("A")                      # no animal 7: the step's letter


def test_an_undo_is_seen_on_die_6_as_well_as_heard():
    r, sim, lines = _sim(PRODUCED + "collect P2 goat\n")
    before = _die_lit(sim, 5)                                   # P3's turn: "P3"
    run_script(sim, "undo P2\n")
    assert logged(lines, "undo")[0]["p"] == "P2"
    undone = _die_lit(sim, 5)
    assert sim.box.display.shown[5] == "undo1"                  # an arrow turning back, P2's colour
    assert undone != before and undone != _die_lit(_sim(START)[1], 5)    # nor "P2" at a turn's start
    run_script(sim, "answer P2 3\n")                            # P2 keys again: what, then their step
    assert sim.box.display.shown[5] == "nPR1"
    run_script(sim, "wait 2100\n")
    assert sim.box.display.shown[5] == "TK1"
    r, sim, lines = _sim(PRODUCED + "collect P2 goat\nundo P2\nwait 3500\n")
    assert sim.box.display.shown[5] == "P1"                     # 3 s on: P2's turn, as before


def test_a_refused_undo_blinks_the_station_red():
    r, sim, lines = _sim(PRODUCED + "collect P2 goat\nwait 100\n")
    run_script(sim, "undo P1\n")                               # not P1's action: refused
    assert "only P2 can undo" in _why(lines)[-1]
    seen = set()
    for _ in range(6):
        run_script(sim, "wait 125\n")
        lit, colour, wheel = track(sim, 0)
        seen.add(lit)
        if lit:
            assert colour[0] > 0 and colour[1] == 0 and colour[2] == 0
    assert seen == {0, 7}
    run_script(sim, "wait 1500\n")
    assert track(sim, 0)[0] == 0                                # then as before


def test_undo_is_refused_once_the_next_player_keyed_a_value_or_by_another_player():
    r, sim, lines = _sim(PRODUCED + "collect P2 goat\nundo P1\n")
    assert "only P2 can undo" in _why(lines)[-1]
    run_script(sim, "answer P3 3\nundo P2\n")
    assert "nothing to undo" in _why(lines)[-1]
    assert sim.box.game.bank.knife[1] == 1                      # P2's knife still on goat


def test_the_games_last_action_can_be_undone_on_the_final_screen():
    # nobody is next to key a value there: the undo stays open until the table leaves
    r, sim, lines = _sim(START + "produce P2 3\nproduce P3 2\n")
    sim.box.game.bank.deck = 0
    sim.box.game.saved_bank = None                              # changed behind the box's back
    before = sim.box.game.bank.snapshot()
    run_script(sim, "produce P1 1\n")                           # the last action: game over
    assert sim.box.state_name() == "final" and logged(lines, "final")
    run_script(sim, "undo P1\n")
    assert _why(lines) == [] and logged(lines, "undo")[0]["p"] == "P1"
    assert sim.box.state_name() == "turn" and sim.box.game.active() == 0   # P1 plays it again
    assert sim.box.game.bank.snapshot() == before
    run_script(sim, "powercut\n")                               # the save is the turn's, not the result
    assert sim.box.state_name() == "resume"
    run_script(sim, "rollbutton\nproduce P1 1\n")
    assert sim.box.state_name() == "final" and len(logged(lines, "final")) == 2


def _price_keys(prices):
    return ["p%d.%d" % (c, prices[c]) if prices[c] else "-" for c in range(5)]


def test_the_next_player_sees_the_prices_at_once_and_the_sale_paid_on_die_6():
    r, sim, lines = _sim(PRODUCED + "sell P2 cow Italy 2\n")
    sale = logged(lines, "action")[-1]
    shown = sim.box.display.shown
    assert shown[:5] == _price_keys(sale["prices"])             # the new prices, at once
    assert shown[5] == "paid%d.1" % sale["paid"]                # what P2 was paid, on die 6
    ci, start, layout = sim.board.dice[5]
    from cheesebox.display import wire_index
    rgb = sim.port.rgb[ci]
    bar = [rgb[3 * (start + wire_index(layout, x, 7)):3 * (start + wire_index(layout, x, 7)) + 3]
           for x in range(8)]
    assert all(any(px) for px in bar)                            # underlined: not money on demand
    run_script(sim, "answer P3 4\n")                            # P3 begins: die 6 what they keyed
    assert sim.box.display.shown[5] == "nSE2" and sim.box.display.shown[:5] == _price_keys(sale["prices"])
    run_script(sim, "wait 2100\n")                              # then their step
    assert sim.box.display.shown[5] == "TA2" and sim.box.display.shown[:5] == _price_keys(sale["prices"])
    r, sim, lines = _sim(PRODUCED + "sell P2 cow Italy 2\nwait 3500\n")
    assert sim.box.display.shown[5] == "P2"                      # 3 s on: P3 (station 2) to play


def test_roll_with_nothing_keyed_shows_the_deck_and_the_players_own_money():
    r, sim, lines = _sim(PRODUCED + "sell P2 cow Italy 2\nproduce P3 1\nproduce P1 1\nrollbutton\n")
    b = sim.box.game.bank
    shown = sim.box.display.shown
    assert shown[3] == "D" and shown[4] == "d%d" % b.deck      # the deck count
    money = "%4d" % b.money[1]
    assert shown[0] == "m%s1" % money[:2] and shown[1] == "m%s.1" % money[2:]   # P2's own money
    r, sim, lines = _sim(PRODUCED + "buzz P2\n")                 # the own buzzer, nothing keyed: the same
    assert sim.box.display.shown[3] == "D"


def test_the_forbidden_mark_blinks_on_the_sellers_track():
    r, sim, lines = _sim("game cheesonomics\nplayers 3\nvariant advanced\n"
                         "produce P2 3\nproduce P3 2\nproduce P1 1\nsell P2 cow Italy 1 forbid bucket\n")
    assert logged(lines, "action")[-1]["forbid"] == "bucket"
    seen = set()
    for _ in range(6):
        run_script(sim, "wait 125\n")
        seen.add(track(sim, 1)[0])
    assert seen == {0, 3}                                       # bucket = 3 LEDs, blinking


def test_final_turns_are_logged_and_the_players_left_light_their_wheels():
    r, sim, lines = _sim(START + "produce P2 3\n")
    sim.box.game.bank.deck = 3
    run_script(sim, "produce P3 3\nsell P1 cow Italy 1\nwait 100\n")   # P1 refused: no cheese
    assert logged(lines, "final_turns")[0]["left"] == ["P1"]    # the deck ran out: P1's turn ends the round
    assert sim.box.game.bank.final_turns()
    r, sim, lines = _sim(START)
    sim.box.game.bank.deck = 2
    run_script(sim, "produce P2 2\nwait 300\n")                 # the deck runs out after the first turn
    assert logged(lines, "final_turns")[0]["left"] == ["P3", "P1"]
    assert track(sim, 0)[2] != (0, 0, 0)                         # P1 waits for a final turn
    assert track(sim, 1)[2] == (0, 0, 0)                         # P2 has had theirs


def _die6_over(sim, ms):
    seen = set()
    for _ in range(ms // 100):
        run_script(sim, "wait 100\n")
        seen.add(sim.box.display.shown[5])
    return seen


def test_the_final_turns_and_how_many_are_left_show_on_die_6():
    r, sim, lines = _sim(START)
    assert _die6_over(sim, 2500) == {"P1"}                      # P2's turn, deck not out: only whose
    sim.box.game.bank.deck = 2
    run_script(sim, "produce P2 2\n")                           # the deck runs out: P3 and P1 left
    assert _die6_over(sim, 2500) == {"P2", "F2"}                # P3's turn, then "F2", in turn
    run_script(sim, "answer P3 3\nwait 2000\n")               # PR (produce) named for 2 s
    assert _die6_over(sim, 2500) == {"TK2"}                     # keying: the step's letter only
    run_script(sim, "rollbutton\npass P3\n")
    assert _die6_over(sim, 2500) == {"P0", "F1"}                # P1's, the last final turn


def test_the_last_actions_money_is_before_the_bonuses():
    r, sim, lines = _sim(START + "produce P2 3\nproduce P3 2\n")
    sim.box.game.bank.deck = 0
    run_script(sim, "produce P1 1\n")                           # the last action: game over
    final = logged(lines, "final")[0]
    assert final["money"]["P1"] == 1                            # its unsold piece pays 1 at the end
    assert logged(lines, "action")[-1]["money"] == 0            # not yet in the action


def test_the_resume_event_carries_cheesonomics_fields():
    r, sim, lines = _sim(PRODUCED + "powercut\nrollbutton\n")
    ev = logged(lines, "resume")[0]
    assert ev["game"] == "cheesonomics" and ev["deck"] == 39 and ev["turn"] == "P2"
    assert ev["turns"] == 3 and ev["money"] == {"P1": 0, "P2": 0, "P3": 0}
    assert "points" not in ev and "round" not in ev


def test_back_to_cheese_master_on_a_plate_card_board_clears_the_cross():
    r, sim, lines = _sim("game cheesonomics\nplayers 3\n", name="pico-4p")
    assert sim.box.display.shown[0] == "cross"
    run_script(sim, "game cheese master\n")
    assert sim.box.display.shown[0] != "cross"
