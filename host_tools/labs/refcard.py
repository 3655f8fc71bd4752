"""The Cheesonomics reference card to lay beside the box: which key means what
at each step, drawn from the firmware's own tables (cheesonomics/entry.py:
actions, steps, market-card signs; cards.json: animals, places, countries,
marks, or another card list), so the card cannot drift from the box.

  python -m host_tools.labs.refcard [--cards FILE] [--out docs/refcard]

writes OUT.png and OUT.pdf (A5 landscape: the answer keys' card),
OUT-dials.png and OUT-dials.pdf (the same for dials: a sale's pieces come
with the action, 4-6 sell 1-3), and what goes where the hand
is, printed at 1:1 (print at 100 %, no "fit to page"):
  OUT-strips.pdf  a label strip for each station's row of answer keys
                  (pico-8p: keys 0-7, --key-pitch mm apart; the strip sits
                  above them, one column a key);
  OUT-rings.pdf   a ring for each dial face (pico2-8p: positions 0-7,
                  --dial-step degrees apart, 0 at the left), cut out and
                  laid round the knob.
Both say, for each key or position, what it stands for in each step:
the action, the animal, the place, the country, the mark, the signs.
"""
import argparse
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# the countries' colours as the dice show them (cheesonomics/game.py: COUNTRY_RGB)


def rows(cards, dials=False):
    """The card's sections: (title, [(key, meaning), ...]). On dials a
    sale's pieces come with the action (4, 5, 6: sell 1, 2, 3), so the
    card has no pieces step."""
    from cheesonomics import entry as E
    from cheesonomics.game import COUNTRY_RGB
    acts = [(str(k), E.ACTION_NAMES[k] + (" (final turns only)" if k == 0 else "")) for k in (1, 2, 3, 4, 0)]
    if dials:
        acts = acts[:3] + [(str(E.DIAL_SELL + n - 1), "sell %d piece%s (at most those on your table)"
                            % (n, "s" if n > 1 else "")) for n in (1, 2, 3)] + acts[4:]

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
    sections = [
        ("Action (a value a press: turn, then your buzzer)" if dials
         else "Action (then the values, then your buzzer)", acts),
        ("Animal (collect 1, sell)", nums(cards.animals)),
        ("Place: the card's stripe (collect 2)", nums(cards.places)),
        ("Country (sell; its price is on its die)", countries),
        ("Pieces (sell)", [("1-3", "pieces sold, at most those on your table")]),
        ("Cards (produce)", [("1-5", "cards laid out")]),
        ("Advanced: the mark (after the %s)" % ("country" if dials else "pieces"), marks),
        ("Advanced: exchange (after the mark)",
         [("0", "turn the country's cards over")] +
         [("1-4", "exchange the card lying with these signs:")] + signs +
         [("then", "the card laid: its country 1-5, its signs 1-4")]),
    ]
    if dials:
        sections = [x for x in sections if not x[0].startswith("Pieces")]
    return sections, COUNTRY_RGB


GESTURES = [
    ("ROLL", "back one value (nothing keyed: your money, the deck)"),
    ("ROLL held 0.3 s, then your buzzer", "undo your last action (before the next player keys)"),
    ("another player's buzzer", "their money for 3 s"),
]


KEY_PITCH_MM = 12.7         # the keys' spacing the strips assume (0.5 inch: perfboard)
DIAL_STEP_DEG = 30.0        # a 1P12T rotary switch with its stop at 8 positions
MM = 1 / 25.4               # inches


def key_rows(cards, dials=False):
    """What each key 0-7 (or dial position) stands for, step by step:
    [(step, [8 labels])]. A dial's sale takes its pieces with the action:
    4, 5, 6 sell 1, 2, 3 (cheesonomics/entry.py)."""
    from cheesonomics import entry as E

    def five(names, zero=""):
        return [zero] + list(names) + ["", ""]
    signs = ["turn over"] + ["%d|%d" % E.KIND_CODES[i] for i in range(4)] + ["", "", ""]
    return [
        ("action", ["pass", "collect\nanimal", "collect\nplace", "produce"]
         + (["sell 1", "sell 2", "sell 3", ""] if dials else ["sell", "", "", ""])),
        ("animal", five(cards.animals)),
        ("place", five(cards.places)),
        ("country", five(cards.countries)),
        ("mark", five(cards.marks, "none,\nreserve,\ntrade")),
        ("signs", signs),
    ]


_META = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": "host_tools/labs/refcard.py"}
_PER_PAGE = 4               # strips or rings on an A4 page


def _save_pages(figs, out):
    """The pages into one PDF (fixed metadata: the same tables give the same
    file); another extension: the first page only (a preview)."""
    import matplotlib.pyplot as plt
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    if out.endswith(".pdf"):
        from matplotlib.backends.backend_pdf import PdfPages
        with PdfPages(out, metadata=_META) as pdf:
            for fig in figs:
                pdf.savefig(fig)
    else:
        figs[0].savefig(out)
    for fig in figs:
        plt.close(fig)
    return out


def _sheet(w_mm, h_mm, title):
    """A page w_mm x h_mm at 1:1, drawn in mm from the top left."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(w_mm * MM, h_mm * MM))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w_mm)
    ax.set_ylim(h_mm, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.text(5, 5, title, fontsize=5, va="center")
    return fig, ax


def draw_strips(cards, out, pitch_mm=KEY_PITCH_MM, stations=8):
    """A strip a station, at 1:1: a column a key, a row a step; cut along
    the lines and stick it above the keys, key 0 under column 0."""
    import matplotlib.pyplot as plt
    rows = key_rows(cards)
    label_mm = 14.0
    row_mm = [4.0, 6.0, 4.0, 4.0, 4.0, 7.5, 4.0]
    strip_w = label_mm + 8 * pitch_mm
    strip_h = sum(row_mm)
    gap = 4.0
    figs = []
    for st in range(stations):
        if st % _PER_PAGE == 0:
            fig, ax = _sheet(strip_w + 10, _PER_PAGE * (strip_h + gap) + 12,
                             "Cheesonomics answer keys: a strip a station (print at 100 %%; keys %.1f mm "
                             "apart)" % pitch_mm)
            figs.append(fig)
        top = 10 + st % _PER_PAGE * (strip_h + gap)
        ax.add_patch(plt.Rectangle((5, top), strip_w, strip_h, fill=False, lw=0.3))
        y = top
        names = [("P%d" % (st + 1), ["%d" % k for k in range(8)])] + rows
        for (title, labels), h in zip(names, row_mm):
            ax.text(6, y + h / 2, title, fontsize=4.5, va="center", weight="bold")
            for k in range(8):
                x = 5 + label_mm + (k + 0.5) * pitch_mm
                ax.text(x, y + h / 2, labels[k], fontsize=4.5 if title[0] != "P" else 6, ha="center",
                        va="center", linespacing=0.9, weight="bold" if title[0] == "P" else "normal")
            y += h
            ax.plot((5, 5 + strip_w), (y, y), lw=0.15, color="grey")
        for k in range(9):
            x = 5 + label_mm + k * pitch_mm
            ax.plot((x, x), (top, top + strip_h), lw=0.15, color="grey")
    return _save_pages(figs, out)


def _upright(deg):
    """A rotation that leaves text readable (never upside down)."""
    deg = (deg + 180) % 360 - 180
    return deg + 180 if deg < -90 else deg - 180 if deg > 90 else deg


def _ring(ax, rows, cx, cy, station, step_deg, r0, band):
    import math
    import matplotlib.pyplot as plt
    r_out = r0 + band * (len(rows) + 1)
    for r in [r0 + band * i for i in range(len(rows) + 2)]:
        ax.add_patch(plt.Circle((cx, cy), r, fill=False, lw=0.3 if r in (r0, r_out) else 0.12))
    ax.text(cx, cy, "P%d" % station, fontsize=6, ha="center", va="center", weight="bold")
    start = 180.0 - (180.0 - 7 * step_deg) / 2     # position 0, in degrees (0 = right, counter-clockwise)
    for k in range(8):
        a = math.radians(start - k * step_deg)
        names = [("%d" % k, 6)] + [(labels[k], 3.6) for _, labels in rows]
        for i, (text, size) in enumerate(names):
            r = r0 + band * (i + 0.5)
            ax.text(cx + r * math.cos(a), cy - r * math.sin(a), text, fontsize=size, ha="center",
                    va="center", rotation=_upright(math.degrees(a) - 90), rotation_mode="anchor",
                    linespacing=0.85, weight="bold" if i == 0 else "normal")
    a = math.radians(start - 7 * step_deg - (360 - 7 * step_deg) / 2)   # the middle of the gap
    for i, (title, _) in enumerate(rows):
        r = r0 + band * (i + 1.5)
        ax.text(cx + r * math.cos(a), cy - r * math.sin(a), title, fontsize=3.6, ha="center",
                va="center", style="italic", rotation=_upright(math.degrees(a) - 90), rotation_mode="anchor")


def draw_rings(cards, out, step_deg=DIAL_STEP_DEG, stations=8):
    """A ring a dial face, at 1:1: the positions 0-7 round the knob (0 at
    the left, turning clockwise), each with what it stands for in each step,
    one band a step from the number outwards; the steps' names in the gap."""
    rows = key_rows(cards, dials=True)
    r0, band = 11.0, 4.5                        # the knob's hole, one step's band
    cell = 2 * (r0 + band * (len(rows) + 1)) + 6
    figs = []
    for st in range(stations):
        if st % _PER_PAGE == 0:
            fig, ax = _sheet(2 * cell + 10, 2 * cell + 14,
                             "Cheesonomics dials: a ring a dial face (print at 100 %%; positions %g degrees "
                             "apart)" % step_deg)
            figs.append(fig)
        i = st % _PER_PAGE
        _ring(ax, rows, 5 + (i % 2 + 0.5) * cell, 12 + (i // 2 + 0.5) * cell, st + 1, step_deg, r0, band)
    return _save_pages(figs, out)


DIAL_GESTURES = [
    ("ROLL", "back one step (nothing dialled: your money, the deck)"),
    ("ROLL held 0.3 s, then your buzzer", "undo your last action (before the next player dials)"),
    ("another player's buzzer", "their money for 3 s"),
]


def draw(cards, out, dials=False):
    """The card for answer keys, or for dials (dials=True: the sale's
    pieces with the action, a value a press)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sections, rgb = rows(cards, dials)
    fig = plt.figure(figsize=(8.27, 5.83))            # A5 landscape, inches
    fig.text(0.5, 0.965, "Cheesonomics on the box: the %s" % ("dials" if dials else "keys"), ha="center",
             va="top", fontsize=13, weight="bold")
    split = 3 if dials else 4          # the dials' two more actions: the countries go right
    cols = [sections[:split], sections[split:]]
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
    for g, what in DIAL_GESTURES if dials else GESTURES:
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
    ap.add_argument("--key-pitch", type=float, default=KEY_PITCH_MM,
                    help="mm between two answer keys' centres (the strips; default %(default)s)")
    ap.add_argument("--dial-step", type=float, default=DIAL_STEP_DEG,
                    help="degrees between two dial positions (the rings; default %(default)s)")
    a = ap.parse_args(argv)
    from cheesonomics.cardfile import load
    cards = load(a.cards)
    made = draw(cards, a.out) + draw(cards, a.out + "-dials", dials=True)
    made += [draw_strips(cards, a.out + "-strips.pdf", a.key_pitch),
             draw_rings(cards, a.out + "-rings.pdf", a.dial_step)]
    for p in made:
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
