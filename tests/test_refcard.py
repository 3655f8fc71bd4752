"""The Cheesonomics reference card (host_tools/labs/refcard.py): drawn from the
firmware's tables, so another card list or another key table gives another
card; PNG and PDF written; the copies in docs/ are the current ones."""
import json
import os

from cheesonomics.cardfile import load, parse
from cheesonomics import entry as E
from host_tools.labs import refcard

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _text(sections):
    return "\n".join("%s %s %s" % (t, k, m) for t, items in sections for k, m in items)


def test_the_card_says_what_the_box_takes():
    sections, _ = refcard.rows(load())
    text = _text(sections)
    for k in range(5):
        assert "%d %s" % (k, E.ACTION_NAMES[k]) in text.replace("Action (then the values, then your buzzer) ", "")
    for name in ("cow", "camel", "red", "purple", "France (die 1)", "Greece (die 5)", "trowel", "rake"):
        assert name in text
    # reserve and trade: done with the cards, 0 keyed at the mark
    assert "0 none forbidden; 0 too for a reserve or a" in text and "with the cards" in text
    for i, (u, b) in enumerate(E.KIND_CODES):
        assert "%d %d up | %d on the back" % (i + 1, u, b) in text


def test_the_dials_card_takes_the_pieces_with_the_action():
    """On a dial a sale is the action with its pieces (4, 5, 6: sell 1, 2,
    3), then the animal and the country: the dials' card has no pieces
    step, and the keys' card keeps "4 sell" and its pieces 1-3."""
    keys = _text(refcard.rows(load())[0])
    dials = _text(refcard.rows(load(), dials=True)[0])
    assert "4 sell\n" in keys + "\n" and "Pieces (sell)" in keys
    assert "Pieces" not in dials
    for k, n in ((4, 1), (5, 2), (6, 3)):
        assert "%d sell %d piece" % (k, n) in dials
    for name in ("0 pass", "1 collect by animal", "cow", "France (die 1)", "trowel"):
        assert name in dials


def test_another_card_list_gives_another_card(tmp_path):
    with open(os.path.join(REPO, "firmware", "cheesonomics", "cards.json")) as f:
        obj = json.load(f)
    obj["animals"] = ["yak", "goat", "sheep", "buffalo", "camel"]
    obj["marked"]["yak"] = obj["marked"].pop("cow")
    text = _text(refcard.rows(parse(obj))[0])
    assert "1 yak" in text and "cow" not in text
    out = refcard.draw(parse(obj), str(tmp_path / "card"))
    for p in out:
        assert os.path.getsize(p) > 10000
    with open(out[0], "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    with open(out[1], "rb") as f:
        assert f.read(5) == b"%PDF-"


def test_the_docs_copies_are_current(tmp_path):
    out = refcard.draw(load(), str(tmp_path / "refcard"))
    with open(out[1], "rb") as f, open(os.path.join(REPO, "docs", "refcard.pdf"), "rb") as g:
        assert f.read() == g.read(), "run python -m host_tools.labs.refcard"
    out = refcard.draw(load(), str(tmp_path / "refcard-dials"), dials=True)
    with open(out[1], "rb") as f, open(os.path.join(REPO, "docs", "refcard-dials.pdf"), "rb") as g:
        assert f.read() == g.read(), "run python -m host_tools.labs.refcard"


def _page_mm(path):
    """The PDF's page size in mm (its MediaBox)."""
    import re
    with open(path, "rb") as f:
        box = re.search(rb"/MediaBox \[ *([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) *\]", f.read())
    x0, y0, x1, y1 = (float(v) for v in box.groups())
    return (x1 - x0) * 25.4 / 72, (y1 - y0) * 25.4 / 72


def test_label_strips_and_dial_rings_say_what_each_key_means_at_each_step(tmp_path):
    rows = dict(refcard.key_rows(load()))
    assert rows["animal"][1:6] == ["cow", "goat", "sheep", "buffalo", "camel"]
    assert rows["country"][3] == "Switzerland" and rows["place"][5] == "purple"
    assert rows["mark"][1] == "trowel" and "reserve" in rows["mark"][0] and "trade" in rows["mark"][0]
    assert rows["action"][4] == "sell" and rows["signs"][2] == "1|2"
    assert all(len(labels) == 8 for labels in rows.values())       # keys 0-7
    dial = dict(refcard.key_rows(load(), dials=True))             # a dial's sale: the pieces with it
    assert dial["action"][4:7] == ["sell 1", "sell 2", "sell 3"] and dial["animal"] == rows["animal"]
    # printed at 1:1: a key column is the keys' pitch, so the strip is 8 of them wide
    wide = refcard.draw_strips(load(), str(tmp_path / "wide.pdf"), pitch_mm=15)
    narrow = refcard.draw_strips(load(), str(tmp_path / "narrow.pdf"), pitch_mm=12.7)
    assert abs((_page_mm(wide)[0] - _page_mm(narrow)[0]) - 8 * (15 - 12.7)) < 0.1
    rings = refcard.draw_rings(load(), str(tmp_path / "rings.pdf"))
    w, h = _page_mm(rings)
    assert w < 210 and h < 297             # four 85 mm rings a page: A4


def test_the_docs_strips_and_rings_are_current(tmp_path):
    for name, draw in (("refcard-strips.pdf", refcard.draw_strips), ("refcard-rings.pdf", refcard.draw_rings)):
        out = draw(load(), str(tmp_path / name))
        with open(out, "rb") as f, open(os.path.join(REPO, "docs", name), "rb") as g:
            assert f.read() == g.read(), "run python -m host_tools.labs.refcard"
