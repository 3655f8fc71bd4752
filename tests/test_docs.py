"""The documents cannot drift: face pictures, the default dice file, the
README's JSON example, its docs table and `make help`."""
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
    spec = json.loads(read("dice", "default.json"))
    assert load_dice(spec, "dice/default.json") == default_dice()
    # the complete example in the format's doc is that file
    doc = read("docs", "dice-file.md")
    example = re.search(r"```json\n(.*?)```", doc, re.S).group(1)
    assert example == read("dice", "default.json")


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
