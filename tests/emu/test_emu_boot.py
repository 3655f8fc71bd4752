"""Boot from the Pico's own flash: images built on the host, and
one real `make flash` through mpremote over the emulated USB. The Pico 2
boots pico2-8p from a host image in make test (its dials scanned); its one
deploy over the emulated USB (paced to the host's clock) is make test-emu's
(second_chip): make test deploys to the Pico over the same USB path, asks a
Pico 2 its chip over it (test_emu_flash_chip.py), and checks the Pico 2's
mpy-cross arch and chip check on the host (tests/test_flash.py)."""
import re

import pytest

from emu.pico import EmulatedPico
from emu.table import EmuTable
from host_tools.deploy import fsimage


def _dice_lit(frame):
    return sum(1 for i in range(0, len(frame), 3) if frame[i] or frame[i + 1] or frame[i + 2])


def _boot_check(image, board):
    with EmuTable(board, flash=image) as t:
        boot = t.boot(6000)             # .py sources are compiled at boot: slower
        assert boot["board"] == board and boot["resume"] is False
        t.run(300)
        # the joining screen is on the wires: nobody has joined, all dark
        assert len(t.last_frame(0)) == 384 * 3 and not any(t.last_frame(0))
        assert not any(t.last_frame(1))
        # a buzzer joins: that player's track lights in their colour; two
        # players: the dice show the wheels in play
        t.press(0)
        t.run(50)
        assert t.kinds()[-1] == "join"
        assert any(t.last_frame(1)[:21])
        t.press(1)
        t.run(50)
        assert _dice_lit(t.last_frame(0)) > 20
        return boot["t"]


def test_host_image_mpy_boots_to_the_joining_screen(image):
    ms = _boot_check(image("pico-4p"), "pico-4p")
    # the boot event within 600 ms of power-up (emulated time: the same from
    # run to run): 535 ms when measured, 734 before main.py was made small,
    # the dice file's checker loaded only for a dice file and Cheese Master's
    # game (flow.py) only when a game starts; 950 before main.py kept the
    # built-in modules (every `import time` searched the flash first)
    assert ms < 600


def test_host_image_py_sources_boot_too(image):
    ms = _boot_check(image("pico-4p", keep_py=True), "pico-4p")
    assert ms < 6000


def test_pico_8p_boots_with_its_answer_keys(image):
    _boot_check(image("pico-8p"), "pico-8p")


def _files(flash, chip="rp2040"):
    """{path: bytes} of every file in a flash image's LittleFS (that chip's geometry)."""
    from littlefs import LittleFS, UserContext
    geo = fsimage.GEOMETRY[chip]
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


def test_make_flash_over_the_emulated_usb(image):
    """The one real deploy test, mpremote over the emulated USB. `make flash`
    to a Pico with nothing but MicroPython: it boots to the joining screen,
    and its filesystem holds byte for byte the files of the host-built
    image. Then `make flash` again to a running box made from the host
    image: the board's sha256 finds every file identical, nothing is copied,
    the box boots again, and the deliberate reset resumes nothing silently."""
    from emu import deploy
    usb = image("pico-4p", tools=True)
    log = open(usb + ".log").read()
    assert "verified" in log and "(sha256)" in log, log          # flash.py checked every file
    _boot_check(usb, "pico-4p")
    deployed = _files(open(usb, "rb").read())
    host = _files(open(image("pico-4p"), "rb").read())
    assert sorted(host) == sorted(deployed) and "rp2port/app.mpy" in host
    assert all(host[p] == deployed[p] for p in host)

    with EmulatedPico(flash=image("pico-4p")) as p:
        p.run(1500)
        rc, out, _ = deploy.flash_with_tools(p, "pico-4p")
        assert rc == 0, out
        assert "0 copied" in out and "unchanged" in out and "verified" in out, out
        t = EmuTable("pico-4p", pico=p)
        t.run(1500)
        boots = [e for e in t.events if e["ev"] == "boot"]
        assert boots and boots[-1]["resume"] is False


# -- the Pico 2: its boot, its dials scanned, one deploy over USB ----------------------
DIAL_SELECT = (16, 17, 18)


def _lit_pixels(frame):
    return sum(1 for i in range(0, len(frame), 3) if frame[i] or frame[i + 1] or frame[i + 2])


def _boot_check_pico2(img):
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
        assert _lit_pixels(t.last_frame(1)[:8 * 3]) == 7
        t.press(1)
        t.run(50)
        assert t.kinds()[-1] == "join" and t.events[-1]["p"] == "P2"
        assert _lit_pixels(t.last_frame(0)) > 20
        assert not t.pico.stats()["resets"]


@pytest.mark.rp2350
def test_host_image_boots_pico2_8p_to_the_joining_screen(image):
    _boot_check_pico2(image("pico2-8p"))


@pytest.mark.rp2350
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
    _boot_check_pico2(usb)
    deployed = _files(open(usb, "rb").read(), "rp2350")
    host = _files(open(image("pico2-8p"), "rb").read(), "rp2350")
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
