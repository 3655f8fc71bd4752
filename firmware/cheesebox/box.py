"""The box's flow: join, choose dice, roll, grab, judge, score, game over.

The Box owns no hardware. Each step() reads the port's clock and inputs,
moves the game on, redraws the LED buffers and hands changed chains to the
port; next_wake() tells the caller how long nothing can happen, so the Pico
can sleep and the simulator can jump its virtual clock.

Buttons: each station has a buzzer; ROLL rolls on release. Holding ROLL for
300 ms and then pressing a buzzer gives that player a table penalty (a buzzer
pressed while ROLL was only touched is an ordinary press, and that ROLL press
then does nothing); holding ROLL for 2 s at game over ends the game (or the
King of the Cheese Mountain campaign).
"""
from array import array

try:
    from micropython import const  # pyright: ignore  (typed apart from our fallback)
except ImportError:  # CPython: the simulator and host tools
    def const(x):
        return x

from cheesebox import forget, run_once, ticks
from cheesebox import match as M
from cheesebox import sound
from cheesebox.capture import Capture, PRESS
from cheesebox.dice import CAMPAIGN, CHOICES, N_DICE, RandomRoller, dice_for_choice, default_dice
from cheesebox.display import (BAD, MARK, OFF, OUT, SCORE, SCORE_LOW, STATION, STUCK, WHEEL,
                                Display)
from cheesebox.events import EventLog, name
from cheesebox.faces import NAMES as FACE_NAMES
from cheesebox.rules import count_ids

ROLL_INPUT = const(8)          # capture input number of the ROLL button
N_INPUTS = const(9)
ROLL_MS = const(1500)          # roll animation; faces shown after it
FRAME_MS = const(90)
TOUR_MS = const(800)           # each face of the dice tour
CHECK_MS = const(30000)        # plate-card check ends by itself
CHECK_MIN_MS = const(3000)     # the true count is up this long before ROLL can end the check
SLAM_US = const(500000)        # a holder's press this soon after their grab: the same slam
LONG_MS = const(2000)          # long ROLL press
GUARD_MS = const(1000)         # a late slam can't start the next roll
REVEAL_GRACE_MS = const(1000)  # a press from before the reveal arrives within this
STALE_MS = const(60000)        # a ticks_us stamp older than this is only "before"
GESTURE_US = const(300000)     # ROLL held this long before a buzzer: a penalty
FLASH_MS = const(600)
LOSS_MS = const(2500)          # lost points blink on the tracks
BLINK_MS = const(250)
FACES_MS = const(1400)         # after a round: faces, then the count
COUNT_MS = const(900)

# Box states
JOIN = const(0)
MENU = const(1)
READY = const(2)
TOUR = const(3)
ROLLING = const(4)
GRAB = const(5)
CHECK = const(6)
GAMEOVER = const(7)
KING = const(8)
RESUME = const(9)
STATE_NAMES = ("join", "menu", "ready", "tour", "rolling", "grab", "check", "gameover", "king",
               "resume")
STUCK_MS = const(5000)         # a button held this long is stuck: ignored until let go

MENU_ICONS = ("cheese1", "cheese2", "cheese3", "dog", "innkeeper", "king")
DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7")


class Box:
    """The Cheese Master box on any port (see port.py)."""

    def __init__(self, board, port, rng, dice=None, roller=None, false_start_costs=False,
                 store=None, log=None, resume_now=False):
        self.board = board
        self.port = port
        self.rng = rng
        self.dice_names, self.dice_faces = dice if dice else default_dice()
        self.roller = roller if roller else RandomRoller(rng)
        self.false_start_costs = false_start_costs
        self.capture = Capture(N_INPUTS, board.debounce_ms * 1000, rng, board.glitch_ms * 1000)
        self.display = Display(board)
        self.tunes = sound.TunePlayer(port)
        self.n = board.stations
        self.joined = bytearray(8)
        self.choice = 0                # menu choice (dice.CHOICES)
        self.campaign = None
        self.match = None
        self.in_play = b""             # die numbers in play
        self.roll = bytearray(N_DICE)  # face of each die in play
        self.left = 0
        self.shown_roll = False        # a roll's faces are on the dice
        self.state = JOIN
        self.games = 0
        now = port.ticks_ms()
        self.now = now
        self.state_at = now
        self.next_frame = now
        self.tour_pos = 0
        self.tumble_seed = 1
        self.scored_at = now
        self.reveal_us = 0
        self.grab_us = array("i", [0] * 8)      # when each holder grabbed
        self.end_check = False         # ROLL pressed in the check's first 3 s
        self.roll_down = False
        self.roll_down_us = 0
        self.roll_used = False
        self.flash_until = array("i", [0] * 8)
        self.flash_on = bytearray(8)
        self.flashing = 0              # how many stations flash
        # electronic plates, as the port reports them: each station's last
        # placement (value, ticks_us) and the one before it, so a grab takes
        # the plate placed before the buzzer, not one keyed just after it
        self.answer_seq = bytearray(8)
        self.dials = board.plates == "dial"
        self.plate = bytearray(b"\xff" * 8)       # M.NO_ANSWER: none
        self.plate_old = bytearray(b"\xff" * 8)
        self.plate_us = array("i", [0] * 8)
        self.plate_ms = array("i", [0] * 8)       # when it was read (ticks_ms)
        # the port's placement times (port.py); a port without them: the read time
        self.answer_us = getattr(port, "answer_us", None)
        self.false_starts = 0
        self.store = store             # save.Store, or None: nothing is saved
        self.log = log if log is not None else EventLog()
        self.log.clock = port.ticks_ms
        self.saved = None              # a saved unfinished game, offered at power-up
        self.resumer = None            # the resume module, while it is offered
        self.notice = ""               # a problem to show at joining (bad saved file)
        self.down_since = array("i", [0] * N_INPUTS)   # when each input went down
        self.down = 0                  # inputs held down (bit mask)
        self.stuck = 0                 # inputs held too long: ignored until let go
        self._animate = True
        if store is not None:
            saved = store.load()
            if store.problem:
                self._problem(store.problem)
            if saved is not None:
                # resume.py checks the saved game and offers it: loaded only
                # while the box offers to resume, then dropped (heap)
                from cheesebox import resume
                self.saved = resume.unpack(self, saved)
                if self.saved is not None:
                    self.resumer = resume
                del resume
                if self.resumer is None:
                    forget("resume")
        self.log("boot", {"board": board.name, "resume": self.saved is not None})
        if self.saved is not None:
            self.state = RESUME
            if resume_now:               # back from a watchdog reset: no questions
                self._resume()
        self.redraw = True             # tracks need drawing (input, timer, state)
        self.look = -1                 # blink phase and loss blink last drawn
        self._render_dice()

    @property
    def animate(self):
        """False when nobody watches (the headless simulator): wake only for the
        game's own timers, no tunes, LEDs drawn only when draw() is called.
        The game plays exactly the same either way."""
        return self._animate

    @animate.setter
    def animate(self, on):
        self._animate = on
        self.tunes.on = on

    # -- the loop ---------------------------------------------------------
    def step(self):
        """Process everything due now; allocation-free in steady play."""
        port = self.port
        now = port.ticks_ms()
        self.now = now
        self.log.hold()
        port.poll(self.capture)
        if self.board.electronic:
            self._read_answers()
        cap = self.capture
        n = cap.pop(port.ticks_us())
        for i in range(n):
            self._on_input(cap.kind[i], cap.input[i], cap.time[i])
        self._timers(now)
        if self._animate:
            self.tunes.step(now)
            self._render(now)
            self.display.flush(port)
        self.log.release()

    def draw(self):
        """Bring every LED up to date now (also when not animating)."""
        self._render_dice()
        self.redraw = True
        self._render(self.port.ticks_ms())
        self.display.flush(self.port)

    def next_wake(self):
        """ms until something may happen without input; -1 for never."""
        now = self.port.ticks_ms()
        best = -1
        d = self.capture.next_deadline(self.port.ticks_us())
        if d >= 0:
            best = (d + 999) // 1000
        w = self._timer_wake(now)
        if w >= 0 and (best < 0 or w < best):
            best = w
        w = self._stuck_wake(now)
        if w >= 0 and (best < 0 or w < best):
            best = w
        if self._animate:
            w = self.tunes.wake_in(now)
            if w >= 0 and (best < 0 or w < best):
                best = w
        return best

    def _timer_wake(self, now):
        st = self.state
        if st == ROLLING:
            reveal = max(0, ROLL_MS - ticks.diff(now, self.state_at))
            if self._animate:
                return min(reveal, max(0, ticks.diff(self.next_frame, now)))
            return reveal
        if st == TOUR:
            return max(0, ticks.diff(self.next_frame, now))
        w = -1
        if st == CHECK:
            w = max(0, (CHECK_MIN_MS if self.end_check else CHECK_MS) - ticks.diff(now, self.state_at))
        if not self._animate:
            return w
        if self._blinking(now):
            b = BLINK_MS - ticks.diff(now, self.state_at) % BLINK_MS
            if w < 0 or b < w:
                w = b
        if self.flashing:
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
            if m is not None and (m.marked >= 0 or self.shown_roll):
                return True
            if ticks.diff(now, self.scored_at) < LOSS_MS:
                return True
        return False

    # -- inputs -----------------------------------------------------------
    def _read_answers(self):
        port = self.port
        if port.answer_seq == self.answer_seq:
            return
        for s in range(self.n):
            if port.answer_seq[s] != self.answer_seq[s]:
                self.answer_seq[s] = port.answer_seq[s]
                self.plate_old[s] = self.plate[s]
                self.plate[s] = port.answer_val[s]
                us = self.answer_us
                self.plate_us[s] = us[s] if us is not None else port.ticks_us()
                self.plate_ms[s] = self.now

    def _placed_before(self, s, t_us):
        """Station s's last placement came at or before t_us (a press being
        handled now). ticks_us differences mean something only within half
        their 2**30 us period: a placement read over a minute ago is simply
        before (a dial left alone for ten minutes still shows its plate)."""
        if ticks.diff(self.now, self.plate_ms[s]) > STALE_MS:
            return True
        return ticks.diff(self.plate_us[s], t_us) <= 0

    def _plate_at(self, s, t_us):
        """Station s's plate at time t_us: the last placement before it."""
        if self._placed_before(s, t_us):
            return self.plate[s]
        return self.plate_old[s]

    def _plates_from(self, t_us):
        """A new round (answer keys): only keys pressed from t_us on count."""
        if self.dials:
            return                       # a dial keeps showing its plate
        for s in range(8):
            self.plate_old[s] = M.NO_ANSWER
            if self._placed_before(s, t_us) and self.plate_us[s] != t_us:
                self.plate[s] = M.NO_ANSWER

    def _on_input(self, kind, inp, t_us):
        bit = 1 << inp
        if kind == PRESS:
            self.down |= bit
            self.down_since[inp] = self.now
        else:
            self.down &= ~bit
            if self.stuck & bit:
                self.stuck &= ~bit          # let go at last: it counts again
                self.redraw = True
                self.log("unstuck", {"input": self._input_name(inp)})
                if inp == ROLL_INPUT:
                    self.roll_down = False
                return
        if self.stuck & bit:
            return
        if kind == PRESS or inp == ROLL_INPUT:
            self.redraw = True
        if inp == ROLL_INPUT:
            if kind == PRESS:
                self.roll_down = True
                self.roll_down_us = t_us
                self.roll_used = False
            elif self.roll_down:
                self.roll_down = False
                if not self.roll_used:
                    if ticks.diff(t_us, self.roll_down_us) >= LONG_MS * 1000:
                        self._on_long_roll(t_us)
                    else:
                        self._on_roll(t_us)
            return
        if kind != PRESS or inp >= self.n:
            return
        if self.roll_down:
            # a ROLL press a buzzer overlapped does nothing when let go
            self.roll_used = True
            if ticks.diff(t_us, self.roll_down_us) >= GESTURE_US:
                # the deliberate gesture: a table penalty in a game, else nothing
                if self._in_game():
                    self._penalty(inp)
                return
        if self.log.write is not None and self._in_game() and self.match.joined[inp]:
            self.log("press", {"p": name(inp), "t_us": t_us})     # a player's press only
        self._on_buzz(inp, t_us)

    def _input_name(self, inp):
        return "ROLL" if inp == ROLL_INPUT else name(inp)

    def _check_stuck(self, now):
        """Flag inputs held down for STUCK_MS: a jammed switch must not hold
        the game (a stuck ROLL would turn every grab into a penalty)."""
        held = self._held()
        if not held:
            return
        for i in range(N_INPUTS):
            if (held >> i) & 1 and ticks.diff(now, self.down_since[i]) >= STUCK_MS:
                self.stuck |= 1 << i
                self.redraw = True
                if i == ROLL_INPUT:
                    self.roll_down = False
                    self.roll_used = True
                self.log("stuck", {"input": self._input_name(i)})

    def _held(self):
        """Inputs down (press seen) and not let go, per the debounced level."""
        return self.down & self.capture.stable & ~self.stuck

    def _stuck_wake(self, now):
        held = self._held()
        if not held:
            return -1
        w = -1
        for i in range(N_INPUTS):
            if (held >> i) & 1:
                d = max(0, STUCK_MS - ticks.diff(now, self.down_since[i]))
                if w < 0 or d < w:
                    w = d
        return w

    def _in_game(self):
        """True while a game runs (penalties count, presses are logged)."""
        return self.state in (READY, TOUR, ROLLING, GRAB, CHECK)

    def _on_buzz(self, s, t_us):
        st = self.state
        m = self.match
        if st == JOIN:
            self.joined[s] ^= 1
            self.notice = ""
            self.tunes.play(sound.JOIN if self.joined[s] else sound.LEAVE, self.now)
            self.log("join" if self.joined[s] else "leave", {"p": name(s)})
            if self._animate:
                self._render_dice()         # the wheels for this many players
        elif st == MENU:
            self.choice = (self.choice + 1) % len(CHOICES)
            self.tunes.play(sound.MENU, self.now)
            if self._animate:
                self._render_dice()         # the dice of this choice
        elif st == READY:
            if m.marked == s:
                if ticks.diff(self.now, self.scored_at) >= GUARD_MS:
                    self._start_roll(t_us)
                else:
                    # a late slam right after scoring does not roll: say so
                    self.tunes.play(sound.TOO_SOON, self.now)
            elif m.marked < 0 and m.round_no == 0 and m.active[s]:
                self._set_state(TOUR)
                self.tour_pos = 0
                self.next_frame = self.now
        elif st == TOUR:
            self._set_state(READY)
        elif st == ROLLING or (st == GRAB and self._before_reveal(t_us)):
            if m.active[s]:
                self.false_starts += 1
                self.log("false_start", {"p": name(s)})
                if self.false_start_costs:
                    self._penalty(s)
                else:
                    self._flash(s)
                    self.tunes.play(sound.FALSE_START, self.now)
        elif st == GRAB:
            r = m.press(s, self._plate_at(s, t_us)) if self.board.electronic else m.press(s)
            if r == M.GRAB:
                self.grab_us[s] = t_us
                self.tunes.play(sound.GRAB, self.now)
                if self.log.write is not None:
                    self.log("grab", {"p": name(s), "t_us": t_us,
                                      "plate": m.locked[s] if self.board.electronic else None})
            elif r == M.REFUSED:
                self.log("refused", {"p": name(s), "points": m.points[s]})
                self._flash(s)
                self.tunes.play(sound.REFUSED, self.now)
                self._after_loss()
                self._save_loss()
            self._after_grab()
        elif st == CHECK:
            if m.holder[s] and ticks.diff(t_us, self.grab_us[s]) < SLAM_US:
                return                      # the grab's own slam, bouncing on: not an own-up
            r = m.press(s)
            if r == M.OWNED_UP or r == M.TAKEN_BACK:
                self.log("own_up" if r == M.OWNED_UP else "take_back", {"p": name(s)})
            if r == M.OWNED_UP:
                self.tunes.play(sound.OWN_UP, self.now)
            elif r == M.TAKEN_BACK:
                self.tunes.play(sound.TAKE_BACK, self.now)

    def _before_reveal(self, t_us):
        """A press stamped before the faces were shown (it reaches the box a
        debounce window after it happened). ticks_us differences only mean
        something within half their 2**30 us period, so a press handled long
        after the reveal is never compared: it is a grab."""
        if ticks.diff(self.now, self.state_at) >= REVEAL_GRACE_MS:
            return False
        return ticks.diff(t_us, self.reveal_us) < 0

    def _after_grab(self):
        m = self.match
        if self.state == GRAB and m.phase == M.CHECKING:
            if self.board.electronic:
                self._score()
            else:
                self._set_state(CHECK)

    def _on_roll(self, t_us):
        st = self.state
        if st == RESUME:
            self._resume()
        elif st == JOIN:
            if sum(self.joined) >= 2:
                self._set_state(MENU)
                self.tunes.play(sound.MENU, self.now)
        elif st == MENU:
            self.campaign = None
            if self.choice == CAMPAIGN:
                from cheesebox.campaign import Campaign     # only for a campaign (heap)
                self.campaign = Campaign(self.rng)
            self._new_game(None)
        elif st == READY or st == TOUR:
            self._start_roll(t_us)
        elif st == CHECK:
            if ticks.diff(self.now, self.state_at) >= CHECK_MIN_MS:
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
            self._back_to_join()

    def _on_long_roll(self, t_us):
        st = self.state
        if st == RESUME:
            # a new game instead: the saved one is dropped
            self.saved = None
            self._done_resuming()
            if self.store is not None:
                self.store.clear()
            self.log("discard", None)
            self._set_state(JOIN)
        elif st == GAMEOVER:
            if self.campaign is not None:
                self._end_campaign()
            else:
                self._back_to_join()
        elif self.campaign is not None and self._in_game():
            # the table abandons the campaign: no king, back to joining
            self._back_to_join()
        elif st != KING:
            self._on_roll(t_us)

    def _back_to_join(self):
        """Joining again: nobody has joined yet; the campaign and the saved game are over."""
        for s in range(8):
            self.joined[s] = 0
        self.campaign = None
        self.match = None
        if self.store is not None:
            self.store.clear()
        self._set_state(JOIN)


    # -- the game ---------------------------------------------------------
    def players(self):
        return [s for s in range(self.n) if self.joined[s]]

    def _new_game(self, stations):
        if stations is None:
            stations = self.players()
        c = self.campaign
        if c is not None:
            self.in_play = c.next_game()
        else:
            self.in_play = dice_for_choice(self.choice)
        self.match = M.Match(stations, self.board.electronic, self.false_start_costs, self.dials)
        self.games += 1
        self.shown_roll = False
        self.scored_at = ticks.add(self.now, -LOSS_MS)
        self._set_state(READY)
        self.log("game", {"players": [name(s) for s in stations],
                          "dice": [self.dice_names[d] for d in self.in_play],
                          "campaign": c.game if c is not None else None})
        self._save()

    def _end_campaign(self):
        c = self.campaign
        pool = c.tiebreak if c.tiebreak else self.players()
        leaders = c.leaders(pool)
        if len(leaders) == 1:
            c.king = leaders[0]
            c.tiebreak = []
            if self.store is not None:
                self.store.clear()          # the campaign is over: nothing to resume
            self._set_state(KING)
            self.tunes.play(sound.KING, self.now)
        else:
            c.tiebreak = leaders
            self._new_game(leaders)

    def _start_roll(self, t_us):
        m = self.match
        m.start_round()
        if self.board.electronic:
            self._plates_from(t_us)
        self.log("roll", {"round": m.round_no})
        self.shown_roll = False
        self._set_state(ROLLING)
        self.next_frame = self.now
        self.tunes.play(sound.ROLL, self.now)

    def _reveal(self):
        # the faces are decided when they are shown, not when the roll starts
        self.roller.roll(self.dice_faces, self.in_play, self.roll)
        self.left = count_ids(memoryview(self.roll)[:len(self.in_play)])
        self.match.reveal(self.left)
        self._set_state(GRAB)
        if self.log.write is not None:
            self.log("faces", {"faces": [FACE_NAMES[self.roll[i]]
                                         for i in range(len(self.in_play))], "left": self.left})
        self.shown_roll = True
        if self._animate:
            self._render_dice()
            self.display.flush(self.port)
        self.reveal_us = self.port.ticks_us()
        self.tunes.play(sound.REVEAL, self.now)

    def _score(self):
        m = self.match
        res = m.finish_round()
        self.scored_at = self.now
        if self.log.write is not None:
            self.log("score", {"round": m.round_no, "left": m.left,
                               "result": ("scored", "replay", "gameover")[res],
                               "lost": dict((name(s), m.lost[s]) for s in range(8) if m.lost[s]),
                               "points": dict((name(s), m.points[s]) for s in range(8)
                                              if m.joined[s]),
                               "out": [name(s) for s in m.eliminated]})
        if res == M.REPLAY:
            self.tunes.play(sound.REPLAY, self.now)
        elif m.phase == M.OVER:
            self._game_over()
            return
        elif any(m.lost[s] >= 2 for s in range(8)) or m.eliminated:
            self.tunes.play(sound.LOSS, self.now)
        self._set_state(READY)
        self._save()

    def _penalty(self, s):
        m = self.match
        if m is None or not m.penalty(s):
            return
        self._flash(s)
        self.tunes.play(sound.PENALTY, self.now)
        self.log("penalty", {"p": name(s), "points": m.points[s]})
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
        m = self.match
        if self.campaign is not None:
            self.campaign.record(m.winner)
        self.log("winner", {"p": name(m.winner), "out": [name(s) for s in m.eliminated]})
        if self.store is not None:
            if self.campaign is not None:
                self._save()               # the campaign goes on: keep its tally
            else:
                self.store.clear()
        self._set_state(GAMEOVER)
        self.tunes.play(sound.WIN, self.now)

    def _flash(self, s):
        if not self.flash_on[s]:
            self.flashing += 1
        self.flash_on[s] = 1
        self.flash_until[s] = ticks.add(self.now, FLASH_MS)

    def _set_state(self, st):
        self.redraw = True
        self.end_check = False
        self.state = st
        self.state_at = self.now
        if self._animate:
            self._render_dice()

    # -- timers -----------------------------------------------------------
    def _timers(self, now):
        self._check_stuck(now)
        st = self.state
        if st == ROLLING:
            if ticks.diff(now, self.state_at) >= ROLL_MS:
                self._reveal()
            elif self._animate and ticks.diff(now, self.next_frame) >= 0:
                self._tumble()
                self.next_frame = ticks.add(now, FRAME_MS)
        elif st == TOUR:
            if ticks.diff(now, self.next_frame) >= 0:
                if self.tour_pos >= 6:
                    self._set_state(READY)
                else:
                    self._tour_frame()
                    self.tour_pos += 1
                    self.next_frame = ticks.add(now, TOUR_MS)
        elif st == CHECK:
            since = ticks.diff(now, self.state_at)
            if since >= CHECK_MS or (self.end_check and since >= CHECK_MIN_MS):
                self._score()
        if not self.flashing:
            return
        for s in range(8):
            if self.flash_on[s] and ticks.diff(now, self.flash_until[s]) >= 0:
                self.flashing -= 1
                self.flash_on[s] = 0
                self.redraw = True

    # -- drawing ----------------------------------------------------------
    def _tumble(self):
        """A frame of tumbling faces. Its own pseudo-random numbers: drawing
        must never use up the game's random source (rolls, tie-breaks)."""
        d = self.display
        x = self.tumble_seed
        for i in range(len(self.in_play)):
            x = (x * 75 + 74) % 65537       # small LCG: stays a small int on a Pico
            die = self.in_play[i]
            d.die(die, FACE_NAMES[self.dice_faces[die][x % 6]])
        self.tumble_seed = x

    def _tour_frame(self):
        d = self.display
        for i in range(len(self.in_play)):
            die = self.in_play[i]
            d.die(die, FACE_NAMES[self.dice_faces[die][self.tour_pos]])

    def _render_dice(self):
        """The dice matrices for the current state (not the animations)."""
        d = self.display
        st = self.state
        if st == JOIN:
            wheels = sum(self.joined) - 1
            for i in range(N_DICE):
                d.die(i, "wheel" if i < wheels else "blank")
            if self.notice:
                d.die(0, "cross")           # a saved game was set aside (see the log)
        elif st == RESUME:
            # a saved game: check = ROLL resumes it, plus = hold ROLL for a new one
            for i in range(N_DICE):
                d.die(i, "check" if i == 0 else ("plus" if i == 1 else "blank"))
        elif st == MENU:
            if self.choice == CAMPAIGN:
                for i in range(N_DICE):
                    d.die(i, "crown")
            else:
                k = 3 + self.choice
                for i in range(N_DICE):
                    d.die(i, MENU_ICONS[i] if i < k else "blank")
        elif st == GAMEOVER or st == KING:
            for i in range(N_DICE):
                d.die(i, "crown")
        elif st in (READY, TOUR, ROLLING, GRAB, CHECK):
            self._draw_roll(True)

    def _draw_roll(self, faces):
        d = self.display
        used = 0
        for i in range(len(self.in_play)):
            die = self.in_play[i]
            used |= 1 << die
            if not self.shown_roll:
                d.die(die, "question")
            elif faces:
                d.die(die, FACE_NAMES[self.roll[i]])
            else:
                d.die(die, DIGITS[self.left if self.left < 7 else 7])
        for die in range(N_DICE):
            if not (used >> die) & 1:
                d.die(die, "blank")

    def _render(self, now):
        d = self.display
        st = self.state
        if (st == CHECK or st == READY) and self.shown_roll:
            # after a round: the faces, then the true count
            phase = ticks.diff(now, self.state_at) % (FACES_MS + COUNT_MS)
            self._draw_roll(phase < FACES_MS)
        since = ticks.diff(now, self.state_at)
        blink = (since // BLINK_MS) % 2 == 0
        loss_blink = st == READY and ticks.diff(now, self.scored_at) < LOSS_MS
        look = (2 if loss_blink else 0) + (1 if blink else 0)
        if not self.redraw and look == self.look:
            return      # the tracks show exactly this already
        self.redraw = False
        self.look = look
        m = self.match
        if st == RESUME:
            self.resumer.render_saved(self)
            return
        for s in range(self.n):
            if self.stuck & (1 << s):
                d.score(s, 7, STUCK if blink else OFF)
                d.wheel(s, STUCK)
                continue
            if st == JOIN or m is None:
                d.score(s, 7 if self.joined[s] else 0, STATION[s])
                d.wheel(s, OFF)
                continue
            c = self.campaign
            if c is not None and (st == GAMEOVER or st == KING) and self.joined[s]:
                # between campaign games: each track shows that player's game
                # wins in their colour; the game's winner (the king) blinks
                won = c.king == s if st == KING else m.winner == s
                w = c.wins[s] if c.wins[s] < 7 else 7
                d.score(s, w if blink or not won else 0, STATION[s])
                d.wheel(s, WHEEL if won else OFF)
                continue
            if not m.joined[s]:
                d.score(s, 0, OFF)
                d.wheel(s, OFF)
                continue
            if not m.active[s]:
                d.score(s, 1, OUT)
                d.wheel(s, OFF)
                continue
            p = m.points[s]
            colour = SCORE_LOW if p < 4 else SCORE
            if st == GAMEOVER or st == KING:
                won = m.winner == s
                d.score(s, 7 if won and blink else p, STATION[s] if won else colour)
                d.wheel(s, WHEEL if won else OFF)
                continue
            if loss_blink and m.lost[s]:
                # blink the points just lost
                d.score(s, p, colour, m.lost[s], BAD if blink else OFF)
            elif st == CHECK and m.owned[s]:
                # owned up: the points at stake blink red, with the wheel LED
                take = 2 if p > 2 else p
                d.score(s, p - take, colour, take, BAD if blink else OFF)
            else:
                d.score(s, p, colour)
            if self.flash_on[s]:
                w = BAD
            elif m.holder[s] and st in (GRAB, CHECK):
                w = BAD if (st == CHECK and m.owned[s] and blink) else WHEEL
            elif st == READY and m.marked == s:
                # steady while their buzzer cannot roll yet (1 s), then blinking
                w = MARK if blink or ticks.diff(now, self.scored_at) < GUARD_MS else OFF
            elif st == CHECK and not m.holder[s]:
                w = BAD
            else:
                w = OFF
            d.wheel(s, w)

    # -- saving and resuming ----------------------------------------------
    def snapshot(self):
        """The box between rounds, as save.py writes it."""
        c = self.campaign
        return {"v": 1, "board": self.board.name, "joined": list(self.joined),
                "choice": self.choice, "in_play": list(self.in_play), "games": self.games,
                "match": self.match.snapshot(),
                "campaign": c.snapshot() if c is not None else None}

    def _save(self):
        if self.store is None or self.match is None:
            return
        try:
            self.store.save(self.snapshot())
        except OSError as e:              # flash full or failing: play on, say so
            self.log("error", {"what": "cannot save the game: %s" % e})

    def _problem(self, what):
        """A saved game that cannot be used: said on the log and, at joining, on the dice."""
        self.notice = what
        self.log("error", {"what": what})

    def _resume(self):
        """Back to the saved game, between rounds, the marked player to roll."""
        if self.resumer is not None:
            self.resumer.apply(self)
        self._done_resuming()

    def _done_resuming(self):
        self.resumer = None
        forget("resume")

    # -- serial commands ----------------------------------------------------
    def command(self, line):
        """One line from the USB serial console; answers on the event log.
        (console.py, loaded for the line and dropped again: commands are rare.)"""
        run_once("console", "command", self, line)

    # -- for the simulator, tests and the event log ----------------------
    def wants_edge(self, inp, level):
        """False for an edge that can change nothing now: a buzzer let go.

        The simulator uses it to skip waking the box for such edges (the edge
        is still delivered, with its own timestamp, at the next step)."""
        return level or inp == ROLL_INPUT or (self.stuck >> inp) & 1

    @property
    def rolling(self):
        """The dice are tumbling: nothing to judge for 1.5 s."""
        return self.state == ROLLING

    def state_name(self):
        return STATE_NAMES[self.state]
