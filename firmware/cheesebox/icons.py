"""8x8 icons for the dice matrices.

Players read a die face from across a table in under half a second, so each
face is told apart first by colour and silhouette, only then by detail:
cheese is yellow wedges with an orange rind, counted like dice pips; mice are
grey with pink ears, noses and tails (one big mouse; two small mice on a
diagonal, facing apart; or the mouse under a gold crown for the King); the
cat is an orange head with pointed ears and green eyes, the dog a brown head
with floppy ears hanging down, white muzzle and pink tongue; the innkeeper is
a blue figure with a white apron and brown hat. Digits are a bold white 5x7
font; "7" carries a small yellow plus for "7+". Colours are saturated at full
scale: the box dims globally. '.' is off (also used for eyes and noses); no
other entry is black.
"""

PALETTE = {  # char -> (r, g, b) at full scale; '.' is off
    ".": (0, 0, 0),
    "Y": (255, 190, 0),    # cheese yellow, crown gold
    "O": (255, 80, 0),     # orange: cheese rind, cat
    "W": (255, 255, 255),  # white: digits, apron, muzzles
    "G": (110, 110, 130),  # mouse grey
    "P": (255, 60, 110),   # pink: mouse ears/noses/tails, cat nose, dog tongue
    "B": (150, 60, 10),    # dog brown, innkeeper hat
    "U": (0, 70, 255),     # innkeeper blue
    "S": (255, 130, 70),   # skin
    "R": (255, 0, 0),      # red: cross, crown jewels
    "N": (0, 220, 0),      # green: tick, cat eyes, crown jewel
}

ICONS = {
    # ---- die faces ----
    "cheese1": (
        "........",
        "......Y.",
        ".....YY.",
        "....YYY.",
        "...YYYY.",
        "..YYYYY.",
        ".OOOOOO.",
        "........",
    ),
    "cheese2": (
        "..Y.....",
        ".YY.....",
        "OOO.....",
        "........",
        "........",
        ".....Y..",
        "....YY..",
        "....OOO.",
    ),
    "cheese3": (
        "....Y...",
        "...YY...",
        "..OOO...",
        "........",
        "........",
        "..Y....Y",
        ".YY...YY",
        "OOO..OOO",
    ),
    "mouse1": (
        "........",
        "..PP....",
        ".PPPGG..",
        ".GGGGGG.",
        "G.GGGGGG",
        "PGGGGGGG",
        "..G..G.P",
        "......PP",
    ),
    "mouse2": (
        "..P.....",
        ".GGGG...",
        "PGGGGG..",
        "..G.G.PP",
        ".....P..",
        "...GGGG.",
        "..GGGGGP",
        "PP.G.G..",
    ),
    "cat": (
        "O......O",
        "OO....OO",
        "OOOOOOOO",
        "ONOOOONO",
        "OOOOOOOO",
        "OOWPPWOO",
        ".OWWWWO.",
        "..OOOO..",
    ),
    "dog": (
        "..BBBB..",
        "BBBBBBBB",
        "BB.BB.BB",
        "B.BBBB.B",
        "B.W..W.B",
        "B.WWWW.B",
        "..WPPW..",
        "...PP...",
    ),
    "innkeeper": (
        "..BBBB..",
        "...SS...",
        "...SS...",
        ".UUUUUU.",
        "U.UWWU.U",
        "S.UWWU.S",
        "..UWWU..",
        "..U..U..",
    ),
    "king": (
        "Y.Y.Y...",
        "YYYYY...",
        "YRYRY...",
        ".GGGG...",
        "G.GGGGG.",
        "PGGGGGGG",
        "..G..G.P",
        "......PP",
    ),
    # ---- digits: 5x7, centred; "7" doubles as "7+" ----
    "0": (
        "........",
        "..WWW...",
        ".W...W..",
        ".W..WW..",
        ".W.W.W..",
        ".WW..W..",
        ".W...W..",
        "..WWW...",
    ),
    "1": (
        "........",
        "...W....",
        "..WW....",
        "...W....",
        "...W....",
        "...W....",
        "...W....",
        "..WWW...",
    ),
    "2": (
        "........",
        "..WWW...",
        ".W...W..",
        ".....W..",
        "....W...",
        "...W....",
        "..W.....",
        ".WWWWW..",
    ),
    "3": (
        "........",
        ".WWWWW..",
        "....W...",
        "...W....",
        "....W...",
        ".....W..",
        ".W...W..",
        "..WWW...",
    ),
    "4": (
        "........",
        "....W...",
        "...WW...",
        "..W.W...",
        ".W..W...",
        ".WWWWW..",
        "....W...",
        "....W...",
    ),
    "5": (
        "........",
        ".WWWWW..",
        ".W......",
        ".WWWW...",
        ".....W..",
        ".....W..",
        ".W...W..",
        "..WWW...",
    ),
    "6": (
        "........",
        "...WW...",
        "..W.....",
        ".W......",
        ".WWWW...",
        ".W...W..",
        ".W...W..",
        "..WWW...",
    ),
    "7": (
        "......Y.",
        ".....YYY",
        "WWWWW.Y.",
        "....W...",
        "...W....",
        "..W.....",
        "..W.....",
        "..W.....",
    ),
    # ---- symbols ----
    "question": (
        "..WWWW..",
        ".WW..WW.",
        ".....WW.",
        "....WW..",
        "...WW...",
        "...WW...",
        "........",
        "...WW...",
    ),
    "crown": (
        "........",
        "Y..YY..Y",
        "Y..YY..Y",
        "YY.YY.YY",
        "YYYYYYYY",
        "YRYNNYRY",
        "YYYYYYYY",
        "........",
    ),
    "wheel": (
        "..OOOO..",
        ".OYYYYO.",
        "OYY.YYYO",
        "OYYYYY.O",
        "OY.YYYYO",
        "OYYYY.YO",
        ".OYYYYO.",
        "..OOOO..",
    ),
    "cross": (
        "R......R",
        "RR....RR",
        ".RR..RR.",
        "..RRRR..",
        "..RRRR..",
        ".RR..RR.",
        "RR....RR",
        "R......R",
    ),
    "check": (
        "........",
        ".......N",
        "......NN",
        ".....NN.",
        "N...NN..",
        "NN.NN...",
        ".NNN....",
        "..N.....",
    ),
    "plus": (
        "........",
        "...WW...",
        "...WW...",
        ".WWWWWW.",
        ".WWWWWW.",
        "...WW...",
        "...WW...",
        "........",
    ),
    "blank": (
        "........",
        "........",
        "........",
        "........",
        "........",
        "........",
        "........",
        "........",
    ),
}
