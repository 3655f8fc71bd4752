"""Pictures for docs/rules.md, made from the firmware's own icons.

    python -m sim.docpics          rewrite docs/img/NAME.svg

Each picture is an 8x8 matrix as the box shows it: one round LED a pixel,
in the icon's colours at full scale, unlit LEDs dark grey. The icons come
from the firmware's own art (the shell's set and Cheese Master's: sim/iconart.py),
so the pictures cannot drift from the box (tests/test_docs.py fails when a
committed SVG differs from what this makes).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from sim.iconart import icons, palette  # noqa: E402

OUT = os.path.join(ROOT, "docs", "img")
# what the players see: the nine faces, then the box's signs
PICTURES = ("cheese1", "cheese2", "cheese3", "mouse1", "mouse2", "cat", "dog", "innkeeper", "king",
            "question", "wheel", "crown", "check", "plus", "cross", "7")
PITCH = 10          # px per LED
BG = "#141418"
UNLIT = "#26262c"


def svg(name):
    """The SVG text of icon `name`."""
    rows = icons()[name]
    colours = palette()
    size = 8 * PITCH + PITCH
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (size, size, size, size),
           '<title>%s</title>' % name,
           '<rect width="%d" height="%d" rx="6" fill="%s"/>' % (size, size, BG)]
    for y in range(8):
        for x in range(8):
            ch = chr(rows[y][x])
            r, g, b = colours[ch]
            fill = UNLIT if ch == "." else "#%02x%02x%02x" % (r, g, b)
            out.append('<circle cx="%d" cy="%d" r="4" fill="%s"/>'
                       % (PITCH + x * PITCH, PITCH + y * PITCH, fill))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in PICTURES:
        with open(os.path.join(OUT, "%s.svg" % name), "w") as f:
            f.write(svg(name))
    print("wrote %d pictures to %s" % (len(PICTURES), os.path.relpath(OUT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
