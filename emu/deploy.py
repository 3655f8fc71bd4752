"""Flash images of the emulated Pico (and Pico 2): the box's files on its own flash.

By default an image is built on the host (host_tools/deploy/fsimage.py: the files
`make flash --dry-run` lays out, in a LittleFS image at the filesystem's
offset of the firmware's flash, in the geometry of the board's chip) in about
a second, where a deploy through the emulated USB takes 40-110 s. With tools=True, `make flash` itself
(host_tools/deploy/flash.py: mpy-cross, mpremote over the emulated USB serial port,
sha256 verify, reset) deploys to a freshly powered emulated Pico and its flash
is saved. Every emulated-Pico test powers up from a copy of an image, as a box
boots from its own flash. Images are cached in build/emu/ by a hash of
everything that goes into them.
"""
import hashlib
import os
import subprocess
import sys

from emu.pico import CHIPS, HERE, ROOT, EmulatedPico, chip_of, locate

CACHE = os.path.join(ROOT, "build", "emu")


def _digest(board, keep_py, tools, chip):
    h = hashlib.sha256()
    fw, rom = locate(chip)
    paths = [fw, rom, os.path.join(ROOT, "boards", board + ".json"),
             os.path.join(ROOT, "host_tools", "deploy", "flash.py"),
             os.path.join(ROOT, "host_tools", "deploy", "bakedicons.py")]
    if tools:       # the emulator that ran the deploy
        paths += [os.path.join(HERE, f) for f in ("harness.mjs",) + CHIPS[chip]["modules"]]
    else:
        paths.append(os.path.join(ROOT, "host_tools", "deploy", "fsimage.py"))
    # every file of firmware/: main.py, each package's modules and data files
    # (cheesonomics/cards.json), a superset of what flash.py deploys
    for d, dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        paths += [os.path.join(d, f) for f in sorted(files) if not f.endswith(".pyc")]
    for p in paths:
        h.update(p.encode())
        with open(p, "rb") as f:
            h.update(f.read())
    h.update(b"py" if keep_py else b"mpy")
    h.update(b"usb" if tools else b"host")
    h.update(chip.encode())
    return h.hexdigest()[:16]


def flash_with_tools(pico, board, keep_py=False, extra=()):
    """Run host_tools/deploy/flash.py against a running emulated Pico; returns
    (exit code, output, wall seconds)."""
    import time
    os.makedirs(CACHE, exist_ok=True)
    port = pico.serve()
    cmd = [sys.executable, os.path.join(ROOT, "host_tools", "deploy", "flash.py"), board,
           "--port", "socket://127.0.0.1:%d" % port]
    if keep_py:
        cmd.append("--keep-py")
    cmd += list(extra)
    t0 = time.time()
    env = dict(os.environ)
    env["CHEESEBOX_FLASH_BUILD"] = os.path.join(CACHE, "flash-%d" % os.getpid())
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    wall = time.time() - t0
    pico.free(False)
    return p.returncode, p.stdout + p.stderr, wall


def builds_on_host(chip):
    """Whether image() builds that chip's images on the host (else it deploys
    with `make flash` over the emulated USB): every chip whose filesystem
    geometry host_tools/deploy/fsimage.py knows, the Pico's and the Pico 2's."""
    from host_tools.deploy import fsimage
    return chip in fsimage.GEOMETRY


def image(board, keep_py=False, tools=False, chip=None):
    """Path of a flash image with the firmware and boards/BOARD.json's box
    files, built on the host (or, tools=True, deployed by `make flash` over
    the emulated USB); built once, then cached. Test workers running side by
    side take turns (a file lock). The board file's "mcu" picks the chip;
    `chip` names another: that chip's firmware and box files, with this
    board file copied over its own (the wrong board file on a box), host-built."""
    import fcntl
    mcu = chip_of(board)
    chip = chip or mcu
    tools = (tools or not builds_on_host(chip)) and chip == mcu
    os.makedirs(CACHE, exist_ok=True)
    kind = "%s-%s%s-%s-" % (board, "" if chip == mcu else chip + "-", "py" if keep_py else "mpy",
                            "usb" if tools else "host")
    path = os.path.join(CACHE, kind + _digest(board, keep_py, tools, chip) + ".img")
    # one lock per way of building: a worker wanting a host image (a second)
    # does not wait for another's deploy over the emulated USB (~40 s)
    with open(os.path.join(CACHE, ".lock-" + ("usb" if tools else "host")), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not os.path.exists(path):
                # images of older firmware for this board are of little use
                # (2 MiB each, 4 on a Pico 2): the two newest stay, as a test
                # run still going on the firmware of a minute ago uses them
                old = sorted((f for f in os.listdir(CACHE) if f.startswith(kind)),
                             key=lambda f: os.path.getmtime(os.path.join(CACHE, f)))
                for f in old[:-2]:
                    os.remove(os.path.join(CACHE, f))
                if tools:
                    _build(board, keep_py, path)
                else:
                    _build_on_host(board, keep_py, path, chip)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return path


def _other_chips_filesystem(board, keep_py, chip):
    """The box files of a board for `chip`, with boards/BOARD.json as board.json."""
    import shutil
    import tempfile
    from pathlib import Path
    from host_tools.deploy import fsimage
    own = next(b[:-5] for b in sorted(os.listdir(os.path.join(ROOT, "boards")))
               if b.endswith(".json") and chip_of(b[:-5]) == chip)
    with tempfile.TemporaryDirectory(prefix="cheesebox-fs-") as tmp:
        tree = Path(tmp) / "flash"
        fsimage.deploy_tree(own, tree, keep_py)
        shutil.copyfile(os.path.join(ROOT, "boards", board + ".json"), tree / "board.json")
        return fsimage.littlefs_image(tree, chip)


def _build_on_host(board, keep_py, path, chip):
    import time
    from host_tools.deploy import fsimage
    t0 = time.time()
    fs = (fsimage.box_filesystem(board, keep_py, chip) if chip == chip_of(board)
          else _other_chips_filesystem(board, keep_py, chip))
    data = fsimage.flash_image(locate(chip)[0], fs, chip)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    with open(path + ".log", "w") as f:
        f.write("host image built in %.1f s (host_tools/deploy/fsimage.py)\n" % (time.time() - t0))


def _build(board, keep_py, path):
    with EmulatedPico(chip=chip_of(board)) as pico:
        pico.run(300)
        rc, out, wall = flash_with_tools(pico, board, keep_py)
        if rc != 0:
            raise RuntimeError("make flash to the emulated Pico failed (exit %d):\n%s" % (rc, out))
        # the tools reset the board: let it come up, then power off (the
        # image is the flash as the tools left it)
        pico.run(100)
        tmp = path + ".tmp"
        pico.save_flash(tmp)
        os.replace(tmp, path)
        with open(path + ".log", "w") as f:
            f.write("flash wall %.1f s\n%s" % (wall, out))
