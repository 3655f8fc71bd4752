#!/usr/bin/env python3
"""Cheesonomics balance lab: N bot games per player count and variant.

    .venv/bin/python host_tools/labs/balance.py [--games 1000] [--players 2,3,4,5]
        [--variant basic,advanced] [--cards FILE] [--seed S] [--plot FILE.png]

Prints one table (win rate by seat counted from the first player, final
money, how often each bonus decides the game, game length) and a verdict on
the market card list, and draws the same figures to a PNG (matplotlib, Agg).

Fairness, measured two ways: the seats (is any seat's win rate further from
1/N than chance explains?) and the market card list (is any country's price,
averaged over every turn of a game, further from the average of all
countries than chance explains?). "Chance explains" is a deviation in
standard errors that chance alone exceeds in only 1% of labs, over all the
comparisons the lab makes (Bonferroni). A list where one country's cards carry more
signs shows up in the second; a first-player edge in the first.
Exit 0 done, 2 bad card file or option.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from cheesonomics import cardfile  # noqa: E402
from sim.cheesonomics import bot, driver  # noqa: E402
from sim.cheesonomics.engine import Game  # noqa: E402
from sim.rng import SeededRandom  # noqa: E402


def winners_of(money):
    top = max(money)
    return frozenset(p for p, m in enumerate(money) if m == top)


def one_game(cards, n, advanced, seed):
    rng = SeededRandom(seed)
    g = Game(cards, n, rng, advanced=advanced)
    agents = [bot.Bot(rng) for _ in range(n)]
    price_sum = [0] * 5
    turns = 0
    sales = still = 0
    while not g.over:
        before = [g.price(k) for k in range(5)]
        for k in range(5):
            price_sum[k] += before[k]
        line = driver.play_turn(g, agents, rng)
        turns += 1
        if " sells " in line:
            # "P2 sells 3 goat to Italy at 4: 12": did the turned cards move the price?
            c = cards.countries.index(line.split(" to ", 1)[1].split(" at ", 1)[0])
            sales += 1
            still += 1 if g.price(c) == before[c] else 0
    won = winners_of(g.money)
    decided = {}
    # a bonus decides the game when the winners without it are not the winners
    without = [g.money[p] - g.unsold_bonus[p] for p in range(n)]
    decided["unsold cheese"] = winners_of(without) != won
    most = [0] * n
    for a in range(5):
        if g.top_bonus[a] is not None:
            amount, to = g.top_bonus[a]
            for p in to:
                most[p] += amount
    decided["most sold (all)"] = winners_of([g.money[p] - most[p] for p in range(n)]) != won
    for a in range(5):
        d = False
        if g.top_bonus[a] is not None:
            amount, to = g.top_bonus[a]
            d = winners_of([g.money[p] - (amount if p in to else 0) for p in range(n)]) != won
        decided["most %s" % cards.animals[a]] = d
    seats = [(p - g.first) % n for p in won]        # 0 = the first player
    return {
        "seats": seats, "money": list(g.money), "decided": decided, "turns": g.turns[0],
        "prices": [s / turns for s in price_sum], "bank": sum(g.money),
        "sales": sales, "still": still,
    }


def run(cards, n, advanced, games, seed):
    wins = [0.0] * n
    money, spread, lengths, bank = [], [], [], []
    decided: dict[str, int] = {}
    prices = [[] for _ in range(5)]
    sales = still = 0
    for i in range(games):
        r = one_game(cards, n, advanced, seed + 7919 * i + 131 * n + (1 if advanced else 0))
        for s in r["seats"]:
            wins[s] += 1.0 / len(r["seats"])
        money.extend(r["money"])
        spread.append(max(r["money"]) - min(r["money"]))
        lengths.append(r["turns"])
        bank.append(r["bank"])
        for k, v in r["decided"].items():
            decided[k] = decided.get(k, 0) + (1 if v else 0)
        for k in range(5):
            prices[k].append(r["prices"][k])
        sales += r["sales"]
        still += r["still"]
    return {
        "n": n, "variant": "advanced" if advanced else "basic", "games": games,
        "win": [w / games for w in wins], "money": money, "spread": spread,
        "turns": statistics.mean(lengths), "decided": dict((k, v / games) for k, v in decided.items()),
        "prices": [statistics.mean(p) for p in prices],
        "price_se": [statistics.stdev(p) / math.sqrt(len(p)) if len(p) > 1 else 0.0 for p in prices],
        "bank_max": max(bank),
        "still": still / sales if sales else 0.0,
    }


def limit(tests):
    """The deviation (in standard errors) that chance alone passes in only
    1% of labs of `tests` comparisons (Bonferroni, two-sided)."""
    return statistics.NormalDist().inv_cdf(1 - 0.01 / (2 * tests))


def seat_fair(r, z):
    n, N = r["n"], r["games"]
    p = 1.0 / n
    se = math.sqrt(p * (1 - p) / N)
    worst = max(abs(w - p) / se for w in r["win"])
    return worst <= z, worst


def market_fair(r, z):
    pr, se = r["prices"], r["price_se"]
    mean = statistics.mean(pr)
    worst = 0.0
    for k in range(5):
        worst = max(worst, abs(pr[k] - mean) / max(se[k], 1e-9))
    return worst <= z, worst


def static_check(cards):
    """Average signs per country over both sides of its cards."""
    avg = []
    for k in range(5):
        s = sum(cards.sides[2 * m] + cards.sides[2 * m + 1] for m in range(25) if cards.country[m] == k)
        avg.append(s / 10.0)
    return avg


def print_report(cards, results, out=sys.stdout):
    w = out.write
    w("Cheesonomics balance lab: %d games per row, bots (sim/cheesonomics/bot.py)\n\n" % results[0]["games"])
    w("%-9s %2s  %-31s  %-17s  %-6s  %-13s %-13s\n" % (
        "variant", "N", "win rate by seat (1st..last)", "money mean/sd/max", "spread", "bonus decides", "turns/player"))
    w("%-9s %2s  %-31s  %-17s  %-6s  %-13s %-13s\n" % ("", "", "", "", "", "unsold most", ""))
    for r in results:
        win = " ".join("%4.1f" % (100 * x) for x in r["win"])
        m = r["money"]
        w("%-9s %2d  %-31s  %5.1f %4.1f %5d    %5.1f   %4.1f%% %5.1f%%  %5.1f\n" % (
            r["variant"], r["n"], win, statistics.mean(m), statistics.pstdev(m), max(m),
            statistics.mean(r["spread"]), 100 * r["decided"]["unsold cheese"],
            100 * r["decided"]["most sold (all)"], r["turns"]))
    w("\nHow often the 'most sold' bonus of each animal alone decides the game (%):\n")
    w("%-9s %2s  %s\n" % ("variant", "N", "  ".join("%8s" % a for a in cards.animals)))
    for r in results:
        w("%-9s %2d  %s\n" % (r["variant"], r["n"], "  ".join(
            "%8.1f" % (100 * r["decided"]["most %s" % a]) for a in cards.animals)))
    w("\nAverage price of a piece over every turn, by country:\n")
    w("%-9s %2s  %s\n" % ("variant", "N", "  ".join("%11s" % c[:11] for c in cards.countries)))
    for r in results:
        w("%-9s %2d  %s\n" % (r["variant"], r["n"], "  ".join(
            "%6.2f+-%.2f" % (r["prices"][k], r["price_se"][k]) for k in range(5))))
    w("\nSales after which the country's price did not move (its cards turned over, the same sum):\n")
    w("%-9s %2s  %s\n" % ("variant", "N", "unmoved"))
    for r in results:
        w("%-9s %2d  %6.1f%%\n" % (r["variant"], r["n"], 100 * r["still"]))
    avg = static_check(cards)
    w("\nCard list: average signs per card side by country: %s\n" % ", ".join(
        "%s %.2f" % (cards.countries[k], avg[k]) for k in range(5)))
    zs = limit(sum(r["n"] for r in results))
    zm = limit(5 * len(results))
    seats_ok = all(seat_fair(r, zs)[0] for r in results)
    market_ok = all(market_fair(r, zm)[0] for r in results) and max(avg) - min(avg) < 1e-9
    worst_seat = max(results, key=lambda r: seat_fair(r, zs)[1])
    worst_mk = max(results, key=lambda r: market_fair(r, zm)[1])
    w("Seats: %s (largest deviation %.1f standard errors, %s %d players; chance alone: up to %.1f)\n" % (
        "fair" if seats_ok else "NOT fair", seat_fair(worst_seat, zs)[1], worst_seat["variant"], worst_seat["n"], zs))
    w("Market card list: %s (largest country deviation %.1f standard errors, %s %d players;"
      " chance alone: up to %.1f)\n" % (
        "fair" if market_ok else "NOT fair", market_fair(worst_mk, zm)[1], worst_mk["variant"], worst_mk["n"], zm))
    w("Most money paid out in one game: %d (the 120 banknotes hold 460)\n" % max(r["bank_max"] for r in results))
    return seats_ok, market_ok


def plot(cards, results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(2, 2, figsize=(12, 9))
    variants = sorted(set(r["variant"] for r in results), key=lambda v: v != "basic")
    counts = sorted(set(r["n"] for r in results))
    a = ax[0][0]
    for vi, v in enumerate(variants):
        for n in counts:
            r = [x for x in results if x["n"] == n and x["variant"] == v]
            if not r:
                continue
            xs = [n + (s - (n - 1) / 2) * 0.15 + (vi - (len(variants) - 1) / 2) * 0.07 for s in range(n)]
            a.bar(xs, [100 * w for w in r[0]["win"]], width=0.06, color="C%d" % vi,
                  label=v if n == counts[0] else None)
            a.hlines(100.0 / n, n - 0.45, n + 0.45, colors="k", linestyles="dotted")
    a.set_title("Win rate by seat (from the first player); dotted: 1/N")
    a.set_xlabel("players")
    a.set_ylabel("% of games won")
    a.set_xticks(counts)
    a.legend()
    a = ax[0][1]
    data, labels = [], []
    for r in results:
        data.append(r["money"])
        labels.append("%s\n%d" % (r["variant"][:3], r["n"]))
    a.boxplot(data)
    a.set_xticks(range(1, len(labels) + 1))
    a.set_xticklabels(labels)
    a.set_title("Final money of every player")
    a = ax[1][0]
    keys = ["unsold cheese", "most sold (all)"] + ["most %s" % x for x in cards.animals]
    for i, r in enumerate(results):
        a.plot(range(len(keys)), [100 * r["decided"][k] for k in keys], marker="o",
               label="%s %d" % (r["variant"], r["n"]))
    a.set_xticks(range(len(keys)))
    a.set_xticklabels([k.replace("most ", "most\n") for k in keys], fontsize=8)
    a.set_ylabel("% of games")
    a.set_title("How often a bonus decides the winner")
    a.legend(fontsize=7)
    a = ax[1][1]
    for i, r in enumerate(results):
        a.errorbar([k + (i - len(results) / 2) * 0.05 for k in range(5)], r["prices"], yerr=r["price_se"],
                   fmt="o", label="%s %d" % (r["variant"], r["n"]))
    a.set_xticks(range(5))
    a.set_xticklabels(cards.countries, fontsize=8)
    a.set_title("Average price of a piece by country (fair list: level)")
    a.legend(fontsize=7)
    fig.tight_layout()
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _games(text):
    """--games: each argument checked on its own, so the error names it."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a number of games, e.g. 200 (got %r)" % text)
    if n < 2:
        raise argparse.ArgumentTypeError("at least 2 games (got %d)" % n)
    return n


def _players(text):
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("player counts like 2,3,4,5 (got %r)" % text)
    bad = [n for n in counts if n < 2 or n > 5]
    if bad:
        raise argparse.ArgumentTypeError("Cheesonomics is for 2-5 players (got %s)"
                                         % ", ".join(str(n) for n in bad))
    return counts


def _variants(text):
    variants = [x.strip() for x in text.split(",")]
    bad = [v for v in variants if v not in ("basic", "advanced")]
    if bad:
        raise argparse.ArgumentTypeError("basic, advanced or basic,advanced (got %s)"
                                         % ", ".join(repr(v) for v in bad))
    return variants


def main(argv=None):
    ap = argparse.ArgumentParser(prog="host_tools/labs/balance.py", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=_games, default=1000,
                    help="games per player count and variant, at least 2 (default 1000)")
    ap.add_argument("--players", type=_players, default="2,3,4,5",
                    help="player counts 2-5, comma separated (default 2,3,4,5)")
    ap.add_argument("--variant", type=_variants, default="basic,advanced",
                    help="basic, advanced or both: basic,advanced (default)")
    ap.add_argument("--cards", help="card list (default firmware/cheesonomics/cards.json)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plot", default=os.path.join(REPO, "build", "balance.png"), help="PNG to write ('' for none)")
    args = ap.parse_args(argv)       # a bad value: argparse names that argument, exit 2
    counts, variants = args.players, args.variant
    try:
        cards = cardfile.load(args.cards)
    except cardfile.CardsError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    results = []
    for v in variants:
        for n in counts:
            results.append(run(cards, n, v == "advanced", args.games, args.seed))
    dt = time.perf_counter() - t0
    print_report(cards, results)
    total = args.games * len(results)
    print("%d games in %.1f s: %.0f games/s (CPython %s)" % (total, dt, total / dt, sys.version.split()[0]))
    if args.plot:
        plot(cards, results, args.plot)
        print("plot: %s" % os.path.relpath(args.plot))
    return 0


if __name__ == "__main__":
    sys.exit(main())
