"""The Cheesonomics reference card to lay beside the box: which key means what
at each step, drawn from the firmware's own tables (cheesonomics/entry.py:
actions, steps, market-card signs; cards.json: animals, places, countries,
marks, or another card list), so the card cannot drift from the box.

  python -m host_tools.labs.refcard [--cards FILE] [--out docs/refcard]

writes OUT.png and OUT.pdf (A5 landscape).
"""
import argparse
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# the countries' colours as the dice show them (cheesonomics/game.py: COUNTRY_RGB)


def rows(cards):
    """The card's sections: (title, [(key, meaning), ...])."""
    from cheesonomics import entry as E
    from cheesonomics.game import COUNTRY_RGB
    acts = [(str(k), E.ACTION_NAMES[k] + (" (final turns only)" if k == 0 else "")) for k in (1, 2, 3, 4, 0)]

    def nums(names):
        return [(str(i + 1), names[i]) for i in range(len(names))]
    dies = ["die %d" % (i + 1) for i in range(5)]
    countries = [(str(i + 1), "%s (%s)" % (cards.countries[i], dies[i])) for i in range(5)]
    signs = [(str(i + 1), "%d up | %d on the back" % E.KIND_CODES[i]) for i in range(len(E.KIND_CODES))]
    # reserve and trade change no money and no market card, and the box
    # knows neither the hands nor the marks: the table does them with the cards
    marks = ([("0", "none forbidden; 0 too for a reserve or a"),
              ("", "trade: do those with the cards (the box"),
              ("", "keeps no hands, no reserve, no marks)")]
             + [(k, "forbid the %s" % m) for k, m in nums(cards.marks)])
    return [
        ("Action (then the values, then your buzzer)", acts),
        ("Animal (collect 1, sell)", nums(cards.animals)),
        ("Place: the card's stripe (collect 2)", nums(cards.places)),
        ("Country (sell; its price is on its die)", countries),
        ("Pieces (sell)", [("1-3", "pieces sold, at most those on your table")]),
        ("Cards (produce)", [("1-5", "cards laid out")]),
        ("Advanced: the mark (after the pieces)", marks),
        ("Advanced: exchange (after the mark)",
         [("0", "turn the country's cards over")] +
         [("1-4", "exchange the card lying with these signs:")] + signs +
         [("then", "the card laid: its country 1-5, its signs 1-4")]),
    ], COUNTRY_RGB


GESTURES = [
    ("ROLL", "back one value (nothing keyed: your money, the deck)"),
    ("ROLL held 0.3 s, then your buzzer", "undo your last action (before the next player keys)"),
    ("another player's buzzer", "their money for 3 s"),
]


def draw(cards, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sections, rgb = rows(cards)
    fig = plt.figure(figsize=(8.27, 5.83))            # A5 landscape, inches
    fig.text(0.5, 0.965, "Cheesonomics on the box: the keys", ha="center", va="top",
             fontsize=13, weight="bold")
    cols = [sections[:4], sections[4:]]
    for c, col in enumerate(cols):
        x = 0.04 + c * 0.49
        y = 0.91
        for title, items in col:
            fig.text(x, y, title, fontsize=8.5, weight="bold", va="top")
            y -= 0.032
            for key, meaning in items:
                colour = "black"
                if title.startswith("Country") and key.isdigit():
                    r, g, b = rgb[int(key) - 1]
                    colour = (r / 255.0, g / 255.0, b / 255.0)
                fig.text(x + 0.01, y, key, fontsize=8, va="top", family="monospace", weight="bold")
                fig.text(x + 0.07, y, meaning, fontsize=8, va="top", color=colour)
                y -= 0.027
            y -= 0.012
    y = 0.16
    fig.text(0.04, y, "Gestures", fontsize=8.5, weight="bold", va="top")
    for g, what in GESTURES:
        y -= 0.03
        fig.text(0.05, y, g, fontsize=8, va="top", weight="bold")
        fig.text(0.33, y, what, fontsize=8, va="top")
    fig.text(0.96, 0.02, "from firmware/cheesonomics (python -m host_tools.labs.refcard)", fontsize=5.5,
             ha="right", color="grey")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    # fixed metadata: the same tables give the same files
    fig.savefig(out + ".png", dpi=150)
    fig.savefig(out + ".pdf", metadata={"CreationDate": None, "ModDate": None, "Producer": None,
                                        "Creator": "host_tools/labs/refcard.py"})
    plt.close(fig)
    return [out + ".png", out + ".pdf"]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.labs.refcard")
    ap.add_argument("--cards", help="card list (default firmware/cheesonomics/cards.json)")
    ap.add_argument("--out", default=os.path.join(REPO, "docs", "refcard"))
    a = ap.parse_args(argv)
    from cheesonomics.cardfile import load
    for p in draw(load(a.cards), a.out):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
