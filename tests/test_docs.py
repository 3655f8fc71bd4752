"""The documents cannot drift: face pictures, the default dice file, the
README's JSON example, its docs table and `make help`; and they carry their
own rules (no document sends the reader to rules outside the repository)."""
import json
import os
import re
import subprocess
import sys

from cheesemaster import faces as F
from cheesemaster.dice import default_dice, load_dice
from sim import docpics

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(*path):
    with open(os.path.join(REPO, *path), encoding="utf-8") as f:
        return f.read()


def test_face_pictures_are_made_from_the_firmware_icons():
    for name in docpics.PICTURES:
        assert read("docs", "img", name + ".svg") == docpics.svg(name), \
            "docs/img/%s.svg is stale: run python -m sim.docpics" % name


def test_rules_show_every_face():
    rules = read("docs", "rules.md")
    for name in F.NAMES:
        assert "](img/%s.svg)" % name in rules, name
    for target in re.findall(r"\]\((img/[^)]+)\)", rules):
        assert os.path.exists(os.path.join(REPO, "docs", target)), target


def test_shipped_default_dice_file_is_the_default_dice():
    spec = json.loads(read("docs", "default.json"))
    assert load_dice(spec, "docs/default.json") == default_dice()
    # the complete example in the format's doc is that file
    doc = read("docs", "dice-file.md")
    example = re.search(r"```json\n(.*?)```", doc, re.S).group(1)
    assert example == read("docs", "default.json")


def test_readme_json_example_is_real_output():
    readme = read("README.md")
    cmd = re.search(r"\.venv/bin/python -m sim (--board \S+ --script \S+ --json)", readme).group(1)
    example = json.loads(re.search(r"```json\n(.*?)\n```", readme, re.S).group(1))
    env = dict(os.environ, BLINKA_OS_AGNOSTIC="1")
    p = subprocess.run([sys.executable, "-m", "sim"] + cmd.split(), cwd=REPO, env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == example
    for field in example:
        assert "`%s`" % field in readme, "README does not explain %s" % field


def test_readme_docs_table_lists_every_document():
    readme = read("README.md")
    for fn in sorted(os.listdir(os.path.join(REPO, "docs"))):
        if fn.endswith(".md"):
            assert "](docs/%s)" % fn in readme, fn


def test_make_help_names_every_target():
    p = subprocess.run(["make", "--no-print-directory", "help"], cwd=REPO, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    phony = re.search(r"^\.PHONY:(.*)$", read("Makefile"), re.M).group(1).split()
    for target in phony:
        if target != "all":
            assert "make %s" % target in p.stdout, target


# Not the repository's own documents: version control, installed packages and
# tool caches (all in .gitignore), and the emulator, which may name its default
# firmware folder beside the repository.
_NOT_OURS = {".git", "node_modules", ".venv", ".typecheck", ".pytest_cache", ".hypothesis", "build"}
_MAY_NAME_SHARED = {"docs/emulator.md"}


def test_docs_carry_their_own_rules():
    """No document sends the reader outside the repository for the rules or
    rulings (../shared/rules/..., INTERPRETATION.md): the docs state them
    themselves. The emulator's default firmware folder beside the repository
    (../shared/emulator) may still be named, where its files are looked for."""
    found = []
    for top, dirs, files in os.walk(REPO):
        rel_top = os.path.relpath(top, REPO).replace(os.sep, "/")
        if rel_top == "emu" or rel_top.startswith("emu/"):
            dirs[:] = []
            continue
        dirs[:] = [d for d in dirs if d not in _NOT_OURS]
        for fn in files:
            if not fn.lower().endswith(".md"):
                continue
            rel = fn if rel_top == "." else rel_top + "/" + fn
            if rel in _MAY_NAME_SHARED:
                continue
            with open(os.path.join(top, fn), encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if ("shared/rules" in line or "INTERPRETATION.md" in line
                            or "../shared" in line.replace("../shared/emulator", "")):
                        found.append("%s:%d: %s" % (rel, n, line.strip()))
    assert not found, "state the rule in the doc instead:\n" + "\n".join(found)


def _section(doc, title):
    text = read("docs", doc)
    start = text.index("## " + title)
    end = text.find("\n## ", start + 1)
    return " ".join(text[start:end if end > 0 else None].split())


def test_cheesonomics_box_says_what_a_table_needs_before_it_starts_as_the_box_does():
    """docs/cheesonomics-box.md, "Before the table starts": the parts still
    needed, the seating, how to fix a mistake and the resume screen, each
    checked against what the box does."""
    from cheesebox.board import read_board
    from cheesonomics.cardfile import load
    from sim.scenario import Sim, run_script
    doc = _section("cheesonomics-box.md", "Before the table starts")
    board = read_board(os.path.join(REPO, "boards", "pico-8p.json"))
    # the parts: the milk-cheese cards, the market cards in the advanced variant
    for part in ("100 milk-cheese cards", "120 banknotes", "cheese knives", "action selection board",
                 "25 market cards", "reference card"):
        assert part in doc, part
    removed = re.search(r"take out (\d+) / (\d+) / (\d+) / none for 2 / 3 / 4 / 5 players", doc)
    assert removed, "the cards removed per player count"
    removed = [int(x) for x in removed.groups()] + [0]
    for n in (2, 3, 4, 5):
        sim = Sim(board, seed=n)
        run_script(sim, "game cheesonomics\nplayers %d\nvariant basic\n" % n)
        assert sim.box.game.bank.deck == 100 - removed[n - 2] - 5 * n      # 5 dealt to each
    assert len(load().country) == 25                                        # the market cards
    # seated clockwise in station order: stations 2, 4 and 7 play P2, P4, P7, P2, ...
    assert "clockwise" in doc and "stations 2, 4 and 7 play P2, P4, P7, P2" in doc
    lines = []
    sim = Sim(board, seed=1, log=lines.append)
    run_script(sim, "game cheesonomics\n")
    for s in (1, 3, 6):
        sim.press(s)
    sim.press(8)
    run_script(sim, "variant basic\n")
    market = [json.loads(x) for x in lines if '"market"' in x][0]
    assert market["players"] == ["P2", "P4", "P7"]
    order = ["P2", "P4", "P7"]
    first = order.index(market["first"])
    for i in range(4):
        p = order[(first + i) % 3]
        if i == 3:
            before = sim.box.game.bank.snapshot()
        run_script(sim, "produce %s 1\n" % p)
        assert [json.loads(x) for x in lines if '"action"' in x][-1]["p"] == p     # turns in that order
    # a mistake: the undo gesture is the README's, and does what the doc says
    assert "holds ROLL (at least 0.3 s)" in doc and "presses their own buzzer" in doc
    assert "| hold ROLL 0.3 s, then your own buzzer | Cheesonomics" in read("README.md")
    other = order[(first + 1) % 3]
    run_script(sim, "fingers ROLL 0-400 %s 320-360\n" % other)     # not theirs to undo
    assert "only %s can undo" % p in lines[-1]
    run_script(sim, "wait 1500\nfingers ROLL 0-400 %s 320-360\n" % p)
    assert '"undo"' in lines[-1] and sim.box.game.bank.snapshot() == before
    # the resume screen: a tick on die 1, a + on die 2; ROLL resumes, holding ROLL drops it
    assert "die 1 shows a tick and die 2 a `+`" in doc and "hold ROLL 2 s" in doc
    run_script(sim, "powercut\n")
    assert sim.box.state_name() == "resume"
    assert sim.box.display.shown[:2] == ["check", "plus"]
    run_script(sim, "holdroll 2500\n")
    assert sim.box.state_name() == "join" and '"discard"' in lines[-1]
