"""python -m emu [--board NAME] [--script FILE] [--py]: `make emu`.

The box's firmware, as host_tools/deploy/flash.py lays it out (mpy-cross), on the
flash of an emulated Pico (a LittleFS image built on the host), runs on the
official MicroPython rp2 firmware on an emulated Pico (or Pico 2, for a board
whose "mcu" is rp2350). With a
terminal: play it with the keyboard, as `make sim`. Without one (or with
--script): the scenario's finger movements on its pins, then one picture.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from emu.pico import EmulatorMissing, locate  # noqa: E402

DEMO = "players 3\ndice yellow\nrollbutton\nwait 1700\nbuzz P1\nbuzz P2\nwait 500\n"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m emu", description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", default="pico-4p", help="a board in boards/ (pico-4p, pico-8p, pico2-8p)")
    ap.add_argument("--script", help="a scenario file (docs/scenarios.md) to play headless")
    ap.add_argument("--py", action="store_true", help="deploy .py sources instead of .mpy")
    args = ap.parse_args(argv)
    boards = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "boards")) if f.endswith(".json"))
    if args.board not in boards:
        print("emu: no board %r (boards: %s)" % (args.board, ", ".join(boards)), file=sys.stderr)
        return 2
    from cheesebox.board import read_board
    # the board file's "mcu" picks the chip: a Pico (rp2040js) or a Pico 2 (rp2350js)
    chip = read_board(os.path.join(ROOT, "boards", args.board + ".json")).mcu
    try:
        locate(chip)
    except EmulatorMissing as e:
        print(e, file=sys.stderr)
        return 2
    script = None
    if args.script:
        try:
            with open(args.script, encoding="utf-8-sig") as f:
                script = f.read()
        except (OSError, UnicodeDecodeError) as e:
            print("emu: cannot read %s: %s" % (args.script, e), file=sys.stderr)
            return 2
    from emu import deploy
    name = "Pico 2" if chip == "rp2350" else "Pico"
    if deploy.builds_on_host(chip):
        print("emu: the emulated %s's flash: the files of make flash in a LittleFS image built on "
              "the host (cached in build/emu/) ..." % name, file=sys.stderr, flush=True)
    else:
        print("emu: deploying the firmware to the emulated %s with host_tools/deploy/flash.py "
              "(first time about 45 s, then cached in build/emu/) ..." % name,
              file=sys.stderr, flush=True)
    flash = deploy.image(args.board, keep_py=args.py)
    from emu import view
    from sim.scenario import ScenarioError
    if script is None and sys.stdin.isatty() and sys.stdout.isatty():
        return view.play(args.board, flash)
    try:
        view.headless(args.board, flash, script if script is not None else DEMO)
    except ScenarioError as e:
        print("emu: %s: %s" % (args.script or "demo", e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
