"""`python -m emu --board pico2-8p --script FILE`: a scenario's fingers (and
dials) on the emulated Pico 2, then one picture of the box."""
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
