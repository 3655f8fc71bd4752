"""The files each of the box's chips runs from, and where they are found:
MicroPython's firmware, the boot ROM and the emulator package of each chip,
in one table (CHIPS), for `make uf2` (the firmware alone), `make emu-firmware`
(emu/firmware.py: what to download, what it must hash to) and the emulated
Pico and Pico 2 (emu/pico.py, which re-exports this module).

Looked for in the chip's CHEESEBOX_EMU_* variables, then the project's test
machines' folder beside the repository (../shared/emulator, or
$CHEESEBOX_EMU_SHARED), then the cache `make emu-firmware` fills
(~/.cache/cheesebox/emulator, or $CHEESEBOX_CACHE). Host-only; the deploy
tools below the emulator use it, so nothing here imports emu/.
"""
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("CHEESEBOX_EMU_SHARED") or os.path.join(os.path.dirname(REPO), "shared", "emulator")
# where `make emu-firmware` keeps its downloads: outside the repo, so `make
# clean` (and a fresh clone) leaves them; the Pico 2's files in rp2350/ there
CACHE = os.environ.get("CHEESEBOX_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
    "cheesebox", "emulator")

# One entry a chip (the board file's "mcu"):
#   name, board, rom: the Pico's name, MicroPython's board and the boot ROM, in messages
#   env: the prefix of its variables (ENV + FIRMWARE, BOOTROM, PACKAGE)
#   shared, cache: its folder in ../shared/emulator and in the cache
#   firmware: the test machines' raw image; official_firmware: micropython.org's
#     file name (firmware_url, firmware_page), firmware_sha256 the test machines' build
#   bootrom: its file name; bootrom_size, bootrom_sha256: what it must be
#   package: the emulator's npm tarball when it is not on the npm registry
#     (rp2350js, as ../shared holds it; package_built: as `make emu-firmware` builds it)
#   emulator: the npm package; node_modules: where `make emu-deps` installs it
#     (below emu/); modules: the emulator's own files (below emu/: emu/deploy.py
#     hashes them with an image deployed through the emulator)
CHIPS = {
    "rp2040": {
        "name": "Pico", "board": "RPI_PICO", "rom": "RP2040 B1 boot ROM", "env": "CHEESEBOX_EMU_",
        "shared": SHARED, "cache": CACHE,
        "firmware": "micropython-v1.28.0-RPI_PICO.bin",
        "official_firmware": "RPI_PICO-20260406-v1.28.0.uf2",
        "firmware_url": "https://micropython.org/resources/firmware/RPI_PICO-20260406-v1.28.0.uf2",
        "firmware_page": "https://micropython.org/download/RPI_PICO/",
        "firmware_sha256": "94e3212c19ce09f45e5198dfa3a876d84f478d9630647be3c5dae6166a282b68",
        "bootrom": "rp2040-bootrom-b1.bin", "bootrom_size": 16 * 1024,
        "bootrom_sha256": "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae",
        "package": None, "package_built": None,
        "emulator": "rp2040js", "node_modules": "node_modules", "modules": ("pico.mjs",),
    },
    "rp2350": {
        "name": "Pico 2", "board": "RPI_PICO2", "rom": "RP2350 A2 boot ROM", "env": "CHEESEBOX_EMU2350_",
        "shared": os.path.join(SHARED, "rp2350"), "cache": os.path.join(CACHE, "rp2350"),
        "firmware": "micropython-v1.28.0-RPI_PICO2.bin",
        "official_firmware": "RPI_PICO2-20260406-v1.28.0.uf2",
        "firmware_url": "https://micropython.org/resources/firmware/RPI_PICO2-20260406-v1.28.0.uf2",
        "firmware_page": "https://micropython.org/download/RPI_PICO2/",
        "firmware_sha256": "c031772715b4c31879fc043acfd097fd5b8888ce19333f6c115f6d063933700b",
        "bootrom": "rp2350-bootrom-a2.bin", "bootrom_size": 32 * 1024,
        "bootrom_sha256": "196c503fbb17b2ad21a1f496574786af698f9376af9a5f79e5e75293c9e12191",
        "package": "rp2350js-2.0.1-10f7ebf6-patched.tgz", "package_built": "rp2350js-2.0.1-10f7ebf6-cheesebox.tgz",
        "emulator": "rp2350js", "node_modules": os.path.join("rp2350", "node_modules"),
        "modules": (os.path.join("rp2350", "pico2350.mjs"), os.path.join("rp2350", "fixes.mjs")),
    },
}


class EmulatorMissing(Exception):
    """What is missing to run the emulated Pico (or to build a UF2: the
    firmware), and how to get it."""


def _first(env, *paths):
    if os.environ.get(env):
        return os.environ[env]
    return next((p for p in paths if os.path.isfile(p)), paths[0])


def firmware_and_bootrom(chip="rp2040"):
    """(firmware, bootrom) paths of that chip, found or not: its variables
    ($CHEESEBOX_EMU_FIRMWARE / $CHEESEBOX_EMU_BOOTROM for the Pico,
    $CHEESEBOX_EMU2350_... for the Pico 2), else its folder in ../shared/emulator/,
    else its folder in the cache of `make emu-firmware` (the official download,
    then a raw image)."""
    c = CHIPS[chip]
    return (_first(c["env"] + "FIRMWARE", os.path.join(c["shared"], c["firmware"]),
                   os.path.join(c["cache"], c["official_firmware"]), os.path.join(c["cache"], c["firmware"])),
            _first(c["env"] + "BOOTROM", os.path.join(c["shared"], c["bootrom"]),
                   os.path.join(c["cache"], c["bootrom"])))


def package(chip="rp2350"):
    """The emulator's tarball `make emu-deps` installs, found or not (None for
    a chip whose emulator comes from the npm registry): its variable
    ($CHEESEBOX_EMU2350_PACKAGE), else ../shared/emulator's, else the one
    `make emu-firmware` built in the cache."""
    c = CHIPS[chip]
    if not c["package"]:
        return None
    return _first(c["env"] + "PACKAGE", os.path.join(c["shared"], c["package"]),
                  os.path.join(c["cache"], c["package_built"]))


def _missing(paths, chip="rp2040"):
    c = CHIPS[chip]
    return EmulatorMissing(
        "emulated %s: %s not found; `make emu-firmware` gets them (MicroPython v1.28.0 %s "
        "and the %s), or set %sFIRMWARE (.bin or .uf2) and %sBOOTROM, see docs/emulator.md"
        % (c["name"], " and ".join(paths), c["board"], c["rom"], c["env"], c["env"]))


def locate_firmware(chip="rp2040"):
    """The MicroPython firmware alone (make uf2 needs no emulator)."""
    fw = firmware_and_bootrom(chip)[0]
    if not os.path.isfile(fw):
        raise _missing([fw], chip)
    return fw
