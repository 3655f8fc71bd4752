"""Cheesonomics on the box: the box is the market and the bank.

The players keep their milk-cheese cards in their hands; the box keeps the
15 market cards, the money, the draw deck's count, the knife locks and the
end-of-game arithmetic (bank.py). Each turn the active player enters what
they do at their own station: a value on the answer keys (or the dial),
confirmed with their buzzer, one step at a time (docs/cheesonomics-box.md):

  action   1 collect milk, 2 produce cheese, 3 sell cheese (0 pass: final turns only)
  collect  1 an animal or 2 a place, then which one (1-5)
  produce  how many cards laid out (1-5)
  sell     animal (1-5), country (1-5), pieces (1-3); advanced variant: the
           special mark it forbids (0 none, 1-5), then 0 to turn the country's
           cards over or k to exchange its k-th market card for one of the
           player's own (country 1-5, number 1-5, side 1-2)

ROLL goes back one step. Another player's buzzer shows their money for 3 s.
Dice 1-5 show each country's price in its colour, die 6 whose turn it is.
"""
from micropython import const

from cheesebox import sound, ticks
from cheesebox.display import OFF, STATION
from cheesebox.events import name
from cheesebox.font import rows_for
from cheesonomics.cardfile import NONE
from cheesonomics.scoring import RuleError

NAME = "cheesonomics"
MIN_PLAYERS = const(2)
MAX_PLAYERS = const(5)

# states (the box's own are JOIN = 0 and RESUME = 9)
_VARIANT = const(1)
_TURN = const(2)
_FINAL = const(3)
_LAYOUT = const(4)       # advanced: the dice show the market cards to lay out, sector by sector
STATE_NAMES = ("join", "variant", "turn", "final", "layout")

# entry steps: (lowest, highest) value, the track colour that says which step
ACT = const(0)
KIND = const(1)
WHICH = const(2)
COUNT = const(3)
ANIMAL = const(4)
COUNTRY = const(5)
PIECES = const(6)
MARK = const(7)
SWAP = const(8)
CARD_C = const(9)
CARD_N = const(10)
SIDE = const(11)
STEP_NAMES = ("action", "animal or place", "which", "cards", "animal", "country", "pieces",
              "forbid mark", "exchange", "card's country", "card's number", "side")
LOW = (0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1)
HIGH = (3, 2, 5, 5, 5, 5, 3, 5, 5, 5, 5, 2)
WHITE = (255, 255, 255)
AMBER = (255, 170, 0)
GREEN = (0, 200, 0)
CYAN = (0, 200, 200)
MAGENTA = (220, 0, 220)
PLACE = (0, 90, 255)
STEP_RGB = (WHITE, AMBER, AMBER, GREEN, AMBER, None, GREEN, MAGENTA, CYAN, CYAN, CYAN, CYAN)
# the five countries' colours (cards.json order), on dice 1-5
COUNTRY_RGB = ((0, 90, 255), (0, 200, 0), (255, 0, 0), (255, 120, 0), (200, 0, 255))
DIM = (60, 60, 60)

_NO_VALUE = const(255)
_BLINK_MS = const(250)
_MONEY_MS = const(3000)          # money on demand stays up this long
_CYCLE_MS = const(2000)          # the final screen shows each player this long
COIN = b"\x3c\x7e\xff\xff\xff\xff\x7e\x3c"


def picked(box):
    """The table is offered Cheesonomics: nothing to read yet (the card list
    is read when a game starts or resumes, so the offer costs no heap)."""


def fits(board):
    """Why this board cannot host the game, or ""."""
    if not board.electronic:
        return ("cheesonomics needs answer keys or dials at the stations to enter each turn: "
                "board %s has plate cards" % board.name)
    return ""


def draw_join(box, joined):
    """The joining screen: the market (five coins in the countries' colours)
    and, on die 6, how many have joined (red outside 2-5)."""
    d = box.display
    for i in range(5):
        d.pattern(i, COIN, COUNTRY_RGB[i], "coin")
    rows = bytearray(8)
    rgb = WHITE if MIN_PLAYERS <= joined <= MAX_PLAYERS else (255, 0, 0)
    d.pattern(5, rows_for(str(joined), rows), rgb, "n%d%d" % (joined, rgb[1]))


def new(box, players):
    return Companion(box, players)


def _load_cards():
    from cheesonomics.cardfile import load
    return load()


def unpack(box, d):
    """A saved game checked field by field; raises saying why it is unusable
    (RuleError is a ValueError)."""
    from cheesonomics.bank import restore
    stations = d["stations"]
    if not isinstance(stations, list) or not MIN_PLAYERS <= len(stations) <= MAX_PLAYERS:
        raise ValueError("saved stations: %r" % (stations,))
    for s in stations:
        if type(s) is not int or not 0 <= s < box.n or stations.count(s) != 1:
            raise ValueError("saved station %r is not one here" % (s,))
    cards = _load_cards()
    bank = restore(cards, d["bank"])
    if bank.n != len(stations):
        raise ValueError("saved bank has %d players, %d stations" % (bank.n, len(stations)))
    return (stations, bank, cards)


def render_saved(box, saved):
    """While the box offers the saved game: its players' tracks in their colours."""
    d = box.display
    stations = saved[0]
    for s in range(box.n):
        d.score(s, 7 if s in stations else 0, STATION[s])
        d.wheel(s, OFF)


def resume(box, saved):
    stations, bank, cards = saved
    g = Companion(box, stations, cards)
    g.bank = bank
    g.advanced = bool(bank.advanced)
    box.log("resume", {"round": sum(bank.turns), "points": {}})
    if bank.over:
        g.set_state(_FINAL)
    elif g.advanced and not sum(bank.turns):
        g.set_state(_LAYOUT)             # cut while the table laid the cards out
    else:
        g.set_state(_TURN)
    return g


class Companion:
    """One Cheesonomics game at the table, the box as market and bank."""

    def __init__(self, box, players, cards=None):
        self.box = box
        self.stations = list(players)   # seat i plays at station stations[i], clockwise
        self.cards = cards if cards is not None else _load_cards()
        self.advanced = box.keep.get("advanced", False)     # the table's last choice
        self.bank = None
        self.state = _VARIANT
        self.state_at = box.now
        self.values = bytearray(12)     # the entry so far, one value a step
        self.k = 0                      # values entered this turn
        self.sel = _NO_VALUE             # the active player's value now (keys, dial)
        self.money_s = -1               # station whose money is shown, until money_until
        self.money_until = 0
        self.page = 0                   # the layout's sector on the dice
        self.rows = bytearray(8)

    def start(self):
        self.set_state(_VARIANT)
        self.box.tunes.play(sound.MENU, self.box.now)

    # -- what the box asks ------------------------------------------------
    def state_name(self):
        return STATE_NAMES[self.state]

    rolling = False                     # no animation: no quiet moment needed

    def in_game(self):
        return self.state == _TURN

    def status(self, fields):
        b = self.bank
        fields["variant"] = "advanced" if self.advanced else "basic"
        if b is not None:
            fields["money"] = dict((name(self.stations[p]), b.money[p]) for p in range(b.n))
            fields["turn"] = name(self.stations[b.cur]) if not b.over else None
            fields["deck"] = b.deck
            fields["step"] = STEP_NAMES[self._step()] if self.state == _TURN else None

    def snapshot(self):
        return {"stations": list(self.stations), "bank": self.bank.snapshot()}

    def step_name(self):
        """What the active player enters now, in words (the simulator's hint)."""
        st = self._step()
        return "%s %d-%d" % (STEP_NAMES[st], LOW[st], HIGH[st])

    def seat(self, s):
        """The seat playing at station s, or -1."""
        for p in range(len(self.stations)):
            if self.stations[p] == s:
                return p
        return -1

    def active(self):
        """The station whose turn it is (-1 outside a turn)."""
        if self.state != _TURN:
            return -1
        return self.stations[self.bank.cur]

    # -- inputs -----------------------------------------------------------
    def on_gesture(self, s):
        """ROLL held, then a buzzer: nothing in this game."""

    def on_answer(self, s, value):
        if s == self.active():
            self.sel = value
            self._changed()

    def on_buzz(self, s, t_us):
        box = self.box
        if self.state == _VARIANT:
            self.advanced = not self.advanced
            box.keep["advanced"] = self.advanced
            box.tunes.play(sound.MENU, box.now)
            self._changed()
            return
        if self.state == _LAYOUT:
            self._next_page()
            return
        if self.state == _TURN and s == self.active():
            v = box.plate_at(s, t_us)
            if not box.dials:
                box.plates_from(t_us)       # a key counts for one step
                self.sel = _NO_VALUE
            self._enter(s, v)
            return
        if self.seat(s) >= 0 and self.bank is not None:
            # money on demand
            self.money_s = s
            self.money_until = ticks.add(box.now, _MONEY_MS)
            self._changed()

    def on_roll(self, t_us):
        box = self.box
        if self.state == _VARIANT:
            self._new_game()
        elif self.state == _LAYOUT:
            self._next_page()
        elif self.state == _TURN:
            if self.k > 0:
                self.k -= 1                 # back one step
                box.tunes.play(sound.TAKE_BACK, box.now)
                self._changed()
        elif self.state == _FINAL:
            self.set_state(_VARIANT)         # another game, the same players

    def on_long_roll(self, t_us):
        if self.state != _TURN:
            self.box.back_to_join()

    # -- the game ---------------------------------------------------------
    def _new_game(self):
        from cheesonomics.bank import Bank
        box = self.box
        self.bank = Bank(self.cards, len(self.stations), box.rng, self.advanced)
        box.games += 1
        self.set_state(_LAYOUT if self.advanced else _TURN)
        b = self.bank
        box.log("market", {"players": [name(s) for s in self.stations],
                           "variant": "advanced" if self.advanced else "basic",
                           "first": name(self.stations[b.first]),
                           "prices": [b.price(c) for c in range(5)], "deck": b.deck,
                           # the cards to lay out (advanced: the other 10 are dealt)
                           "cards": [b.card_label(b.mk[i]) + "/" + "AB"[b.side[i]]
                                     for i in range(15)]})
        box.tunes.play(sound.ROLL, box.now)
        self._save()

    def _next_page(self):
        """The table has laid out this sector's cards: the next, then play."""
        self.page += 1
        self.box.tunes.play(sound.MENU, self.box.now)
        if self.page >= 3:
            self.set_state(_TURN)
        else:
            self._changed()

    def _save(self):
        if self.bank.over:
            self.box.save(None)
        else:
            self.box.save(self.snapshot())

    def _step(self):
        """The step the active player is on, from the values entered so far."""
        k = self.k
        if k == 0:
            return ACT
        act = self.values[0]
        if act == 1:
            return KIND if k == 1 else WHICH
        if act == 2:
            return COUNT
        # sell
        if k <= 3:
            return (ANIMAL, COUNTRY, PIECES)[k - 1]
        if k == 4:
            return MARK
        if k == 5:
            return SWAP
        return (CARD_C, CARD_N, SIDE)[k - 6]

    def _complete(self):
        """True when the values entered make a whole action."""
        k = self.k
        act = self.values[0]
        if act == 0:
            return True
        if act == 1:
            return k == 3
        if act == 2:
            return k == 2
        if not self.advanced:
            return k == 4
        if k < 6:
            return False
        return self.values[5] == 0 or k == 9

    def _enter(self, s, v):
        box = self.box
        st = self._step()
        if v == _NO_VALUE or v < LOW[st] or v > HIGH[st]:
            box.tunes.play(sound.TOO_SOON, box.now)     # no value, or not one of this step's
            return
        self.values[self.k] = v
        self.k += 1
        self._changed()
        if st == ACT and v == 0 and not self.bank.final_turns():
            self._refuse(s, "a turn may be passed only in the final turns")
            return
        if not self._complete():
            box.tunes.play(sound.MENU, box.now)
            return
        self._act(s)

    def _refuse(self, s, why):
        box = self.box
        self.k = 0
        self._changed()
        for p in range(len(self.stations)):     # the rules count seats; the table, stations
            why = why.replace("player %d" % (p + 1), name(self.stations[p]))
        box.log("not_allowed", {"p": name(s), "why": why})
        box.tunes.play(sound.REFUSED, box.now)

    def _act(self, s):
        box = self.box
        b = self.bank
        p = b.cur
        v = self.values
        cards = self.cards
        fields = {"p": name(s)}
        try:
            act = v[0]
            if act == 0:
                b.pass_turn()
                fields["act"] = "pass"
            elif act == 1:
                t = (v[1] - 1) * 5 + v[2] - 1
                b.collect(t)
                fields["act"] = "collect"
                fields["type"] = cards.animals[t] if t < 5 else cards.places[t - 5]
            elif act == 2:
                b.produce(v[1])
                fields["act"] = "produce"
                fields["cards"] = v[1]
            else:
                a, c, k = v[1] - 1, v[2] - 1, v[3]
                price = b.price(c)
                mark = None
                swap = None
                if self.advanced:
                    if v[4]:
                        mark = v[4] - 1
                    if v[5]:
                        pos = b.country_positions(c)
                        if v[5] > len(pos):
                            raise RuleError("%s has %d market cards, not %d"
                                            % (cards.countries[c], len(pos), v[5]))
                        swap = (pos[v[5] - 1], b.card_by_label(v[6] - 1, v[7]), v[8] - 1)
                b.sell(a, c, k, mark, swap)
                fields["act"] = "sell"
                fields["animal"] = cards.animals[a]
                fields["country"] = cards.countries[c]
                fields["pieces"] = k
                fields["paid"] = price * k
                if mark is not None:
                    fields["forbid"] = cards.marks[mark]
                if swap is not None:
                    fields["exchange"] = b.card_label(swap[1])
                fields["prices"] = [b.price(x) for x in range(5)]
        except RuleError as e:
            self._refuse(s, str(e))
            return
        fields["money"] = b.money[p]
        fields["deck"] = b.deck
        box.log("action", fields)
        if not box.dials:
            box.plates_from(box.ticks_us())    # the next player starts with no key
        if b.over:
            self._final()
        else:
            box.tunes.play(sound.GRAB, box.now)
            self.set_state(_TURN)            # the next player (dice and tracks)
        self._save()

    def _final(self):
        box = self.box
        b = self.bank
        st = self.stations
        box.log("final", {"money": dict((name(st[p]), b.money[p]) for p in range(b.n)),
                          "bonus": dict((name(st[p]), b.bonus[p]) for p in range(b.n)),
                          "winners": [name(st[p]) for p in b.winners]})
        self.set_state(_FINAL)
        box.tunes.play(sound.WIN, box.now)

    def set_state(self, st):
        box = self.box
        self.state = st
        self.state_at = box.now
        if st == _LAYOUT:
            self.page = 0
        if st == _TURN:
            # a turn starts: nothing entered yet; a dial shows its value at
            # once (it reports only when it moves); the active player's own
            # money never covers their turn
            self.k = 0
            s = self.active()
            self.sel = box.plate_now(s) if box.dials else _NO_VALUE
            if self.money_s == s:
                self.money_s = -1
        self._changed()

    def _changed(self):
        """The entry or the state changed: tracks and dice drawn again."""
        self.box.redraw = True
        if self.box.animate:
            self.box.show_tracks()          # the press's LEDs before the dice
            self.render_dice()

    # -- timers -----------------------------------------------------------
    def timers(self, now):
        if self.money_s >= 0 and ticks.diff(now, self.money_until) >= 0:
            self.money_s = -1
            self._changed()

    def timer_wake(self, now):
        w = -1
        if self.money_s >= 0:
            w = max(0, ticks.diff(self.money_until, now))
        if self.box.animate and self.state != _VARIANT:
            b = _BLINK_MS - ticks.diff(now, self.state_at) % _BLINK_MS
            if w < 0 or b < w:
                w = b
        return w

    # -- drawing ----------------------------------------------------------
    def look(self, now):
        """Blink phase (and the final screen's page): redraw when it changes."""
        since = ticks.diff(now, self.state_at)
        blink = (since // _BLINK_MS) % 2
        page = 0
        if self.state == _FINAL:
            page = (since // _CYCLE_MS) % self.bank.n
        elif self.state == _TURN and self._step() == COUNTRY:
            self._draw_prices(blink)
        if self.state == _FINAL:
            self._draw_final(page)
        return blink + 2 * page     # page < 5

    def render_dice(self):
        d = self.box.display
        rows = self.rows
        if self.state == _VARIANT:
            # 1 coin: basic; coins on all five: advanced (a buzzer switches)
            for i in range(5):
                if i == 0 or self.advanced:
                    d.pattern(i, COIN, COUNTRY_RGB[i], "coin")
                else:
                    d.die(i, "blank")
            d.pattern(5, rows_for("+" if self.advanced else "-", rows), WHITE,
                      "adv" if self.advanced else "basic")
            return
        if self.state == _FINAL:
            self._draw_final(0)
            return
        if self.state == _LAYOUT:
            self._draw_layout()
            return
        self._draw_prices(0)
        if self.money_s >= 0:
            self._money(4, self.bank.money[self.seat(self.money_s)], self.money_s)
            return
        s = self.active()
        d.pattern(5, rows_for("P%d" % (s + 1), rows), STATION[s], "P%d" % s)

    def _draw_layout(self):
        """Advanced: sector page+1's five market cards, each as its number among
        its country's cards and the side up ("3B": the third Italy card, side B,
        in Italy's colour); die 6 the sector. The cards never shown are dealt."""
        d = self.box.display
        b = self.bank
        cs = self.cards.country
        for i in range(5):
            pos = self.page * 5 + i
            m = b.mk[pos]
            text = "%d%s" % (b.card_number(m), "AB"[b.side[pos]])
            d.pattern(i, rows_for(text, self.rows), COUNTRY_RGB[cs[m]], "L%d%s" % (cs[m], text))
        d.pattern(5, rows_for(str(self.page + 1), self.rows), WHITE, "S%d" % self.page)

    def _draw_prices(self, blink):
        d = self.box.display
        rows = self.rows
        chosen = -1
        if self.state == _TURN and self._step() == COUNTRY and self.sel != _NO_VALUE:
            chosen = self.sel - 1
        top = 4 if self.money_s >= 0 else 5
        for c in range(top):
            if c == chosen and blink:
                d.die(c, "blank")
                continue
            price = self.bank.price(c)
            if price == 0:
                d.pattern(c, rows_for("-", rows), DIM, "-")
            else:
                d.pattern(c, rows_for(str(price), rows), COUNTRY_RGB[c], "p%d.%d" % (c, price))

    def _draw_final(self, page):
        """One player a page, in turn order: die 1 who, dice 2-3 their money,
        die 6 a crown for a winner. Winners' tracks blink meanwhile."""
        d = self.box.display
        b = self.bank
        p = page % b.n
        s = self.stations[p]
        d.pattern(0, rows_for("P%d" % (s + 1), self.rows), STATION[s], "P%d" % s)
        self._money(1, b.money[p], s)
        d.die(3, "blank")
        d.die(4, "blank")
        d.die(5, "crown" if p in b.winners else "blank")

    def _money(self, die, m, s):
        """Money m (0-9999) on dice `die` and `die` + 1, in station s's colour."""
        d = self.box.display
        text = "%4d" % (m if m < 10000 else 9999)
        d.pattern(die, rows_for(text[:2], self.rows), STATION[s], "m%s%d" % (text[:2], s))
        d.pattern(die + 1, rows_for(text[2:], self.rows), STATION[s], "m%s.%d" % (text[2:], s))

    def draw_tracks(self, now, look):
        box = self.box
        d = box.display
        blink = look & 1
        b = self.bank
        act = self.active()
        for s in range(box.n):
            p = self.seat(s)
            if p < 0:
                d.score(s, 0, OFF)
                d.wheel(s, OFF)
                continue
            if self.state == _VARIANT or self.state == _LAYOUT or b is None:
                d.score(s, 7, STATION[s])
                d.wheel(s, OFF)
                continue
            if self.state == _FINAL:
                won = p in b.winners
                d.score(s, 7 if won and blink else 0, STATION[s])
                d.wheel(s, STATION[s] if won else OFF)
                continue
            if s == self.money_s:
                d.score(s, 7, STATION[s])       # whose money the dice show
                d.wheel(s, STATION[s])
                continue
            if s == act:
                # the entry: the chosen value as that many LEDs in the step's colour
                st = self._step()
                v = self.sel if self.sel != _NO_VALUE else 0
                rgb = STEP_RGB[st]
                if rgb is None:
                    rgb = COUNTRY_RGB[v - 1] if 1 <= v <= 5 else WHITE
                d.score(s, v if v <= 7 else 7, rgb)
                d.wheel(s, STATION[s] if blink else OFF)
                continue
            t = b.knife[p]
            if t != NONE:
                # the knife: 1-5 LEDs = the locked animal (amber) or place (blue)
                d.score(s, 0, OFF, (t % 5) + 1, AMBER if t < 5 else PLACE)
            else:
                d.score(s, 0, OFF)
            d.wheel(s, OFF)
