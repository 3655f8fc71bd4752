"""The USB serial port on both chips: a PC that holds the port open without
reading never stalls the game (MicroPython's CDC write would wait 1 s a
line), lines that do not fit are counted, and the console takes commands.
make test runs the port not read on the Pico and the console lines on both
(twenty on the Pico 2, the first the one that once restarted it); the Pico 2's
port not read and its thousand lines are make test-emu's (second_chip)."""
import random

import pytest

from emu.table import MS, EmuTable


@pytest.mark.parametrize("board", ["pico-4p", pytest.param("pico2-8p", marks=pytest.mark.second_chip)])
def test_a_pc_not_reading_the_port_never_stalls_the_box(image, board):
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


@pytest.mark.parametrize("board, lines", [
    ("pico-4p", 100), ("pico2-8p", 20), pytest.param("pico2-8p", 1000, marks=pytest.mark.second_chip)])


def test_console_bytes_never_reset_the_box(image, board, lines):
    """Whatever bytes come on the USB console, each line gets one answer
    (a `cheesebox:` line for what is not ASCII text or too long, an error
    event for an unknown command) and the game goes on: no error code, no
    restart, the players who joined still joined. Lines of invalid UTF-8,
    NUL, non-ASCII and over-long text, the first 'st\u00e9' (it restarted the
    Pico 2 once, not the Pico); each costs the emulated Pico about 30 ms."""
    n = lines
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
