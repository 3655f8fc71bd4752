"""Every press lights its LED within 10 ms on the emulated Pico:
from the buzzer's pin edge to the last changed bit of the station's own LEDs
on the wire (emu/latency.py; `make bench` gives every kind, max and median).

Before the tracks went out first, a 2nd and 3rd join waited for a die drawn
in Python (14 ms), a refused grab and a round's last grab for the flash
write of the save (78 ms, 30 ms), money on demand and an entry step for the
dice (22 ms, up to 144 ms).
"""
from emu import latency as L


def _assert_fast(kinds, events_said):
    for kind, ms in L.kinds_of(kinds).items():
        s = L.summary(ms)
        assert s["unlit"] == 0, "%s: %d presses lit nothing" % (kind, s["unlit"])
        assert s["max_ms"] <= L.BOUND_MS, "%s: %s ms (all: %s)" % (kind, s["max_ms"], ms)
    for ev in events_said:
        assert ev, "an expected press kind never happened"


def test_joins_leaves_grabs_own_up_pico_4p(image):
    kinds, events = {}, []
    L._cheese_master("pico-4p", image("pico-4p"), kinds, rounds=1, events=events)
    said = [e["ev"] for e in events]
    assert said.count("join") == 5 and "leave" in said and "false_start" in said
    assert said.count("grab") == 3 and "own_up" in said and "take_back" in said
    assert sorted(kinds) == ["false start", "grab", "join", "leave", "own-up", "take back"]
    _assert_fast(kinds, [])


def test_refused_and_scoring_grab_pico_8p(image):
    """The refused grab and the round's last grab both save the game."""
    kinds, events = {}, []
    L._cheese_master("pico-8p", image("pico-8p"), kinds, rounds=1, events=events)
    said = [e["ev"] for e in events]
    assert "refused" in said and "score" in said
    assert [e["plate"] for e in events if e["ev"] == "grab"] == [3, 3, 3]   # the keys counted
    _assert_fast(kinds, [])


def test_money_on_demand_entry_steps_and_a_sale_cheesonomics(image):
    """Three productions and three sales: each step keyed refused (the action
    not complete) until the last confirms it, the LEDs before the log, the
    tune and the save; money on demand in each turn, also while a sale's sum
    shows. The sale's country step draws the market's prices at every wake:
    before they were worked out only when the market changed, its refusal
    took 16.8 ms; the sale's last press 13.6 ms (its sum drawn before the
    tracks); money on demand while a sum showed 10.1 ms (the sum's die drawn
    again at every wake)."""
    kinds, events = {}, []
    L._cheesonomics(image("pico-8p"), kinds, turns=6, events=events)
    acts = [e["act"] for e in events if e["ev"] == "action"]
    assert acts == ["produce"] * 3 + ["sell"] * 3
    assert [e["ev"] for e in events].count("not_allowed") == 3 + 3 * 3
    assert sorted(L.kinds_of(kinds)) == ["Cheesonomics entry step", "Cheesonomics sale step",
                                         "join (Cheesonomics)", "money on demand"]
    _assert_fast(kinds, [])
