"""python -m sim on the command line: --json output, and bad input refused cleanly
(a message naming the file or line, exit code 2 or at least non-zero, never a traceback)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCEN = os.path.join(REPO, "tests", "scenarios")

GOOD = "players 3\ndice yellow\nrollbutton\nroll cheese1 cheese1 cheese1\nwait 3000\n"


def run(*args, timeout=60):
    env = dict(os.environ, BLINKA_OS_AGNOSTIC="1")
    return subprocess.run([sys.executable, "-m", "sim"] + list(args), cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=timeout)


def script(tmp_path, text, name="s.txt"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def refused(p, *names):
    assert p.returncode != 0
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout
    for n in names:
        assert n in p.stderr, (n, p.stderr)


def test_json_has_the_keys_and_types(tmp_path):
    p = run("--board", "pico-8p", "--script", script(tmp_path, GOOD + "answer P1 3\nbuzz P1\n"
                                                      "answer P2 2\nbuzz P2\n"), "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    types = {"points": dict, "eliminated": list, "rounds": int, "state": str, "games": int,
             "virtual_ms": int, "replays": int, "dice": list, "last_roll": list, "cheese_left": int}
    for k, t in types.items():
        assert isinstance(r[k], t), (k, r[k])
    assert "winner" in r and (r["winner"] is None or isinstance(r["winner"], str))
    assert "marked" in r and (r["marked"] is None or isinstance(r["marked"], str))
    assert all(isinstance(k, str) and isinstance(v, int) for k, v in r["points"].items())
    assert r["points"] == {"P1": 7, "P2": 5, "P3": 6}
    assert r["rounds"] == 1 and r["cheese_left"] == 3 and r["marked"] == "P3"
    assert r["last_roll"] == ["cheese1", "cheese1", "cheese1"]
    assert r["dice"] == ["yellow A", "yellow B", "yellow C"]


def test_json_campaign_field(tmp_path):
    p = run("--script", script(tmp_path, "players 2\ndice campaign\n"), "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    c = r["campaign"]
    assert c["game"] == 1 and c["wins"] == {"P1": 0, "P2": 0} and c["king"] is None
    assert len(r["dice"]) == 1


def test_json_before_any_game(tmp_path):
    p = run("--script", script(tmp_path, "# nothing yet\nwait 10\n"), "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["points"] == {} and r["eliminated"] == [] and r["winner"] is None and r["rounds"] == 0
    assert r["state"] == "join"


@pytest.mark.parametrize("board,bad,lineno", [
    ("pico-4p", "jump P1", 6),                       # unknown command
    ("pico-4p", "buzz P5", 6),                       # pico-4p has P1..P4
    ("pico-8p", "buzz P9", 6),
    ("pico-4p", "buzz X1", 6),
    ("pico-4p", "roll cheese1 cheese1 dog", 6),      # yellow C has no dog
    ("pico-4p", "roll cheese1 cheese1 cheese7", 6),  # no such face at all
    ("pico-4p", "answer P1 3", 6),                   # plate cards: no electronic plates
    ("pico-8p", "own-up P1", 6),                     # electronic plates: no own-up
    ("pico-8p", "answer P1 8", 6),                   # plates are 0..7
    ("pico-4p", "buzz", 6),                          # wrong argument counts
    ("pico-4p", "buzz P1 P2", 6),
    ("pico-4p", "wait", 6),
    ("pico-4p", "rollbutton now", 6),
    ("pico-4p", "wait soon", 6),
    ("pico-4p", "players 3", 6),                     # not taking players any more
])
def test_bad_scenario_line(tmp_path, board, bad, lineno):
    # a roll follows, so a forced face is checked too (faces are drawn when shown)
    text = "# a bad line\nplayers 3\ndice yellow\nwait 100\nwait 100\n" + bad + "\nrollbutton\nwait 3000\n"
    p = run("--board", board, "--script", script(tmp_path, text), "--json")
    assert p.returncode == 2
    refused(p, "line %d" % lineno, "s.txt")
    assert p.stdout == ""


def test_roll_with_wrong_number_of_faces(tmp_path):
    # the faces are checked when the dice are shown: the error names the roll line
    text = "players 2\ndice yellow\nroll cheese1 cheese1\nrollbutton\nwait 3000\n"
    p = run("--script", script(tmp_path, text))
    assert p.returncode == 2
    refused(p, "line 3")


def test_missing_scenario_file(tmp_path):
    missing = str(tmp_path / "nope.txt")
    p = run("--script", missing, "--json")
    assert p.returncode == 2
    refused(p, "nope.txt")


def test_missing_board_name(tmp_path):
    p = run("--board", "pico-99p", "--script", script(tmp_path, GOOD), "--json")
    assert p.returncode == 2
    refused(p, "pico-99p")


def test_board_file_with_broken_json(tmp_path):
    b = tmp_path / "broken.json"
    b.write_text('{"name": "broken", "plates": ')
    p = run("--board", str(b), "--script", script(tmp_path, GOOD), "--json")
    assert p.returncode == 2
    refused(p, "broken.json")


def test_board_file_with_a_missing_field(tmp_path):
    with open(os.path.join(REPO, "boards", "pico-4p.json")) as f:
        spec = json.load(f)
    del spec["roll"]
    b = tmp_path / "noroll.json"
    b.write_text(json.dumps(spec))
    p = run("--board", str(b), "--script", script(tmp_path, GOOD), "--json")
    assert p.returncode == 2
    refused(p, "noroll.json", "roll")


def test_board_by_path(tmp_path):
    src = os.path.join(REPO, "boards", "pico-8p.json")
    dst = tmp_path / "myboard.json"
    shutil.copy(src, str(dst))
    p = run("--board", str(dst), "--script", script(tmp_path, GOOD), "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["board"] == "pico-8p" and r["points"] == {"P1": 7, "P2": 7, "P3": 7}
    # and a relative path from the repo root
    p = run("--board", os.path.join("boards", "pico-8p.json"), "--script", script(tmp_path, GOOD), "--json")
    assert p.returncode == 0, p.stderr


def test_same_seed_same_output(tmp_path):
    text = "players 4\ndice yellow+3\n" + "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\nrollbutton\n" * 3
    s = script(tmp_path, text)
    a = run("--seed", "42", "--script", s, "--json")
    b = run("--seed", "42", "--script", s, "--json")
    assert a.returncode == 0 and a.stdout == b.stdout


def test_timing_goes_to_stderr():
    p = run("--board", "pico-8p", "--script", os.path.join(SCEN, "thirty_rounds.txt"), "--json", "--timing")
    assert p.returncode == 0, p.stderr
    assert "real time" in p.stderr
    assert json.loads(p.stdout)["rounds"] == 30


@pytest.mark.parametrize("data,words", [
    (b"\x00\x01\x02\xffELF binary", ["not a text file"]),
    (b"players 2\n\xe9t\xe9\n", ["not UTF-8"]),
    (b"", ["no commands"]),
    (b"# only a comment\n\n   \n", ["no commands"]),
])
def test_scenario_that_is_not_a_scenario(tmp_path, data, words):
    f = tmp_path / "bad.txt"
    f.write_bytes(data)
    p = run("--script", str(f), "--json")
    assert p.returncode == 2
    refused(p, "bad.txt", *words)


def test_scenario_with_a_utf8_bom_runs(tmp_path):
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    p = run("--script", str(f), "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["cheese_left"] == 3


def test_log_into_a_missing_folder(tmp_path):
    p = run("--script", script(tmp_path, GOOD), "--log", str(tmp_path / "no" / "such" / "log.jsonl"))
    assert p.returncode == 2
    refused(p, "--log", "log.jsonl")


def test_a_forced_roll_never_used_is_reported(tmp_path):
    p = run("--script", script(tmp_path, GOOD + "roll cat cat cat\n"), "--json")
    assert p.returncode == 2
    refused(p, "line 6", "never used")


def test_unknown_board_lists_the_boards(tmp_path):
    p = run("--board", "pico-9p", "--script", script(tmp_path, GOOD))
    assert p.returncode == 2
    refused(p, "pico-9p", "pico-4p", "pico-8p", "pico2-8p")
