"""Reading and checking a board file (boards/NAME.json, board.json on the Pico).

Every field is checked; a bad file is refused with a BoardError whose
message names the file, the field and what is wrong. Needed only while the
box starts: board.load_board() drops this module again afterwards, so its
code does not sit in the Pico's heap for the whole game night.
"""
from cheesebox import jsonfile
from cheesebox.jsonfile import whole

from cheesebox.board import (ADC_PINS, LAYOUTS, MATRIX_PIXELS, MAX_PIN, MAX_WINDOW, MCUS, N_DICE,
                             OFF_HEADER, ORDERS, PLATE_TYPES, TRACK_PIXELS, Board, BoardError, Chain)

# pyright reads the typing names; MicroPython has no typing module (a failed
# import costs ~3 ms of flash lookups at boot) and never evaluates annotations
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn


def _fail(src, field, what) -> "NoReturn":
    raise BoardError("%s: field '%s' %s" % (src, field, what))


def _get(obj, key, src, field, kinds, required=True, default=None) -> "Any":
    if not isinstance(obj, dict):
        _fail(src, field.rsplit(".", 1)[0] if "." in field else field, "must be an object")
    if key not in obj:
        if required:
            _fail(src, field, "is missing")
        return default
    v = obj[key]
    if kinds is int and not whole(v):
        _fail(src, field, "must be a whole number, got %r" % (v,))
    if kinds is not int and not isinstance(v, kinds):
        _fail(src, field, "has the wrong type (%s)" % type(v).__name__)
    return v


def _pin(obj, key, src, field, used) -> int:
    p = _get(obj, key, src, field, int)
    if p < 0 or p > MAX_PIN or p in OFF_HEADER:
        _fail(src, field, "must be a GPIO on the Pico header (0-22, 26-28), got %d" % p)
    if p in used:
        _fail(src, field, "uses GP%d, already used by '%s'" % (p, used[p]))
    used[p] = field
    return p


def _chain_ref(obj, src, field, chains):
    name = _get(obj, "chain", src, field + ".chain", str)
    for i, c in enumerate(chains):
        if c.name == name:
            start = _get(obj, "start", src, field + ".start", int)
            if start < 0:
                _fail(src, field + ".start", "must not be negative")
            return i, start
    _fail(src, field + ".chain", "names no chain: %r" % name)


def load(spec, src="board.json"):
    """A Board from a parsed board file; BoardError names what is wrong."""
    if not isinstance(spec, dict):
        raise BoardError("%s: must be a JSON object" % src)
    b = Board()
    b.source = src
    used = {}   # GPIO -> the field that uses it
    _settings(b, spec, src, used)
    _chains(b, spec, src, used)
    claimed = []   # (chain, start, end, field) to catch overlapping displays
    _dice(b, spec, src, claimed)
    _stations(b, spec, src, used, claimed)
    _answers(b, spec, src, used)
    return b


def _settings(b, spec, src, used):
    """Name, chip, plates, ROLL and piezo pins, brightness and supply, timing."""
    b.name = _get(spec, "name", src, "name", str)
    b.mcu = _get(spec, "mcu", src, "mcu", str, False, "rp2040")
    if b.mcu not in MCUS:
        _fail(src, "mcu", "must be one of %s, got %r" % (", ".join(MCUS), b.mcu))
    b.plates = _get(spec, "plates", src, "plates", str)
    if b.plates not in PLATE_TYPES:
        _fail(src, "plates", "must be one of %s, got %r" % (", ".join(PLATE_TYPES), b.plates))
    b.roll_pin = _pin(spec, "roll", src, "roll", used)
    b.piezo_pin = _pin(spec, "piezo", src, "piezo", used)
    bright = _get(spec, "brightness", src, "brightness", (int, float), False, 0.2)
    if isinstance(bright, bool) or not 0 < bright <= 1:
        _fail(src, "brightness", "must be above 0 and at most 1, got %r" % (bright,))
    b.brightness = bright
    b.max_ma = _get(spec, "max_ma", src, "max_ma", int, False, 500)
    if not 100 <= b.max_ma <= 10000:
        _fail(src, "max_ma", "must be 100-10000 mA, got %d" % b.max_ma)
    b.debounce_ms = _get(spec, "debounce_ms", src, "debounce_ms", int, False, 12)
    if not 1 <= b.debounce_ms <= 50:
        _fail(src, "debounce_ms", "must be 1-50 ms, got %d" % b.debounce_ms)
    b.glitch_ms = _get(spec, "glitch_ms", src, "glitch_ms", int, False, min(2, b.debounce_ms))
    if not 1 <= b.glitch_ms <= b.debounce_ms:
        _fail(src, "glitch_ms", "must be 1 ms to debounce_ms (%d), got %d" % (b.debounce_ms, b.glitch_ms))
    b.track_reversed = _get(spec, "track_reversed", src, "track_reversed", bool, False, False)


def _chains(b, spec, src, used):
    """The NeoPixel data lines: each its pin, length and colour order."""
    chains = _get(spec, "chains", src, "chains", list)
    if not chains:
        _fail(src, "chains", "must list at least one NeoPixel chain")
    if len(chains) > 7:
        _fail(src, "chains", "at most 7 chains (each needs a PIO state machine), got %d" % len(chains))
    names = []
    for i, c in enumerate(chains):
        f = "chains[%d]" % i
        name = _get(c, "name", src, f + ".name", str)
        if name in names:
            _fail(src, f + ".name", "repeats the chain name %r" % name)
        names.append(name)
        pin = _pin(c, "pin", src, f + ".pin", used)
        n = _get(c, "pixels", src, f + ".pixels", int)
        if not 1 <= n <= 1024:
            _fail(src, f + ".pixels", "must be 1-1024, got %d" % n)
        order = _get(c, "order", src, f + ".order", str, False, "GRB")
        if order not in ORDERS:
            _fail(src, f + ".order", "must be one of %s, got %r" % (", ".join(ORDERS), order))
        b.chains.append(Chain(name, pin, n, order))


def _claim(b, src, claimed, ci, start, count, field):
    """Pixels start..start+count of chain ci for `field`: on the chain, and
    no other display's."""
    c = b.chains[ci]
    if start + count > c.pixels:
        _fail(src, field, "needs pixels %d-%d but chain '%s' has only %d"
              % (start, start + count - 1, c.name, c.pixels))
    for (cj, s, e, other) in claimed:
        if cj == ci and start < e and s < start + count:
            _fail(src, field, "overlaps the pixels of '%s' on chain '%s'" % (other, c.name))
    claimed.append((ci, start, start + count, field))


def _dice(b, spec, src, claimed):
    """The six dice matrices: where each sits on its chain, its layout."""
    dice = _get(spec, "dice", src, "dice", list)
    if len(dice) != N_DICE:
        _fail(src, "dice", "must list exactly %d matrices, got %d" % (N_DICE, len(dice)))
    for i, d in enumerate(dice):
        f = "dice[%d]" % i
        ci, start = _chain_ref(d, src, f, b.chains)
        layout = _get(d, "layout", src, f + ".layout", str, False, "serpentine")
        if layout not in LAYOUTS:
            _fail(src, f + ".layout", "must be one of %s, got %r" % (", ".join(LAYOUTS), layout))
        _claim(b, src, claimed, ci, start, MATRIX_PIXELS, f)
        b.dice.append((ci, start, layout))


def _stations(b, spec, src, used, claimed):
    """Each station's buzzer pin and score track; the buttons' GPIO window."""
    stations = _get(spec, "stations", src, "stations", list)
    if not 2 <= len(stations) <= 8:
        _fail(src, "stations", "must list 2 to 8 stations, got %d" % len(stations))
    for i, s in enumerate(stations):
        f = "stations[%d]" % i
        b.buzzers.append(_pin(s, "buzzer", src, f + ".buzzer", used))
        ci, start = _chain_ref(_get(s, "track", src, f + ".track", dict), src, f + ".track", b.chains)
        _claim(b, src, claimed, ci, start, TRACK_PIXELS, f + ".track")
        b.tracks.append((ci, start))
    # The PIO sampler reads the buttons as one window of consecutive GPIOs.
    buttons = b.buzzers + [b.roll_pin]
    b.button_base = min(buttons)
    b.button_width = max(buttons) - b.button_base + 1
    if b.button_width > MAX_WINDOW:
        _fail(src, "stations", "buzzers and ROLL span GP%d-GP%d: they must fit in %d consecutive GPIOs"
              % (b.button_base, max(buttons), MAX_WINDOW))


def _answers(b, spec, src, used):
    """The electronic plates' wiring (none for plate cards); no other pin
    inside the button window."""
    answers = _get(spec, "answers", src, "answers", dict, False, None)
    if b.plates == "cards":
        if answers is not None:
            _fail(src, "answers", "is for electronic plates; this board has plate cards")
    else:
        if answers is None:
            _fail(src, "answers", "is missing: electronic plates need their wiring")
        if b.plates == "keys":
            for k in ("load", "clock", "data"):
                _pin(answers, k, src, "answers." + k, used)
        else:
            for k in ("adc", "s0", "s1", "s2"):
                _pin(answers, k, src, "answers." + k, used)
            if answers["adc"] not in ADC_PINS:
                _fail(src, "answers.adc", "must be an ADC pin (GP26-GP28), got %d" % answers["adc"])
        b.answers = answers
    buttons = b.buzzers + [b.roll_pin]
    for p, field in used.items():
        if p not in buttons and b.button_base <= p < b.button_base + b.button_width:
            _fail(src, field, "uses GP%d, inside the button window GP%d-GP%d (keep it for buttons)"
                  % (p, b.button_base, b.button_base + b.button_width - 1))


def read(path):
    """Load and check a board file from disk; BoardError on any problem."""
    return load(jsonfile.read(path, BoardError), path)
