"""A 3x5 font for numbers on an 8x8 die (two digits side by side), for games
that show amounts (prices, money) rather than icons.

rows_for(text, out) writes the 8 rows of a pattern (bit 7 = left column)
into the bytearray `out`; Display.pattern() draws it in one colour.
"""

# each glyph: 5 rows of 3 bits (bit 2 = left)
GLYPHS = {
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7), "3": (7, 1, 3, 1, 7),
    "4": (5, 5, 7, 1, 1), "5": (7, 4, 7, 1, 7), "6": (7, 4, 7, 5, 7), "7": (7, 1, 2, 2, 2),
    "8": (7, 5, 7, 5, 7), "9": (7, 5, 7, 1, 7), "P": (6, 5, 6, 4, 4), "-": (0, 0, 7, 0, 0),
    "+": (0, 2, 7, 2, 0), " ": (0, 0, 0, 0, 0), "A": (2, 5, 7, 5, 5), "B": (6, 5, 6, 5, 6),
    # letters and signs for Cheesonomics' steps and sums
    "C": (7, 4, 4, 4, 7), "D": (6, 5, 5, 5, 6), "K": (5, 5, 6, 5, 5), "M": (5, 7, 7, 5, 5),
    "N": (7, 5, 5, 5, 5), "W": (5, 5, 7, 7, 5), "X": (5, 5, 2, 5, 5), "x": (0, 5, 2, 5, 0),
    "=": (0, 7, 0, 7, 0), "O": (7, 5, 5, 5, 7),
    # the final count's lines: S sales (not the 5's shape), U unsold pieces;
    # F the final turns
    "S": (3, 4, 2, 1, 6), "U": (5, 5, 5, 5, 7), "F": (7, 4, 6, 4, 4),
    # the rest of the alphabet: Cheesonomics names what was keyed by its
    # first letters (GO goat, IT Italy), each unlike the digits
    "E": (7, 4, 6, 4, 7), "G": (7, 4, 5, 5, 7), "H": (5, 5, 7, 5, 5), "I": (7, 2, 2, 2, 7),
    "J": (1, 1, 1, 5, 7), "L": (4, 4, 4, 4, 7), "Q": (7, 5, 5, 7, 1), "R": (6, 5, 6, 5, 5),
    "T": (7, 2, 2, 2, 2), "V": (5, 5, 5, 5, 2), "Y": (5, 5, 2, 2, 2), "Z": (7, 1, 2, 4, 7),
}
TOP = 1         # first row of the glyphs (rows 1-5; row 7 is left for a bar)


def rows_for(text, out):
    """Up to two glyphs, centred: one at columns 2-4, two at 0-2 and 4-6."""
    for y in range(8):
        out[y] = 0
    if len(text) == 1:
        shifts = (3,)
    else:
        shifts = (5, 1)
    for i in range(min(2, len(text))):
        g = GLYPHS.get(text[i], GLYPHS[" "])
        for y in range(5):
            out[TOP + y] |= g[y] << shifts[i]
    return out
