"""`make emu-firmware`: a fresh clone gets the emulated
Pico's two files and the emulated Pico 2's three (rp2350js built with the
project's fix, the RPI_PICO2 firmware, the boot ROM rp2350js embeds), or,
offline, is told exactly what to download from where and where to put it;
files already there (../shared/emulator here and in CI) are checked, not
fetched."""
import hashlib
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "emulator"
ROM = SHARED / "rp2040-bootrom-b1.bin"
FW = SHARED / "micropython-v1.28.0-RPI_PICO.bin"
ROM_SHA = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
SHARED2350 = SHARED / "rp2350"
PKG2350 = SHARED2350 / "rp2350js-2.0.1-10f7ebf6-patched.tgz"
FW2350 = SHARED2350 / "micropython-v1.28.0-RPI_PICO2.bin"
ROM2350 = SHARED2350 / "rp2350-bootrom-a2.bin"
ROM2350_SHA = "196c503fbb17b2ad21a1f496574786af698f9376af9a5f79e5e75293c9e12191"
HAVE_2350 = PKG2350.is_file() and FW2350.is_file() and ROM2350.is_file()
# the Pico 2's files from ../shared, for the Pico's tests that move ../shared away
PICO2_FROM_SHARED = dict(CHEESEBOX_EMU2350_PACKAGE=str(PKG2350), CHEESEBOX_EMU2350_FIRMWARE=str(FW2350),
                         CHEESEBOX_EMU2350_BOOTROM=str(ROM2350))


def _make(tmp_path, files=(), **env):
    e = dict(os.environ, CHEESEBOX_CACHE=str(tmp_path / "cache"))
    for k in ("CHEESEBOX_EMU_FIRMWARE", "CHEESEBOX_EMU_BOOTROM", "CHEESEBOX_EMU_SHARED",
              "CHEESEBOX_EMU2350_PACKAGE", "CHEESEBOX_EMU2350_FIRMWARE", "CHEESEBOX_EMU2350_BOOTROM"):
        e.pop(k, None)
    # offline for certain: every download goes to a proxy on a closed local port
    e.update(https_proxy="http://127.0.0.1:9", HTTPS_PROXY="http://127.0.0.1:9", no_proxy="", NO_PROXY="")
    e.update(env)
    args = ["FILES=" + " ".join("'%s'" % f for f in files)] if files else []
    return subprocess.run(["make", "--no-print-directory", "emu-firmware"] + args, cwd=REPO, env=e,
                          capture_output=True, text=True, timeout=120)


def test_offline_it_names_what_to_download_from_where_and_fails(tmp_path):
    p = _make(tmp_path, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"))
    assert p.returncode != 0
    err = p.stderr
    cache = tmp_path / "cache"
    assert "https://micropython.org/resources/firmware/RPI_PICO-20260406-v1.28.0.uf2" in err
    assert "save it as\n  %s" % (cache / "RPI_PICO-20260406-v1.28.0.uf2") in err
    assert "publishes no hash" in err
    assert "https://github.com/raspberrypi/pico-bootrom-rp2040/releases/download/b1/b1.elf" in err
    assert "save it as\n  %s" % (cache / "b1.elf") in err and ROM_SHA in err
    # the Pico 2: rp2350js from its repository at the pinned commit, the RPI_PICO2 firmware,
    # the boot ROM out of rp2350js
    c2 = cache / "rp2350"
    assert ("https://github.com/c1570/rp2350js/archive/10f7ebf669790f39ae3108ea5960c660c95d9f56.tar.gz"
            in err)
    assert "save it as\n  %s" % (c2 / "rp2350js-10f7ebf6.tar.gz") in err
    assert "emu/rp2350js_fix.py" in err and str(c2 / "rp2350js-2.0.1-10f7ebf6-cheesebox.tgz") in err
    assert "https://micropython.org/resources/firmware/RPI_PICO2-20260406-v1.28.0.uf2" in err
    assert "save it as\n  %s" % (c2 / "RPI_PICO2-20260406-v1.28.0.uf2") in err
    assert "RP2350 A2 boot ROM: it comes with rp2350js" in err and ROM2350_SHA in err
    # and the forms a hand download may take, the variables, and nothing a user does not have
    assert 'make emu-firmware FILES="FILE ..."' in err
    for form in ("official .uf2", "raw .bin image", "b1.elf", "raw 16 KiB .bin", "raw 32 KiB .bin",
                 "source archive (.tar.gz", "npm tarball of it (.tgz)"):
        assert form in err, form
    for var in ("CHEESEBOX_EMU_FIRMWARE", "CHEESEBOX_EMU_BOOTROM", "CHEESEBOX_EMU2350_FIRMWARE",
                "CHEESEBOX_EMU2350_BOOTROM", "CHEESEBOX_EMU2350_PACKAGE"):
        assert var in err, var
    assert "shared" not in err and "shared" not in p.stdout
    assert "Traceback" not in err


@pytest.mark.skipif(not (ROM.is_file() and FW.is_file()), reason="no ../shared/emulator")
def test_with_shared_files_it_checks_them_and_fetches_nothing(tmp_path):
    p = _make(tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.count("already there: %s/" % SHARED) == (5 if HAVE_2350 else 2)
    assert "sha256 verified" in p.stdout and "downloading" not in p.stdout
    assert not (tmp_path / "cache").exists()


def _elf(rom):
    """A minimal ELF32 with the ROM as one PT_LOAD segment at address 0, as
    pico-bootrom-rp2040's b1.elf holds it (plus a segment elsewhere)."""
    head = bytearray(52)
    head[:6] = b"\x7fELF\x01\x01"
    struct.pack_into("<I", head, 28, 52)                          # e_phoff
    struct.pack_into("<HH", head, 42, 32, 2)                      # e_phentsize, e_phnum
    data_at = 52 + 2 * 32
    ph = struct.pack("<8I", 1, data_at, 0, 0, len(rom), len(rom), 5, 4)
    ph += struct.pack("<8I", 1, data_at, 0x20000000, 0x20000000, 16, 16, 6, 4)
    return bytes(head) + ph + rom


@pytest.mark.skipif(not (ROM.is_file() and FW.is_file() and HAVE_2350), reason="no ../shared/emulator")
def test_a_hand_downloaded_b1_elf_becomes_the_checked_boot_rom_in_the_cache(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "b1.elf").write_bytes(_elf(ROM.read_bytes()))
    p = _make(tmp_path, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"), CHEESEBOX_EMU_FIRMWARE=str(FW),
              **PICO2_FROM_SHARED)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "from b1.elf" in p.stdout and "sha256 verified" in p.stdout
    assert hashlib.sha256((cache / "rp2040-bootrom-b1.bin").read_bytes()).hexdigest() == ROM_SHA
    # and the emulated Pico looks there, after the variables and ../shared
    q = subprocess.run([sys.executable, "-c", "from emu.pico import firmware_and_bootrom as f; print(f()[1])"],
                       cwd=REPO, capture_output=True, text=True,
                       env=dict(os.environ, CHEESEBOX_CACHE=str(cache),
                                CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared")))
    assert q.stdout.strip() == str(cache / "rp2040-bootrom-b1.bin"), q.stderr
    # a wrong ROM is refused, and not kept
    (cache / "rp2040-bootrom-b1.bin").unlink()
    (cache / "b1.elf").write_bytes(_elf(b"\0" * 16384))
    p = _make(tmp_path, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"), CHEESEBOX_EMU_FIRMWARE=str(FW),
              **PICO2_FROM_SHARED)
    assert p.returncode != 0 and "not the RP2040 B1 boot ROM" in p.stderr
    assert not (cache / "rp2040-bootrom-b1.bin").exists()


@pytest.mark.skipif(not (ROM.is_file() and FW.is_file() and HAVE_2350), reason="no ../shared/emulator")
def test_the_pico2_boot_rom_comes_out_of_the_rp2350js_tarball(tmp_path):
    """With rp2350js's tarball but no boot ROM file, the ROM rp2350js embeds
    is taken out of it into the cache (sha256 checked), and the emulated
    Pico 2 looks there after the variables and ../shared."""
    cache = tmp_path / "cache"
    p = _make(tmp_path, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"), CHEESEBOX_EMU_FIRMWARE=str(FW),
              CHEESEBOX_EMU_BOOTROM=str(ROM), CHEESEBOX_EMU2350_PACKAGE=str(PKG2350),
              CHEESEBOX_EMU2350_FIRMWARE=str(FW2350))
    assert p.returncode == 0, p.stdout + p.stderr
    assert ("%s: rp2350js (npm tarball) kept as %s: rp2350js 2.0.1"
            % (PKG2350, cache / "rp2350" / "rp2350js-2.0.1-10f7ebf6-cheesebox.tgz")) in p.stdout
    assert "the one rp2350js embeds" in p.stdout and "downloading" not in p.stdout
    rom = cache / "rp2350" / "rp2350-bootrom-a2.bin"
    assert hashlib.sha256(rom.read_bytes()).hexdigest() == ROM2350_SHA
    q = subprocess.run([sys.executable, "-c", "from emu.pico import firmware_and_bootrom as f; "
                        "print(f('rp2350')[1])"], cwd=REPO, capture_output=True, text=True,
                       env=dict(os.environ, CHEESEBOX_CACHE=str(cache),
                                CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared")))
    assert q.stdout.strip() == str(rom), q.stderr


@pytest.mark.skipif(not (ROM.is_file() and FW.is_file() and HAVE_2350), reason="no ../shared/emulator")
def test_a_hand_downloaded_archive_that_is_not_the_pinned_rp2350js_is_refused(tmp_path):
    """The archive put in the cache by hand is fixed before it is built: an
    archive of other sources is refused, naming the commit, and nothing is
    built or installed."""
    import io
    import shutil
    import tarfile
    if shutil.which("npm") is None:
        pytest.skip("no npm")
    c2 = tmp_path / "cache" / "rp2350"
    c2.mkdir(parents=True)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        data = b"export const x = 1;\n"
        info = tarfile.TarInfo("rp2350js-other/src/index.ts")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    (c2 / "rp2350js-10f7ebf6.tar.gz").write_bytes(buf.getvalue())
    p = _make(tmp_path, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"), CHEESEBOX_EMU_FIRMWARE=str(FW),
              CHEESEBOX_EMU_BOOTROM=str(ROM), CHEESEBOX_EMU2350_FIRMWARE=str(FW2350),
              CHEESEBOX_EMU2350_BOOTROM=str(ROM2350))
    assert p.returncode != 0 and "rp2350js at 10f7ebf6 expected" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
    assert not (c2 / "rp2350js-2.0.1-10f7ebf6-cheesebox.tgz").exists()


def test_the_rp2350js_fix_replaces_each_passage_once_and_only_on_its_sources(tmp_path):
    """emu/rp2350js_fix.py on a tree holding exactly the passages it
    replaces: each is replaced, a second run says it is already fixed; a tree
    missing one passage is refused with nothing written."""
    from emu import rp2350js_fix as fix
    files = {}
    for rel, _, old, _ in fix.EDITS:
        files[rel] = files.get(rel, "// head\n") + old + "// between\n"
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    done = fix.apply(tmp_path)
    assert len(done) == len(fix.EDITS)
    for rel, _, old, new in fix.EDITS:
        text = (tmp_path / rel).read_text()
        assert new in text and fix.MARK in text
    with pytest.raises(fix.FixError, match="already fixed"):
        fix.apply(tmp_path)
    other = tmp_path / "other"
    for rel, text in files.items():
        (other / rel).parent.mkdir(parents=True, exist_ok=True)
        (other / rel).write_text(text.replace(fix.EDITS[-1][2], ""))
    with pytest.raises(fix.FixError, match="there 0 times"):
        fix.apply(other)
    assert all((other / rel).read_text() == files[rel].replace(fix.EDITS[-1][2], "") for rel in files)


def _uf2(bin_data, family):
    """A stand-in for micropython.org's .uf2: the raw image's 256-byte pages
    as UF2 blocks of the chip's family (what picotool writes)."""
    data = bin_data + b"\xff" * (-len(bin_data) % 256)
    n = len(data) // 256
    out = bytearray()
    for i in range(n):
        out += struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, 0x10000000 + 256 * i, 256, i, n, family)
        out += data[256 * i:256 * i + 256] + b"\0" * 220 + struct.pack("<I", 0x0AB16F30)
    return bytes(out)


def _where(tmp_path, code):
    """emu/pico.py's answer with the cache and no variable, no test machines' folder."""
    e = dict(os.environ, CHEESEBOX_CACHE=str(tmp_path / "cache"), CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"))
    for k in ("CHEESEBOX_EMU_FIRMWARE", "CHEESEBOX_EMU_BOOTROM", "CHEESEBOX_EMU2350_PACKAGE",
              "CHEESEBOX_EMU2350_FIRMWARE", "CHEESEBOX_EMU2350_BOOTROM"):
        e.pop(k, None)
    q = subprocess.run([sys.executable, "-c", "from emu.pico import *; print(%s)" % code], cwd=REPO,
                       capture_output=True, text=True, env=e)
    assert q.returncode == 0, q.stderr
    return q.stdout.strip()


@pytest.mark.skipif(not (ROM.is_file() and FW.is_file() and HAVE_2350), reason="no ../shared/emulator")
def test_files_downloaded_by_hand_under_any_name_are_told_apart_checked_and_kept(tmp_path):
    """FILES takes each form a user can download, whatever its name: the
    official .uf2 (a stand-in made from the raw image), a raw .bin, b1.elf (a
    stand-in made from the ROM), a raw boot ROM, rp2350js's npm tarball. Each
    is kept in the cache, where the emulator, make uf2 and the bench then find
    it with no variable."""
    from host_tools.deploy import fsimage
    given = tmp_path / "Downloads"
    given.mkdir()
    (given / "firmware (1).uf2").write_bytes(_uf2(FW.read_bytes(), 0xE48BFF56))
    (given / "b1 (2).elf").write_bytes(_elf(ROM.read_bytes()))
    (given / "pico2.bin").write_bytes(FW2350.read_bytes())
    (given / "rom2350").write_bytes(ROM2350.read_bytes())
    (given / "emulator.tgz").write_bytes(PKG2350.read_bytes())
    files = sorted(str(f) for f in given.iterdir())
    p = _make(tmp_path, files, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"))
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert out.count(" kept as ") == 5 and "downloading" not in out
    for what in ("MicroPython RP2040 (.uf2)", "RP2040 boot ROM (from an ELF file)", "MicroPython RP2350 (.bin)",
                 "RP2350 boot ROM", "rp2350js (npm tarball)"):
        assert what in out, what
    cache = tmp_path / "cache"
    assert _where(tmp_path, "firmware_and_bootrom()") == "('%s', '%s')" % (
        cache / "RPI_PICO-20260406-v1.28.0.uf2", cache / "rp2040-bootrom-b1.bin")
    # the kept .uf2 holds the image's pages as they were
    kept = fsimage.firmware_pages(str(cache / "RPI_PICO-20260406-v1.28.0.uf2"))
    assert kept == fsimage.firmware_pages(str(FW))[:len(kept)] and len(kept) == -(-FW.stat().st_size // 256)
    assert hashlib.sha256((cache / "rp2040-bootrom-b1.bin").read_bytes()).hexdigest() == ROM_SHA
    c2 = cache / "rp2350"
    assert _where(tmp_path, "firmware_and_bootrom('rp2350')") == "('%s', '%s')" % (
        c2 / "micropython-v1.28.0-RPI_PICO2.bin", c2 / "rp2350-bootrom-a2.bin")
    assert _where(tmp_path, "package('rp2350')") == str(c2 / "rp2350js-2.0.1-10f7ebf6-cheesebox.tgz")
    # a second run finds them all there: nothing given, nothing missing
    p = _make(tmp_path, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"))
    assert p.returncode == 0 and p.stdout.count("already there: %s/" % cache) == 5, p.stdout + p.stderr


def test_a_file_that_is_none_of_the_forms_is_refused_naming_them(tmp_path):
    """A picture, and a text that names MicroPython but is no firmware: each
    refused with what make emu-firmware takes; nothing kept."""
    photo, notes = tmp_path / "pico.png", tmp_path / "notes.txt"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    notes.write_text("MicroPython v1.28.0 for the Pico\n")
    p = _make(tmp_path, [str(photo), str(notes)], CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"))
    assert p.returncode != 0
    assert "%s: none of the files make emu-firmware takes" % photo in p.stderr
    assert "%s: not MicroPython v1.28.0 for the RP2040" % notes in p.stderr
    assert p.stderr.count("make emu-firmware takes:") == 2 and "Traceback" not in p.stderr
    assert " kept as " not in p.stdout


@pytest.mark.skipif(not (ROM.is_file() and FW.is_file() and HAVE_2350), reason="no ../shared/emulator")
def test_a_variable_named_once_is_remembered(tmp_path):
    """CHEESEBOX_EMU_BOOTROM naming a b1.elf (a stand-in) at make emu-firmware:
    the ROM comes out of it into the cache, and later commands find it there
    without the variable."""
    elf = tmp_path / "b1.elf.download"
    elf.write_bytes(_elf(ROM.read_bytes()))
    p = _make(tmp_path, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"), CHEESEBOX_EMU_BOOTROM=str(elf),
              CHEESEBOX_EMU_FIRMWARE=str(FW), **PICO2_FROM_SHARED)
    assert p.returncode == 0, p.stdout + p.stderr
    cache = tmp_path / "cache"
    assert _where(tmp_path, "firmware_and_bootrom()") == "('%s', '%s')" % (
        cache / "micropython-v1.28.0-RPI_PICO.bin", cache / "rp2040-bootrom-b1.bin")


@pytest.mark.skipif(not (ROM.is_file() and FW.is_file() and HAVE_2350), reason="no ../shared/emulator")
def test_a_source_archive_given_by_hand_is_kept_as_the_archive_then_fixed_and_built(tmp_path):
    """GitHub's source archive (a stand-in: one folder with rp2350js's
    package.json) under another name is kept where a download would go, then
    goes the download's way: the fix first, which refuses sources that are
    not the pinned commit's, before anything is built."""
    import io
    import shutil
    import tarfile
    if shutil.which("npm") is None:
        pytest.skip("no npm")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in (("rp2350js-main/package.json", b'{"name": "rp2350js", "version": "2.0.1"}\n'),
                           ("rp2350js-main/src/index.ts", b"export const x = 1;\n")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    archive = tmp_path / "rp2350js-main.tar.gz"
    archive.write_bytes(buf.getvalue())
    p = _make(tmp_path, [str(archive)], CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"),
              CHEESEBOX_EMU_FIRMWARE=str(FW), CHEESEBOX_EMU_BOOTROM=str(ROM),
              CHEESEBOX_EMU2350_FIRMWARE=str(FW2350), CHEESEBOX_EMU2350_BOOTROM=str(ROM2350))
    c2 = tmp_path / "cache" / "rp2350"
    assert "rp2350js (source archive) kept as %s" % (c2 / "rp2350js-10f7ebf6.tar.gz") in p.stdout, p.stdout
    assert p.returncode != 0 and "rp2350js at 10f7ebf6 expected" in p.stderr, p.stderr
    assert not (c2 / "rp2350js-2.0.1-10f7ebf6-cheesebox.tgz").exists()
