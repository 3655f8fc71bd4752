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
