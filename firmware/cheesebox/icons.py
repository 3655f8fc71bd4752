"""8x8 icons the shell draws, and those both games draw: digits, signs.

A game's own pictures (Cheese Master's die faces) are in its package, in
this module's form (game.py: ICONS). Each set is drawn baked into the
board's wiring order: `make flash` deploys this module already baked for
the board's dice (iconset.py says the form), else the box bakes it. Digits are a bold white 5x7 font; "7"
carries a small yellow plus for "7+". Colours are saturated at full scale:
the box dims globally. '.' is off; no other entry is black. A game's set
may use these colours and adds its own after them.

The rows are bytes, not str: MicroPython interns str literals for good, so
str art would stay in the heap after the display has baked it and dropped
this module.
"""

PALETTE = {  # char -> (r, g, b) at full scale; '.' is off
    ".": (0, 0, 0),
    "Y": (255, 190, 0),    # yellow: "7+", crown gold
    "W": (255, 255, 255),  # white: digits, signs
    "R": (255, 0, 0),      # red: cross, stop, crown jewels
    "N": (0, 220, 0),      # green: tick, crown jewel
}

ICONS = {
    # ---- digits: 5x7, centred; "7" doubles as "7+" ----
    "0": (
        b"........",
        b"..WWW...",
        b".W...W..",
        b".W..WW..",
        b".W.W.W..",
        b".WW..W..",
        b".W...W..",
        b"..WWW...",
    ),
    "1": (
        b"........",
        b"...W....",
        b"..WW....",
        b"...W....",
        b"...W....",
        b"...W....",
        b"...W....",
        b"..WWW...",
    ),
    "2": (
        b"........",
        b"..WWW...",
        b".W...W..",
        b".....W..",
        b"....W...",
        b"...W....",
        b"..W.....",
        b".WWWWW..",
    ),
    "3": (
        b"........",
        b".WWWWW..",
        b"....W...",
        b"...W....",
        b"....W...",
        b".....W..",
        b".W...W..",
        b"..WWW...",
    ),
    "4": (
        b"........",
        b"....W...",
        b"...WW...",
        b"..W.W...",
        b".W..W...",
        b".WWWWW..",
        b"....W...",
        b"....W...",
    ),
    "5": (
        b"........",
        b".WWWWW..",
        b".W......",
        b".WWWW...",
        b".....W..",
        b".....W..",
        b".W...W..",
        b"..WWW...",
    ),
    "6": (
        b"........",
        b"...WW...",
        b"..W.....",
        b".W......",
        b".WWWW...",
        b".W...W..",
        b".W...W..",
        b"..WWW...",
    ),
    "7": (
        b"......Y.",
        b".....YYY",
        b"WWWWW.Y.",
        b"....W...",
        b"...W....",
        b"..W.....",
        b"..W.....",
        b"..W.....",
    ),
    # ---- symbols ----
    "question": (
        b"..WWWW..",
        b".WW..WW.",
        b".....WW.",
        b"....WW..",
        b"...WW...",
        b"...WW...",
        b"........",
        b"...WW...",
    ),
    "crown": (
        b"........",
        b"Y..YY..Y",
        b"Y..YY..Y",
        b"YY.YY.YY",
        b"YYYYYYYY",
        b"YRYNNYRY",
        b"YYYYYYYY",
        b"........",
    ),
    "cross": (
        b"R......R",
        b"RR....RR",
        b".RR..RR.",
        b"..RRRR..",
        b"..RRRR..",
        b".RR..RR.",
        b"RR....RR",
        b"R......R",
    ),
    "check": (
        b"........",
        b".......N",
        b"......NN",
        b".....NN.",
        b"N...NN..",
        b"NN.NN...",
        b".NNN....",
        b"..N.....",
    ),
    "plus": (
        b"........",
        b"...WW...",
        b"...WW...",
        b".WWWWWW.",
        b".WWWWWW.",
        b"...WW...",
        b"...WW...",
        b"........",
    ),
    "stop": (      # "stop?": an octagon with a bar across, a shape as well as red
        b"..RRRR..",
        b".RRRRRR.",
        b"RRRRRRRR",
        b"RWWWWWWR",
        b"RWWWWWWR",
        b"RRRRRRRR",
        b".RRRRRR.",
        b"..RRRR..",
    ),
    "blank": (
        b"........",
        b"........",
        b"........",
        b"........",
        b"........",
        b"........",
        b"........",
        b"........",
    ),
}
