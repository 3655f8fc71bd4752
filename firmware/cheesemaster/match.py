"""One game of Cheese Master: points, wheels, answers, judging, elimination.

Pure bookkeeping, no time and no LEDs: the game (game.py) calls it when a
press, a penalty or the end of the roll happens, and draws what it reports.
Stations are numbered 0-7; only joined stations take part.
"""
from micropython import const

from cheesemaster.rules import answer_is_right

START_POINTS = const(7)
_FLIP_BELOW = const(4)      # the cheesemaker card is flipped below 4 points
MAX_STATIONS = const(8)
NO_ANSWER = const(255)
NOBODY = const(-1)

# Round phases
BETWEEN = const(0)    # no round running: waiting for the roll
ROLLING = const(1)    # dice tumbling: a press is a false start
GRABBING = const(2)   # faces shown: presses grab wheels
CHECKING = const(3)   # plate cards: wheel holders own up to wrong cards
OVER = const(4)       # one player left: the game is over

# What a press did (press() result), for the box's lights and sounds
IGNORED = const(0)
FALSE_START = const(1)
GRAB = const(2)
REFUSED = const(3)       # electronic plates: grab before placing a plate (-1)
OWNED_UP = const(4)
TAKEN_BACK = const(5)

# How a round ended (finish_round() result)
SCORED = const(0)
REPLAY = const(1)        # it would have eliminated everyone: nothing taken, roll again
_GAME_OVER = const(2)


class Match:
    """Scores and wheels of one game; `electronic` picks the plate set-up."""

    def __init__(self, stations, electronic, false_start_costs=False, dials=False):
        self.electronic = electronic
        self.dials = dials         # answer dials: a dial always shows a plate, no refused grab
        self.false_start_costs = false_start_costs
        self.joined = bytearray(MAX_STATIONS)
        for s in stations:
            self.joined[s] = 1
        self.points = bytearray(MAX_STATIONS)
        self.active = bytearray(MAX_STATIONS)
        self.holder = bytearray(MAX_STATIONS)    # holds a wheel this round
        self.answer = bytearray(MAX_STATIONS)    # placed plate, NO_ANSWER if none
        self.locked = bytearray(MAX_STATIONS)    # answer locked by the grab
        self.owned = bytearray(MAX_STATIONS)     # plate cards: owned up wrong
        self.lost = bytearray(MAX_STATIONS)      # points the last scoring took (0s after a replay)
        for s in stations:
            self.points[s] = START_POINTS
            self.active[s] = 1
        self.eliminated = []                     # stations, in order out
        self.phase = BETWEEN
        self.round_no = 0          # rounds started (a replay counts again)
        self.rounds_played = 0     # rounds scored, replayed ones included
        self.left = 0              # true cheese count of the current roll
        self.marked = NOBODY       # who starts the next roll with a buzzer
        self.no_wheel = NOBODY     # who was left without a wheel last round
        self.winner = NOBODY
        self.replays = 0

    # -- queries ----------------------------------------------------------
    def active_count(self):
        n = 0
        for s in range(MAX_STATIONS):
            n += self.active[s]
        return n

    def holders(self):
        n = 0
        for s in range(MAX_STATIONS):
            if self.active[s] and self.holder[s]:
                n += 1
        return n

    def wheels(self):
        """Wheels in play this round: one fewer than active players."""
        n = self.active_count()
        return n - 1 if n > 0 else 0

    def flipped(self, s):
        """True when the player's card is flipped (below 4 points)."""
        return self.points[s] < _FLIP_BELOW

    # -- a round ----------------------------------------------------------
    def start_round(self):
        """New roll: wheels back to the middle, plates back to hand."""
        if self.phase == OVER:
            return
        self.round_no += 1
        for s in range(MAX_STATIONS):
            self.holder[s] = 0
            self.answer[s] = NO_ANSWER
            self.locked[s] = NO_ANSWER
            self.owned[s] = 0
        self.phase = ROLLING

    def reveal(self, left):
        """The faces are shown: `left` pieces of cheese; grabs count now."""
        if self.phase == ROLLING:
            self.left = left
            self.phase = GRABBING

    def place(self, s, k):
        """Electronic plates: station s places plate k (0-7)."""
        if self.active[s] and not self.holder[s] and 0 <= k <= 7:
            self.answer[s] = k

    def press(self, s, plate=-1):
        """A buzzer press of station s; returns what it did. Electronic plates:
        `plate` is the station's plate at the grab's time (the box works it
        out from the port's placement times); -1: the last one place()d."""
        if not self.active[s]:
            return IGNORED
        ph = self.phase
        if ph == ROLLING:
            if self.false_start_costs:
                self._lose_now(s, 1)
            return FALSE_START
        if ph == GRABBING:
            if self.holder[s]:
                return IGNORED
            a = self.answer[s] if plate < 0 else plate
            if self.electronic and a == NO_ANSWER and not self.dials:
                self._lose_now(s, 1)
                return REFUSED
            self.holder[s] = 1
            self.locked[s] = a
            self._check_last_wheel()
            return GRAB
        if ph == CHECKING and self.holder[s]:
            self.owned[s] ^= 1
            return OWNED_UP if self.owned[s] else TAKEN_BACK
        return IGNORED

    def penalty(self, s):
        """A table penalty: 1 point at once. False if it did not apply."""
        if not self.active[s] or self.phase == OVER:
            return False
        self._lose_now(s, 1)
        return True

    def grabbing_over(self):
        """True once the wheels are gone: exactly one active player is without."""
        return self.phase == GRABBING and self.active_count() - self.holders() <= 1

    def _check_last_wheel(self):
        if self.grabbing_over():
            self.phase = CHECKING   # the box scores at once with electronic plates

    def _lose_now(self, s, n):
        p = self.points[s]
        self.points[s] = p - n if p > n else 0
        if self.points[s] == 0:
            self._eliminate(s)
            if self.active_count() == 1:
                self._end_game()
            elif self.phase == GRABBING:
                self._check_last_wheel()

    def _eliminate(self, s):
        """Out at once, with the wheel if held (the table drops one wheel)."""
        self.active[s] = 0
        self.holder[s] = 0
        self.eliminated.append(s)
        if self.marked == s:
            self.marked = NOBODY

    def _end_game(self):
        self.phase = OVER
        for s in range(MAX_STATIONS):
            if self.active[s]:
                self.winner = s
        self.marked = NOBODY

    def is_wrong(self, s):
        """Judgment of a wheel holder's answer."""
        if self.electronic:
            return not answer_is_right(self.locked[s], self.left)
        return bool(self.owned[s])

    def finish_round(self):
        """Apply the round's losses together; returns SCORED, REPLAY or _GAME_OVER."""
        if self.phase == OVER:
            return _GAME_OVER
        no_wheel = NOBODY
        survivors = 0
        for s in range(MAX_STATIONS):
            self.lost[s] = 0
            if not self.active[s]:
                continue
            if not self.holder[s]:
                loss = 1
                no_wheel = s
            elif self.is_wrong(s):
                loss = 2
            else:
                loss = 0
            p = self.points[s]
            self.lost[s] = loss if p > loss else p     # what is really taken
            if p > loss:
                survivors += 1
        self.rounds_played += 1
        self.no_wheel = no_wheel
        self.phase = BETWEEN
        if survivors == 0:
            # Everyone would be out: the round's scoring takes nothing and the
            # round is rolled again. Points taken at once during the round
            # (penalty, refused grab, false start) stand.
            for s in range(MAX_STATIONS):
                self.lost[s] = 0
            self.replays += 1
            self.marked = no_wheel
            return REPLAY
        for s in range(MAX_STATIONS):
            if self.active[s] and self.lost[s]:
                self.points[s] -= self.lost[s]
        for s in range(MAX_STATIONS):
            if self.active[s] and self.points[s] == 0:
                self._eliminate(s)
        self.marked = no_wheel if no_wheel != NOBODY and self.active[no_wheel] else NOBODY
        if self.active_count() <= 1:
            self._end_game()
            return _GAME_OVER
        return SCORED

    # -- saving and resuming (save.py) --------------------------------------
    def snapshot(self):
        """What a resumed game needs, as plain JSON values. Taken between rounds,
        or in a round after a point taken at once (penalty, refused grab): that
        round is then played again from its start, so it is not counted."""
        in_round = self.phase in (ROLLING, GRABBING, CHECKING)
        return {"stations": [s for s in range(MAX_STATIONS) if self.joined[s]],
                "points": list(self.points), "active": list(self.active),
                "eliminated": list(self.eliminated),
                "round_no": self.round_no - 1 if in_round else self.round_no,
                "rounds": self.rounds_played, "replays": self.replays,
                "marked": self.marked, "no_wheel": self.no_wheel, "winner": self.winner,
                "lost": list(self.lost)}
