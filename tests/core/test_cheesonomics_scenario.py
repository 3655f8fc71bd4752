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
    assert r["over"] and r["log"][1] == "refused: cow is locked by player 1's knife"
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
