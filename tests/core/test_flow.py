"""The box's flow, driven through scenarios in virtual time (no sleeps)."""
from flowkit import play, fails, track
from sim.scenario import run_script
from cheesebox import display as D
from cheesemaster import flow as CM

START4 = "players 4\ndice yellow\n"
START8 = "players 8\ndice yellow\n"


def test_join_and_menu_then_wait_for_roll():
    r, sim = play(START4)
    assert r["state"] == "ready"
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 7, "P4": 7}
    assert r["dice"] == ["yellow A", "yellow B", "yellow C"]
    assert r["rounds"] == 0
    # nothing happens without ROLL, however long the table waits
    r, sim = play(START4 + "wait 60000\n")
    assert r["state"] == "ready" and "last_roll" not in r


def test_menu_choices_add_orange_dice_in_rulebook_order():
    r, _ = play("players 2\ndice yellow+1\n")
    assert r["dice"][-1] == "orange dog" and len(r["dice"]) == 4
    r, _ = play("players 2\ndice yellow+2\n")
    assert r["dice"][3:] == ["orange dog", "orange innkeeper"]
    r, _ = play("players 2\ndice yellow+3\n")
    assert r["dice"][3:] == ["orange dog", "orange innkeeper", "orange king"]


def test_faces_shown_within_3s_of_roll():
    r, sim = play(START4 + "roll cheese3 cheese1 cat\nrollbutton\nwait 1700\n")
    assert r["state"] == "grab"
    assert r["last_roll"] == ["cheese3", "cheese1", "cat"]
    assert r["cheese_left"] == 4


def test_roll_command_may_follow_rollbutton():
    r, _ = play(START4 + "rollbutton\nroll cheese2 cheese2 mouse2\nwait 3000\n")
    assert r["last_roll"] == ["cheese2", "cheese2", "mouse2"]


def test_plate_cards_round_owned_up_wrong_answer():
    # P1 P2 P3 grab, P4 is left without; P2 owns up: -2; P4: -1
    r, _ = play(START4 + "roll cheese3 cheese1 cat\nrollbutton\nwait 3000\n"
                "buzz P1\nbuzz P2\nbuzz P3\nown-up P2\nrollbutton\n")
    assert r["points"] == {"P1": 7, "P2": 5, "P3": 7, "P4": 6}
    assert r["rounds"] == 1 and r["marked"] == "P4"


def test_own_up_twice_takes_it_back():
    r, _ = play(START4 + "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\n"
                "own-up P2\nown-up P2\nrollbutton\n")
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 7, "P4": 6}


def test_check_ends_by_itself_after_30s():
    r, _ = play(START4 + "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\nwait 29000\n")
    assert r["state"] == "check" and r["rounds"] == 0
    r, _ = play(START4 + "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\nwait 31000\n")
    assert r["state"] == "ready" and r["rounds"] == 1


def test_false_start_grabs_nothing():
    # P1 slams during the roll animation: no wheel; presses again after the reveal
    r, sim = play(START4 + "rollbutton\nwait 500\nbuzz P1\nwait 2500\nbuzz P2\nbuzz P3\nbuzz P4\nrollbutton\n")
    assert r["false_starts"] == 1
    assert r["points"]["P1"] == 6 and r["marked"] == "P1"


def test_false_start_house_rule_costs_a_point():
    r, _ = play(START4 + "rollbutton\nwait 500\nbuzz P1\nwait 3000\n", false_start_costs=True)
    assert r["points"]["P1"] == 6


def test_electronic_wrong_answer_anna_7_to_5():
    # "Anna placed 3, but only 2 pieces were left": she loses 2
    r, _ = play(START8 + "roll cheese3 cheese1 mouse2\nrollbutton\nwait 3000\n"
                "answer P1 3\nbuzz P1\n"
                + "".join("answer P%d 2\nbuzz P%d\n" % (p, p) for p in range(2, 8)), "pico-8p")
    assert r["cheese_left"] == 2
    assert r["points"]["P1"] == 5 and r["points"]["P8"] == 6
    assert all(r["points"]["P%d" % p] == 7 for p in range(2, 8))


def test_electronic_grab_without_plate_refused_costs_1():
    r, _ = play(START8 + "rollbutton\nwait 3000\nbuzz P1\n", "pico-8p")
    assert r["points"]["P1"] == 6 and r["state"] == "grab"
    # then places a plate and grabs for real
    r, _ = play(START8 + "roll cheese1 cheese1 cheese1\nrollbutton\nwait 3000\nbuzz P1\nanswer P1 3\nbuzz P1\n"
                + "".join("answer P%d 3\nbuzz P%d\n" % (p, p) for p in range(2, 8)), "pico-8p")
    assert r["points"]["P1"] == 6 and r["points"]["P8"] == 6 and r["rounds"] == 1


def test_plate_placed_before_the_roll_does_not_count():
    r, _ = play(START8 + "answer P1 3\nrollbutton\nwait 3000\nbuzz P1\n", "pico-8p")
    assert r["points"]["P1"] == 6


def test_seven_plate_means_seven_or_more():
    r, _ = play("players 8\ndice yellow+3\nroll cheese3 cheese3 cheese3 cheese2 cheese2 cheese2\n"
                "rollbutton\nwait 3000\n"
                + "".join("answer P%d 7\nbuzz P%d\n" % (p, p) for p in range(1, 8)), "pico-8p")
    assert r["cheese_left"] == 15
    assert r["points"]["P8"] == 6 and r["points"]["P1"] == 7


def test_penalty_costs_one_and_does_not_roll():
    r, _ = play(START4 + "penalty P3\n")
    assert r["points"]["P3"] == 6 and r["state"] == "ready" and "last_roll" not in r
    r, _ = play(START4 + "rollbutton\nwait 3000\npenalty P2\n")
    assert r["points"]["P2"] == 6 and r["state"] == "grab"


def test_marked_player_starts_next_roll_with_buzzer():
    base = START4 + "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\nrollbutton\n"
    r, _ = play(base + "wait 1500\nbuzz P4\nwait 3000\n")
    assert r["state"] == "grab" and r["rounds"] == 1
    # a buzzer that is not the marked player's does not roll
    r, _ = play(base + "wait 1500\nbuzz P2\nwait 3000\n")
    assert r["state"] == "ready"
    # a late slam right after scoring does not roll either
    r, _ = play(base + "buzz P4\nwait 3000\n")
    assert r["state"] == "ready"


def test_elimination_and_winner_two_players():
    # P2 never gets a wheel: loses 1 a round, out after 7 rounds
    rnd = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 100\n"
    r, _ = play("players 2\ndice yellow\n" + rnd * 7)
    assert r["points"] == {"P1": 7, "P2": 0}
    assert r["eliminated"] == ["P2"] and r["winner"] == "P1"
    assert r["state"] == "gameover" and r["rounds"] == 7


def test_final_round_tie_is_replayed():
    # P1 at 2 guesses wrong (-2), P2 at 1 gets no wheel (-1): both would be out
    setup = "players 2\ndice yellow\n" + "penalty P1\n" * 5 + "penalty P2\n" * 6
    r, _ = play(setup + "rollbutton\nwait 3000\nbuzz P1\nown-up P1\nrollbutton\n")
    assert r["points"] == {"P1": 2, "P2": 1}
    assert r["eliminated"] == [] and r["winner"] is None
    assert r["replays"] == 1 and r["rounds"] == 1
    # the replay: P2 grabs right, P1 is without: P1 -> 1, then again -> out
    r, _ = play(setup + "rollbutton\nwait 3000\nbuzz P1\nown-up P1\nrollbutton\n"
                "wait 1500\nrollbutton\nwait 3000\nbuzz P2\nrollbutton\n"
                "wait 1500\nrollbutton\nwait 3000\nbuzz P2\nrollbutton\n")
    assert r["winner"] == "P2" and r["eliminated"] == ["P1"]


def test_penalty_can_eliminate_mid_round_and_end_game():
    r, _ = play("players 2\ndice yellow\n" + "penalty P2\n" * 7)
    assert r["winner"] == "P1" and r["state"] == "gameover"


def test_mid_round_elimination_takes_the_wheel_and_ends_round():
    # 3 players, P1 grabs; P2 (no wheel) is penalised out: P3 is the only one without
    setup = "players 3\ndice yellow\n" + "penalty P2\n" * 6
    r, _ = play(setup + "rollbutton\nwait 3000\nbuzz P1\npenalty P2\nrollbutton\n")
    assert r["eliminated"] == ["P2"]
    assert r["points"] == {"P1": 7, "P2": 0, "P3": 6}
    assert r["rounds"] == 1


def test_new_game_after_game_over_and_back_to_join():
    rnd = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 100\n"
    r, _ = play("players 2\ndice yellow\n" + rnd * 7 + "rollbutton\n")
    assert r["state"] == "ready" and r["games"] == 2
    assert r["points"] == {"P1": 7, "P2": 7}
    r, _ = play("players 2\ndice yellow\n" + rnd * 7 + "holdroll 2500\n")
    assert r["state"] == "join"


def test_tour_shows_faces_and_returns_to_ready():
    r, sim = play(START4 + "tour\nwait 2000\n")
    assert r["state"] == "tour"
    r, sim = play(START4 + "tour\nwait 6000\n")
    assert r["state"] == "ready"
    r, sim = play(START4 + "tour\nwait 1000\nrollbutton\nwait 3000\n")
    assert r["state"] == "grab"


def test_campaign_game_one_has_one_yellow_die():
    r, _ = play("players 2\ndice campaign\n")
    assert len(r["dice"]) == 1 and r["dice"][0].startswith("yellow")
    assert r["campaign"]["game"] == 1


def test_campaign_king_after_wins():
    rnd = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 100\n"
    game = rnd * 7
    r, _ = play("players 2\ndice campaign\n" + game + "rollbutton\n" + game)
    assert r["campaign"]["wins"] == {"P1": 2, "P2": 0}
    assert len(r["dice"]) == 2
    r, _ = play("players 2\ndice campaign\n" + game + "holdroll 2500\n")
    assert r["state"] == "king" and r["campaign"]["king"] == "P1"


def test_campaign_tie_plays_again():
    p1 = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 100\n" * 7
    p2 = "rollbutton\nwait 3000\nbuzz P2\nrollbutton\nwait 100\n" * 7
    r, _ = play("players 2\ndice campaign\n" + p1 + "rollbutton\n" + p2 + "holdroll 2500\n")
    assert r["state"] == "ready" and r["campaign"]["king"] is None
    r, _ = play("players 2\ndice campaign\n" + p1 + "rollbutton\n" + p2 + "holdroll 2500\n" + p2
                + "rollbutton\n")
    assert r["state"] == "king" and r["campaign"]["king"] == "P2"


def _dice_seen(sim, ms, step=250):
    """The icons the dice in play show over ms, sampled every step ms."""
    seen = set()
    for _ in range(ms // step):
        run_script(sim, "wait %d\n" % step)
        for die in sim.box.game.in_play:
            seen.add(sim.box.display.shown[die])
    return seen


def test_a_campaign_tie_break_game_shows_its_sign_before_its_first_roll():
    """The tied players' extra game looks like no other ready screen: its
    dice turn between the question mark and the replay sign (a shape, not
    only the two lit tracks); an ordinary campaign game's only ask."""
    p1 = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 100\n" * 7
    p2 = "rollbutton\nwait 3000\nbuzz P2\nrollbutton\nwait 100\n" * 7
    r, sim = play("players 2\ndice campaign\n" + p1 + "rollbutton\n")
    assert r["state"] == "ready" and _dice_seen(sim, 3000) == {"question"}
    r, sim = play("players 2\ndice campaign\n" + p1 + "rollbutton\n" + p2 + "holdroll 2500\n")
    assert r["state"] == "ready" and r["campaign"]["king"] is None
    assert _dice_seen(sim, 3000) == {"question", "replay"}


def test_tracks_show_points_wheels_and_colour_change():
    r, sim = play(START4 + "rollbutton\nwait 3000\nbuzz P1\n")
    lit, colour, wheel = track(sim, 0)
    assert lit == 7 and colour == D.SCORE and wheel == D.WHEEL
    assert track(sim, 3)[2] == (0, 0, 0)
    # P4 drops below 4: the card flips, the track changes colour
    r, sim = play(START4 + "penalty P4\n" * 4 + "wait 3000\n")
    lit, colour, wheel = track(sim, 3)
    assert lit == 3 and colour == CM.SCORE_LOW


def test_scenario_errors_name_the_line():
    assert fails("players 4\nfly away\n").startswith("line 2:")
    assert fails("players 9\n").startswith("line 1:")
    assert fails(START4 + "buzz P5\n").startswith("line 3:")
    assert fails(START4 + "answer P1 3\n").startswith("line 3:")
    assert fails(START4 + "roll dog cheese1 cat\nrollbutton\nwait 3000\n").startswith("line 3:")
    assert fails(START4 + "roll cheese1 cat\nrollbutton\nwait 3000\n").startswith("line 3:")
    assert fails(START4 + "roll cheese9\n").startswith("line 3:")
    assert fails("dice yellow\n").startswith("line 1:")
    assert fails(START4 + "wait soon\n").startswith("line 3:")
    assert fails("# comment only\n\nplayers 2 # two\ndice yellow\nbuzz\n").startswith("line 5:")


def test_same_seed_same_game_on_any_interpreter():
    script = START4 + "rollbutton\nwait 3000\nbuzz P2\nbuzz P3\nbuzz P1\nrollbutton\n"
    a, _ = play(script, seed=7)
    b, _ = play(script, seed=7)
    assert a == b
    # drawing the LEDs or not does not change the game
    c, _ = play(script, seed=7)
    assert a == c


def test_ticks_wrap_during_a_game():
    # the virtual ms clock starts 20 s before the 2**30 wrap: play across it
    rnd = "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\nrollbutton\nwait 2000\n"
    r, sim = play(START4 + rnd * 6)
    assert r["virtual_ms"] > 20000
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 7, "P4": 1}


def test_in_virtual_time_every_tumble_frame_and_note_goes_out_on_time():
    # the driver jumps from event to event, but wakes the box for each frame
    # of the tumble and each note of a tune, as the Pico's loop would run
    r, sim = play("players 2\ndice yellow\n")
    port = sim.port
    notes = []
    frames = []
    tone = port.tone

    def heard(freq):
        if freq != port.freq:
            notes.append(((port.t - t0) // 1000, freq))
        tone(freq)
    port.tone = heard
    ci = sim.board.dice[0][0]
    port.on_show = lambda chain, rgb: frames.append((port.t - t0) // 1000) if chain == ci else None
    t0 = port.t
    from sim.scenario import run_script
    run_script(sim, "rollbutton\nwait 1700\n")
    start = notes[0][0]
    assert [(t - start, f) for t, f in notes[:8]] == [(0, 300), (30, 0), (60, 350), (90, 0), (120, 300),
                                                     (150, 0), (180, 400), (210, 0)]
    tumble = [t - start for t in frames if start <= t < start + 1500]
    assert len(tumble) >= 15                                  # a frame every 90 ms for 1.5 s
    assert all(b - a <= 91 for a, b in zip(tumble, tumble[1:]))
    assert sim.box.state_name() == "grab"


def test_from_game_over_the_same_players_choose_any_dice_the_campaign_too():
    over = "players 3\ndice yellow\n" + "penalty P2\n" * 7 + "penalty P3\n" * 7
    r, sim = play(over + "buzz P2\n")          # a late slam: the game-over screen stays
    assert r["state"] == "gameover" and r["winner"] == "P1"
    r = run_script(sim, "wait 1000\nbuzz P2\n")     # any player's buzzer: the dice menu
    assert r["state"] == "menu" and not r["saved"]
    r = run_script(sim, "dice campaign\n")
    assert r["state"] == "ready" and r["campaign"]["game"] == 1 and len(r["dice"]) == 1
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 7}       # the same players, no joining
    # from a campaign's game over too: the campaign is left, any choice starts
    r = run_script(sim, "penalty P2\n" * 7 + "penalty P3\n" * 7 + "wait 1000\nbuzz P3\n"
                        "dice yellow+2\n")
    assert r["state"] == "ready" and "campaign" not in r and len(r["dice"]) == 5
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 7} and r["games"] == 3
