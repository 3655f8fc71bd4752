"""Heap of the Cheesonomics engine on MicroPython (run it there):

  MICROPYPATH=firmware:. micropython -X heapsize=340K sim/cheesonomics/mp_heap.py

Prints gc.mem_alloc() after a collection, relative to the start: after the
engine's imports (engine, cardfile, bot, driver), after reading cards.json,
and the peak over every turn of a whole bot game for each player count and
variant (game objects, bots and the turn driver's garbage collected each
turn). The seeded random source (sim/rng.py) is part of the figures.
"""
import gc

gc.collect()
base = gc.mem_alloc()
from cheesonomics import cardfile  # noqa: E402
from sim.cheesonomics import engine, bot, driver  # noqa: E402
from sim.rng import SeededRandom  # noqa: E402

gc.collect()
imports = gc.mem_alloc() - base
cards = cardfile.load()
gc.collect()
loaded = gc.mem_alloc() - base
print("imports %d B, + cards %d B" % (imports, loaded - imports))
worst = 0
for adv in (False, True):
    for n in (2, 3, 4, 5):
        rng = SeededRandom(n)
        g = engine.Game(cards, n, rng, advanced=adv)
        agents = [bot.Bot(rng) for _ in range(n)]
        peak = 0
        while not g.over:
            driver.play_turn(g, agents, rng)
            gc.collect()
            peak = max(peak, gc.mem_alloc() - base - loaded)
        gc.collect()
        kept = gc.mem_alloc() - base - loaded
        print("%s %d players: game peak %d B, finished game %d B, %d turns each" % (
            "advanced" if adv else "basic", n, peak, kept, g.turns[0]))
        worst = max(worst, peak)
        g = agents = None
        gc.collect()
print("engine total (imports + cards + worst game): %d B" % (loaded + worst))
