"""Boot from the Pico's own flash: images built on the host, and
one real `make flash` through mpremote over the emulated USB."""
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


def _files(flash):
    """{path: bytes} of every file in a flash image's LittleFS."""
    from littlefs import LittleFS, UserContext
    ctx = UserContext(fsimage.FS_SIZE)
    ctx.buffer[:] = flash[fsimage.FS_OFFSET:]
    fs = LittleFS(context=ctx, mount=False, **fsimage.LFS_CONFIG)
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
