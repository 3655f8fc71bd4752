"""`make emu` shows what `make sim` shows: keys pressed through its view on
the emulated Pico, the screen read back: the dice menu as the menu, 7
points each before the first score, the dice labelled and lit on the ready
screen, why a game stopped; Cheesonomics' variant and turn on die 6's label
and a refused value's reason, all from the chip's own log and wires. On the
Pico 2 (`make emu ARGS="--board pico2-8p"`), its dials turned through the
view's keys (q..i, then 0-7): a dialled grab locked with its plate."""
import io

from rich.console import Console
import pytest

from emu.table import EmuTable
from emu.view import EmuView
from sim.boxscreen import die_grid
from sim.cheesonomics.seen import card_list


def _words(v, w=140, h=50):
    """The screen's words at w x h; on a wide one the box, then its keys panel."""
    console = Console(record=True, width=w, height=h, file=io.StringIO())
    console.print(v.frame(w, h))
    if w >= 112:
        console.print(v.screen.help(v.said))
    return " ".join(console.export_text().replace("\u2502", " ").split())


def _typist(t, v):
    """Keys typed into the view, each followed by ms of the chip's time."""
    def keys(typed, ms=300):
        for k in typed:
            assert v.key(k)
            t.run(ms)
    return keys


def test_make_emu_shows_what_make_sim_shows(image):
    with EmuTable("pico-8p", flash=image("pico-8p")) as t:
        t.boot()
        v = EmuView(t)
        keys = _typist(t, v)
        keys("12 ")
        words = _words(v)
        assert "menu · choice yellow" in words, words               # not "join"
        assert "dice: yellow (the menu opens on the last choice)" in words
        keys(" ", 1500)
        words = _words(v)
        assert "ready · game 1 · rounds 0" in words and "P1 7 · P2 7" in words, words   # not "P1 -"
        assert "1 yellow A" in words and "ROLL rolls" in words and "plate -" in words
        px = v.pixels()
        lit = [sum(1 for row in die_grid(t.board, px, d) for c in row if max(c)) for d in range(6)]
        assert all(lit[:3]) and not any(lit[3:]), lit               # the three "?" of the dice in play
        assert "p 1-2 penalty" in _words(v, 80, 24) and "q-i 0-7 plate key" in _words(v, 80, 24)
        keys(["L"], 2600)                                           # stop? ... ROLL: stop
        assert "stop? · " in _words(v, 80, 24)
        keys(" ", 500)
        words = _words(v)
        assert "join · joined nobody yet" in words and "why: stopped: cheese master ended" in words
        keys(["L"], 2600)                                           # Cheesonomics offered
        keys("12 ", 400)
        words = _words(v)
        assert "variant · basic" in words and "6 variant: basic" in words, words
        keys(" ", 800)
        words = _words(v)
        who = v.seen.g["turn"]
        assert "%s plays" % who in words and "6 %s's turn" % who in words and "1 France" in words
        keys(["qw"[int(who[1]) - 1], "4"], 400)                     # sell, with nothing to sell
        words = _words(v, 80, 24)
        assert "why: %s: not allowed: no cheese on the table to sell" % who in words, words
        assert "6 refused" in words
        t.run(1500)
        assert "6 %s's turn" % who in _words(v), _words(v)          # the refusal's cross is gone
        keys(["qw"[int(who[1]) - 1], "1"], 300)                   # collect by animal: which one?
        words = _words(v, 80, 24)
        assert "die 6 names the value keyed: CA" in words, words   # CA: collect by animal, for 2 s
        t.run(2000)
        words = _words(v, 80, 24)
        assert "6 next: which" in words, words
        # the action keyed was collect by animal: which asks for an animal, and says which is which
        first = card_list().animals[0]
        assert "which: 1 %s" % first in words, words


def test_make_emu_shows_the_tour_the_check_and_who_rolls_next(image):
    """The screens the chip's log now tells: the dice tour, the plate-card
    check with who holds a wheel, and the player marked to roll next (their
    buzzer rolls), on pico-4p with plate cards."""
    with EmuTable("pico-4p", flash=image("pico-4p")) as t:
        t.boot()
        v = EmuView(t)
        keys = _typist(t, v)
        keys("1", 60)                                   # the tune line, from the piezo pin's pitches
        assert v.tune_text() == "\u266a join", v.tune_text()
        t.run(300)
        assert v.tune_text() == ""                      # over: silent 100 ms
        keys("2 ")
        keys(" ", 1500)                                 # yellow: the game starts
        keys("1", 500)                                  # a buzzer before the first roll: the tour
        words = _words(v)
        assert "tour · " in words and "a buzzer stops the tour" in words, words
        keys(" ", 150)                                  # ROLL (acts when let go): the tour ends, the dice tumble
        assert v.tune_text() == "\u266a roll" and "\u266a roll" in _words(v), v.tune_text()
        t.run(2450)
        assert "grab · " in _words(v), _words(v)
        keys("1", 600)                                  # P1 takes the only wheel: the check
        words = _words(v)
        assert "check · " in words and "P1 grabs" in words and "ROLL scores (after 3 s)" in words, words
        t.run(3000)
        keys(" ", 1500)                                 # ROLL ends the check: scored
        words = _words(v)
        assert "ready · " in words and "marked P2" in words and "or P2's buzzer" in words, words


# -- the Pico 2: a dialled grab on the view --------------------------------------------
def _pico2_words(v, w=120, h=40):
    console = Console(record=True, width=w, height=h, file=io.StringIO())
    console.print(v.frame(w, h))
    return " ".join(console.export_text().replace("\u2502", " ").split())


@pytest.mark.rp2350
def test_make_emu_on_the_pico_2_shows_a_dialled_grab(image):
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        t.boot()
        v = EmuView(t)

        def keys(typed, ms=300):
            for k in typed:
                assert v.key(k)
                t.run(ms)
        keys("12 ")
        assert "menu · choice yellow" in _pico2_words(v), _pico2_words(v)
        keys(" ", 1200)
        words = _pico2_words(v)
        assert "ready · game 1 · rounds 0" in words and "P1 7 · P2 7" in words, words
        keys(["q", "3"], 200)                           # P1's dial to 3 before the roll
        keys(" ", 150)
        assert v.tune_text() == "\u266a roll", v.tune_text()
        t.run(2500)
        assert "grab · " in _pico2_words(v), _pico2_words(v)
        keys("1", 400)                                  # P1's buzzer: the dial's plate locked with the grab
        words = _pico2_words(v)
        assert "P1 grabs (plate 3)" in words, words
