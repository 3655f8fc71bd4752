#!/usr/bin/env python3
"""`make emu-firmware`: the files the emulated Pico and Pico 2 run, for a fresh clone.

Usage: python -m emu.firmware [--chip rp2040|rp2350 ...] [FILE ...]
       (make emu-firmware FILES="FILE ...")

FILE: a file downloaded by hand, whatever its name, told apart by what is
in it (ACCEPTED lists the forms): MicroPython v1.28.0 for RPI_PICO or
RPI_PICO2 as the official .uf2 or a raw .bin; the RP2040 B1 boot ROM as
b1.elf or the raw 16 KiB; the RP2350 A2 boot ROM as the raw 32 KiB;
rp2350js at the pinned commit as GitHub's source archive (.tar.gz) or an
npm tarball (.tgz). Each is checked and copied into the cache, as is a file
a CHEESEBOX_EMU_* variable names (make emu-firmware CHEESEBOX_EMU_FIRMWARE=...),
so that later commands (make emu, make uf2, make bench, the tests) find it
there with no variable.

The Pico (RP2040, rp2040js comes from the npm registry, `make emu-deps`):
1. MicroPython v1.28.0 for RPI_PICO, the official UF2 from micropython.org.
   micropython.org publishes no hash for it: it is checked to be an RP2040
   UF2 of MicroPython v1.28.0 (family id, load address, version string), and
   its sha256 is printed, not compared.
2. The RP2040 B1 boot ROM: Raspberry Pi's pico-bootrom-rp2040 release `b1`
   ships it as b1.elf; the 16 KiB ROM is taken from its loadable segments and
   its sha256 must be BOOTROM_SHA256 (the B1 ROM's).

The Pico 2 (RP2350):
3. rp2350js, which is not on the npm registry: its public repository's
   archive at the pinned commit (c1570/rp2350js 10f7ebf6, 2.0.1), the
   project's fix of two CPU instruction groups applied to its sources
   (emu/rp2350js_fix.py), built and packed with npm (its build tools
   come from the registry) into an npm tarball in the cache, which `make
   emu-deps` installs. A tarball already found ($CHEESEBOX_EMU2350_PACKAGE,
   the test machines' folder) is checked, not rebuilt.
4. MicroPython v1.28.0 for RPI_PICO2, the official UF2 from micropython.org
   (checked as 1., for the RP2350: family rp2350-arm-s).
5. The RP2350 A2 boot ROM: the one rp2350js embeds
   (dist/cjs/bootroms/bootrom-rp2350-a2.js in the tarball), its sha256 the
   one ../shared/emulator/rp2350/README.md gives.

Each chip's files are fetched by one function over the chip table
(host_tools/deploy/micropython_files.py CHIPS: names, folders, URLs,
hashes). Files already found where emu/pico.py looks ($CHEESEBOX_EMU_FIRMWARE /
$CHEESEBOX_EMU_BOOTROM, $CHEESEBOX_EMU2350_FIRMWARE / $CHEESEBOX_EMU2350_BOOTROM,
the project's test machines' folder ($CHEESEBOX_EMU_SHARED), the cache) are
checked, not fetched.
Downloads go to the cache (~/.cache/cheesebox/emulator, the Pico 2's in its
rp2350/, or $CHEESEBOX_CACHE), which `make clean` leaves alone. Offline, it
says what to download from where and where to put it, and exits 1; a file
put there by hand is checked on the next run (b1.elf is turned into the ROM,
the rp2350js archive is fixed, built and packed then).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

from emu.pico import CHIPS, firmware_and_bootrom, package
from host_tools.deploy import fsimage
from emu import rp2350js_fix

REPO = Path(__file__).resolve().parent.parent

# the RP2040 B1 boot ROM comes in Raspberry Pi's release as an ELF file;
# the RP2350's comes out of rp2350js (CHIPS[chip]["package"])
BOOTROM_ELF_URL = "https://github.com/raspberrypi/pico-bootrom-rp2040/releases/download/b1/b1.elf"
BOOTROM_ELF_NAME = "b1.elf"
RP2350JS_COMMIT = rp2350js_fix.COMMIT
RP2350JS_ARCHIVE_URL = "https://github.com/c1570/rp2350js/archive/%s.tar.gz" % RP2350JS_COMMIT
RP2350JS_ARCHIVE_NAME = "rp2350js-%s.tar.gz" % RP2350JS_COMMIT[:8]
RP2350JS_BOOTROM_JS = "package/dist/cjs/bootroms/bootrom-rp2350-a2.js"


class Bad(Exception):
    pass


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def rom_from_elf(elf: bytes, size: int = CHIPS["rp2040"]["bootrom_size"]) -> bytes:
    """The ROM's `size` bytes at address 0 from an ELF32 file's PT_LOAD segments."""
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        raise Bad("not a 32-bit little-endian ELF file")
    phoff, = struct.unpack_from("<I", elf, 28)
    phentsize, phnum = struct.unpack_from("<HH", elf, 42)
    rom = bytearray(size)
    found = False
    for i in range(phnum):
        ptype, offset, _, paddr, filesz = struct.unpack_from("<5I", elf, phoff + i * phentsize)
        if ptype == 1 and paddr < size and filesz:
            n = min(filesz, size - paddr)
            rom[paddr:paddr + n] = elf[offset:offset + n]
            found = True
    if not found:
        raise Bad("no loadable segment at address 0")
    return bytes(rom)


def check_bootrom(data: bytes, chip: str = "rp2040") -> str:
    c = CHIPS[chip]
    if len(data) != c["bootrom_size"] or sha256(data) != c["bootrom_sha256"]:
        raise Bad("sha256 %s (%d bytes), not the %s's %s" % (sha256(data), len(data), c["rom"], c["bootrom_sha256"]))
    return "sha256 verified (%s...)" % c["bootrom_sha256"][:16]


def check_firmware(path: str, chip: str = "rp2040") -> str:
    """What can be checked without a published hash."""
    mcu = chip.upper()
    try:
        # the chip's UF2 family, 256-byte blocks, below the filesystem
        pages = fsimage.firmware_pages(path, chip)
    except fsimage.ImageError as e:
        raise Bad(str(e))
    body = b"".join(p for _, p in sorted(pages))
    if min(a for a, _ in pages) != 0 or b"v1.28.0" not in body or mcu.encode() not in body:
        raise Bad("not MicroPython v1.28.0 for the %s (no 'v1.28.0'/'%s' in it, or not at 0x10000000)"
                  % (mcu, mcu))
    h = sha256(Path(path).read_bytes())
    if h == CHIPS[chip]["firmware_sha256"]:
        return "sha256 %s... (the v1.28.0 build the project's tests were checked with)" % h[:16]
    return ("%s %s of MicroPython v1.28.0; sha256 %s NOT verified: micropython.org publishes "
            "no hash for its downloads" % (mcu, "UF2" if path.endswith(".uf2") else "image", h))


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read()


def _download(url: str, dest: Path, check) -> str:
    """Fetch url to dest (through a .part file), check(path) -> note, or raise."""
    print("emu-firmware: downloading %s ..." % url, flush=True)
    data = fetch(url)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    tmp.write_bytes(data)
    try:
        note = check(str(tmp))
    except Bad:
        tmp.unlink()
        raise
    tmp.replace(dest)
    return note


def check_package(path: str) -> str:
    """An npm tarball of rp2350js 2.0.1 with the A2 boot ROM in it."""
    try:
        with tarfile.open(path, "r:gz") as t:
            meta = t.extractfile("package/package.json").read().decode()
            t.getmember(RP2350JS_BOOTROM_JS)
    except (tarfile.TarError, KeyError, OSError, AttributeError) as e:
        raise Bad("not an npm tarball of rp2350js (%s)" % e)
    if not re.search(r'"name":\s*"rp2350js"', meta) or not re.search(r'"version":\s*"2\.0\.1"', meta):
        raise Bad("not rp2350js 2.0.1 (its package.json)")
    return "rp2350js 2.0.1 (npm tarball)"


def rom_from_package(path: str) -> bytes:
    """The RP2350 A2 boot ROM rp2350js embeds: the Uint32Array of
    dist/cjs/bootroms/bootrom-rp2350-a2.js, as little-endian words."""
    with tarfile.open(path, "r:gz") as t:
        js = t.extractfile(RP2350JS_BOOTROM_JS).read().decode()
    body = js[js.index("new Uint32Array(["):]
    body = body[:body.index("])")]
    words = [int(w, 16) for w in re.findall(r"0x([0-9a-fA-F]{1,8})", body)]
    return struct.pack("<%dI" % len(words), *words)


def build_package(archive: Path, dest: Path) -> str:
    """rp2350js from its repository's archive: the project's fix, npm ci,
    npm run build, npm pack, into dest."""
    if shutil.which("npm") is None:
        raise Bad("npm is needed to build rp2350js from %s (Node.js 20)" % archive)
    with tempfile.TemporaryDirectory(prefix="cheesebox-rp2350js-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        with tarfile.open(archive, "r:gz") as t:
            top = {m.name.split("/")[0] for m in t.getmembers()}
            if len(top) != 1:
                raise Bad("%s: not one folder (a GitHub archive is)" % archive)
            t.extractall(tmp, filter="data")
        root = Path(tmp) / top.pop()
        try:
            for line in rp2350js_fix.apply(root):
                print("emu-firmware: rp2350js fix: %s" % line)
        except rp2350js_fix.FixError as e:
            raise Bad(str(e))
        log = dest.parent / "rp2350js-build.log"
        dest.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "w") as out:
            for cmd in (["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                        ["npm", "run", "build"],
                        ["npm", "pack", "--pack-destination", tmp]):
                print("emu-firmware: %s (in the rp2350js sources; log: %s)" % (" ".join(cmd[:3]), log),
                      flush=True)
                if subprocess.run(cmd, cwd=root, stdout=out, stderr=subprocess.STDOUT).returncode:
                    raise Bad("`%s` failed building rp2350js: see %s" % (" ".join(cmd), log))
        packed = Path(tmp) / "rp2350js-2.0.1.tgz"
        note = check_package(str(packed))
        shutil.move(str(packed), dest)
    return note + ", built with the project's fix"


def _where(var: str) -> str:
    """ " ($VAR)" when that variable named the file, else ""."""
    return " ($%s)" % var if os.environ.get(var) else ""


def emulator_files(chip: str, problems: list) -> None:
    """One chip's files (CHIPS[chip]): its emulator package when it is not on
    the npm registry, its MicroPython firmware, its boot ROM; each found and
    checked, or fetched, or what is missing added to problems."""
    fw, rom = firmware_and_bootrom(chip)
    pkg = _package(chip, problems) if CHIPS[chip]["package"] else None
    _firmware(chip, fw, problems)
    _bootrom(chip, rom, pkg, problems)


def _package(chip: str, problems: list) -> str:
    """rp2350js: found and checked, or built from its repository's archive
    at the pinned commit (downloaded into the cache)."""
    c = CHIPS[chip]
    cache = Path(c["cache"])
    pkg = package(chip)
    archive, built = cache / RP2350JS_ARCHIVE_NAME, cache / c["package_built"]
    try:
        if os.path.isfile(pkg):
            print("emu-firmware: %s: already there: %s%s: %s"
                  % (c["emulator"], pkg, _where(c["env"] + "PACKAGE"), check_package(pkg)))
        else:
            if not archive.is_file():
                print("emu-firmware: downloading %s ..." % RP2350JS_ARCHIVE_URL, flush=True)
                data = fetch(RP2350JS_ARCHIVE_URL)
                cache.mkdir(parents=True, exist_ok=True)
                archive.write_bytes(data)
            note = build_package(archive, built)
            print("emu-firmware: %s: %s (from %s): %s; `make emu-deps` installs it"
                  % (c["emulator"], built, archive.name, note))
            pkg = str(built)
    except Bad as e:
        problems.append("%s: %s" % (c["emulator"], e))
    except OSError as e:
        problems.append(
            "rp2350js 2.0.1 (the %s's emulator, not on the npm registry): cannot download it (%s).\n"
            "  Download %s\n  (c1570/rp2350js at commit %s) and save it as\n  %s\n"
            "  then run `make emu-firmware` again: it applies the project's fix of two CPU "
            "instructions\n  (emu/rp2350js_fix.py), builds it with npm (whose build tools "
            "come from the\n  npm registry) and packs it as %s for `make emu-deps`"
            % (c["name"], getattr(e, "reason", e), RP2350JS_ARCHIVE_URL, RP2350JS_COMMIT, archive, built))
    return pkg


def _firmware(chip: str, fw: str, problems: list) -> None:
    """MicroPython v1.28.0 for the chip: found and checked, or the official
    UF2 downloaded into the cache (micropython.org publishes no hash)."""
    c = CHIPS[chip]
    label = "MicroPython %s" % c["board"]
    fw_cache = Path(c["cache"]) / c["official_firmware"]
    try:
        if not os.path.isfile(fw):
            note = _download(c["firmware_url"], fw_cache, lambda p: check_firmware(p, chip))
            print("emu-firmware: %s: downloaded to %s: %s" % (label, fw_cache, note))
        else:
            print("emu-firmware: %s: already there: %s%s: %s"
                  % (label, fw, _where(c["env"] + "FIRMWARE"), check_firmware(fw, chip)))
    except Bad as e:
        problems.append("%s firmware %s: %s (replace or delete it, run again)" % (label, fw, e))
    except OSError as e:
        problems.append(
            "MicroPython v1.28.0 for %s: cannot download it (%s).\n"
            "  Download %s\n  (the v1.28.0 .uf2 on %s) and save it as\n  %s\n"
            "  then run `make emu-firmware` again: micropython.org publishes no hash for it, so it "
            "checks\n  that it is MicroPython v1.28.0 for the %s and prints its sha256"
            % (c["board"], getattr(e, "reason", e), c["firmware_url"], c["firmware_page"], fw_cache,
               chip.upper()))


def _bootrom(chip: str, rom: str, pkg, problems: list) -> None:
    """The chip's boot ROM: found and checked, or taken out of what holds it
    (the RP2040's release ELF, downloaded; the RP2350's emulator package)."""
    c = CHIPS[chip]
    label = "%s boot ROM" % chip.upper()
    rom_cache = Path(c["cache"]) / c["bootrom"]
    try:
        if os.path.isfile(rom):
            print("emu-firmware: %s: already there: %s%s: %s"
                  % (label, rom, _where(c["env"] + "BOOTROM"), check_bootrom(Path(rom).read_bytes(), chip)))
            return
        if c["package"]:
            if not (pkg and os.path.isfile(pkg)):
                problems.append("%s: it comes with %s (above): once that is there, run `make "
                                "emu-firmware` again and it is taken out of it\n  into %s (sha256 %s)"
                                % (c["rom"], c["emulator"], rom_cache, c["bootrom_sha256"]))
                return
            data, source = rom_from_package(pkg), "the one %s embeds" % c["emulator"]
        else:
            data, source = rom_from_elf(_release_elf(c)), "from %s" % BOOTROM_ELF_NAME
        note = check_bootrom(data, chip)
        rom_cache.parent.mkdir(parents=True, exist_ok=True)
        rom_cache.write_bytes(data)
        print("emu-firmware: %s: %s (%s): %s" % (label, rom_cache, source, note))
    except Bad as e:
        problems.append("%s: %s" % (c["rom"], e))
    except OSError as e:
        problems.append(_bootrom_unreachable(c, pkg, e))
    except (tarfile.TarError, ValueError, KeyError) as e:
        problems.append("%s: cannot take it out of %s (%s)" % (c["rom"], pkg, e))


def _release_elf(c: dict) -> bytes:
    """The RP2040 B1 boot ROM's release ELF: in the cache, else downloaded."""
    elf = Path(c["cache"]) / BOOTROM_ELF_NAME
    if elf.is_file():
        return elf.read_bytes()
    print("emu-firmware: downloading %s ..." % BOOTROM_ELF_URL, flush=True)
    return fetch(BOOTROM_ELF_URL)


def _bootrom_unreachable(c: dict, pkg, e: OSError) -> str:
    if c["package"]:
        return "%s: cannot take it out of %s (%s)" % (c["rom"], pkg, e)
    return ("%s: cannot download it (%s).\n"
            "  Download %s\n  (Raspberry Pi's pico-bootrom-rp2040 release b1) and save it as\n  %s\n"
            "  then run `make emu-firmware` again: it takes the %d KiB ROM out of it and checks "
            "its sha256\n  (%s)" % (c["rom"], getattr(e, "reason", e), BOOTROM_ELF_URL,
                                     Path(c["cache"]) / BOOTROM_ELF_NAME, c["bootrom_size"] // 1024,
                                     c["bootrom_sha256"]))


# what `make emu-firmware FILES=...` takes, told apart by content, not by name
ACCEPTED = (
    "MicroPython v1.28.0 for RPI_PICO or RPI_PICO2: the official .uf2 (micropython.org) or a raw "
    ".bin image (flash offset 0)",
    "the RP2040 B1 boot ROM: b1.elf (Raspberry Pi's pico-bootrom-rp2040, release b1) or the raw "
    "16 KiB .bin",
    "the RP2350 A2 boot ROM: the raw 32 KiB .bin (or nothing: it comes out of rp2350js)",
    "rp2350js at commit %s: GitHub's source archive (.tar.gz, built here with the project's fix) "
    "or an npm tarball of it (.tgz)" % RP2350JS_COMMIT[:8],
)
VARIABLES = tuple(c["env"] + what for c in CHIPS.values()
                  for what in ("FIRMWARE", "BOOTROM") + (("PACKAGE",) if c["package"] else ()))


def how_to_give() -> str:
    """The offline message's last part: the forms a hand download may take."""
    return ("Files downloaded by hand, under any name:\n  make emu-firmware FILES=\"FILE ...\"\n"
            "  takes each of:\n" + "".join("  - %s\n" % a for a in ACCEPTED)
            + "  (or name them once in %s)\n  Each is checked and kept in %s, where later commands "
            "find it\n  with no variable." % (", ".join(VARIABLES), CHIPS["rp2040"]["cache"]))


def _firmware_chip(data: bytes, suffix: str) -> tuple[str, str]:
    """(chip, check note) of a MicroPython firmware: a UF2's family, a raw
    image's banner ("... with RP2350")."""
    chips = sorted(CHIPS)
    if suffix == ".bin":
        chips = [c for c in chips if b"with " + c.upper().encode() in data] or chips
    errors = []
    with tempfile.TemporaryDirectory(prefix="cheesebox-fw-") as tmp:
        path = os.path.join(tmp, "firmware" + suffix)
        Path(path).write_bytes(data)
        for chip in chips:
            try:
                return chip, check_firmware(path, chip)
            except Bad as e:
                errors.append(str(e))
    raise Bad("; ".join(errors))


def _tarball_kind(path: str) -> str:
    """'package' (npm's: package/package.json) or 'archive' (GitHub's: one
    folder holding rp2350js's package.json), else Bad."""
    try:
        with tarfile.open(path, "r:gz") as t:
            names = t.getnames()
            if "package/package.json" in names:
                check_package(path)
                return "package"
            top = {n.split("/")[0] for n in names}
            meta = t.extractfile("%s/package.json" % top.pop()) if len(top) == 1 else None
            if meta is not None and re.search(rb'"name":\s*"rp2350js"', meta.read()):
                return "archive"
    except (tarfile.TarError, KeyError, OSError) as e:
        raise Bad("a gzip file that is not a tar of rp2350js (%s)" % e)
    raise Bad("a tar that is neither rp2350js's source archive nor its npm tarball")


def identify(path: str) -> tuple[str, Path, bytes, str]:
    """A file given by hand: (what it is, where the cache keeps it, the bytes
    kept there, a note); Bad if it is none of ACCEPTED."""
    data = Path(path).read_bytes()
    cache = {chip: Path(c["cache"]) for chip, c in CHIPS.items()}
    if data[:4] == b"UF2\n":
        chip, note = _firmware_chip(data, ".uf2")
        return ("MicroPython %s (.uf2)" % chip.upper(), cache[chip] / CHIPS[chip]["official_firmware"],
                data, note)
    if data[:4] == b"\x7fELF":
        rom = rom_from_elf(data)
        return ("RP2040 boot ROM (from an ELF file)", cache["rp2040"] / CHIPS["rp2040"]["bootrom"], rom,
                check_bootrom(rom))
    if data[:2] == b"\x1f\x8b":
        c2 = cache["rp2350"]
        if _tarball_kind(path) == "package":
            return "rp2350js (npm tarball)", c2 / CHIPS["rp2350"]["package_built"], data, check_package(path)
        return "rp2350js (source archive)", c2 / RP2350JS_ARCHIVE_NAME, data, "built below"
    for chip, c in CHIPS.items():
        if len(data) == c["bootrom_size"] and sha256(data) == c["bootrom_sha256"]:
            return "%s boot ROM" % chip.upper(), cache[chip] / c["bootrom"], data, check_bootrom(data, chip)
    if b"MicroPython" not in data:
        raise Bad("none of the files make emu-firmware takes (%d bytes)" % len(data))
    chip, note = _firmware_chip(data, ".bin")
    return "MicroPython %s (.bin)" % chip.upper(), cache[chip] / CHIPS[chip]["firmware"], data, note


def keep(paths: list, problems: list) -> None:
    """Every file given (FILES, and those the CHEESEBOX_EMU_* variables name)
    checked and kept in the cache, where emu/pico.py looks with no variable."""
    for var in VARIABLES:
        if os.environ.get(var):
            paths = paths + [os.environ.pop(var)]
    for path in paths:
        try:
            what, dest, data, note = identify(path)
        except (Bad, OSError) as e:
            problems.append("%s: %s; make emu-firmware takes:\n%s"
                            % (path, e, "".join("  - %s\n" % a for a in ACCEPTED).rstrip()))
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(dest.name + ".part")
        tmp.write_bytes(data)
        tmp.replace(dest)
        print("emu-firmware: %s: %s kept as %s: %s" % (path, what, dest, note))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m emu.firmware", description=__doc__.split("\n")[0])
    ap.add_argument("--chip", action="append", choices=sorted(CHIPS),
                    help="only this chip's files (again for more; default: both)")
    ap.add_argument("files", nargs="*", metavar="FILE",
                    help="a file downloaded by hand (any of ACCEPTED: official .uf2 or raw .bin "
                         "firmware, b1.elf or a raw boot ROM, rp2350js's source archive or npm tarball)")
    args = ap.parse_args(argv)
    problems = []
    keep(args.files, problems)
    for chip in args.chip or sorted(CHIPS):
        emulator_files(chip, problems)
    names = " and ".join("emulated " + CHIPS[c]["name"] for c in args.chip or sorted(CHIPS))
    if problems:
        print("emu-firmware: the %s still need:\n" % names + "\n".join(
            "%d. %s" % (i + 1, p) for i, p in enumerate(problems)) + "\n" + how_to_give(), file=sys.stderr)
        return 1
    print("emu-firmware: ready: `make emu` and the %s tests will find their files" % names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
