# Cheesonomics on the box, as the table sees it: the box as market and bank
# on pico-8p (answer keys) and pico2-8p (dials). Runs on CPython and on
# MicroPython (tests/mp_runner.py). Power cuts and saves:
# test_cheesonomics_box_saves.py (a module of its own: each starts from a
# fresh heap on the small MicroPython).
from flowkit import START_CHEESONOMICS as START
from flowkit import board, fails, logged, play_logged as _play, track
from sim.scenario import Sim, run_script


def test_the_table_picks_cheesonomics_with_a_long_roll_and_back():
    r, sim, lines = _play("game cheesonomics\ngame cheese master\nplayers 2\n")
    assert r["state"] == "menu"                     # Cheese Master's dice menu, as always
    assert [e["game"] for e in logged(lines, "pick")] == ["cheesonomics", "cheese master"]


def test_a_board_with_plate_cards_says_it_cannot_host_cheesonomics():
    r, sim, lines = _play("game cheesonomics\nplayers 3\n", name="pico-4p")
    assert r["state"] == "join"
    err = logged(lines, "error")
    assert len(err) == 1 and "answer keys or dials" in err[0]["what"] and "pico-4p" in err[0]["what"]
    assert sim.box.display.shown[0] == "cross"      # and the dice say so


def test_six_players_are_too_many():
    r, sim, lines = _play("game cheesonomics\nplayers 6\n")
    assert r["state"] == "join"
    assert "2 to 5 players, not 6" in logged(lines, "error")[0]["what"]


def test_the_market_opens_with_prices_on_the_dice_and_the_first_player_marked():
    r, sim, lines = _play(START)
    c = r["cheesonomics"]
    assert r["state"] == "turn" and c["turn"] == "P2" and c["deck"] == 100 - 40 - 15
    assert c["money"] == {"P1": 0, "P2": 0, "P3": 0}
    shown = sim.box.display.shown
    for k in range(5):
        price = c["prices"][k]
        assert shown[k] == ("p%d.%d" % (k, price) if price else "-")
    assert shown[5] == "P1"                         # die 6: "P2" (station index 1)


def test_a_sale_pays_the_price_and_turns_the_country_over():
    r, sim, lines = _play(START + "produce P2 3\nproduce P3 2\nproduce P1 1\n")
    b = sim.box.game.bank
    italy = b.price(1)
    r, sim, lines = _play(START + "produce P2 3\nproduce P3 2\nproduce P1 1\nsell P2 cow Italy 2\n")
    sale = logged(lines, "action")[-1]
    assert sale["act"] == "sell" and sale["paid"] == 2 * italy
    assert r["cheesonomics"]["money"]["P2"] == 2 * italy
    assert sale["prices"][1] == sim.box.game.bank.price(1)
    assert r["cheesonomics"]["deck"] == 45 - 6


def test_a_knife_locks_the_type_until_its_owner_plays_again():
    r, sim, lines = _play(START + "collect P2 goat\ncollect P3 goat\ncollect P3 red\n"
                          "collect P1 goat\ncollect P1 blue\ncollect P2 goat\n")
    refused = [e for e in logged(lines, "not_allowed") if "knife" in e["why"]]
    assert [e["p"] for e in refused] == ["P3", "P1"]        # refused at "which", not after
    assert "P2's knife" in refused[0]["why"]        # stations, not seat numbers
    acts = [(e["p"], e["type"]) for e in logged(lines, "action")]
    assert acts == [("P2", "goat"), ("P3", "red"), ("P1", "blue"), ("P2", "goat")]


def test_the_knife_shows_on_its_owners_track():
    r, sim, _ = _play(START + "collect P2 goat\n")
    # goat is animal 2: two LEDs, amber; P2 is no longer active
    lit, colour, wheel = track(sim, 1)
    assert lit == 2 and colour[0] > 200 and colour[2] == 0 and wheel == (0, 0, 0)


def test_too_many_pieces_or_an_early_pass_are_refused_and_change_nothing():
    r, sim, lines = _play(START + "produce P2 2\nproduce P3 2\nproduce P1 2\nsell P2 cow France 3\n"
                          "pass P2\n")
    why = [e["why"] for e in logged(lines, "not_allowed")]
    # 3 pieces refused at "pieces" (then the buzzer: incomplete); the pass at the action
    assert len(why) == 3 and "2 pieces" in why[0] and "not complete" in why[1] and "final turns" in why[2]
    assert r["cheesonomics"]["money"]["P2"] == 0 and r["cheesonomics"]["turn"] == "P2"


def test_an_advanced_sale_with_an_exchange_plays_to_the_end():
    # keyed in at P2's station with the box animating, as a Pico runs it (the
    # dice were once drawn for a step past the exchange's last value: a crash)
    with open("tests/scenarios/cheesonomics_exchange.txt") as f:
        r, sim, lines = _play(f.read())
    sale = logged(lines, "action")[-1]
    assert (sale["p"], sale["act"], sale["paid"]) == ("P2", "sell", 27)
    assert sale["forbid"] == "trowel"
    assert (sale["exchange"], sale["laid"]) == ("Netherlands 2|1", "France 2|1")
    assert logged(lines, "error") == [] and logged(lines, "not_allowed") == []
    c = r["cheesonomics"]
    assert c["money"]["P2"] == 27 and c["turn"] == "P3"
    run_script(sim, "wait 3500\n")                       # past the sale's sum on the dice
    shown = sim.box.display.shown
    assert shown[3] == "p3.%d" % c["prices"][3]          # the Netherlands' new price
    assert shown[5] == "P2"                               # P3 ("P2": station index 2) plays


def test_roll_goes_back_a_step_and_a_wrong_value_is_not_taken():
    # P2 keys 1 (collect), then ROLL: back to the action; 3 (produce), 7 is out
    # of range for cards (1-5): refused at once, not taken; then 4 cards
    r, sim, lines = _play(START + "answer P2 1\nrollbutton\nenter P2 3 7 4\n")
    assert "cards takes 1 to 5, not 7" in logged(lines, "not_allowed")[0]["why"]
    acts = logged(lines, "action")
    assert len(acts) == 1 and acts[0]["act"] == "produce" and acts[0]["cards"] == 4


def test_a_key_pressed_after_the_buzzer_does_not_count_for_that_step():
    # P2 presses the buzzer first, the key 3 (produce) 30 ms later: no action,
    # the key waits for the number of cards
    r, sim, lines = _play(START + "fingers P2 0-60 P2=3@30\n")
    assert logged(lines, "action") == [] and sim.box.game.k == 1


def test_money_on_demand_changes_nothing():
    r, sim, lines = _play(START + "produce P2 3\nproduce P3 2\nproduce P1 1\nsell P2 cow Italy 2\n"
                          "buzz P2\n")
    before = r["cheesonomics"]
    assert sim.box.display.shown[5].startswith("m")        # dice 5-6: P2's money
    lit, colour, wheel = track(sim, 1)
    assert lit == 7 and wheel == colour == (0, 90, 255)     # P2's track in P2's colour
    r2 = run_script(sim, "wait 3500\n")
    assert r2["cheesonomics"] == before
    assert sim.box.display.shown[5] == "P2"                 # P3's turn again on die 6


def test_game_over_then_another_game_or_back_to_joining():
    r, sim, lines = _play(START)
    bank = sim.box.game.bank
    bank.deck = 0                       # the deck runs out (the table's last draw)
    run_script(sim, "pass P2\npass P3\npass P1\n")
    assert sim.box.state_name() == "final"
    final = logged(lines, "final")
    assert final[0]["winners"] == ["P1", "P2", "P3"]        # nobody earned: all tied
    assert "game.json" in sim.fs.files          # the final screen, kept for a power cut
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "variant" and not r["saved"]              # left: nothing to come back to
    r = run_script(sim, "variant advanced\n")
    assert r["cheesonomics"]["variant"] == "advanced" and r["games"] == 2
    bank = sim.box.game.bank
    bank.deck = 0
    run_script(sim, "pass %s\n" % r["cheesonomics"]["turn"])
    r = run_script(sim, "holdroll 2500\n")
    assert r["state"] == "stop?"        # a long ROLL in a turn only asks
    r = run_script(sim, "buzz P1\n")
    assert r["state"] == "turn"         # and any buzzer says no


def test_dials_work_without_touching_a_key():
    r, sim, lines = _play(START + "produce P2 3\n", name="pico2-8p")
    assert logged(lines, "action")[0]["cards"] == 3


def test_scenario_commands_say_what_is_wrong():
    assert "no Cheesonomics game" in fails("sell P1 cow France 1\n", "pico-8p")
    assert "country must be one of" in fails(START + "sell P2 cow Narnia 1\n", "pico-8p")
    assert "game must be one of" in fails("game chess\n", "pico-8p")


def test_the_chosen_country_shows_its_price_again_after_the_step():
    # animated: the chosen country blinks in the country step; whatever the
    # blink phase at the buzzer, the next step (on a dial the country's press
    # plays a basic sale: the next turn) shows every price
    for wait in (300, 350, 400, 450):
        lines = []
        sim = Sim(board("pico2-8p"), seed=1, log=lines.append)
        run_script(sim, START + "produce P2 3\nproduce P3 2\nproduce P1 1\nenter P2 6 1\nanswer P2 2\n"
                   "wait %d\nbuzz P2\nwait 600\n" % wait)
        assert sim.box.game.step_name().startswith("action")
        shown = sim.box.display.shown
        assert shown[1] == "p1.%d" % sim.box.game.bank.price(1), (wait, shown)


def test_a_dial_shows_its_value_on_the_track_from_the_first_turn():
    r, sim, lines = _play("game cheesonomics\nanswer P2 2\nplayers 3\nvariant basic\nwait 500\n",
                          name="pico2-8p")         # after the step's own 0.5 s
    lit, colour, wheel = track(sim, 1)
    assert lit == 2 and colour == (255, 255, 255)       # P2's dial at 2: two white LEDs


def test_asking_for_money_never_covers_your_own_turn():
    r, sim, lines = _play(START + "buzz P3\nproduce P2 2\n")
    assert sim.box.display.shown[5] == "P2"             # P3 ("P2" is station index 2) to play
    lit, colour, wheel = track(sim, 2)
    assert lit <= 1                                     # the entry (one blinking LED), not the money


def test_advanced_the_dice_show_the_market_cards_to_lay_out_sector_by_sector():
    r, sim, lines = _play("game cheesonomics\nplayers 3\n")
    run_script(sim, "buzz P1\nrollbutton\n")              # advanced, then ROLL
    assert sim.box.state_name() == "layout"
    cards = logged(lines, "market")[0]["cards"]          # "Italy 1|2", one a position
    colours = {"France": 0, "Italy": 1, "Switzerland": 2, "Netherlands": 3, "Greece": 4}
    for page in range(3):
        shown = sim.box.display.shown
        for i in range(5):
            country, signs = cards[page * 5 + i].rsplit(" ", 1)
            assert shown[i] == "L%d%s" % (colours[country], signs.replace("|", ""))
        assert shown[5] == "S%d" % page
        run_script(sim, "buzz P2\n")                      # any buzzer (or ROLL): the next sector
    assert sim.box.state_name() == "turn"
