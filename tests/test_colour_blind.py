"""No sign relies on colour alone, in both games.

Every lit pixel is mapped to one colour (lit or dark), and the frames are
sampled every 10 ms over the sign's time (one second, or a flash's own
length): for each pair of states the table must tell apart, what the LEDs
show differs. The set of frames seen is compared, not their order, so a blink
in another phase is no difference.
"""
import pytest

from cheesebox.display import wire_index
from flowkit import board, play
from sim.scenario import Sim, run_script

_STEP_MS = 10


def die_pixels(sim, d):
    """Die d's 64 pixels as (chain, pixel), row by row as the table sees them."""
    ci, start, layout = sim.board.dice[d]
    return [(ci, start + wire_index(layout, x, y)) for y in range(8) for x in range(8)]


def station_pixels(sim, s):
    """Station s's score track and wheel LED."""
    ci, start = sim.board.tracks[s]
    return [(ci, start + i) for i in range(8)]


def seen(sim, pixels, ms=1000):
    """What a table without colour sees of `pixels` over the next ms: the
    one-colour frames shown, and how long each stayed whenever it came and
    went within the time (a fast blink is not a slow one; a blink's phase
    makes no difference)."""
    frames = []
    for _ in range(ms // _STEP_MS):
        rgb = sim.port.rgb
        frames.append(tuple(any(rgb[ci][3 * i:3 * i + 3]) for ci, i in pixels))
        sim.wait(_STEP_MS)
    runs = []           # [frame, samples]
    for f in frames:
        if runs and runs[-1][0] == f:
            runs[-1][1] += 1
        else:
            runs.append([f, 1])
    whole = frozenset((f, k * _STEP_MS) for f, k in runs[1:-1])
    return frozenset(frames), whole


# -- Cheese Master ------------------------------------------------------------

def test_a_held_wheel_and_no_wheel_at_the_check_differ_without_colour():
    _, sim = play("players 2\ndice yellow\nroll cheese1 cheese2 cheese3\nrollbutton\nwait 2000\nbuzz P2\n")
    assert sim.box.game.state_name() == "check"
    holder = seen(sim, station_pixels(sim, 1))
    empty = seen(sim, station_pixels(sim, 0))
    assert holder != empty


def test_a_false_start_and_a_held_wheel_differ_without_colour():
    _, sim = play("players 3\ndice yellow\nrollbutton\nwait 500\nbuzz P1\n")
    false_start = seen(sim, station_pixels(sim, 0), 400)       # within the sign's 600 ms
    _, sim = play("players 3\ndice yellow\nroll cheese1 cheese2 cheese3\nrollbutton\nwait 2000\nbuzz P1\n")
    assert sim.box.game.state_name() == "grab"
    held = seen(sim, station_pixels(sim, 0), 400)
    nothing = seen(sim, station_pixels(sim, 1), 400)
    assert len({false_start, held, nothing}) == 3


def test_a_refused_press_at_the_check_is_seen_without_colour():
    # P1 has no wheel at the check; pressing the buzzer is refused (no own-up without a wheel)
    _, sim = play("players 2\ndice yellow\nroll cheese1 cheese2 cheese3\nrollbutton\nwait 2000\nbuzz P2\n")
    before = seen(sim, station_pixels(sim, 0), 500)
    sim.press(0)
    after = seen(sim, station_pixels(sim, 0), 500)
    assert before != after


def test_below_four_points_out_and_one_point_differ_without_colour():
    script = "players 3\ndice yellow\n" + "penalty P1\n" * 7 + "penalty P2\n" * 6 + "penalty P3\n" * 3
    _, sim = play(script + "wait 3000\n")      # after the lost points' blink
    m = sim.box.game.match
    assert (m.active[0], m.points[1], m.points[2]) == (0, 1, 4)
    out, one, four = (seen(sim, station_pixels(sim, s)) for s in range(3))
    run_script(sim, "penalty P3\nwait 3000\n")
    assert m.points[2] == 3
    three = seen(sim, station_pixels(sim, 2))
    assert len({out, one, four, three}) == 4


def test_whose_roll_it_is_is_seen_without_colour():
    _, sim = play("players 3\ndice yellow\nroll cheese1 cheese2 cheese3\nrollbutton\nwait 2000\n"
                  "buzz P1\nbuzz P2\nwait 3000\nrollbutton\nwait 2000\n")
    m = sim.box.game.match
    assert m.marked >= 0
    marked = seen(sim, station_pixels(sim, m.marked))
    other = seen(sim, station_pixels(sim, (m.marked + 1) % 3))
    assert marked != other


# -- Cheesonomics ----------------------------------------------------------------

def _advanced_layout(name):
    sim = Sim(board(name), seed=1)
    run_script(sim, "game cheesonomics\nplayers 3\n")
    g = sim.box.game
    sim.press(g.stations[0])        # advanced
    sim.press(8)
    assert sim.box.state_name() == "layout"
    return sim


@pytest.mark.parametrize("name", ["pico-8p", "pico2-8p"])
def test_the_layout_tells_each_cards_country_without_colour(name):
    sim = _advanced_layout(name)
    g = sim.box.game
    cards = []          # (country, what its die shows)
    for page in range(3):
        assert g.page == page
        for i in range(5):
            m = g.bank.mk[page * 5 + i]
            cards.append((g.cards.country[m], seen(sim, die_pixels(sim, i))))
        sim.press(8)
    countries = set(c for c, _ in cards)
    assert len(countries) > 1
    for c1, s1 in cards:
        for c2, s2 in cards:
            if c1 != c2:
                assert s1 != s2, "two countries' cards look alike"


def test_each_line_of_the_final_count_is_seen_without_colour():
    # the final screen's lines (who, which line, the amount, a winner's crown,
    # the winners) and the winners' tracks, told apart by shape alone
    sim = Sim(board("pico-8p"), seed=1)
    run_script(sim, "game cheesonomics\nplayers 3\nvariant basic\nproduce P2 3\nproduce P3 3\n"
                    "produce P1 2\nsell P2 cow Italy 2\nsell P3 goat France 2\nsell P1 cow Italy 1\n")
    sim.box.game.bank.deck = 0
    sim.box.game.saved_bank = None
    run_script(sim, "pass P2\nsell P3 sheep Italy 1\npass P1\n")
    g = sim.box.game
    assert sim.box.state_name() == "final"
    run_script(sim, "buzz P2\nwait 500\n")         # the first line, 500 ms into it
    dice = [px for d in range(6) for px in die_pixels(sim, d)]
    lines = []
    for _ in range(len(g.lines)):
        lines.append(seen(sim, dice))               # 1 s of each 2 s line
        sim.wait(1000)
    assert len(lines) == 12 and len(set(lines)) == len(lines), "two lines of the count look alike"
    run_script(sim, "buzz P2\n")
    won, lost = seen(sim, station_pixels(sim, 2)), seen(sim, station_pixels(sim, 1))
    assert won != lost                              # the winner's track blinks, its wheel lit


def test_an_undo_and_a_refused_undo_are_seen_without_colour():
    sim = Sim(board("pico-8p"), seed=1)
    run_script(sim, "game cheesonomics\nplayers 3\nvariant basic\nproduce P2 3\nproduce P3 2\n"
                    "produce P1 1\ncollect P2 goat\n")
    turn = seen(sim, die_pixels(sim, 5), 500)              # P3's turn begins
    idle = seen(sim, station_pixels(sim, 0), 500)          # P1 waits
    run_script(sim, "undo P1\n")                           # refused: only P2 can
    refused = seen(sim, station_pixels(sim, 0), 500)
    run_script(sim, "wait 1000\nundo P2\n")
    undone = seen(sim, die_pixels(sim, 5), 500)            # P2's turn again, turned back
    run_script(sim, "wait 3000\n")
    again = seen(sim, die_pixels(sim, 5), 500)             # then P2's turn as any other
    assert len({turn, undone, again}) == 3 and refused != idle


def test_the_final_turns_are_seen_on_the_dice_without_colour():
    sim = Sim(board("pico-8p"), seed=1)
    run_script(sim, "game cheesonomics\nplayers 3\nvariant basic\nproduce P2 3\nwait 3000\n")
    turn = seen(sim, die_pixels(sim, 5), 2000)             # P3's turn, the deck not out
    run_script(sim, "produce P3 1\nproduce P1 1\n")
    sim.box.game.bank.deck = 2
    run_script(sim, "produce P2 2\nwait 3000\n")           # out: P3's and P1's final turns left
    first = seen(sim, die_pixels(sim, 5), 2000)            # P3's turn again, a final one
    run_script(sim, "pass P3\nwait 3000\n")
    last = seen(sim, die_pixels(sim, 5), 2000)             # P1's, the last one
    assert len({turn, first, last}) == 3


def test_a_tie_replay_is_seen_on_the_dice_without_colour():
    # the final round of the rulebook's example would put both out: it is
    # rolled again; a scored round with the same faces shows only faces and count
    with open("tests/scenarios/final_tie_replay.txt") as f:
        script = f.read().split("# replayed")[0]
    _, sim = play(script, "pico-8p")
    m = sim.box.game.match
    assert m.replays == 1 and sim.box.game.state_name() == "ready"
    dice = [px for d in range(3) for px in die_pixels(sim, d)]
    replay, _ = seen(sim, dice, 4000)
    _, sim = play("players 2\ndice yellow\nrollbutton\nroll cheese2 mouse1 cheese1\nwait 3000\n"
                  "answer P1 3\nbuzz P1\n", "pico-8p")
    assert sim.box.game.match.replays == 0 and sim.box.game.state_name() == "ready"
    scored, _ = seen(sim, dice, 4000)
    assert len(replay) > len(scored) and scored < replay


def test_game_over_and_the_campaign_menu_differ_without_colour():
    _, sim = play("players 2\ndice yellow\n" + "penalty P2\n" * 7)
    assert sim.box.game.state_name() == "gameover"
    dice = [px for d in range(6) for px in die_pixels(sim, d)]
    over = seen(sim, dice)
    run_script(sim, "wait 1000\nbuzz P1\n")
    g = sim.box.game
    while g.choice != 4:
        sim.press(0)
    assert g.state_name() == "menu"
    assert seen(sim, dice) != over


_PRODUCED = "game cheesonomics\nplayers 3\nvariant basic\nproduce P2 3\nproduce P3 3\nproduce P1 2\n"


def test_whose_sale_and_whose_undo_are_seen_without_colour():
    # the same sum paid to P2 and to P3 (a collection changes no price), and
    # an undo by P2 and by P3: die 6 tells whose, not only by the colour
    sim = Sim(board("pico-8p"), seed=1)
    run_script(sim, _PRODUCED + "sell P2 cow Italy 2\n")
    by_p2 = seen(sim, die_pixels(sim, 5), 2000)
    paid = sim.box.game.sale
    sim = Sim(board("pico-8p"), seed=1)
    run_script(sim, _PRODUCED + "collect P2 goat\nsell P3 cow Italy 2\n")
    assert sim.box.game.sale == paid
    by_p3 = seen(sim, die_pixels(sim, 5), 2000)
    assert by_p2 != by_p3
    undone = []
    for script in ("undo P2\n", "produce P3 2\nundo P3\n"):
        sim = Sim(board("pico-8p"), seed=1)
        run_script(sim, "game cheesonomics\nplayers 3\nvariant basic\nproduce P2 3\n" + script)
        undone.append(seen(sim, die_pixels(sim, 5), 2000))
    assert undone[0] != undone[1]


_SALE_X = [4, 1, 4, 3, 1, 3, 1, 3]      # sell cow Netherlands 3, forbid trowel, exchange 2|1 for France 2|1


def _advanced_turn(name):
    sim = Sim(board(name), seed=1)
    run_script(sim, "game cheesonomics\nplayers 3\nvariant advanced\nproduce P2 3\nproduce P3 3\n"
                    "produce P1 3\nwait 3000\n")
    assert sim.box.game.active() == 1
    return sim


def test_each_step_of_a_sale_with_an_exchange_is_seen_at_the_station_on_keys():
    # 8 values on a 7-LED track: each step, and the complete action, told
    # apart at P2's station alone (not die 6's letter), without colour
    sim = _advanced_turn("pico-8p")
    steps = [seen(sim, station_pixels(sim, 1))]
    for v in _SALE_X:
        run_script(sim, "answer P2 %d\nwait 100\n" % v)
        steps.append(seen(sim, station_pixels(sim, 1)))
    assert sim.box.game.entry.complete(True)
    assert len(set(steps)) == len(steps), "two steps look alike at the station"


def test_each_step_of_a_sale_with_an_exchange_is_seen_at_the_station_on_a_dial():
    # a dial shows its value on the track: which step it is, the station says too
    sim = _advanced_turn("pico2-8p")
    steps = []
    for v in _SALE_X[:-1]:
        run_script(sim, "answer P2 %d\nwait 400\n" % v)
        steps.append((v, seen(sim, station_pixels(sim, 1), 2600)))
        run_script(sim, "buzz P2\nwait 400\n")
    run_script(sim, "answer P2 %d\nwait 400\n" % _SALE_X[-1])
    steps.append((_SALE_X[-1], seen(sim, station_pixels(sim, 1), 2600)))
    for i in range(len(steps)):
        for j in range(i):
            if steps[i][0] == steps[j][0]:
                assert steps[i][1] != steps[j][1], "steps %d and %d look alike with the dial at %d" % (
                    j, i, steps[i][0])


def test_every_value_of_a_step_is_named_by_a_different_shape_on_die_6():
    # what was keyed is named in letters (GO goat, IT Italy): within one step
    # no two values draw alike, nor like the step's own letter, whatever the
    # colour; also for a card file whose names share their first letters
    from cheesebox.font import rows_for
    from cheesonomics import entry as E
    from cheesonomics.cardfile import load
    cards = load()
    alike = load()
    alike.countries = ("Greece", "Germany", "Georgia", "Gr", "Ghana")
    for c in (cards, alike):
        for st in range(len(E.STEP_NAMES)):
            for act in (1, 2):
                names = [E.value_name(c, act, st, v) for v in range(E.LOW[st], E.HIGH[st] + 1)]
                shapes = [bytes(rows_for(n, bytearray(8))) for n in names + [E.STEP_SIGNS[st]] if n]
                assert all(names) and len(set(shapes)) == len(shapes), (st, act, names)


def _money_asked(who):
    """P2's turn (seed 1), nothing sold yet: `who` presses their buzzer to see
    their money (0, as everyone's)."""
    sim = Sim(board("pico-8p"), seed=1)
    run_script(sim, "game cheesonomics\nplayers 3\nvariant basic\nwait 3000\nbuzz %s\n" % who)
    return sim


def test_whose_money_on_demand_is_seen_on_the_dice_without_colour():
    # another player's money on dice 5-6 says whose it is by shape, as a
    # sale's sum does: P1's 0 and P3's 0 look different on the dice alone,
    # and die 5 (Greece's price) says it holds a player's money
    from cheesonomics.game import COIN
    from sim.boxscreen import die_grid, read_die
    shown = []
    for who in ("P1", "P3"):
        sim = _money_asked(who)
        dice = [px for d in range(6) for px in die_pixels(sim, d)]
        shown.append(seen(sim, dice, 2000))
    assert shown[0] != shown[1], "P1's money and P3's look alike without colour"
    sim = _money_asked("P1")
    texts = set()
    for _ in range(30):
        chains = [[tuple(c[3 * i:3 * i + 3]) for i in range(len(c) // 3)] for c in sim.port.rgb]
        texts.add(tuple(read_die(die_grid(sim.board, chains, d), [("coin", COIN)]).text for d in (4, 5)))
        sim.wait(100)
    assert ("", "0") in texts and ("P1", ":coin") in texts, texts
