"""The box's screen in a terminal, one for the simulated box (sim/view.py)
and the real firmware on the emulated chip (emu/view.py).

Both feed it the same two things: the box's event log (docs/event-log.md),
read line by line into a Seen, and the LED frames decoded from the wire.
From those it draws the dice, each labelled with what it means now, the
tracks, the status lines, the keys' legend, what the box wants (the hint),
why a press did nothing or cost a point, and the lines of the turn. What a
game's events mean is its host module's (sim/games.py; its seen.py reads
them). The simulator also lends its box (Seen.box) for the little the log
does not say (the Cheesonomics step a player is on); the chip has its log.
"""
import json
import textwrap

from rich.color import Color
from rich.console import Group
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from cheesebox import games as box_games
from cheesebox.board import TRACK_PIXELS
from cheesebox.display import STATION
from cheesebox.font import CHARS, rows_for
from sim import games
from sim.iconart import icons
from sim.keys import PLATE_KEYS

DARK = (40, 40, 40)         # an LED that is off: dim grey keeps the outline
DIM_FLOOR = 110             # a lit LED is drawn at least this bright
COMPACT_W = 112     # narrower (or lower) than this: help below the box, no borders
COMPACT_H = 30
BOX_W = 56          # the box's column beside the keys panel
LABEL_W = 16        # a die's label: two lines of this many columns
WHY_MS = 6000       # a reason stays on screen this long (the box's ms)
BOX_HINTS = {       # the box's own screens; a game's are its host module's
    "join": "buzzers join and leave; ROLL starts (2 players or more); L (hold ROLL): the other game",
    "stop?": "stop the game? ROLL (space): stop, back to joining; a buzzer, L or 5 s: it goes on",
    "resume": "ROLL: resume the saved game; L (hold ROLL): a new game",
}
NAMES = ["P%d" % (s + 1) for s in range(8)]


def _rgb(c):
    """Terminal colour of an LED: off is DARK; a faintly lit LED (eliminated
    players glow (40, 0, 0)) is lifted to a visible shade of its hue, as a
    real LED at low power is still plainly on."""
    top = max(c)
    if top == 0:
        return Color.from_rgb(*DARK)
    if top < DIM_FLOOR:
        c = tuple(v * DIM_FLOOR // top for v in c)
    return Color.from_rgb(*c)


_STYLES = {}


def _led_style(top, bottom):
    """A half-block cell: the upper LED as foreground, the lower as background."""
    key = (top, bottom)
    st = _STYLES.get(key)
    if st is None:
        st = _STYLES[key] = Style(color=_rgb(top), bgcolor=_rgb(bottom))
    return st


def stations_text(playing, n):
    """The buzzer keys that do something: every station at joining (None),
    in a game only the players' ("1-3", "1,3,4")."""
    nums = list(range(1, n + 1)) if playing is None else sorted(int(p[1:]) for p in playing)
    if not nums:
        return "1-%d" % n
    if nums == list(range(nums[0], nums[-1] + 1)):
        return str(nums[0]) if len(nums) == 1 else "%d-%d" % (nums[0], nums[-1])
    return ",".join(str(x) for x in nums)


def track_line(s, leds):
    """Station s's track as one line: its name, 7 score LEDs, the wheel LED."""
    line = Text()
    line.append("[%d] " % (s + 1), style="dim")
    line.append("P%d " % (s + 1), Style(color=Color.from_rgb(*STATION[s]), bold=True))
    for c in leds[:-1]:
        line.append("\u25cf ", Style(color=_rgb(c)))
    line.append(" wheel ", style="dim")
    line.append("\u25c9", Style(color=_rgb(leds[-1])))
    return line


def die_grid(board, px, d):
    """8 rows of 8 RGB pixels of die matrix d, as a player sees them."""
    ci, start, layout = board.dice[d]
    pixels = px[ci]
    return [[pixels[start + y * 8 + (x if layout == "rows" or y % 2 == 0 else 7 - x)]
             for x in range(8)] for y in range(8)]


def track_leds(board, px, s):
    """Station s's 8 track pixels: 7 score LEDs, then the wheel LED."""
    ci, start = board.tracks[s]
    leds = px[ci][start:start + TRACK_PIXELS]
    return leds[::-1] if board.track_reversed else leds


# -- what a die shows, read back from its pixels -------------------------------
def _mask(rows):
    return bytes(sum(0x80 >> x for x, ch in enumerate(r.decode() if isinstance(r, bytes) else r)
                     if ch != ".") for r in rows)


def _glyph_table():
    """{8 row bytes: text} of every one- and two-glyph text the font draws
    (digits before letters of the same shape: 0, not O), and the icons."""
    out = {}
    chars = sorted(CHARS, key=lambda c: (not c.isdigit(), c))
    rows = bytearray(8)
    for a in chars:
        for b in [""] + chars:
            text = (a + b).strip() if b else a
            key = bytes(rows_for(a + b, rows))
            if text and key not in out:
                out[key] = text
    for name, art in icons().items():
        if name != "blank":
            out.setdefault(_mask(art), ":" + name)
    return out


_TABLE = {}


class Shown:
    """What one die shows, read from its pixels: `text` (a number or a
    letter pair: "12", "P2", "D"; an icon as ":cross"; a game's own pattern
    as ":coin"; "" dark; "?" unknown), `rgb` its colour at full brightness,
    `bar` underlined (a sale's sum, whose sale)."""

    def __init__(self, text, rgb=(0, 0, 0), bar=False):
        self.text, self.rgb, self.bar = text, rgb, bar

    def __repr__(self):
        return "Shown(%r, %r%s)" % (self.text, self.rgb, ", bar" if self.bar else "")

    def colour_of(self, rgbs):
        """The index of the colour in rgbs nearest this die's (hue and level)."""
        best, at = None, -1
        for i, c in enumerate(rgbs):
            d = sum((a - b) ** 2 for a, b in zip(self.rgb, c))
            if best is None or d < best:
                best, at = d, i
        return at


def read_die(grid, patterns=()):
    """What a die shows (a Shown), from its 8x8 pixels. patterns: a game's
    own (name, 8 row bytes) beside the font and the icons."""
    if not _TABLE:
        _TABLE.update(_glyph_table())
    rows = bytearray(8)
    top = (0, 0, 0)
    for y in range(8):
        for x in range(8):
            c = grid[y][x]
            if max(c) > 0:
                rows[y] |= 0x80 >> x
                if max(c) > max(top):
                    top = c
    if not any(rows):
        return Shown("")
    k = max(top)
    rgb = tuple(v * 255 // k for v in top)
    for name, pat in patterns:
        if bytes(rows) == bytes(pat):
            return Shown(":" + name, rgb)
    bar = rows[7] == 0xFF and any(rows[:7])
    if bar:
        rows[7] = 0
    return Shown(_TABLE.get(bytes(rows), "?"), rgb, bar)


# -- what the log has said -------------------------------------------------------
class Seen:
    """What the box's event log has said so far, for the screen: the game
    offered or played and its screen (state), who joined and plays, points
    or money, the last reason (why), the lines of this turn or round (notes).
    clock(): the host's ms now (the simulator's virtual ms, the chip's
    emulated ms), to keep a reason up WHY_MS. box(): the simulated box (a
    new one after a power cut), or None (the emulated chip)."""

    def __init__(self, board, clock, box=None):
        self.board = board
        self.clock = clock
        self._box = box
        self.game = box_games.GAMES[0][box_games.NAME]     # the game the box boots into
        self.events = 0
        self.why = ""
        self.why_at = None
        self.notes_at = None        # when the notes last changed (the newest is shown first)
        self._reset()
        box = self.box
        if box is not None:         # the simulated box, followed from now on
            self.game = box.module.NAME
            self.joined = [NAMES[s] for s in range(box.n) if box.joined[s]]

    def _reset(self):
        """A new power-up, or joining again (the last reason stays up)."""
        self.state = "join"
        self.before_stop = None
        self.joined = []            # who joined, in station order
        self.players = []           # who plays the game
        self.score = {}             # player: points or money (None: not known)
        self.plates = {}            # Cheese Master: plates locked this round
        self.dice = []              # names of the dice in play
        self.games = 0
        self.notes = []             # this turn's or round's lines, oldest first
        self.g = {}                 # the game's own (its seen.py)
        self.shown = []             # what each die showed when the screen last looked (Shown)

    @property
    def box(self):
        return self._box() if self._box is not None else None

    def host(self):
        return games.named(self.game_now())

    def line(self, text):
        """One line of the box's console: an event if it is one."""
        i = text.find("{")
        if i < 0 or '"ev"' not in text:
            return
        try:
            e = json.loads(text[i:])
        except ValueError:
            return
        if isinstance(e, dict) and "ev" in e:
            self.feed(e)

    def say(self, text):
        self.why = text
        self.why_at = self.clock()

    def now_why(self):
        """The reason to show now, or ""."""
        if self.why and self.why_at is not None and self.clock() - self.why_at < WHY_MS:
            return self.why
        return ""

    def note(self, text):
        """A line of this turn or round (kept until the next begins)."""
        self.notes.append(text)
        del self.notes[:-6]

    def joined_now(self):
        """Who has joined (the simulated box says it; the log tells the chip's)."""
        box = self.box
        if box is not None:
            return [NAMES[s] for s in range(box.n) if box.joined[s]]
        return self.joined

    def game_now(self):
        """The game offered or played."""
        box = self.box
        return box.module.NAME if box is not None and box.module is not None else self.game

    def module(self):
        """The firmware module of the game offered: the simulated box's own,
        or (the chip's) imported here."""
        box = self.box
        if box is not None and box.module is not None:
            return box.module
        return box_games.load(box_games.index(self.game))

    def playing(self):
        """Who plays the game now, or None (joining: every station may join)."""
        box = self.box
        if box is not None:
            return [NAMES[s] for s in range(box.n) if box.joined[s]] if box.game is not None else None
        return self.players if self.state not in ("join", "resume") and self.players else None

    def result(self):
        """A --json-like result from the log alone (the simulator has its own)."""
        out = {"board": self.board.name, "state": self.state, "games": self.games,
               "points": {}, "eliminated": [], "winner": None, "rounds": 0}
        self.host().seen_result(self, out)
        return out

    def state_now(self):
        """The box's screen: the simulated box says it; the log tells the chip's."""
        return self.box.state_name() if self.box is not None else self.state

    def feed(self, e):
        """One event, as the box logged it."""
        self.events += 1
        ev = e.get("ev")
        p = e.get("p", "?")
        if ev == "boot":
            self._reset()
            self.why = ""
            self.game = box_games.GAMES[0][box_games.NAME]
            self.state = "resume" if e.get("resume") else "join"
        elif ev in ("join", "leave"):
            if ev == "join" and p not in self.joined:
                self.joined = sorted(self.joined + [p])
            elif ev == "leave" and p in self.joined:
                self.joined.remove(p)
        elif ev == "pick":
            self.game = e.get("game", self.game)
            self.why = ""       # another game offered: the last one's problem goes, as its cross does
            self.state = "join"
        elif ev in ("discard", "joining", "stop"):
            joined = self.joined if ev == "discard" else []
            game, games_ = self.game, self.games
            self._reset()
            self.game, self.joined, self.games = game, joined, games_
            if ev == "stop":
                self.say("stopped: %s ended unfinished, back to joining" % e.get("game", "the game"))
        elif ev == "stop_asked":
            self.before_stop, self.state = self.state, "stop?"
        elif ev == "go_on":
            self.state = self.before_stop or self.state
        elif ev == "state":
            self.state = e.get("state", self.state)
            self.game = e.get("game", self.game)
        elif ev == "error":
            self.say("box: %s" % e.get("what", "?"))
        elif ev == "stuck":
            self.say("%s held too long: ignored until let go (blinks blue)" % e.get("input", "?"))
        elif ev == "not_allowed":
            self.say("%s: not allowed: %s" % (p, e.get("why", "?")))
        if ev == "resume" and e.get("game"):
            self.game = e["game"]
        notes = list(self.notes)
        text = self.host().seen_event(self, e)
        if self.notes != notes:
            self.notes_at = self.clock()
        if text:
            self.say(text)
        if ev == "pick":
            why = self.module().fits(self.board)
            if why:
                self.say("%s cannot start on this board: %s" % (self.game, why))

    def roll_at_join(self):
        """ROLL at joining starts nothing with too few players: the box is
        silent then, the screen is not."""
        if self.state_now() != "join":
            return
        mod = self.module()
        k = len(self.joined_now())
        why = mod.fits(self.board)
        if why and k < mod.MIN_PLAYERS:
            self.say("ROLL: %s cannot start on this board: %s" % (mod.NAME, why))
        elif k < mod.MIN_PLAYERS:
            self.say("ROLL: %s needs %d players, %d joined (buzzers join)" % (mod.NAME, mod.MIN_PLAYERS, k))


# -- the screen ------------------------------------------------------------------
class Screen:
    """The box's screen from a Seen and the LED frames (px: every chain's
    RGB pixels, decoded from the wire)."""

    def __init__(self, board, seen):
        self.board = board
        self.seen = seen

    def shown(self, px):
        """What each die shows (Shown), read from its pixels."""
        pats = self.seen.host().patterns()
        return [read_die(die_grid(self.board, px, d), pats) for d in range(len(self.board.dice))]

    def labels(self, px):
        """What each die means now, for the game and the screen it is on
        (the box's own screens first: "stop?", the offer to resume)."""
        seen = self.seen
        state = seen.state_now()
        if state == "stop?":
            return ["stop?", "", "ROLL: stop", "", "", ""]
        if state == "resume":
            return ["ROLL: resume", "L: new game", "", "", "", ""]
        dice = seen.shown = self.shown(px)
        out = seen.host().labels(seen, state, dice) or [""] * 6
        if state == "join" and dice[0].text == ":cross":    # the cross (and its code): see why
            out[0] = "problem"
            if dice[1].text not in ("", "?"):
                out[1] = "error code"
        return out

    def dice_rows(self, px, first, labels):
        """Three dice side by side: two label lines, then 4 lines of half
        blocks (2 columns an LED, so an 8x8 matrix comes out square)."""
        seen = self.seen
        lines = [Text() for _ in range(6)]
        for d in range(first, first + 3):
            gap = "  " if d > first else ""
            head = _two_lines("%d %s" % (d + 1, labels[d]))
            playing = seen.host().in_play(seen, d)
            for i in range(2):
                lines[i].append(gap + head[i], style="bold" if playing else "dim")
            grid = die_grid(self.board, px, d)
            for y in range(0, 8, 2):
                line = lines[2 + y // 2]
                line.append(gap)
                for x in range(8):
                    line.append("\u2580\u2580", _led_style(grid[y][x], grid[y + 1][x]))
        if not lines[1].plain.strip():
            del lines[1]            # no label takes two lines: one
        return lines

    def tracks(self, px):
        seen = self.seen
        lines = []
        for s in range(self.board.stations):
            line = track_line(s, track_leds(self.board, px, s))
            note = seen.host().station_note(seen, s) if self.board.electronic else None
            if note:
                line.append("  " + note, style="dim")
            lines.append(line)
        return lines

    def status(self, result, tail=None, width=BOX_W):
        """What the screen knows that the LEDs only hint at: the state, the
        game, its rounds or turn; then the points or money (their own line).
        result: the simulator's --json result, or the Seen's own (the chip).
        tail: more of the head line (the time). A line longer than width goes
        on in the next, between two items, never inside one."""
        seen = self.seen
        state = result["state"]
        head = [Text(state, style="bold reverse")]
        if state == "join":
            joined = seen.joined_now()
            head.append(Text("joined " + (" ".join(joined) if joined else "nobody yet")))
            head.append(Text("game " + seen.game_now()))
        lines = [head]
        if state not in ("join", "resume"):
            seen.host().status(seen, result, head, lines)
        if tail is not None:
            head.append(tail)
        out = []
        for parts in lines:
            out += _pack(parts, width)
        return out

    def render(self, px, result, tail=None, compact=False, width=BOX_W):
        """The whole box as it shows now: dice, tracks, status lines
        (compact: a list of lines without the blank ones between)."""
        labels = self.labels(px)
        top, bottom = self.dice_rows(px, 0, labels), self.dice_rows(px, 3, labels)
        if compact:
            return top + bottom + self.tracks(px) + self.status(result, tail, width)
        return Group(*top, Text(), *bottom, Text(), *self.tracks(px), Text(), *self.status(result, tail))

    # -- what the keys do, what the box wants, why -----------------------------------
    def hint(self):
        """What the box wants now, in words: true for this moment of the game."""
        seen = self.seen
        state = seen.state_now()
        text = None
        if state not in BOX_HINTS:
            text = seen.host().hint(seen, state)
        return BOX_HINTS.get(state, "") if text is None else text

    def gesture(self):
        """What ROLL held + a buzzer does on this screen (the README's gesture
        table), as (the keys that do it, in a word, in words); None where it
        does nothing: the legend names only what the keys do now."""
        seen = self.seen
        state = seen.state_now()
        if state == "join":
            return "p 1/2", "light/sound", "1 brightness, 2 volume"
        if state in BOX_HINTS:
            return None                 # the offer to resume, "stop?": nothing of its own
        return seen.host().gesture(seen, state)

    def answer_keys(self):
        """What the stations' keys or dials do on this screen, (in a word, in
        words); None where they do nothing (joining, between games)."""
        seen = self.seen
        state = seen.state_now()
        if not self.board.electronic or state in BOX_HINTS:
            return None
        return seen.host().answer_keys(seen, state)

    def help(self, said, pending=None, tune="", extra=()):
        """The keys panel: the keys, what the box wants now, why, the turn's
        lines, what is half typed, the tune playing, what was typed."""
        n = self.board.stations
        seen = self.seen
        t = Table.grid(padding=(0, 2))
        t.add_column(style="bold cyan", no_wrap=True)
        t.add_column()
        playing = seen.playing()
        for s in range(n):
            if playing is None or NAMES[s] in playing:      # in a game: the stations that play
                t.add_row(str(s + 1), Text("buzzer of P%d" % (s + 1), style=Style(color=Color.from_rgb(*STATION[s]))))
        t.add_row("space", "ROLL")
        t.add_row("L", "ROLL held 2.2 s")
        g = self.gesture()
        if g is not None:
            t.add_row(g[0], "ROLL held + buzzer (%s)" % g[2])
        keys = self.answer_keys()
        if keys is not None:
            t.add_row("%s-%s 0-7" % (PLATE_KEYS[0], PLATE_KEYS[n - 1]), keys[1])
        t.add_row("Esc", "quit (also Ctrl-C)")
        body = [t, Text(), Text(self.hint(), style="italic"), Text()]
        why = seen.now_why()
        if why:
            body.append(Text("why: " + why, style="bold red"))
        for note in seen.notes:
            if note != why:
                body.append(Text("\u00b7 " + note, style="yellow"))
        pend = self.pending_text(pending)
        if pend:
            body.append(Text(pend, style="bold yellow"))
        if tune:
            body.append(Text(tune, style="magenta"))
        body.append(Text("> " + said, style="dim"))
        body += [x if isinstance(x, Text) else Text(x, style="dim") for x in extra]
        return Panel(Group(*body), title="keys", width=48)

    def pending_text(self, pending):
        if pending == "p":
            return "ROLL held: press 1-%d" % self.board.stations
        if pending is not None:
            return "%s of P%d selected: press 0-7" % (
                "dial" if self.board.plates == "dial" else "keys" if self.seen.host().VALUES else "plate",
                pending + 1)
        return ""

    def short_help(self, said, pending=None, tune="", width=80, room=2):
        """The keys in one line (at most 80 columns) and what the box wants
        in the lines left (`room`), wrapped at `width`: for 80x24."""
        n = self.board.stations
        keys = Text()
        keys.append(stations_text(self.seen.playing(), n), "bold cyan")
        keys.append(" buzzer  ")
        keys.append("space", "bold cyan")
        keys.append(" ROLL  ")
        keys.append("L", "bold cyan")
        keys.append(" long ROLL  ")
        g = self.gesture()
        if g is not None:
            keys.append(g[0], "bold cyan")
            keys.append(" %s  " % g[1])
        what = self.answer_keys()
        if what is not None:
            keys.append("%s-%s 0-7" % (PLATE_KEYS[0], PLATE_KEYS[n - 1]), "bold cyan")
            keys.append(" %s  " % what[0])
        keys.append("Esc", "bold cyan")
        keys.append(" quit")
        why = self.seen.now_why()
        pend = self.pending_text(pending)
        # the newest first (why, or the last line of the turn), then the
        # hint (the one cut first when the lines run out)
        news = ["why: " + why] if why else []
        note = [x for x in self.seen.notes[-1:] if x != why]
        if why and note and self.seen.notes_at is not None and self.seen.notes_at > self.seen.why_at:
            news = note + news
        else:
            news += note
        if pend:
            said = Text(pend, style="bold yellow")
        elif news:
            said = Text(" \u00b7 ".join(news) + " \u00b7 " + self.hint() + "  > " + said,
                        style="bold red" if why else "yellow")
        else:
            said = Text(self.hint() + "  > " + said, style="italic")
        keys.no_wrap = True
        keys.overflow = "ellipsis"
        out = [keys]
        # the tune playing now leads the next line, never cut: the low buzz
        # of a refusal is the only sign of some (as in the wide panel)
        sign = tune + "  " if tune else ""
        # the hint wraps into the lines left, cut (with an ellipsis) only
        # when there are no more
        room = max(1, room - 1)
        lines = textwrap.wrap(sign + said.plain, width) or [""]
        if len(lines) > room:
            lines = lines[:room - 1] + [" ".join(lines[room - 1:])]
        for i, line in enumerate(lines):
            t = Text(line, style=said.style)
            if i == 0 and sign:
                t.stylize(Style(color="magenta", italic=False, bold=False), 0, len(tune))
            t.no_wrap = True
            t.overflow = "ellipsis"
            out.append(t)
        return out

    def frame(self, px, result, title, said, pending=None, tune="", tail=None, extra=(),
              width=200, height=100):
        """The box beside the keys panel; on a small terminal (80x24) the box
        with a short help below it, no borders. extra: more lines (the
        simulator's timing, the chip's speed and USB serial)."""
        if width < COMPACT_W or height < COMPACT_H:
            lines = self.render(px, result, tail, compact=True, width=width)
            room = height - len(lines) - len(extra)
            lines += self.short_help(said, pending, tune, width, room)
            for x in extra:
                if len(lines) < height:
                    t = x.copy() if isinstance(x, Text) else Text(x, style="dim")
                    t.no_wrap = True
                    t.overflow = "ellipsis"
                    lines.append(t)
            if len(lines) < height:             # which box this is, where it fits (no frame to title)
                head = Text(title, style="bold")
                head.no_wrap = True
                head.overflow = "ellipsis"
                lines.insert(0, head)
            return Group(*lines)
        t = Table.grid(padding=(0, 3))
        t.add_column(width=BOX_W)   # fixed: the frame stays put
        t.add_column()
        t.add_row(self.render(px, result, tail), self.help(said, pending, tune, extra))
        return Panel(t, title=title, expand=False)


def _two_lines(label):
    """A die's label in two lines of LABEL_W columns, cut at a space (the
    second cut with an ellipsis only when even two lines cannot hold it)."""
    if len(label) <= LABEL_W:
        return [label.ljust(LABEL_W), " " * LABEL_W]
    lines = textwrap.wrap(label, LABEL_W) or [label]
    first = lines[0]
    rest = label[len(first):].strip()
    if len(rest) > LABEL_W:
        rest = rest[:LABEL_W - 1] + "\u2026"
    return [first.ljust(LABEL_W), ("  " + rest if len(rest) <= LABEL_W - 2 else rest).ljust(LABEL_W)]


def _pack(parts, width):
    """Items joined with dots, as many a line as fit in width."""
    sep = Text(" \u00b7 ")
    out, cur = [], None
    for part in parts:
        if cur is not None and cur.cell_len + sep.cell_len + part.cell_len <= width:
            cur = Text("").join([cur, sep, part])
        else:
            if cur is not None:
                out.append(cur)
            cur = part.copy()
    if cur is not None:
        out.append(cur)
    return out
