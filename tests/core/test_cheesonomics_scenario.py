# Scenario scripts run the same on MicroPython as on CPython (the language:
# docs/cheesonomics-scenarios.md).
from cheesonomics import cardfile
from sim.cheesonomics.scenario import ExpectError, ScenarioError, run_script

GAME = """players 3
first P1
hand P1 cow/red cow/blue goat/red sheep/green camel/purple
hand P2 cow/green goat/blue goat/green sheep/red buffalo/blue
hand P3 goat/yellow sheep/yellow sheep/blue buffalo/red buffalo/yellow
market 1A 2A 4A 6B 11A 12A 16A 17A 18A 19A 20A 10A 7A 8A 9A
P1 collect cow give P3 sheep/blue back P2 camel/purple back P3 sheep/green
refused P2 collect cow
P2 produce goat
P3 collect sheep give P1 sheep/blue
P1 produce cow
P2 collect red
P3 produce sheep
P1 sell cow France 3
expect money P1 15
bots end
"""


def test_a_scripted_game_replays_the_same_on_every_interpreter():
    r = run_script(GAME, cardfile.load())
    assert r["over"] and r["log"][1] == "refused: cow is locked by P1's knife"
    assert (r["money"], r["winners"]) == ({"P1": 91, "P2": 113, "P3": 116}, ["P3"]), (r["money"], r["winners"])


def test_script_mistakes_name_the_line():
    def err(text):
        try:
            run_script(text, cardfile.load())
        except (ScenarioError, ExpectError) as e:
            return str(e)
        assert False
    assert err("players 3\nexpect deck 3\n") == "line 2: expected deck 3, got 45"
    assert err("players 3\nfirst P1\nP1 collect yak\n").startswith("line 3: 'yak' is not a milk type")


SETUP = """players 3
first P1
hand P1 cow/red cow/red goat/red sheep/green camel/purple
hand P2 cow/green goat/blue goat/green sheep/red buffalo/blue
hand P3 goat/yellow sheep/yellow sheep/blue buffalo/red buffalo/yellow
"""


def _err(text):
    try:
        run_script(text, cardfile.load())
    except (ScenarioError, ExpectError) as e:
        return str(e)
    assert False, "the script ran"


def test_a_sale_of_more_pieces_than_lie_on_the_table_is_refused_not_shortened():
    # P1 has produced 2 sheep: "sell sheep France 3" is refused as the box
    # refuses 3 at "pieces", and nothing is sold; 2 can then be sold
    r = run_script(SETUP + """table P1 sheep/yellow sheep/blue
refused P1 sell sheep France 3
expect table P1 2
expect money P1 0
P1 sell sheep France 2
expect table P1 0
expect sold P1 2
""", cardfile.load())
    assert r["log"][0] == "refused: only 2 pieces of sheep cheese are on the table", r["log"]
    assert r["income"]["P1"] > 0
    assert _err(SETUP + "table P1 sheep/yellow\nP1 sell sheep France 2\n") == \
        "line 7: the rules refuse this: only 1 piece of sheep cheese is on the table"
    assert _err(SETUP + "P1 sell sheep France 1\n") == \
        "line 6: the rules refuse this: no sheep cheese is on the table"


def test_two_cards_of_one_name_passed_back_are_two_copies():
    # P1 holds two cow/red and passes one back to each player
    r = run_script(SETUP + """P1 collect goat give P3 goat/yellow back P2 cow/red back P3 cow/red
expect hand P2 cow/red
expect hand P3 cow/red
expect hand P1 5
""", cardfile.load())
    assert r["log"][0] == "P1 collects goat"
    assert "cow/red" not in r["hands"]["P1"], r["hands"]
    # a name the hand holds only once is still refused for the second player
    r = run_script(SETUP + "refused P1 collect goat back P2 goat/red back P3 goat/red\n", cardfile.load())
    assert r["log"][0] == "refused: goat/red is not in the hand to pass back", r["log"]


def test_advanced_words_in_a_basic_game_are_refused_by_name():
    base = SETUP + "table P1 sheep/yellow sheep/blue\n"
    for tail, word in (("forbid trowel", "forbid"), ("reserve 3", "reserve"), ("trade P2 3 4", "trade"),
                       ("exchange 1 3 A", "exchange")):
        assert _err(base + "P1 sell sheep France 1 " + tail + "\n") == \
            "line 7: the rules refuse this: '%s' is for the advanced variant (this game is basic)" % word
    r = run_script(base + "refused P1 sell sheep France forbid bucket\nexpect table P1 2\n", cardfile.load())
    assert r["log"] == ["refused: 'forbid' is for the advanced variant (this game is basic)"]


def test_refusals_name_the_seats_as_the_log_does():
    # the engine's "player 2" reads P2 in a scenario, as every other line
    r = run_script(SETUP + "P1 collect cow back P2 camel/purple back P3 sheep/green\nrefused P2 collect cow\n"
                   "refused P2 collect red give P1 cow/green\n", cardfile.load())
    assert r["log"][1] == "refused: cow is locked by P1's knife"
    assert r["log"][2] == "refused: P1 cannot pass cow/green", r["log"]
