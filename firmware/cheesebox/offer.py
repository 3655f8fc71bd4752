"""At power-up: the saved game on the flash, checked, to offer to the table.

Loaded for this once and dropped again (box.py, run_once): its code need not
sit in the Pico's heap for the game night. The box checks the envelope every
game's save shares (saved on this board, its stations here, games played);
the saved game's own module checks its part. A file that passed its
checksum can still hold nonsense: it is named and dropped, never a crash.
"""
from cheesebox import games


def envelope(box, d):
    """(joined, games, final) of a saved game, checked; raises saying why
    not. final: saved on the game's final screen (the box goes back to it)."""
    if d["board"] != box.board.name:
        raise ValueError("saved on board %r" % d["board"])
    saved = d["joined"]
    if not isinstance(saved, list) or len(saved) != 8:
        raise ValueError("saved joined: %r" % (saved,))
    joined = bytearray(8)
    for s in range(8):
        joined[s] = 1 if saved[s] else 0
        if joined[s] and s >= box.n:
            raise ValueError("station %d is not on this board" % (s + 1))
    played = d.get("games", 1)
    if type(played) is not int or played < 0:
        raise ValueError("saved games: %r" % (played,))
    final = d.get("final", False)       # saves from before the final screen was kept: absent
    if final is not True and final is not False:
        raise ValueError("saved final: %r" % (final,))
    return joined, played, final


def saved_game(box, store):
    """Load the saved game's module (else the box's first pick) and return
    (joined, games, the game's unpacked part, final), or None: nothing to
    offer."""
    saved = store.load()
    if store.problem:
        box.problem(store.problem)
    i = box.picked
    if saved is not None:
        i = games.index(saved.get("game", games.GAMES[0][games.NAME]))
        if i < 0:
            box.problem("saved game unusable: no game %r here" % (saved.get("game"),))
            store.clear()
            saved = None
            i = box.picked
    mod = box.offer_game(i)
    if saved is None:
        return None
    try:
        joined, played, final = envelope(box, saved)
        return (joined, played, mod.unpack(box, saved), final)
    except (KeyError, ValueError, TypeError, IndexError) as e:
        box.problem("saved game unusable: %s" % e)
        store.clear()
        return None
