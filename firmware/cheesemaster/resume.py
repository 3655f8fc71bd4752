"""Checking a saved Cheese Master game before the box offers it.

Only needed at power-up: cheesemaster.unpack() imports it and drops it
again (heap). A file that passed its checksum can still hold nonsense (another board, stations
that are not there, points out of range): every field is checked here, and
anything off makes the saved game unusable rather than the box crash.
"""
from cheesebox.jsonfile import whole
from cheesemaster.campaign import Campaign
from cheesemaster.dice import CHOICES, N_DICE
from cheesemaster.match import MAX_STATIONS, NOBODY, OVER, START_POINTS, Match


def _station(v, what, allowed):
    """v as a station number that is in `allowed` (or NOBODY if -1 is allowed)."""
    if not whole(v) or v not in allowed:
        raise ValueError("saved %s: %r is not a station here" % (what, v))
    return v


def restore(d, electronic, false_start_costs=False):
    """A match from snapshot() output (validated: ValueError if unsound)."""
    stations = d["stations"]
    if not isinstance(stations, list) or len(stations) < 2:
        raise ValueError("saved stations: need at least two")
    stations = [_station(s, "stations", range(MAX_STATIONS)) for s in stations]
    if len(set(stations)) != len(stations):
        raise ValueError("saved stations: repeated")
    seats = stations + [NOBODY]
    m = Match(stations, electronic, false_start_costs)
    for name in ("points", "active", "lost"):
        v = d[name]
        if len(v) != MAX_STATIONS:
            raise ValueError("saved %s: %d entries" % (name, len(v)))
        arr = getattr(m, name)
        top = 1 if name == "active" else START_POINTS
        for s in range(MAX_STATIONS):
            if not whole(v[s]) or not 0 <= v[s] <= top:
                raise ValueError("saved %s out of range" % name)
            arr[s] = v[s] if m.joined[s] else 0
    m.eliminated = [_station(s, "eliminated", stations) for s in d["eliminated"]]
    if len(set(m.eliminated)) != len(m.eliminated):
        raise ValueError("saved eliminated: repeated")
    for s in stations:
        if bool(m.active[s]) == (s in m.eliminated) or (m.active[s] and not m.points[s]):
            raise ValueError("saved station %d: active, eliminated and points disagree" % s)
    for what in ("round_no", "rounds", "replays"):
        if not whole(d[what]) or d[what] < 0:
            raise ValueError("saved %s: %r" % (what, d[what]))
    m.round_no = d["round_no"]
    m.rounds_played = d["rounds"]
    m.replays = d["replays"]
    m.marked = _station(d["marked"], "marked", seats)
    m.no_wheel = _station(d["no_wheel"], "no_wheel", seats)
    m.winner = _station(d["winner"], "winner", seats)
    if m.active_count() <= 1:
        m.phase = OVER
    return m


def unpack(box, d):
    """(match, campaign, choice, in_play) from a saved state (the box checks
    the envelope: board, joined, games),
    every field checked: KeyError, ValueError, TypeError or IndexError says
    what is off (the box then says so and drops the file)."""
    in_play = bytes(d["in_play"])
    if not in_play or any(x >= N_DICE for x in in_play):
        raise ValueError("dice out of range")
    m = restore(d["match"], box.board.electronic, box.options.get("false_start_costs", False))
    m.dials = box.dials
    for s in range(8):
        if m.joined[s] and s >= box.n:
            raise ValueError("station %d is not on this board" % (s + 1))
    c = None
    if d["campaign"] is not None:
        c = Campaign(box.rng)
        c.restore(d["campaign"])
    return (m, c, int(d["choice"]) % len(CHOICES), in_play)
