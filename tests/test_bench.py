"""make bench cannot rot silently: `bench/run.py --smoke` runs every
bench script and every section once, with the smallest workload, and checks
each figure is there and positive (docs/bench.md). Here it runs as `make
bench` would run it, in a subprocess (its time is in docs/bench.md, not a test)."""
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTIONS = ("1 GAME", "2 STEADY STATE", "3 COST", "4 IMPORT", "5 SIMULATOR", "6 EMULATED PICO", "7 WEB PAGE")


def _no_browser():
    sys.path.insert(0, REPO)
    from bench import web
    return web.missing() is not None


def test_bench_smoke():
    p = subprocess.run([sys.executable, "-m", "bench", "--smoke"],
                       cwd=REPO, capture_output=True, text=True, timeout=180)
    out = p.stdout + p.stderr
    assert p.returncode == 0, "bench.py --smoke failed (exit %d):\n%s" % (p.returncode, out[-4000:])
    no_node = shutil.which("node") is None or shutil.which("npm") is None
    for name in SECTIONS:
        if no_node and name == "6 EMULATED PICO":
            # the emulated Pico runs in Node too: without it, said and skipped
            assert "smoke SKIPPED: 6 EMULATED PICO" in p.stdout, out[-4000:]
            continue
        if name == "7 WEB PAGE" and _no_browser():
            # the page needs Chromium, its chromedriver and selenium: said and skipped
            assert "smoke SKIPPED: 7 WEB PAGE" in p.stdout, out[-4000:]
            continue
        assert "smoke ok: " + name in p.stdout, "section %s not reported ok:\n%s" % (name, out[-4000:])
    if no_node:
        # the only parts a machine without Node may skip, and it says so
        assert "smoke: SKIPPED the 32-bit (webassembly) runs: node/npm not found" in p.stdout
    else:
        assert "heap 32-bit (wasm): peak live during the game" in p.stdout
        assert "wasm32 ready_marked (ready)" in p.stdout
    if not _no_browser():
        # figures came out (no wall-clock bound here: the bench prints them against the targets)
        assert "press: event timeStamp -> its frame presented" in p.stdout, out[-4000:]
        assert "drawn in the first frame after the box could confirm it" in p.stdout, out[-4000:]
        assert "box step, JS -> MicroPython -> JS" in p.stdout, out[-4000:]
        assert "page weight: sent on the first load" in p.stdout, out[-4000:]


def test_mirror_check_names_a_drift(tmp_path, monkeypatch):
    """The bench's copy of Box.step() is compared with box.py's calls: a
    call added to step() fails the bench, naming benchkit."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_tool", os.path.join(REPO, "bench", "run.py"))
    B = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(B)
    assert B.check_mirror()["step_calls"] > 0
    src = open(B.BOX_PY).read()
    drifted = src.replace("        self._check_stuck(now)\n",
                          "        self._check_stuck(now)\n        self.ticks_us()\n", 1)
    assert drifted != src
    box = tmp_path / "box.py"
    box.write_text(drifted)
    monkeypatch.setattr(B, "BOX_PY", box)
    try:
        B.check_mirror()
    except B.BenchError as e:
        assert "bench/mp/benchkit.py's copy of Box.step" in str(e)
    else:
        raise AssertionError("a changed Box.step() passed the mirror check")
