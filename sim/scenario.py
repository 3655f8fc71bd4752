"""Scenario scripts: drive the simulated box in virtual time.

A scenario is text, one command a line, '#' starts a comment (see
docs/scenarios.md). Commands press buttons the way fingers do, through the
simulated port, so the firmware sees exactly what it would on the board.
Virtual time jumps from event to event: nothing ticks while nothing happens.
"""
import gc
import sys

from cheesebox import box as B
from cheesemaster import faces as F
from cheesebox.events import EventLog
from cheesebox.save import Store
from sim import drive
from sim import games
from sim.cheesonomics import boxscript
from sim.drive import GAP_MS, PRESS_MS
from sim.rng import SeededRandom
from sim.simfs import SimFS
from sim.simport import SimPort, ROLL_BIT

_SMALL_HEAP = sys.implementation.name == "micropython"
WATCHDOG_MS = 8000     # as app.py sets the Pico's watchdog

MAX_STEPS = 1000000


def match_of(box):
    """The Cheese Master match the box plays, or None (joining, another game)."""
    return games.of(box).match(box)


class ScenarioError(Exception):
    """A scenario that cannot run; the message names the line."""


class ScriptedRoller:
    """Rolls forced faces when a `roll` command queued them, else random."""

    def __init__(self, fallback):
        self.fallback = fallback
        self.queue = []           # (line number, [face ids])

    def roll(self, dice_faces, in_play, out):
        if not self.queue:
            self.fallback.roll(dice_faces, in_play, out)
            return
        line, ids = self.queue.pop(0)
        if len(ids) != len(in_play):
            raise ScenarioError("line %d: roll gives %d faces but %d dice are in play"
                                % (line, len(ids), len(in_play)))
        for i in range(len(in_play)):
            die = in_play[i]
            if ids[i] not in dice_faces[die]:
                raise ScenarioError("line %d: die %d has no face %s"
                                    % (line, die + 1, F.NAMES[ids[i]]))
            out[i] = ids[i]


class Sim:
    """A box on a simulated port, with a virtual clock the driver moves."""

    def __init__(self, board, seed=1, dice=None, false_start_costs=False, fs=None, log=None,
                 flash=None):
        """dice: the text of a dice file, put on the simulated flash as
        dice.json (as flash.py --dice puts it on the Pico). flash: "typical"
        or "max": a save takes the Pico's flash time (simfs.py), with the
        box's loop held, as on the Pico; None: saves take no time."""
        from cheesemaster.dice import RandomRoller
        self.board = board
        self.seed = seed
        self.rng = SeededRandom(seed)
        self.dice = dice
        self.false_start_costs = false_start_costs
        self.fs = fs if fs is not None else SimFS()     # the Pico's flash
        if dice is not None:
            f = self.fs.open("dice.json", "w")
            f.write(dice)
            f.close()
        if flash is not None:
            self.fs.timed(self._spend, flash)
        self.log = EventLog(log)
        self.port = SimPort(board)
        self.roller = ScriptedRoller(RandomRoller(self.rng))
        self.steps = 0
        self.boots = 0
        self.start_us = self.port.t
        self.boot()

    def boot(self, watchdog=False):
        """Power up (or a watchdog reset): a new box on the same board, flash and clock."""
        animate = self.box.animate if self.boots else True
        if self.boots:
            # the old box's RAM is gone, as on the Pico, before the new one
            # takes its heap (a small heap holds one box: the core tests run
            # on MicroPython; CPython frees it by reference counts, and a full
            # collection there costs ~25 ms a boot); a cut moves no dial
            t, dial = self.port.t, self.port.dial
            self.box = self.port = None
            if _SMALL_HEAP:
                gc.collect()
            self.port = SimPort(self.board, start_us=t, dials=dial)
        self.boots += 1
        self.box = B.Box(self.board, self.port, self.rng, store=Store(self.fs, self.fs.open),
                         log=self.log, resume_now=watchdog,
                         options={"roller": self.roller,
                                  "false_start_costs": self.false_start_costs})
        self.box.animate = animate
        self.box.step()

    def hang(self, ms):
        """The firmware stops answering for ms: past the watchdog's timeout
        the Pico resets (and resumes from its flash)."""
        t = self.port.t + ms * 1000
        if ms >= WATCHDOG_MS:
            self.port.t = self.port.t + WATCHDOG_MS * 1000
            self.log("watchdog", {"hung_ms": ms})
            self.boot(watchdog=True)
        self.run_until(t)

    def _spend(self, us):
        """The flash takes us: the box's loop is held, the clock goes on."""
        self.port.hold(us)

    @property
    def now_us(self):
        return self.port.t

    def run_until(self, t_us):
        """Advance virtual time to t_us (drive.steps: event to event)."""
        for _ in drive.steps(self.port, self.box, t_us):
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise ScenarioError("the box did not settle (%d steps)" % self.steps)

    def press(self, bit, hold_ms=PRESS_MS, gap_ms=GAP_MS):
        """One clean press and release of input `bit` (8 = ROLL), then a pause."""
        self.run_until(drive.press(self.port, bit, hold_ms, gap_ms))

    def place(self, s, k):
        """Electronic plates: press key k (or turn the dial to k), 20 ms."""
        self.run_until(drive.place(self.port, s, k))

    def penalty(self, s):
        """Hold ROLL, press the player's buzzer, let go of both."""
        self.run_until(drive.penalty(self.port, s))

    def wait(self, ms):
        self.run_until(self.port.t + ms * 1000)

    def elapsed_ms(self):
        return (self.port.t - self.start_us) // 1000

    def result(self):
        """The final state, as the --json output gives it."""
        box = self.box
        out = {"board": self.board.name, "state": box.state_name(), "games": box.games,
               "virtual_ms": self.elapsed_ms(), "false_starts": box.keep.get("false_starts", 0),
               "boots": self.boots, "saved": "game.json" in self.fs.files,
               "stuck": [box._input_name(i) for i in range(B.N_INPUTS) if (box.stuck >> i) & 1],
               "points": {}, "eliminated": [], "winner": None, "rounds": 0}
        games.of(box).result(box, out)
        return out


def _player(tok, lineno, n):
    if len(tok) < 2 or tok[0] not in "Pp" or not tok[1:].isdigit():
        raise ScenarioError("line %d: expected a player P1..P%d, got %r" % (lineno, n, tok))
    s = int(tok[1:]) - 1
    if not 0 <= s < n:
        raise ScenarioError("line %d: this board has players P1..P%d, not %s" % (lineno, n, tok))
    return s


def _int(tok, lineno, lo, hi, what):
    try:
        v = int(tok)
    except ValueError:
        v = None
    if v is None or not lo <= v <= hi:
        raise ScenarioError("line %d: %s must be a number %d-%d, got %r" % (lineno, what, lo, hi, tok))
    return v


def _need(args, k, lineno, usage):
    if len(args) != k:
        raise ScenarioError("line %d: usage: %s" % (lineno, usage))


def _fingers(sim, args, lineno, n, text=None):
    """`fingers INPUT FROM-TO ...`: presses that overlap, times in ms from now."""
    usage = ("fingers ROLL|Pn FROM-TO | Pn=K@AT ... (ms from now; Pn=K@AT: Pn's plate K at AT ms;"
             " e.g. fingers ROLL 0-100 P2 20-80)")
    t = sim.port.t
    end = t
    i = 0
    plates = []
    while i < len(args):
        if "=" in args[i]:
            who, _, rest = args[i].partition("=")
            k, _, at = rest.partition("@")
            s = _player(who, lineno, n)
            if not sim.board.electronic:
                raise ScenarioError("line %d: %s: board %s has plate cards, not electronic plates"
                                    % (lineno, args[i], sim.board.name))
            plates.append((_int(at, lineno, 0, 10 ** 7, "a plate time"), s,
                           _int(k, lineno, 0, 7, "a plate")))
            i += 1
            continue
        if i + 1 >= len(args):
            raise ScenarioError("line %d: usage: %s" % (lineno, usage))
        who = args[i]
        bit = ROLL_BIT if who.upper() == "ROLL" else _player(who, lineno, n)
        span = args[i + 1].split("-")
        if len(span) != 2:
            raise ScenarioError("line %d: usage: %s" % (lineno, usage))
        a = _int(span[0], lineno, 0, 10 ** 7, "a press start")
        b = _int(span[1], lineno, 0, 10 ** 7, "a press end")
        if b <= a:
            raise ScenarioError("line %d: %s is let go (%d ms) before it is pressed (%d ms)"
                                % (lineno, who, b, a))
        sim.port.schedule(t + a * 1000, bit, 1)
        sim.port.schedule(t + b * 1000, bit, 0)
        end = max(end, t + (b + GAP_MS) * 1000)
        i += 2
    if not args:
        raise ScenarioError("line %d: usage: %s" % (lineno, usage))
    for at, s, k in sorted(plates):
        sim.port.place(s, k, t + at * 1000)
        end = max(end, t + (at + GAP_MS) * 1000)
    sim.run_until(end)


# One function a command: (sim, args, lineno, n stations, the line's text).
def _buzz(sim, args, lineno, n, text):
    _need(args, 1, lineno, "buzz Pn")
    sim.press(_player(args[0], lineno, n))


def _answer(sim, args, lineno, n, text):
    _need(args, 2, lineno, "answer Pn K")
    if not sim.board.electronic:
        raise ScenarioError("line %d: answer: board %s has plate cards, not electronic plates"
                            % (lineno, sim.board.name))
    sim.place(_player(args[0], lineno, n), _int(args[1], lineno, 0, 7, "a plate"))


def _wait(sim, args, lineno, n, text):
    _need(args, 1, lineno, "wait MS")
    sim.wait(_int(args[0], lineno, 0, 10 ** 9, "wait"))


def _players(sim, args, lineno, n, text):
    _need(args, 1, lineno, "players N")
    k = _int(args[0], lineno, 2, n, "players")
    box = sim.box
    if box.state != B.JOIN:
        raise ScenarioError("line %d: players: the box is not taking players (state %s)"
                            % (lineno, box.state_name()))
    for s in range(n):
        if bool(box.joined[s]) != (s < k):
            sim.press(s)
    sim.press(ROLL_BIT)


def _roll(sim, args, lineno, n, text):
    ids = []
    for name in args:
        try:
            ids.append(F.face_id(name))
        except ValueError as e:
            raise ScenarioError("line %d: %s" % (lineno, e))
    if not ids:
        raise ScenarioError("line %d: usage: roll FACE FACE ..." % lineno)
    sim.roller.queue.append((lineno, ids))


def _own_up(sim, args, lineno, n, text):
    _need(args, 1, lineno, "own-up Pn")
    if sim.board.electronic:
        raise ScenarioError("line %d: own-up: board %s has electronic plates" % (lineno, sim.board.name))
    s = _player(args[0], lineno, n)
    games.of(sim.box).before_press(sim, "own-up", s)
    sim.press(s)


def _penalty(sim, args, lineno, n, text):
    _need(args, 1, lineno, "penalty Pn")
    sim.penalty(_player(args[0], lineno, n))


def _rollbutton(sim, args, lineno, n, text):
    _need(args, 0, lineno, "rollbutton")
    games.of(sim.box).before_press(sim, "rollbutton", ROLL_BIT)
    sim.press(ROLL_BIT)


def _holdroll(sim, args, lineno, n, text):
    _need(args, 1, lineno, "holdroll MS")
    sim.press(ROLL_BIT, hold_ms=_int(args[0], lineno, 1, 60000, "holdroll"))


def _tour(sim, args, lineno, n, text):
    _need(args, 0, lineno, "tour")
    sim.press(0)


def _hold(sim, args, lineno, n, text):
    _need(args, 2, lineno, "hold Pn MS")
    sim.press(_player(args[0], lineno, n), hold_ms=_int(args[1], lineno, 1, 10 ** 7, "hold"))


def _powercut(sim, args, lineno, n, text):
    _need(args, 0, lineno, "powercut")
    sim.boot()


def _hang(sim, args, lineno, n, text):
    _need(args, 1, lineno, "hang MS")
    sim.hang(_int(args[0], lineno, 0, 10 ** 7, "hang"))


def _serial(sim, args, lineno, n, text):
    sim.box.command(text.split(None, 1)[1] if args else "")


def _game(sim, args, lineno, n, text):
    _pick_game(sim, " ".join(args).lower(), lineno)


COMMANDS = {"buzz": _buzz, "answer": _answer, "wait": _wait, "players": _players,
            "roll": _roll, "own-up": _own_up, "penalty": _penalty, "rollbutton": _rollbutton,
            "holdroll": _holdroll, "tour": _tour, "hold": _hold, "fingers": _fingers,
            "powercut": _powercut, "hang": _hang, "serial": _serial, "game": _game}


def run_line(sim, line, lineno):
    """Carry out one scenario line: a command of COMMANDS (the box's), else
    one of the picked game's (its host module, sim/games.py)."""
    text = line.split("#", 1)[0].strip()
    if not text:
        return
    words = text.split()
    cmd = words[0].lower()
    args = words[1:]
    n = sim.board.stations
    run = COMMANDS.get(cmd)
    if run is not None:
        run(sim, args, lineno, n, text)
    else:
        _game_command(sim, cmd, args, lineno, words[0])


def _pick_game(sim, want, lineno):
    """Long ROLLs at the joining screen until the box offers that game."""
    from cheesebox.games import GAMES
    from sim.drive import LONG_PRESS_MS
    box = sim.box
    if want not in [g[0] for g in GAMES]:
        raise ScenarioError("line %d: game must be one of %s, got %r"
                            % (lineno, ", ".join(g[0] for g in GAMES), want))
    if box.state_name() != "join":
        raise ScenarioError("line %d: game: the box is not at the joining screen (state %s)"
                            % (lineno, box.state_name()))
    for _ in range(len(GAMES)):
        if box.module.NAME == want:
            return
        sim.press(ROLL_BIT, hold_ms=LONG_PRESS_MS)
    raise ScenarioError("line %d: game: %s was never offered" % (lineno, want))


def _game_command(sim, cmd, args, lineno, word):
    """A command of the game the box has picked; another game's command says
    which game it needs."""
    n = sim.board.stations
    try:
        if games.of(sim.box).command(sim, cmd, args, lambda tok: _player(tok, lineno, n)):
            return
    except (ScenarioError, boxscript.ScriptError) as e:
        if str(e).startswith("line "):
            raise
        raise ScenarioError("line %d: %s" % (lineno, e))
    owner = games.claiming(cmd)
    if owner is not None:
        raise ScenarioError("line %d: %s: no %s game on the box (state %s)"
                            % (lineno, cmd, owner.TITLE, sim.box.state_name()))
    raise ScenarioError("line %d: unknown command %r" % (lineno, word))


def run_script(sim, text):
    """Run a whole scenario text; raises ScenarioError naming the line."""
    lineno = 0
    pos = 0
    while pos <= len(text):
        end = text.find("\n", pos)
        if end < 0:
            end = len(text)
        line = text[pos:end]     # one line at a time: a small heap never holds them all
        pos = end + 1
        lineno += 1
        try:
            run_line(sim, line, lineno)
        except ScenarioError as e:
            if str(e).startswith("line "):
                raise
            raise ScenarioError("line %d: %s" % (lineno, e))
    return sim.result()


def unused_roll(sim):
    """A ScenarioError for a forced roll no reveal used by now, or None."""
    if sim.roller.queue:
        return ScenarioError("line %d: this roll was never used (no roll was revealed after it)"
                             % sim.roller.queue[0][0])
    return None
