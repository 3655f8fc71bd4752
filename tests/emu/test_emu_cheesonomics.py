"""Cheesonomics with the box as market and bank, on the emulated pico-8p,
through its pins and its serial log only: a long ROLL picks the game, three
players join, and every turn is keyed in at the active station (one answer key
a value on the 74HC165 chain, then the buzzer once). The chip draws its own market and
first player (MicroPython's random); a CPython Bank laid out the same way
follows the same turns, and both must keep the same accounts to the end. A
power cut in the middle: the chip offers the game, ROLL resumes it. On the
Pico 2 the turns are dialled at the active station and confirmed with its
buzzer (a sale's pieces with the action), the same CPython Bank following."""
import pytest

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


def _basic_game(t, stations):
    """Cheesonomics picked (a long ROLL), these stations joined, basic
    chosen: the market event."""
    t.press("roll", hold_ms=2500)
    assert t.wait_event("pick")["game"] == "cheesonomics"
    for s in stations:
        t.press(s)
    t.press("roll")                               # the variant screen
    t.press("roll")                               # basic
    return t.wait_event("market", 5000)


def test_cheesonomics_market_and_bank_on_the_chip(image):
    cards = load()
    with EmuTable("pico-8p", flash=image("pico-8p")) as t:
        t.boot()
        market = _basic_game(t, STATIONS)
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


# -- the Pico 2: turns keyed with dials ------------------------------------------------
DIALLED_STATIONS = (0, 3, 5)          # P1, P4, P6
DIALLED_TURNS = 4


@pytest.mark.rp2350
def test_cheesonomics_turns_dialled_on_the_pico2(image):
    cards = load()
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        t.boot(3000)
        market = _basic_game(t, DIALLED_STATIONS)
        assert market["players"] == ["P1", "P4", "P6"]
        b = mirror_of(market, cards)
        assert market["prices"] == [b.price(c) for c in range(5)]
        for k in range(DIALLED_TURNS):
            s = DIALLED_STATIONS[b.cur]
            values = [3, 1 + k % 3]                   # produce: the dial to 3, then the amount
            since = len(t.events)
            for v in values:
                t.dial(s, v)
                t.run(40)                             # 3 reads alike, 4 ms apart
                t.press(s)
                t.run(350)                            # a dial step confirms 300 ms after the last
            ev = t.wait_event("action", 5000, since=since)
            b.produce(values[1])
            assert ev["p"] == "P%d" % (s + 1), ev
            assert ev["money"] == b.money[DIALLED_STATIONS.index(s)] and ev["deck"] == b.deck, (ev, b.money)
        # a sale dialled in three steps: 5 (sell 2 pieces), the animal, the
        # country; the country's press plays it
        s = DIALLED_STATIONS[b.cur]
        best = max(range(5), key=b.price)
        since = len(t.events)
        for v in (5, 1, best + 1):
            t.dial(s, v)
            t.run(40)
            t.press(s)
            t.run(350)
        ev = t.wait_event("action", 5000, since=since)
        b.sell(0, best, 2)
        assert ev["act"] == "sell" and ev["pieces"] == 2 and ev["country"] == cards.countries[best], ev
        assert ev["money"] == b.money[DIALLED_STATIONS.index(s)], (ev, b.money)
