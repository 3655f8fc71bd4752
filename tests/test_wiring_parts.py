"""The wiring pictures agree with the parts lists, and their labels fit.

Every drawing of a part in boards/NAME.svg sits in a <g data-part="KEY" data-qty="N">
group (host_tools/builder/wiring.py); the parts list comes from the same circuit
description (host_tools/builder/circuit.py). Here the committed SVG is read back:
each part of the list is drawn as often as the list counts it, with the list's
value beside it, and nothing is drawn that the list lacks. Labels are measured
with a conservative width (wiring.label_width) against the boxes and the other
labels around them.
"""
import os
import re
import xml.etree.ElementTree as ET

import pytest

from host_tools.builder import wiring
from host_tools.builder.circuit import NOT_COUNTED, describe

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = os.path.join(REPO, "boards")
NAMES = sorted(f[:-5] for f in os.listdir(BOARDS) if f.endswith(".json"))
NS = "{http://www.w3.org/2000/svg}"


def committed(name):
    board, _ = wiring.load(os.path.join(BOARDS, name + ".json"))
    with open(os.path.join(BOARDS, name + ".svg"), encoding="utf-8") as f:
        return board, f.read()


def texts_in(el):
    return [t.text or "" for t in el.iter(NS + "text")]


def drawn_parts(svg):
    """{key: [(qty, element)]} of every data-part group in the picture."""
    out = {}
    for el in ET.fromstring(svg.encode("utf-8")).iter():
        key = el.get("data-part")
        if key is not None:
            q = el.get("data-qty")
            out.setdefault(key, []).append((q if q == NOT_COUNTED else int(q), el))
    return out


def part_mismatches(board, svg):
    """What the picture and the parts list disagree on (empty: they agree)."""
    listed = {p.key: p for p in describe(board).parts}
    drawn = drawn_parts(svg)
    out = ["%s (%s) is in the parts list but not in the picture" % (k, p.name)
           for k, p in listed.items() if k not in drawn]
    out += ["the picture draws %s, which the parts list lacks" % k for k in drawn if k not in listed]
    for key in set(listed) & set(drawn):
        part, groups = listed[key], drawn[key]
        qty = NOT_COUNTED if part.qty == NOT_COUNTED else sum(q for q, _ in groups if q != NOT_COUNTED)
        if qty != part.qty:
            out.append("%s: the parts list counts %s, the picture draws %s" % (part.name, part.qty, qty))
        for _, el in groups:
            if part.value and not any(part.value in t for t in texts_in(el)):
                out.append("%s drawn without its value %r (%s)" % (key, part.value, " / ".join(texts_in(el))))
    return out


def loose_symbols(svg):
    """Symbols (resistor, capacitor, ...) drawn outside any data-part group."""
    out = []

    def walk(el, in_part):
        in_part = in_part or el.get("data-part") is not None
        if el.get("data-symbol") and not in_part:
            out.append(el.get("data-symbol"))
        for child in el:
            walk(child, in_part)
    walk(ET.fromstring(svg.encode("utf-8")), False)
    return out


# -- the boxes of labels and rectangles ---------------------------------------------------------
def text_box(t):
    """(x1, y1, x2, y2) a <text> may cover, by wiring.label_width."""
    x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
    w = wiring.label_width(t.text or "", size, t.get("font-weight") == "bold")
    anchor = t.get("text-anchor", "start")
    x1 = x if anchor == "start" else x - w if anchor == "end" else x - w / 2
    if "rotate(-90" in (t.get("transform") or ""):      # reads upwards: a point (x + u, y + v) goes to (x + v, y - u)
        return (x - 0.8 * size, y - (x1 - x + w), x + 0.2 * size, y - (x1 - x))
    return (x1, y - 0.8 * size, x1 + w, y + 0.2 * size)


def rect_box(r):
    x, y = float(r.get("x")), float(r.get("y"))
    return (x, y, x + float(r.get("width")), y + float(r.get("height")))


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(a, b):
    return b[0] <= a[0] and a[2] <= b[2] and b[1] <= a[1] and a[3] <= b[3]


def overflows(svg):
    """Labels that cross the edge of a box: they start in it and run out, or run into it."""
    root = ET.fromstring(svg.encode("utf-8"))
    texts = [(t.text, text_box(t)) for t in root.iter(NS + "text") if t.text]
    rects = [rect_box(r) for r in root.iter(NS + "rect")]
    return ["%r %s crosses the box %s" % (s, tuple(round(v) for v in tb), tuple(round(v) for v in rb))
            for s, tb in texts for rb in rects if overlap(tb, rb) and not inside(tb, rb)]


def collisions(svg):
    """Pairs of labels that may cover each other."""
    root = ET.fromstring(svg.encode("utf-8"))
    texts = [(t.text, text_box(t)) for t in root.iter(NS + "text") if t.text]
    out = []
    for i, (s, a) in enumerate(texts):
        for r, b in texts[i + 1:]:
            if overlap(a, b):
                out.append("%r and %r overlap" % (s, r))
    return out


# -- the tests ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_the_picture_draws_every_part_of_the_parts_list_and_no_other(name):
    board, svg = committed(name)
    assert part_mismatches(board, svg) == []
    assert loose_symbols(svg) == [], "symbols drawn that no parts-list row stands for"


@pytest.mark.parametrize("name", NAMES)
def test_the_parts_list_in_the_notes_is_the_one_the_picture_was_checked_against(name):
    board, _ = committed(name)
    with open(os.path.join(BOARDS, name + ".md"), encoding="utf-8") as f:
        md = f.read()
    for q, part, _ in wiring.part_rows(board):
        assert "| %s | %s |" % (q, part) in md, part


def test_a_missing_or_extra_part_is_caught():
    board, svg = committed("pico-8p")
    for key in ("npn", "c10n", "tvs", "lvc2g17", "c100n", "r4k7"):
        root = ET.fromstring(svg.encode("utf-8"))
        parent, group = next((p, g) for p in root.iter() for g in p if g.get("data-part") == key)
        parent.remove(group)
        assert part_mismatches(board, ET.tostring(root, encoding="unicode")), key
    extra = svg.replace("</svg>", '<g data-part="flyback" data-qty="1"><text x="1" y="9" font-size="9">'
                        '1N4148</text></g>\n</svg>')
    assert any("flyback" in m for m in part_mismatches(board, extra))
    loose = svg.replace("</svg>", '<g data-symbol="resistor"><rect x="1" y="1" width="9" height="9"/></g></svg>')
    assert loose_symbols(loose) == ["resistor"]


@pytest.mark.parametrize("name", NAMES)
def test_no_label_overflows_its_box(name):
    _, svg = committed(name)
    assert overflows(svg) == []


@pytest.mark.parametrize("name", NAMES)
def test_no_two_labels_overlap(name):
    _, svg = committed(name)
    assert collisions(svg) == []


def test_an_overflowing_label_is_caught():
    """The pico-4p capacitor label once ran into the supply box."""
    _, svg = committed("pico-4p")
    old = svg.replace("</svg>", '<text x="1266" y="224" font-size="11" text-anchor="start" fill="#333333" '
                      'font-weight="bold">10 µF (USB: no more)</text>\n</svg>')
    assert any("10 µF" in o for o in overflows(old))


def test_label_width_is_conservative():
    """label_width is never narrower than DejaVu Sans (the picture's first font) draws a label."""
    ImageFont = pytest.importorskip("PIL.ImageFont")
    fonts = {}
    for bold, file in ((False, "DejaVuSans.ttf"), (True, "DejaVuSans-Bold.ttf")):
        path = os.path.join("/usr/share/fonts/truetype/dejavu", file)
        if not os.path.exists(path):
            pytest.skip("no DejaVu Sans here")
        fonts[bold] = ImageFont.truetype(path, 100)
    for name in NAMES:
        for t in ET.fromstring(committed(name)[1].encode("utf-8")).iter(NS + "text"):
            if t.text:
                bold = t.get("font-weight") == "bold"
                assert fonts[bold].getlength(t.text) / 100 <= wiring.label_width(t.text, 1, bold), t.text


@pytest.mark.parametrize("name", NAMES)
def test_the_pictures_piezo_agrees_with_the_parts_list(name):
    """It once said "piezo: PWM, 100 ohm, driven directly (no transistor)"."""
    board, svg = committed(name)
    c = describe(board)
    said = [t for t in texts_in(ET.fromstring(svg.encode("utf-8"))) if "piezo" in t.lower()]
    assert said
    for t in said:
        assert "directly" not in t and "no transistor" not in t, t
        for value in re.findall(r"\d+(?:\.\d+)? k?Ω", t):
            assert value in (c.value("r1k"),), "%r: %s is not a piezo part of the parts list" % (t, value)
    legend = [t for t in said if t.startswith("piezo:")]
    assert len(legend) == 1 and c.value("r1k") in legend[0] and c.value("npn") in legend[0]
    assert c["npn"].name.startswith("NPN") and c["r1k"].qty == 2
    row = [r for r in wiring.pin_rows(board) if r[2] == "Piezo (PWM)"]
    assert row and c.value("npn") in row[0][3] and c.value("r1k") in row[0][3]
