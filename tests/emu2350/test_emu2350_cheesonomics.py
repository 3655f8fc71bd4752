"""Cheesonomics turns keyed with dials on the Pico 2: a long ROLL
picks the game, three players join, each turn's values are dialled at the
active station and confirmed with its buzzer (a sale's pieces with the
action); a CPython Bank laid out as the chip's market follows the same
turns and keeps the same accounts."""
from cheesonomics.cardfile import load
from emu.table import EmuTable
from tests.emu.test_emu_cheesonomics import mirror_of   # the market by kind, as on the Pico

STATIONS = (0, 3, 5)          # P1, P4, P6
TURNS = 4


def test_cheesonomics_turns_dialled_on_the_pico2(image):
    cards = load()
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
        t.boot(3000)
        t.press("roll", hold_ms=2500)
        assert t.wait_event("pick")["game"] == "cheesonomics"
        for s in STATIONS:
            t.press(s)
        t.press("roll")                               # the variant screen
        t.press("roll")                               # basic
        market = t.wait_event("market", 5000)
        assert market["players"] == ["P1", "P4", "P6"]
        b = mirror_of(market, cards)
        assert market["prices"] == [b.price(c) for c in range(5)]
        for k in range(TURNS):
            s = STATIONS[b.cur]
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
            assert ev["money"] == b.money[STATIONS.index(s)] and ev["deck"] == b.deck, (ev, b.money)
        # a sale dialled in three steps: 5 (sell 2 pieces), the animal, the
        # country; the country's press plays it
        s = STATIONS[b.cur]
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
        assert ev["money"] == b.money[STATIONS.index(s)], (ev, b.money)
