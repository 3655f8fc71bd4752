#!/usr/bin/env python3
"""The Pico's flash built on the host: the box's files in a LittleFS image.

Usage: python host_tools/fsimage.py uf2 BOARD [-o FILE] [--keep-py] [--firmware FW]
       python host_tools/fsimage.py img BOARD -o FILE [--keep-py] [--firmware FW]

`uf2` writes one UF2 file (RP2040 family, 256-byte payloads) with the
official MicroPython firmware and the box's filesystem, for a builder to drag
onto a Pico in BOOTSEL mode (`make uf2`). `img` writes a raw 2 MiB flash image,
what the emulated Pico boots from (emu/deploy.py).

The files are exactly what `make flash` puts on a Pico: host_tools/flash.py
--dry-run lays them out (its own mpy-cross call) and they are copied from
there, so this tool never keeps its own list of firmware files.

Geometry: MicroPython v1.28.0 RPI_PICO mounts `vfs.VfsLfs2(rp2.Flash(),
progsize=256)` (ports/rp2/modules/_boot.py); rp2.Flash() is the top 1408 KiB
of the 2 MiB flash (MICROPY_HW_FLASH_STORAGE_BYTES, base 2 MiB - 1408 KiB =
0xA0000) in 4096-byte blocks; VfsLfs2's defaults are readsize=32 and
lookahead=32, with block_cycles=100 and cache_size=min(block, 4*max(read,
prog)) = 1024 (extmod/vfs_lfs.c, vfs_lfsx.c). Only block_size, block_count
and name_max are written into the superblock; the emulated firmware mounting
this image unchanged is tested (tests/emu/test_emu_hostimage.py).
"""
from __future__ import annotations

import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FLASH_PY = REPO / "host_tools" / "flash.py"

XIP_BASE = 0x10000000
FLASH_SIZE = 2 * 1024 * 1024
BLOCK_SIZE = 4096
FS_SIZE = 1408 * 1024
FS_OFFSET = FLASH_SIZE - FS_SIZE          # 0xA0000
LFS_CONFIG = dict(block_size=BLOCK_SIZE, block_count=FS_SIZE // BLOCK_SIZE, read_size=32,
                  prog_size=256, lookahead_size=32, block_cycles=100, cache_size=1024,
                  name_max=255)

UF2_MAGIC0, UF2_MAGIC1, UF2_MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
UF2_FLAG_FAMILY = 0x00002000
RP2040_FAMILY = 0xE48BFF56
PAGE = 256


class ImageError(Exception):
    pass


def deploy_tree(board: str, out: Path, keep_py: bool = False) -> None:
    """Fill folder `out` with the files `make flash BOARD` would copy (its
    --dry-run: board check, mpy-cross, layout), nothing else. This flash
    layout is the RP2040's: a board file for another chip is refused."""
    env = dict(os.environ, CHEESEBOX_FLASH_BUILD=str(out))
    cmd = [sys.executable, str(FLASH_PY), board, "--dry-run"] + (["--keep-py"] if keep_py else [])
    p = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise ImageError((p.stdout + p.stderr).strip() or "flash.py --dry-run exited %d" % p.returncode)
    mcu = re.search(r"OK \(\d+ stations, (\w+)\)", p.stdout)
    if mcu and mcu.group(1) != "rp2040":
        raise ImageError("%s is a board for the %s; this image is for the Pico (RP2040)"
                         % (board, mcu.group(1).upper()))


def littlefs_image(tree: Path) -> bytes:
    """The 1408 KiB LittleFS v2 image holding every file under `tree` at the
    same path from the root."""
    from littlefs import LittleFS
    fs = LittleFS(**LFS_CONFIG)
    for d, dirs, files in os.walk(tree):
        dirs.sort()
        rel = Path(d).relative_to(tree).as_posix()
        if rel != ".":
            fs.mkdir(rel)
        for name in sorted(files):
            with open(os.path.join(d, name), "rb") as src, \
                    fs.open(name if rel == "." else rel + "/" + name, "wb") as dst:
                dst.write(src.read())
    data = bytes(fs.context.buffer)
    assert len(data) == FS_SIZE
    return data


def box_filesystem(board: str, keep_py: bool = False) -> bytes:
    with tempfile.TemporaryDirectory(prefix="cheesebox-fs-") as tmp:
        tree = Path(tmp) / "flash"
        deploy_tree(board, tree, keep_py)
        return littlefs_image(tree)


def firmware_pages(path: str) -> list[tuple[int, bytes]]:
    """(flash offset, 256 bytes) of the firmware, from a raw .bin (loaded at
    offset 0) or a .uf2 (its RP2040 blocks as they are)."""
    data = Path(path).read_bytes()
    pages = []
    if path.endswith(".uf2"):
        for o in range(0, len(data) - 511, 512):
            m0, m1, flags, addr, size, _, _, family = struct.unpack_from("<8I", data, o)
            if (m0, m1) != (UF2_MAGIC0, UF2_MAGIC1):
                continue
            if flags & UF2_FLAG_FAMILY and family != RP2040_FAMILY:
                raise ImageError("%s: a UF2 block for family 0x%08x, not RP2040" % (path, family))
            if size != PAGE:
                raise ImageError("%s: a UF2 block of %d bytes (256 expected)" % (path, size))
            pages.append((addr - XIP_BASE, data[o + 32:o + 32 + PAGE]))
    else:
        data += b"\xff" * (-len(data) % PAGE)
        pages = [(o, data[o:o + PAGE]) for o in range(0, len(data), PAGE)]
    if not pages:
        raise ImageError("%s: no firmware in it" % path)
    end = max(a for a, _ in pages) + PAGE
    if min(a for a, _ in pages) < 0 or end > FS_OFFSET:
        raise ImageError("%s: the firmware reaches 0x%x, into the filesystem at 0x%x"
                         % (path, end, FS_OFFSET))
    return pages


def flash_image(firmware: str, fs: bytes) -> bytes:
    """The Pico's 2 MiB flash: the firmware at 0, the filesystem at 0xA0000."""
    img = bytearray(b"\xff" * FLASH_SIZE)
    for addr, page in firmware_pages(firmware):
        img[addr:addr + PAGE] = page
    img[FS_OFFSET:] = fs
    return bytes(img)


def uf2(firmware: str, fs: bytes) -> bytes:
    """One UF2: the firmware's pages, then every page of the filesystem
    region (erased ones too, so no block of an older filesystem survives)."""
    pages = firmware_pages(firmware) + [(FS_OFFSET + o, fs[o:o + PAGE]) for o in range(0, FS_SIZE, PAGE)]
    out = bytearray()
    for n, (addr, page) in enumerate(pages):
        out += struct.pack("<8I", UF2_MAGIC0, UF2_MAGIC1, UF2_FLAG_FAMILY, XIP_BASE + addr,
                           PAGE, n, len(pages), RP2040_FAMILY)
        out += page + b"\x00" * (476 - PAGE) + struct.pack("<I", UF2_MAGIC_END)
    return bytes(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="fsimage.py", description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=("uf2", "img"))
    ap.add_argument("board", help="board name in boards/ (pico-4p) or a board file path")
    ap.add_argument("-o", "--output", help="default: build/cheesebox-BOARD.uf2")
    ap.add_argument("--keep-py", action="store_true", help="the packages' .py sources, not .mpy")
    ap.add_argument("--firmware", help="MicroPython RPI_PICO .uf2 or .bin (default: as make emu finds it)")
    args = ap.parse_args(argv)
    from emu.pico import EmulatorMissing, locate_firmware
    try:
        fw = args.firmware or locate_firmware()
        fs = box_filesystem(args.board, args.keep_py)
        data = uf2(fw, fs) if args.kind == "uf2" else flash_image(fw, fs)
    except (ImageError, EmulatorMissing, OSError) as e:
        print("fsimage: %s" % e, file=sys.stderr)
        return 2
    out = Path(args.output or REPO / "build" / ("cheesebox-%s.%s" % (Path(args.board).stem, args.kind)))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    shown = out.resolve()
    shown = shown.relative_to(REPO) if shown.is_relative_to(REPO) else out
    print("fsimage: wrote %s (%d bytes): MicroPython from %s, the box's files for %s at 0x%08x"
          % (shown, len(data), fw, args.board, XIP_BASE + FS_OFFSET))
    if args.kind == "uf2":
        print("fsimage: hold BOOTSEL while plugging in the Pico, copy it to the RPI-RP2 drive; "
              "it replaces MicroPython and the whole filesystem (saved games too)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
