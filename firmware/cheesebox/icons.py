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

The rows are bytes, not str: MicroPython interns str literals for good, so
str art would stay in the heap after display.py has baked it and dropped
this module.
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
        b"........",
        b"......Y.",
        b".....YY.",
        b"....YYY.",
        b"...YYYY.",
        b"..YYYYY.",
        b".OOOOOO.",
        b"........",
    ),
    "cheese2": (
        b"..Y.....",
        b".YY.....",
        b"OOO.....",
        b"........",
        b"........",
        b".....Y..",
        b"....YY..",
        b"....OOO.",
    ),
    "cheese3": (
        b"....Y...",
        b"...YY...",
        b"..OOO...",
        b"........",
        b"........",
        b"..Y....Y",
        b".YY...YY",
        b"OOO..OOO",
    ),
    "mouse1": (
        b"........",
        b"..PP....",
        b".PPPGG..",
        b".GGGGGG.",
        b"G.GGGGGG",
        b"PGGGGGGG",
        b"..G..G.P",
        b"......PP",
    ),
    "mouse2": (
        b"..P.....",
        b".GGGG...",
        b"PGGGGG..",
        b"..G.G.PP",
        b".....P..",
        b"...GGGG.",
        b"..GGGGGP",
        b"PP.G.G..",
    ),
    "cat": (
        b"O......O",
        b"OO....OO",
        b"OOOOOOOO",
        b"ONOOOONO",
        b"OOOOOOOO",
        b"OOWPPWOO",
        b".OWWWWO.",
        b"..OOOO..",
    ),
    "dog": (
        b"..BBBB..",
        b"BBBBBBBB",
        b"BB.BB.BB",
        b"B.BBBB.B",
        b"B.W..W.B",
        b"B.WWWW.B",
        b"..WPPW..",
        b"...PP...",
    ),
    "innkeeper": (
        b"..BBBB..",
        b"...SS...",
        b"...SS...",
        b".UUUUUU.",
        b"U.UWWU.U",
        b"S.UWWU.S",
        b"..UWWU..",
        b"..U..U..",
    ),
    "king": (
        b"Y.Y.Y...",
        b"YYYYY...",
        b"YRYRY...",
        b".GGGG...",
        b"G.GGGGG.",
        b"PGGGGGGG",
        b"..G..G.P",
        b"......PP",
    ),
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
    "wheel": (
        b"..OOOO..",
        b".OYYYYO.",
        b"OYY.YYYO",
        b"OYYYYY.O",
        b"OY.YYYYO",
        b"OYYYY.YO",
        b".OYYYYO.",
        b"..OOOO..",
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
    "replay": (    # a tie replay: the round is rolled again (an arrow going round)
        b"..WWWW..",
        b".W....W.",
        b"W......W",
        b"W......W",
        b"W....W.W",
        b".W....WW",
        b"..WW.WWW",
        b"........",
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
