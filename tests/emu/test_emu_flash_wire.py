"""A flash program while a WS2812 frame is on the wire leaves the frame whole.

On a real RP2040 a flash erase or program (a save) stops only the CPU
(MicroPython's rp2_flash.c disables interrupts; the LED bytes are in SRAM):
the DMA goes on feeding the PIO and the frame goes out unbroken. The emulated
Pico traps the boot ROM's flash functions at a BKPT and lets their time pass
inside that one instruction, the PIO stepped through it (emu/pico.mjs
`_stall`). Until 2026-12-06 the PIO steps due in the BKPT's own cycle, after
the stall, were stamped with the instant before it: an edge 0.4-0.8 ms in the
past, which the wire decoder took as a 50 us latch (the frame cut in two,
1012 + 139 bytes at a save at game start) or as a bit's wrong length (a 1 read
as a 0), when a machine's next clock fell in that one cycle: 4 of the 16
frames below, and the save at game start below.

- flash programs of 0xff bytes (the flash unchanged) at the REPL, one after
  another for as long as each of 16 dice frames is going out (352 programs on
  the Pico): every frame decoded is whole, 1,152 bytes, and the bytes the chip
  encoded (their sha256, said by the chip). Before the fix 4 of the 16 were
  broken. The Pico 2 too: its harness traps the flash in its own way
  (emu/rp2350/pico2350.mjs), and was right already.
- the save at game start, its programs inside a dice frame: every dice frame
  whole, and the last one shows the three dice in play alike.
"""
import hashlib
import re

import pytest

from emu.table import EmuTable
from emu.view import EmuView
from sim.boxscreen import die_grid

MS = 1000000
FRAMES = 16

CODE = """
import rp2, time, hashlib, binascii
from rp2port import app
from rp2port.leds import Leds
b = app.load(app.BOARD_FILE, app._board_json())
L = Leds(b)
fl = rp2.Flash()
ff = b'\\xff' * 256          # programs nothing: the flash stays as it is
n = b.chains[0].pixels * 3
ops = 0
for k in range(%d):
    buf = bytearray(n)
    for i in range(0, n, 3):
        buf[i + k %% 3] = (i // 3 + 5 * k) & 0x3f
    L.show(0, buf)
    L.commit()
    while L.led_dma[0].active():       # the frame is going out
        fl.writeblocks(fl.ioctl(4, 0) - 1, ff, (ops %% 16) * 256)   # a program, no erase
        ops += 1
    time.sleep_ms(1)
    print('FRAME', binascii.hexlify(hashlib.sha256(L.wire[0]).digest()).decode())
print('OPS', ops)
L.close()
"""


def _inside(op, frames, page_ms):
    """The flash operation (end, kind, addr, count) ran while a frame went out."""
    end = op[0]
    start = end - page_ms * MS * ((op[3] + 255) // 256)
    return any(f["start"] < start and end < f["end"] for f in frames)


@pytest.mark.parametrize("board", ["pico-8p", "pico2-8p"])
def test_flash_programs_while_dice_frames_go_out_leave_every_frame_whole(image, board):
    with EmuTable(board, flash=image(board)) as t:
        t.boot(5000)
        n_bytes = t.board.chains[0].pixels * 3
        t.pico.send("\x03")
        t.run(300)
        c0, _ = t.frames(0)
        f0, _ = t.pico.flash_log()
        out, err = t.exec_raw(CODE % FRAMES, ms=60000)
        t.run(5)                                          # the last frame latched
        sums = re.findall(r"FRAME (\w+)", out)
        ops = int(re.search(r"OPS (\d+)", out).group(1))
        assert len(sums) == FRAMES and not err, (out, err)
        _, frames = t.frames(0, since=c0)
        _, log = t.pico.flash_log(since=f0)
        assert len(log) == ops and all(op[1] == "program" for op in log)
        # most programs began and ended inside a frame (each frame's last may
        # end after it)
        assert sum(_inside(op, frames, 0.4) for op in log) >= ops - FRAMES > 10 * FRAMES, (ops, len(frames))
        got = [(len(f["hex"]) // 2, hashlib.sha256(bytes.fromhex(f["hex"])).hexdigest()) for f in frames]
        assert got == [(n_bytes, s) for s in sums], got


def test_the_save_at_game_start_leaves_the_dice_frame_whole(image):
    with EmuTable("pico-8p", flash=image("pico-8p")) as t:
        t.boot()
        n_bytes = t.board.chains[0].pixels * 3
        c0, _ = t.frames(0)
        f0, _ = t.pico.flash_log()
        v = EmuView(t)
        for k, ms in (("1", 300), ("2", 300), (" ", 300), (" ", 1500)):  # join P1, P2; the menu; start
            assert v.key(k)
            t.run(ms)
        _, frames = t.frames(0, since=c0)
        _, log = t.pico.flash_log(since=f0)
        assert [len(f["hex"]) // 2 for f in frames] == [n_bytes] * len(frames)
        # the save's programs ran while a dice frame was going out (else this
        # test no longer tests anything: the firmware's timing moved)
        assert any(op[1] == "program" and _inside(op, frames, 0.4) for op in log), (log, frames)
        px = v.pixels()
        lit = [sum(1 for row in die_grid(t.board, px, d) for c in row if max(c)) for d in range(6)]
        assert lit[0] > 0 and lit[:3] == [lit[0]] * 3 and not any(lit[3:]), lit   # the three "?"
