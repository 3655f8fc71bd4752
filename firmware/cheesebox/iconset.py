"""Icon sets baked at power-up: the fallback when the host did not bake them.

An icon set is a module of art: the shell's is cheesebox/icons.py, a game
names its own (game.py: ICONS). As written (its source) it has PALETTE
{char: rgb} and ICONS {name: 8 rows of 8 chars}. The display draws each icon
as 64 palette indices in the board's matrix wiring order; baking that from
the art took ~45 ms of a Pico's power-up, so the host deploys each art module
already baked for the board file it deploys (`make flash`, `make uf2`, the
emulator's images, the web page: host_tools/deploy/bakedicons.py writes it),
in this form:

    CHARS  its own colours' chars, in palette order (after BASE's)
    RGB    their r, g, b
    BASE   the chars whose indices come first (the shell's, for a game)
    NAMES  the icons' names, a list display (each an interned qstr, no heap of
           its own: bakedicons.names_line says why not a tuple)
    ART    8 rows of 8 chars an icon, in NAMES order (for a bake here)
    BAKED  {layout: 64 indices an icon, in NAMES order}

The display takes BAKED as it is. This module is loaded only when it cannot:
the art module is its source (a firmware copied by hand; the simulator), or
was baked for other dice layouts (a board file changed after flashing) or on
other colours (the shell's art changed): it bakes then, as the box always
did, and says why (box.py logs it).
"""
PIXELS = 64


def bake(rows, layout, index):
    """64 palette indices of an 8x8 icon, in the matrix's wiring order
    (index: art byte -> palette index, a 256-byte table).

    One byte a pixel, not three: the faces, digits and signs take 1.5 KiB
    of the Pico's heap instead of 4.6 (the display expands them into the
    frame). The loop is written out (no call or dictionary a pixel)."""
    out = bytearray(PIXELS)
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


def art_of(art):
    """(own chars, their rgb, [(name, 8 rows)]) of an art module, in either
    form (its source, or as the host deployed it)."""
    if hasattr(art, "ICONS"):
        own = "".join(art.PALETTE)
        rgb = bytearray()
        for c in own:
            rgb += bytes(art.PALETTE[c])
        return own, bytes(rgb), list(art.ICONS.items())
    names = art.NAMES
    a = art.ART
    return art.CHARS, art.RGB, [(names[k], tuple(a[(8 * k + y) * 8:(8 * k + y + 1) * 8] for y in range(8)))
                                for k in range(len(names))]


def why_not_baked(art, layouts, base):
    """Why an art module's BAKED does not serve these layouts on this base."""
    name = art.__name__
    done = getattr(art, "BAKED", None)
    if done is None:
        return "%s as its source: not baked on the host" % name
    if art.BASE != base:
        return "%s baked on other colours than the shell's" % name
    return "%s baked for %s dice, the board's are %s" % (name, "/".join(sorted(done)), "/".join(layouts))


def bake_art(art, layouts, base):
    """(own chars, their rgb, names, {layout: 64 indices an icon, in names
    order}, why) of an art module, baked now (the form the display takes).
    `base`: the chars whose indices come first (a game's icons may use the
    shell's colours)."""
    own, rgb, icons = art_of(art)
    chars = base + own
    index = bytearray(256)              # art byte -> palette index
    for i in range(len(chars)):
        index[ord(chars[i])] = i
    sets = {}
    for layout in layouts:
        sets[layout] = b"".join(bake(rows, layout, index) for _, rows in icons)
    names = tuple(name for name, _ in icons)
    return own, rgb, names, sets, why_not_baked(art, layouts, base)
