"""The box's art modules as deployed: each icon set already baked for the
board's dice, so a Pico does not bake them at every power-up (~45 ms).

flash.py deploys, in place of each art module's source (the shell's
cheesebox/icons.py and each game's ICONS), the module this writes: its art
and its icons baked for the die layouts of the board file being deployed,
in the form firmware/cheesebox/iconset.py describes. So `make flash`,
`make uf2`, the emulator's images and the web page all carry them. The bake
is the firmware's own (iconset.bake_art), so the module holds what the box
would bake, byte for byte; the box bakes at power-up instead when the module
is a source (copied by hand) or was baked for other dice or colours.
"""
from __future__ import annotations

import importlib


def icon_sets() -> list[str]:
    """The art modules the box may draw: the shell's, then each game's (games.py's order)."""
    from cheesebox import games
    from cheesebox.display import SHELL_ICONS
    out = [SHELL_ICONS]
    for i in range(len(games.GAMES)):
        mod = games.load(i).ICONS
        if mod is not None and mod not in out:
            out.append(mod)
    return out


def layouts_of(board) -> list[str]:
    """The board's die layouts, each once, in the order its dice name them."""
    out: list[str] = []
    for _, _, layout in board.dice:
        if layout not in out:
            out.append(layout)
    return out


# MicroPython interns a string literal of up to this many chars when it
# compiles it (MICROPY_ALLOC_PARSE_INTERN_STRING_LEN); a longer one becomes a
# str object of the .mpy, on the heap for as long as it is referenced
INTERN_LEN = 10


def names_line(names) -> str:
    """NAMES as the deployed module writes it: a list display of the names,
    so each is loaded as a qstr (interned, no heap of its own; the module's
    qstr table interns it when the .mpy loads).

    Not a tuple: mpy-cross folds a tuple of literals into one constant, and
    the .mpy loader makes each of its strs a heap object unless that string
    is interned already. The names would then take 32 B of heap each for as
    long as the box runs (the display keys its icons by them), and so would
    every other module's tuple of icon names loaded after them
    (cheesemaster/dicefile.py's dice, faces.py, flow.py's menu): the icon
    names were qstrs while the art's source was imported, and a game of
    Cheese Master had 1.7 KiB less heap (pico-8p, emulated) when they
    were not."""
    long = [n for n in names if len(n) > INTERN_LEN]
    if long:
        raise ValueError("icon names of more than %d chars are not interned by MicroPython: %s"
                         % (INTERN_LEN, ", ".join(long)))
    return "NAMES = [%s]" % ", ".join(repr(n) for n in names)


def module_source(module: str, layouts: list[str], base: str) -> tuple[str, str]:
    """(the deployed source of art module `module`, its own chars): its art
    and its icons baked for `layouts` on palette `base`."""
    from cheesebox import iconset
    art = importlib.import_module(module)
    own, rgb, names, sets, _ = iconset.bake_art(art, layouts, base)
    lines = ['"""%s as deployed (host_tools/deploy/bakedicons.py): its icons baked for' % module,
             'this board\'s dice; firmware/cheesebox/iconset.py says the form."""',
             "CHARS = %r" % own,
             "RGB = %r" % rgb,
             "BASE = %r" % base,
             # a list display, not a tuple: each name an interned qstr (see names_line)
             names_line(names),
             "ART = %r" % b"".join(b"".join(art.ICONS[n]) for n in names),
             "BAKED = {"]
    lines += ["    %r: %r," % (lo, sets[lo]) for lo in layouts]
    lines.append("}")
    return "\n".join(lines) + "\n", own


def deployed_sources(board) -> dict[str, str]:
    """{file relative to firmware/ (cheesebox/icons.py): its deployed source}
    of every art module, for a board (cheesebox.board.Board)."""
    from cheesebox.display import SHELL_ICONS
    layouts = layouts_of(board)
    out = {}
    base = ""
    for module in icon_sets():
        text, own = module_source(module, layouts, base)
        out[module.replace(".", "/") + ".py"] = text
        if module == SHELL_ICONS:
            base = own
    return out
