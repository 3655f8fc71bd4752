"""Frame buffers for the dice matrices and score tracks.

One RGB bytearray per NeoPixel chain, in wire pixel order (the port applies
the colour order and the brightness limit). Icons are baked once into the
board's matrix layout as palette indices, so drawing a face is one short loop
with no allocation; only chains that changed are handed to the port.
"""
from array import array

from cheesebox import forget
from cheesebox.board import MATRIX_PIXELS, TRACK_PIXELS

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


def bake(rows, layout, index):
    """64 palette indices of an 8x8 icon, in the matrix's wiring order
    (index: art byte -> palette index, a 256-byte table).

    One byte a pixel, not three: the six faces, digits and signs take 1.5 KiB
    of the Pico's heap instead of 4.6 (die() expands them into the frame).
    Every icon is baked at power-up: the loop is written out (no call or
    dictionary a pixel), 52 -> 21 ms for the lot on the Pico."""
    out = bytearray(MATRIX_PIXELS)
    snake = layout != "rows"
    i = 0
    for y in range(8):
        row = rows[y]                   # bytes: row[x] is an int
        if snake and y & 1:             # odd rows run right to left
            for x in range(7, -1, -1):
                out[i] = index[row[x]]
                i += 1
        else:
            for x in range(8):
                out[i] = index[row[x]]
                i += 1
    return bytes(out)


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
        baked = {}
        self.icons = []     # per die: {icon name: 64 palette indices}
        # the icon art is only needed to bake: dropped afterwards (heap)
        from cheesebox import icons
        chars = list(icons.PALETTE)
        self.palette = bytearray(3 * len(chars))    # index -> r, g, b
        index = bytearray(256)                       # art byte -> index
        for i in range(len(chars)):
            index[ord(chars[i])] = i
            self.palette[3 * i:3 * i + 3] = bytes(icons.PALETTE[chars[i]])
        for (ci, start, layout) in board.dice:
            mv = memoryview(self.bufs[ci])
            self.views.append(mv[start * 3:(start + MATRIX_PIXELS) * 3])
            if layout not in baked:
                baked[layout] = dict((name, bake(rows, layout, index))
                                     for name, rows in icons.ICONS.items())
            self.icons.append(baked[layout])
        del icons, chars, index
        forget("icons")
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
        self.shown = [None] * len(board.dice)   # icon name on each die
        self.track_cache = [-1, None, -1, None] * len(board.tracks)   # points, rgb, extra, rgb
        self.wheel_cache = [None] * len(board.tracks)

    def die(self, d, name):
        """Show icon `name` on die matrix d (no work if already shown)."""
        if self.shown[d] == name:
            return
        self.shown[d] = name
        art = self.icons[d][name]
        view = self.views[d]
        pal = self.palette
        j = 0
        for p in range(MATRIX_PIXELS):
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
