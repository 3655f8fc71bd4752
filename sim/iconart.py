"""Every icon the box can draw, as art (the host's view of it): the shell's
set and each game's own (its module's ICONS), found through the games table,
so a picture made from them (docs/img, the view's reading of a die) cannot
miss a game's icons or drift from what the box draws."""
from cheesebox import games
from cheesebox.display import SHELL_ICONS


def art_modules():
    """The art modules: the shell's, then each game's in games.py's order."""
    out = [__import__(SHELL_ICONS, None, None, ("ICONS",))]
    for i in range(len(games.GAMES)):
        name = games.load(i).ICONS
        if name is not None:
            mod = __import__(name, None, None, ("ICONS",))
            if mod not in out:
                out.append(mod)
    return out


def icons():
    """{name: 8 row bytes} of every icon (a game's name never hides the shell's)."""
    out = {}
    for mod in art_modules():
        for name, rows in mod.ICONS.items():
            out.setdefault(name, rows)
    return out


def palette():
    """{char: (r, g, b)}: the shell's colours and every game's own."""
    out = {}
    for mod in art_modules():
        for ch, rgb in mod.PALETTE.items():
            out.setdefault(ch, rgb)
    return out
