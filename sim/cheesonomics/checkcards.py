"""Check a Cheesonomics card list before playing with it.

  python -m sim.cheesonomics.checkcards [FILE]     (default: the box's cards.json)

Prints what the box read (market cards by country with both sides, the
average signs of each country, the special marks by animal) and exits 0,
or names the file and what is wrong and exits 2.
"""
import sys

from cheesonomics import cardfile


def main(argv):
    path = argv[0] if argv else None
    try:
        c = cardfile.load(path)
    except cardfile.CardsError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    print("%s: a good card list" % (path or cardfile.default_path()))
    for k in range(5):
        ms = [m for m in range(25) if c.country[m] == k]
        sides = ["%d|%d" % (c.sides[2 * m], c.sides[2 * m + 1]) for m in ms]
        avg = sum(c.sides[2 * m] + c.sides[2 * m + 1] for m in ms) / 10.0
        print("  %-12s cards %s  (%s)  average %.2f signs a side" % (
            c.countries[k], ", ".join(str(m + 1) for m in ms), " ".join(sides), avg))
    for a in range(5):
        marks = [c.marks[c.mark[i]] for i in range(a * 20, a * 20 + 20) if c.mark[i] != cardfile.NONE]
        print("  %-12s %d marked: %s" % (c.animals[a], len(marks), ", ".join(marks) or "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
