"""Cheesonomics scenario scripts: a game played line by line, for tests.

The language is in docs/cheesonomics-scenarios.md. run_script(text, ...)
returns the final state as a dict (what --json prints). A line the script
gets wrong (syntax, a name, a move the rules refuse outside `refused`)
raises ScenarioError("line N: ..."); an `expect` that does not hold raises
ExpectError("line N: ...").
"""
from sim.cheesonomics import bot, driver
from sim.cheesonomics.engine import Game, RuleError, MARKET
from sim.cheesonomics import arrange
from sim.cheesonomics import names as N
from sim.rng import SeededRandom


def seats(why):
    """The engine's "player 2" as the rest of the output names a seat: P2."""
    for p in range(5, 0, -1):
        why = why.replace("player %d" % p, "P%d" % p)
    return why


class ScenarioError(ValueError):
    pass


class ExpectError(AssertionError):
    pass


class _Scripted:
    """One scripted turn: the given choices, a bot for the rest."""

    def __init__(self, action, bots, gives, backs, extras):
        self.action = action
        self.bots = bots
        self.gives = gives          # seat -> card (given by them, or picked from their hand)
        self.backs = backs          # seat -> (name, card) passed back to them: the card the
        #                             name found when the line was read, for the engine's refusal
        self.extras = extras        # (action, replace) after a sale

    def turn(self, g, p):
        return self.action

    def give(self, g, q, t, p, opts):
        return self.gives[q] if q in self.gives else self.bots[q].give(g, q, t, p, opts)

    def pick(self, g, p, q, t, opts):
        return self.gives[q] if q in self.gives else self.bots[p].pick(g, p, q, t, opts)

    def returns(self, g, p, hand, others):
        # each name is looked up in the hand as it is now (the cards given
        # included), without the copies already named: two "cow/red" are two
        # cow/red cards when the hand holds two
        rest = list(hand)
        chosen = {}
        for q in others:
            if q in self.backs:
                word, found = self.backs[q]
                try:
                    x = N.card_of(word, g.cards, rest)
                    rest.remove(x)
                except N.NameError_:
                    x = found               # not in the hand: the engine says so
                chosen[q] = x
        free = [q for q in others if q not in self.backs]
        auto = self.bots[p].returns(g, p, rest, free)
        out = []
        for q in others:
            if q in chosen:
                out.append(chosen[q])
            elif auto:
                out.append(auto.pop(0))
        return out

    def after_sale(self, g, p, a, country, cards):
        return self.extras


def _state(g, log):
    c = g.cards
    P = ["P%d" % (p + 1) for p in range(g.n)]
    top = {}
    for a in range(5):
        if g.top_bonus[a] is not None:
            amount, won = g.top_bonus[a]
            top[c.animals[a]] = {"amount": amount, "to": [P[p] for p in won]}
    return {
        "game": "cheesonomics",
        "players": g.n,
        "variant": "advanced" if g.advanced else "basic",
        "over": g.over,
        "turn": None if g.over else P[g.cur],
        "first": P[g.first],
        "turns": g.turns[0] if len(set(g.turns)) == 1 else dict(zip(P, g.turns)),
        "deck": g.deck_count(),
        "money": dict(zip(P, g.money)),
        "income": dict(zip(P, g.income)),
        "bonus": dict(zip(P, g.bonus)),
        "unsold_bonus": dict(zip(P, g.unsold_bonus)),
        "top_bonus": top,
        "winners": [P[p] for p in g.winners],
        "prices": dict((c.countries[k], g.price(k)) for k in range(5)),
        "market": [N.market_name(c, g.mk[i], g.side[i]) for i in range(MARKET)],
        "hands": dict((P[p], sorted(N.card_name(c, x) for x in g.hands[p])) for p in range(g.n)),
        "table": dict((P[p], sorted(N.card_name(c, x) for x in g.table[p])) for p in range(g.n)),
        "sold": dict((P[p], sorted(N.card_name(c, x) for x in g.sold[p])) for p in range(g.n)),
        "knives": dict((P[p], g.type_name(g.knife[p]) if g.knife[p] != 255 else None) for p in range(g.n)),
        "own": dict((P[p], sorted(g.own[p])) for p in range(g.n)) if g.advanced else {},
        "log": log,
    }


class Script:
    def __init__(self, cards, seed=1):
        self.cards = cards
        self.seed = seed
        self.players = 3
        self.advanced = False
        self.first = -1
        self.g = None
        self.rng = None
        self.bots = None
        self.log = []
        self.lineno = 0

    # -- the game, made at the first line that needs it ---------------------
    def game(self):
        if self.g is None:
            self.rng = SeededRandom(self.seed)
            self.g = Game(self.cards, self.players, self.rng, advanced=self.advanced, first=self.first)
            self.bots = [bot.Bot(self.rng) for _ in range(self.players)]
        return self.g

    def _header(self, words):
        if self.g is not None:
            raise ScenarioError("'%s' must come before the game starts (first lines)" % words[0])

    def run(self, text):
        for raw in text.split("\n"):
            self.lineno += 1
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                self.line(line.split())
            except (N.NameError_, arrange.ArrangeError) as e:
                raise ScenarioError("line %d: %s" % (self.lineno, e))
            except ScenarioError as e:
                raise ScenarioError("line %d: %s" % (self.lineno, e))
            except ExpectError as e:
                raise ExpectError("line %d: %s" % (self.lineno, e))
        return _state(self.game(), self.log)

    def line(self, w):
        cmd = w[0].lower()
        if cmd == "players":
            self._header(w)
            self._args(w, 2)
            self.players = N.number(w[1], 2, 5, "player count")
            return
        if cmd in ("advanced", "basic"):
            self._header(w)
            self._args(w, 1)
            self.advanced = cmd == "advanced"
            return
        if cmd == "seed":
            self._header(w)
            self._args(w, 2)
            self.seed = N.number(w[1], 0, 2 ** 31, "seed")
            return
        if cmd == "first":
            self._header(w)
            self._args(w, 2)
            self.first = N.player(w[1], self.players)
            return
        g = self.game()
        if cmd in ("hand", "table", "sold"):
            if len(w) < 2:
                raise ScenarioError("%s Pn CARD ..." % cmd)
            p = N.player(w[1], g.n)
            self._arrange(cmd, p, w[2:])
            return
        if cmd == "deck":
            self._args(w, 2)
            arrange.deck_left(g, N.number(w[1], 0, 100, "deck count"))
            return
        if cmd == "market":
            self._market(w[1:])
            return
        if cmd == "own":
            if not g.advanced:
                raise ScenarioError("own market cards are for the advanced variant")
            p = N.player(w[1], g.n)
            arrange.set_own(g, p, [N.number(x, 1, 25, "market card") - 1 for x in w[2:]])
            return
        if cmd == "bot":
            self._args(w, 1)
            self._bots(1)
            return
        if cmd == "bots":
            self._args(w, 2)
            self._bots(10000 if w[1].lower() == "end" else N.number(w[1], 1, 10000, "turn count"))
            return
        if cmd == "expect":
            self._expect(w[1:])
            return
        if cmd == "refused":
            try:
                self._turn(w[1:])
            except RuleError as e:
                self.log.append("refused: %s" % seats(str(e)))
                return
            raise ExpectError("the rules allowed: %s" % " ".join(w[1:]))
        if cmd[0] == "p" and len(cmd) == 2:
            try:
                self._turn(w)
            except RuleError as e:
                raise ScenarioError("the rules refuse this: %s" % seats(str(e)))
            return
        raise ScenarioError("unknown command %r" % w[0])

    def _args(self, w, n):
        if len(w) != n:
            raise ScenarioError("'%s' takes %d word%s after it" % (w[0], n - 1, "" if n == 2 else "s"))

    def _bots(self, k):
        g = self.g
        while k and not g.over:
            self.log.append(driver.play_turn(g, self.bots, self.rng))
            k -= 1

    def _arrange(self, cmd, p, words):
        g = self.g
        c = self.cards
        everywhere = list(g.deck[g.top:]) + list(g.removed) + [x for h in g.hands for x in h]
        if cmd == "hand":
            cards = []
            for x in words:
                pool = g.hands[p] + [y for y in everywhere if y not in cards]
                cards.append(N.card_of(x, c, [y for y in pool if y not in cards]))
            arrange.set_hand(g, p, cards)
            return
        dest = g.table[p] if cmd == "table" else g.sold[p]
        for x in words:
            arrange.move(g, N.card_of(x, c, [y for y in everywhere if y not in dest] +
                                      [y for q in range(g.n) for y in g.table[q] + g.sold[q] if y not in dest]), dest)
            everywhere = list(g.deck[g.top:]) + list(g.removed) + [x for h in g.hands for x in h]

    def _market(self, words):
        if len(words) != MARKET:
            raise ScenarioError("market takes 15 cards: NA or NB (card N of the card file, side A or B)")
        ms, sides = [], []
        for x in words:
            if len(x) < 2 or x[-1].upper() not in "AB":
                raise ScenarioError("%r: a market card is its number 1-25 and the side up, like 7A" % x)
            m = N.number(x[:-1], 1, 25, "market card") - 1
            if m in ms:
                raise ScenarioError("market card %d twice" % (m + 1))
            ms.append(m)
            sides.append(0 if x[-1].upper() == "A" else 1)
        arrange.set_market(self.g, ms, sides)

    # -- a scripted turn ----------------------------------------------------
    def _turn(self, w):
        g = self.g
        c = self.cards
        if g.over:
            raise RuleError("the game is over")
        if len(w) < 2:
            raise ScenarioError("Pn collect|produce|sell|pass ...")
        p = N.player(w[0], g.n)
        if p != g.cur:
            raise ScenarioError("it is P%d's turn, not %s's" % (g.cur + 1, w[0].upper()))
        verb = w[1].lower()
        rest = w[2:]
        gives, backs, extras = {}, {}, (None, None)
        if verb == "collect":
            if not rest:
                raise ScenarioError("collect TYPE [give Pn CARD] [back Pn CARD]")
            t = N.milk_type(rest[0], c)
            i = 1
            while i < len(rest):
                if rest[i].lower() not in ("give", "back"):
                    raise ScenarioError("after the type: give Pn CARD or back Pn CARD, not %r" % rest[i])
                if i + 2 >= len(rest):
                    raise ScenarioError("%s Pn CARD" % rest[i])
                q = N.player(rest[i + 1], g.n)
                if q == p:
                    raise ScenarioError("%s is the active player" % rest[i + 1])
                if rest[i].lower() == "give":
                    gives[q] = N.card_of(rest[i + 2], c, g.hands[q])
                else:
                    pool = g.hands[p] + [x for x in gives.values()] + [x for h in g.hands for x in h]
                    backs[q] = (rest[i + 2], N.card_of(rest[i + 2], c, pool))
                i += 3
            action = ("collect", t)
        elif verb == "produce":
            if not rest:
                raise ScenarioError("produce TYPE [CARD ...]")
            t = N.milk_type(rest[0], c)
            if len(rest) > 1:
                cards = []
                for x in rest[1:]:
                    cards.append(N.card_of(x, c, [y for y in g.hands[p] if y not in cards]))
            else:
                from sim.cheesonomics.engine import is_type
                cards = [y for y in g.hands[p] if is_type(y, t)]
            action = ("produce", t, cards)
        elif verb == "sell":
            action, extras = self._sell(p, rest)
        elif verb == "pass":
            action = ("pass",)
        else:
            raise ScenarioError("%r: collect, produce, sell or pass" % w[1])
        agent = _Scripted(action, self.bots, gives, backs, extras)
        self.log.append(driver.play_turn(g, [agent] * g.n, self.rng))

    def _sell(self, p, rest):
        g = self.g
        c = self.cards
        if len(rest) < 2:
            raise ScenarioError("sell ANIMAL COUNTRY [N | CARD ...] [forbid MARK | reserve M | trade Pn M M]"
                                " [exchange POS M A|B]")
        a = N.animal(rest[0], c)
        k = N.country(rest[1], c)
        i = 2
        pieces = []
        pile = [y for y in g.table[p] if y // 20 == a]
        marked = [y for y in pile if c.mark[y] != 255] + [y for y in pile if c.mark[y] == 255]
        if i < len(rest) and rest[i].isdigit():
            want = N.number(rest[i], 1, 3, "number of pieces")
            if want > len(pile):
                # refused as the box refuses it, never shortened to what is there
                raise RuleError(N.too_few(c, a, len(pile)))
            pieces = marked[:want]
            i += 1
        while i < len(rest) and "/" in rest[i]:
            pieces.append(N.card_of(rest[i], c, [y for y in g.table[p] if y not in pieces]))
            i += 1
        if not pieces:
            if not pile:
                raise RuleError(N.too_few(c, a, 0))
            pieces = marked[:3]
        action = replace = None
        while i < len(rest):
            kw = rest[i].lower()
            if kw in N.ADVANCED_WORDS and not g.advanced:
                raise RuleError(N.advanced_only(kw))
            if kw == "forbid" and i + 1 < len(rest):
                action = ("forbid", N.mark(rest[i + 1], c))
                i += 2
            elif kw == "reserve" and i + 1 < len(rest):
                action = ("reserve", N.number(rest[i + 1], 1, 25, "market card") - 1)
                i += 2
            elif kw == "trade" and i + 3 < len(rest):
                action = ("trade", N.player(rest[i + 1], g.n), N.number(rest[i + 2], 1, 25, "market card") - 1,
                          N.number(rest[i + 3], 1, 25, "market card") - 1)
                i += 4
            elif kw == "exchange" and i + 3 < len(rest):
                side = rest[i + 3].upper()
                if side not in ("A", "B"):
                    raise ScenarioError("exchange POS M A|B: the side up is A or B")
                replace = ("exchange", N.number(rest[i + 1], 1, 15, "market position") - 1,
                           N.number(rest[i + 2], 1, 25, "market card") - 1, 0 if side == "A" else 1)
                i += 4
            else:
                raise ScenarioError("after the pieces: forbid MARK, reserve M, trade Pn M M or exchange POS M A|B,"
                                    " not %r" % rest[i])
        return ("sell", a, k, pieces), (action, replace)

    # -- expectations -------------------------------------------------------
    def _expect(self, w):
        g = self.g
        c = self.cards
        if not w:
            raise ScenarioError("expect WHAT ...")
        what = w[0].lower()
        if what == "over":
            got, want = g.over, True
        elif what == "turn" and len(w) == 2:
            got, want = "P%d" % (g.cur + 1), "P%d" % (N.player(w[1], g.n) + 1)
        elif what == "deck" and len(w) == 2:
            got, want = g.deck_count(), N.number(w[1], 0, 100, "deck count")
        elif what in ("money", "income", "bonus") and len(w) == 3:
            got = getattr(g, what)[N.player(w[1], g.n)]
            want = N.number(w[2], 0, 100000, what)
        elif what == "price" and len(w) == 3:
            got, want = g.price(N.country(w[1], c)), N.number(w[2], 0, 100, "price")
        elif what == "winner" and len(w) >= 2:
            got = ["P%d" % (p + 1) for p in g.winners]
            want = ["P%d" % (N.player(x, g.n) + 1) for x in w[1:]]
        elif what == "knife" and len(w) == 3:
            p = N.player(w[1], g.n)
            got = g.type_name(g.knife[p]) if g.knife[p] != 255 else "none"
            want = "none" if w[2].lower() == "none" else g.type_name(N.milk_type(w[2], c))
        elif what in ("hand", "table", "sold") and len(w) == 3 and w[2].isdigit():
            p = N.player(w[1], g.n)
            pile = {"hand": g.hands, "table": g.table, "sold": g.sold}[what][p]
            got, want = len(pile), int(w[2])
        elif what in ("hand", "table", "sold") and len(w) >= 3:
            p = N.player(w[1], g.n)
            pile = {"hand": g.hands, "table": g.table, "sold": g.sold}[what][p]
            for x in w[2:]:
                try:
                    N.card_of(x, c, pile)
                except N.NameError_:
                    raise ExpectError("expected %s in P%d's %s: %s" % (
                        x, p + 1, what, ", ".join(N.card_name(c, y) for y in pile) or "none"))
            return
        else:
            raise ScenarioError("expect over | turn Pn | deck N | money|income|bonus Pn N | price COUNTRY N"
                                " | winner Pn ... | knife Pn TYPE|none | hand|table|sold Pn N|CARD ...")
        if got != want:
            raise ExpectError("expected %s %s, got %s" % (" ".join(w[:-1]) if what != "over" else "", want, got))


def run_script(text, cards, seed=1):
    return Script(cards, seed).run(text)
