#!/usr/bin/env python3
"""Dice lab: the exact odds of every answer for each dice choice of the box.

  python host_tools/labs/dicelab.py                      # the default dice
  python host_tools/labs/dicelab.py --dice my-dice.json  # a table's own dice
  python host_tools/labs/dicelab.py --plot odds.png      # bar charts (matplotlib)
  python host_tools/labs/dicelab.py --json               # everything as JSON

For each selection the box offers (the menu's 3 yellow, +dog, +innkeeper,
+king, and the King of the Cheese Mountain campaign's first games with one
or two randomly drawn yellow dice) it goes through every roll (6**n for n
dice: 46,656 for six) and counts each with the firmware's own counting code
(firmware/cheesemaster/rules.py), never a copy. It prints the chance of every
answer 0..7+, the mean and spread of the cheese left, how often 0 and 7+ come
up, and how often each face kind changes the answer (a cat that eats a mouse,
a dog that scares a cat, the innkeeper clearing every animal, a king, a
mouse): the roll counted again without that kind's faces gives another
answer. A selection where one answer comes up more than 30 % of the time is
flagged: always guessing it would win too often for the game to stay fun. So
is a die with the same face on all six sides: rolling it is no chance at all
(it can hide inside a selection whose answers still look spread).

Exit codes: 0 done; 2 a dice file that cannot be read or used, or a plot
that cannot be written (the message says which and why).
"""
import argparse
import itertools
import json
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from cheesemaster import faces as F  # noqa: E402
from cheesemaster.campaign import campaign_dice  # noqa: E402
from cheesemaster.dice import (CAMPAIGN, CHOICES, N_YELLOW, DiceError,  # noqa: E402
                            default_dice, dice_for_choice, load_dice)
from cheesemaster.rules import PLATE_MAX, count_ids  # noqa: E402

FLAG_SHARE = 0.30           # one answer more likely than this: flagged
ANSWERS = PLATE_MAX + 1     # 0..6 and 7+
# face kinds whose effect is measured: (label, face numbers of that kind)
KINDS = (("cat", (F.CAT,)), ("dog", (F.DOG,)), ("innkeeper", (F.INNKEEPER,)),
         ("king", (F.KING,)), ("mouse", (F.MOUSE1, F.MOUSE2)))
CAMPAIGN_GAMES = 6          # game 6 and later: all six dice


class LabError(Exception):
    """Bad input: the message is for the user (exit 2)."""


def read_dice(path):
    """(names, faces) from a dice file, checked by the firmware's loader."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise LabError("%s: cannot be read (%s)" % (path, e.strerror or e))
    try:
        spec = json.loads(raw.decode("utf-8-sig"))
    except UnicodeError:
        raise LabError("%s: is not a text file (not UTF-8)" % path)
    except (ValueError, RecursionError) as e:
        raise LabError("%s: is not valid JSON (%s)" % (path, e))
    try:
        return load_dice(spec, path)
    except DiceError as e:
        raise LabError(str(e))


# -- counting -----------------------------------------------------------------
def roll_table(die_faces):
    """{sorted face numbers: how many of the rolls give them} over every roll.

    Every one of the 6**n rolls is visited (each die's six sides in turn);
    rolls showing the same faces in another order are counted together so
    that the firmware's count runs once per distinct set of faces."""
    table = {}
    get = table.get
    for roll in itertools.product(*die_faces):
        key = tuple(sorted(roll))
        table[key] = get(key, 0) + 1
    return table


def without(key, kinds):
    return tuple(f for f in key if f not in kinds)


def analyse(die_faces):
    """Exact statistics of one set of dice (a list of 6-face bytes)."""
    table = roll_table(die_faces)
    total = 6 ** len(die_faces)
    answers = [0] * ANSWERS
    present = dict((k, 0) for k, _ in KINDS)
    matters = dict((k, 0) for k, _ in KINDS)
    s1 = s2 = 0
    for key, n in table.items():
        left = count_ids(key)
        answers[left if left < PLATE_MAX else PLATE_MAX] += n
        s1 += n * left
        s2 += n * left * left
        for kind, ids in KINDS:
            if any(f in ids for f in key):
                present[kind] += n
                if count_ids(without(key, ids)) != left:
                    matters[kind] += n
    mean = s1 / total
    return {"rolls": total, "distinct": len(table), "answers": answers,
            "mean": mean, "sd": math.sqrt(max(0.0, s2 / total - mean * mean)),
            "present": present, "matters": matters}


def mix(parts):
    """Weighted mixture of analyse() results: [(weight, result)], weights sum to 1.
    Counts become probabilities times the largest roll count (kept exact as floats)."""
    total = max(r["rolls"] for _, r in parts)
    out = {"rolls": total, "distinct": sum(r["distinct"] for _, r in parts),
           "answers": [0.0] * ANSWERS, "present": dict((k, 0.0) for k, _ in KINDS),
           "matters": dict((k, 0.0) for k, _ in KINDS)}
    mean = var = 0.0
    for w, r in parts:
        scale = w * total / r["rolls"]
        for i in range(ANSWERS):
            out["answers"][i] += r["answers"][i] * scale
        for k, _ in KINDS:
            out["present"][k] += r["present"][k] * scale
            out["matters"][k] += r["matters"][k] * scale
        mean += w * r["mean"]
    for w, r in parts:
        var += w * (r["sd"] ** 2 + r["mean"] ** 2)
    out["mean"] = mean
    out["sd"] = math.sqrt(max(0.0, var - mean * mean))
    return out


# -- the box's selections -----------------------------------------------------
def selections(names):
    """[(label, uses, [(weight, die numbers)])]: every dice set the box can roll.

    The menu's choices come from dice.dice_for_choice; the campaign's games
    from campaign.campaign_dice over every equally likely draw of its two yellow
    dice (campaign.draw_campaign_yellows: any first, any other second)."""
    out = []
    menu = {}
    for choice in range(CAMPAIGN):
        dice = dice_for_choice(choice)
        # the menu's own names (dice.CHOICES), the die a choice adds beside
        label = CHOICES[choice] + ("" if choice == 0 else " (+%s)" % _short(names[dice[-1]]))
        uses = ["menu %d (%s)" % (choice + 1, CHOICES[choice])]
        out.append((label, uses, [(1.0, dice)]))
        menu[dice] = uses
    draws = [(a, b) for a in range(N_YELLOW) for b in range(N_YELLOW) if a != b]
    for game in range(1, CAMPAIGN_GAMES + 1):
        sets = {}
        for a, b in draws:
            d = campaign_dice(game, a, b)
            sets[d] = sets.get(d, 0) + 1.0 / len(draws)
        label = "campaign game %d" % game + (" on" if game == CAMPAIGN_GAMES else "")
        if len(sets) == 1 and next(iter(sets)) in menu:
            menu[next(iter(sets))].append(label)
            continue
        n = len(next(iter(sets)))
        out.append(("%s (%d random yellow)" % (label, n),
                    [label], sorted(((w, d) for d, w in sets.items()), key=lambda x: x[1])))
    return out


def _short(name):
    """'orange dog' -> 'dog': the menu's word for an orange die."""
    return name.split()[-1] if name.startswith("orange ") else name


def dull_dice(names, faces):
    """The dice whose six faces are all one face, as {die (1-based, as a
    builder counts), name, face}: the odds of a selection can look fine
    while one of its dice always shows the same."""
    out = []
    for i, f in enumerate(faces):
        if len(set(f)) == 1:
            out.append({"die": i + 1, "name": names[i], "face": F.NAMES[f[0]]})
    return out


def lab(names, faces):
    """The statistics of every selection, as a list of dicts."""
    cache = {}
    rows = []
    for label, uses, parts in selections(names):
        done = []
        for w, dice in parts:
            if dice not in cache:
                cache[dice] = analyse([faces[d] for d in dice])
            done.append((w, cache[dice]))
        r = done[0][1] if len(done) == 1 else mix(done)
        share = [a / r["rolls"] for a in r["answers"]]
        top = max(range(ANSWERS), key=lambda i: share[i])
        rows.append({
            "selection": label, "used_by": uses,
            "dice": [[names[d] for d in dice] for _, dice in parts],
            "weights": [w for w, _ in parts],
            "rolls": sum(6 ** len(d) for _, d in parts), "distinct_faces": r["distinct"],
            "p": share, "mean": r["mean"], "sd": r["sd"],
            "p0": share[0], "p7plus": share[PLATE_MAX],
            "kind_present": dict((k, v / r["rolls"]) for k, v in r["present"].items()),
            "kind_matters": dict((k, v / r["rolls"]) for k, v in r["matters"].items()),
            "top_answer": top, "flag": share[top] > FLAG_SHARE,
        })
    return rows


# -- output -------------------------------------------------------------------
def _ans(i):
    return "7+" if i == PLATE_MAX else str(i)


def format_table(rows, source, dull=()):
    out = ["Dice lab: %s. Chance of each answer (the cheese left), over every roll." % source, ""]
    head = "%-38s %6s " % ("selection", "rolls") + " ".join("%5s" % _ans(i) for i in range(ANSWERS))
    head += "   mean    sd"
    out.append(head)
    out.append("-" * len(head))
    for r in rows:
        line = "%-38s %6d " % (r["selection"], r["rolls"])
        line += " ".join("%4.1f%%" % (100 * p) if p >= 0.0005 else "%5s" % "-" for p in r["p"])
        line += "  %5.2f  %4.2f" % (r["mean"], r["sd"])
        if r["flag"]:
            line += "  << %s: %.0f%%" % (_ans(r["top_answer"]), 100 * r["p"][r["top_answer"]])
        out.append(line)
    out.append("")
    out.append("How often a face kind changes the answer (in brackets: how often it shows):")
    head = "%-38s " % "selection" + " ".join("%17s" % k for k, _ in KINDS)
    out.append(head)
    out.append("-" * len(head))
    for r in rows:
        cells = []
        for k, _ in KINDS:
            if r["kind_present"][k] == 0:
                cells.append("%17s" % "-")
            else:
                cells.append("%17s" % ("%.1f%% (%.0f%%)" % (100 * r["kind_matters"][k],
                                                            100 * r["kind_present"][k])))
        out.append("%-38s " % r["selection"] + " ".join(cells))
    out.append("")
    for r in rows:
        out.append("%s: %s; used by %s" % (r["selection"], _dice_text(r), ", ".join(r["used_by"])))
    flagged = [r for r in rows if r["flag"]]
    out.append("")
    for d in dull:
        out.append("FLAG die %d (%s): %s on all six faces: it always rolls the same, no chance in it"
                   % (d["die"], d["name"], d["face"]))
    if flagged:
        for r in flagged:
            out.append("FLAG %s: answer %s comes up %.1f%% of the time (more than %d%%): "
                       "always guessing it wins too often"
                       % (r["selection"], _ans(r["top_answer"]), 100 * r["p"][r["top_answer"]],
                          round(100 * FLAG_SHARE)))
    else:
        out.append("No selection has an answer more likely than %d%%." % round(100 * FLAG_SHARE))
    return "\n".join(out)


def _dice_text(r):
    if len(r["dice"]) == 1:
        return ", ".join(r["dice"][0])
    return " | ".join("%s (%.0f%%)" % (", ".join(d), 100 * w) for d, w in zip(r["dice"], r["weights"]))


def plot(rows, path, source):
    """One bar chart of the answer's odds per selection, as a PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = 3
    nrows = (len(rows) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.2 * nrows), squeeze=False)
    labels = [_ans(i) for i in range(ANSWERS)]
    for ax, r in zip(axes.flat, rows):
        pct = [100 * p for p in r["p"]]
        colours = ["#d62728" if p > 100 * FLAG_SHARE else "#f2b705" for p in pct]
        ax.bar(labels, pct, color=colours, edgecolor="#6b4f00")
        ax.axhline(100 * FLAG_SHARE, color="#d62728", linestyle="--", linewidth=0.8)
        ax.set_title("%s\nmean %.2f, sd %.2f" % (r["selection"], r["mean"], r["sd"]), fontsize=9)
        ax.set_ylim(0, max(45, max(pct) + 5))
        ax.set_xlabel("answer (cheese left)", fontsize=8)
        ax.set_ylabel("% of rolls", fontsize=8)
    for ax in list(axes.flat)[len(rows):]:
        ax.axis("off")
    fig.suptitle("Dice lab: %s (red: more than %d%%)" % (source, round(100 * FLAG_SHARE)))
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="dicelab.py", description=__doc__.split("\n")[0],
                                 epilog="Exit codes: 0 done, 2 bad dice file or plot path.")
    ap.add_argument("--dice", metavar="FILE",
                    help="a dice file (docs: the dice file format); default: the box's default dice")
    ap.add_argument("--plot", metavar="OUT.png", help="bar charts of every selection (matplotlib)")
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON instead of tables")
    args = ap.parse_args(argv)
    try:
        if args.dice:
            names, faces = read_dice(args.dice)
            source = os.path.basename(args.dice)
        else:
            names, faces = default_dice()
            source = "the default dice"
        if args.plot:
            folder = os.path.dirname(os.path.abspath(args.plot))
            if not os.path.isdir(folder):
                raise LabError("--plot %s: the folder %s does not exist" % (args.plot, folder))
        t0 = time.perf_counter()
        rows = lab(names, faces)
        dull = dull_dice(names, faces)
        took = time.perf_counter() - t0
        if args.json:
            print(json.dumps({"source": source, "seconds": round(took, 3), "selections": rows,
                              "dull_dice": dull}, indent=1))
        else:
            print(format_table(rows, source, dull))
            print("(%d rolls counted in %.2f s)" % (sum(r["rolls"] for r in rows), took))
        if args.plot:
            try:
                plot(rows, args.plot, source)
            except ImportError:
                raise LabError("--plot needs matplotlib (pip install matplotlib)")
            except OSError as e:
                raise LabError("--plot %s: cannot be written (%s)" % (args.plot, e.strerror or e))
            print("plot: %s" % args.plot, file=sys.stderr)
    except LabError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
