"""What real hands do at the table: overlapping presses, hesitations, double
taps. Each test plays the situation through the simulated port."""
from flowkit import play, fails
from sim.scenario import run_script
from sim.scenario import match_of

START4 = "players 4\ndice yellow\n"
ROUND1 = START4 + "roll cheese3 cheese1 cat\nrollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\nrollbutton\n"


def test_marked_roller_buzzer_just_after_someone_touches_roll_starts_the_roll():
    # P4 (marked) presses the buzzer 20 ms after a neighbour presses ROLL:
    # an ordinary press, the roll starts, nobody is penalised
    r, sim = play(ROUND1 + "wait 1500\nfingers ROLL 0-100 P4 20-80\n")
    assert r["state"] == "rolling"
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 7, "P4": 6}
    r, sim = play(ROUND1 + "wait 1500\nfingers ROLL 0-100 P4 20-80\nwait 3000\n")
    assert r["state"] == "grab" and r["rounds"] == 1


def test_finger_resting_on_roll_while_a_player_grabs_is_a_grab():
    r, sim = play(START4 + "roll cheese3 cheese1 cat\nrollbutton\nwait 3000\n"
                  "fingers ROLL 0-250 P1 100-160\nbuzz P2\nbuzz P3\nrollbutton\n")
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 7, "P4": 6}
    assert r["rounds"] == 1


def test_roll_press_overlapped_by_a_buzzer_does_nothing_when_let_go():
    # in the check, an own-up while someone taps ROLL: the own-up counts and
    # that ROLL press does not end the check
    r, sim = play(START4 + "roll cheese3 cheese1 cat\nrollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\n"
                  "wait 3000\nfingers ROLL 0-100 P2 50-110\n")
    assert r["state"] == "check"
    r, sim = play(START4 + "roll cheese3 cheese1 cat\nrollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\n"
                  "wait 3000\nfingers ROLL 0-100 P2 50-110\nrollbutton\n")
    assert r["points"] == {"P1": 7, "P2": 5, "P3": 7, "P4": 6}


def test_penalty_needs_roll_held_300ms_first():
    r, _ = play(START4 + "fingers ROLL 0-500 P2 300-360\n")
    assert r["points"]["P2"] == 6 and r["state"] == "ready"
    # 290 ms: not yet the gesture: an ordinary press (nothing between rounds
    # after a round), and the ROLL press does nothing
    r, _ = play(ROUND1 + "wait 1500\nfingers ROLL 0-500 P2 290-350\n")
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 7, "P4": 6}
    assert r["state"] == "ready"
    # the scenario's penalty line is the deliberate gesture
    r, _ = play(START4 + "rollbutton\nwait 3000\npenalty P2\n")
    assert r["points"]["P2"] == 6 and r["state"] == "grab"


def test_fingers_line_is_checked():
    assert fails(START4 + "fingers ROLL 0-100 P2\n").startswith("line 3:")
    assert fails(START4 + "fingers P9 0-100\n").startswith("line 3:")
    assert fails(START4 + "fingers P2 100-50\n").startswith("line 3:")
    assert fails(START4 + "fingers P2 soon\n").startswith("line 3:")


GAMEOVER2 = "players 2\ndice yellow\n" + "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 100\n" * 7


def test_penalty_gesture_outside_a_game_does_nothing():
    r, sim = play(GAMEOVER2 + "fingers ROLL 0-600 P2 400-460\n")
    assert r["state"] == "gameover" and r["games"] == 1
    # the menu: the choice does not move, nothing is confirmed
    r, sim = play("players 2\nfingers ROLL 0-600 P1 400-460\n")
    assert r["state"] == "menu" and sim.box.game.choice == 0
    # joining: nobody joins or leaves, the game does not start
    r, sim = play("buzz P1\nbuzz P2\nfingers ROLL 0-600 P3 400-460\n")
    assert r["state"] == "join" and list(sim.box.joined[:4]) == [1, 1, 0, 0]


def test_penalty_in_a_round_survives_a_power_cut_and_a_watchdog_reset():
    grab = START4 + "roll cheese3 cheese1 cat\nrollbutton\nwait 3000\nbuzz P1\npenalty P2\n"
    r, sim = play(grab + "powercut\nrollbutton\n")
    assert r["state"] == "ready" and r["boots"] == 2
    assert r["points"] == {"P1": 7, "P2": 6, "P3": 7, "P4": 7}
    assert r["rounds"] == 0          # the cut round is played again
    r, sim = play(grab + "hang 9000\n")
    assert r["state"] == "ready" and r["points"]["P2"] == 6
    # the replayed round is round 1 again on the log
    r, sim = play(grab + "powercut\nrollbutton\nrollbutton\nwait 3000\n")
    assert match_of(sim.box).round_no == 1


def test_elimination_by_penalty_in_a_round_survives_a_power_cut():
    setup = "players 3\ndice yellow\n" + "penalty P2\n" * 6
    r, sim = play(setup + "rollbutton\nwait 3000\npenalty P2\npowercut\nrollbutton\n")
    assert r["points"] == {"P1": 7, "P2": 0, "P3": 7}
    assert r["eliminated"] == ["P2"] and r["state"] == "ready"


def test_refused_grab_survives_a_power_cut():
    r, sim = play("players 3\ndice yellow\nrollbutton\nwait 3000\nbuzz P2\npowercut\nrollbutton\n",
                  "pico-8p")
    assert r["points"] == {"P1": 7, "P2": 6, "P3": 7}


def _scores(lines):
    import json
    return [d for d in (json.loads(x) for x in lines) if d["ev"] == "score"]


def test_tie_replay_gives_back_only_scoring_losses_and_shows_no_loss():
    from flowkit import track
    from cheesebox import display as D
    setup = "players 2\ndice yellow\n" + "penalty P1\n" * 5 + "penalty P2\n" * 5
    lines = []
    # P2 takes a table penalty in the round (2 -> 1); P1 answers wrong (-2),
    # P2 has no wheel (-1): both would be out: replay, P2's penalty stands
    r, sim = play(setup + "rollbutton\nwait 3000\npenalty P2\nbuzz P1\nown-up P1\nrollbutton\nwait 200\n",
                  log=lines.append)
    assert r["replays"] == 1 and r["points"] == {"P1": 2, "P2": 1}
    last = _scores(lines)[-1]
    assert last["result"] == "replay" and last["lost"] == {}
    for s in (0, 1):
        lit, colour, wheel = track(sim, s)
        assert colour != D.BAD          # no red blinking loss on the tracks
    # whatever the blink phase: step through 1 s and never see red score LEDs
    for _ in range(10):
        sim.wait(100)
        sim.box.step()
        for s in (0, 1):
            ci, start = sim.board.tracks[s]
            for i in range(7):
                assert tuple(sim.port.rgb[ci][3 * (start + i):3 * (start + i) + 3]) != D.BAD


def test_logged_loss_is_what_was_really_taken():
    lines = []
    r, sim = play("players 3\ndice yellow\n" + "penalty P1\n" * 6
                  + "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nown-up P1\nrollbutton\n", log=lines.append)
    assert r["points"] == {"P1": 0, "P2": 7, "P3": 6}
    assert _scores(lines)[-1]["lost"] == {"P1": 1, "P3": 1}


DIAL3 = "players 3\ndice yellow\n"
ROUND_333 = "roll cheese1 cheese1 cheese1\nrollbutton\nwait 3000\n"


def test_dial_left_on_the_right_answer_is_that_answer_next_round():
    # round 1: P1 and P2 turn to 3 and grab; round 2: nobody touches a dial
    r, sim = play(DIAL3 + ROUND_333 + "answer P1 3\nbuzz P1\nanswer P2 3\nbuzz P2\n"
                  "roll cheese1 cheese1 cheese1\nwait 1500\nbuzz P3\nwait 3000\nbuzz P1\nbuzz P2\n", "pico2-8p")
    assert r["rounds"] == 2
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 5}


def test_dial_turned_and_buzzer_slammed_at_once_is_the_new_position():
    # the dial reaches 3 and the buzzer goes down 20 ms later: a grab with 3
    r, sim = play(DIAL3 + ROUND_333 + "answer P1 3\nbuzz P1\n", "pico2-8p")
    assert r["points"]["P1"] == 7 and match_of(sim.box).locked[0] == 3
    # turned 5 ms before the buzzer: the dial's position at the grab
    r, sim = play(DIAL3 + ROUND_333 + "fingers P1=3@0 P1 5-60\n", "pico2-8p")
    assert r["points"]["P1"] == 7 and match_of(sim.box).locked[0] == 3


def test_dial_never_turned_shows_a_plate_and_never_refuses():
    r, sim = play(DIAL3 + ROUND_333 + "buzz P1\n", "pico2-8p")
    assert r["state"] == "grab" and match_of(sim.box).holder[0] == 1
    assert match_of(sim.box).locked[0] == 0 and r["points"]["P1"] == 7


def test_sim_dial_that_does_not_move_reports_nothing():
    r, sim = play(DIAL3 + "wait 100\n", "pico2-8p")
    seq = bytes(sim.port.answer_seq)
    r, sim2 = play(DIAL3 + "wait 100\nanswer P1 0\nwait 100\n", "pico2-8p")
    assert bytes(sim2.port.answer_seq) == seq
    r, sim3 = play(DIAL3 + "wait 100\nanswer P1 4\nwait 100\n", "pico2-8p")
    assert sim3.port.answer_seq[0] == (seq[0] + 1) & 0xFF
    # a power cut moves no dial
    r, sim = play(DIAL3 + "answer P1 5\npowercut\nrollbutton\n" + ROUND_333 + "buzz P1\n", "pico2-8p")
    assert match_of(sim.box).locked[0] == 5


KEYS3 = "players 3\ndice yellow\n"


def test_key_pressed_10ms_before_the_buzzer_counts():
    r, sim = play(KEYS3 + ROUND_333 + "fingers P1=3@0 P1 10-70\n", "pico-8p")
    assert r["points"]["P1"] == 7 and match_of(sim.box).locked[0] == 3


def test_key_pressed_after_the_buzzer_never_counts():
    # an earlier key stands: the one pressed 3 ms after the buzzer is not the plate
    r, sim = play(KEYS3 + ROUND_333 + "answer P1 2\nfingers P1 0-60 P1=5@3\n", "pico-8p")
    assert match_of(sim.box).locked[0] == 2
    # with no earlier key this round: a grab before placing a plate (-1)
    r, sim = play(KEYS3 + ROUND_333 + "fingers P1 0-60 P1=5@3\n", "pico-8p")
    assert r["points"]["P1"] == 6 and match_of(sim.box).holder[0] == 0
    # the last key before the buzzer is the plate
    r, sim = play(KEYS3 + ROUND_333 + "fingers P1=2@0 P1=4@20 P1 40-100\n", "pico-8p")
    assert match_of(sim.box).locked[0] == 4


def test_key_pressed_just_after_the_roll_starts_counts():
    # ROLL is let go, a key goes down 2 ms later (before the box has even
    # confirmed the ROLL release): it is this round's plate
    r, sim = play(KEYS3 + "roll cheese1 cheese1 cheese1\nfingers ROLL 0-60 P1=3@62\nwait 3000\nbuzz P1\n",
                  "pico-8p")
    assert match_of(sim.box).locked[0] == 3 and r["points"]["P1"] == 7


CHECK4 = START4 + "roll cheese3 cheese1 cat\nrollbutton\nwait 3000\nbuzz P1\nbuzz P2\n"


def test_check_shows_the_count_3s_before_roll_can_end_it():
    # ROLL 100 ms after the last wheel: the check goes on until 3 s
    r, sim = play(CHECK4 + "fingers P3 0-60 ROLL 100-160\nwait 1000\n")
    assert r["state"] == "check" and r["rounds"] == 0
    # ... an own-up in those 3 s still counts, and the check ends at 3 s by itself
    r, sim = play(CHECK4 + "fingers P3 0-60 ROLL 100-160\nwait 1000\nfingers P2 0-60\nwait 2000\n")
    assert r["state"] == "ready" and r["rounds"] == 1
    assert r["points"] == {"P1": 7, "P2": 5, "P3": 7, "P4": 6}
    # after 3 s, ROLL ends it at once
    r, sim = play(CHECK4 + "fingers P3 0-60\nwait 3000\nfingers ROLL 0-60\n")
    assert r["state"] == "ready" and r["rounds"] == 1


def test_double_slam_on_the_last_wheel_is_not_an_own_up():
    r, sim = play(CHECK4 + "fingers P3 0-60 P3 160-220\nwait 3000\nrollbutton\n")
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 7, "P4": 6}
    # a press 600 ms after the grab is an own-up
    r, sim = play(CHECK4 + "fingers P3 0-60 P3 600-660\nwait 3000\nrollbutton\n")
    assert r["points"] == {"P1": 7, "P2": 7, "P3": 5, "P4": 6}


ROUND_P1 = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 100\n"
GAME_P1 = ROUND_P1 * 7


def test_campaign_tally_is_on_the_tracks_between_games():
    from flowkit import track
    from cheesebox import display as D
    r, sim = play("players 2\ndice campaign\n" + GAME_P1 + "rollbutton\n" + GAME_P1 + "wait 300\n")
    assert r["state"] == "gameover" and r["campaign"]["wins"] == {"P1": 2, "P2": 0}
    # P2's track: no wins; P1's: 2 wins in P1's colour (blinking, as the game's winner)
    seen = set()
    for _ in range(8):
        sim.wait(130)
        sim.box.step()
        lit, colour, wheel = track(sim, 0)
        seen.add((lit, colour))
        assert track(sim, 1)[0] == 0
    assert (2, D.STATION[0]) in seen


def test_campaign_can_be_abandoned_in_a_game_and_ended_at_game_over():
    # the stop gesture: a long ROLL asks, ROLL confirms
    r, sim = play("players 2\ndice campaign\n" + ROUND_P1 * 2 + "holdroll 2500\nrollbutton\n")
    assert r["state"] == "join" and "campaign" not in r and not r["saved"]
    # a new campaign starts from nothing: nobody has joined
    r, sim = play("players 2\ndice campaign\n" + ROUND_P1 * 2 +
                  "holdroll 2500\nrollbutton\nplayers 2\ndice campaign\n")
    assert r["campaign"] == {"game": 1, "wins": {"P1": 0, "P2": 0}, "king": None}
    # at game over: hold ROLL 2 s ends it and crowns the king; only the King's
    # screen is saved (a power cut comes back to it), ROLL then leaves it
    r, sim = play("players 2\ndice campaign\n" + GAME_P1 + "holdroll 2500\n")
    assert r["state"] == "king" and r["campaign"]["king"] == "P1" and r["saved"]
    r = run_script(sim, "rollbutton\n")
    assert r["state"] == "join" and not r["saved"]


def test_back_to_joining_nobody_is_joined():
    r, sim = play("players 2\ndice yellow\n" + GAME_P1 + "holdroll 2500\nbuzz P1\n")
    assert r["state"] == "join" and list(sim.box.joined[:2]) == [1, 0]


def _leds(sim, s):
    ci, start = sim.board.tracks[s]
    buf = sim.port.rgb[ci]
    return [tuple(buf[3 * (start + i):3 * (start + i) + 3]) for i in range(8)]


def test_marked_press_too_soon_has_a_sign():
    from cheesebox import display as D
    from cheesebox import sound
    # P4 is marked; slams 300 ms after scoring: no roll, but a sign (a short beep)
    r, sim = play(ROUND1 + "wait 200\n")
    heard = []
    tone = sim.port.tone

    def listen(freq):
        heard.append(freq)
        tone(freq)
    sim.port.tone = listen
    r = run_script(sim, "fingers P4 0-60\n")
    assert r["state"] == "ready" and sound.TOO_SOON[0] in heard
    # the wheel LED is steady white while the buzzer cannot roll, then blinks
    r, sim = play(ROUND1)
    for _ in range(6):
        sim.wait(120)
        sim.box.step()
        assert _leds(sim, 3)[7] == D.MARK
    seen = set()
    for _ in range(8):
        sim.wait(130)
        sim.box.step()
        seen.add(_leds(sim, 3)[7])
    assert seen == {D.MARK, D.OFF}


def test_own_up_has_its_own_sign():
    from cheesebox import display as D
    r, sim = play(CHECK4 + "buzz P3\nown-up P2\n")
    red = set()
    for _ in range(8):
        sim.wait(130)
        sim.box.step()
        leds = _leds(sim, 1)
        red.add(leds[5] == D.BAD and leds[6] == D.BAD)
        assert leds[4] == D.SCORE               # the 5 points that stay
    assert red == {True, False}                 # the 2 at stake blink red
    # a player who did not own up: all 7 points steady
    assert _leds(sim, 0)[:7] == [D.SCORE] * 7


def test_presses_of_stations_not_in_the_game_are_not_logged_as_players():
    import json
    lines = []
    play("players 2\ndice yellow\nrollbutton\nwait 3000\nbuzz P3\nbuzz P1\n", log=lines.append)
    presses = [json.loads(x)["p"] for x in lines if '"press"' in x]
    assert presses == ["P1"]
