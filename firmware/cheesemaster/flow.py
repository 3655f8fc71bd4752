"""Cheese Master's game, from the dice menu on: choose dice, roll, grab,
judge, score, game over; the King of the Cheese Mountain campaign.

Loaded when the table starts a game or resumes one (game.py, the entry
module the box imports at power-up, has the joining screen and the dice
file): this module and the rounds' modules it imports (match, rules, faces,
dice, font) are not needed before, and were ~100 ms of the Pico's boot.

The box (box.py) hands this game its players and its inputs already sorted
out: a buzzer press (time-stamped), a short or long ROLL press, the penalty
gesture (ROLL held, then a buzzer). The game keeps the flow and draws the
dice and the tracks; it never touches the port except through the box's
display, tunes, log and plates.
"""
from array import array

from micropython import const

from cheesebox import ticks
from cheesemaster import match as M
from cheesebox import sound
from cheesemaster.dice import CAMPAIGN, CHOICES, N_DICE, RandomRoller, default_dice, dice_for_choice
from cheesebox.display import BAD, MARK, OFF, OUT, SCORE, STATION, WHEEL
from cheesebox.events import name
from cheesebox.font import rows_for
from cheesemaster.faces import NAMES as FACE_NAMES
from cheesemaster.rules import count_ids

# Cheese Master's own tunes (the shell's sound.py has those every game plays)
# and the colour of a flipped card
TUNE_REVEAL = (1568, 90)
TUNE_FALSE_START = (3300, 80, 2500, 120)         # falling: too early
TUNE_OWN_UP = (500, 60, 400, 80)
TUNE_LOSS = (440, 120, 330, 160)
TUNE_REPLAY = (523, 80, 0, 40, 523, 80, 0, 40, 523, 80)
TUNE_PENALTY = (2800, 300)                        # one long: the table's penalty
TUNE_KING = (523, 100, 659, 100, 784, 100, 1047, 200, 784, 100, 1047, 400)
WARNINGS = (TUNE_FALSE_START, TUNE_PENALTY)            # at the piezo's resonance, as sound.WARNINGS
SCORE_LOW = (255, 70, 0)    # points below 4: the card is flipped

ROLL_MS = const(1500)          # roll animation; faces shown after it
_FRAME_MS = const(90)
_TOUR_MS = const(800)           # each face of the dice tour
_CHECK_MS = const(30000)        # plate-card check ends by itself
CHECK_MIN_MS = const(3000)     # the true count is up this long before ROLL can end the check
SLAM_US = const(500000)        # a holder's press this soon after their grab: the same slam
GUARD_MS = const(1000)         # a late slam can't start the next roll
_REVEAL_GRACE_MS = const(1000)  # a press from before the reveal arrives within this
_FLASH_MS = const(600)
_FLASH_BLINK_MS = const(100)    # a false start's wheel LED blinks fast: a held wheel is steady
# answer dials: a new position is reported after 3 equal reads 4 ms apart
# (12 ms; a change at two stations at once, 16), stamped with the first: a
# grab lights its wheel at once and locks its dial once the port has made
# those reads (box.plates_in: counted in reads, so a long step or a save
# that held them cannot lock the plate from before); looked at this soon
# after the grab, then every _SETTLE_POLL_MS
_SETTLE_MS = const(12)
_SETTLE_POLL_MS = const(2)
_LOSS_MS = const(2500)          # lost points blink on the tracks
_BLINK_MS = const(250)
_FACES_MS = const(1400)         # after a round: faces, then the count
_COUNT_MS = const(900)
_REPLAY_MS = const(900)         # after a tie replay: faces, count, then the replay sign
_TIE_GAME_MS = const(1000)      # a campaign's tie-break game: ? and the replay sign in turn

# states (the box's own are JOIN = 0 and RESUME = 9: box.state numbers them all)
MENU = const(1)
READY = const(2)
_TOUR = const(3)
ROLLING = const(4)
GRAB = const(5)
CHECK = const(6)
GAMEOVER = const(7)
KING = const(8)
STATE_NAMES = ("join", "menu", "ready", "tour", "rolling", "grab", "check", "gameover", "king")

MENU_ICONS = ("cheese1", "cheese2", "cheese3", "dog", "innkeeper", "king")
DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7")


# box.options this game reads (set by the host, game.py):
#   "roller"             -- rolls the dice (default: RandomRoller on box.rng)
#   "false_start_costs"  -- the house rule: a false start costs a point


def _wins(c):
    """A campaign's game wins by player, for the log (None: no campaign)."""
    if c is None:
        return None
    return dict((name(s), c.wins[s]) for s in range(8) if c.wins[s])


def out(d, s):
    """Station s is out of the game: one dim LED at the far end of its track
    (a point is the first LED: the two never look alike, whatever the colour)."""
    d.score(s, 6, OFF, 1, OUT)


def render_saved(box, saved):
    """The saved game's points on the tracks, while the box offers to resume."""
    d = box.display
    m = saved[0]
    for s in range(box.n):
        if m.joined[s]:
            p = m.points[s]
            if p:
                d.score(s, p, SCORE_LOW if p < 4 else SCORE)
            else:
                out(d, s)
        else:
            d.score(s, 0, OFF)
        d.wheel(s, OFF)


def resume(box, saved):
    """The saved game again: between rounds, the marked player to roll; or
    its final screen (game over, the King), as it was when the power went."""
    g = CheeseMaster(box, None)
    g.match, g.campaign, g.choice, g.in_play = saved
    g.scored_at = ticks.add(box.now, -_LOSS_MS)
    m = g.match
    c = g.campaign
    if m.phase != M.OVER:
        g.set_state(READY)
    else:
        g.set_state(KING if c is not None and c.king >= 0 else GAMEOVER)
    box.log("resume", {"round": m.rounds_played,
                       "points": dict((name(s), m.points[s]) for s in range(8) if m.joined[s]),
                       "screen": STATE_NAMES[g.state], "marked": name(m.marked) if m.marked >= 0 else None,
                       "winner": name(m.winner) if m.winner >= 0 else None,
                       "campaign": c.game if c is not None else None, "wins": _wins(c),
                       "king": name(c.king) if c is not None and c.king >= 0 else None})
    return g


class CheeseMaster:
    """One table's Cheese Master games, from the dice menu to the last game over."""

    def __init__(self, box, players):
        self.box = box
        self.players = players          # stations that joined (None: resume sets the match)
        self.choice = box.keep.get("choice", 0)    # menu choice (dice.CHOICES): the last one
        dice = box.keep["dice"]         # picked() read them; None: the default dice
        if dice is None:
            dice = box.keep["dice"] = default_dice()
        self.dice_names, self.dice_faces = dice
        self.roller = box.options.get("roller") or RandomRoller(box.rng)
        self.false_start_costs = box.options.get("false_start_costs", False)
        self.campaign = None
        self.match = None
        self.in_play = b""              # die numbers in play
        self.roll = bytearray(N_DICE)   # face of each die in play
        self.left = 0
        self.shown_roll = False         # a roll's faces are on the dice
        self.replayed = False           # the round shown was a tie: it is rolled again
        now = box.now
        self.state = MENU
        self.state_at = now
        self.next_frame = now
        self.tour_pos = 0
        self.tumble_seed = 1
        self.scored_at = now
        self.reveal_us = 0
        self.grab_us = array("i", [0] * 8)      # when each holder grabbed
        self.settling = 0               # dials: bit s, station s's grab not yet locked
        self.settle_at = array("i", [0] * 8)    # and the ms it is
        self.end_check = False          # ROLL pressed in the check's first 3 s
        self.flash_until = array("i", [0] * 8)
        self.flash_on = bytearray(8)
        self.flashing = 0               # how many stations flash
        self.flash_at = now             # the last flash's start: the fast blink's phase
        self.rows = bytearray(8)        # a pattern's rows (the winner's number)

    def start(self):
        """The table has joined: the dice menu."""
        self.set_state(MENU)
        self.box.tunes.play(sound.MENU, self.box.now)
        self._log_menu()

    def _log_menu(self):
        """The dice menu is up, or its choice moved on: said in the log, so
        a screen that follows the log knows the menu is open and on what."""
        self.box.log("menu", {"choice": CHOICES[self.choice]})

    # -- what the box asks ------------------------------------------------
    def state_name(self):
        return STATE_NAMES[self.state]

    @property
    def rolling(self):
        """The dice are tumbling: nothing to judge for 1.5 s (a time to collect garbage)."""
        return self.state == ROLLING

    def in_game(self):
        """True while a game runs (penalties count, presses are logged)."""
        return self.state in (READY, _TOUR, ROLLING, GRAB, CHECK)

    def in_progress(self):
        """A long ROLL asks "stop?" (box.py): in a game, a campaign's too. At
        the menu and on the final screens a long ROLL keeps its own meaning."""
        return self.in_game()

    def paused(self, ms):
        """The table answered "stop?" with no after ms: every timer moves on
        by ms (the roll, the tour, the check, the blinks, the 1 s guard)."""
        self.state_at = ticks.add(self.state_at, ms)
        self.next_frame = ticks.add(self.next_frame, ms)
        self.scored_at = ticks.add(self.scored_at, ms)
        for s in range(8):
            self.flash_until[s] = ticks.add(self.flash_until[s], ms)
        self.flash_at = ticks.add(self.flash_at, ms)
        self.box.redraw = True

    def status(self, fields):
        """The console's `state` answer: this game's part."""
        m = self.match
        box = self.box
        fields["points"] = (dict((name(s), m.points[s]) for s in range(8) if m.joined[s])
                            if m is not None else {})
        fields["rounds"] = m.rounds_played if m is not None else 0
        fields["campaign"] = ({"game": self.campaign.game,
                               "wins": dict((name(s), self.campaign.wins[s]) for s in range(8)
                                            if box.joined[s])}
                              if self.campaign is not None else None)

    def snapshot(self):
        """The game between rounds, as save.py writes it."""
        c = self.campaign
        return {"choice": self.choice, "in_play": list(self.in_play),
                "match": self.match.snapshot(),
                "campaign": c.snapshot() if c is not None else None}

    def _save(self, final=False):
        if self.match is not None:
            self.box.save(self.snapshot(), final)

    # -- inputs -----------------------------------------------------------
    def on_answer(self, s, value):
        """A plate placed: read at the grab (box.plate_at). A dial's position
        is reported after the grab that saw it (3 equal reads): a placement
        stamped before a grab not yet locked is what that grab locks. A key
        that counts for no grab (before the roll, after the own grab, out of
        the game) is said at its station; a dial is a position, read at the
        grab whenever it was turned."""
        m = self.match
        if (self.settling >> s) & 1:
            if self.box.plate_at(s, self.grab_us[s]) == value:
                m.locked[s] = value
            return
        if self.box.dials or m is None or not m.joined[s]:
            return
        st = self.state
        if not m.active[s]:
            self._say_no(s, "%s is out of this game" % name(s))
        elif m.holder[s] and st == GRAB:
            self._say_no(s, "the plate is locked by the grab")
        elif st != ROLLING and st != GRAB:
            self._say_no(s, "a plate key counts from the roll on")

    def on_gesture(self, s):
        """ROLL held 300 ms, then station s's buzzer: a table penalty in a
        game; outside one it does nothing (the rulings), and says so."""
        if self.in_game():
            if not self.match.active[s]:
                if self.match.joined[s]:
                    self._say_no(s, "%s is out of this game" % name(s))
                return
            self._penalty(s)
        elif self.box.joined[s]:
            self._say_no(s, "no penalty outside a game")

    def on_buzz(self, s, t_us):
        """A buzzer press, stamped t_us: what it means depends on the state."""
        box = self.box
        st = self.state
        if box.log.write is not None and self.in_game() and self.match.joined[s]:
            box.log("press", {"p": name(s), "t_us": t_us})     # a player's press only
        if st == MENU:
            self.choice = (self.choice + 1) % len(CHOICES)
            box.keep["choice"] = self.choice
            box.tunes.play(sound.MENU, box.now)
            if box.animate:
                self.render_dice()          # the dice of this choice
            self._log_menu()
        elif not box.joined[s]:
            return                          # nobody plays at this station
        elif st == GAMEOVER or st == KING:
            if ticks.diff(box.now, self.state_at) >= GUARD_MS:
                self._to_menu()             # the same players choose dice again
            else:
                self._say_no(s, "too soon: a buzzer opens the dice menu 1 s after the game's end")
        elif not self.match.joined[s]:
            return                          # a campaign's tie-break: not in this game
        elif not self.match.active[s]:
            self._say_no(s, "%s is out of this game" % name(s))
        elif st == READY:
            self._buzz_ready(s, t_us)
        elif st == _TOUR:
            self._end_tour()
        elif st == ROLLING or (st == GRAB and self._before_reveal(t_us)):
            self._false_start(s)
        elif st == GRAB:
            self._grab(s, t_us)
        elif st == CHECK:
            self._own_up(s, t_us)

    def _buzz_ready(self, s, t_us):
        """Before a roll: the marked player's buzzer rolls; before the first
        round, another player's buzzer opens the dice tour."""
        m = self.match
        now = self.box.now
        if m.marked == s:
            if ticks.diff(now, self.scored_at) >= GUARD_MS:
                self._start_roll(t_us)
            else:
                # a late slam right after scoring does not roll: say so
                self._say_no(s, "too soon: %s's buzzer rolls 1 s after the scoring" % name(s))
        elif m.marked < 0 and m.round_no == 0:
            self.set_state(_TOUR)
            self.tour_pos = 0
            self.next_frame = now
            self.box.log("tour", {"on": True})
        elif m.marked >= 0:
            self._say_no(s, "%s rolls (their buzzer or ROLL)" % name(m.marked))
        else:
            self._say_no(s, "ROLL rolls")

    def _say_no(self, s, why):
        """A press that does nothing, at station s: seen there (its wheel LED
        blinks fast 0.6 s, as a refused grab's), then logged and beeped."""
        box = self.box
        self._flash(s)
        box.redraw = True
        box.show_tracks()
        box.log("not_allowed", {"p": name(s), "why": why})
        box.tunes.play(sound.TOO_SOON, box.now)

    def _false_start(self, s):
        box = self.box
        if self.match.active[s]:
            box.keep["false_starts"] = box.keep.get("false_starts", 0) + 1
            box.log("false_start", {"p": name(s)})
            if self.false_start_costs:
                self._penalty(s)
            else:
                self._flash(s)
                box.tunes.play(TUNE_FALSE_START, box.now)

    def _grab(self, s, t_us):
        """A grab once the faces are shown: taken (with the plate placed
        before the press) or refused (no wheel left to this player)."""
        box = self.box
        m = self.match
        if m.phase == M.CHECKING:
            # dials: the wheels are gone, the grabs locking (a holder's
            # second press is the rulebook's: a wheel held already)
            if not m.holder[s]:
                self._say_no(s, "no wheel left")
            return
        electronic = box.board.electronic
        r = m.press(s, box.plate_at(s, t_us)) if electronic else m.press(s)
        if r == M.GRAB:
            self.grab_us[s] = t_us
            box.tunes.play(sound.GRAB, box.now)
            if box.dials:
                # the wheel lights now; the dial is locked (and logged) once
                # every read from before the press is in (on_answer, timers)
                self.settling |= 1 << s
                self.settle_at[s] = ticks.add(box.now, _SETTLE_MS)
            else:
                self._log_grab(s)
        elif r == M.REFUSED:
            self._flash(s)
            box.redraw = True
            box.show_tracks()           # the point lost and the blink before the log and the save
            box.log("refused", {"p": name(s), "points": m.points[s]})
            box.tunes.play(sound.REFUSED, box.now)
            self._after_loss()
            self._save_loss()
        self._after_grab()

    def _log_grab(self, s):
        box = self.box
        if box.log.write is not None:
            box.log("grab", {"p": name(s), "t_us": self.grab_us[s],
                             "plate": self.match.locked[s] if box.board.electronic else None})

    def _settle(self, now):
        """Dials: each grab whose reads are all in (box.plates_in: the port
        counts its reads) is locked and logged; the round is scored once the
        last wheel's grab is. Until then it is looked at every few ms."""
        box = self.box
        for s in range(8):
            if (self.settling >> s) & 1:
                if box.plates_in(self.grab_us[s]):
                    self.settling &= ~(1 << s)
                    self._log_grab(s)
                elif ticks.diff(now, self.settle_at[s]) >= 0:
                    self.settle_at[s] = ticks.add(now, _SETTLE_POLL_MS)
        if not self.settling:
            self._after_grab()

    def _own_up(self, s, t_us):
        """During the check: own up to a wrong plate card, or take it back."""
        box = self.box
        m = self.match
        if m.holder[s] and ticks.diff(t_us, self.grab_us[s]) < SLAM_US:
            return                      # the grab's own slam, bouncing on: not an own-up
        r = m.press(s)
        if r == M.OWNED_UP or r == M.TAKEN_BACK:
            box.log("own_up" if r == M.OWNED_UP else "take_back", {"p": name(s)})
        if r == M.OWNED_UP:
            box.tunes.play(TUNE_OWN_UP, box.now)
        elif r == M.TAKEN_BACK:
            box.tunes.play(sound.TAKE_BACK, box.now)
        elif m.active[s] and not m.holder[s]:
            self._say_no(s, "no wheel: nothing to own up to")

    def _end_tour(self):
        self.set_state(READY)
        self.box.log("tour", {"on": False})

    def _before_reveal(self, t_us):
        """A press stamped before the faces were shown (it reaches the box a
        debounce window after it happened). ticks_us differences only mean
        something within half their 2**30 us period, so a press handled long
        after the reveal is never compared: it is a grab."""
        if ticks.diff(self.box.now, self.state_at) >= _REVEAL_GRACE_MS:
            return False
        return ticks.diff(t_us, self.reveal_us) < 0

    def _after_grab(self):
        m = self.match
        if self.state == GRAB and m.phase == M.CHECKING:
            self.box.redraw = True
            self.box.show_tracks()      # the last wheel lit before the round is scored
            if self.settling:
                return                  # dials: scored once every grab is locked
            if self.box.board.electronic:
                self._score()
            else:
                self.set_state(CHECK)
                self.box.log("check", {"wheels": [name(s) for s in range(8) if m.active[s] and m.holder[s]]})

    def on_roll(self, t_us):
        st = self.state
        if st == MENU:
            self.campaign = None
            if self.choice == CAMPAIGN:
                from cheesemaster.campaign import Campaign     # only for a campaign (heap)
                self.campaign = Campaign(self.box.rng)
            self._new_game(None)
        elif st == READY or st == _TOUR:
            self._start_roll(t_us)
        elif st == CHECK:
            if ticks.diff(self.box.now, self.state_at) >= CHECK_MIN_MS:
                self._score()
            else:
                self.end_check = True       # the count stays up 3 s first
        elif st == GAMEOVER:
            c = self.campaign
            if c is not None and c.tiebreak:
                self._end_campaign()
            else:
                self._new_game(None)
        elif st == KING:
            self.box.back_to_join()

    def _to_menu(self):
        """Game over or the King's screen: the same players choose any dice
        again, the campaign too (a campaign not ended is left without a
        king); the final screen kept for a power cut is dropped."""
        box = self.box
        box.save(None)
        self.campaign = None
        self.match = None
        self.shown_roll = False
        self.replayed = False
        self.set_state(MENU)
        box.tunes.play(sound.MENU, box.now)
        self._log_menu()

    def on_long_roll(self, t_us):
        """Only outside a game (in one, the box asks "stop?"): at game over it
        ends the campaign or goes back to joining; at the menu it is ROLL."""
        st = self.state
        if st == GAMEOVER:
            if self.campaign is not None:
                self._end_campaign()
            else:
                self.box.back_to_join()
        elif st != KING:
            self.on_roll(t_us)

    # -- the game ---------------------------------------------------------
    def _new_game(self, stations):
        box = self.box
        if stations is None:
            stations = box.players()
        c = self.campaign
        if c is not None:
            self.in_play = c.next_game()
        else:
            self.in_play = dice_for_choice(self.choice)
        self.match = M.Match(stations, box.board.electronic, self.false_start_costs, box.dials)
        box.games += 1
        self.shown_roll = False
        self.scored_at = ticks.add(box.now, -_LOSS_MS)
        self.set_state(READY)
        box.log("game", {"players": [name(s) for s in stations],
                         "dice": [self.dice_names[d] for d in self.in_play],
                         "campaign": c.game if c is not None else None})
        self._save()

    def _end_campaign(self):
        c = self.campaign
        box = self.box
        pool = c.tiebreak if c.tiebreak else box.players()
        leaders = c.leaders(pool)
        if len(leaders) == 1:
            c.king = leaders[0]
            c.tiebreak = []
            self._save(True)                # the King's screen survives a power cut
            self.set_state(KING)
            box.log("king", {"p": name(c.king), "wins": _wins(c)})
            box.tunes.play(TUNE_KING, box.now)
        else:
            c.tiebreak = leaders
            self._new_game(leaders)

    def _start_roll(self, t_us):
        box = self.box
        m = self.match
        m.start_round()
        if box.board.electronic:
            box.plates_from(t_us)
        box.log("roll", {"round": m.round_no})
        self.shown_roll = False
        self.replayed = False
        self.set_state(ROLLING)
        self.next_frame = box.now
        box.tunes.play(sound.ROLL, box.now)

    def _reveal(self):
        box = self.box
        # the faces are decided when they are shown, not when the roll starts
        self.roller.roll(self.dice_faces, self.in_play, self.roll)
        self.left = count_ids(memoryview(self.roll)[:len(self.in_play)])
        self.match.reveal(self.left)
        self.set_state(GRAB)
        if box.log.write is not None:
            box.log("faces", {"faces": [FACE_NAMES[self.roll[i]]
                                        for i in range(len(self.in_play))], "left": self.left})
        self.shown_roll = True
        if box.animate:
            self.render_dice()
            box.show_now()
        self.reveal_us = box.ticks_us()
        box.tunes.play(TUNE_REVEAL, box.now)

    def _score(self):
        box = self.box
        m = self.match
        res = m.finish_round()
        self.scored_at = box.now
        if box.log.write is not None:
            box.log("score", {"round": m.round_no, "left": m.left,
                              "result": ("scored", "replay", "gameover")[res],
                              "lost": dict((name(s), m.lost[s]) for s in range(8) if m.lost[s]),
                              "points": dict((name(s), m.points[s]) for s in range(8)
                                             if m.joined[s]),
                              "out": [name(s) for s in m.eliminated],
                              "marked": name(m.marked) if m.marked >= 0 else None})
        if res == M.REPLAY:
            # seen as well as heard: the dice turn to the replay sign too
            self.replayed = True
            box.tunes.play(TUNE_REPLAY, box.now)
        elif m.phase == M.OVER:
            self._game_over()
            return
        elif any(m.lost[s] >= 2 for s in range(8)) or m.eliminated:
            box.tunes.play(TUNE_LOSS, box.now)
        self.set_state(READY)
        self._save()

    def _penalty(self, s):
        box = self.box
        m = self.match
        if m is None or not m.penalty(s):
            return
        self._flash(s)
        box.tunes.play(TUNE_PENALTY, box.now)
        box.log("penalty", {"p": name(s), "points": m.points[s]})
        self._after_loss()
        self._save_loss()
        if self.state == GRAB:
            self._after_grab()

    def _save_loss(self):
        """A point taken at once (penalty, refused grab) is saved at once: a
        power cut or watchdog reset later in the round never gives it back.
        (Game over saved or cleared the game already.)"""
        if self.match.phase != M.OVER:
            self._save()

    def _after_loss(self):
        if self.match.phase == M.OVER:
            self._game_over()

    def _game_over(self):
        box = self.box
        m = self.match
        c = self.campaign
        if c is not None:
            c.record(m.winner)
        box.log("winner", {"p": name(m.winner), "out": [name(s) for s in m.eliminated],
                           "wins": _wins(c)})
        # the final screen (and a campaign's tally) survives a power cut
        self._save(True)
        self.set_state(GAMEOVER)
        box.tunes.play(sound.WIN, box.now)

    def _flash(self, s):
        if not self.flash_on[s]:
            self.flashing += 1
        self.flash_on[s] = 1
        self.flash_at = self.box.now
        self.flash_until[s] = ticks.add(self.box.now, _FLASH_MS)

    def set_state(self, st):
        box = self.box
        box.redraw = True
        self.end_check = False
        self.state = st
        self.state_at = box.now
        if st != GRAB:
            self.settling = 0           # the round moved on: no grab left to lock
        if box.animate:
            box.show_tracks()           # a press's own LEDs before the dice
            self.render_dice()

    # -- timers -----------------------------------------------------------
    def timers(self, now):
        st = self.state
        animate = self.box.animate
        if st == ROLLING:
            if ticks.diff(now, self.state_at) >= ROLL_MS:
                self._reveal()
            elif animate and ticks.diff(now, self.next_frame) >= 0:
                self._tumble()
                self.next_frame = ticks.add(now, _FRAME_MS)
        elif st == _TOUR:
            if ticks.diff(now, self.next_frame) >= 0:
                if self.tour_pos >= 6:
                    self._end_tour()
                else:
                    self._tour_frame()
                    self.tour_pos += 1
                    self.next_frame = ticks.add(now, _TOUR_MS)
        elif st == CHECK:
            since = ticks.diff(now, self.state_at)
            if since >= _CHECK_MS or (self.end_check and since >= CHECK_MIN_MS):
                self._score()
        if self.settling:
            self._settle(now)
        if not self.flashing:
            return
        for s in range(8):
            if self.flash_on[s] and ticks.diff(now, self.flash_until[s]) >= 0:
                self.flashing -= 1
                self.flash_on[s] = 0
                self.box.redraw = True

    def timer_wake(self, now):
        """ms until a timer of the game is due; -1 for none."""
        st = self.state
        animate = self.box.animate
        if st == ROLLING:
            reveal = max(0, ROLL_MS - ticks.diff(now, self.state_at))
            if animate:
                return min(reveal, max(0, ticks.diff(self.next_frame, now)))
            return reveal
        if st == _TOUR:
            return max(0, ticks.diff(self.next_frame, now))
        w = -1
        if st == CHECK:
            w = max(0, (CHECK_MIN_MS if self.end_check else _CHECK_MS) - ticks.diff(now, self.state_at))
        for s in range(8 if self.settling else 0):
            if (self.settling >> s) & 1:
                f = max(0, ticks.diff(self.settle_at[s], now))
                if w < 0 or f < w:
                    w = f
        if not animate:
            return w
        if self._blinking(now):
            b = _BLINK_MS - ticks.diff(now, self.state_at) % _BLINK_MS
            if w < 0 or b < w:
                w = b
        if self.flashing:
            f = _FLASH_BLINK_MS - ticks.diff(now, self.flash_at) % _FLASH_BLINK_MS
            if w < 0 or f < w:
                w = f
            for s in range(8):
                if self.flash_on[s]:
                    f = max(0, ticks.diff(self.flash_until[s], now))
                    if w < 0 or f < w:
                        w = f
        return w

    def _blinking(self, now):
        st = self.state
        if st == GAMEOVER or st == KING or st == CHECK:
            return True
        if st == READY:
            m = self.match
            if m is not None and (m.marked >= 0 or self.shown_roll or self._tie_game()):
                return True
            if ticks.diff(now, self.scored_at) < _LOSS_MS:
                return True
        return False

    # -- drawing ----------------------------------------------------------
    def _tumble(self):
        """A frame of tumbling faces. Its own pseudo-random numbers: drawing
        must never use up the game's random source (rolls, tie-breaks)."""
        d = self.box.display
        x = self.tumble_seed
        faces = self.dice_faces
        for i in range(len(self.in_play)):
            x = (x * 75 + 74) % 65537       # small LCG: stays a small int on a Pico
            die = self.in_play[i]
            d.die(die, FACE_NAMES[faces[die][x % 6]])
        self.tumble_seed = x

    def _tour_frame(self):
        d = self.box.display
        faces = self.dice_faces
        for i in range(len(self.in_play)):
            die = self.in_play[i]
            d.die(die, FACE_NAMES[faces[die][self.tour_pos]])

    def render_dice(self):
        """The dice matrices for the current state (not the animations)."""
        d = self.box.display
        st = self.state
        if st == MENU:
            if self.choice == CAMPAIGN:
                for i in range(N_DICE):
                    d.die(i, "crown")
            else:
                k = 3 + self.choice
                for i in range(N_DICE):
                    d.die(i, MENU_ICONS[i] if i < k else "blank")
        elif st == GAMEOVER or st == KING:
            # crowns and who won ("P3" in their colour): never the campaign
            # choice of the menu (crowns only)
            c = self.campaign
            w = c.king if st == KING else self.match.winner
            for i in range(N_DICE):
                if i % 2 and w >= 0:
                    d.pattern(i, rows_for("P%d" % (w + 1), self.rows), STATION[w], "P%d" % w)
                else:
                    d.die(i, "crown")
        else:
            self._draw_roll(0)

    def _tie_game(self):
        """A campaign's tie-break game (the players tied for most wins)."""
        c = self.campaign
        return c is not None and len(c.tiebreak) > 0

    def _draw_roll(self, what):
        """The dice in play: what 0 the faces, 1 the true count, 2 the tie
        replay's sign (before the first roll: a question mark; in a
        campaign's tie-break game, turning with the replay sign)."""
        d = self.box.display
        used = 0
        for i in range(len(self.in_play)):
            die = self.in_play[i]
            used |= 1 << die
            if not self.shown_roll:
                d.die(die, "replay" if what == 2 else "question")
            elif what == 0:
                d.die(die, FACE_NAMES[self.roll[i]])
            elif what == 1:
                d.die(die, DIGITS[self.left if self.left < 7 else 7])
            else:
                d.die(die, "replay")
        for die in range(N_DICE):
            if not (used >> die) & 1:
                d.die(die, "blank")

    def look(self, now):
        """What the tracks show by time alone (blink phase, loss blink): the
        box redraws them when this changes or it was told to (box.redraw).
        Also turns the dice between the faces and the count after a round."""
        st = self.state
        if (st == CHECK or st == READY) and self.shown_roll:
            # after a round: the faces, then the true count (after a tie,
            # then the replay sign: a shape, not only the tune)
            cycle = _FACES_MS + _COUNT_MS + (_REPLAY_MS if self.replayed and st == READY else 0)
            phase = ticks.diff(now, self.state_at) % cycle
            self._draw_roll(0 if phase < _FACES_MS else 1 if phase < _FACES_MS + _COUNT_MS else 2)
        elif st == READY and self._tie_game():
            # before the tie-break game's first roll: a sign that this game is
            # one more among the tied, seen, not only told by the lit tracks
            self._draw_roll(2 if ticks.diff(now, self.state_at) % (2 * _TIE_GAME_MS) >= _TIE_GAME_MS else 0)
        blink = (ticks.diff(now, self.state_at) // _BLINK_MS) % 2 == 0
        loss_blink = st == READY and ticks.diff(now, self.scored_at) < _LOSS_MS
        fast = self.flashing and (ticks.diff(now, self.flash_at) // _FLASH_BLINK_MS) % 2 == 0
        return (4 if fast else 0) + (2 if loss_blink else 0) + (1 if blink else 0)

    def draw_tracks(self, now, look):
        """Every station's track, and its wheel LED: a press that did nothing,
        a false start, a refused grab or a penalty blinks it fast, on every
        screen."""
        box = self.box
        d = box.display
        fast = BAD if look & 4 else OFF
        for s in range(box.n):
            w = self._draw_track(s, now, look)
            d.wheel(s, fast if self.flash_on[s] else w)

    def _draw_track(self, s, now, look):
        """Station s's score track; returns its wheel LED's colour."""
        d = self.box.display
        st = self.state
        blink = look & 1
        m = self.match
        if m is None:
            d.score(s, 7 if self.box.joined[s] else 0, STATION[s])
            return OFF
        c = self.campaign
        if c is not None and (st == GAMEOVER or st == KING) and self.box.joined[s]:
            # between campaign games: each track shows that player's game
            # wins in their colour; the game's winner (the king) blinks
            won = c.king == s if st == KING else m.winner == s
            w = c.wins[s] if c.wins[s] < 7 else 7
            d.score(s, w if blink or not won else 0, STATION[s])
            return WHEEL if won else OFF
        if not m.joined[s]:
            d.score(s, 0, OFF)
            return OFF
        if not m.active[s]:
            out(d, s)
            return OFF
        p = m.points[s]
        colour = SCORE_LOW if p < 4 else SCORE
        if st == GAMEOVER or st == KING:
            won = m.winner == s
            d.score(s, 7 if won and blink else p, STATION[s] if won else colour)
            return WHEEL if won else OFF
        if look & 2 and m.lost[s]:
            # blink the points just lost
            d.score(s, p, colour, m.lost[s], BAD if blink else OFF)
        elif st == CHECK and m.owned[s]:
            # owned up: the points at stake blink red, with the wheel LED
            take = 2 if p > 2 else p
            d.score(s, p - take, colour, take, BAD if blink else OFF)
        else:
            d.score(s, p, colour)
        if m.holder[s] and st in (GRAB, CHECK):
            return BAD if (st == CHECK and m.owned[s] and blink) else WHEEL
        if st == READY and m.marked == s:
            # steady while their buzzer cannot roll yet (1 s), then blinking
            return MARK if blink or ticks.diff(now, self.scored_at) < GUARD_MS else OFF
        if st == CHECK and not m.holder[s] and blink:
            return BAD              # no wheel at the check: blinking (a held wheel is steady)
        return OFF
