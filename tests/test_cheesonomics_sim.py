"""python -m sim --game cheesonomics: scenario scripts (the rulebook's cases
played as a table would), the terminal game with typed input, hot seat, and
bad input refused with a message and exit code 2, never a traceback."""
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SETUP = """players 3
seed 4
first P1
hand P1 cow/red cow/blue goat/red sheep/green camel/purple
hand P2 cow/green goat/blue goat/green sheep/red buffalo/blue
hand P3 goat/yellow sheep/yellow sheep/blue buffalo/red buffalo/yellow
market 1A 2A 4A 6B 11A 12A 16A 17A 18A 19A 20A 10A 7A 8A 9A
"""


def run(*args, stdin=None, timeout=120):
    env = dict(os.environ, BLINKA_OS_AGNOSTIC="1")
    return subprocess.run([sys.executable, "-m", "sim", "--game", "cheesonomics"] + list(args), cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=timeout, input=stdin)


def scenario(tmp_path, text, *args):
    p = tmp_path / "s.txt"
    p.write_text(text)
    return run("--script", str(p), *args)


def result(tmp_path, text):
    p = scenario(tmp_path, text, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def refused(p, *words):
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr + p.stdout
    for w in words:
        assert w in p.stderr, (w, p.stderr)


def test_collect_produce_sell_as_a_table_plays_them(tmp_path):
    r = result(tmp_path, SETUP + """
expect price France 5
P1 collect cow give P3 sheep/blue back P2 camel/purple back P3 sheep/green
expect knife P1 cow
expect hand P1 cow/green sheep/blue cow/red cow/blue
refused P2 collect cow
P2 produce goat
expect table P2 goat/blue goat/green
expect hand P2 5
P3 collect sheep give P1 sheep/blue back P1 buffalo/yellow back P2 goat/yellow
P1 produce cow
expect table P1 3
P2 collect red
P3 produce sheep
P1 sell cow France 3
expect money P1 15
expect price France 5
expect income P1 15
""")
    assert r["money"]["P1"] == 15 and r["prices"]["France"] == 5
    assert r["market"][0] == "France 1|2 (B up)"
    assert r["turn"] == "P2" and r["turns"] == {"P1": 3, "P2": 2, "P3": 2}
    assert len(r["sold"]["P1"]) == 3 and r["knives"]["P1"] is None
    assert r["log"][0] == "P1 collects cow (P3 showed their hand)"
    assert r["log"][1] == "refused: cow is locked by P1's knife"


def test_a_whole_game_to_the_end_with_bonuses(tmp_path):
    r = result(tmp_path, "players 4\nseed 9\nbots end\nexpect over\n")
    assert r["over"] and isinstance(r["turns"], int)
    assert sum(r["money"].values()) == sum(r["income"].values()) + sum(r["bonus"].values())
    top = max(r["money"].values())
    assert r["winners"] == [p for p in r["money"] if r["money"][p] == top]
    assert r["deck"] == 0 and all(v == [] for v in r["table"].values())


def test_the_end_of_the_deck_finishes_the_round(tmp_path):
    r = result(tmp_path, SETUP + """
P1 collect goat
deck 1
P2 produce goat
expect deck 0
expect turn P3
P3 pass
expect over
expect winner P2
""")
    assert r["over"] and r["turns"] == 1
    assert r["unsold_bonus"] == {"P1": 0, "P2": 1, "P3": 0}
    assert r["log"][-1] == "P3 passes the final turn"


def test_the_last_seat_emptying_the_deck_ends_at_once(tmp_path):
    p = scenario(tmp_path, SETUP + """
P1 collect goat
P2 collect red
deck 1
P3 produce buffalo
expect over
P1 pass
""")
    refused(p, "line 14: the rules refuse this: the game is over")


def test_bonus_tie_breaks_in_a_script(tmp_path):
    r = result(tmp_path, SETUP + """
sold P1 cow/yellow cow/purple
sold P2 cow/green cow/red sheep/purple
sold P3 goat/purple
deck 0
P1 pass
P2 pass
P3 pass
expect over
""")
    assert r["top_bonus"]["cow"] == {"amount": 2, "to": ["P2"]}
    assert r["top_bonus"]["sheep"] == {"amount": 1, "to": ["P2"]}
    assert r["top_bonus"]["goat"] == {"amount": 1, "to": ["P3"]}
    assert r["winners"] == ["P2"]


def test_advanced_variant_exchange_and_forbid(tmp_path):
    r = result(tmp_path, """players 4
advanced
first P1
market 1A 2A 4A 6A 7A 8A 9A 10A 11A 12A 13A 14A 15A 16A 17A
own P1 21 24
table P1 cow/red/trowel cow/blue cow/green
P1 sell cow France 2 forbid trowel exchange 2 24 B
expect money P1 10
""")
    assert r["variant"] == "advanced"
    assert r["market"][1] == "Greece 2|2 (B up)"
    assert r["own"]["P1"] == [1, 20]        # card 2 (France 2|1) taken, 0-based in JSON
    assert r["log"][0] == "P1 sells 2 cow to France at 5: 10; forbid trowel; exchanges one France card"


def test_a_failed_expect_exits_1_naming_the_line(tmp_path):
    p = scenario(tmp_path, SETUP + "expect price France 6\n")
    assert p.returncode == 1
    assert "line 8: expected price France 6, got 5" in p.stderr


def test_bad_scripts_exit_2_naming_the_line(tmp_path):
    refused(scenario(tmp_path, SETUP + "P2 collect cow\n"), "line 8: it is P1's turn, not P2's")
    refused(scenario(tmp_path, SETUP + "P1 collect llama\n"), "line 8: 'llama' is not a milk type")
    refused(scenario(tmp_path, SETUP + "P1 sell cow France\n"), "line 8: the rules refuse this",
            "no cow cheese is on the table")
    refused(scenario(tmp_path, SETUP + "dance\n"), "line 8: unknown command 'dance'")
    refused(scenario(tmp_path, SETUP + "players 4\n"), "line 8: 'players' must come before the game starts")
    refused(scenario(tmp_path, "players 7\n"), "line 1: '7' is not a player count (2-5)")
    refused(scenario(tmp_path, SETUP + "market 1A 2A\n"), "line 8: market takes 15 cards")
    refused(scenario(tmp_path, SETUP + "hand P1 cow/red\n"), "line 8: P1 holds 5 cards, not 1")
    refused(scenario(tmp_path, SETUP + "own P1 3\n"), "line 8: own market cards are for the advanced variant")
    refused(scenario(tmp_path, SETUP + "P1 collect cow give P1 cow/red\n"), "P1 is the active player")
    refused(scenario(tmp_path, SETUP + "P1 collect cow give P2\n"), "line 8: give Pn CARD")
    refused(run("--script", "/no/such/file.txt"), "cannot be read")


def test_bad_card_file_exits_2(tmp_path):
    with open(os.path.join(REPO, "firmware", "cheesonomics", "cards.json")) as f:
        raw = json.load(f)
    raw["market"][0][1] = 5
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(raw))
    refused(run("--cards", str(bad), "--humans", "0"), "market card 1: side A must show 1 or 2 signs")
    bad.write_text("{not json")
    refused(run("--cards", str(bad), "--humans", "0"), "is not valid JSON")
    refused(run("--players", "6"), "--players must be 2 to 5")
    refused(run("--humans", "4"), "--humans must be 0 to 3")
    p = run("--game", "chess")
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_a_typed_in_card_list_changes_the_prices(tmp_path):
    with open(os.path.join(REPO, "firmware", "cheesonomics", "cards.json")) as f:
        raw = json.load(f)
    for e in raw["market"]:
        e[1] = e[2] = 2
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(raw))
    s = tmp_path / "s.txt"
    s.write_text("players 2\nexpect deck 30\n")
    p = run("--script", str(s), "--json", "--cards", str(path))
    r = json.loads(p.stdout)
    assert sum(r["prices"].values()) == 30


BOTS_ONLY = ["--humans", "0", "--seed", "3", "--players", "3"]


def test_bots_play_a_whole_game_in_the_terminal():
    p = run(*BOTS_ONLY)
    assert p.returncode == 0, p.stderr
    assert "Final count" in p.stdout and "Winner: P" in p.stdout


def _typing(lines, *args):
    return run(*args, stdin="\n".join(lines * 300) + "\n", timeout=300)


MOVES = ["s cow fr", "s goat it", "s sheep ne", "s buffalo sw", "s camel gr", "s cow it", "s goat fr",
         "p cow", "p goat", "p sheep", "p buffalo", "p camel", "pass", "c cow", "1", "1"]


def test_a_person_plays_a_whole_game_by_typing():
    p = _typing(MOVES, "--seed", "5")
    assert p.returncode == 0, p.stderr
    assert "Final count" in p.stdout and "Winner:" in p.stdout
    # the person sees only their own hand
    assert "P1 (you)" in p.stdout and "(you)" not in p.stdout.replace("P1 (you)", "")
    assert "Pass the keyboard" not in p.stdout


def test_hot_seat_hands_the_keyboard_over_before_private_choices():
    p = _typing(MOVES, "--seed", "5", "--humans", "2")
    assert p.returncode == 0, p.stderr
    assert "Pass the keyboard to P2" in p.stdout and "Pass the keyboard to P1" in p.stdout
    assert "Final count" in p.stdout


def test_typing_mistakes_are_explained_and_the_game_goes_on():
    p = run("--seed", "5", stdin="c llama\nc cow\n" + "1\n" * 10 + "s cow france\nquit\n")
    assert "'llama' is not a milk type" in p.stdout
    assert "you have produced no cow cheese" in p.stdout
    assert "Game stopped." in p.stdout and p.returncode == 0


def test_the_documented_example_runs(tmp_path):
    with open(os.path.join(REPO, "docs", "cheesonomics-scenarios.md")) as f:
        doc = f.read()
    example = doc.split("## Example")[1].split("```")[1]
    r = result(tmp_path, example)
    assert r["over"] and r["income"]["P1"] >= 15
    assert r["log"][1] == "refused: cow is locked by P1's knife"


def test_checkcards_reads_a_list_or_says_what_is_wrong(tmp_path):
    def check(*args):
        return subprocess.run([sys.executable, "-m", "sim.cheesonomics.checkcards"] + list(args), cwd=REPO,
                              capture_output=True, text=True, timeout=60)
    p = check()
    assert p.returncode == 0 and "a good card list" in p.stdout
    assert "France       cards 1, 2, 3, 4, 5  (1|2 2|1 1|1 2|2 1|2)  average 1.50" in p.stdout
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cheesonomics-cards 1"}')
    p = check(str(bad))
    assert p.returncode == 2 and "'animals' must be a list of 5 names" in p.stderr


def test_a_person_plays_the_advanced_variant_with_marks_and_exchanges():
    moves = MOVES[:-2] + ["2", "2", "1", "1"]
    p = _typing(moves, "--seed", "8", "--advanced", "--players", "4")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "Your market cards: " in out
    assert "special mark (" in out and "[2] reserve" in out
    assert "exchange one for one of yours" in out
    assert any("P1 sells" in ln and "; exchanges one" in ln for ln in out.splitlines())
    assert any("P1 sells" in ln and "; reserve" in ln for ln in out.splitlines())
    assert "Final count" in out
