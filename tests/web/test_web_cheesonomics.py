"""Cheesonomics on the screen: the box is the market and the bank in the page.
A long ROLL picks the game, three seats join, and every turn is keyed on the
tablet's on-screen answer keys (one key a value, then the seat's buzzer), by
touch. A CPython Bank laid out from the page's market follows the same turns:
each turn's money and the final accounts and winners must be the engine's.
Screenshots of the market and the final screen are kept in build/web-shots."""
import time

from cheesonomics.cardfile import load
from cheesonomics_mirror import apply, mirror_of, turn_values

SEATS = (0, 3, 5)             # P1, P4, P6 round the screen


def key_in(page, s, values):
    for v in values:
        page.key(s, v, gap=0.05)
    page.buzz(s)


def test_a_cheesonomics_game_keyed_on_the_screen_ends_with_the_engines_money(page):
    cards = load()
    page.open("?board=tablet&seats=6&seed=11")
    page.long_roll()
    pick = page.wait_for(lambda: page.events("pick"))
    assert pick[-1]["game"] == "cheesonomics", pick
    for s in SEATS:
        page.buzz(s)
    page.wait_for(lambda: len(page.events("join")) >= len(SEATS))
    page.roll()                                   # the variant screen
    time.sleep(0.3)
    page.roll()                                   # basic
    market = page.wait_for(lambda: page.events("market"))[-1]
    assert market["players"] == ["P1", "P4", "P6"] and len(market["cards"]) == 15
    time.sleep(0.5)
    page.shot("tablet-cheesonomics-market")
    b = mirror_of(market, cards)
    assert market["prices"] == [b.price(c) for c in range(5)]
    k = 0
    while not b.over:
        s = SEATS[b.cur]
        values = turn_values(b, k)
        n = len(page.events("action"))
        key_in(page, s, values)
        ev = page.wait_for(lambda: page.events("action")[n:], timeout=10)[0]
        apply(b, values)
        assert ev["p"] == "P%d" % (s + 1), (ev, values)
        assert ev["money"] == b.income[SEATS.index(s)]
        assert ev["deck"] == b.deck
        k += 1
        assert k < 200
    final = page.wait_for(lambda: page.events("final"), timeout=10)[-1]
    names = ["P%d" % (s + 1) for s in SEATS]
    assert final["money"] == dict(zip(names, b.money))
    assert final["winners"] == [names[p] for p in b.winners]
    time.sleep(0.5)
    page.shot("tablet-cheesonomics-final")
    assert page.console_errors() == []
