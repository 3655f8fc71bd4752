"""host_tools/labs/dicelab.py: the odds a table sees are the odds the box plays.

Every number is checked against a plain walk over every roll, counted by the
firmware's rules.cheese_left on face names (the lab groups rolls and counts
face numbers: the two must agree roll for roll). A dice file that makes one
answer too likely is flagged; bad files and plot paths exit 2 with a message.
"""
import importlib.util
import itertools
import json
import os
import subprocess
import sys

import pytest

from cheesemaster import faces as F
from cheesemaster.campaign import campaign_dice
from cheesemaster.dice import default_dice, dice_for_choice
from cheesemaster.rules import cheese_left

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(REPO, "host_tools", "labs", "dicelab.py")
_spec = importlib.util.spec_from_file_location("cheesebox_dicelab", TOOL)
DL = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(DL)

NAMES, FACES = default_dice()


def _brute(dice):
    """Answer counts 0..7+ and per face kind 'changes the answer' counts, roll by roll."""
    answers = [0] * 8
    matters = dict((k, 0) for k, _ in DL.KINDS)
    total = 0
    for roll in itertools.product(*[[F.NAMES[f] for f in FACES[d]] for d in dice]):
        left = cheese_left(roll)
        answers[min(left, 7)] += 1
        total += left
        for kind, ids in DL.KINDS:
            rest = [f for f in roll if F.face_id(f) not in ids]
            if len(rest) != len(roll) and cheese_left(rest) != left:
                matters[kind] += 1
    return answers, matters, total


@pytest.fixture(scope="module")
def rows():
    return dict((r["selection"], r) for r in DL.lab(NAMES, FACES))


@pytest.mark.parametrize("choice", range(4))
def test_menu_choice_odds_match_every_roll(rows, choice):
    dice = dice_for_choice(choice)
    row = [r for r in rows.values() if r["dice"] == [[NAMES[d] for d in dice]]][0]
    answers, matters, total = _brute(dice)
    n = 6 ** len(dice)
    assert row["rolls"] == n
    assert [round(p * n) for p in row["p"]] == answers
    assert abs(sum(row["p"]) - 1) < 1e-12
    assert row["p0"] == answers[0] / n and row["p7plus"] == answers[7] / n
    assert row["mean"] == pytest.approx(total / n)       # mean cheese left (7+ counted as is)
    for kind, _ in DL.KINDS:
        assert round(row["kind_matters"][kind] * n) == matters[kind], kind


def test_six_dice_known_figures(rows):
    """All six default dice: 46,656 rolls; a few figures to see at a glance."""
    r = rows["yellow+3 (+king)"]
    assert r["rolls"] == 46656
    assert "menu 4 (yellow+3)" in r["used_by"] and "campaign game 6 on" in r["used_by"]
    assert 0 < r["kind_matters"]["innkeeper"] <= r["kind_present"]["innkeeper"] == pytest.approx(1 / 6)
    assert r["kind_present"]["king"] == pytest.approx(1 / 3)
    assert not r["flag"]


def test_campaign_first_games_mix_the_random_yellows(rows):
    one = rows["campaign game 1 (1 random yellow)"]
    want = [0.0] * 8
    for y in range(3):
        a, _, _ = _brute(campaign_dice(1, y, (y + 1) % 3))
        for i in range(8):
            want[i] += a[i] / 6 / 3
    assert one["p"] == pytest.approx(want)
    assert one["flag"] and one["top_answer"] == 0      # 0 comes up 7 times in 18
    two = rows["campaign game 2 (2 random yellow)"]
    assert len(two["dice"]) == 3 and two["weights"] == pytest.approx([1 / 3] * 3)
    # games 3-6 roll what a menu choice rolls: shown on that row, not twice
    assert "campaign game 3" in rows["yellow"]["used_by"]
    assert "campaign game 5" in rows["yellow+2 (+innkeeper)"]["used_by"]


def _run(args, **kw):
    return subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True,
                          timeout=120, **kw)


def test_cli_table_and_plot(tmp_path):
    png = tmp_path / "odds.png"
    q = _run(["--plot", str(png)])
    assert q.returncode == 0, q.stderr
    assert "yellow+3 (+king)" in q.stdout and "46656" in q.stdout and "7+" in q.stdout
    assert "FLAG campaign game 1" in q.stdout
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10000


def _dice_file(tmp_path, faces_for):
    spec = {"dice": [{"name": n, "faces": faces_for(i)} for i, n in enumerate(NAMES)]}
    p = tmp_path / "dice.json"
    p.write_text(json.dumps(spec))
    return p


def test_dull_dice_file_is_flagged(tmp_path):
    """Dice with only single cheeses: the answer is always the number of dice."""
    p = _dice_file(tmp_path, lambda i: ["cheese1"] * 6)
    q = _run(["--dice", str(p), "--json"])
    assert q.returncode == 0, q.stderr
    rows = json.loads(q.stdout)["selections"]
    assert all(r["flag"] for r in rows)
    by = dict((r["selection"], r) for r in rows)
    assert by["yellow"]["p"][3] == 1.0 and by["yellow+3 (+king)"]["p"][6] == 1.0
    q = _run(["--dice", str(p)])
    assert "FLAG yellow: answer 3 comes up 100.0%" in q.stdout


def test_dice_file_names_label_the_rows(tmp_path):
    p = _dice_file(tmp_path, lambda i: list(F.NAMES[:6]))
    spec = json.loads(p.read_text())
    spec["dice"][3]["name"] = "orange wolf"
    p.write_text(json.dumps(spec))
    q = _run(["--dice", str(p)])
    assert q.returncode == 0 and "+wolf" in q.stdout


@pytest.mark.parametrize("content, says", [
    (None, "cannot be read"),
    (b"\xff\xfe\x00binary", "not a text file"),
    (b"{not json", "not valid JSON"),
    (b'{"dice": []}', "exactly 6 dice"),
    (json.dumps({"dice": [{"name": "x", "faces": ["cheese9"] * 6}] * 6}).encode(), "unknown face"),
])
def test_bad_dice_file(tmp_path, content, says):
    p = tmp_path / "dice.json"
    if content is not None:
        p.write_bytes(content)
    q = _run(["--dice", str(p)])
    assert q.returncode == 2
    assert q.stderr.startswith("error: ") and says in q.stderr and "Traceback" not in q.stderr


def test_plot_into_missing_folder(tmp_path):
    q = _run(["--plot", str(tmp_path / "nope" / "x.png")])
    assert q.returncode == 2 and "does not exist" in q.stderr and "Traceback" not in q.stderr


def test_help():
    q = _run(["--help"])
    assert q.returncode == 0 and "--dice" in q.stdout and "--plot" in q.stdout


def test_one_die_of_six_cheese1_is_flagged(tmp_path):
    """The dog die made of six cheese1 hides in selections whose odds look
    spread (+dog only shifts the count by one): the lab names the die itself."""
    p = _dice_file(tmp_path, lambda i: ["cheese1"] * 6 if i == 3 else [F.NAMES[f] for f in FACES[i]])
    q = _run(["--dice", str(p)])
    assert q.returncode == 0, q.stderr
    assert "FLAG die 4 (%s): cheese1 on all six faces" % NAMES[3] in q.stdout
    assert "FLAG die 1" not in q.stdout
    q = _run(["--dice", str(p), "--json"])
    assert json.loads(q.stdout)["dull_dice"] == [{"die": 4, "name": NAMES[3], "face": "cheese1"}]
    q = _run(["--json"])                               # the default dice: none is dull
    assert json.loads(q.stdout)["dull_dice"] == []
