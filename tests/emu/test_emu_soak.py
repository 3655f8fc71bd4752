"""make soak for one emulated minute, as a builder types it (make test runs
every target): random play on pico-8p with bouncing presses, a chattering
wire, saves and a 512-word DMA segment; no press lost, the watchdog quiet,
the heap judged on readings taken in a game (an eighth of the run apart) and
flat (emu/soak.py)."""
import json
import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_make_soak_one_emulated_minute():
    env = dict((k, v) for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"))
    p = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.stamp", "soak", "MINUTES=1",
                        "WALL_MINUTES=20"], cwd=REPO, env=env, capture_output=True, text=True,
                       timeout=1500)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    with open(os.path.join(REPO, "build", "soak.json")) as f:
        fig = json.load(f)
    assert fig["presses_expected"] > 10
    assert fig["presses_lost"] == [] and fig["presses_logged"] == fig["presses_expected"]
    assert fig["watchdog_resets"] == 0 and fig["overruns_without_chatter"] == 0
    assert fig["firmware"] is not None          # the console's state says the version
    assert fig["heap_judged"] and fig["heap_samples"] >= 4, fig
    assert fig["heap_free_min_last_quarter"] >= fig["heap_free_min_first_quarter"] - 1024, fig
