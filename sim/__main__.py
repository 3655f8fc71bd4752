"""The Cheese Box in a terminal, or a scenario without a screen (python -m sim).

  .venv/bin/python -m sim                          play on the keyboard (needs a terminal)
  .venv/bin/python -m sim --script FILE [--json]   run a scenario in virtual time
  .venv/bin/python -m sim --board pico-8p ...      pick a board (name in boards/ or a path)
  .venv/bin/python -m sim --game cheesonomics      the card game against bots
  (or make sim ARGS="...")
Exit codes: 0 done, 2 bad board, dice or scenario file (message, no traceback).
"""
import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from cheesebox.board import BoardError, read_board  # noqa: E402
from cheesemaster.dice import DiceError, load_dice  # noqa: E402
from sim import games  # noqa: E402
from sim.scenario import ScenarioError, Sim, run_script, unused_roll  # noqa: E402
from sim.typed import python_m  # noqa: E402


def board_path(name):
    """A board name from boards/ or a path to a board file."""
    if os.sep in name or name.endswith(".json"):
        return name
    path = os.path.join(ROOT, "boards", name + ".json")
    if not os.path.exists(path):
        known = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "boards")) if f.endswith(".json"))
        raise BoardError("%s: no such board (boards: %s; or give a board file's path)"
                         % (name, ", ".join(known)))
    return path


def read_script(path):
    """A scenario file's text; ScenarioError if it cannot be one (not UTF-8
    text, binary, empty). A UTF-8 byte-order mark is fine."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ScenarioError("cannot be read (%s)" % (e.strerror or e))
    if b"\0" in data:
        raise ScenarioError("is not a text file (it holds NUL bytes: binary?)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ScenarioError("is not UTF-8 text (byte %d)" % e.start)
    if not any(line.split("#", 1)[0].strip() for line in text.splitlines()):
        raise ScenarioError("has no commands (empty, or only comments): see docs/scenarios.md")
    return text


def load_dice_file(path):
    """The dice file's text, checked here first with the firmware's own
    check (a bad file stops the simulator with its message), then put on the
    simulated flash as dice.json, where the box reads it as a Pico does."""
    try:
        with open(path) as f:
            text = f.read()
        spec = json.loads(text)
    except OSError as e:
        raise DiceError("%s: cannot be read (%s)" % (path, e))
    except UnicodeError:
        raise DiceError("%s: is not a text file (not UTF-8)" % path)
    except (ValueError, RuntimeError, MemoryError) as e:   # RecursionError: too deep
        raise DiceError("%s: is not valid JSON (%s)" % (path, e))
    load_dice(spec, path)
    return text


def _replay_args(args):
    """The options of this session but the seed (the replay line adds it)."""
    out = ["--board", args.board]
    if args.dice:
        out += ["--dice", args.dice]
    if args.false_start_costs:
        out.append("--false-start-costs")
    return out


def _parser(terminal):
    """The box's options (a game that plays on its own in the terminal has its
    own: sim/cheesonomics/cli.py)."""
    ap = argparse.ArgumentParser(prog=python_m(), description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=sorted(terminal),
                    help="the whole card game in the terminal, against bots (its own options:"
                         " --game cheesonomics --help); without it: the box, which hosts every game")
    ap.add_argument("--board", default="pico-4p", help="board name in boards/ or a path (default pico-4p)")
    ap.add_argument("--script", help="scenario file to run in virtual time")
    ap.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    ap.add_argument("--seed", type=int, default=None,
                    help="random seed: the same seed rolls the same dice (default: a fresh one for play,"
                         " printed; 1 for --script)")
    ap.add_argument("--dice", help="dice file replacing the default dice")
    ap.add_argument("--false-start-costs", action="store_true", help="house rule: a false start costs 1 point")
    ap.add_argument("--timing", action="store_true",
                    help="virtual time against wall time, on stderr (in play also live on the screen)")
    ap.add_argument("--log", metavar="FILE",
                    help="write the box's event log (JSON lines) to FILE as it happens, in play too"
                         " ('-': stderr)")
    return ap


def _run(args, board, dice, text, log, log_file):
    """Run a scenario text in virtual time; print the result (exit code)."""
    try:
        sim = Sim(board, seed=1 if args.seed is None else args.seed, dice=dice,
                  false_start_costs=args.false_start_costs, log=log)
        t0 = time.perf_counter()
        result = run_script(sim, text)
        left_over = unused_roll(sim)
        if left_over is not None:
            raise left_over
    except ScenarioError as e:
        print("error: %s: %s" % (args.script, e), file=sys.stderr)
        return 2
    finally:
        if log_file is not None and log_file is not sys.stderr:
            log_file.close()        # all of it on disk before anyone reads it
    wall = time.perf_counter() - t0
    if args.timing:
        print("virtual %.1f s in %.2f ms wall: %.0fx real time, %d box steps"
              % (result["virtual_ms"] / 1000.0, wall * 1000, result["virtual_ms"] / 1000.0 / wall,
                 sim.steps), file=sys.stderr)
    if args.json:
        print(json.dumps(result))
    else:
        from sim.view import snapshot
        snapshot(sim)
    return 0


def main(argv=None):
    a = list(sys.argv[1:] if argv is None else argv)
    terminal = games.terminal_games()       # the games with a terminal game of their own
    for name, module in terminal.items():
        if "--game=" + name in a or ("--game" in a and a[a.index("--game") + 1:][:1] == [name]):
            return __import__(module, None, None, ("main",)).main(a)
    args = _parser(terminal).parse_args(argv)
    try:
        board = read_board(board_path(args.board))
        dice = load_dice_file(args.dice) if args.dice else None
    except (BoardError, DiceError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    text = None
    if args.script is not None:
        try:
            text = read_script(args.script)
        except ScenarioError as e:
            print("error: %s: %s" % (args.script, e), file=sys.stderr)
            return 2
    elif args.log == "-" and sys.stderr.isatty() and sys.stdin is not None and sys.stdin.isatty():
        print("error: --log -: in play stderr is this terminal, where the box is drawn:"
              " give a file (--log game.log) or send stderr elsewhere (2>game.log)", file=sys.stderr)
        return 2
    log_file = None
    if args.log:
        try:
            # a line at a time: a monitor or `tail -f` follows the game live
            log_file = sys.stderr if args.log == "-" else open(args.log, "w", buffering=1)
        except OSError as e:
            print("error: --log %s: cannot be written (%s)" % (args.log, e.strerror or e), file=sys.stderr)
            return 2
    log = (lambda line: print(line, file=log_file, flush=True)) if log_file else None
    if text is None:
        from sim.view import play
        try:
            return play(board, seed=args.seed, dice=dice, false_start_costs=args.false_start_costs,
                        log=log, timing=args.timing, argv=_replay_args(args))
        finally:
            if log_file is not None and log_file is not sys.stderr:
                log_file.close()
    return _run(args, board, dice, text, log, log_file)


if __name__ == "__main__":
    sys.exit(main())
