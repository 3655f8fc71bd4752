"""Lamps' own icon set (the game contract's ICONS): one lamp, in a colour
the shell does not have, shown at joining."""

PALETTE = {"L": (255, 220, 120)}     # lamp light: after the shell's colours

ICONS = {
    "lamp": (
        b"...YY...",
        b"..LLLL..",
        b".LLLLLL.",
        b".LLLLLL.",
        b"..LLLL..",
        b"...WW...",
        b"...WW...",
        b"..WWWW..",
    ),
}
