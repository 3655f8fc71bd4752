"""Frame buffers for the dice matrices and score tracks.

One RGB bytearray per NeoPixel chain, in wire pixel order (the port applies
the colour order and the brightness limit). Icons come baked into the
board's matrix layout as palette indices (the shell's set, and the game's own
through the game contract; baked on the host when it deploys, else at
power-up: iconset.py), so drawing a face is one short loop with no
allocation; only chains that changed are handed to the port.
"""
from array import array

from micropython import const

from cheesebox import forget
from cheesebox.board import MATRIX_PIXELS, TRACK_PIXELS

SHELL_ICONS = "cheesebox.icons"     # the shell's icon set (a game's: its module's ICONS)
_GAME = const(0x10000)              # an icon's offset at or above this: in the game's set

OFF = (0, 0, 0)
SCORE = (0, 170, 40)        # points, card unflipped (4-7)
WHEEL = (255, 170, 0)       # holds a cheese wheel
MARK = (255, 255, 255)      # chooses/starts the next roll
BAD = (255, 0, 0)           # false start, refused grab, lost points
OUT = (40, 0, 0)            # eliminated
STUCK = (0, 0, 255)         # a button held down too long: ignored until let go
# station colours: the colour of that player's set of cards
STATION = ((255, 0, 0), (0, 90, 255), (0, 200, 0), (255, 200, 0),
           (180, 0, 255), (0, 220, 220), (255, 100, 160), (255, 120, 0))


def wire_index(layout, x, y):
    """Pixel number of column x, row y on a matrix wired in `layout`."""
    return y * 8 + (x if (layout == "rows" or y % 2 == 0) else 7 - x)


class Display:
    """The box's LEDs as buffers: dice matrices 0-5 and one track a station."""

    def __init__(self, board):
        self.board = board
        self.bufs = [bytearray(c.pixels * 3) for c in board.chains]
        self.dirty = bytearray(len(board.chains))
        # the bytes of each chain that changed since the last flush: [lo, hi)
        self.lo = array("H", [c.pixels * 3 for c in board.chains])
        self.hi = array("H", [0] * len(board.chains))
        self.views = []     # memoryview of each die's 192 bytes
        layouts = []
        for (ci, start, layout) in board.dice:
            mv = memoryview(self.bufs[ci])
            self.views.append(mv[start * 3:(start + MATRIX_PIXELS) * 3])
            if layout not in layouts:
                layouts.append(layout)
        self.layouts = tuple(layouts)   # the dice's layouts, each once
        # the shell's icons; baked: why they were baked at power-up ("": not)
        chars, self.shell_rgb, self.shell_names, self.shell_blobs, self.baked = \
            self._icon_set(SHELL_ICONS, "")
        self.base = chars   # a game's colours come after these
        self.use_icons(None)
        # chains in the order they go out: the score tracks' chains first, so a
        # wheel LED is lit before a long dice chain is written
        order = []
        for ci, _ in board.tracks:
            if ci not in order:
                order.append(ci)
        for ci in range(len(board.chains)):
            if ci not in order:
                order.append(ci)
        self.order = bytes(order)
        self.track_cache = [-1, None, -1, None] * len(board.tracks)   # points, rgb, extra, rgb
        self.wheel_cache = [None] * len(board.tracks)

    def _icon_set(self, module, base):
        """(own chars, rgb, names, {layout: 64 indices an icon, in names
        order}, why) of an icon set: as the host baked it into the module it
        deployed (make flash: iconset.py; why ""), else baked now (the module
        as its source, or baked for other dice or colours), saying why."""
        art = __import__(module, None, None, ("CHARS",))
        done = getattr(art, "BAKED", None)
        if done is not None and art.BASE == base and all(lo in done for lo in self.layouts):
            got = (art.CHARS, art.RGB, art.NAMES, done, "")
        else:
            from cheesebox import iconset
            got = iconset.bake_art(art, self.layouts, base)
            forget("iconset")
        del art, done
        forget(module)
        return got

    def use_icons(self, module):
        """The game's own icon set (its module's ICONS, the name of its art
        module; None: none) beside the shell's; the last game's go. Returns
        why they were baked now ("": they came baked).

        An icon is found by name as an offset (a small int, no heap) into its
        set's bytes for the die's layout: the shell's (offset < _GAME) or
        the game's."""
        own = b""
        why = ""
        at = dict((self.shell_names[k], k * MATRIX_PIXELS) for k in range(len(self.shell_names)))
        blobs = {}
        if module is not None:
            _, own, names, blobs, why = self._icon_set(module, self.base)
            for k in range(len(names)):
                at[names[k]] = _GAME + k * MATRIX_PIXELS
        pairs = dict((lo, (self.shell_blobs[lo], blobs.get(lo, b""))) for lo in self.layouts)
        self.at = at
        self.blobs = [pairs[lo] for (_, _, lo) in self.board.dice]   # per die: (shell's, game's)
        self.palette = self.shell_rgb + own          # index -> r, g, b
        self.shown = [None] * len(self.board.dice)   # icon name on each die
        return why

    def die(self, d, name):
        """Show icon `name` on die matrix d (no work if already shown)."""
        if self.shown[d] == name:
            return
        self.shown[d] = name
        o = self.at[name]
        art = self.blobs[d][o >> 16]
        o &= 0xFFFF
        view = self.views[d]
        pal = self.palette
        j = 0
        for p in range(o, o + MATRIX_PIXELS):
            k = art[p] * 3
            view[j] = pal[k]
            view[j + 1] = pal[k + 1]
            view[j + 2] = pal[k + 2]
            j += 3
        ci, start, _ = self.board.dice[d]
        self._changed(ci, start * 3, (start + MATRIX_PIXELS) * 3)

    def pattern(self, d, rows, rgb, key):
        """Die d shows an 8x8 one-colour pattern (rows: 8 bytes, bit 7 = left
        column; font.py) in rgb, the rest off. `key` names what is shown: no
        work if the die shows it already."""
        if self.shown[d] == key:
            return
        self.shown[d] = key
        view = self.views[d]
        ci, start, layout = self.board.dice[d]
        r, g, b = rgb
        for y in range(8):
            row = rows[y]
            for x in range(8):
                j = wire_index(layout, x, y) * 3
                if (row >> (7 - x)) & 1:
                    view[j] = r
                    view[j + 1] = g
                    view[j + 2] = b
                else:
                    view[j] = 0
                    view[j + 1] = 0
                    view[j + 2] = 0
        self._changed(ci, start * 3, (start + MATRIX_PIXELS) * 3)

    def _changed(self, ci, lo, hi):
        self.dirty[ci] = 1
        if lo < self.lo[ci]:
            self.lo[ci] = lo
        if hi > self.hi[ci]:
            self.hi[ci] = hi

    def track_pixel(self, s, i, rgb):
        """Pixel i (0-6 score, 7 wheel) of station s's track."""
        ci, start = self.board.tracks[s]
        if self.board.track_reversed:
            i = TRACK_PIXELS - 1 - i
        buf = self.bufs[ci]
        j = (start + i) * 3
        r, g, b = rgb
        if buf[j] != r or buf[j + 1] != g or buf[j + 2] != b:
            buf[j] = r
            buf[j + 1] = g
            buf[j + 2] = b
            self._changed(ci, j, j + 3)

    def score(self, s, points, rgb, extra=0, extra_rgb=OFF):
        """Score LEDs of station s: `points` in rgb, the next `extra` in extra_rgb.

        Remembers what each track shows, so an unchanged track costs nothing.
        """
        k = s * 4
        c = self.track_cache
        if c[k] == points and c[k + 1] is rgb and c[k + 2] == extra and c[k + 3] is extra_rgb:
            return
        c[k] = points
        c[k + 1] = rgb
        c[k + 2] = extra
        c[k + 3] = extra_rgb
        # track_pixel() inlined: this runs between a press and its LED
        ci, start = self.board.tracks[s]
        buf = self.bufs[ci]
        rev = self.board.track_reversed
        end = points + extra
        lo = -1
        hi = 0
        for i in range(TRACK_PIXELS - 1):
            col = rgb if i < points else (extra_rgb if i < end else OFF)
            j = (start + (TRACK_PIXELS - 1 - i if rev else i)) * 3
            r = col[0]
            g = col[1]
            b = col[2]
            if buf[j] != r or buf[j + 1] != g or buf[j + 2] != b:
                buf[j] = r
                buf[j + 1] = g
                buf[j + 2] = b
                if lo < 0 or j < lo:
                    lo = j
                if j + 3 > hi:
                    hi = j + 3
        if lo >= 0:
            self._changed(ci, lo, hi)

    def wheel(self, s, rgb):
        if self.wheel_cache[s] is not rgb:
            self.wheel_cache[s] = rgb
            self.track_pixel(s, TRACK_PIXELS - 1, rgb)

    def dark_except(self, mask):
        """Every station not in bit mask `mask` dark, the track and the wheel
        LED. One call, and no work for a station already dark: a game draws
        its players' tracks between a press and its LED, and a call per
        station costs a Pico ~0.1 ms."""
        c = self.track_cache
        w = self.wheel_cache
        for s in range(len(w)):
            if not (mask >> s) & 1:
                if c[4 * s] != 0 or c[4 * s + 2] != 0:
                    self.score(s, 0, OFF)
                if w[s] is not OFF:
                    self.wheel(s, OFF)

    def clear(self):
        for ci in range(len(self.bufs)):
            buf = self.bufs[ci]
            for j in range(len(buf)):
                buf[j] = 0
            self._changed(ci, 0, len(buf))
        for d in range(len(self.shown)):
            self.shown[d] = None
        for i in range(len(self.track_cache)):
            self.track_cache[i] = -1 if i % 2 == 0 else None
        for i in range(len(self.wheel_cache)):
            self.wheel_cache[i] = None

    def flush(self, port):
        """Hand every changed chain to the port, tracks first, then let it
        write them (port.commit); returns how many chains changed."""
        n = 0
        for ci in self.order:
            if self.dirty[ci]:
                self.dirty[ci] = 0
                port.show(ci, self.bufs[ci], self.lo[ci], self.hi[ci])
                self.lo[ci] = len(self.bufs[ci])
                self.hi[ci] = 0
                n += 1
        if n:
            port.commit()
        return n
