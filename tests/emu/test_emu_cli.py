"""`make emu` without a terminal: a scenario's fingers on the emulated Pico,
then one picture of the box; bad input: a message and exit 2. On the Pico
2, a dial scenario."""
import os
import subprocess
import sys

import pytest


REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _emu(*args, stdin=subprocess.DEVNULL):
    return subprocess.run([sys.executable, "-m", "emu"] + list(args), cwd=REPO, capture_output=True,
                          text=True, timeout=600, stdin=stdin)


def test_headless_emu_plays_a_scenario_and_draws_the_box(image, tmp_path):
    image("pico-4p")                                   # deployed once for the session
    script = tmp_path / "s.txt"
    script.write_text("players 2\ndice yellow\nrollbutton\nwait 1700\nbuzz P2\nwait 200\n")
    p = _emu("--board", "pico-4p", "--script", str(script))
    assert p.returncode == 0, p.stderr
    assert "emulated Pico" in p.stdout and "P2" in p.stdout and "wheel" in p.stdout
    assert "P2 grabs" in p.stdout and "grab" in p.stdout      # read from the box's log, as make sim says it


def test_bad_input_is_a_message_and_exit_2(tmp_path):
    p = _emu("--board", "nope")
    assert p.returncode == 2 and "boards:" in p.stderr and "Traceback" not in p.stderr
    # a Pico 2 board without the Pico 2's firmware: says what is missing
    env = dict(os.environ, CHEESEBOX_EMU2350_FIRMWARE=str(tmp_path / "none.bin"))
    p = subprocess.run([sys.executable, "-m", "emu", "--board", "pico2-8p"], cwd=REPO, env=env,
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2 and "emulated Pico 2" in p.stderr and "none.bin" in p.stderr, p.stderr
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00")
    p = _emu("--script", str(bad))
    assert p.returncode == 2 and "Traceback" not in p.stderr


# -- the Pico 2: a dial scenario -------------------------------------------------------
@pytest.mark.rp2350
def test_headless_emu_plays_a_dial_scenario_on_the_pico2(image, tmp_path):
    image("pico2-8p")                                  # deployed once for the session
    script = tmp_path / "s.txt"
    script.write_text("players 2\ndice yellow\nrollbutton\nwait 1700\nanswer P2 6\nbuzz P2\nwait 200\n")
    p = subprocess.run([sys.executable, "-m", "emu", "--board", "pico2-8p", "--script", str(script)],
                       cwd=REPO, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert "emulated Pico 2" in p.stdout and "wheel" in p.stdout
    # the screen says it as make sim does: P2's dial locked at 6, and why
    assert "dial 6 locked" in p.stdout and "P2 grabs (plate 6)" in p.stdout, p.stdout
