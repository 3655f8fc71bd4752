"""Cheesonomics with the box as market and bank, on the emulated pico-8p,
through its pins and its serial log only: a long ROLL picks the game, three
players join, and every turn is keyed in at the active station (one answer key
a value on the 74HC165 chain, then the buzzer once). The chip draws its own market and
first player (MicroPython's random); a CPython Bank laid out the same way
follows the same turns, and both must keep the same accounts to the end. A
power cut in the middle: the chip offers the game, ROLL resumes it."""
from cheesonomics.cardfile import load
from cheesonomics_mirror import apply, mirror_of, turn_values
from emu.table import EmuTable

STATIONS = (1, 4, 6)          # P2, P5, P7: seats follow station order


def key_in(t, s, values):
    """One key a value, then the buzzer once."""
    for v in values:
        t.key(s, v)
        t.run(90)
    t.press(s)


def test_cheesonomics_market_and_bank_on_the_chip(image):
    cards = load()
    with EmuTable("pico-8p", flash=image("pico-8p")) as t:
        t.boot()
        t.press("roll", hold_ms=2500)
        assert t.wait_event("pick")["game"] == "cheesonomics"
        for s in STATIONS:
            t.press(s)
        t.press("roll")                               # the variant screen
        t.press("roll")                               # basic
        market = t.wait_event("market", 5000)
        assert market["players"] == ["P2", "P5", "P7"] and len(market["cards"]) == 15
        b = mirror_of(market, cards)
        assert market["prices"] == [b.price(c) for c in range(5)]
        assert market["deck"] == b.deck == 45
        since = len(t.events)
        t.pico.send("state\r\n")
        st = t.wait_event("state", 3000, since=since)
        assert st["game"] == "cheesonomics" and st["turn"] == market["first"]
        free = st["free"]
        assert free > 100000, free                    # the heap beside the game on the chip
        k = 0
        cut_done = False
        while not b.over:
            s = STATIONS[b.cur]
            if k == 6 and not cut_done:
                # a power cut between two turns: the game is offered and resumed
                t.pico.power_cycle()
                t.boot()
                t.press("roll")
                assert t.wait_event("resume", 3000)
                cut_done = True
            values = turn_values(b, k)
            since = len(t.events)
            last = since
            key_in(t, s, values)
            ev = t.wait_event("action", 5000, since=since)
            apply(b, values)
            # the action's money is from sales: the last one's is before the final bonuses
            assert ev["p"] == "P%d" % (s + 1) and ev["money"] == b.income[(STATIONS.index(s))]
            assert ev["deck"] == b.deck
            k += 1
            assert k < 200
        final = t.wait_event("final", 5000, since=last)
        names = ["P%d" % (s + 1) for s in STATIONS]
        assert final["money"] == dict(zip(names, b.money))
        assert final["winners"] == [names[p] for p in b.winners]
        assert cut_done and len(set(b.turns)) == 1
        print("cheesonomics on the chip: %d turns, heap free %d B, final %r" % (k, free, final["money"]))
