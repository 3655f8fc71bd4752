"""How many inputs a table needs to key in a Cheesonomics turn on the box.

  python -m sim.cheesonomics.keycount [--board pico-8p] [--players 3] [--seed 1]
                                      [--advanced] [--write FILE]
  python -m sim.cheesonomics.keycount --count FILE [--board pico-8p]

The first form plays a whole game with the bots on the full rules engine,
laid out with the box's own market, writes every turn as a line of the
scenario language (`collect P2 goat`, `sell P3 cow Italy 2`,
docs/cheesonomics-box.md), runs those lines on the simulated box and counts
what the fingers pressed for each line: buzzer and ROLL presses and answer
keys (or dial turns that moved). The second runs a scenario file written by
the first and counts the same way (so the same game can be counted on
another version of the firmware). Prints, per kind of action, how many there
were and the inputs each took (min, mean, max), and checks the box refused
nothing and ended with the engine's money.
"""
import argparse
import os

from sim.scenario import Sim, run_script

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def board_of(name):
    from cheesebox.board import read_board
    return read_board(os.path.join(REPO, "boards", name + ".json"))


class Counter:
    """Counts the fingers' inputs on a SimPort: presses (edges down) and placements."""

    def __init__(self, port):
        self.n = 0
        sched = port.schedule
        place = port.place

        def schedule(t_us, bit, level):
            if level:
                self.n += 1
            sched(t_us, bit, level)

        def placed(s, k, t=None):
            before = list(port.dial) if port.plates == "dial" else None
            place(s, k, t)
            if before is None or before != list(port.dial):
                self.n += 1             # a dial that does not move is no input
        port.schedule = schedule
        port.place = placed


def kind_of(line):
    w = line.split()
    if w[0] == "sell":
        if "exchange" in w:
            return "sale with exchange"
        return "sale (advanced)" if "forbid" in w or len(w) > 5 or _advanced[0] else "sale (basic)"
    return w[0]


_advanced = [False]


def count_lines(sim, lines):
    """{kind: [inputs per line]} for the turn lines (setup lines are run, not counted)."""
    c = Counter(sim.port)
    out = {}
    for ln in lines:
        ln = ln.split("#")[0].strip()
        if not ln:
            continue
        c.n = 0
        run_script(sim, ln + "\n")
        if ln.split()[0] in ("collect", "produce", "sell", "pass"):
            out.setdefault(kind_of(ln), []).append(c.n)
    return out


def play(board, players, seed, advanced):
    """A whole bot game keyed in through the scenario language: (lines, sim, engine game, log)."""
    from sim.cheesonomics import bot, driver
    from sim.cheesonomics.arrange import cards, set_market
    from sim.cheesonomics.engine import Game
    from sim.rng import SeededRandom
    from cheesonomics.entry import card_kind, kind_name
    log = []
    sim = Sim(board, seed=seed, log=log.append)
    setup = ["game cheesonomics", "players %d" % players, "variant %s" % ("advanced" if advanced else "basic")]
    run_script(sim, "\n".join(setup) + "\n")
    bank = sim.box.game.bank
    g = Game(cards(), players, SeededRandom(seed + 1000), advanced=advanced, first=bank.first)
    set_market(g, list(bank.mk), list(bank.side))
    g.market_census()
    c = g.cards
    rng = SeededRandom(seed + 2000)
    agents = [bot.Bot(rng) for _ in range(players)]
    stations = sim.box.game.stations
    said = []

    def wrap(name):
        real = getattr(g, name)

        def call(*args, **kw):
            who = "P%d" % (stations[g.cur] + 1)
            if name == "pass_turn":
                said.append("pass %s" % who)
            elif name == "collect":
                said.append("collect %s %s" % (who, g.type_name(args[0])))
            elif name == "produce":
                said.append("produce %s %d" % (who, len(args[1])))
            else:
                a, country, sold = args[0], args[1], args[2]
                action = args[3] if len(args) > 3 else kw.get("action")
                replace = args[4] if len(args) > 4 else kw.get("replace")
                ln = "sell %s %s %s %d" % (who, c.animals[a], c.countries[country], len(sold))
                if action is not None and action[0] == "forbid":
                    ln += " forbid %s" % c.marks[action[1]]
                if replace is not None:
                    pos, m, side = replace[1], replace[2], replace[3]
                    ln += " exchange %s %s %s" % (kind_name(card_kind(c, g.mk[pos], g.side[pos])),
                                                  c.countries[c.country[m]], kind_name(card_kind(c, m, side)))
                said.append(ln)
            return real(*args, **kw)
        return call

    for name in ("collect", "produce", "sell", "pass_turn"):
        setattr(g, name, wrap(name))
    lines = []
    counts = {}
    _advanced[0] = advanced
    counter = Counter(sim.port)
    while not g.over:
        driver.play_turn(g, agents, rng)
        ln = said.pop()
        lines.append(ln)
        counter.n = 0
        run_script(sim, ln + "\n")
        counts.setdefault(kind_of(ln), []).append(counter.n)
        if len(lines) > 2000:
            raise RuntimeError("the game does not end")
    return setup, lines, counts, sim, g, log


def report(counts):
    rows = []
    for kind in sorted(counts):
        v = counts[kind]
        rows.append("%-20s %4d actions, inputs each: min %d, mean %.2f, max %d"
                    % (kind, len(v), min(v), sum(v) / len(v), max(v)))
    total = sum(sum(v) for v in counts.values())
    n = sum(len(v) for v in counts.values())
    rows.append("%-20s %4d actions, %d inputs (%.2f an action)" % ("all", n, total, total / n))
    return "\n".join(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m sim.cheesonomics.keycount")
    ap.add_argument("--board", default="pico-8p")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--advanced", action="store_true")
    ap.add_argument("--write", help="write the game as a scenario file")
    ap.add_argument("--count", help="count the inputs of a scenario file instead")
    a = ap.parse_args(argv)
    import json
    if a.count:
        with open(a.count) as f:
            text = f.read().splitlines()
        _advanced[0] = any(ln.strip() == "variant advanced" for ln in text)
        sim = Sim(board_of(a.board), seed=a.seed)
        counts = count_lines(sim, text)
        print(report(counts))
        r = sim.result()
        print("final money: %s" % json.dumps(r.get("cheesonomics", {}).get("money")))
        return 0
    setup, lines, counts, sim, g, log = play(board_of(a.board), a.players, a.seed, a.advanced)
    refused = [ln for ln in log if '"not_allowed"' in ln]
    bank = sim.box.game.bank
    print("%s, %d players, %s, seed %d: %d turns" % (a.board, a.players,
                                                      "advanced" if a.advanced else "basic", a.seed, len(lines)))
    print(report(counts))
    print("box money %s, engine money %s, refused %d" % (bank.money, g.money, len(refused)))
    if a.write:
        with open(a.write, "w") as f:
            f.write("# a whole %d-player %s game keyed in on %s (python -m sim.cheesonomics.keycount"
                    " --seed %d%s --write)\n" % (a.players, "advanced" if a.advanced else "basic",
                                                  a.board, a.seed, " --advanced" if a.advanced else ""))
            f.write("\n".join(setup + lines) + "\n")
    return 0 if bank.money == g.money and not refused else 1


if __name__ == "__main__":
    raise SystemExit(main())
