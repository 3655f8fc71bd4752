"""`make emu-firmware` (issue 15): a fresh clone gets the emulated Pico's two
files, or, offline, is told exactly what to download from where and where to
put it; files already there (../shared/emulator here and in CI) are checked,
not fetched."""
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


def _make(tmp_path, **env):
    e = dict(os.environ, CHEESEBOX_CACHE=str(tmp_path / "cache"))
    for k in ("CHEESEBOX_EMU_FIRMWARE", "CHEESEBOX_EMU_BOOTROM", "CHEESEBOX_EMU_SHARED"):
        e.pop(k, None)
    # offline for certain: every download goes to a proxy on a closed local port
    e.update(https_proxy="http://127.0.0.1:9", HTTPS_PROXY="http://127.0.0.1:9", no_proxy="", NO_PROXY="")
    e.update(env)
    return subprocess.run(["make", "--no-print-directory", "emu-firmware"], cwd=REPO, env=e,
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
    assert "Traceback" not in err


@pytest.mark.skipif(not (ROM.is_file() and FW.is_file()), reason="no ../shared/emulator")
def test_with_shared_files_it_checks_them_and_fetches_nothing(tmp_path):
    p = _make(tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.count("already there: %s" % SHARED) == 2
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


@pytest.mark.skipif(not (ROM.is_file() and FW.is_file()), reason="no ../shared/emulator")
def test_a_hand_downloaded_b1_elf_becomes_the_checked_boot_rom_in_the_cache(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "b1.elf").write_bytes(_elf(ROM.read_bytes()))
    p = _make(tmp_path, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"), CHEESEBOX_EMU_FIRMWARE=str(FW))
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
    p = _make(tmp_path, CHEESEBOX_EMU_SHARED=str(tmp_path / "no-shared"), CHEESEBOX_EMU_FIRMWARE=str(FW))
    assert p.returncode != 0 and "not the RP2040 B1 boot ROM" in p.stderr
    assert not (cache / "rp2040-bootrom-b1.bin").exists()
