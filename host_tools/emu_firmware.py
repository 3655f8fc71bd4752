#!/usr/bin/env python3
"""`make emu-firmware`: the two files the emulated Pico runs, for a fresh clone.

1. MicroPython v1.28.0 for RPI_PICO, the official UF2 from micropython.org.
   micropython.org publishes no hash for it: it is checked to be an RP2040
   UF2 of MicroPython v1.28.0 (family id, load address, version string), and
   its sha256 is printed, not compared.
2. The RP2040 B1 boot ROM: Raspberry Pi's pico-bootrom-rp2040 release `b1`
   ships it as b1.elf; the 16 KiB ROM is taken from its loadable segments and
   its sha256 must be the one ../shared/emulator/README.md gives.

Files already found where emu/pico.py looks ($CHEESEBOX_EMU_FIRMWARE /
$CHEESEBOX_EMU_BOOTROM, ../shared/emulator/, the cache) are checked, not
fetched. Downloads go to the cache (~/.cache/cheesebox/emulator, or
$CHEESEBOX_CACHE), which `make clean` leaves alone. Offline, it says what to
download from where and where to put it, and exits 1; a file put there by
hand is checked on the next run (b1.elf is turned into the ROM then).
"""
from __future__ import annotations

import hashlib
import os
import struct
import sys
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
from emu.pico import BOOTROM_NAME, CACHE, OFFICIAL_FIRMWARE_NAME, firmware_and_bootrom

FIRMWARE_URL = "https://micropython.org/resources/firmware/" + OFFICIAL_FIRMWARE_NAME
FIRMWARE_PAGE = "https://micropython.org/download/RPI_PICO/"
BOOTROM_ELF_URL = "https://github.com/raspberrypi/pico-bootrom-rp2040/releases/download/b1/b1.elf"
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
BOOTROM_SIZE = 16 * 1024
# ../shared/emulator's firmware: v1.28.0 built from the tag (not the official download)
SHARED_BUILD_SHA256 = "94e3212c19ce09f45e5198dfa3a876d84f478d9630647be3c5dae6166a282b68"


class Bad(Exception):
    pass


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def rom_from_elf(elf: bytes) -> bytes:
    """The 16 KiB at address 0 from an ELF32 file's PT_LOAD segments."""
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        raise Bad("not a 32-bit little-endian ELF file")
    phoff, = struct.unpack_from("<I", elf, 28)
    phentsize, phnum = struct.unpack_from("<HH", elf, 42)
    rom = bytearray(BOOTROM_SIZE)
    found = False
    for i in range(phnum):
        ptype, offset, _, paddr, filesz = struct.unpack_from("<5I", elf, phoff + i * phentsize)
        if ptype == 1 and paddr < BOOTROM_SIZE and filesz:
            n = min(filesz, BOOTROM_SIZE - paddr)
            rom[paddr:paddr + n] = elf[offset:offset + n]
            found = True
    if not found:
        raise Bad("no loadable segment at address 0")
    return bytes(rom)


def check_bootrom(data: bytes) -> str:
    if sha256(data) != BOOTROM_SHA256:
        raise Bad("sha256 %s, not the RP2040 B1 boot ROM's %s" % (sha256(data), BOOTROM_SHA256))
    return "sha256 verified (%s...)" % BOOTROM_SHA256[:16]


def check_firmware(path: str) -> str:
    """What can be checked without a published hash."""
    import fsimage
    try:
        pages = fsimage.firmware_pages(path)        # RP2040 family, 256-byte blocks, below the FS
    except fsimage.ImageError as e:
        raise Bad(str(e))
    body = b"".join(p for _, p in sorted(pages))
    if min(a for a, _ in pages) != 0 or b"v1.28.0" not in body or b"RP2040" not in body:
        raise Bad("not MicroPython v1.28.0 for the RP2040 (no 'v1.28.0'/'RP2040' in it, or not at 0x10000000)")
    h = sha256(Path(path).read_bytes())
    if h == SHARED_BUILD_SHA256:
        return "sha256 %s... (the v1.28.0 build of ../shared/emulator)" % h[:16]
    return ("RP2040 UF2 of MicroPython v1.28.0; sha256 %s NOT verified: micropython.org publishes "
            "no hash for its downloads" % h)


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read()


def main() -> int:
    fw, rom = firmware_and_bootrom()
    cache = Path(CACHE)
    problems = []

    # 1. the firmware
    where = "$CHEESEBOX_EMU_FIRMWARE" if os.environ.get("CHEESEBOX_EMU_FIRMWARE") else None
    fw_cache = cache / OFFICIAL_FIRMWARE_NAME
    try:
        if not os.path.isfile(fw):
            print("emu-firmware: downloading %s ..." % FIRMWARE_URL, flush=True)
            data = fetch(FIRMWARE_URL)
            cache.mkdir(parents=True, exist_ok=True)
            tmp = fw_cache.with_suffix(".part")
            tmp.write_bytes(data)
            try:
                note = check_firmware(str(tmp))
            except Bad:
                tmp.unlink()
                raise
            tmp.replace(fw_cache)
            print("emu-firmware: MicroPython: downloaded to %s: %s" % (fw_cache, note))
        else:
            print("emu-firmware: MicroPython: already there: %s%s: %s"
                  % (fw, " (%s)" % where if where else "", check_firmware(fw)))
    except Bad as e:
        problems.append("MicroPython firmware %s: %s (replace or delete it, run again)" % (fw, e))
    except OSError as e:
        problems.append(
            "MicroPython v1.28.0 for RPI_PICO: cannot download it (%s).\n"
            "  Download %s\n  (the v1.28.0 .uf2 on %s) and save it as\n  %s\n"
            "  then run `make emu-firmware` again: micropython.org publishes no hash for it, so it "
            "checks\n  that it is MicroPython v1.28.0 for the RP2040 and prints its sha256"
            % (getattr(e, "reason", e), FIRMWARE_URL, FIRMWARE_PAGE, fw_cache))

    # 2. the boot ROM
    where = "$CHEESEBOX_EMU_BOOTROM" if os.environ.get("CHEESEBOX_EMU_BOOTROM") else None
    rom_cache, elf_cache = cache / BOOTROM_NAME, cache / "b1.elf"
    try:
        if os.path.isfile(rom):
            print("emu-firmware: boot ROM: already there: %s%s: %s"
                  % (rom, " (%s)" % where if where else "", check_bootrom(Path(rom).read_bytes())))
        else:
            if elf_cache.is_file():
                elf = elf_cache.read_bytes()
            else:
                print("emu-firmware: downloading %s ..." % BOOTROM_ELF_URL, flush=True)
                elf = fetch(BOOTROM_ELF_URL)
            data = rom_from_elf(elf)
            note = check_bootrom(data)
            cache.mkdir(parents=True, exist_ok=True)
            rom_cache.write_bytes(data)
            print("emu-firmware: boot ROM: %s (from b1.elf): %s" % (rom_cache, note))
    except Bad as e:
        problems.append("RP2040 B1 boot ROM: %s" % e)
    except OSError as e:
        problems.append(
            "RP2040 B1 boot ROM: cannot download it (%s).\n"
            "  Download %s\n  (Raspberry Pi's pico-bootrom-rp2040 release b1) and save it as\n  %s\n"
            "  then run `make emu-firmware` again: it takes the 16 KiB ROM out of it and checks "
            "its sha256\n  (%s)" % (getattr(e, "reason", e), BOOTROM_ELF_URL, elf_cache, BOOTROM_SHA256))

    if problems:
        print("emu-firmware: the emulated Pico still needs:\n" + "\n".join(
            "%d. %s" % (i + 1, p) for i, p in enumerate(problems)), file=sys.stderr)
        return 1
    print("emu-firmware: ready: `make emu` and the emulated-Pico tests will find both files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
