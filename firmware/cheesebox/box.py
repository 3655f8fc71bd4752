"""The box: the shell that hosts the games (games.py lists them).

The box owns what every game needs and no game's rules: the buttons
(capture, stuck buttons, ROLL's short and long presses, the penalty
gesture), the electronic plates, the LEDs, the tunes, the saved game and
the offer to resume it, the event log and the serial console, and the
joining screen, where players join with their buzzers and a long ROLL press
switches the game. ROLL starts the game; the game's module (game.py) then
owns the flow and the drawing until it hands the table back to joining.

The Box owns no hardware. Each step() reads the port's clock and inputs,
moves the game on, redraws the LED buffers and hands changed chains to the
port; next_wake() tells the caller how long nothing can happen, so the Pico
can sleep and the simulator can jump its virtual clock.

Buttons: each station has a buzzer; ROLL acts on release. Holding ROLL for
300 ms and then pressing a buzzer is the gesture (Cheese Master: a table
penalty); a buzzer pressed while ROLL was only touched is an ordinary press,
and that ROLL press then does nothing. ROLL held for 2 s is a long press.

Stopping a game: a long ROLL while the game is in progress (the game says
when: game.in_progress()) asks "stop?" on the dice, with the game frozen.
ROLL within 5 s stops it (logged, the save dropped, back to joining);
anything else, or 5 s, and the game goes on exactly where it was (its
timers moved on by the pause: game.paused(ms)). One gesture for every game,
so no game can give a long ROLL a meaning of its own mid-game.
"""
from array import array

from micropython import const

from cheesebox import forget, games, run_once, sound, ticks
from cheesebox.capture import Capture, PRESS
from cheesebox.board import N_DICE
from cheesebox.display import OFF, STATION, STUCK, Display
from cheesebox.events import EventLog, name

_ROLL_INPUT = const(8)          # capture input number of the ROLL button
N_INPUTS = const(9)
_LONG_MS = const(2000)          # long ROLL press
_STALE_MS = const(60000)        # a ticks_us stamp older than this is only "before"
_GESTURE_US = const(300000)     # ROLL held this long before a buzzer: the gesture
_ASK_MS = const(5000)           # "stop?" waits this long for ROLL, then the game goes on
STUCK_MS = const(5000)         # a button held this long is stuck: ignored until let go
_BLINK_MS = const(250)
NO_ANSWER = const(255)         # no plate placed

# the box's own states; while a game plays, box.state is the game's
JOIN = const(0)
_RESUME = const(9)
_PLAY = const(10)


def _forget_game(entry):
    """On the Pico, leaving a game that is not resident (games.py) drops its
    package, so the next game has the heap. On CPython (the simulator, tests,
    host tools) nothing is dropped: the host program shares its modules, and
    a second copy would bring second copies of its classes."""
    import sys
    if entry[games.RESIDENT] or sys.implementation.name != "micropython":
        return
    pkg = entry[games.MODULE].split(".")[0]
    for m in list(sys.modules):
        if m.startswith(pkg + "."):
            forget(m)
    sys.modules.pop(pkg, None)


class Box:
    """The box on any port (see port.py), hosting one game at a time."""

    def __init__(self, board, port, rng, store=None, log=None, resume_now=False, game=0,
                 options=None):
        self.board = board
        self.port = port
        self.rng = rng
        # what the host sets for the games (house rules, the simulator's
        # scripted dice): each game documents the keys it reads (game.py)
        self.options = options if options is not None else {}
        self.capture = Capture(N_INPUTS, board.debounce_ms * 1000, rng, board.glitch_ms * 1000)
        self.display = Display(board)
        self.tunes = sound.TunePlayer(port)
        self.n = board.stations
        self.joined = bytearray(8)
        self.mode = JOIN
        self.games = 0                 # games started since power-up
        self.keep = {}                 # what games keep across tables (a game's last settings)
        self.game = None               # the game playing (a game.py object)
        self.picked = game             # games.GAMES number offered at joining
        self.module = None             # its module (loaded below: the saved game's, if any)
        now = port.ticks_ms()
        self.now = now
        self.roll_down = False
        self.roll_down_us = 0
        self.roll_used = False
        # electronic plates, as the port reports them: each station's last
        # placement (value, ticks_us) and the one before it, so a grab takes
        # the plate placed before the buzzer, not one keyed just after it
        self.answer_seq = bytearray(8)
        self.dials = board.plates == "dial"
        self.plate = bytearray(b"\xff" * 8)       # NO_ANSWER: none
        self.plate_old = bytearray(b"\xff" * 8)
        self.plate_us = array("i", [0] * 8)
        self.plate_ms = array("i", [0] * 8)       # when it was read (ticks_ms)
        # the port's placement times (port.py); a port without them: the read time
        self.answer_us = getattr(port, "answer_us", None)
        self.store = store             # save.Store, or None: nothing is saved
        self.log = log if log is not None else EventLog()
        self.log.clock = port.ticks_ms
        self.saved = None              # a saved unfinished game, offered at power-up
        self.notice = ""               # a problem to show at joining (bad saved file)
        self.notice_code = 0           # its error code, shown beside the cross (0: none)
        self.down_since = array("i", [0] * N_INPUTS)   # when each input went down
        self.down = 0                  # inputs held down (bit mask)
        self.stuck = 0                 # inputs held too long: ignored until let go
        self._animate = True
        self.redraw = True             # tracks need drawing (input, timer, state)
        self.look = -1                 # the picture last drawn (game.look, stuck blink)
        self.asking = False            # "stop?" is up: the game is frozen
        self.ask_at = 0                # when it was asked (ticks_ms)
        self.icons_baked = ""           # why the game's icons were baked here ("": not)
        if store is not None:
            self._read_during_saves(store)
        if store is not None:           # the table's brightness and volume (settings.py)
            run_once("settings", "apply", self)
        if store is not None:           # the saved game's module, or the first pick
            self.saved = run_once("offer", "saved_game", self, store)
        else:
            self.offer_game(self.picked)
        from cheesebox.version import VERSION   # (here: the LEDs went out before it loads)
        boot = {"board": board.name, "resume": self.saved is not None, "version": VERSION}
        baked = self.display.baked or self.icons_baked
        if baked:                       # not as the host baked them for this board: why
            boot["icons_baked"] = baked
        self.log("boot", boot)
        if self.saved is not None:
            self.mode = _RESUME
            # back from a watchdog reset, or a finished game's result: no questions
            if resume_now or self.saved[3]:
                self._resume()
        self._render_dice()

    @property
    def animate(self):
        """True as the box runs, and in every scenario, test and referee run.
        False only in a speed benchmark (bench/run.py): no tunes, no
        animation frames, no waking for blinks, the LEDs drawn only when draw()
        is called. Then the drawing code does not run at all, so a crash in
        it goes unseen (an exchange in Cheesonomics crashed only when
        animating); the game's decisions and timing should not change
        (tests/test_properties.py compares both)."""
        return self._animate

    @animate.setter
    def animate(self, on):
        self._animate = on
        self.tunes.on = on

    @property
    def state(self):
        """JOIN, _RESUME, or the game's own state number while it plays."""
        return self.game.state if self.mode == _PLAY else self.mode

    def state_name(self):
        if self.mode == _PLAY:
            return "stop?" if self.asking else self.game.state_name()
        return "join" if self.mode == JOIN else "resume"

    @property
    def rolling(self):
        """A quiet moment (the dice tumbling): the Pico collects garbage then."""
        return self.mode == _PLAY and self.game.rolling

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
        self._check_stuck(now)
        if self.asking:
            self._ask_timer(now)
        elif self.mode == _PLAY:
            self.game.timers(now)
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

    def show_now(self):
        """Put the LED buffers on the wires now, mid-step (the faces of a roll
        go out before the tune and the log: the grabs are timed from them)."""
        self.display.flush(self.port)

    def show_tracks(self):
        """Draw the tracks and put every changed LED on the wires now, tracks
        first: a press's own LED goes out before the dice are drawn or the flash
        written (a die drawn in Python took ~8 ms on a Pico, a save ~70 ms).
        Not while a game is being set up or resumed: step() draws it then."""
        if self._animate and self.mode != _RESUME and (self.mode == _PLAY) == (self.game is not None):
            self._render(self.now)
            self.display.flush(self.port)

    def ticks_us(self):
        """The port's microsecond clock (compare with ticks.diff only)."""
        return self.port.ticks_us()

    def confirm_in_us(self):
        """us until a press being held down may count (-1: none pending): the
        Pico wakes at that microsecond (port.idle), so its LED goes out sooner."""
        return self.capture.next_deadline(self.port.ticks_us())

    def next_wake(self):
        """ms until something may happen without input; -1 for never."""
        now = self.port.ticks_ms()
        best = -1
        d = self.capture.next_deadline(self.port.ticks_us())
        if d >= 0:
            best = (d + 999) // 1000
        if self.asking:
            w = self._ask_wake(now)
        else:
            w = self.game.timer_wake(now) if self.mode == _PLAY else -1
        if w >= 0 and (best < 0 or w < best):
            best = w
        w = self._stuck_wake(now)
        if w >= 0 and (best < 0 or w < best):
            best = w
        if self._animate:
            w = self.tunes.wake_in(now)
            if w >= 0 and (best < 0 or w < best):
                best = w
            if self.stuck:
                w = _BLINK_MS - now % _BLINK_MS
                if best < 0 or w < best:
                    best = w
        return best

    # -- the plates ---------------------------------------------------------
    def _read_during_saves(self, store):
        """A save holds the loop (~80 ms, up to 450 ms at the flash's
        slowest): between its writes the port reads the buttons, the keys
        and the dials (port.between), so a key pressed meanwhile is stamped
        then, not after the save (after a buzzer it came before)."""
        between = getattr(self.port, "between", None)
        if between is None:
            return
        cap = self.capture

        def read_inputs():
            between(cap)
        store.between = read_inputs

    def plates_in(self, t_us):
        """Every placement stamped at or before t_us has reached the box: a
        dial's new position is reported after several reads (port.reported_to),
        and a save or a long step can hold them. A dial grab is locked then."""
        return self.port.answer_seq == self.answer_seq and self.port.reported_to(t_us)

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
                if self.mode == _PLAY and not (self.stuck >> s) & 1:
                    if self.asking:
                        self._go_on("plate")    # the plate still counts for the game
                    self.game.on_answer(s, self.plate[s])

    def _placed_before(self, s, t_us):
        """Station s's last placement came at or before t_us (a press being
        handled now). ticks_us differences mean something only within half
        their 2**30 us period: a placement read over a minute ago is simply
        before (a dial left alone for ten minutes still shows its plate)."""
        if ticks.diff(self.now, self.plate_ms[s]) > _STALE_MS:
            return True
        return ticks.diff(self.plate_us[s], t_us) <= 0

    def plate_at(self, s, t_us):
        """Station s's plate at time t_us: the last placement before it."""
        if self._placed_before(s, t_us):
            return self.plate[s]
        return self.plate_old[s]

    def plates_from(self, t_us):
        """A new round (answer keys): only keys pressed from t_us on count."""
        if self.dials:
            return                       # a dial keeps showing its plate
        for s in range(8):
            self.plate_old[s] = NO_ANSWER
            if self._placed_before(s, t_us) and self.plate_us[s] != t_us:
                self.plate[s] = NO_ANSWER

    # -- buttons ------------------------------------------------------------
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
                if inp == _ROLL_INPUT:
                    self.roll_down = False
                return
        if self.stuck & bit:
            return
        if kind == PRESS or inp == _ROLL_INPUT:
            self.redraw = True
        if inp == _ROLL_INPUT:
            if kind == PRESS:
                self.roll_down = True
                self.roll_down_us = t_us
                self.roll_used = False
            elif self.roll_down:
                self.roll_down = False
                if not self.roll_used:
                    long = ticks.diff(t_us, self.roll_down_us) >= _LONG_MS * 1000
                    if self.asking:
                        if long:
                            self._go_on("long ROLL")
                        else:
                            self._stop()
                    elif long:
                        self._on_long_roll(t_us)
                    else:
                        self._on_roll(t_us)
            return
        if kind != PRESS or inp >= self.n:
            return
        if self.asking:
            # any buzzer (also in a gesture): the game goes on; the press does
            # nothing else, nor does the ROLL press it overlapped
            if self.roll_down:
                self.roll_used = True
            self._go_on(name(inp))
            return
        if self.roll_down:
            # a ROLL press a buzzer overlapped does nothing when let go
            self.roll_used = True
            if ticks.diff(t_us, self.roll_down_us) >= _GESTURE_US:
                # the deliberate gesture: the game's (a penalty); at joining,
                # buzzer 1 steps the brightness, buzzer 2 the volume
                if self.mode == _PLAY:
                    self.game.on_gesture(inp)
                elif self.mode == JOIN and inp < 2:
                    run_once("settings", "step", self, inp)
                return
        if self.mode == JOIN:
            self._on_join(inp)
        elif self.mode == _PLAY:
            self.game.on_buzz(inp, t_us)

    def _input_name(self, inp):
        return "ROLL" if inp == _ROLL_INPUT else name(inp)

    def stuck_names(self):
        """The inputs ignored as stuck now ("P3", "ROLL")."""
        return [self._input_name(i) for i in range(N_INPUTS) if (self.stuck >> i) & 1]

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
                if i == _ROLL_INPUT:
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

    # -- joining and picking the game ----------------------------------------
    def _on_join(self, s):
        self.joined[s] ^= 1
        self.notice = ""
        self.notice_code = 0
        self.tunes.play(sound.JOIN if self.joined[s] else sound.LEAVE, self.now)
        self.log("join" if self.joined[s] else "leave", {"p": name(s)})
        if self._animate:
            self.redraw = True
            self.show_tracks()
            self._render_dice()         # the picture for this many players

    def players(self):
        return [s for s in range(self.n) if self.joined[s]]

    def _on_roll(self, t_us):
        if self.mode == _RESUME:
            self._resume()
        elif self.mode == JOIN:
            self._start_game()
        else:
            self.game.on_roll(t_us)

    def _on_long_roll(self, t_us):
        if self.mode == _RESUME:
            # a new game instead: the saved one is dropped
            self.saved = None
            if self.store is not None:
                self.store.clear()
            self.log("discard", None)
            self.mode = JOIN
            self.redraw = True
            self._render_dice()
        elif self.mode == JOIN:
            self.pick_game(self.picked + 1)
        elif self.game.in_progress():
            self._ask_stop()
        else:
            self.game.on_long_roll(t_us)

    # -- stopping a game ------------------------------------------------------
    def _ask_stop(self):
        """A long ROLL mid-game: "stop?" on the dice, the game frozen."""
        self.asking = True
        self.ask_at = self.now
        self.log("stop_asked", {"state": self.game.state_name()})
        self.tunes.play(sound.MENU, self.now)
        self.redraw = True
        if self._animate:
            self._render_dice()

    def _ask_timer(self, now):
        """Nobody answered "stop?" in 5 s: the game goes on (a ROLL held down
        then is an answer on its way: its release decides)."""
        if not self.roll_down and ticks.diff(now, self.ask_at) >= _ASK_MS:
            self._go_on("timeout")

    def _ask_wake(self, now):
        """ms until "stop?" times out (-1 while ROLL is held: it answers)."""
        if self.roll_down:
            return -1
        return max(0, _ASK_MS - ticks.diff(now, self.ask_at))

    def _stop(self):
        """ROLL answered "stop?": the game is over unfinished, nothing to resume."""
        self.asking = False
        self.log("stop", {"game": self.module.NAME, "state": self.game.state_name()})
        self.tunes.play(sound.LEAVE, self.now)
        self.back_to_join()

    def _go_on(self, why):
        """Anything but ROLL answered "stop?" (or nobody did): the game goes
        on exactly where it was, its timers moved on by the pause."""
        self.asking = False
        paused = ticks.diff(self.now, self.ask_at)
        self.game.paused(paused)
        self.log("go_on", {"why": why, "paused_ms": paused})
        self.tunes.play(sound.TAKE_BACK, self.now)
        self.redraw = True
        if self._animate:
            self.game.render_dice()

    def pick_game(self, i):
        """Offer game number i (games.GAMES) at the joining screen; False
        when not joining. A long ROLL press there offers the next one."""
        if self.mode != JOIN:
            return False
        i %= len(games.GAMES)
        if i != self.picked:
            self.module = None
            _forget_game(games.GAMES[self.picked])
            self.notice = ""             # the last game's problem is not this one's
            self.notice_code = 0
            self.offer_game(i)
            if self.icons_baked and not self.display.baked:
                # the shell's came baked from the host, this game's not (said once
                # at power-up when the shell's did not either)
                self.log("icons", {"baked": self.icons_baked})
            # on the Pico: the last game's icons and (not resident) its modules
            # are garbage now; collected here, at joining, where nothing is
            # timed, a collection the allocator would force later does not land
            # between a press and its LED (the latencies moved ~3 ms with it).
            # CPython's own collector runs (a full one costs a simulator 25 ms)
            import sys
            if sys.implementation.name == "micropython":
                import gc
                gc.collect()
        self.tunes.play(sound.MENU, self.now)
        self.log("pick", {"game": self.module.NAME})
        self.redraw = True
        self._render_dice()
        return True

    def offer_game(self, i):
        """Game number i is offered now: imported, its icons beside the
        shell's, and told so (it reads its own files then: Cheese Master its
        dice file)."""
        self.picked = i
        mod = games.load(i)
        self.module = mod
        self.icons_baked = self.display.use_icons(mod.ICONS)   # the game's own icon set
        mod.picked(self)
        return mod

    def _start_game(self):
        """ROLL at joining: the picked game, if the table and board suit it."""
        mod = self.module
        k = sum(self.joined)
        if k < mod.MIN_PLAYERS:
            return                          # not enough players yet: nothing happens
        why = mod.fits(self.board)
        if not why and k > mod.MAX_PLAYERS:
            why = "%s is for %d to %d players, not %d" % (mod.NAME, mod.MIN_PLAYERS,
                                                         mod.MAX_PLAYERS, k)
        if why:
            self.tunes.play(sound.REFUSED, self.now)
            self.problem(why)
            self._render_dice()
            return
        self.game = mod.new(self, self.players())
        self.mode = _PLAY
        self.game.start()

    def back_to_join(self):
        """Joining again: nobody has joined yet; the game and its save are over."""
        for s in range(8):
            self.joined[s] = 0
        self.game = None
        self.mode = JOIN
        self.asking = False
        if self.store is not None:
            self.store.clear()
        self.log("joining", None)           # a screen following the log: back here
        self.redraw = True
        if self._animate:
            self._render_dice()

    # -- saving and resuming ----------------------------------------------
    def save(self, state, final=False):
        """Save the game's state (None: nothing to resume). final: the game
        is over and its final screen is up: after a power cut or a watchdog
        reset the box goes straight back to it, with no offer to resume, until
        the game saves again or the table goes back to joining."""
        if self.store is None:
            return
        self.show_tracks()                # the flash write holds the CPU
        try:
            if state is None:
                self.store.clear()
            else:
                # the envelope every game's save shares (save.py checks "v")
                state["v"] = 1
                state["game"] = self.module.NAME
                state["board"] = self.board.name
                state["joined"] = list(self.joined)
                state["games"] = self.games
                if final:
                    state["final"] = True    # absent in saves from before it existed
                self.store.save(state)
        except OSError as e:              # flash full or failing: play on, say so
            self.log("error", {"what": "cannot save the game: %s" % e})

    def problem(self, what, code=0):
        """Something the table should know (a saved game that cannot be used, a
        game this board cannot host, a bad dice file): said on the log and, at
        joining, on the dice: a cross, and the error code beside it if any."""
        self.notice = what
        self.notice_code = code
        self.log("error", {"what": what, "code": code} if code else {"what": what})

    def read_file(self, name):
        """The text of file `name` on the box's flash, or None if there is none
        (a game's own data: Cheese Master's dice.json). OSError if unreadable."""
        return self.store.read(name) if self.store is not None else None

    def _resume(self):
        """Back to the saved game."""
        saved = self.saved
        self.saved = None
        if saved is None:
            return
        joined, self.games, state, final = saved
        for s in range(8):
            self.joined[s] = joined[s]
        self.game = self.module.resume(self, state)
        self.mode = _PLAY

    # -- drawing ----------------------------------------------------------
    def _render_dice(self):
        """The dice matrices for the current state (not the animations)."""
        d = self.display
        if self.asking:
            # "stop?": a stop sign, a question mark, a tick for ROLL
            for i in range(N_DICE):
                d.die(i, ("stop", "question", "check")[i] if i < 3 else "blank")
            return
        if self.mode == _PLAY:
            self.game.render_dice()
            return
        if self.mode == _RESUME:
            # a saved game: check = ROLL resumes it, plus = hold ROLL for a new one
            for i in range(N_DICE):
                d.die(i, "check" if i == 0 else ("plus" if i == 1 else "blank"))
            return
        self.module.draw_join(self, sum(self.joined))
        if self.notice:
            d.die(0, "cross")           # a problem was said (see the log)
            if self.notice_code:
                d.die(1, str(self.notice_code))

    def _render(self, now):
        if self.asking:
            look = self.look & ~1            # the game's tracks stay as they were
        elif self.mode == _PLAY:
            look = self.game.look(now) * 2
        else:
            look = 0
        if self.stuck:
            look += (now // _BLINK_MS) % 2
        if not self.redraw and look == self.look:
            return      # the tracks show exactly this already
        self.redraw = False
        self.look = look
        d = self.display
        if self.asking:
            pass
        elif self.mode == _PLAY:
            self.game.draw_tracks(now, look >> 1)
        elif self.mode == _RESUME:
            self.module.render_saved(self, self.saved[2])
        else:
            for s in range(self.n):
                d.score(s, 7 if self.joined[s] else 0, STATION[s])
                d.wheel(s, OFF)
        if self.stuck:
            blink = look & 1 == 0
            for s in range(self.n):
                if self.stuck & (1 << s):
                    d.score(s, 7, STUCK if blink else OFF)
                    d.wheel(s, STUCK)

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
        return level or inp == _ROLL_INPUT or (self.stuck >> inp) & 1
