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
