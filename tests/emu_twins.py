"""Test bodies the emulated Pico (tests/emu/) and the emulated Pico 2
(tests/emu2350/) share line for line: each suite's test calls one with its
board, so each chip's case runs, is skipped and is timed with its own suite."""
import re

from emu.pico import LED_GPIO, chip_of
from emu.table import MS, EmuTable
from host_tools.deploy import fsimage


def a_pc_not_reading_the_port_never_stalls_the_box(image, board):
    """A PC that holds the USB serial port open without reading never stalls
    the game (MicroPython's CDC write would wait 1 s a line), lines that do
    not fit are counted, and the console takes commands again."""
    with EmuTable(board, flash=image(board)) as t:
        t.boot(3000)
        t.run(200)
        t.pico.host_reads(False)
        for _ in range(25):                    # 25 state lines (~200 B each): more than fits
            t.pico.send("state\r\n")
            t.run(20)
        lit = []
        for s in range(4):
            c0, _ = t.frames(1)
            at = t.pico.nanos + MS
            t.press_at(s, at)
            t.run(100)
            _, frames = t.frames(1, since=c0)
            track = bytes(21)
            ok = [f for f in frames if bytes.fromhex(f["hex"])[24 * s:24 * s + 21] != track]
            lit.append((ok[0]["end"] - at) / MS if ok else None)
        # every join lit its track although no line could go out: a blocked
        # USB write would have cost 1000 ms a line (and the watchdog after 8)
        assert all(x is not None and x < 100 for x in lit), lit
        n = len(t.events)
        t.pico.host_reads(True)
        t.run(600)
        kinds = t.kinds(n)
        assert "dropped" in kinds, kinds
        dropped = [e for e in t.events[n:] if e["ev"] == "dropped"][0]
        assert dropped["lines"] > 0
        t.press(0)                            # P1 leaves: its line goes out as it happens
        t.run(100)
        assert t.kinds()[-1] == "leave"


def _console_junk(rng, n):
    """n console lines a table could type or a cable could garble: invalid
    UTF-8, valid UTF-8 that is not ASCII, NUL and escapes, lines longer than
    the box reads, and ASCII no command starts with. Never Ctrl-C (it stops
    the game, on purpose) and never a line break inside a line."""
    anybyte = [x for x in range(256) if x not in (3, 10, 13)]
    lines = []
    for i in range(n):
        kind = i % 10
        if kind < 4:                            # random bytes: mostly invalid UTF-8
            b = bytes(rng.choice(anybyte) for _ in range(rng.randint(1, 24)))
        elif kind < 6:                          # valid UTF-8, not ASCII
            b = rng.choice(["st\u00e9", "caf\u00e9 \u2603", "\u00fcber", "game \u00e9", "\u00ff"]).encode()
        elif kind < 8:                          # NUL and a terminal's escapes
            b = b"state\x00" if rng.random() < 0.5 else b"\x1b[A" + b"\x00" * rng.randint(1, 5)
        elif kind == 8:                         # longer than the box reads (120)
            b = b"state " + b"x" * rng.randint(121, 200)
        else:                                   # ASCII, no command
            b = ("x" + "".join(rng.choice("abc ?!#") for _ in range(rng.randint(0, 12)))).encode()
        lines.append(b)
    return lines


def console_bytes_never_reset_the_box(image, board, n):
    """Whatever bytes come on the USB console, each line gets one answer
    (a `cheesebox:` line for what is not ASCII text or too long, an error
    event for an unknown command) and the game goes on: no error code, no
    restart, the players who joined still joined."""
    import random
    rng = random.Random(2026)
    with EmuTable(board, flash=image(board)) as t:
        t.boot(3000)
        t.run(100)
        t.press(0)
        t.press(1)
        assert t.kinds()[-2:] == ["join", "join"], t.lines[-4:]
        k, n_ev = len(t.lines), len(t.events)
        junk = ["st\u00e9".encode()] + _console_junk(rng, n - 1)     # the first crashed the Pico 2
        t.pico.send(b"".join(x + b"\r\n" for x in junk).decode("latin1"))

        def answers():
            refused = sum(1 for x in t.lines[k:] if x.startswith("cheesebox: console line ignored"))
            unknown = sum(1 for e in t.events[n_ev:] if e["ev"] == "error" and e.get("what") == "unknown command")
            dropped = sum(e["lines"] for e in t.events[n_ev:] if e["ev"] == "dropped")
            return refused, unknown, dropped
        waited = 0
        while sum(answers()) < n and waited < 120000:
            t.run(200)
            waited += 200
        said = t.lines[k:]
        crashed = [x for x in said if "error 3" in x or "Traceback" in x or "restarting" in x]
        assert not crashed, crashed
        assert "boot" not in t.kinds(n_ev)
        refused, unknown, dropped = answers()
        assert refused + unknown + dropped == n, (refused, unknown, dropped)
        bad = sum(1 for x in junk if len(x) > 120 or any(c < 32 or c > 126 for c in x))
        assert refused <= bad and unknown <= n - bad, (refused, unknown, bad)
        m = len(t.events)
        t.pico.send("state\r\n")
        t.wait_event("state", 2000, since=m, state="join")
        t.press(2)                              # and the table goes on joining
        assert t.kinds()[-1] == "join" and t.events[-1]["p"] == "P3"


def ctrl_c_then_main_again_many_times(image, board):
    """mpremote stops the game with Ctrl-C; main() at the REPL starts it again.
    Each start takes 2 DMA channels for the buttons and one a LED chain: if a
    stopped game kept its channels, the 4th start would find none left (on
    the Pico 2, stopping them also follows the RP2350-E5 abort order)."""
    with EmuTable(board, flash=image(board)) as t:
        t.boot(3000)
        for i in range(4):
            k = len(t.lines)
            t.pico.send("\x03")
            t.run(300)
            assert any("stopped (Ctrl-C)" in line for line in t.lines[k:]), t.lines[k:]
            n = len(t.events)
            t.pico.send("from rp2port.app import main\r\nmain()\r\n")
            t.wait_event("boot", 3000, since=n)
            t.run(100)
            t.press(i)
            assert t.kinds()[-1] == "join", t.lines[-4:]
            assert t.events[-1]["p"] == "P%d" % (i + 1)
        errors = [line for line in t.lines if "Error" in line]
        assert not errors, errors                 # Ctrl-C gives KeyboardInterrupt, nothing else


# -- power cuts ------------------------------------------------------------------
def _state(t):
    n = len(t.events)
    t.pico.send("state\r\n")
    return t.wait_event("state", 1000, since=n)


def _penalty(t, s):
    """A table penalty for station s (ROLL held, the buzzer 400 ms later, as
    sim/drive.py does it): the box saves the point at once, ROLL still held.
    A power cut rebuilds the chip and drops its pending alarms, the fingers'
    later moves with them: the fingers still let go when they would have
    (ROLL held through the reboot would be a safe boot). True if the power
    was cut."""
    r, g = t.pin_of("roll"), t.pin_of(s)
    now = t.pico.nanos + 1000
    moves = [(now, r, 0), (now + 400 * MS, g, 0), (now + 440 * MS, g, None), (now + 460 * MS, r, None)]
    t.pico.schedule(pins=moves)
    if not t.run(500):
        return False
    t.pico.schedule(pins=[m for m in moves if m[0] > t.pico.nanos])
    t.run(max(0.0, (now + 500 * MS - t.pico.nanos) / MS))
    return True


def _resume(t, since):
    """The box is up offering its saved game: ROLL resumes it; its points."""
    assert t.wait_event("boot", 3000, since=since)["resume"] is True   # offered, never lost
    t.run(150)
    assert _state(t)["state"] == "resume"
    n = len(t.events)
    t.press("roll")
    return t.wait_event("resume", 1000, since=n)["points"]


def two_players_in_a_game(t):
    """Power-up from the box's image, P1 and P2 join, ROLL twice: a game of
    3 yellow dice (the dice menu's first choice) waits for its first roll."""
    t.boot(3000)
    t.press(0)
    t.press(1)
    t.press("roll")
    t.press("roll")
    return t.wait_event("game", 1000)


def _game_with_a_save(t):
    """Power-up from the box's image, two players, a game; P1's table
    penalty is its first save, complete. Returns the points."""
    two_players_in_a_game(t)
    assert not _penalty(t, 0)
    t.run(100)
    return _state(t)["points"]


def a_power_cut_after_each_flash_operation_of_a_save_resumes_the_last_complete_save(image, board):
    """One save, P2's table penalty after P1's, cut after its 1st, 2nd, ...,
    last flash operation: each run powers up from the same image and plays
    the same (the emulator is deterministic: the same operations, checked).
    Every time the box comes back offering a saved game, and ROLL resumes the
    old points until the cut falls after the operation that completes the
    save, the new ones from there on (after the last one always). A first run
    without a cut counts the save's operations."""
    old, new = {"P1": 6, "P2": 7}, {"P1": 6, "P2": 6}
    whole, runs = None, []                    # runs: (operations before the cut, points resumed)
    while whole is None or len(runs) < len(whole):
        k = len(runs) + 1 if whole is not None else 0
        with EmuTable(board, flash=image(board)) as t:
            assert _game_with_a_save(t) == old
            c0, _ = t.pico.flash_log()
            if k:
                t.pico.cut_after(k)
            n = len(t.events)
            cut = _penalty(t, 1)
            _, ops = t.pico.flash_log(c0)
            ops = [o[1:] for o in ops]        # (kind, address, bytes)
            if not k:
                assert not cut
                t.run(100)
                assert _state(t)["points"] == new
                whole = ops
                assert 2 <= len(whole) <= 12, whole
                continue
            assert cut and len(ops) >= k, (k, ops)
            runs.append((ops[:k], _resume(t, n)))
            assert _state(t)["state"] == "ready"
    assert [r[0] for r in runs] == [whole[:k] for k in range(1, len(whole) + 1)]
    resumed = [r[1] for r in runs]
    assert all(p in (old, new) for p in resumed) and resumed[-1] == new, resumed
    done = resumed.index(new)                 # the operation that completes the save
    assert done > 0 and resumed[done:] == [new] * (len(resumed) - done), resumed


# -- the MicroPython version ---------------------------------------------------------
def edited_image(img, chip, out, edit):
    """A copy of flash image img with edit(fs) applied to its filesystem (the
    host's littlefs on the image: fs.open, fs.remove); everything else as it was."""
    from littlefs import LittleFS, UserContext
    geo = fsimage.GEOMETRY[chip]
    flash = bytearray(open(img, "rb").read())
    ctx = UserContext(geo.fs_size)
    ctx.buffer[:] = flash[geo.fs_offset:]
    fs = LittleFS(context=ctx, mount=False, **geo.lfs_config)
    fs.mount()
    edit(fs)
    fs.unmount()
    flash[geo.fs_offset:] = ctx.buffer
    with open(out, "wb") as f:
        f.write(flash)
    return out


def _main_py_saying(img, chip, out, pattern, line):
    """img with one line of its main.py (matching pattern) replaced by line."""
    def edit(fs):
        with fs.open("main.py", "r") as f:
            src = f.read()
        src, n = re.subn(pattern, line, src, flags=re.M)
        assert n == 1, "main.py: no line %r" % pattern
        with fs.open("main.py", "w") as f:
            f.write(src)
    return edited_image(img, chip, out, edit)


def blinks_error_code(t, code, e0=0):
    """The Pico's LED since edge e0 blinks `code`: blinks of 200 ms, 500 ms
    apart, then 2.5 s to the next round, over and over."""
    edges = t.pico.edges(LED_GPIO)[e0:]
    ons = [a[0] for a in edges if a[1] == 1]
    lit = [(b[0] - a[0]) / MS for a, b in zip(edges, edges[1:]) if a[1] == 1 and b[1] == 0]
    assert len(ons) >= code + 1 and all(180 < d < 220 for d in lit), lit
    gaps = [(b - a) / MS for a, b in zip(ons, ons[1:])]
    rounds = [i for i, g in enumerate(gaps) if g > 1000]
    assert rounds, gaps
    first = rounds[0] + 1                 # the first blink of a whole round
    group = gaps[first:first + code]
    assert len(group) == code, gaps
    assert all(480 < g < 520 for g in group[:code - 1]) and 2300 < group[code - 1] < 2700, gaps


def an_older_micropython_is_refused_with_error_code_4(image, board, tmp_path):
    """No older MicroPython image exists here, so the box's main.py on the
    flash puts the floor one patch release above what the chip runs (1.28.1
    against v1.28.0). The box must blink error code 4 on the Pico's LED, say
    it on the serial console, keep the dice and tracks dark, ignore the
    buzzers and stay reachable at the REPL (docs/deploy.md)."""
    chip = chip_of(board)
    flash = _main_py_saying(image(board), chip, str(tmp_path / "newer.img"), r"^FLOOR = \{.*\}$",
                            'FLOOR = {"rp2040": (1, 28, 1), "rp2350": (1, 28, 1)}')
    with EmuTable(board, flash=flash) as t:
        t.run(1000)
        e0 = len(t.pico.edges(LED_GPIO))
        t.press(0)                            # a buzzer: nobody joins
        t.press("roll")
        t.run(8400)
        said = [ln for ln in t.lines if ln.startswith("cheesebox error")]
        name = {"rp2040": "RP2040 (Pico)", "rp2350": "RP2350 (Pico 2)"}[chip]
        assert said and said[0] == (
            "cheesebox error 4: MicroPython 1.28.0 is older than 1.28.1, the oldest the box runs "
            "on an %s: install MicroPython 1.28.1 or newer (docs/deploy.md), then make flash"
            % name), t.lines[-6:]
        assert len(said) >= 2 and len(set(said)) == 1        # said again every round of blinks
        assert not t.events, t.events[:3]                    # no boot, no join: the game never starts
        assert not any("Traceback" in ln or "Error" in ln for ln in t.lines), t.lines[-6:]
        # the dice and the tracks dark: nothing ever went out on the chains
        assert all(not any(t.last_frame(c)) for c in range(len(t.chain_pins)))
        # error code 4 on the Pico's LED: 4 blinks of 200 ms, 300 ms apart, then
        # a pause; over and over, one round every ~4 s
        blinks_error_code(t, 4, e0)
        # the Pico stays reachable: Ctrl-C gives the REPL (make flash can update the box)
        out, err = t.exec_raw("import sys\nprint(sys.implementation.version[:3])")
        assert out.strip() == "(1, 28, 0)" and not err, (out, err)


def an_untested_micropython_runs_with_a_warning(image, board, tmp_path):
    """Between the chip's floor and the version the box is tested on, the box
    runs: main.py on the flash says it is tested on 1.28.1 (the chip runs
    v1.28.0). The console says so at power-up, the event log says it after the
    boot event, and the game goes on: a player joins and their track lights."""
    chip = chip_of(board)
    flash = _main_py_saying(image(board), chip, str(tmp_path / "untested.img"),
                            r"^TESTED = \(1, 28, 0\)", "TESTED = (1, 28, 1)")
    with EmuTable(board, flash=flash) as t:
        t.boot(4000)
        t.run(300)
        said = [ln for ln in t.lines if "the box runs, untested" in ln]
        assert said and said[0] == (
            "cheesebox: MicroPython 1.28.0 is older than 1.28.1, the version the box is tested on: "
            "the box runs, untested; install MicroPython 1.28.1 or newer (docs/deploy.md), then "
            "make flash"), t.lines[-8:]
        kinds = t.kinds()
        assert kinds[0] == "boot", kinds
        warned = [e for e in t.events if e["ev"] == "error" and e["what"] == "untested MicroPython"]
        assert len(warned) == 1 and warned[0]["micropython"] == "1.28.0", t.events[:4]
        assert "the box runs, untested" in warned[0]["why"]
        assert not any(ln.startswith("cheesebox error") or "Traceback" in ln for ln in t.lines)
        lights_a_join(t)


def lights_a_join(t):
    """A player joins and the LEDs show it: a new frame on the chains, lit."""
    n = len(t.events)
    before = [t.frames(c)[0] for c in range(len(t.chain_pins))]
    t.press(0)
    t.wait_event("join", since=n)
    t.run(200)
    new = [c for c in range(len(t.chain_pins)) if t.frames(c, since=before[c])[1]]
    assert new and all(any(t.last_frame(c)) for c in new), (new, t.lines[-6:])


# -- start-up failures (tests/emu/test_emu_startup.py) -------------------------------
def rewrite(path, change):
    """An edit for edited_image(): the file's bytes through change(bytearray)."""
    def edit(fs):
        with fs.open(path, "rb") as f:
            data = bytearray(f.read())
        with fs.open(path, "wb") as f:
            f.write(change(data))
    return edit


def blinks_an_error(t, code, said):
    """Error `code` on the LED and its line on the console every round,
    nothing on the chains, no event; the REPL still answers. The line."""
    t.run(800)
    e0 = len(t.pico.edges(LED_GPIO))
    t.run(3 * (code * 500 + 2000) + 500)
    errors = [ln for ln in t.lines if ln.startswith("cheesebox error")]
    assert errors and all(ln.startswith("cheesebox error %d: %s" % (code, said)) for ln in errors), \
        t.lines[-8:]
    assert len(errors) >= 2 and len(set(errors)) == 1, errors        # said every round
    assert not t.events, t.events[:3]
    assert all(not any(t.last_frame(c)) for c in range(len(t.chain_pins)))
    blinks_error_code(t, code, e0)
    out, err = t.exec_raw("print(6 * 7)")
    assert out.strip() == "42" and not err, (out, err)
    return errors[0]


def _newer_mpy_version(data):
    assert data[:2] == b"M\x06", bytes(data[:4])
    data[1] = 7                            # .mpy version 7: no MicroPython here loads it
    return data


def an_mpy_of_a_newer_version_blinks_error_6(image, board, tmp_path):
    """rp2port/app.mpy, which main.py imports, of .mpy version 7 (MicroPython
    raises ValueError "incompatible .mpy file"): error code 6, not a traceback
    at the REPL with the LEDs dark."""
    flash = edited_image(image(board), chip_of(board), str(tmp_path / "app-mpy7.img"),
                         rewrite("rp2port/app.mpy", _newer_mpy_version))
    with EmuTable(board, flash=flash) as t:
        line = blinks_an_error(t, 6, "the box's files do not load on MicroPython 1.28.0 (")
        assert "incompatible .mpy file" in line and "make flash again" in line, line


def falls_back_to_bytecode(board, flash, why):
    """The box on `flash` boots with the bytecode LED encoder: one console
    line and one event-log line say why, and a join lights the LEDs."""
    with EmuTable(board, flash=flash) as t:
        t.boot(5000)
        t.run(300)
        said = [ln for ln in t.lines if ln.startswith("cheesebox: the native LED encoder does not load")]
        assert len(said) == 1 and why in said[0] and "bytecode" in said[0], t.lines[:10]
        logged = [e for e in t.events if e["ev"] == "error" and "LED encoder" in e["what"]]
        assert len(logged) == 1 and why in logged[0]["why"], t.events[:4]
        assert not any(ln.startswith("cheesebox error") or "Traceback" in ln for ln in t.lines)
        lights_a_join(t)


def _older_sub_version(data):
    assert data[:2] == b"M\x06" and data[2] & 3 == 3, bytes(data[:4])    # native, 6.3
    data[2] = (data[2] & ~3) | 2                 # 6.2 (MicroPython 1.22's), the same arch
    return data


def a_native_encoder_of_another_sub_version_falls_back(image, board, tmp_path):
    """rp2port/wire.mpy of .mpy 6.2: "incompatible .mpy file"; the bytecode
    encoder draws the LEDs (leds.py), and the game goes on."""
    flash = edited_image(image(board), chip_of(board), str(tmp_path / "wire-6.2.img"),
                         rewrite("rp2port/wire.mpy", _older_sub_version))
    falls_back_to_bytecode(board, flash, "incompatible .mpy file")
