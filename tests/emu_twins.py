"""Test bodies the emulated Pico (tests/emu/) and the emulated Pico 2
(tests/emu2350/) share line for line: each suite's test calls one with its
board, so each chip's case runs, is skipped and is timed with its own suite."""
from emu.table import MS, EmuTable


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
