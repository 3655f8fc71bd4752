"""make soak for one emulated minute (make test runs every target): random
play on pico-8p with bouncing presses, a chattering wire, saves and a 256-word
DMA segment; no press lost, the watchdog quiet (emu/soak.py)."""
from emu.soak import soak


def test_soak_one_emulated_minute(image):
    fig, ok = soak(minutes=1, seed=3, wall_minutes=20, image=image("pico-8p"))
    assert fig["presses_expected"] > 10
    assert fig["presses_lost"] == [] and fig["presses_logged"] == fig["presses_expected"]
    assert fig["watchdog_resets"] == 0 and fig["overruns_without_chatter"] == 0
    assert fig["firmware"] is not None          # the console's state says the version
    assert ok, fig
