#!/usr/bin/env python3
"""The Pico's flash built on the host: the box's files in a LittleFS image.

Usage: python host_tools/deploy/fsimage.py uf2 BOARD [-o FILE] [--keep-py] [--firmware FW]
       python host_tools/deploy/fsimage.py img BOARD -o FILE [--keep-py] [--firmware FW]

`uf2` writes one UF2 file (the chip's family, 256-byte payloads) with the
official MicroPython firmware and the box's filesystem, for a builder to drag
onto a Pico (or Pico 2) in BOOTSEL mode (`make uf2`). `img` writes a raw flash
image (2 MiB, 4 MiB on a Pico 2), what the emulated Pico boots from
(emu/deploy.py). The board file's "mcu" picks the chip.

The files are exactly what `make flash` puts on a Pico: host_tools/deploy/flash.py
--dry-run lays them out (its own mpy-cross call) and they are copied from
there, so this tool never keeps its own list of firmware files.

Geometry: MicroPython v1.28.0 mounts `vfs.VfsLfs2(rp2.Flash(), progsize=256)`
(ports/rp2/modules/_boot.py); rp2.Flash() is the top
MICROPY_HW_FLASH_STORAGE_BYTES of the flash (base = PICO_FLASH_SIZE_BYTES -
that, ports/rp2/rp2_flash.c) in 4096-byte blocks (FLASH_SECTOR_SIZE):
- RPI_PICO (RP2040): 1408 KiB (ports/rp2/boards/RPI_PICO/mpconfigboard.h) of
  2 MiB, from 0xA0000, 352 blocks;
- RPI_PICO2 (RP2350): PICO_FLASH_SIZE_BYTES - 1 MiB
  (ports/rp2/boards/RPI_PICO2/mpconfigboard.h) of 4 MiB (pico-sdk's
  boards/pico2.h), so 3 MiB from 0x100000, 768 blocks.
VfsLfs2's defaults are readsize=32 and lookahead=32, with block_cycles=100
and cache_size=min(block, 4*max(read, prog)) = 1024 (extmod/vfs_lfs.c,
vfs_lfsx.c), on both chips. Only block_size, block_count and name_max are
written into the superblock; the emulated firmware mounting these images
unchanged is tested (tests/emu/test_emu_hostimage.py, on both chips).
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

REPO = Path(__file__).resolve().parents[2]
FLASH_PY = REPO / "host_tools" / "deploy" / "flash.py"

XIP_BASE = 0x10000000
BLOCK_SIZE = 4096
PAGE = 256

UF2_MAGIC0, UF2_MAGIC1, UF2_MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
UF2_FLAG_FAMILY = 0x00002000
RP2040_FAMILY = 0xE48BFF56
RP2350_ARM_S_FAMILY = 0xE48BFF59
# picotool puts one block of this family first in an RP2350 UF2 (the boot
# ROM's erratum RP2350-E10); it is not a page of the flash
ABSOLUTE_FAMILY = 0xE48BFF57


class Geometry:
    """A chip's flash as MicroPython v1.28.0 lays it out (module docstring)."""

    def __init__(self, chip, name, flash_size, fs_size, family):
        self.chip, self.name, self.family = chip, name, family
        self.flash_size, self.fs_size = flash_size, fs_size
        self.fs_offset = flash_size - fs_size
        self.lfs_config = dict(block_size=BLOCK_SIZE, block_count=fs_size // BLOCK_SIZE,
                               read_size=32, prog_size=256, lookahead_size=32,
                               block_cycles=100, cache_size=1024, name_max=255)


GEOMETRY = {
    "rp2040": Geometry("rp2040", "Pico (RP2040)", 2 * 1024 * 1024, 1408 * 1024, RP2040_FAMILY),
    "rp2350": Geometry("rp2350", "Pico 2 (RP2350)", 4 * 1024 * 1024, 3 * 1024 * 1024,
                       RP2350_ARM_S_FAMILY),
}
# the Pico's, as names of their own (the RP2040 tests use them)
FLASH_SIZE = GEOMETRY["rp2040"].flash_size
FS_SIZE = GEOMETRY["rp2040"].fs_size
FS_OFFSET = GEOMETRY["rp2040"].fs_offset          # 0xA0000
LFS_CONFIG = GEOMETRY["rp2040"].lfs_config


class ImageError(Exception):
    pass


def deploy_tree(board: str, out: Path, keep_py: bool = False) -> str:
    """Fill folder `out` with the files `make flash BOARD` would copy (its
    --dry-run: board check, mpy-cross, layout), nothing else. Returns the
    board file's "mcu" (rp2040 or rp2350), as flash.py read it."""
    env = dict(os.environ, CHEESEBOX_FLASH_BUILD=str(out))
    cmd = [sys.executable, str(FLASH_PY), board, "--dry-run"] + (["--keep-py"] if keep_py else [])
    p = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise ImageError((p.stdout + p.stderr).strip() or "flash.py --dry-run exited %d" % p.returncode)
    mcu = re.search(r"OK \(\d+ stations, (\w+)\)", p.stdout)
    chip = mcu.group(1) if mcu else "rp2040"
    if chip not in GEOMETRY:
        raise ImageError("%s is a board for the %s: no flash layout known for it" % (board, chip))
    return chip


def littlefs_image(tree: Path, chip: str = "rp2040") -> bytes:
    """The chip's LittleFS v2 image (1408 KiB, 3 MiB on the RP2350) holding
    every file under `tree` at the same path from the root."""
    from littlefs import LittleFS
    geo = GEOMETRY[chip]
    fs = LittleFS(**geo.lfs_config)
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
    assert len(data) == geo.fs_size
    return data


def board_filesystem(board: str, keep_py: bool = False) -> tuple[str, bytes]:
    """(chip, the board's filesystem in that chip's geometry)."""
    with tempfile.TemporaryDirectory(prefix="cheesebox-fs-") as tmp:
        tree = Path(tmp) / "flash"
        chip = deploy_tree(board, tree, keep_py)
        return chip, littlefs_image(tree, chip)


def box_filesystem(board: str, keep_py: bool = False, chip: str = "rp2040") -> bytes:
    """The board's filesystem for `chip`; a board for another chip is refused."""
    mcu, fs = board_filesystem(board, keep_py)
    if mcu != chip:
        raise ImageError("%s is a board for the %s, not the %s"
                         % (board, GEOMETRY[mcu].name, GEOMETRY[chip].name))
    return fs


def _uf2_blocks(path: str):
    data = Path(path).read_bytes()
    for o in range(0, len(data) - 511, 512):
        m0, m1, flags, addr, size, _, _, family = struct.unpack_from("<8I", data, o)
        if (m0, m1) == (UF2_MAGIC0, UF2_MAGIC1):
            yield flags, addr, size, family, data[o + 32:o + 32 + size]


def firmware_pages(path: str, chip: str = "rp2040") -> list[tuple[int, bytes]]:
    """(flash offset, 256 bytes) of the firmware, from a raw .bin (loaded at
    offset 0) or a .uf2 (its blocks of the chip's family as they are)."""
    geo = GEOMETRY[chip]
    pages = []
    if path.endswith(".uf2"):
        for flags, addr, size, family, payload in _uf2_blocks(path):
            if flags & UF2_FLAG_FAMILY and family == ABSOLUTE_FAMILY and chip == "rp2350":
                continue
            if flags & UF2_FLAG_FAMILY and family != geo.family:
                raise ImageError("%s: a UF2 block for family 0x%08x, not the %s's (0x%08x)"
                                 % (path, family, geo.name, geo.family))
            if size != PAGE:
                raise ImageError("%s: a UF2 block of %d bytes (256 expected)" % (path, size))
            pages.append((addr - XIP_BASE, payload))
    else:
        data = Path(path).read_bytes()
        data += b"\xff" * (-len(data) % PAGE)
        pages = [(o, data[o:o + PAGE]) for o in range(0, len(data), PAGE)]
    if not pages:
        raise ImageError("%s: no firmware in it" % path)
    end = max(a for a, _ in pages) + PAGE
    if min(a for a, _ in pages) < 0 or end > geo.fs_offset:
        raise ImageError("%s: the firmware reaches 0x%x, into the filesystem at 0x%x"
                         % (path, end, geo.fs_offset))
    return pages


def flash_image(firmware: str, fs: bytes, chip: str = "rp2040") -> bytes:
    """The chip's whole flash: the firmware at 0, the filesystem at its offset
    (0xA0000 of 2 MiB; 0x100000 of 4 MiB on the RP2350)."""
    geo = GEOMETRY[chip]
    if len(fs) != geo.fs_size:
        raise ImageError("a filesystem of %d bytes, the %s's is %d" % (len(fs), geo.name, geo.fs_size))
    img = bytearray(b"\xff" * geo.flash_size)
    for addr, page in firmware_pages(firmware, chip):
        img[addr:addr + PAGE] = page
    img[geo.fs_offset:] = fs
    return bytes(img)


def uf2(firmware: str, fs: bytes, chip: str = "rp2040") -> bytes:
    """One UF2: the firmware's pages, then every page of the filesystem
    region (erased ones too, so no block of an older filesystem survives).
    An RP2350 firmware UF2's leading absolute-family block (picotool's, for
    erratum E10) stays first, as picotool made it."""
    geo = GEOMETRY[chip]
    if len(fs) != geo.fs_size:
        raise ImageError("a filesystem of %d bytes, the %s's is %d" % (len(fs), geo.name, geo.fs_size))
    blocks = []
    if chip == "rp2350" and firmware.endswith(".uf2"):
        blocks = [(addr - XIP_BASE, payload, family) for flags, addr, _, family, payload
                  in _uf2_blocks(firmware) if flags & UF2_FLAG_FAMILY and family == ABSOLUTE_FAMILY]
    blocks += [(a, p, geo.family) for a, p in firmware_pages(firmware, chip)]
    blocks += [(geo.fs_offset + o, fs[o:o + PAGE], geo.family) for o in range(0, geo.fs_size, PAGE)]
    out = bytearray()
    for n, (addr, page, family) in enumerate(blocks):
        out += struct.pack("<8I", UF2_MAGIC0, UF2_MAGIC1, UF2_FLAG_FAMILY, XIP_BASE + addr,
                           len(page), n, len(blocks), family)
        out += page + b"\x00" * (476 - len(page)) + struct.pack("<I", UF2_MAGIC_END)
    return bytes(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="fsimage.py", description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=("uf2", "img"))
    ap.add_argument("board", help="board name in boards/ (pico-4p) or a board file path")
    ap.add_argument("-o", "--output", help="default: build/cheesebox-BOARD.uf2")
    ap.add_argument("--keep-py", action="store_true", help="the packages' .py sources, not .mpy")
    ap.add_argument("--firmware", help="MicroPython RPI_PICO (RPI_PICO2 for an rp2350 board) .uf2 or "
                    ".bin (default: as make emu finds it)")
    args = ap.parse_args(argv)
    from host_tools.deploy.micropython_files import EmulatorMissing, locate_firmware
    try:
        chip, fs = board_filesystem(args.board, args.keep_py)
        fw = args.firmware or locate_firmware(chip)
        data = uf2(fw, fs, chip) if args.kind == "uf2" else flash_image(fw, fs, chip)
    except (ImageError, EmulatorMissing, OSError) as e:
        print("fsimage: %s" % e, file=sys.stderr)
        return 2
    out = Path(args.output or REPO / "build" / ("cheesebox-%s.%s" % (Path(args.board).stem, args.kind)))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    shown = out.resolve()
    shown = shown.relative_to(REPO) if shown.is_relative_to(REPO) else out
    geo = GEOMETRY[chip]
    print("fsimage: wrote %s (%d bytes): MicroPython from %s, the box's files for %s at 0x%08x"
          % (shown, len(data), fw, args.board, XIP_BASE + geo.fs_offset))
    if args.kind == "uf2":
        pico, drive = ("Pico 2", "RP2350") if chip == "rp2350" else ("Pico", "RPI-RP2")
        print("fsimage: hold BOOTSEL while plugging in the %s, copy it to the %s drive; "
              "it replaces MicroPython and the whole filesystem (saved games too)" % (pico, drive))
    return 0


if __name__ == "__main__":
    sys.exit(main())
