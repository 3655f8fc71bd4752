"""The Pico 2 boots the box from its own flash (.mpy) to the joining screen:
from an image built on the host, and, the one real deploy of the Pico 2
suite, after `make flash BOARD=pico2-8p PORT=socket://...` through
mpremote over the emulated USB, the emulator paced to the host's clock.
That deploy is make test-emu's only (second_chip): make test deploys to the
Pico over the same USB path (tests/emu/test_emu_boot.py), asks a Pico 2 its
chip over it (tests/emu/test_emu_flash_chip.py), and checks the Pico 2's
mpy-cross arch and chip check on the host (tests/test_flash.py)."""
import re

import pytest

from emu.table import EmuTable
from host_tools.deploy import fsimage

DIAL_SELECT = (16, 17, 18)


def _lit(frame):
    return sum(1 for i in range(0, len(frame), 3) if frame[i] or frame[i + 1] or frame[i + 2])


def _boot_check(img):
    with EmuTable("pico2-8p", flash=img) as t:
        for g in DIAL_SELECT:
            t.pico.watch(g)
        boot = t.boot(3000)
        assert boot["board"] == "pico2-8p" and boot["resume"] is False
        # within 600 ms of power-up, as on the Pico: 400 ms emulated when
        # measured (545 before the boot was cut down, tests/emu/test_emu_boot.py;
        # 720 before main.py kept the built-ins)
        assert boot["t"] < 600, boot
        t.run(300)
        # the joining screen on the wires: nobody has joined, the dice chain dark
        assert len(t.last_frame(0)) == 384 * 3 and not any(t.last_frame(0))
        assert not any(t.last_frame(1))
        # the dials are scanned: the 4051's select pins go round all 8 channels
        seen = _channels(t)
        assert seen[:8] and set(seen) == set(range(8)), seen
        # two buzzers join: their tracks light, then the dice show the wheels
        t.press(0)
        t.run(50)
        assert t.kinds()[-1] == "join" and t.events[-1]["p"] == "P1"
        assert _lit(t.last_frame(1)[:8 * 3]) == 7
        t.press(1)
        t.run(50)
        assert t.kinds()[-1] == "join" and t.events[-1]["p"] == "P2"
        assert _lit(t.last_frame(0)) > 20
        assert not t.pico.stats()["resets"]


def test_host_image_boots_pico2_8p_to_the_joining_screen(image):
    _boot_check(image("pico2-8p"))


def _files(flash):
    """{path: bytes} of every file in a Pico 2 flash image's LittleFS."""
    from littlefs import LittleFS, UserContext
    geo = fsimage.GEOMETRY["rp2350"]
    ctx = UserContext(geo.fs_size)
    ctx.buffer[:] = flash[geo.fs_offset:]
    fs = LittleFS(context=ctx, mount=False, **geo.lfs_config)
    fs.mount()
    out = {}
    for d, _, names in fs.walk("/"):
        for n in names:
            p = (d.rstrip("/") + "/" + n).lstrip("/")
            with fs.open(p, "rb") as f:
                out[p] = f.read()
    return out


@pytest.mark.second_chip
def test_make_flash_over_the_emulated_usb_boots_pico2_8p(image):
    """The one real deploy of the Pico 2 suite: `make flash` (mpy-cross,
    mpremote copy, sha256 of every file on the board, reset) to a Pico 2 with
    nothing but MicroPython, its clock paced to the host's. It boots to the
    joining screen, and its filesystem holds byte for byte the files of the
    host-built image."""
    usb = image("pico2-8p", tools=True)
    log = open(usb + ".log").read()
    m = re.search(r"verified (\d+) files", log)
    assert m and "(sha256)" in log, log
    _boot_check(usb)
    deployed = _files(open(usb, "rb").read())
    host = _files(open(image("pico2-8p"), "rb").read())
    assert sorted(host) == sorted(deployed) and "rp2port/app.mpy" in host
    assert all(host[p] == deployed[p] for p in host)
    assert int(m.group(1)) == len(host)


def _channels(t):
    """The 4051 channel after each change of the select pins (GP16-18)."""
    levels, changes = [0, 0, 0], []
    for b, g in enumerate(DIAL_SELECT):
        changes += [(ns, b, lvl) for ns, lvl in t.pico.edges(g)]
    out = []
    for ns, b, lvl in sorted(changes):
        levels[b] = 1 if lvl == 1 else 0
        ch = levels[0] | levels[1] << 1 | levels[2] << 2
        if not out or out[-1][0] != ns:
            out.append((ns, ch))
        else:
            out[-1] = (ns, ch)
    return [ch for _, ch in out]
