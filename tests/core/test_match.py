# One game of Cheese Master: points, wheels, judging, elimination, tie replay.
# Runs under pytest on CPython and under tests/mp_runner.py on MicroPython.
#
# MicroPython must compile this module in a small, already fragmented heap
# (it runs after the flow tests), so the round-by-round stories are short
# scripts run by play() below: text is cheap to compile, code is not.
# Script lines (stations are numbers, answers 0-7):
#   new N [p0 p1 ..] [fsc]   N players; optional points set by table penalties
#                            before play; fsc = false start house rule on
#   start | reveal L         start_round() | reveal(L pieces left)
#   grab S:A ..              place plate A (electronic) and press, in order;
#                            each must GRAB unless "-> results" follows
#   press S | place S A | penalty S | ownup | finish
#   round L S:A ..           start, reveal L, grabs, wrong card holders own up,
#                            finish
#   "-> x" after a command checks its result (press: grab false refused
#   ignored owned back; finish/round: scored replay over; penalty: yes no).
#   Checks: points P0 P1 .. | out S .. | phase NAME | marked S/none |
#   winner S/none | wheels W [LEFT] (left: during a round) | flipped y/n .. | lost L0 L1 .. | rounds N
from cheesemaster import match as M
from cheesemaster.match import Match
from cheesemaster.rules import answer_is_right
from sim.rng import SeededRandom
from cheesebox.rand import randbelow

PRESS = ("ignored", "false", "grab", "refused", "owned", "back")
FINISH = ("scored", "replay", "over")
PHASE = ("between", "rolling", "grabbing", "checking", "over")


def pts(m):
    return [m.points[s] for s in range(8) if m.joined[s]]


def who(s):
    return "none" if s == M.NOBODY else str(s)


def own_up(m, answers):
    """Plate cards: after the last wheel, wrong card holders own up."""
    if not m.electronic and m.phase == M.CHECKING:
        for s in answers:
            if m.holder[s] and not answer_is_right(answers[s], m.left):
                assert m.press(s) == M.OWNED_UP


def grabs(m, items, answers):
    out = []
    for it in items:
        s, a = [int(x) for x in it.split(":")]
        answers[s] = a
        if m.electronic:
            m.place(s, a)
        out.append(PRESS[m.press(s)])
    return out


def play(script, el):
    """Run a script with electronic plates (el) or plate cards."""
    m = None
    answers = {}
    for line in script.split("\n"):
        want = None
        if "->" in line:
            line, want = line.split("->")
            want = want.strip()
        w = line.split()
        if not w:
            continue
        c = w[0]
        a = w[1:]
        n = [int(x) for x in a if x.isdigit()]
        got = None
        if c == "new":
            m = Match(range(n[0]), el, "fsc" in a)
            for s in range(len(n) - 1):
                while m.points[s] > n[s + 1]:
                    m.penalty(s)
        elif c == "start":
            m.start_round()
            answers = {}
        elif c == "reveal":
            m.reveal(n[0])
        elif c == "grab":
            r = grabs(m, a, answers)
            if want is None:
                assert r == ["grab"] * len(r), (line, r)
            got = " ".join(r)
        elif c == "press":
            got = PRESS[m.press(n[0])]
        elif c == "place":
            m.place(n[0], n[1])
        elif c == "penalty":
            got = "yes" if m.penalty(n[0]) else "no"
        elif c == "ownup":
            own_up(m, answers)
        elif c == "finish":
            got = FINISH[m.finish_round()]
        elif c == "round":
            m.start_round()
            m.reveal(n[0])
            answers = {}
            r = grabs(m, a[1:], answers)
            assert r == ["grab"] * len(r), (line, r)
            assert m.phase == M.CHECKING, line
            own_up(m, answers)
            got = FINISH[m.finish_round()]
        else:
            want = " ".join(a)
            if c == "points":
                got = pts(m)
            elif c == "out":
                got = m.eliminated
            elif c == "phase":
                got = PHASE[m.phase]
            elif c == "marked":
                got = who(m.marked)
            elif c == "winner":
                got = who(m.winner)
            elif c == "wheels":
                got = [m.wheels(), (m.wheels() - m.holders())][:len(a)]
            elif c == "flipped":
                got = ["y" if m.flipped(s) else "n" for s in range(8) if m.joined[s]]
            elif c == "lost":
                got = [m.lost[s] for s in range(8) if m.joined[s]]
            elif c == "rounds":
                got = m.rounds_played
            else:
                assert False, "bad script line: " + line
            if not isinstance(got, str):
                got = " ".join([str(x) for x in got]) if isinstance(got, list) else str(got)
        if want is not None:
            assert got == want, "%s: got %s, want %s" % (line.strip(), got, want)
    return m


def both(script):
    play(script, True)
    play(script, False)


# -- setup ------------------------------------------------------------------------
def test_start_seven_points_and_wheels():
    for el in (True, False):
        for n in range(2, 9):
            m = play("new %d\nstart" % n, el)
            assert pts(m) == [7] * n and m.active_count() == n
            assert m.wheels() == n - 1 and (m.wheels() - m.holders()) == n - 1
            assert m.eliminated == [] and m.winner == M.NOBODY


def test_only_joined_stations_play():
    for el in (True, False):
        m = Match((1, 4, 6), el)
        assert m.active_count() == 3 and m.wheels() == 2
        m.start_round()
        m.reveal(3)
        assert m.press(0) == M.IGNORED
        assert grabs(m, ["4:3", "6:3"], {}) == ["grab", "grab"]
        assert m.finish_round() == M.SCORED
        assert pts(m) == [6, 7, 7] and m.marked == 1


# -- false starts ------------------------------------------------------------------
def test_false_start_grabs_nothing():
    both("""new 3
    start
    place 0 2
    press 0 -> false
    press 0 -> false
    points 7 7 7
    wheels 2 2
    reveal 2
    grab 0:2
    wheels 2 1""")


def test_false_start_house_rule_costs_one():
    both("""new 3 fsc
    start
    press 1 -> false
    points 7 6 7
    press 1 -> false
    points 7 5 7
    wheels 2 2""")


def test_press_between_rounds_does_nothing():
    both("""new 2
    press 0 -> ignored
    points 7 7
    phase between""")


# -- grabbing --------------------------------------------------------------------
def test_grab_locks_the_answer():
    # placing after the grab changes nothing
    play("""new 3
    start
    reveal 2
    place 0 3
    press 0 -> grab
    place 0 2
    grab 1:2
    finish -> scored
    points 5 7 6""", True)


def test_plate_at_grab_moment_counts():
    play("""new 2
    start
    place 0 5
    reveal 4
    place 0 6
    place 0 4
    press 0 -> grab
    finish -> scored
    points 7 6""", True)


def test_second_press_of_a_holder_does_nothing():
    both("""new 4
    start
    reveal 1
    grab 0:1
    press 0 -> ignored
    wheels 3 2
    phase grabbing""")


def test_round_ends_exactly_when_one_player_is_without_a_wheel():
    both("""new 4
    start
    reveal 3
    grab 0:3
    phase grabbing
    grab 1:3
    phase grabbing
    wheels 3 1
    grab 2:3
    phase checking
    wheels 3 0
    grab 3:3 -> ignored
    finish -> scored
    points 7 7 7 6""")
    for el in (True, False):
        for n in range(2, 9):
            m = play("new %d\nstart\nreveal 0" % n, el)
            for s in range(n - 1):
                assert m.phase == M.GRABBING
                assert grabs(m, ["%d:0" % s], {}) == ["grab"]
            assert m.phase == M.CHECKING
            assert m.finish_round() == M.SCORED
            assert pts(m) == [7] * (n - 1) + [6]


def test_no_wheel_loses_one_and_is_not_judged():
    both("""new 3
    start
    reveal 4
    place 2 0
    grab 0:4 1:4
    press 2 -> ignored
    finish -> scored
    points 7 7 6
    lost 0 0 1""")


def test_wrong_holders_lose_two():
    both("""new 4
    round 3 0:2 1:3 2:7 -> scored
    points 5 7 5 6
    lost 2 0 2 1""")


def test_seven_plate_is_right_for_seven_or_more():
    both("""new 3
    round 9 0:7 1:6 -> scored
    points 7 5 6
    round 7 0:7 1:7 -> scored
    points 7 5 5""")


def test_anna_placed_three_but_two_were_left():
    both("""new 3
    round 2 0:3 1:2
    points 5 7 6
    flipped n n n""")


def test_andrey_had_four_and_lost_two_card_flipped():
    both("""new 3 7 4
    flipped n n n
    round 2 1:5 0:2
    points 7 2 6
    flipped n y n""")


def test_flipped_below_four():
    both("""new 5 7 5 4 3 1
    flipped n n n y y""")


# -- electronic plates: grab before placing -----------------------------------------
def test_refused_grab_costs_one_at_once_then_grab_later():
    play("""new 3
    start
    reveal 2
    press 0 -> refused
    points 6 7 7
    press 0 -> refused
    points 5 7 7
    wheels 2 2
    grab 0:2 1:2
    finish -> scored
    points 5 7 6""", True)


def test_plate_from_before_the_roll_does_not_count():
    play("""new 3
    round 2 0:2 1:2
    place 1 3
    start
    reveal 2
    press 0 -> refused
    press 1 -> refused
    points 6 6 6""", True)


def test_plate_cards_grab_needs_no_plate():
    play("""new 2
    start
    reveal 2
    press 0 -> grab
    points 7 7""", False)


# -- table penalties ----------------------------------------------------------------
def test_table_penalty_costs_one_at_once():
    both("""new 3
    penalty 2 -> yes
    points 7 7 6
    start
    penalty 2 -> yes
    reveal 1
    penalty 2 -> yes
    points 7 7 4
    grab 0:1 1:1
    penalty 0 -> yes
    points 6 7 4
    penalty 5 -> no
    finish -> scored
    points 6 7 3""")


# -- elimination ------------------------------------------------------------------
def test_elimination_at_zero_in_order():
    both("""new 4 2 7 1
    round 3 0:3 1:3 3:3 -> scored
    points 2 7 0 7
    out 2
    wheels 2
    marked none
    round 5 0:4 1:5 -> scored
    out 2 0
    wheels 1
    marked 3
    start
    reveal 2
    press 0 -> ignored
    penalty 0 -> no
    grab 1:2
    phase checking""")


def test_several_out_in_one_round_listed_in_station_order():
    both("""new 5 7 1 7 2 2
    round 6 4:5 0:6 3:1 2:6 -> scored
    out 1 3 4
    points 7 0 7 0 0""")


def test_points_never_below_zero():
    both("""new 3 1
    round 2 0:4 1:2
    points 0 7 6
    out 0""")


def test_mid_round_elimination_takes_the_wheel_out():
    both("""new 4 1
    start
    reveal 2
    grab 0:2
    wheels 3 2
    penalty 0 -> yes
    out 0
    wheels 2 2
    grab 1:2
    phase grabbing
    grab 2:2
    phase checking
    finish -> scored
    points 0 7 7 6
    marked 3""")


def test_mid_round_elimination_can_end_the_round():
    both("""new 4 7 7 7 1
    start
    reveal 5
    grab 0:5 1:5
    phase grabbing
    penalty 3 -> yes
    phase checking
    finish -> scored
    points 7 7 6 0
    marked 2""")


def test_refused_grab_can_eliminate_mid_round():
    play("""new 3 7 7 1
    start
    reveal 4
    grab 0:4
    press 2 -> refused
    out 2
    phase checking
    finish -> scored
    points 7 6 0""", True)


def test_penalty_leaving_one_player_ends_the_game_at_once():
    both("""new 2 7 1
    start
    reveal 2
    penalty 1 -> yes
    phase over
    winner 0
    finish -> over""")


# -- ties and the end of the game ------------------------------------------------------
def test_rulebook_final_round_tie_is_replayed():
    # Andrey (0) had 2 points, guessed wrong and loses both; Anna (1) had 1 and
    # got no wheel: both out at once, they get their points back and replay.
    both("""new 2 2 1
    round 3 0:4 -> replay
    points 2 1
    out
    winner none
    phase between
    rounds 1
    marked 1
    wheels 1
    round 1 0:1 -> over
    winner 0
    out 1
    points 2 0
    phase over
    rounds 2""")


def test_replay_then_the_other_player_grabs_first():
    both("""new 2 2 1
    round 3 0:4 -> replay
    round 3 1:3 -> scored
    points 1 1
    out
    marked 0""")


def test_replay_keeps_penalties_taken_during_the_round():
    # the replay gives back only the round's scoring losses: P1's penalty stands
    both("""new 2 2 2
    start
    penalty 1 -> yes
    reveal 3
    grab 0:1
    ownup
    finish -> replay
    points 2 1
    lost 0 0
    out""")


def test_loss_is_what_was_really_taken():
    # P0 at 1 answers wrong: loses 1 (not 2) and is out; P2 without a wheel -1
    both("""new 3 1 7 7
    round 4 0:3 1:4 -> scored
    points 0 7 6
    lost 1 0 1
    out 0""")


def test_three_players_all_would_be_eliminated():
    both("""new 3 2 1 2
    round 4 0:3 2:5 -> replay
    points 2 1 2
    out
    wheels 2
    marked 1
    round 4 0:3 2:4 -> over
    winner 2
    out 0 1
    points 0 0 2
    rounds 2""")


def test_two_out_one_survives_is_not_a_replay():
    both("""new 3 2 1 3
    round 4 0:3 2:5 -> over
    winner 2
    points 0 0 1
    out 0 1""")


def test_out_earlier_in_the_round_stays_out_on_replay():
    both("""new 3 2 1 1
    start
    reveal 2
    penalty 2 -> yes
    out 2
    grab 0:3
    ownup
    finish -> replay
    points 2 1 0
    out 2
    wheels 1
    start
    wheels 1 1""")


def test_winner_is_the_last_player():
    both("""new 3 1 7 1
    round 2 1:2 2:6 -> over
    winner 1
    phase over
    marked none
    start
    phase over
    press 1 -> ignored
    penalty 1 -> no
    points 0 7 0
    finish -> over""")


def test_full_two_player_game():
    both("""new 2
    round 3 0:3 -> scored
    round 3 0:3 -> scored
    round 3 0:3 -> scored
    round 3 0:3 -> scored
    round 3 0:3 -> scored
    round 3 0:3 -> scored
    round 3 0:3 -> over
    winner 0
    out 1
    rounds 7""")


# -- the next roller ------------------------------------------------------------------
def test_player_without_wheel_is_marked():
    both("""new 4
    marked none
    round 2 3:2 0:2 2:2
    marked 1
    round 2 1:2 0:2 3:2
    marked 2""")


def test_marked_nobody_if_that_player_is_out():
    both("""new 3 7 7 1
    round 2 0:2 1:2
    marked none""")
    both("""new 3 7 7 2
    round 2 0:2 1:2
    marked 2
    penalty 2 -> yes
    marked none""")


# -- plate cards: owning up ----------------------------------------------------------
def test_own_up_toggles():
    play("""new 3
    start
    reveal 3
    press 0 -> grab
    press 1 -> grab
    phase checking
    press 0 -> owned
    press 0 -> back
    press 1 -> owned
    press 1 -> back
    press 1 -> owned
    finish -> scored
    points 7 5 6""", False)


def test_only_wheel_holders_can_own_up():
    play("""new 4
    start
    reveal 3
    press 0 -> grab
    press 1 -> grab
    press 2 -> grab
    press 3 -> ignored
    press 3 -> ignored
    finish -> scored
    points 7 7 7 6""", False)


def test_owned_up_does_not_carry_to_next_round():
    play("""new 3
    round 3 0:2 1:3
    points 5 7 6
    round 2 0:2 1:2
    points 5 7 5""", False)


# -- whole games ----------------------------------------------------------------------
def test_rounds_played_counts_scored_rounds_including_replays():
    both("""new 2
    rounds 0
    round 2 0:2
    rounds 1
    penalty 0 -> yes
    penalty 0 -> yes
    penalty 0 -> yes
    penalty 0 -> yes
    penalty 0 -> yes
    penalty 1 -> yes
    penalty 1 -> yes
    penalty 1 -> yes
    penalty 1 -> yes
    penalty 1 -> yes
    points 2 1
    round 2 0:5 -> replay
    rounds 2
    round 2 0:2 -> over
    rounds 3""")


def random_game(seed, el):
    """A random game; points never rise (a replay only takes nothing)."""
    rng = SeededRandom(seed)
    n = 2 + randbelow(rng, 7)
    m = Match(range(n), el, seed % 3 == 0)
    replays = 0
    last = pts(m)
    while m.phase != M.OVER:
        m.start_round()
        start = pts(m)
        answers = {}
        for step in range(300):
            if m.phase not in (M.ROLLING, M.GRABBING):
                break
            if step == 2:
                m.reveal(randbelow(rng, 10))
            s = randbelow(rng, n)
            if el and randbelow(rng, 4):
                m.place(s, randbelow(rng, 8))
            if randbelow(rng, 20) == 0:
                m.penalty(s)
            elif m.press(s) == M.GRAB:
                answers[s] = m.locked[s] if el else randbelow(rng, 8)
            now = pts(m)
            for i in range(n):
                assert now[i] <= last[i]
            last = now
            assert m.holders() <= m.wheels()
        if m.phase == M.OVER:
            break
        assert m.active_count() - m.holders() == 1
        own_up(m, answers)
        pre = pts(m)
        if m.finish_round() == M.REPLAY:
            replays += 1
            for i in range(n):
                if m.active[i]:
                    assert m.points[i] == pre[i] > 0
        last = pts(m)
        for i in range(n):
            assert last[i] <= start[i]
            assert (last[i] == 0) == (not m.active[i])
    assert m.active_count() == 1 and m.points[m.winner] > 0
    assert sorted(m.eliminated) == [s for s in range(n) if s != m.winner]
    return replays


def test_points_never_rise_and_a_replay_takes_nothing():
    replays = 0
    for seed in range(1, 41):
        replays += random_game(seed, True) + random_game(seed, False)
    assert replays > 0           # the replay path was exercised
