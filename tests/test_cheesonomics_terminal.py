"""The terminal card game (python -m sim --game cheesonomics) as the people at
the keyboard see it: in hot seat a hand never reaches the main screen or its
scrollback (the alternate screen, on a real pseudo-terminal); each person is
told in private which card another player chose for them; typed sales refuse
what the rules refuse, naming why."""
import fcntl
import io
import os
import re
import select
import struct
import subprocess
import sys
import termios
import threading
import time

from rich.console import Console

from sim.cheesonomics import bot, driver
from sim.cheesonomics import names as N
from sim.cheesonomics.arrange import card, deck_left, move, new_game, set_hand
from sim.cheesonomics.play import UI, Human, Quit
from sim.rng import SeededRandom

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALT_ON, ALT_OFF = "\x1b[?1049h", "\x1b[?1049l"
MOVES = ["s cow fr", "s goat it", "s sheep ne", "s buffalo sw", "s camel gr", "s cow it", "s goat fr",
         "p cow", "p goat", "p sheep", "p buffalo", "p camel", "pass", "c cow", "1", "1"]
COW, GOAT, SHEEP, BUFFALO, CAMEL = range(5)
RED, YELLOW, GREEN, BLUE, PURPLE = range(5)


def run_in_pty(args, lines, timeout=120):
    """The game on a pseudo-terminal (140x50, as a terminal window): every
    byte it writes, the typed lines fed as it reads them (no echo)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 140, 0, 0))
    a = termios.tcgetattr(slave)
    a[3] &= ~termios.ECHO
    termios.tcsetattr(slave, termios.TCSANOW, a)
    env = dict(os.environ, BLINKA_OS_AGNOSTIC="1", TERM="xterm-256color")
    for k in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS", "LINES"):
        env.pop(k, None)
    p = subprocess.Popen([sys.executable, "-m", "sim", "--game", "cheesonomics"] + list(args), cwd=REPO,
                         env=env, stdin=slave, stdout=slave, stderr=slave, close_fds=True, start_new_session=True)
    os.close(slave)

    def feed():
        try:
            for line in lines:
                os.write(master, (line + "\n").encode())
        except OSError:
            pass

    threading.Thread(target=feed, daemon=True).start()
    out = bytearray()
    end = time.time() + timeout
    try:
        while time.time() < end:
            r, _, _ = select.select([master], [], [], 0.5)
            if r:
                try:
                    b = os.read(master, 65536)
                except OSError:         # the game closed the terminal
                    break
                if not b:
                    break
                out += b
            elif p.poll() is not None:
                break
    finally:
        if p.poll() is None:
            p.kill()
        p.wait(timeout=10)
        os.close(master)
    return p.returncode, out.decode("utf-8", "replace")


def screens(out):
    """(main screen text, [each stay on the alternate screen]), escape codes
    stripped: what the terminal's scrollback keeps and what it does not."""
    main, alt = [], []
    i, on_alt = 0, False
    while True:
        j = out.find(ALT_OFF if on_alt else ALT_ON, i)
        seg = out[i:] if j < 0 else out[i:j]
        (alt if on_alt else main).append(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seg))
        if j < 0:
            break
        i = j + len(ALT_ON)
        on_alt = not on_alt
    return "".join(main), alt, on_alt


def test_hot_seat_hands_never_reach_the_main_screen_or_its_scrollback():
    rc, out = run_in_pty(["--seed", "5", "--humans", "2"], MOVES * 300)
    assert rc == 0, out[-2000:]
    main, alt, left_on_alt = screens(out)
    assert not left_on_alt                      # the terminal is given back on its main screen
    assert len(alt) >= 10
    # every hand is shown, and only on the alternate screen, one player's view a stay
    assert "Your hand: " in "".join(alt)
    for view in alt:
        if "Your hand" in view:
            assert len(set(re.findall(r"P\d \(you\)", view))) == 1, view
    assert "Your hand" not in main and "(you)" not in main
    assert "took your" not in main and "gave you" not in main and "pass back to" not in main
    # the main screen keeps what the whole table sees: hand-overs, each turn, the end
    assert "Pass the keyboard to P1" in main and "Pass the keyboard to P2" in main
    assert " produces " in main and " sells " in main
    assert "Final count" in main and "Winner:" in main


def test_piped_hot_seat_output_stays_plain_text():
    p = subprocess.run([sys.executable, "-m", "sim", "--game", "cheesonomics", "--seed", "5", "--humans", "2"],
                       cwd=REPO, env=dict(os.environ, BLINKA_OS_AGNOSTIC="1"), capture_output=True, text=True,
                       timeout=300, input="\n".join(MOVES * 300) + "\n")
    assert p.returncode == 0, p.stderr
    assert "\x1b" not in p.stdout
    assert "Pass the keyboard to P2" in p.stdout and "Your hand: " in p.stdout and "Final count" in p.stdout


# -- told in private ---------------------------------------------------------

class Collects(bot.Bot):
    """A bot whose turn is to collect `t`; its other choices are the bot's."""

    def __init__(self, rng, t):
        bot.Bot.__init__(self, rng)
        self.t = t

    def turn(self, g, p):
        return ("collect", self.t)


def _table(humans, monkeypatch, typed, first):
    g = new_game(3, seed=3, first=first)
    set_hand(g, 0, [card(GOAT, RED), card(GOAT, BLUE), card(SHEEP, GREEN), card(CAMEL, PURPLE), card(CAMEL, RED)])
    set_hand(g, 1, [card(COW, GREEN), card(COW, BLUE), card(SHEEP, RED), card(BUFFALO, BLUE), card(BUFFALO, RED)])
    set_hand(g, 2, [card(COW, YELLOW), card(GOAT, YELLOW), card(SHEEP, BLUE), card(BUFFALO, YELLOW),
                    card(CAMEL, BLUE)])
    out = io.StringIO()
    con = Console(file=out, width=140, highlight=False)
    ui = UI(g, humans, con)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(typed) + "\n"))
    return g, ui, out


def test_a_person_is_told_which_card_a_bot_took_from_their_shown_hand_and_gave_back(monkeypatch):
    g, ui, out = _table([0], monkeypatch, [], first=1)
    rng = SeededRandom(2)
    agents = [Human(ui, 0), Collects(rng, COW), bot.Bot(rng)]
    before = list(g.hands[0])
    driver.play_turn(g, agents, rng)            # P2 collects cow: P1 has none and shows the hand
    took = [c for c in before if c not in g.hands[0]]
    got = [c for c in g.hands[0] if c not in before]
    assert len(took) == 1 and len(got) == 1
    text = out.getvalue()
    assert "P2 took your %s and gave you %s" % (N.card_name(g.cards, took[0]), N.card_name(g.cards, got[0])) \
        in text, text


def test_a_person_collecting_is_told_which_card_each_bot_gave(monkeypatch):
    # P1 collects cow: P2 and P3 (bots) each pass a cow of their choice;
    # P1 reads which, before choosing what to pass back
    g, ui, out = _table([0], monkeypatch, ["c cow", "1", "1"], first=0)
    rng = SeededRandom(2)
    agents = [Human(ui, 0), bot.Bot(rng), bot.Bot(rng)]
    driver.play_turn(g, agents, rng)
    text = out.getvalue()
    lines = re.findall(r"P([23]) gave you (cow/\w+)", text)
    assert [x[0] for x in lines] == ["2", "3"], text
    assert lines[1][1] == "cow/yellow" and lines[0][1] in ("cow/green", "cow/blue")
    assert text.index("P3 gave you") < text.index("pass back to P2")


def test_in_hot_seat_a_players_news_waits_for_their_own_view(monkeypatch):
    # P3 (a bot) collects cow from two people: P1 has none (P3 takes from the
    # shown hand), P2 gives one; P1's news is shown only once P1 has the keyboard;
    # P2 reads what P3 gave back before P2's view is hidden (Enter)
    typed = ["", "1"] + ["", "", "quit"]
    g, ui, out = _table([0, 1], monkeypatch, typed, first=2)
    rng = SeededRandom(2)
    agents = [Human(ui, 0), Human(ui, 1), Collects(rng, COW)]
    driver.play_turn(g, agents, rng)
    ui.handover(0)
    text = out.getvalue()
    news = text.index("P3 took your")
    assert text.rindex("Pass the keyboard to P1") < news
    assert "P3 gave you" in text[text.index("Pass the keyboard to P2"):text.rindex("Pass the keyboard to P1")]
    assert text.index("P3 gave you") < text.index("P2 press Enter to hide your hand") < text.rindex(
        "Pass the keyboard to P1")


# -- typed sales ---------------------------------------------------------------

def _parse(g, *words):
    h = Human(None, 0)
    try:
        h._parse(g, 0, list(words))
    except N.NameError_ as e:
        return str(e)
    return None


def test_a_typed_sale_names_the_advanced_words_and_counts_the_pieces():
    g = new_game(3, seed=3, first=0)
    move(g, card(SHEEP, YELLOW), g.table[0])
    move(g, card(SHEEP, BLUE), g.table[0])
    assert _parse(g, "s", "sheep", "fr", "1", "forbid", "trowel") == \
        "'forbid' is for the advanced variant (this game is basic)"
    assert _parse(g, "s", "sheep", "fr", "exchange", "1", "3", "A") == \
        "'exchange' is for the advanced variant (this game is basic)"
    assert _parse(g, "s", "sheep", "fr", "3") == "only 2 pieces of sheep cheese are on the table"
    g = new_game(3, advanced=True, seed=3, first=0)
    move(g, card(SHEEP, YELLOW), g.table[0])
    assert _parse(g, "s", "sheep", "fr", "reserve", "3") == \
        "'reserve': the special action and the exchange are asked for after the sale"


def test_the_market_counts_one_card_in_the_singular():
    g = new_game(3, seed=3, first=0)
    deck_left(g, 1)
    out = io.StringIO()
    UI(g, [0], Console(file=out, width=140, highlight=False)).show_table()
    assert "Market (deck: 1 card)" in out.getvalue()
    deck_left(g, 0)
    out = io.StringIO()
    UI(g, [0], Console(file=out, width=140, highlight=False)).show_table()
    assert "Market (deck: 0 cards, final turns)" in out.getvalue()


def test_in_hot_seat_the_collectors_hand_is_shown_only_once_they_have_the_keyboard(monkeypatch):
    # P1 collects cow, P2 (a person) passes one: P1's "Your hand now" comes
    # after the keyboard is handed back to P1, never on P2's screen
    typed = ["", "c cow", "", "1", "", "1", "1"]
    g, ui, out = _table([0, 1], monkeypatch, typed, first=0)
    rng = SeededRandom(2)
    agents = [Human(ui, 0), Human(ui, 1), bot.Bot(rng)]
    driver.play_turn(g, agents, rng)
    text = out.getvalue()
    assert text.count("Pass the keyboard to P1") == 2 and "Pass the keyboard to P2" in text
    assert text.index("Your hand now") > text.rindex("Pass the keyboard to P1") > text.index("Pass the keyboard to P2")


# -- what a new player sees and may ask ----------------------------------------

def test_a_bots_move_is_followed_by_its_reason(monkeypatch):
    # P2 (a bot) holds two cows: it collects cow, and says it is gathering them
    g, ui, out = _table([0], monkeypatch, [], first=1)
    set_hand(g, 0, [card(GOAT, RED), card(GOAT, BLUE), card(COW, RED), card(CAMEL, PURPLE), card(CAMEL, RED)])
    set_hand(g, 1, [card(COW, GREEN), card(COW, BLUE), card(SHEEP, RED), card(BUFFALO, BLUE), card(CAMEL, BLUE)])
    rng = SeededRandom(2)
    agents = [Human(ui, 0), bot.Bot(rng), bot.Bot(rng)]
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    ui.step(agents, rng)
    text = out.getvalue()
    assert "P2 collects cow\n  why: gathering cow, its biggest group, toward a lot of 3\n" in text, text


def test_a_bots_sale_says_which_market_it_leaves_the_next_players(monkeypatch):
    # France and Italy both pay 7; Italy turned over would pay 8 to P2, who has
    # 3 pieces ready: the bot sells to France, and says so
    from sim.cheesonomics.arrange import set_market
    g, ui, out = _table([], monkeypatch, [], first=0)
    set_market(g, [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 17, 20, 22], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0])
    for p in range(3):
        for place in range(3):
            move(g, card(p, place), g.table[p])
    rng = SeededRandom(2)
    ui.step([bot.Bot(rng) for _ in range(3)], rng)
    text = out.getvalue()
    assert "P1 sells 3 cow to France at 7: 21\n  why: 21 is enough (it sells at 15); Italy pays 21 too, but turned " \
        "over would leave the next players 8, not 7\n" in text, text


def _before(text, mark):
    assert mark in text, text
    return text[:text.index(mark)]


def test_a_person_sees_hand_market_and_table_before_a_choice_in_a_bots_turn(monkeypatch):
    # the game's first screen: P3 (a bot) collects goat at once; P1 sees their
    # hand, the market and the table before choosing which goat to give
    g, ui, out = _table([0], monkeypatch, ["1"], first=2)
    rng = SeededRandom(2)
    ui.step([Human(ui, 0), bot.Bot(rng), Collects(rng, GOAT)], rng)
    seen = _before(out.getvalue(), "P1 give P3")
    for part in ("Your hand: [1] goat/red", "Market (deck:", "price", "produced"):
        assert part in seen, seen


def test_in_hot_seat_a_player_still_at_the_keyboard_sees_the_table_as_it_is_now(monkeypatch):
    # P1 (a person) has just collected; then P3 (a bot) collects goat: P1, still
    # at the keyboard, sees the table and hand after their own turn before giving
    typed = ["", "c sheep", "4", "4", "1"]         # P1 passes back both camels, keeps both goats
    g, ui, out = _table([0, 1], monkeypatch, typed, first=0)
    rng = SeededRandom(2)
    agents = [Human(ui, 0), bot.Bot(rng), Collects(rng, GOAT)]
    ui.step(agents, rng)                    # P1 collects sheep (P2, a bot here, gives)
    agents[1] = bot.Bot(rng)
    ui.viewer = 0
    ui.step(agents, rng)                    # P2 (a bot) plays
    mark = len(out.getvalue())
    ui.step(agents, rng)                    # P3 collects goat from P1
    seen = _before(out.getvalue()[mark:], "P1 give P3")
    assert "Your hand: " in seen and "Market (deck:" in seen, seen


def test_help_works_at_a_choice_prompt(monkeypatch):
    g, ui, out = _table([0], monkeypatch, ["help", "1"], first=2)
    rng = SeededRandom(2)
    ui.step([Human(ui, 0), bot.Bot(rng), Collects(rng, GOAT)], rng)
    text = out.getvalue()
    assert "not a choice" not in text, text
    helped = text[text.index("P1 give P3"):]
    assert "P3 collects goat: each other player passes them one goat card of their choice" in helped
    assert "Type the number in [ ] of your choice" in helped
    assert helped.count("P1 give P3") == 2 and "P3 collects goat" in helped     # asked again, then played


def test_help_works_at_the_hand_over_prompt(monkeypatch):
    # hot seat: "help" at "Pass the keyboard" explains and waits for Enter
    typed = ["help", "", "1", "", "quit"]
    g, ui, out = _table([0, 1], monkeypatch, typed, first=2)
    rng = SeededRandom(2)
    agents = [Human(ui, 0), Human(ui, 1), Collects(rng, GOAT)]
    try:
        ui.step(agents, rng)
    except Quit:
        pass
    text = out.getvalue()
    assert "Hot seat: the next player takes the keyboard" in text, text
    assert "not a choice" not in text and "P3 collects goat" in text, text


def test_a_person_sees_the_cards_they_drew_at_once(monkeypatch):
    g, ui, out = _table([0], monkeypatch, ["p goat"], first=0)
    rng = SeededRandom(2)
    ui.step([Human(ui, 0), bot.Bot(rng), bot.Bot(rng)], rng)
    drawn = g.hands[0][3:]
    assert len(drawn) == 2
    text = out.getvalue()
    assert "You drew %s, %s" % (N.card_name(g.cards, drawn[0]), N.card_name(g.cards, drawn[1])) in \
        _before(text, "P1 produces 2 goat"), text


def test_a_person_with_one_card_of_the_named_type_is_not_asked_to_choose(monkeypatch):
    g, ui, out = _table([0], monkeypatch, [], first=2)
    rng = SeededRandom(2)
    ui.step([Human(ui, 0), bot.Bot(rng), Collects(rng, SHEEP)], rng)
    text = out.getvalue()
    assert "P3 collects sheep: you pass your only one, sheep/green" in text and "give P3" not in text, text


def test_help_works_at_the_advanced_choices_after_a_sale(monkeypatch):
    # marked pieces sold: the special-mark step and the country's cards step
    # each explain themselves on help, and the sale goes through
    g = new_game(3, advanced=True, seed=3, first=0)
    for place in range(3):
        move(g, card(COW, place, 0), g.table[0])        # copy 0: marked
    out = io.StringIO()
    ui = UI(g, [0], Console(file=out, width=80, highlight=False))
    monkeypatch.setattr(sys, "stdin", io.StringIO("s cow fr\nhelp\n1\nhelp\n1\n"))
    rng = SeededRandom(1)
    ui.step([Human(ui, 0), bot.Bot(rng), bot.Bot(rng)], rng)
    text = out.getvalue()
    assert "not a choice" not in text, text
    assert "A sold piece carries a special mark" in text and "turn them all over" in text, text
    assert "P1 sells 3 cow to France at 7: 21" in text, text
