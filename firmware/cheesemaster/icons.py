"""Cheese Master's own icons: the nine die faces, the wheel, the replay sign.

Players read a die face from across a table in under half a second, so each
face is told apart first by colour and silhouette, only then by detail:
cheese is yellow wedges with an orange rind, counted like dice pips; mice are
grey with pink ears, noses and tails (one big mouse; two small mice on a
diagonal, facing apart; or the mouse under a gold crown for the King); the
cat is an orange head with pointed ears and green eyes, the dog a brown head
with floppy ears hanging down, white muzzle and pink tongue; the innkeeper is
a blue figure with a white apron and brown hat. The game's icon set (game.py
ICONS names this module): the shell's colours (cheesebox/icons.py: '.', Y,
W, R, N) and these of its own; the rows are bytes for the reason given there.
"""

PALETTE = {  # the game's own colours, after the shell's: char -> (r, g, b)
    "O": (255, 80, 0),     # orange: cheese rind, cat, the wheel's rim
    "G": (110, 110, 130),  # mouse grey
    "P": (255, 60, 110),   # pink: mouse ears/noses/tails, cat nose, dog tongue
    "B": (150, 60, 10),    # dog brown, innkeeper hat
    "U": (0, 70, 255),     # innkeeper blue
    "S": (255, 130, 70),   # skin
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
    # ---- signs of its own ----
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
}
