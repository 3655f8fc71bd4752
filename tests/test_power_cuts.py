"""Power cuts, damaged flash and the watchdog, on the real box in the simulator.

The box saves its game through save.Store onto sim.simfs.SimFS, which can cut
the power at any operation (each write, flush, close, rename, remove) or at
any byte written. For a save the box really makes (a round scored, a new
game, a penalty, the game-over clear), every step and every byte is tried:
the power goes there, the box powers up again on the same flash, and it must
offer exactly the game as it was saved before, or as saved after, never a
broken one, never a crash. Damaged files on the flash (byte flips,
truncation, garbage, sound files holding nonsense) must be set aside or
refused with an 'error' event, and a new game offered.

Counts (cut points, damaged files) are printed with `pytest -s`; the wear
figures are in docs/persistence.md.
"""
import json
import random

import pytest

from cheesebox import iconset
from cheesebox import save as S
from rp2port import sampler as SP
from cheesemaster.resume import restore
from flowkit import board
from sim.scenario import Sim, run_script
from sim.simfs import SimFS, PowerCut
from sim.simport import ROLL_BIT
from sim.scenario import match_of

START8 = "players 8\ndice yellow\n"
START4 = "players 4\ndice yellow\n"


def grabs(players, last=True, answer=2):
    """A pico-8p round's grabs: P1.. place a plate and grab (the last one scores)."""
    text = "".join("answer P%d %d\nbuzz P%d\n" % (p, answer, p) for p in players[:-1])
    p = players[-1]
    return text + ("answer P%d %d\n" % (p, answer)), "buzz P%d\n" % p


def round8(answer=2):
    pre, last = grabs(list(range(1, 8)), answer=answer)
    return "rollbutton\nwait 3000\n" + pre + last + "wait 1200\n"


def round4(owner=2):
    """A pico-4p round: P1-P3 grab, P`owner` owns up, ROLL ends the check."""
    return ("rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\nown-up P%d\nrollbutton\nwait 1200\n"
            % owner)


def new_sim(name, seed=5, files=None):
    lines = []
    fs = SimFS()
    if files:
        fs.files.update(files)
    sim = Sim(board(name), seed=seed, fs=fs, log=lines.append)
    return sim, lines


def events(lines):
    return [json.loads(ln)["ev"] for ln in lines]


def on_flash(fs):
    """The game.json on the simulated flash, decoded (None if there is none)."""
    if "game.json" not in fs.files:
        return None
    return S.decode(fs.files["game.json"])


def norm(d):
    """A saved state (dict) as the box would hold it, for comparing."""
    if d is None:
        return None
    return {"match": d["match"], "campaign": d["campaign"], "joined": list(d["joined"]),
            "choice": d["choice"], "in_play": list(d["in_play"]), "games": d["games"]}


def offered(box):
    """The game the box offers to resume (box.saved: the loaded dict, or
    what it unpacked from it), normalised as norm() gives it."""
    s = box.saved
    if s is None and box.game is not None:
        # a final screen: the box booted straight back into it
        return norm(dict(box.game.snapshot(), joined=list(box.joined), games=box.games))
    if s is None or isinstance(s, dict):
        return norm(s)
    joined, games, (m, c, choice, in_play), final = s   # the box's envelope, the game's part
    return {"match": m.snapshot(), "campaign": c.snapshot() if c is not None else None,
            "joined": list(joined), "choice": choice, "in_play": list(in_play), "games": games}


def view(m):
    """What a player sees of a match: points, who is out, rounds, who is marked."""
    return (list(m.points), list(m.eliminated), m.rounds_played, m.marked)


def view_of(d):
    return view(restore(d["match"], True))


@pytest.fixture(autouse=True, scope="module")
def quick_power_up():
    """Every cut point powers the box up twice: the tables a power-up builds
    (icons in wiring order, the sampler's lookup table) depend only on the
    board, so here they are built once per board and shared. Only speed
    changes: the same functions build the same tables."""
    bake = iconset.bake
    baked = {}

    def quick_bake(rows, layout, index):
        key = (rows, layout)                             # the icon's own art: a tuple
        if key not in baked:
            baked[key] = bake(rows, layout, index)
        return baked[key]

    init = SP.SampleDecoder.__init__
    built = {}

    def quick_init(self, pins, base, width, t_start_us, active_low=True):
        key = (tuple(pins), base, width, active_low)
        if key not in built:
            init(self, pins, base, width, t_start_us, active_low)
            built[key] = dict(self.__dict__)
            return
        self.__dict__.update(built[key])
        self.shift = bytearray(self.shift)
        self.t0 = t_start_us
        self.anchor_n = 0
        self.anchor_t = t_start_us

    iconset.bake = quick_bake
    SP.SampleDecoder.__init__ = quick_init
    try:
        yield
    finally:
        iconset.bake = bake
        SP.SampleDecoder.__init__ = init


# -- every cut point of one save --------------------------------------------

STATS = {}


def sweep(label, name, prefix, action, seed=5):
    """Cut the power at every step and byte of what `action` saves.

    prefix: scenario text up to the moment; action: the scenario line that
    saves. Returns (steps, bytes, cuts that kept the old state, the new one)."""
    sim, _ = new_sim(name, seed)
    run_script(sim, prefix)
    before = on_flash(sim.fs)
    sim.fs.arm()
    run_script(sim, action)
    steps, size = sim.fs.steps, sim.fs.written
    after = on_flash(sim.fs)
    assert before != after, label
    assert steps > 0, label
    kept = {"old": 0, "new": 0}
    points = [("step", k) for k in range(steps)] + [("byte", k) for k in range(size + 1 if size else 0)]
    for kind, k in points:
        sim, lines = new_sim(name, seed)
        run_script(sim, prefix)
        if kind == "step":
            sim.fs.arm(step=k)
        else:
            sim.fs.arm(byte=k)
        try:
            run_script(sim, action)
            cut = False
        except PowerCut:
            cut = True
        assert cut, (label, kind, k)
        sim.fs.arm()                            # the power is back
        n = len(lines)
        sim.boot()                              # same flash: must not raise
        where = (label, kind, k)
        assert "error" not in events(lines[n:]), where
        assert "game.tmp" not in sim.fs.files and "game.bad" not in sim.fs.files, where
        got = offered(sim.box)
        assert got == norm(before) or got == norm(after), where
        kept["old" if got == norm(before) else "new"] += 1
        if got is None:
            assert sim.box.state_name() == "join", where
            continue
        if sim.box.game is not None:            # the final screen, at once
            assert sim.box.state_name() in ("gameover", "king"), where
            assert view(match_of(sim.box)) == view_of(before if got == norm(before) else after), where
            continue
        assert sim.box.state_name() == "resume", where
        run_script(sim, "rollbutton\n")         # ROLL resumes
        want = before if got == norm(before) else after
        assert sim.box.state_name() in ("ready", "gameover"), where
        assert view(match_of(sim.box)) == view_of(want), where
        assert sim.box.saved is None
    STATS[label] = (steps, size + 1 if size else 0, kept["old"], kept["new"])
    print("power cuts %-28s steps %2d bytes %4d: old state %4d, new state %d"
          % (label, steps, STATS[label][1], kept["old"], kept["new"]))
    return STATS[label]


def test_cut_while_a_round_is_scored_electronic():
    # pico-8p: two rounds scored, round 3 is scored at its last grab
    prefix = START8 + round8(2) + round8(3) + "rollbutton\nwait 3000\n"
    pre, last = grabs(list(range(1, 8)))
    steps, nbytes, old, new = sweep("round scored (pico-8p)", "pico-8p", prefix + pre, last)
    assert steps >= 8 and nbytes > 300
    assert old == steps + nbytes and new == 0     # only the round being scored is lost


def test_cut_while_a_round_is_scored_plate_cards():
    # pico-4p: ROLL ends the check of round 3
    prefix = START4 + round4(2) + round4(3) + \
        "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\nown-up P1\n"
    steps, nbytes, old, new = sweep("round scored (pico-4p)", "pico-4p", prefix, "rollbutton\n")
    assert old == steps + nbytes


def test_cut_during_the_first_save_of_a_game():
    # no file yet: after the cut, no saved game (a new one is offered)
    steps, nbytes, old, new = sweep("first save (new game)", "pico-4p", "players 4\n", "dice yellow\n")
    assert old == steps + nbytes


def test_cut_while_the_next_campaign_game_starts():
    # a campaign keeps its tally at game over; ROLL starts game 2 over it
    game = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 1200\n" * 7
    prefix = "players 2\ndice campaign\n" + game
    steps, nbytes, old, new = sweep("campaign game 2 starts", "pico-4p", prefix, "rollbutton\n")
    assert old == steps + nbytes


def test_cut_during_a_penalty_between_rounds():
    steps, nbytes, old, new = sweep("penalty between rounds", "pico-8p", START8 + round8(2),
                                    "penalty P3\n")
    assert old == steps + nbytes


def test_cut_while_the_game_over_is_saved():
    # the last round ends the game: its final screen is saved (for a cut on it)
    game = "rollbutton\nwait 3000\nbuzz P1\nrollbutton\nwait 1200\n"
    prefix = "players 2\ndice yellow\n" + game * 6 + "rollbutton\nwait 3000\nbuzz P1\n"
    steps, nbytes, old, new = sweep("game-over save", "pico-4p", prefix, "rollbutton\n")
    assert old == steps + nbytes


# -- damaged files on the flash ------------------------------------------------

def a_saved_game(name="pico-8p"):
    sim, _ = new_sim(name)
    run_script(sim, (START8 if name == "pico-8p" else START4) + round8(2) + round8(3)
               if name == "pico-8p" else START4 + round4(2) + round4(3))
    return sim.fs.files["game.json"]


def boot_with(text, name="pico-8p", watchdog=False):
    """Power up on a flash holding game.json = text; returns (sim, events)."""
    lines = []
    fs = SimFS()
    fs.files["game.json"] = text
    sim = Sim(board(name), seed=9, fs=fs, log=lines.append)
    if watchdog:
        sim.hang(9000)
    return sim, events(lines)


def check_refused(sim, evs, where):
    """The box set the file aside or refused it, said so, and offers a new game."""
    assert "error" in evs, where
    assert sim.box.state_name() == "join", where
    assert sim.box.saved is None, where
    assert "game.json" not in sim.fs.files, where
    # a new game can be played and is saved
    players = "players 2\ndice yellow\n"
    run_script(sim, players)
    assert sim.box.state_name() == "ready", where
    assert on_flash(sim.fs)["match"]["points"][:2] == [7, 7], where


def check_boot(text, good, name="pico-8p", watchdog=False):
    """Damaged or not, the box boots: the exact saved game, or refused."""
    sim, evs = boot_with(text, name, watchdog)
    where = (repr(text[:60]), watchdog)
    if sim.box.saved is not None or match_of(sim.box) is not None:
        # accepted: it must be exactly the good state (e.g. whitespace after the checksum)
        if watchdog:
            assert sim.box.state_name() == "ready", where
            assert view(match_of(sim.box)) == view_of(good), where
        else:
            assert offered(sim.box) == norm(good), where
            assert sim.box.state_name() == "resume", where
        return "accepted"
    check_refused(sim, evs, where)
    return "refused"


def test_random_byte_flips():
    text = a_saved_game()
    good = S.decode(text)
    rnd = random.Random(2024)
    outcome = {"accepted": 0, "refused": 0}
    n = 300
    for i in range(n):
        t = list(text)
        for _ in range(rnd.choice((1, 1, 1, 2, 3, 8))):
            k = rnd.randrange(len(t))
            t[k] = chr(ord(t[k]) ^ (1 << rnd.randrange(8)))
        outcome[check_boot("".join(t), good, watchdog=(i % 5 == 0))] += 1
    print("byte flips: %d files, %r" % (n, outcome))
    assert outcome["refused"] >= n - 10


def test_truncated_at_every_length():
    text = a_saved_game("pico-4p")
    good = S.decode(text)
    outcome = {"accepted": 0, "refused": 0}
    for k in range(len(text)):
        outcome[check_boot(text[:k], good, "pico-4p")] += 1
    print("truncations: %d files, %r" % (len(text), outcome))
    assert outcome["accepted"] == 1            # only the file without its last newline


def sound(state):
    return S.encode(state)


def test_unknown_version_garbage_empty():
    good = S.decode(a_saved_game())
    v2 = dict(good)
    v2["v"] = 2
    tried = 0
    for text in (sound(v2), "", "\n", "\n\n", "garbage", "\x00" * 512, "\xff" * 4096,
                 "{}\n", "{\"v\": 1}\n" + "%08x\n" % S.crc32(b"{\"v\": 1}"),
                 bytes(range(256)).decode("latin-1")):
        for wd in (False, True):
            assert check_boot(text, good, watchdog=wd) == "refused", repr(text[:30])
            tried += 1
    print("version/garbage/empty: %d boots" % tried)


def nonsense_states(good, name):
    """Sound files (checksum right, version 1) holding states no game can be in."""
    def bent(path, value):
        d = json.loads(json.dumps(good))
        node = d
        for key in path[:-1]:
            node = node[key]
        if value is KeyError:
            del node[path[-1]]
        else:
            node[path[-1]] = value
        return d
    m = good["match"]
    out = [
        ("points 99", bent(("match", "points", 0), 99)),
        ("points -1", bent(("match", "points", 1), -1)),
        ("points as text", bent(("match", "points", 0), "7")),
        ("points short", bent(("match", "points"), [7, 7])),
        ("points not a list", bent(("match", "points"), 7)),
        ("unknown board", bent(("board",), "pico-99p")),
        ("board of the other size", bent(("board",), "pico-4p" if name == "pico-8p" else "pico-8p")),
        ("station 9", bent(("match", "stations"), [0, 9])),
        ("station -1", bent(("match", "stations"), [-1, 0])),
        ("stations not a list", bent(("match", "stations"), 3)),
        ("die 9", bent(("in_play",), [0, 9])),
        ("no dice", bent(("in_play",), [])),
        ("joined short", bent(("joined",), [1])),
        ("no match", bent(("match",), KeyError)),
        ("match null", bent(("match",), None)),
        ("match a list", bent(("match",), [1, 2])),
        ("no board", bent(("board",), KeyError)),
        ("choice text", bent(("choice",), "x")),
        ("games null", bent(("games",), None)),
        ("campaign a number", bent(("campaign",), 5)),
        ("campaign wins short", bent(("campaign",), {"wins": [1], "game": 1, "yellows": [0, 1],
                                                      "tiebreak": [], "king": -1})),
        ("marked text", bent(("match", "marked"), "P1")),
        ("eliminated text", bent(("match", "eliminated"), "P1")),
        ("active short", bent(("match", "active"), [1])),
        ("lost 9", bent(("match", "lost", 0), 9)),
        ("stations twice", bent(("match", "stations"), [0, 0, 1])),
        ("eliminated station 42", bent(("match", "eliminated"), [42])),
        ("marked station 42", bent(("match", "marked"), 42)),
        ("winner station 42", bent(("match", "winner"), 42)),
    ]
    if name == "pico-4p":
        # a station the board does not have
        out.append(("station 6 on 4 stations", bent(("match", "stations"), m["stations"] + [5])))
        out.append(("joined 6 on 4 stations", bent(("joined",), [1, 1, 1, 1, 0, 1, 0, 0])))
    return out


def test_sound_file_holding_nonsense():
    tried = 0
    problems = []
    for name in ("pico-8p", "pico-4p"):
        good = S.decode(a_saved_game(name))
        for what, state in nonsense_states(good, name):
            for wd in (False, True):
                try:
                    sim, evs = boot_with(sound(state), name, wd)
                except Exception as e:       # a crash is the finding
                    problems.append("%s %s%s: boot raised %s: %s"
                                    % (name, what, " (watchdog)" if wd else "",
                                       type(e).__name__, e))
                    continue
                tried += 1
                if sim.box.saved is not None or match_of(sim.box) is not None:
                    problems.append("%s %s%s: accepted (state %s)"
                                    % (name, what, " (watchdog)" if wd else "",
                                       sim.box.state_name()))
                    continue
                check_refused(sim, evs, (name, what, wd))
    print("nonsense files: %d boots" % tried)
    assert not problems, "\n".join(problems)


# -- the watchdog ---------------------------------------------------------------

def test_watchdog_reset_resumes_at_once():
    sim, lines = new_sim("pico-4p")
    run_script(sim, START4 + round4(2) + round4(3))
    saved_view = view(match_of(sim.box))
    # round 3 under way: the faces are out, P1 grabbed
    run_script(sim, "rollbutton\nwait 3000\nbuzz P1\n")
    assert sim.box.state_name() == "grab"
    n = len(lines)
    sim.hang(9000)
    assert sim.boots == 2
    assert sim.box.state_name() == "ready"
    assert view(match_of(sim.box)) == saved_view
    evs = events(lines[n:])
    assert evs[:3] == ["watchdog", "boot", "resume"], evs
    # and play goes on
    run_script(sim, round4(1))
    assert match_of(sim.box).rounds_played == saved_view[2] + 1


def test_short_hang_does_not_reset():
    sim, lines = new_sim("pico-4p")
    run_script(sim, START4 + round4(2) + "rollbutton\nwait 3000\nbuzz P1\nbuzz P2\nbuzz P3\n")
    assert sim.box.state_name() == "check"
    n = len(lines)
    sim.hang(3000)
    assert sim.boots == 1 and sim.box.state_name() == "check"
    assert "watchdog" not in events(lines[n:]) and "boot" not in events(lines[n:])


# -- flash wear -----------------------------------------------------------------

def play_game_night(games=10, seed=11):
    """Games of 8 players on pico-8p to the end; players right 3 times out of 4."""
    rnd = random.Random(seed)
    sim, lines = new_sim("pico-8p", seed)
    sim.fs.arm()                                 # count from here, nothing cut
    run_script(sim, START8)
    rounds = 0
    for g in range(games):
        if g:
            sim.press(ROLL_BIT)                  # next game, same players
        while sim.box.state_name() != "gameover":
            assert sim.box.state_name() == "ready"
            sim.press(ROLL_BIT)
            sim.wait(1600)
            m = match_of(sim.box)
            order = [s for s in range(8) if m.active[s]]
            rnd.shuffle(order)
            for s in order:
                if sim.box.state_name() != "grab":
                    break
                k = min(sim.box.game.left, 7)
                if rnd.random() >= 0.75:
                    k = (k + rnd.choice((1, 7))) % 8
                sim.port.place(s, k)
                sim.wait(5)
                sim.press(s)
            sim.wait(1200)
            rounds += 1
        assert S.decode(sim.fs.files["game.json"])["final"] is True   # the final screen
    return sim, rounds


def test_flash_wear_of_a_game_night():
    games = 10
    sim, rounds = play_game_night(games)
    st = sim.box.store
    saves = st.writes
    # a save at each new game and after each scored round (the last: the final screen)
    assert saves == rounds + games
    per_save = sim.fs.written / saves
    # a long game night: 4 hours; a round is never quicker than ~10 s at a real table
    night = 4 * 3600 // 10
    print("wear: %d games, %d rounds, %d saves (%.1f a game), %d bytes (%.0f a save), "
          "fs operations %d; a 4-hour night at one save per 10 s: %d saves, %d bytes"
          % (games, rounds, saves, saves / games, sim.fs.written, per_save, sim.fs.steps,
             night, int(night * per_save)))
    assert 300 < per_save < 700
    STATS["wear"] = (games, rounds, saves, sim.fs.written)
