"""`make emu ARGS="--board pico2-8p"`: the view of the real firmware on the
emulated Pico 2, its dials turned through the view's keys (q..i, then 0-7)
and the screen read back, as on the Pico: the dice menu, the ready screen
with 7 points each, a dialled grab locked with its plate, the tune."""
import io

from rich.console import Console

from emu.table import EmuTable
from emu.view import EmuView


def _words(v, w=120, h=40):
    console = Console(record=True, width=w, height=h, file=io.StringIO())
    console.print(v.frame(w, h))
    return " ".join(console.export_text().replace("\u2502", " ").split())


def test_make_emu_on_the_pico_2_shows_a_dialled_grab(image):
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        t.boot()
        v = EmuView(t)

        def keys(typed, ms=300):
            for k in typed:
                assert v.key(k)
                t.run(ms)
        keys("12 ")
        assert "menu · choice yellow" in _words(v), _words(v)
        keys(" ", 1200)
        words = _words(v)
        assert "ready · game 1 · rounds 0" in words and "P1 7 · P2 7" in words, words
        keys(["q", "3"], 200)                           # P1's dial to 3 before the roll
        keys(" ", 150)
        assert v.tune_text() == "\u266a roll", v.tune_text()
        t.run(2500)
        assert "grab · " in _words(v), _words(v)
        keys("1", 400)                                  # P1's buzzer: the dial's plate locked with the grab
        words = _words(v)
        assert "P1 grabs (plate 3)" in words, words
