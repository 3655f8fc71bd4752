"""The USB serial port on the Pico 2 (issue 18, as tests/emu on the Pico): a
PC that holds the port open without reading never stalls the game
(MicroPython's CDC write would wait 1 s a line), lines that do not fit are
counted, and the console takes commands."""
from emu.table import MS, EmuTable


def test_a_pc_not_reading_the_pico2s_port_never_stalls_the_box(image):
    with EmuTable("pico2-8p", flash=image("pico2-8p")) as t:
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
