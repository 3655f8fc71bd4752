"""python -m sim --game cheesonomics: the whole card game in a terminal.

  python -m sim --game cheesonomics                    you (P1) against 2 bots
  ... --players 4 --humans 2 --advanced                hot seat: hands hidden between humans
  ... --humans 0                                       watch bots play
  ... --script FILE [--json]                           a scenario (docs/cheesonomics-scenarios.md)
  ... --cards FILE                                     your own printed card list (docs/cheesonomics.md)
Exit codes: 0 done, 1 an `expect` failed, 2 bad card file, scenario or option.
"""
import argparse
import json
import sys

from cheesonomics import cardfile


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print("error: %s" % message, file=sys.stderr)
        sys.exit(2)


def main(argv):
    ap = _Parser(prog="python -m sim --game cheesonomics", description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=["cheesonomics"], required=True)
    ap.add_argument("--players", type=int, default=3, help="2 to 5 (default 3)")
    ap.add_argument("--humans", type=int, default=1, help="people at the table, the rest are bots (default 1)")
    ap.add_argument("--advanced", action="store_true", help="the advanced variant")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock; scripts: 1)")
    ap.add_argument("--cards", help="card list file (default firmware/cheesonomics/cards.json)")
    ap.add_argument("--script", help="scenario file to run")
    ap.add_argument("--json", action="store_true", help="with --script: print the final state as JSON")
    args = ap.parse_args(argv)
    try:
        cards = cardfile.load(args.cards)
    except cardfile.CardsError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    if args.script is not None:
        return _script(args, cards)
    if not 2 <= args.players <= 5:
        print("error: --players must be 2 to 5", file=sys.stderr)
        return 2
    if not 0 <= args.humans <= args.players:
        print("error: --humans must be 0 to %d" % args.players, file=sys.stderr)
        return 2
    from sim.cheesonomics.play import play
    seed = args.seed
    if seed is None:
        import time
        seed = int(time.time()) & 0x7FFFFFFF
    return play(cards, args.players, args.humans, args.advanced, seed)


def _script(args, cards):
    from sim.cheesonomics.scenario import ExpectError, ScenarioError, run_script
    try:
        with open(args.script) as f:
            text = f.read()
    except (OSError, UnicodeError) as e:
        print("error: %s: cannot be read (%s)" % (args.script, e), file=sys.stderr)
        return 2
    try:
        result = run_script(text, cards, 1 if args.seed is None else args.seed)
    except ScenarioError as e:
        print("error: %s: %s" % (args.script, e), file=sys.stderr)
        return 2
    except ExpectError as e:
        print("failed: %s: %s" % (args.script, e), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result))
    else:
        from sim.cheesonomics.play import summary
        summary(result)
    return 0
