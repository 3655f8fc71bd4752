"""Invariants of a Cheesonomics game, checked turn by turn (tests, fuzzing).

Watch wraps the seats' agents to see each action, snapshots the table before
every turn and checks after it: every card in exactly one place, the deck
count equals the cards not yet drawn, money only from the sale just made or
the final bonuses, no named type locked by another player's knife, no card
with a forbidden mark taken, hands full while the deck lasts, and at the end
the same number of turns for everyone. A broken rule raises AssertionError.
"""
from sim.cheesonomics import driver
from sim.cheesonomics.engine import DECK, HAND, MARKET


class _Spy:
    def __init__(self, agent, log):
        self.agent = agent
        self.log = log

    def turn(self, g, p):
        act = self.agent.turn(g, p)
        self.log.append(act)
        return act

    def give(self, g, q, t, p, opts):
        return self.agent.give(g, q, t, p, opts)

    def pick(self, g, p, q, t, opts):
        return self.agent.pick(g, p, q, t, opts)

    def returns(self, g, p, hand, others):
        return self.agent.returns(g, p, hand, others)

    def after_sale(self, g, p, a, country, cards):
        return self.agent.after_sale(g, p, a, country, cards)


class Watch:
    def __init__(self, g, agents, rng):
        self.g = g
        self.rng = rng
        self.log = []
        self.spies = [_Spy(a, self.log) for a in agents]
        self.turns = 0
        self.sales = 0          # money paid for sales, all players
        self.check()

    def check(self):
        g = self.g
        w = g.census()
        g.market_census()
        indeck = 0
        for c in range(100):
            if w[c] == DECK:
                indeck += 1
        assert indeck == g.deck_count() == len(g.deck) - g.top
        assert len(g.mk) == MARKET
        for p in range(g.n):
            assert g.money[p] == g.income[p] + g.bonus[p]
            if not g.over:
                assert g.bonus[p] == 0
            if not g.final_turns():
                assert len(g.hands[p]) == HAND, "hands are full while the deck lasts"
        assert sum(g.income) == self.sales
        assert max(g.turns) - min(g.turns) <= 1

    def step(self):
        g = self.g
        p = g.cur
        money = list(g.money)
        deck = g.deck_count()
        knives = [g.knife[q] for q in range(g.n)]
        forbidden = g.forbidden(p)
        others = [list(h) if q != p else [] for q, h in enumerate(g.hands)]
        prices = [g.price(k) for k in range(5)]
        del self.log[:]
        line = driver.play_turn(g, self.spies, self.rng)
        act = self.log[0]
        self.turns += 1
        k = act[0]
        if k == "collect":
            t = act[1]
            for q in range(g.n):
                assert q == p or knives[q] != t, "named a type locked by another knife"
            for q in range(g.n):
                for c in others[q]:
                    if c in g.hands[p] or c in g.table[p]:
                        assert g.cards.mark[c] not in forbidden, "took a card with a forbidden mark"
            assert g.knife[p] == t or g.over or g.cur == p
        if k == "sell":
            paid = prices[act[2]] * len(act[3])
            self.sales += paid
            assert g.income[p] - (money[p] - g.bonus[p]) == paid or g.over
        else:
            for q in range(g.n):
                if not g.over:
                    assert g.money[q] == money[q], "money came from no sale"
        if k != "produce":
            assert g.deck_count() == deck, "only producing draws"
        else:
            assert g.deck_count() <= deck
        self.check()
        return line

    def play(self, limit=3000):
        while not self.g.over and self.turns < limit:
            self.step()
        g = self.g
        assert g.over, "the game did not end in %d turns" % limit
        assert min(g.turns) == max(g.turns), "everyone had the same number of turns"
        assert g.turns[g.cur] == g.turns[(g.cur + 1) % g.n]
        assert (g.cur + 1) % g.n == g.first, "the last turn was the seat before the first player"
        assert g.money == [g.income[p] + g.bonus[p] for p in range(g.n)]
        top = max(g.money)
        assert g.winners and all(g.money[p] == top for p in g.winners)
        return g
