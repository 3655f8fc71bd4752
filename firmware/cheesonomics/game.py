"""Cheesonomics on the box: the box is the market and the bank.

The players keep their milk-cheese cards in their hands; the box keeps the
15 market cards, the money, the draw deck's count, the knife locks and the
end-of-game arithmetic (bank.py). Each turn the active player enters what
they do at their own station (entry.py has the steps and their checks):
on answer keys each key is a value, taken or refused at once, and one
buzzer press confirms the whole action; on a dial the buzzer confirms the
dial's value one step at a time (docs/cheesonomics-box.md).

ROLL goes back one step; with nothing keyed it shows the deck count and the
active player's money. ROLL held 0.3 s then the buzzer of the player who
played last undoes that action (until the next player keys a value).
Another player's buzzer shows their money for 3 s. Dice 1-5 show each
country's price in its colour, die 6 whose turn it is or the step.
"""
from array import array

from micropython import const

from cheesebox import sound, ticks
from cheesebox.display import OFF, STATION
from cheesebox.events import name
from cheesebox.font import rows_for
from cheesonomics.cardfile import NONE
from cheesonomics.entry import (COUNTRY, STEP_NAMES, STEP_SIGNS, LOW, Entry, card_kind, high, kind_name,
                                value_name)
from cheesonomics.scoring import RuleError

NAME = "cheesonomics"
ICONS = None            # the shell's icons and the font are all it draws
MIN_PLAYERS = const(2)
MAX_PLAYERS = const(5)

# states (the box's own are JOIN = 0 and RESUME = 9)
_VARIANT = const(1)
_TURN = const(2)
_FINAL = const(3)
_LAYOUT = const(4)       # advanced: the dice show the market cards to lay out, sector by sector
STATE_NAMES = ("join", "variant", "turn", "final", "layout")

# the track colour of each entry step (entry.py order); the step is also
# told by position (keys: one LED per value keyed) and letter (die 6)
WHITE = (255, 255, 255)
AMBER = (255, 170, 0)
GREEN = (0, 200, 0)
CYAN = (0, 200, 200)
MAGENTA = (220, 0, 220)
PLACE = (0, 90, 255)
REFUSE_RGB = (255, 0, 0)
STEP_RGB = (WHITE, AMBER, GREEN, AMBER, None, GREEN, MAGENTA, CYAN, CYAN, CYAN)
# the five countries' colours (cards.json order), on dice 1-5
COUNTRY_RGB = ((0, 90, 255), (0, 200, 0), (255, 0, 0), (255, 120, 0), (200, 0, 255))
DIM = (60, 60, 60)

_NO_VALUE = const(255)
_BLINK_MS = const(250)
_MONEY_MS = const(3000)          # money, deck or a sale's sum on the dice this long
_REFUSE_MS = const(1200)         # a refusal's sign on the station
_CONFIRM_MS = const(300)         # dials: a buzzer confirms a step this long after the last
_NAME_MS = const(2000)           # die 6 names the value keyed (or dialled) this long
_DIAL_CYCLE_MS = const(2500)     # dials: the track shows the value, then the step for
_STEP_SHOWN_MS = const(500)      # this long (a new step: the step first)
_SHOW_MONEY = const(1)           # what the dice show for a moment (show_what)
_SHOW_LOOK = const(2)            # the deck count and the active player's money
_SHOW_SALE = const(3)            # what a sale paid (die 6, underlined), the prices kept
_SHOW_UNDO = const(4)            # an action undone: a turning-back arrow on die 6
_CYCLE_MS = const(2000)          # the final screen shows each line of the count this long
# the final count's lines (page = seat * 16 + line): sales, the unsold
# pieces' bonus, the most sold of an animal (2-6: cow-camel), the total;
# after everyone's, the winners
_L_SALES = const(0)
_L_UNSOLD = const(1)
_L_ANIMAL = const(2)
_L_TOTAL = const(7)
_L_WINNERS = const(8)
_FINAL_SIGN_MS = const(1000)     # the final turns: die 6 turns between whose turn and "F" + turns left
_SIGNS_MS = const(1000)          # the layout: a card's signs this long, then its country's number
_CARD_MS = const(1500)
COIN = b"\x3c\x7e\xff\xff\xff\xff\x7e\x3c"
# whose money (die 5's text and key; die 6's coin key, one a station): constants,
# so that the second that says whose allocates nothing
_WHO = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8")
_COIN_KEY = ("$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8")
UNDO = b"\x20\x60\xfe\x62\x22\x02\x3e\x00"      # an arrow turning back


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
    (RuleError is a ValueError). The action that can still be undone is
    checked as a bank too."""
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
    undo = d.get("undo")
    if undo is not None:
        if restore(cards, undo).n != bank.n:
            raise ValueError("saved undo has another number of players")
    return (stations, bank, cards, undo)


def render_saved(box, saved):
    """While the box offers the saved game: its players' tracks in their colours."""
    d = box.display
    stations = saved[0]
    for s in range(box.n):
        d.score(s, 7 if s in stations else 0, STATION[s])
        d.wheel(s, OFF)


def resume(box, saved):
    stations, bank, cards, undo = saved
    g = Companion(box, stations, cards)
    g.bank = bank
    g.undo = undo
    g.advanced = bool(bank.advanced)
    if bank.over:
        g.set_state(_FINAL)
    elif g.advanced and not sum(bank.turns):
        g.set_state(_LAYOUT)             # cut while the table laid the cards out
    else:
        g.set_state(_TURN)
    box.log("resume", {"game": NAME, "turns": sum(bank.turns), "deck": bank.deck,
                       "turn": None if bank.over else name(stations[bank.cur]),
                       "money": dict((name(stations[p]), bank.money[p]) for p in range(bank.n)),
                       "screen": STATE_NAMES[g.state]})
    return g


class Companion:
    """One Cheesonomics game at the table, the box as market and bank."""

    def __init__(self, box, players, cards=None):
        self.box = box
        self.stations = list(players)   # seat i plays at station stations[i], clockwise
        self.seats = bytearray(8)       # station -> its seat + 1 (0: not playing)
        self.playing = 0                # bit s: station s plays
        for p in range(len(self.stations)):
            self.seats[self.stations[p]] = p + 1
            self.playing |= 1 << self.stations[p]
        self.cards = cards if cards is not None else _load_cards()
        self.advanced = box.keep.get("advanced", False)     # the table's last choice
        self.bank = None
        self.state = _VARIANT
        self.state_at = box.now
        self.entry = Entry(box.dials)   # the active player's values so far
        self.sel = _NO_VALUE             # a dial's value now
        self.sel_at = box.now           # dials: when it moved or a step began (the track's phase)
        self.named = ""                 # die 6: the name of the value keyed or dialled, until named_until
        self.named_until = 0
        self.show_what = 0              # what the dice show for a moment (_SHOW_*), until show_until
        self.show_s = -1                # whose (money: that station; sale: the seller)
        self.show_until = 0
        self.sale = (0, 0)              # the last sale's price and pieces
        self.refuse_until = -1          # the active station shows a refusal until then (-1: none)
        self.no_s = -1                  # another station shows a refused undo until no_until
        self.no_until = 0
        # dials: the ms of each station's last confirmed step (300 ms apart
        # at one station; another player's press never holds this one's)
        self.confirmed = array("i", [ticks.add(box.now, -_CONFIRM_MS)] * 8)
        self.shown_k = -1               # dials: the step the station shows (values keyed)
        self.undo = None                # the bank before the last action (a snapshot), or None
        self.saved_bank = None          # the bank's snapshot in the last save (None: changed since)
        self.final_said = False
        self.page = 0                   # the layout's sector on the dice
        self.lines = None               # the final count's lines (bytes), built on the final screen
        self.rows = bytearray(8)
        self.dice_later = False         # look() leaves the dice to render_dice (see _changed)
        self.die6_key = None            # the key die 6 showed when look() last drew it, at die6_page
        self.die6_page = -1
        self.keyed = None               # the bank's prices list price_keys were built from
        self.price_keys = [""] * 5

    @property
    def k(self):
        return self.entry.k

    def start(self):
        self.set_state(_VARIANT)
        self.box.tunes.play(sound.MENU, self.box.now)
        self._log_variant()

    def _log_variant(self):
        """The variant screen is up, or its choice turned: said in the log,
        so a screen that follows the log knows it is open and on what."""
        self.box.log("variant", {"variant": "advanced" if self.advanced else "basic"})

    # -- what the box asks ------------------------------------------------
    def state_name(self):
        return STATE_NAMES[self.state]

    rolling = False                     # no animation: no quiet moment needed

    def in_game(self):
        return self.state == _TURN

    def in_progress(self):
        """A long ROLL asks "stop?" (box.py): from the layout to the last turn.
        On the variant choice and the final screen it goes back to joining."""
        return self.state == _TURN or self.state == _LAYOUT

    def paused(self, ms):
        """"stop?" answered no after ms: what the dice show for a moment, a
        refusal's sign and the blinks go on where they were."""
        self.state_at = ticks.add(self.state_at, ms)
        self.show_until = ticks.add(self.show_until, ms)
        if self.refuse_until != -1:
            self.refuse_until = ticks.add(self.refuse_until, ms)
        self.no_until = ticks.add(self.no_until, ms)
        self.named_until = ticks.add(self.named_until, ms)
        for s in range(8):
            self.confirmed[s] = ticks.add(self.confirmed[s], ms)
        self._changed()

    def status(self, fields):
        b = self.bank
        fields["variant"] = "advanced" if self.advanced else "basic"
        if b is not None:
            fields["money"] = dict((name(self.stations[p]), b.money[p]) for p in range(b.n))
            fields["turn"] = name(self.stations[b.cur]) if not b.over else None
            fields["deck"] = b.deck
            fields["step"] = STEP_NAMES[self.entry.step()] if self.state == _TURN else None
            fields["undo"] = self.undo is not None

    def snapshot(self):
        return {"stations": list(self.stations), "bank": self.bank.snapshot(), "undo": self.undo}

    def step_name(self):
        """What the active player enters now, in words (the simulator's hint)."""
        e = self.entry
        if self.bank is not None and e.complete(self.advanced):
            return "confirm (buzzer)"
        st = e.step()
        return "%s %d-%d" % (STEP_NAMES[st], LOW[st], high(st, e.dials))

    def seat(self, s):
        """The seat playing at station s, or -1."""
        return self.seats[s] - 1

    def active(self):
        """The station whose turn it is (-1 outside a turn)."""
        if self.state != _TURN:
            return -1
        return self.stations[self.bank.cur]

    def left_in_final(self, p):
        """Seat p still has a final turn to play (the deck has run out)."""
        b = self.bank
        if b is None or b.over or not b.final_turns():
            return False
        return (p - b.first) % b.n >= (b.cur - b.first) % b.n

    # -- inputs -----------------------------------------------------------
    def on_gesture(self, s):
        """ROLL held, then a buzzer: that player's last action is undone."""
        box = self.box
        if self.undo is None or self.state not in (_TURN, _FINAL) or self.entry.k:
            self._say_no(s, "nothing to undo")
            return
        from cheesonomics.bank import restore
        snap = self.undo
        p = snap["cur"]
        if self.stations[p] != s:
            self._say_no(s, "only %s can undo their action" % name(self.stations[p]))
            return
        self.bank = restore(self.cards, snap)
        self.saved_bank = None
        self.undo = None
        self.final_said = self.bank.final_turns()
        box.log("undo", {"p": name(s), "money": self.bank.money[p], "deck": self.bank.deck,
                         "prices": list(self.bank.prices())})
        box.tunes.play(sound.TAKE_BACK, box.now)
        # seen as well as heard: die 6 turns back (in the player's colour) for
        # 3 s or until they key a value again, the prices as they were
        self.show_what = _SHOW_UNDO
        self.show_s = s
        self.show_until = ticks.add(box.now, _MONEY_MS)
        self.set_state(_TURN)
        self._save()

    def _say_no(self, s, why):
        """A refused undo: the station's track blinks red as a refusal does
        (and the active player's die 6 shows the cross), then the words and
        the tune."""
        box = self.box
        if s == self.active():
            self.refuse_until = ticks.add(box.now, _REFUSE_MS)
        else:
            self.no_s = s
            self.no_until = ticks.add(box.now, _REFUSE_MS)
        self._changed()
        box.log("not_allowed", {"p": name(s), "why": why})
        box.tunes.play(sound.REFUSED, box.now)

    def on_answer(self, s, value):
        act = self.active()
        if s != act:
            # keys or a dial of a player whose turn it is not: seen at
            # their station, not silently ignored (a station nobody plays
            # at takes nothing)
            if self.seat(s) < 0:
                return
            if self.box.dials and self.no_s == s:
                # a dial turned on through its sign: the sign lasts, said once
                self.no_until = ticks.add(self.box.now, _REFUSE_MS)
                return
            self._say_no(s, "not your turn: %s plays" % name(act) if act >= 0
                         else "no turn now: the keys and dials key a turn")
            return
        if self.box.dials:
            self.sel = value
            self.sel_at = self.box.now      # the value at once while it turns
            self._name(self.entry.step(), value)
            self._changed()
        else:
            self._offer(s, value)

    def on_buzz(self, s, t_us):
        box = self.box
        if self.state == _VARIANT:
            self.advanced = not self.advanced
            box.keep["advanced"] = self.advanced
            box.tunes.play(sound.MENU, box.now)
            self._changed()
            self._log_variant()
            return
        if self.state == _LAYOUT:
            self._next_page()
            return
        if self.state == _TURN and s == self.active():
            if box.dials:
                self._confirm_dial(s, t_us)
            elif self.entry.complete(self.advanced):
                self._act(s)
            elif self.entry.k == 0:
                self._show(_SHOW_LOOK, s)   # your own money (and the deck) in your turn
            else:
                self._refuse(s, "the action is not complete: %s next" % STEP_NAMES[self.entry.step()])
            return
        if self.state == _FINAL and self.seat(s) >= 0:
            self._count_from(self.seat(s))  # that player's count, from its first line
            return
        if self.seat(s) >= 0 and self.bank is not None:
            self._show(_SHOW_MONEY, s)      # money on demand

    def _confirm_dial(self, s, t_us):
        """A dial's value for this step, once the station shows the step and
        300 ms after the last step (a double tap enters one step)."""
        box = self.box
        since = ticks.diff(box.now, self.confirmed[s])
        if box.animate and self.shown_k != self.entry.k or 0 <= since < _CONFIRM_MS:
            self._refuse(s, "too soon: a dial's step counts 300 ms after the last, once shown", sound.TOO_SOON)
            return
        v = box.plate_at(s, t_us)
        if v == _NO_VALUE:
            self._refuse(s, "the dial has not been read yet: turn it", sound.TOO_SOON)
            return
        if self._offer(s, v):
            self.confirmed[s] = box.now
            self._step_first()
            if self.entry.complete(self.advanced):
                self._act(s)

    def _step_first(self):
        """Dials: a new step shows first where it stands (as on keys), then
        the dial's value."""
        self.sel_at = ticks.add(self.box.now, _STEP_SHOWN_MS - _DIAL_CYCLE_MS)

    def _dial_step_phase(self, now):
        """Dials: the track shows the step (1) or the dial's value (0): the
        value, and every 2.5 s the step for 0.5 s, so each step is told at
        the station without die 6's letter or the step's colour."""
        return 1 if ticks.diff(now, self.sel_at) % _DIAL_CYCLE_MS >= _DIAL_CYCLE_MS - _STEP_SHOWN_MS else 0

    def _offer(self, s, v):
        """Value v for the active player's next step: taken, or refused at
        once with the player kept on that step. True if taken."""
        box = self.box
        why = self.entry.check(self.bank, v)
        if why:
            self._refuse(s, why)
            return False
        st = self.entry.step()
        self.entry.take(v)
        self._name(st, v)
        if self.entry.k == 1 and self.undo is not None:
            self.undo = None             # the next player has begun: no undo any more
        self.refuse_until = -1
        self.show_what = 0
        box.tunes.play(sound.MENU, box.now)
        if box.dials and self.entry.complete(self.advanced):
            return True                 # played at once: the LEDs show the next turn
        self._changed()
        return True

    def _name(self, st, v):
        """Die 6 names what value v means at step st for a moment (GO: goat,
        IT: Italy, K3: 3 cards), in letters, so the player reads what they
        keyed or where the dial stands, not only its number or a colour."""
        e = self.entry
        self.named = value_name(self.cards, e.v[0] if e.k else v, st, v, e.dials)
        self.named_until = ticks.add(self.box.now, _NAME_MS)

    def on_roll(self, t_us):
        box = self.box
        if self.state == _VARIANT:
            self._new_game()
        elif self.state == _LAYOUT:
            self._next_page()
        elif self.state == _TURN:
            self.named = ""
            if self.entry.k > 0:
                self.entry.back()           # back one step
                self.refuse_until = -1
                box.tunes.play(sound.TAKE_BACK, box.now)
                self._changed()
            else:
                self._show(_SHOW_LOOK, self.active())
        elif self.state == _FINAL:
            self._leave_final()

    def on_long_roll(self, t_us):
        """Only outside a game (in one, the box asks "stop?")."""
        self.box.back_to_join()

    def _leave_final(self):
        """ROLL on the final screen: another game, the same players; the
        result kept for a power cut is dropped now the table has left it."""
        self.box.save(None)
        self.set_state(_VARIANT)
        self._log_variant()

    # -- the game ---------------------------------------------------------
    def _new_game(self):
        from cheesonomics.bank import Bank
        box = self.box
        self.bank = Bank(self.cards, len(self.stations), box.rng, self.advanced)
        self.saved_bank = None
        self.undo = None
        self.final_said = False
        box.games += 1
        self.set_state(_LAYOUT if self.advanced else _TURN)
        b = self.bank
        cs = self.cards.countries
        box.log("market", {"players": [name(s) for s in self.stations],
                           "variant": "advanced" if self.advanced else "basic",
                           "first": name(self.stations[b.first]),
                           "prices": list(b.prices()), "deck": b.deck,
                           # the cards to lay out, as printed (advanced: the other 10 are dealt)
                           "cards": ["%s %s" % (cs[self.cards.country[b.mk[i]]],
                                                kind_name(card_kind(self.cards, b.mk[i], b.side[i])))
                                     for i in range(15)]})
        box.tunes.play(sound.ROLL, box.now)
        self._save()

    def _next_page(self):
        """The table has laid out this sector's cards: the next, then play."""
        self.page += 1
        self.box.tunes.play(sound.MENU, self.box.now)
        self.box.log("layout", {"sector": self.page, "done": self.page >= 3})
        if self.page >= 3:
            self.set_state(_TURN)
        else:
            self._changed()

    def _save(self):
        # over: the final screen, kept until the table leaves it
        snap = self.snapshot()
        self.saved_bank = snap["bank"]      # the next action's undo, already built
        self.box.save(snap, self.bank.over)

    def _refuse(self, s, why, tune=sound.REFUSED):
        """Not taken: the player stays on the step; their track and die 6 say so
        (the LEDs first, then the words and the tune: the sign within 10 ms)."""
        box = self.box
        self.refuse_until = ticks.add(box.now, _REFUSE_MS)
        self._changed()
        for p in range(len(self.stations)):     # the rules count seats; the table, stations
            why = why.replace("player %d" % (p + 1), name(self.stations[p]))
        box.log("not_allowed", {"p": name(s), "why": why})
        box.tunes.play(tune, box.now)

    def _show(self, what, s):
        self.show_what = what
        self.show_s = s
        self.show_until = ticks.add(self.box.now, _MONEY_MS)
        self._changed()

    def _act(self, s):
        box = self.box
        b = self.bank
        p = b.cur
        # the bank as it was: the save after the last action built it (a
        # snapshot is 0.7 ms on a Pico, between this press and its LED)
        before = self.saved_bank if self.saved_bank is not None else b.snapshot()
        fields = {"p": name(s)}
        try:
            self.entry.play(b, fields)
        except RuleError as e:
            self._refuse(s, str(e))
            return
        self.undo = before
        self.saved_bank = None              # the bank has changed
        if fields["act"] == "sell":
            self.sale = (fields["price"], fields["pieces"])
            self.show_what = _SHOW_SALE
            self.show_s = s
            self.show_until = ticks.add(box.now, _MONEY_MS)
        if not box.dials:
            box.plates_from(box.ticks_us())    # the next player starts with no key
        # the LEDs first (the next player's, or the final screen), then the
        # log, the tune and the save: the press is seen within 10 ms
        self.set_state(_FINAL if b.over else _TURN)
        if fields["act"] == "sell":
            fields["prices"] = list(b.prices())     # worked out for the dice already
        fields["money"] = b.income[p]       # before any final bonus (the final event has those)
        fields["deck"] = b.deck
        box.log("action", fields)
        if b.final_turns() and not b.over and not self.final_said:
            self.final_said = True
            left = [(b.cur + i) % b.n for i in range(b.n)]   # in turn order
            box.log("final_turns", {"left": [name(self.stations[q]) for q in left
                                             if self.left_in_final(q)]})
        if b.over:
            self._final()
        else:
            box.tunes.play(sound.GRAB, box.now)
        self._save()

    def _final(self):
        """The game is over (the final screen is up): the log and the tune."""
        box = self.box
        b = self.bank
        st = self.stations
        box.log("final", {"money": dict((name(st[p]), b.money[p]) for p in range(b.n)),
                          "bonus": dict((name(st[p]), b.bonus[p]) for p in range(b.n)),
                          "winners": [name(st[p]) for p in b.winners]})
        box.tunes.play(sound.WIN, box.now)

    def set_state(self, st):
        box = self.box
        self.state = st
        self.state_at = box.now
        if st == _LAYOUT:
            self.page = 0
        elif st == _FINAL:
            self.entry.clear()      # the last action's values: its undo is still open
            self.lines = None       # the count is built again from the bank
        if st == _TURN:
            # a turn starts: nothing entered yet; a dial shows its value at
            # once (it reports only when it moves); the active player's own
            # money never covers their turn
            self.entry.clear()
            self.refuse_until = -1
            self.shown_k = -1
            self.named = ""
            s = self.active()
            self.sel = box.plate_at(s, box.ticks_us()) if box.dials else _NO_VALUE
            self._step_first()
            if self.show_what == _SHOW_MONEY and self.show_s == s:
                self.show_what = 0
        self._changed()

    def _changed(self):
        """The entry or the state changed: tracks and dice drawn again, the
        press's LEDs first (a die drawn is about 2 ms on a Pico)."""
        self.box.redraw = True
        if self.box.animate:
            self.dice_later = True
            self.box.show_tracks()
            self.dice_later = False
            self.render_dice()

    # -- timers -----------------------------------------------------------
    def timers(self, now):
        if self.show_what and ticks.diff(now, self.show_until) >= 0:
            self.show_what = 0
            self._changed()
        if self.named and ticks.diff(now, self.named_until) >= 0:
            self.named = ""
            self._changed()
        if self.refuse_until != -1 and ticks.diff(now, self.refuse_until) >= 0:
            self.refuse_until = -1
            self._changed()
        if self.no_s != -1 and ticks.diff(now, self.no_until) >= 0:
            self.no_s = -1
            self._changed()

    def timer_wake(self, now):
        w = -1
        if self.show_what:
            w = max(0, ticks.diff(self.show_until, now))
        for until in (self.refuse_until, self.no_until if self.no_s != -1 else -1,
                      self.named_until if self.named else -1):
            if until != -1:
                r = max(0, ticks.diff(until, now))
                if w < 0 or r < w:
                    w = r
        if self.box.animate and self.state != _VARIANT:
            b = _BLINK_MS - ticks.diff(now, self.state_at) % _BLINK_MS
            if w < 0 or b < w:
                w = b
        return w

    # -- drawing ----------------------------------------------------------
    def look(self, now):
        """Blink phase (and the final screen's page): redraw when it changes.
        Turns the dice with it, but not while a press's LEDs are going out
        (_changed: render_dice draws the dice right after them)."""
        since = ticks.diff(now, self.state_at)
        blink = (since // _BLINK_MS) % 2
        page = 0
        draw = not self.dice_later
        if self.state == _FINAL:
            page = self._line_at(since)
        elif self.state == _TURN and self.entry.step() == COUNTRY and not self.show_what:
            if draw:
                self._draw_prices(blink)
        elif self._final_sign():
            page = (since // _FINAL_SIGN_MS) % 2
            if draw and self._die6_stale(page):
                self._draw_whose(page)
                self._die6_drawn(page)
        elif ((self.show_what == _SHOW_SALE or self.show_what == _SHOW_UNDO) and not self.entry.k
              and self.refuse_until == -1 and not self.named):
            page = self._who_phase(now)
            if draw and self._die6_stale(page):
                self._draw_shown(page)
                self._die6_drawn(page)
        elif self.show_what == _SHOW_MONEY:
            page = self._who_phase(now)
            key = self.box.display.shown[4]     # None after a clear: drawn again
            if draw and (key is None or (page == 1) != key.startswith("P")):
                self._draw_money(page)      # only when the second turns: no allocation meanwhile
        elif self.state == _LAYOUT:
            if draw:
                self._draw_layout(since % _CARD_MS >= _SIGNS_MS)
            return blink + 2 * (since % _CARD_MS >= _SIGNS_MS)
        if self.state == _FINAL and draw:
            self._draw_final(page)
        elif self.state == _TURN and self.box.dials:
            page += 64 * self._dial_step_phase(now)
        return blink + 2 * page     # page: the final count's line

    def _die6_stale(self, page):
        """look() at every wake: die 6 is not what look() last drew there
        at this page (its text is formatted only when it must change: no
        work, no allocation between a press and its LED)."""
        return self.box.display.shown[5] is not self.die6_key or page != self.die6_page

    def _die6_drawn(self, page):
        self.die6_key = self.box.display.shown[5]
        self.die6_page = page

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
            self._draw_final(self._line_at(ticks.diff(self.box.now, self.state_at)))
            return
        if self.state == _LAYOUT:
            self._draw_layout(False)
            return
        what = self.show_what
        b = self.bank
        if what == _SHOW_LOOK:
            # the active player's money (dice 1-2), the deck count (dice 4-5: "D", count)
            s = self.show_s
            self._money(0, b.money[self.seat(s)], s)
            d.die(2, "blank")
            d.pattern(3, rows_for("D", rows), WHITE, "D")
            d.pattern(4, rows_for(str(b.deck), rows), WHITE, "d%d" % b.deck)
        else:
            self._draw_prices(0)
        if what == _SHOW_MONEY:
            self._draw_money(self._who_phase(self.box.now))
            return
        s = self.active()
        if self.refuse_until != -1:
            d.die(5, "cross")
            return
        e = self.entry
        if self.named:
            text = self.named
            d.pattern(5, rows_for(text, rows), STATION[s], "n%s%d" % (text, s))
            return
        if (what == _SHOW_UNDO or what == _SHOW_SALE) and not e.k:
            self._draw_shown(self._who_phase(self.box.now))
            return
        if e.complete(self.advanced):
            d.pattern(5, rows_for("OK", rows), STATION[s], "OK%d" % s)
        elif e.k:
            sign = STEP_SIGNS[e.step()]
            d.pattern(5, rows_for(sign, rows), STATION[s], "T%s%d" % (sign, s))
        else:
            phase = 0
            if self._final_sign():
                phase = (ticks.diff(self.box.now, self.state_at) // _FINAL_SIGN_MS) % 2
            self._draw_whose(phase)

    def _who_phase(self, now):
        """After a sale or an undo: 0 what it was, 1 whose (every other second)."""
        return ((ticks.diff(now, self.show_until) + _MONEY_MS) // _FINAL_SIGN_MS) % 2

    def _draw_shown(self, phase):
        """Die 6 for 3 s after a sale or an undo, where it hides none of the
        prices the next player chooses from (their turn shows on their
        station; their first value puts it away): what the sale paid,
        underlined, or an arrow turning back; every other second whose it
        was, `P2`, underlined after a sale (after an undo it is their turn
        again): the player's colour is never the only sign of the player."""
        d = self.box.display
        rows = self.rows
        s = self.show_s
        sale = self.show_what == _SHOW_SALE
        if phase:
            rows_for("P%d" % (s + 1), rows)
            if sale:
                rows[7] = 0xFF
            d.pattern(5, rows, STATION[s], "%sP%d" % ("_" if sale else "", s))
        elif sale:
            price, k = self.sale
            paid = price * k
            rows_for(str(paid), rows)
            rows[7] = 0xFF
            d.pattern(5, rows, STATION[s], "paid%d.%d" % (paid, s))
        else:
            d.pattern(5, UNDO, STATION[s], "undo%d" % s)

    def _draw_money(self, phase):
        """Another player's money on dice 5-6 for 3 s; every other second
        whose it is, `P1` and a coin: die 5 is Greece's price, and the money
        is in that player's colour, so the colour is never the only sign
        that the number is a player's, nor whose."""
        s = self.show_s
        if phase:
            d = self.box.display
            d.pattern(4, rows_for(_WHO[s], self.rows), STATION[s], _WHO[s])
            d.pattern(5, COIN, STATION[s], _COIN_KEY[s])
        else:
            self._money(4, self.bank.money[self.seat(s)], s)

    def _final_sign(self):
        """Die 6 tells the final turns: a turn with nothing keyed, nothing
        shown for a moment, no refusal, the deck run out."""
        b = self.bank
        return (self.state == _TURN and not self.show_what and not self.entry.k
                and self.refuse_until == -1 and not self.named and b.final_turns())

    def _draw_whose(self, phase):
        """Die 6 at a turn's start: whose turn (`P3`, their colour); in the
        final turns every other second `F` and how many final turns are left,
        this one included (`F2`, white): the wheel LEDs lit say whose."""
        d = self.box.display
        if phase:
            left = 0
            for p in range(self.bank.n):
                if self.left_in_final(p):
                    left += 1
            d.pattern(5, rows_for("F%d" % left, self.rows), WHITE, "F%d" % left)
            return
        s = self.active()
        d.pattern(5, rows_for("P%d" % (s + 1), self.rows), STATION[s], "P%d" % s)

    def _draw_layout(self, country):
        """Advanced: sector page+1's five market cards as printed: the signs
        on the side up, then on the back ("12" in green: an Italy card, 1
        sign up, 2 on the back), in the country's colour, turning every
        1.5 s to the country's number ("C2": Italy, as the reference card
        numbers them): the colour is never the only sign of the country.
        Die 6 the sector. The cards never shown are dealt."""
        d = self.box.display
        b = self.bank
        cs = self.cards.country
        for i in range(5):
            pos = self.page * 5 + i
            m = b.mk[pos]
            c = cs[m]
            if country:
                text = "C%d" % (c + 1)
            else:
                text = kind_name(card_kind(self.cards, m, b.side[pos])).replace("|", "")
            d.pattern(i, rows_for(text, self.rows), COUNTRY_RGB[c], "L%d%s" % (c, text))
        d.pattern(5, rows_for(str(self.page + 1), self.rows), WHITE, "S%d" % self.page)

    def _price_keys(self):
        """Each price die's key, built once the market changes: the country
        step draws the prices at every wake, between a press and its LED,
        so a die already showing its price costs a comparison, no more."""
        prices = self.bank.prices()
        if self.keyed is not prices:
            self.keyed = prices
            keys = self.price_keys
            for c in range(5):
                keys[c] = "p%d.%d" % (c, prices[c]) if prices[c] else "-"
        return self.price_keys

    def _draw_prices(self, blink):
        d = self.box.display
        rows = self.rows
        chosen = -1
        if self.state == _TURN and self.entry.step() == COUNTRY and self.sel != _NO_VALUE:
            chosen = self.sel - 1
        top = 4 if self.show_what == _SHOW_MONEY else 5
        keys = self._price_keys()
        shown = d.shown
        for c in range(top):
            if c == chosen and blink:
                d.die(c, "blank")
                continue
            key = keys[c]
            if shown[c] == key:
                continue
            price = self.bank.prices()[c]
            if price == 0:
                d.pattern(c, rows_for("-", rows), DIM, key)
            else:
                d.pattern(c, rows_for(str(price), rows), COUNTRY_RGB[c], key)

    def _count(self):
        """The final count as the paper game does it, a line a page, player
        by player in seat (station) order: money from sales, each bonus won (the
        unsold pieces, the most sold of an animal), the total; then the
        winners. Each line is seat * 16 + what (_L_*)."""
        if self.lines is None:
            b = self.bank
            out = bytearray()
            for p in range(b.n):
                out.append(p * 16 + _L_SALES)
                if b.unsold_bonus[p]:
                    out.append(p * 16 + _L_UNSOLD)
                for a in range(5):
                    t = b.top_bonus[a]
                    if t is not None and p in t[1]:
                        out.append(p * 16 + _L_ANIMAL + a)
                out.append(p * 16 + _L_TOTAL)
            out.append(_L_WINNERS)
            self.lines = bytes(out)
        return self.lines

    def _line_at(self, since):
        return (since // _CYCLE_MS) % len(self._count())

    def _count_from(self, p):
        """A buzzer on the final screen: its player's count, from the first
        line (then the cycle goes on from there)."""
        lines = self._count()
        for i in range(len(lines)):
            if lines[i] >> 4 == p and lines[i] & 15 == _L_SALES:
                self.state_at = ticks.add(self.box.now, -i * _CYCLE_MS)
        self.box.tunes.play(sound.MENU, self.box.now)
        self._changed()

    def _draw_final(self, page):
        """One line of the count: die 1 who, die 2 which line (S sales, U
        the unsold pieces, A1-A5 the most sold of cow ... camel, = the
        total), dice 3-4 the amount, die 6 a crown on a winner's total.
        The last page: the winners (dice 1-5) and a crown. Winners'
        tracks blink meanwhile. Each is told by its shape, not its colour."""
        d = self.box.display
        b = self.bank
        rows = self.rows
        line = self._count()[page]
        what = line & 15
        if what == _L_WINNERS:
            for i in range(5):
                if i < len(b.winners):
                    s = self.stations[b.winners[i]]
                    d.pattern(i, rows_for("P%d" % (s + 1), rows), STATION[s], "P%d" % s)
                else:
                    d.die(i, "blank")
            d.die(5, "crown")
            return
        p = line >> 4
        s = self.stations[p]
        d.pattern(0, rows_for("P%d" % (s + 1), rows), STATION[s], "P%d" % s)
        if what == _L_SALES:
            label, m = "S", b.income[p]
        elif what == _L_UNSOLD:
            label, m = "U", b.unsold_bonus[p]
        elif what == _L_TOTAL:
            label, m = "=", b.money[p]
        else:
            a = what - _L_ANIMAL
            label, m = "A%d" % (a + 1), b.top_bonus[a][0]
        d.pattern(1, rows_for(label, rows), WHITE, "f" + label)
        self._money(2, m, s)
        d.die(4, "blank")
        d.die(5, "crown" if what == _L_TOTAL and p in b.winners else "blank")

    def _money(self, die, m, s):
        """Money m (0-9999) on dice `die` and `die` + 1, in station s's colour."""
        d = self.box.display
        text = "%4d" % (m if m < 10000 else 9999)
        d.pattern(die, rows_for(text[:2], self.rows), STATION[s], "m%s%d" % (text[:2], s))
        d.pattern(die + 1, rows_for(text[2:], self.rows), STATION[s], "m%s.%d" % (text[2:], s))

    def draw_tracks(self, now, look):
        """Every station's track and wheel LED. Runs between a press and its
        LED (the 10 ms bound): the per-station work is kept small."""
        box = self.box
        d = box.display
        blink = look & 1
        b = self.bank
        act = self.active()
        state = self.state
        final = b is not None and not b.over and b.final_turns()
        d.dark_except(self.playing)
        stations = self.stations
        for p in range(len(stations)):
            s = stations[p]
            if s == self.no_s:
                d.score(s, 7 if blink else 0, REFUSE_RGB)  # a refused undo
                d.wheel(s, OFF)
                continue
            if state == _VARIANT or state == _LAYOUT or b is None:
                d.score(s, 7, STATION[s])
                d.wheel(s, OFF)
                continue
            if state == _FINAL:
                won = p in b.winners
                d.score(s, 7 if won and blink else 0, STATION[s])
                d.wheel(s, STATION[s] if won else OFF)
                continue
            if s == act:
                self._draw_entry(s, blink)
                continue
            if s == self.show_s and self.show_what == _SHOW_MONEY:
                d.score(s, 7, STATION[s])       # whose money the dice show
                d.wheel(s, STATION[s])
                continue
            t = b.knife[p]
            f = b.forbid[p]
            if t != NONE and t < 5:
                # the knife on an animal: 1-5 LEDs from the start (cow = 1)
                d.score(s, t + 1, AMBER)
            elif t != NONE:
                # on a place: 1-5 LEDs at the far end (red = 1)
                n = t - 4
                d.score(s, 7 - n, OFF, n, PLACE)
            elif f != NONE:
                # the forbidden mark: 1-5 LEDs blinking (trowel = 1)
                d.score(s, f + 1 if blink else 0, MAGENTA)
            else:
                d.score(s, 0, OFF)
            # the wheel LED: this player still has a final turn to play
            d.wheel(s, STATION[s] if final and self.left_in_final(p) else OFF)

    def _draw_entry(self, s, blink):
        """The active station: a refusal (all 7 LEDs blinking red); on keys
        one LED per value keyed and the next one blinking in the step's
        colour (all steady and the wheel lit: press the buzzer); on a dial
        the dial's value as that many LEDs in the step's colour, and every
        2.5 s (a new step: first) the step as on keys."""
        d = self.box.display
        e = self.entry
        if self.refuse_until != -1:
            d.score(s, 7 if blink else 0, REFUSE_RGB)
            d.wheel(s, OFF)
            return
        st = e.step()
        if self.box.dials:
            self.shown_k = e.k
            if not self._dial_step_phase(self.box.now):
                v = self.sel if self.sel != _NO_VALUE else 0
                rgb = STEP_RGB[st]
                if rgb is None:
                    rgb = COUNTRY_RGB[v - 1] if 1 <= v <= 5 else WHITE
                d.score(s, v if v <= 7 else 7, rgb)
                d.wheel(s, STATION[s] if blink else OFF)
                return
        k = e.k if e.k <= 7 else 7
        if e.complete(self.advanced):
            d.score(s, k, WHITE)
            d.wheel(s, STATION[s])
            return
        rgb = STEP_RGB[st] or WHITE
        d.score(s, k, WHITE, 1 if blink else 0, rgb)
        d.wheel(s, STATION[s] if blink else OFF)
