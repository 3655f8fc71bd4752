"""Cheesonomics at the terminal (Rich): people against bots, hot seat.

Each person sees the table (market, prices, money, produced cheese, knives)
and only their own hand before any choice they make, and is told in private
which card another player chose for them (given, or taken from their shown
hand) and which cards they drew. A bot's move is followed by its reason
(bot.Bot.why). `help` works at every prompt. With two or more
people at one keyboard (hot seat) the keyboard is handed over before
anyone's private choice, so nobody sees another's hand: on a terminal each
player's private view is drawn on the alternate screen (as full-screen
programs do: ESC[?1049h on entering it, ESC[?1049l on leaving), so a hand
never reaches the main screen or its scrollback, which keep only what the
whole table sees (the hand-over prompts and what each turn did). Piped
output (no terminal) stays plain text. Typed commands are listed by `help`.
"""
from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from sim.cheesonomics import bot, driver
from sim.cheesonomics.engine import Game, MARKET, is_type
from sim.cheesonomics import names as N
from sim.rng import SeededRandom

HELP = """Your turn, one of:
  c TYPE                collect milk: name an animal or a place; every other
                        player passes you one, you pass one back to each
  p TYPE [N ...]        produce: lay your cards of TYPE (or only hand cards
                        number N ...) face up, then draw to 5
  s ANIMAL COUNTRY [K]  sell K pieces (1-3; default as many as you can)
  pass                  (final turns only) leave out your last turn
  quit                  stop the game
Names may be shortened: 'c go' collects goat, 's sh sw 3' sells 3 sheep
to Switzerland. help works at every prompt."""

CHOICE_HELP = "Type the number in [ ] of your choice and press Enter (quit stops the game)."
HANDOVER_HELP = ("Hot seat: the next player takes the keyboard and presses Enter; only then is their hand "
                 "shown, and it is hidden again before the keyboard goes on.")
HELP_WORDS = ("help", "h", "?")


class Quit(Exception):
    pass


class UI:
    def __init__(self, g, humans, console=None):
        self.g = g
        self.humans = humans            # seats played by people
        self.con = console or Console(highlight=False)
        self.hot_seat = len(humans) > 1
        self.viewer = -1 if self.hot_seat else (humans[0] if humans else -1)
        self.alt = False                # a private view is on the alternate screen
        self.public = []                # lines the table saw meanwhile, for the main screen
        self.inbox = {}                 # seat -> private lines for their next view
        self.fresh = False              # the viewer has seen the table as it is now
        self.unread = False             # the viewer was told something since they last typed

    def read(self, prompt, helptext, show_view=False):
        """One typed line; `help` prints helptext (and, with show_view, the
        viewer's hand again) and asks again; quit stops the game."""
        while True:
            try:
                s = self.con.input(prompt).strip()
            except EOFError:
                raise Quit()
            self.unread = False
            if s.lower() in ("quit", "exit", "q!"):
                raise Quit()
            if s.lower() not in HELP_WORDS:
                return s
            self.con.print(helptext)
            if show_view and 0 <= self.viewer < self.g.n:
                self.show_private(self.viewer)

    def ask(self, seat, prompt, helptext=CHOICE_HELP, options=()):
        """What `seat` types at prompt; options ("[1] cow/red" ...) follow it
        on the prompt's line, or stand on lines of their own above a short
        prompt when they would not fit."""
        self.handover(seat)
        line = "P%d %s" % (seat + 1, prompt)
        if options:
            full = "%s %s:" % (line, "  ".join(options))
            if len(full) < self.con.width - 8:
                line = full
            else:
                self.lines(line + ":", options)
                line = "%s (1-%d):" % (line, len(options))
        return self.read("[bold]P%d[/]%s " % (seat + 1, line[len("P%d" % (seat + 1)):]), helptext, show_view=True)

    def handover(self, seat, show=True):
        """Before a private choice: the chooser sees the table and their
        hand as they are now (show; a turn draws its own). Hot seat: leave
        the private view, wait until they have the keyboard, open theirs."""
        if self.viewer == seat:
            if show and not self.fresh:
                self.show_table()
                self.show_inbox(seat)
            return
        self.leave_private()
        self.con.print(Panel("Pass the keyboard to [bold]P%d[/] and press Enter." % (seat + 1)))
        self.read("", HANDOVER_HELP)
        self.enter_private()
        self.viewer = seat
        if show:
            self.show_table()
            self.show_inbox(seat)

    def enter_private(self):
        """A private view starts: on a terminal, on the cleared alternate
        screen (no scrollback; leaving it restores the main screen)."""
        if self.hot_seat and not self.alt and self.con.set_alt_screen(True):
            self.alt = True
            self.con.clear()

    def leave_private(self, pause=True):
        """Back to the main screen, which gets what the table saw meanwhile
        (hot seat, pause: once the viewer has read what they were last told)."""
        if self.viewer >= 0 and self.hot_seat:
            if self.unread and pause:
                self.read("[bold]P%d[/] press Enter to hide your hand. " % (self.viewer + 1),
                          "Your hand is hidden before the keyboard goes to the next player.")
            self.viewer = -1
        if not self.alt:
            return
        self.con.clear()
        self.con.set_alt_screen(False)
        self.alt = False
        for line in self.public:
            self.con.print("[cyan]%s[/]" % line)
        self.public = []

    def tell(self, seat, line):
        """Only `seat` may read this: now if it is their view, else at their next."""
        if seat == self.viewer:
            self.con.print("[magenta]%s[/]" % line)
            self.unread = True
        else:
            self.inbox.setdefault(seat, []).append(line)

    def show_inbox(self, seat):
        for line in self.inbox.pop(seat, []):
            self.con.print("[magenta]%s[/]" % line)

    # -- drawing -----------------------------------------------------------
    def show_table(self):
        """What the whole table sees, compact (a 24-line terminal keeps the
        last turns' news above it): the market by country, the players;
        then the viewer's hand. Side by side on a wide terminal."""
        g = self.g
        d = g.deck_count()
        title = "Market (deck: %d card%s%s)" % (d, "" if d == 1 else "s", ", game over" if g.over else
                                                 ", final turns" if g.final_turns() else "")
        m, ps = self._market(), self._players()
        if max(len(title), self.con.measure(m).maximum) + 4 + self.con.measure(ps).maximum <= self.con.width:
            both = Table.grid(padding=(0, 4))
            both.add_row(title, "Players")
            both.add_row(m, ps)
            self.con.print(both)
        else:
            self.con.print(title)
            self.con.print(m)
            self.con.print(ps)
        if 0 <= self.viewer < g.n:
            self.show_private(self.viewer)
            self.fresh = True

    def _market(self):
        g = self.g
        c = g.cards
        m = Table(box=None, pad_edge=False)
        for h in ("country", "price", "signs up"):
            m.add_column(h)
        for k in range(5):
            signs = [("$" * g.signs(i)) for i in range(MARKET) if c.country[g.mk[i]] == k]
            m.add_row(c.countries[k], str(g.price(k)) if signs else "-", " ".join(signs) or "not on the market")
        return m

    def _players(self):
        g = self.g
        c = g.cards
        ps = Table(box=None, pad_edge=False)
        for h in ("player", "money", "produced", "sold", "hand", "knife"):
            ps.add_column(h)
        if g.advanced:
            ps.add_column("market cards")
        for p in range(g.n):
            tag = "P%d%s%s" % (p + 1, " (you)" if p == self.viewer else "",
                               " plays" if p == g.cur and not g.over else "")
            prod = ", ".join("%d %s" % (g.table_count(p, a), c.animals[a]) for a in range(5) if g.table_count(p, a))
            knife = g.type_name(g.knife[p]) if g.knife[p] != 255 else ""
            if g.forbid[p] != 255:
                knife += " (forbids %s)" % c.marks[g.forbid[p]]
            row = [tag, str(g.money[p]), prod or "-", str(len(g.sold[p])), str(len(g.hands[p])), knife]
            if g.advanced:
                row.append(str(len(g.own[p])))
            ps.add_row(*row)
        return ps

    def lines(self, head, items):
        """head and items on as many lines as the terminal needs, never
        breaking an item ("[3] sheep/blue/trowel") in two."""
        w = max(40, self.con.width - 1)
        line = head
        for x in items:
            if len(line) + 2 + len(x) > w and line.strip():
                self.con.print(line, soft_wrap=True, markup=False)
                line = " " * min(len(head), 4)
            line += ("  " if line.strip() and line != head else " ") + x
        self.con.print(line, soft_wrap=True, markup=False)

    def show_private(self, p):
        g = self.g
        c = g.cards
        self.lines("Your hand:", ["[%d] %s" % (i + 1, N.card_name(c, x)) for i, x in enumerate(g.hands[p])])
        if g.table[p]:
            self.lines("Your cheese:", [N.card_name(c, x) for x in g.table[p]])
        if g.advanced:
            self.lines("Your market cards:", [N.market_name(c, m) for m in g.own[p]] or ["none"])

    def say(self, line):
        """A line the whole table sees (after a turn: the table has changed)."""
        self.con.print("[cyan]%s[/]" % line)
        if self.alt:
            self.public.append(line)
        self.fresh = False

    def step(self, agents, rng):
        """One turn: what the table saw, and a bot's reason for it."""
        p = self.g.cur
        self.say(driver.play_turn(self.g, agents, rng))
        why = getattr(agents[p], "why", "")
        if why:
            self.say("  why: %s" % why)


class Human:
    """A person at the terminal: every choice is a prompt."""

    def __init__(self, ui, seat):
        self.ui = ui
        self.seat = seat

    def _choose(self, p, prompt, cards, names, about=""):
        helptext = (about + "\n" if about else "") + CHOICE_HELP
        while True:
            s = self.ui.ask(p, prompt, helptext, ["[%d] %s" % (i + 1, names[i]) for i in range(len(names))])
            try:
                return cards[N.number(s, 1, len(cards), "choice") - 1]
            except N.NameError_ as e:
                self.ui.con.print("[red]%s[/]" % e)

    def turn(self, g, p):
        ui = self.ui
        ui.handover(p, show=False)
        ui.con.rule("P%d's turn" % (p + 1))
        ui.show_table()
        ui.show_inbox(p)
        while True:
            s = ui.ask(p, "your move (help):", HELP)
            w = s.split()
            if not w:
                continue
            try:
                act = self._parse(g, p, w)
            except N.NameError_ as e:
                ui.con.print("[red]%s[/]" % e)
                continue
            if act is not None:
                return act

    def _parse(self, g, p, w):
        c = g.cards
        cmd = w[0].lower()
        if cmd == "pass":
            if not g.final_turns():
                raise N.NameError_("only a final turn may be passed")
            return ("pass",)
        if cmd in ("c", "collect") and len(w) == 2:
            t = N.milk_type(w[1], c)
            q = g.locked_by(t, p)
            if q >= 0:
                raise N.NameError_("%s is locked by P%d's knife until their next turn" % (g.type_name(t), q + 1))
            return ("collect", t)
        if cmd in ("p", "produce") and len(w) >= 2:
            t = N.milk_type(w[1], c)
            if len(w) > 2:
                cards = []
                for x in w[2:]:
                    cards.append(g.hands[p][N.number(x, 1, len(g.hands[p]), "hand card") - 1])
            else:
                cards = [x for x in g.hands[p] if is_type(x, t)]
            if not cards:
                raise N.NameError_("you hold no %s" % g.type_name(t))
            for x in cards:
                if not is_type(x, t) or cards.count(x) > 1:
                    raise N.NameError_("%s is not %s (or twice)" % (N.card_name(c, x), g.type_name(t)))
            return ("produce", t, cards)
        if cmd in ("s", "sell"):
            for x in w[3:]:
                if x.lower() in N.ADVANCED_WORDS:
                    if not g.advanced:
                        raise N.NameError_(N.advanced_only(x.lower()))
                    raise N.NameError_("'%s': the special action and the exchange are asked for after the sale"
                                       % x.lower())
        if cmd in ("s", "sell") and len(w) in (3, 4):
            a = N.animal(w[1], c)
            k = N.country(w[2], c)
            pile = [x for x in g.table[p] if x // 20 == a]
            if not pile:
                raise N.NameError_("you have produced no %s cheese" % c.animals[a])
            if not g.price(k):
                raise N.NameError_("%s is not on the market" % c.countries[k])
            want = N.number(w[3], 1, 3, "number of pieces") if len(w) == 4 else min(3, len(pile))
            if want > len(pile):
                raise N.NameError_(N.too_few(c, a, len(pile)))
            pile = [x for x in pile if c.mark[x] != 255] + [x for x in pile if c.mark[x] == 255]
            return ("sell", a, k, pile[:want])
        raise N.NameError_("type help for the moves")

    def told(self, g, p, line):
        self.ui.tell(p, line)

    def give(self, g, q, t, p, opts):
        if len(opts) == 1:              # no choice: nothing to ask (nor a keyboard to pass)
            self.ui.tell(q, "P%d collects %s: you pass your only one, %s" % (
                p + 1, g.type_name(t), N.card_name(g.cards, opts[0])))
            return opts[0]
        self.ui.handover(q)
        self.ui.con.print("P%d collects %s: pass one of yours." % (p + 1, g.type_name(t)))
        return self._choose(q, "give P%d" % (p + 1), opts, [N.card_name(g.cards, x) for x in opts],
                            "P%d collects %s: each other player passes them one %s card of their choice; "
                            "then P%d passes one card back to each." % (p + 1, g.type_name(t), g.type_name(t), p + 1))

    def pick(self, g, p, q, t, opts):
        self.ui.handover(p)
        if len(opts) == len(g.hands[q]):
            self.ui.con.print("P%d has no %s and shows their hand: take one card of it." % (q + 1, g.type_name(t)))
        else:
            self.ui.lines("P%d has no %s and shows their hand (you may not take a forbidden mark):" % (
                q + 1, g.type_name(t)), [N.card_name(g.cards, x) for x in g.hands[q]])
        return self._choose(p, "take from P%d" % (q + 1), opts, [N.card_name(g.cards, x) for x in opts],
                            "P%d has no %s: they show their hand and you take the card you want from it."
                            % (q + 1, g.type_name(t)))

    def returns(self, g, p, hand, others):
        hand = list(hand)
        self.ui.handover(p)
        self.ui.con.print("Your hand now holds what you collected: pass one card back to each other player.")
        out = []
        for q in others:
            if not hand:
                break
            x = self._choose(p, "pass back to P%d" % (q + 1), hand, [N.card_name(g.cards, y) for y in hand],
                             "You collected: pass one card of your hand back to each other player "
                             "(best the ones you need least).")
            hand.remove(x)
            out.append(x)
        return out

    def after_sale(self, g, p, a, country, cards):
        self.ui.handover(p)
        c = g.cards
        own = list(g.own[p])
        marks = []
        for x in cards:
            if c.mark[x] != 255 and c.mark[x] not in marks:
                marks.append(c.mark[x])
        action = self._mark_action(g, p, own, marks) if marks else None
        replace = None
        if own and (action is None or action[0] != "trade"):
            pos = [i for i in range(MARKET) if c.country[g.mk[i]] == country]
            k = self._choose(p, "%s's cards" % c.countries[country], ["turn", "exchange"],
                             ["turn them over", "exchange one for one of yours"],
                             "The cards of the country you sold to change: turn them all over (as in the basic "
                             "game), or lay one of your own market cards in place of one of them (you take it).")
            if k == "exchange":
                i = self._choose(p, "which", pos, ["at %d: %s" % (x + 1, "$" * g.signs(x)) for x in pos],
                                 "Which %s card to take (its position on the market, the signs up)."
                                 % c.countries[country])
                m = self._choose(p, "lay", own, [N.market_name(c, x) for x in own],
                                 "Which of your market cards to lay in its place.")
                s = self._choose(p, "side up", [0, 1], ["A: %d" % c.sides[2 * m], "B: %d" % c.sides[2 * m + 1]],
                                 "Which side of it shows: the number is its signs.")
                replace = ("exchange", i, m, s)
        return action, replace

    def _mark_action(self, g, p, own, marks):
        """The special action of a sale with marked pieces (own: updated
        for a reserve swap), or None."""
        c = g.cards
        opts = ["none"]
        if g.reserve and own:
            opts.append("reserve")
        if own and any(g.own[q] for q in range(g.n) if q != p):
            opts.append("trade")
        opts.append("forbid")
        k = self._choose(p, "special mark (%s), action" % ", ".join(c.marks[m] for m in marks), opts, opts,
                         "A sold piece carries a special mark: you may take one action. reserve: discard one "
                         "of your market cards and take the reserve's top one; trade: give one of yours to an "
                         "opponent and take one of theirs, blind; forbid: until your next turn nobody may "
                         "take a card with that mark.")
        if k == "reserve":
            m = self._choose(p, "discard", own, [N.market_name(c, x) for x in own],
                             "The market card you give back to the reserve.")
            own.remove(m)
            own.append(g.reserve[0])
            return ("reserve", m)
        if k == "trade":
            qs = [q for q in range(g.n) if q != p and g.own[q]]
            q = self._choose(p, "trade with", qs, ["P%d" % (x + 1) for x in qs],
                             "The opponent you trade with: you take one of their market cards blind.")
            m = self._choose(p, "give", own, [N.market_name(c, x) for x in own],
                             "The market card you give them.")
            return ("trade", q, m, None)        # taken blind from P(q)'s fan
        if k == "forbid":
            f = self._choose(p, "forbid", marks, [c.marks[x] for x in marks],
                             "The mark nobody may take until your next turn.")
            return ("forbid", f)
        return None


def final_report(con, g):
    c = g.cards
    t = Table(title="Final count")
    for h in ("player", "sales", "unsold cheese", "most sold", "money"):
        t.add_column(h)
    for p in range(g.n):
        top = ", ".join("%s +%d" % (c.animals[a], g.top_bonus[a][0]) for a in range(5)
                        if g.top_bonus[a] is not None and p in g.top_bonus[a][1])
        t.add_row("P%d" % (p + 1), str(g.income[p]), "+%d" % g.unsold_bonus[p], top or "-", str(g.money[p]))
    con.print(t)
    con.print("[bold]Winner: %s[/] (%d turns each)" % (" and ".join("P%d" % (p + 1) for p in g.winners), g.turns[0]))


def play(cards, players, humans, advanced, seed):
    rng = SeededRandom(seed)
    g = Game(cards, players, rng, advanced=advanced)
    con = Console(highlight=False)
    ui = UI(g, list(range(humans)), con)
    agents = [Human(ui, p) if p < humans else bot.Bot(rng) for p in range(players)]
    con.print(Panel("Cheesonomics, %d players (%s), seed %d. P%d starts. %s" % (
        players, "advanced" if advanced else "basic", seed, g.first + 1,
        "Type help at any prompt." if humans else "Bots only.")))
    try:
        try:
            while not g.over:
                ui.step(agents, rng)
        finally:
            ui.leave_private(pause=False)   # never leave the terminal on the alternate screen
    except Quit:
        con.print("Game stopped.")
        return 0
    ui.viewer = -1
    ui.show_table()
    final_report(con, g)
    return 0


def summary(result):
    """A scenario's final state, readable."""
    con = Console(highlight=False)
    for line in result["log"]:
        con.print(line)
    t = Table(title="Cheesonomics (%s, %d players)%s" % (result["variant"], result["players"],
                                                          ": over" if result["over"] else ""))
    for h in ("player", "money", "hand", "produced", "sold"):
        t.add_column(h)
    for p in result["money"]:
        t.add_row(p, str(result["money"][p]), str(len(result["hands"][p])), str(len(result["table"][p])),
                  str(len(result["sold"][p])))
    con.print(t)
    con.print("prices: " + ", ".join("%s %d" % kv for kv in result["prices"].items()))
    if result["over"]:
        con.print("winner: " + " and ".join(result["winners"]))
    else:
        con.print("turn: %s, deck: %d" % (result["turn"], result["deck"]))
    return 0
