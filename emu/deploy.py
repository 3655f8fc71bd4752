"""Flash images of the emulated Pico, made with the real deploy tools.

`make flash` (host_tools/flash.py: mpy-cross, mpremote over the emulated USB
serial port, sha256 verify, reset) deploys to a freshly powered emulated Pico;
its flash is then saved as an image in build/emu/, and every emulated-Pico
test powers up from a copy of that image, as a box boots from its own flash.
Images are cached by a hash of everything that goes into them.
"""
import hashlib
import os
import subprocess
import sys

from emu.pico import HERE, ROOT, EmulatedPico, chip_of, locate

CACHE = os.path.join(ROOT, "build", "emu")


def _digest(board, keep_py):
    h = hashlib.sha256()
    chip = chip_of(board)
    fw, rom = locate(chip)
    paths = [fw, rom, os.path.join(ROOT, "boards", board + ".json"),
             os.path.join(ROOT, "host_tools", "flash.py")]
    paths += ([os.path.join(HERE, "rp2350", f) for f in ("pico2350.mjs", "fixes.mjs")]
              if chip == "rp2350" else [os.path.join(HERE, "pico.mjs")])
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
    return h.hexdigest()[:16]


def flash_with_tools(pico, board, keep_py=False, extra=()):
    """Run host_tools/flash.py against a running emulated Pico; returns
    (exit code, output, wall seconds)."""
    import time
    os.makedirs(CACHE, exist_ok=True)
    port = pico.serve()
    cmd = [sys.executable, os.path.join(ROOT, "host_tools", "flash.py"), board,
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


def image(board, keep_py=False):
    """Path of a flash image with the firmware and boards/BOARD.json deployed
    by `make flash` (built once, then cached). Test workers running side by
    side take turns (a file lock): build/flash/ is one folder."""
    import fcntl
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, "%s-%s-%s.img" % (board, "py" if keep_py else "mpy",
                                                  _digest(board, keep_py)))
    with open(os.path.join(CACHE, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not os.path.exists(path):
                _build(board, keep_py, path)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return path


def _build(board, keep_py, path):
    # images of older firmware for this board are of no more use (2 MiB each, 4 on a Pico 2)
    kind = "%s-%s-" % (board, "py" if keep_py else "mpy")
    for f in os.listdir(CACHE):
        if f.startswith(kind):
            os.remove(os.path.join(CACHE, f))
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
