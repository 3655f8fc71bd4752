"""A 3x5 font for numbers on an 8x8 die (two digits side by side), for games
that show amounts (prices, money) rather than icons.

rows_for(text, out) writes the 8 rows of a pattern (bit 7 = left column)
into the bytearray `out`; Display.pattern() draws it in one colour.
"""

from micropython import const

# the glyphs, in CHARS' order: 5 rows of 3 bits each (bit 2 = left), a row
# an octal digit, a glyph five digits; one string, not a dict of tuples (the
# emulated pico-8p: 1 KB more heap free after boot, 2.9 KB beside a
# Cheesonomics game). Beyond the digits: Cheesonomics' steps and sums (C, K,
# N ... x, =), the final count (S not the 5's shape, U the unsold pieces, F
# the final turns) and the names of what was keyed (GO goat, IT Italy), each
# unlike the digits
CHARS = '0123456789P-+ ABCDKMNWXx=OSUFEGHIJLQRTVYZ'
_ROWS = (
    "75557 26227 71747 71317 55711 74717 74757 71222 "   # '0' '1' '2' '3' '4' '5' '6' '7'
    "75757 75717 65644 00700 02720 00000 25755 65656 "   # '8' '9' 'P' '-' '+' ' ' 'A' 'B'
    "74447 65556 55655 57755 75555 55775 55255 05250 "   # 'C' 'D' 'K' 'M' 'N' 'W' 'X' 'x'
    "07070 75557 34216 55557 74644 74647 74557 55755 "   # '=' 'O' 'S' 'U' 'F' 'E' 'G' 'H'
    "72227 11157 44447 75571 65655 72222 55552 55222 "   # 'I' 'J' 'L' 'Q' 'R' 'T' 'V' 'Y'
    "71247 "   # 'Z'
)
_BLANK = const(13)     # CHARS.find(" ")
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
        g = CHARS.find(text[i])
        if g < 0:
            g = _BLANK
        g *= 6
        for y in range(5):
            out[TOP + y] |= (ord(_ROWS[g + y]) - 48) << shifts[i]
    return out
