"""The saved game: written after every completed round, survives power cuts.

Atomic by construction: the new state goes to game.tmp (written, flushed,
closed), then os.rename() puts it over game.json. On the Pico's LittleFS a
rename is atomic, so a cut at any moment leaves the old file or the new one,
never a mix. A stray game.tmp is the remains of a cut write and is dropped.

The file is one JSON line, then a line with its CRC-32: a file that fails
the check, does not parse, or has an unknown version is set aside as
game.bad (and reported), never trusted and never a crash.

The filesystem is injected (anything with open/rename/remove/listdir, like
the os module), so the simulator can cut the power at every byte and step.
"""
import json

VERSION = 1
GAME = "game.json"
TMP = "game.tmp"
BAD = "game.bad"


def crc32_bitwise(data):
    """CRC-32 (IEEE 802.3), bitwise: for ports built without binascii.crc32."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


try:
    from binascii import crc32
except ImportError:
    crc32 = crc32_bitwise


class SaveError(ValueError):
    """A saved game that cannot be trusted; says why."""


def encode(state):
    body = json.dumps(state)
    return "%s\n%08x\n" % (body, crc32(body.encode()))


def decode(text):
    """The state dict from a file's text; SaveError if it is not sound."""
    lines = text.split("\n")
    if len(lines) < 2:
        raise SaveError("truncated (no checksum line)")
    body, check = lines[0], lines[1].strip()
    if "%08x" % crc32(body.encode()) != check:
        raise SaveError("checksum mismatch")
    try:
        state = json.loads(body)
    except ValueError:
        raise SaveError("not valid JSON")
    if not isinstance(state, dict) or state.get("v") != VERSION:
        raise SaveError("unknown version %r" % (state.get("v") if isinstance(state, dict) else None))
    return state


def _nothing():
    pass


class Store:
    """Saves and loads the game through the filesystem `fs` (the os module on the Pico)."""

    CHUNK = 64          # bytes a write: a cut can land between any two

    def __init__(self, fs, opener=None):
        self.fs = fs
        self.open = opener if opener is not None else open
        self.writes = 0         # completed saves (flash wear)
        # called between the save's writes: each may be a flash erase (up to
        # 400 ms with the CPU held), so the port reads its button ring, keys
        # and dials here, not only when the save is over (the box sets it to
        # the port's between())
        self.between = _nothing
        self.problem = ""       # why the last load set a file aside

    def _exists(self, name):
        try:
            return name in self.fs.listdir()
        except OSError:
            return False

    def save(self, state):
        between = self.between
        data = encode(state)
        between()
        f = self.open(TMP, "w")
        try:
            for i in range(0, len(data), self.CHUNK):
                f.write(data[i:i + self.CHUNK])
                between()
            f.flush()
        finally:
            f.close()
        between()
        self.fs.rename(TMP, GAME)
        between()
        self.writes += 1

    def read(self, name):
        """Another file's text (a game's data file), or None if it is missing."""
        if not self._exists(name):
            return None
        f = self.open(name, "r")
        try:
            return f.read()
        finally:
            f.close()

    def clear(self):
        """The game is over: nothing to resume."""
        for name in (GAME, TMP):
            if self._exists(name):
                self.fs.remove(name)

    def load(self):
        """The saved state, or None. A bad file is set aside as game.bad."""
        self.problem = ""
        if self._exists(TMP):
            self.fs.remove(TMP)             # a write the power cut short
        if not self._exists(GAME):
            return None
        try:
            f = self.open(GAME, "r")
            try:
                text = f.read()
            finally:
                f.close()
            return decode(text)
        except (SaveError, OSError, UnicodeError) as e:
            self.problem = "%s: %s; set aside as %s" % (GAME, e, BAD)
            if self._exists(BAD):
                self.fs.remove(BAD)
            self.fs.rename(GAME, BAD)
            return None
