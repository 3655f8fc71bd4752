"""The event log's format (docs/event-log.md), for the host tools that read it.

One place for what a line of the box's log is: parse_line() checks a line
against the format (version 1), and the small helpers every reader needs
(ticks arithmetic as the Pico does it, when a grab happened, a station's
colour). eventlog.py, monitor.py and nightstats.py all read logs through it.
"""
import json

from cheesebox.games import GAMES
from sim import games

VERSION = 1
TICKS_PERIOD = 1 << 30          # ticks_ms / ticks_us wrap here on the RP2040/RP2350
TICKS_HALF = 1 << 29


class LogError(ValueError):
    """A line that does not follow the event-log format."""


# -- the format ---------------------------------------------------------------
def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _player(v):
    return isinstance(v, str) and len(v) == 2 and v[0] == "P" and v[1] in "12345678"


def _input(v):
    return v == "ROLL" or _player(v)


def _players(v):
    return isinstance(v, list) and all(_player(p) for p in v)


def _points(v):
    return isinstance(v, dict) and all(_player(k) and _is_int(n) and 0 <= n <= 7
                                       for k, n in v.items())


def _money(v):
    return isinstance(v, dict) and all(_player(k) and _count(n) for k, n in v.items())


def _strs(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _count(v):
    return _is_int(v) and v >= 0


def _opt(check):
    return lambda v: v is None or check(v)


# event name -> {field: check}; every field listed is required. Readers ignore
# fields they do not know (a later box may add some within version 1).
EVENTS = {
    "boot": {"board": lambda v: isinstance(v, str), "resume": lambda v: isinstance(v, bool)},
    "join": {"p": _player},
    "leave": {"p": _player},
    "game": {"players": _players, "dice": _strs, "campaign": _opt(_count)},
    "menu": {"choice": lambda v: isinstance(v, str)},
    "roll": {"round": _count},
    "faces": {"faces": _strs, "left": _count},
    "press": {"p": _player, "t_us": _count},
    "false_start": {"p": _player},
    "grab": {"p": _player, "t_us": _count, "plate": _opt(_count)},
    "refused": {"p": _player},
    "own_up": {"p": _player},
    "take_back": {"p": _player},
    "penalty": {"p": _player, "points": _count},
    "score": {"round": _count, "left": _count,
              "result": lambda v: v in ("scored", "replay", "gameover"),
              "lost": lambda v: isinstance(v, dict) and all(_player(k) and _count(n) for k, n in v.items()),
              "points": _points, "out": _players},
    "winner": {"p": _player, "out": _players},
    "king": {"p": _player},
    "tour": {"on": lambda v: isinstance(v, bool)},
    "check": {"wheels": _players},
    "stuck": {"input": _input},
    "unstuck": {"input": _input},
    "resume": {},                           # the game's own fields: RESUME below
    "discard": {},
    "joining": {},
    "pick": {"game": lambda v: isinstance(v, str)},
    "icons": {"baked": lambda v: isinstance(v, str)},   # a game's icons baked on the box
    "stop_asked": {"state": lambda v: isinstance(v, str)},
    "stop": {"game": lambda v: isinstance(v, str), "state": lambda v: isinstance(v, str)},
    "go_on": {"why": lambda v: isinstance(v, str), "paused_ms": _count},
    # Cheesonomics on the box (docs/cheesonomics-box.md)
    "variant": {"variant": lambda v: v in ("basic", "advanced")},
    "market": {"players": _players, "variant": lambda v: v in ("basic", "advanced"), "first": _player,
               "prices": lambda v: isinstance(v, list) and len(v) == 5 and all(_count(x) for x in v),
               "deck": _count},
    "layout": {"sector": _count, "done": lambda v: isinstance(v, bool)},
    "action": {"p": _player, "act": lambda v: v in ("collect", "produce", "sell", "pass"),
               "money": _count, "deck": _count},
    "not_allowed": {"p": _player, "why": lambda v: isinstance(v, str)},
    "undo": {"p": _player, "money": _count, "deck": _count},
    "final_turns": {"left": _players},
    "final": {"money": _money, "bonus": _money, "winners": _players},
    "error": {"what": lambda v: isinstance(v, str)},
    "state": {"state": lambda v: isinstance(v, str), "points": _points, "rounds": _count,
              "stuck": lambda v: isinstance(v, list) and all(_input(x) for x in v)},
    "help": {"commands": _strs},
    "watchdog": {"hung_ms": _count},        # from the simulator: the box was reset
    "dropped": {"lines": _count},           # lines the USB host did not take in time
    "settings": {"brightness": _count, "volume": _count},   # the table's gesture at joining
    "selftest": {"step": lambda v: isinstance(v, str)},     # the bring-up self-test (rp2port/selftest.py)
    "overrun": {"count": _count, "lost": _count},   # button words the ring lost (the Pico)
}

# `resume` carries the resumed game's own fields: each game's host module
# (sim/games.py) says which, and what kind each is
_KINDS = {"count": _count, "points": _points, "money": _money}
RESUME = dict((name, dict((f, _KINDS[kind]) for f, kind in games.named(name).RESUME.items()))
              for name in games.HOSTS)
FIRST_GAME = GAMES[0][0]        # a resume event without "game" is from before there were two


def validate(obj):
    """Check one parsed line against format version 1; LogError says what is wrong."""
    if not isinstance(obj, dict):
        raise LogError("not a JSON object")
    if "v" not in obj:
        raise LogError("no format version 'v'")
    if obj["v"] != VERSION or not _is_int(obj["v"]):
        raise LogError("format version %r, this reader knows %d" % (obj["v"], VERSION))
    ev = obj.get("ev")
    if not isinstance(ev, str):
        raise LogError("no event name 'ev'")
    if ev not in EVENTS:
        raise LogError("unknown event %r" % ev)
    t = obj.get("t")
    if not _is_int(t) or not 0 <= t < TICKS_PERIOD:
        raise LogError("%s: 't' must be box ms ticks 0-%d, got %r" % (ev, TICKS_PERIOD - 1, t))
    checks = EVENTS[ev]
    if ev == "resume":
        checks = RESUME.get(obj.get("game", FIRST_GAME))
        if checks is None:
            raise LogError("resume: unknown game %r" % (obj.get("game"),))
    for field, check in checks.items():
        if field not in obj:
            raise LogError("%s: field '%s' is missing" % (ev, field))
        if not check(obj[field]):
            raise LogError("%s: field '%s' is wrong: %r" % (ev, field, obj[field]))
    if ev == "error" and "line" in obj and not isinstance(obj["line"], str):
        raise LogError("error: field 'line' must be text")
    return obj


def parse_line(line):
    """(kind, event) for one line of console output.

    kind is "blank", "noise" (not a JSON object: console chatter) or "event";
    LogError for a line that starts like an event but is not a valid one."""
    text = line.strip()
    if not text:
        return "blank", None
    if not text.startswith("{"):
        return "noise", None
    try:
        obj = json.loads(text)
    except ValueError as e:
        raise LogError("not valid JSON (%s)" % e)
    return "event", validate(obj)


def ticks_diff(a, b):
    """a - b for ticks wrapping at 2**30, as MicroPython's time.ticks_diff."""
    return ((a - b + TICKS_HALF) % TICKS_PERIOD) - TICKS_HALF


def grab_ms(ev):
    """Box ms of a grab: when the button went down, not when it was logged.

    The box logs a grab after the debounce window; "t_us" is the capture's
    own timestamp (ticks_us, the same clock as ticks_ms: ticks_ms * 1000 is
    ticks_us mod 2**30 on the Pico and in the simulator). When the two agree
    (the capture at most a second before the log line) the grab is dated by
    t_us; otherwise by the log line's "t"."""
    t = ev["t"]
    t_us = ev.get("t_us")
    if _is_int(t_us):
        lag_us = ticks_diff(t * 1000, t_us)
        if -1000 < lag_us < 1000000:
            return t - lag_us / 1000.0
    return float(t)


def ticks_diff_f(a, b):
    """ticks_diff for a possibly fractional a (ms)."""
    whole = int(a // 1)
    return ticks_diff(whole, b) + (a - whole)


def station_colour(p):
    """The colour of player p's station (firmware/cheesebox/display.py: the
    colour of the track at joining and of that player's cards), as #rrggbb."""
    from cheesebox.display import STATION
    r, g, b = STATION[int(p[1:]) - 1]
    return "#%02x%02x%02x" % (r, g, b)
