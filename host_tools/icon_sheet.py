#!/usr/bin/env python3
"""Render every icon in firmware/cheesebox/icons.py to a PNG contact sheet.

Usage: python host_tools/icon_sheet.py [OUT.png]   (default: build/icons.png)

Each LED is drawn as a round dot (12 px pitch) on a dark background, with the
icon's name under it in a tiny built-in bitmap font. Stdlib only: the PNG is
written with zlib + struct. Before drawing, a self-check asserts that every
icon is 8 rows of 8 characters and every character is in PALETTE.
"""
from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "firmware"))

from cheesebox import icons  # noqa: E402

LED = 12          # px per LED
DOT_R = 5.0       # dot radius in px
PAD = 12          # space around each icon cell
COLS = 8          # icons per sheet row
LABEL_SCALE = 2   # font pixel size
BG = (16, 16, 20)
UNLIT = (34, 34, 40)   # an unlit LED, so the grid is visible
TEXT = (200, 200, 200)

# 3x5 font, rows top to bottom, "#" = on.
FONT = {
    "A": ("###", "#.#", "###", "#.#", "#.#"),
    "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": ("###", "#..", "#..", "#..", "###"),
    "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."),
    "G": ("###", "#..", "#.#", "#.#", "###"),
    "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"),
    "J": ("..#", "..#", "..#", "#.#", "###"),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"),
    "L": ("#..", "#..", "#..", "#..", "###"),
    "M": ("#.#", "###", "###", "#.#", "#.#"),
    "N": ("##.", "#.#", "#.#", "#.#", "#.#"),
    "O": ("###", "#.#", "#.#", "#.#", "###"),
    "P": ("###", "#.#", "###", "#..", "#.."),
    "Q": ("###", "#.#", "#.#", "###", "..#"),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": ("###", "#..", "###", "..#", "###"),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "U": ("#.#", "#.#", "#.#", "#.#", "###"),
    "V": ("#.#", "#.#", "#.#", "#.#", ".#."),
    "W": ("#.#", "#.#", "###", "###", "#.#"),
    "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."),
    "Z": ("###", "..#", ".#.", "#..", "###"),
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", ".##", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", "..#", "..#"),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    "_": ("...", "...", "...", "...", "###"),
    "+": ("...", ".#.", "###", ".#.", "..."),
    " ": ("...", "...", "...", "...", "..."),
}


def self_check() -> None:
    """Every icon is 8 rows of 8 chars, every char in PALETTE; palette sane."""
    pal = icons.PALETTE
    assert "." in pal and tuple(pal["."]) == (0, 0, 0), "'.' must be off"
    assert len(pal) <= 12, "palette has %d colours (max 12)" % len(pal)
    for ch, rgb in pal.items():
        assert isinstance(ch, str) and len(ch) == 1, "palette key %r" % (ch,)
        assert len(rgb) == 3 and all(0 <= v <= 255 for v in rgb), (ch, rgb)
        if ch != ".":
            assert any(rgb), "palette %r is black; only '.' may be off" % ch
    for name, rows in icons.ICONS.items():
        assert isinstance(rows, tuple), "%s: not a tuple" % name
        assert all(isinstance(r, bytes) for r in rows), "%s: rows must be bytes" % name
        rows = [r.decode() for r in rows]
        assert len(rows) == 8, "%s: %d rows, want 8" % (name, len(rows))
        for y, row in enumerate(rows):
            assert len(row) == 8, "%s row %d: %r is %d chars, want 8" % (
                name, y, row, len(row))
            for x, ch in enumerate(row):
                assert ch in pal, "%s row %d col %d: %r not in PALETTE" % (
                    name, y, x, ch)
    faces = ("cheese1", "cheese2", "cheese3", "mouse1", "mouse2", "cat",
             "dog", "innkeeper", "king")
    others = tuple("01234567") + ("question", "crown", "wheel", "cross",
                                  "check", "plus", "blank")
    for name in faces + others:
        assert name in icons.ICONS, "missing icon %r" % name
    seen = {}
    for name in faces:
        rows = tuple(r.decode() for r in icons.ICONS[name])
        assert rows not in seen, "%s is identical to %s" % (name, seen.get(rows))
        seen[rows] = name


class Canvas:
    def __init__(self, w: int, h: int, bg):
        self.w, self.h = w, h
        self.px = [bytearray(bytes(bg) * w) for _ in range(h)]

    def set(self, x: int, y: int, rgb) -> None:
        if 0 <= x < self.w and 0 <= y < self.h:
            i = 3 * x
            self.px[y][i:i + 3] = bytes(rgb)

    def blend(self, x: int, y: int, rgb, a: float) -> None:
        if 0 <= x < self.w and 0 <= y < self.h and a > 0:
            i = 3 * x
            row = self.px[y]
            for k in range(3):
                row[i + k] = int(row[i + k] * (1 - a) + rgb[k] * a + 0.5)

    def dot(self, cx: float, cy: float, r: float, rgb) -> None:
        """Anti-aliased filled circle."""
        for y in range(int(cy - r - 1), int(cy + r + 2)):
            for x in range(int(cx - r - 1), int(cx + r + 2)):
                d = ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2) ** 0.5
                self.blend(x, y, rgb, min(1.0, max(0.0, r + 0.5 - d)))

    def text(self, x: int, y: int, s: str, rgb, scale: int) -> None:
        for ch in s.upper():
            glyph = FONT.get(ch, FONT[" "])
            for gy, line in enumerate(glyph):
                for gx, c in enumerate(line):
                    if c == "#":
                        for sy in range(scale):
                            for sx in range(scale):
                                self.set(x + gx * scale + sx,
                                         y + gy * scale + sy, rgb)
            x += 4 * scale

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(row) for row in self.px)

        def chunk(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return (struct.pack(">I", len(data)) + body
                    + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF))

        ihdr = struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def render(names) -> Canvas:
    icon_px = 8 * LED
    label_h = 5 * LABEL_SCALE + 6
    cell_w = icon_px + 2 * PAD
    cell_h = icon_px + label_h + 2 * PAD
    rows = (len(names) + COLS - 1) // COLS
    cv = Canvas(COLS * cell_w, rows * cell_h, BG)
    for i, name in enumerate(names):
        ox = (i % COLS) * cell_w + PAD
        oy = (i // COLS) * cell_h + PAD
        for y, row in enumerate(r.decode() for r in icons.ICONS[name]):
            for x, ch in enumerate(row):
                rgb = icons.PALETTE[ch] if ch != "." else UNLIT
                cv.dot(ox + x * LED + LED / 2, oy + y * LED + LED / 2,
                       DOT_R, rgb)
        tw = len(name) * 4 * LABEL_SCALE - LABEL_SCALE
        cv.text(ox + (icon_px - tw) // 2, oy + icon_px + 6, name, TEXT,
                LABEL_SCALE)
    return cv


def main(argv) -> int:
    self_check()
    out = Path(argv[1]) if len(argv) > 1 else REPO / "build" / "icons.png"
    names = list(icons.ICONS)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(render(names).png())
    print("self-check ok: %d icons, %d colours" % (len(names),
                                                    len(icons.PALETTE)))
    print("order: " + " ".join(names))
    print("wrote " + str(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
