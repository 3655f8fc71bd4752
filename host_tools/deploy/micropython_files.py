"""Where the files the box's chips run from are found: MicroPython's firmware
for each chip, the boot ROMs and rp2350js, for `make uf2` (the firmware
alone) and the emulated Pico and Pico 2 (emu/pico.py, which re-exports them).

Looked for in the CHEESEBOX_EMU_* variables, then the project's test
machines' folder beside the repository (../shared/emulator, or
$CHEESEBOX_EMU_SHARED), then the cache `make emu-firmware` fills
(~/.cache/cheesebox/emulator, or $CHEESEBOX_CACHE). Host-only; the deploy
tools below the emulator use it, so nothing here imports emu/.
"""
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("CHEESEBOX_EMU_SHARED") or os.path.join(os.path.dirname(REPO), "shared", "emulator")
FIRMWARE_NAME = "micropython-v1.28.0-RPI_PICO.bin"
BOOTROM_NAME = "rp2040-bootrom-b1.bin"
SHARED2350 = os.path.join(SHARED, "rp2350")
FIRMWARE2350_NAME = "micropython-v1.28.0-RPI_PICO2.bin"
BOOTROM2350_NAME = "rp2350-bootrom-a2.bin"
CHIPS = ("rp2040", "rp2350")
# where `make emu-firmware` keeps its downloads: outside the repo, so `make
# clean` (and a fresh clone) leaves them; the Pico 2's files in rp2350/ there
CACHE = os.environ.get("CHEESEBOX_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
    "cheesebox", "emulator")
CACHE2350 = os.path.join(CACHE, "rp2350")
OFFICIAL_FIRMWARE_NAME = "RPI_PICO-20260406-v1.28.0.uf2"   # micropython.org's file name
OFFICIAL_FIRMWARE2350_NAME = "RPI_PICO2-20260406-v1.28.0.uf2"
# rp2350js is not on the npm registry: its npm tarball, as ../shared/emulator/rp2350
# holds it, or as `make emu-firmware` builds it (the project's fix applied) in the cache
PACKAGE2350_NAME = "rp2350js-2.0.1-10f7ebf6-patched.tgz"
PACKAGE2350_BUILT = "rp2350js-2.0.1-10f7ebf6-cheesebox.tgz"


class EmulatorMissing(Exception):
    """What is missing to run the emulated Pico (or to build a UF2: the
    firmware), and how to get it."""


def _first(env, *paths):
    if os.environ.get(env):
        return os.environ[env]
    return next((p for p in paths if os.path.isfile(p)), paths[0])


def firmware_and_bootrom(chip="rp2040"):
    """(firmware, bootrom) paths of that chip, found or not. The Pico:
    $CHEESEBOX_EMU_FIRMWARE / $CHEESEBOX_EMU_BOOTROM, else ../shared/emulator/,
    else the cache of `make emu-firmware`; the Pico 2:
    $CHEESEBOX_EMU2350_FIRMWARE / $CHEESEBOX_EMU2350_BOOTROM, else
    ../shared/emulator/rp2350/, else the cache's rp2350/."""
    if chip == "rp2350":
        return (_first("CHEESEBOX_EMU2350_FIRMWARE", os.path.join(SHARED2350, FIRMWARE2350_NAME),
                       os.path.join(CACHE2350, OFFICIAL_FIRMWARE2350_NAME),
                       os.path.join(CACHE2350, FIRMWARE2350_NAME)),
                _first("CHEESEBOX_EMU2350_BOOTROM", os.path.join(SHARED2350, BOOTROM2350_NAME),
                       os.path.join(CACHE2350, BOOTROM2350_NAME)))
    return (_first("CHEESEBOX_EMU_FIRMWARE", os.path.join(SHARED, FIRMWARE_NAME),
                   os.path.join(CACHE, OFFICIAL_FIRMWARE_NAME), os.path.join(CACHE, FIRMWARE_NAME)),
            _first("CHEESEBOX_EMU_BOOTROM", os.path.join(SHARED, BOOTROM_NAME),
                   os.path.join(CACHE, BOOTROM_NAME)))


def package2350():
    """The rp2350js tarball `make emu2350-deps` installs, found or not:
    $CHEESEBOX_EMU2350_PACKAGE, else ../shared/emulator/rp2350/'s, else the one
    `make emu-firmware` built in the cache."""
    return _first("CHEESEBOX_EMU2350_PACKAGE", os.path.join(SHARED2350, PACKAGE2350_NAME),
                  os.path.join(CACHE2350, PACKAGE2350_BUILT))


def _missing(paths, chip="rp2040"):
    if chip == "rp2350":
        return EmulatorMissing(
            "emulated Pico 2: %s not found; `make emu-firmware` gets them (MicroPython v1.28.0 "
            "RPI_PICO2 and the RP2350 A2 boot ROM), or set CHEESEBOX_EMU2350_FIRMWARE (.bin or "
            ".uf2) and CHEESEBOX_EMU2350_BOOTROM, see docs/emulator.md" % " and ".join(paths))
    return EmulatorMissing(
        "emulated Pico: %s not found; `make emu-firmware` gets them (MicroPython v1.28.0 RPI_PICO "
        "and the RP2040 B1 boot ROM), or set CHEESEBOX_EMU_FIRMWARE (.bin or .uf2) and "
        "CHEESEBOX_EMU_BOOTROM, see docs/emulator.md" % " and ".join(paths))


def locate_firmware(chip="rp2040"):
    """The MicroPython firmware alone (make uf2 needs no emulator)."""
    fw = firmware_and_bootrom(chip)[0]
    if not os.path.isfile(fw):
        raise _missing([fw], chip)
    return fw
