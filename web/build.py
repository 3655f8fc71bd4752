"""Build the Cheese Box web page into a static folder (make web-build; docs/web.md).

The folder holds everything the page needs and nothing from elsewhere: the
page (web/), MicroPython's WebAssembly build copied from the pinned npm
package (bench/package.json: one pin for the bench and the page), the
firmware's packages byte for byte as `make flash` deploys them to a Pico
(host_tools/deploy/flash.py --dry-run lays out the flash from firmware/manifest.py:
the shell and both games as mpy-cross bytecode, cards.json, the icon modules
with their icons baked for the tablet board's dice, which every board here
shares, so the page does not bake them at power-up either; not the Pico's
port, whose modules need its hardware), the
browser's port beside them, the board files, the app icons, a file list
(files.json) and the service worker with that list, so the page works
offline once loaded. Any static host can serve the folder.

  python web/build.py [--out build/web]
"""
import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WEB = REPO / "web"
sys.path.insert(0, str(REPO))
from host_tools.deploy.deploylist import Manifest  # noqa: E402

NPM_PACKAGE = REPO / "bench" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
WASM_FILES = ("micropython.mjs", "micropython.wasm")
PAGE = ("index.html", "app.js", "layout.js", "style.css", "manifest.webmanifest")
PORT_MODULES = ("webport.py", "webfs.py", "webmain.py")
HARDWARE = ("rp2port",)             # the Pico's port: not for a page
SEEDED = ("sim/__init__.py", "sim/rng.py")   # the simulator's seeded random source (?seed=)


class BuildError(Exception):
    pass


def npm_package():
    """The pinned package's folder, installed with npm ci when missing."""
    if not (NPM_PACKAGE / "micropython.wasm").is_file():
        if shutil.which("npm") is None:
            raise BuildError("npm not found: it installs the pinned MicroPython WebAssembly package"
                             " (bench/package.json)")
        print("web: npm ci --prefix bench (the pinned webassembly MicroPython)", flush=True)
        p = subprocess.run(["npm", "ci", "--prefix", "bench", "--no-audit", "--no-fund"], cwd=REPO,
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise BuildError("npm ci --prefix bench failed:\n" + (p.stdout + p.stderr)[-1500:])
    return NPM_PACKAGE


def deployed(board, flash_dir):
    """The files make flash puts on a Pico's flash, laid out in flash_dir by
    host_tools/deploy/flash.py --dry-run; returns those of the packages for the page
    (every package the manifest deploys but the Pico's port), relative paths."""
    env = dict(os.environ, CHEESEBOX_FLASH_BUILD=str(flash_dir))
    p = subprocess.run([sys.executable, str(REPO / "host_tools" / "deploy" / "flash.py"), board, "--dry-run"],
                       cwd=REPO, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise BuildError("host_tools/deploy/flash.py --dry-run failed:\n" + (p.stdout + p.stderr)[-1500:])
    keep = [pkg for pkg in Manifest().packages if pkg not in HARDWARE]
    return sorted(f.relative_to(flash_dir).as_posix() for pkg in keep
                  for f in (Path(flash_dir) / pkg).iterdir() if f.is_file())


def _png(size):
    """The app icon: a wedge of cheese with holes on a dark tile, drawn here
    (no image tools needed)."""
    rows = []
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            u, v = x / size, y / size
            r, g, b = 0x20, 0x20, 0x20
            if 0.18 < v < 0.8 and u > 0.15 and v > 0.8 - (u - 0.15) * 0.95 and u < 0.87:
                r, g, b = 0xff, 0xc8, 0x00
                for hx, hy, hr in ((0.55, 0.62, 0.07), (0.72, 0.45, 0.05), (0.38, 0.72, 0.04)):
                    if (u - hx) ** 2 + (v - hy) ** 2 < hr * hr:
                        r, g, b = 0xc8, 0x8c, 0x00
            row += bytes((r, g, b))
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def build(out):
    out = Path(out)
    pkg = npm_package()
    if out.exists():
        shutil.rmtree(out)
    (out / "mp").mkdir(parents=True)
    written = []

    def put(rel, data):
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
        written.append(rel)

    for name in PAGE:
        put(name, (WEB / name).read_bytes())
    for name in WASM_FILES:
        put("mp/" + name, (pkg / name).read_bytes())
    flash_dir = out.parent / (out.name + "-flash")
    fw = deployed("tablet", flash_dir)
    for rel in fw:
        put("fw/" + rel, (flash_dir / rel).read_bytes())
    shutil.rmtree(flash_dir)
    extra = list(PORT_MODULES) + list(SEEDED)
    for rel in PORT_MODULES:
        put("fw/" + rel, (WEB / rel).read_bytes())
    for rel in SEEDED:
        put("fw/" + rel, (REPO / rel).read_bytes())
    boards = sorted(p.stem for p in (REPO / "boards").glob("*.json"))
    for name in boards:
        put("boards/%s.json" % name, (REPO / "boards" / (name + ".json")).read_bytes())
    put("icon-192.png", _png(192))
    put("icon-512.png", _png(512))
    put("favicon.ico", _png(32))        # a PNG: browsers take it; a request for it is no 404
    digest = hashlib.sha256()
    for rel in sorted(written):
        digest.update(rel.encode() + b"\0" + (out / rel).read_bytes())
    version = digest.hexdigest()[:16]
    listing = {"version": version, "boards": boards, "files": fw + extra}
    put("files.json", (json.dumps(listing, indent=1) + "\n").encode())
    cached = ["./"] + sorted(written)
    sw = (WEB / "sw.js").read_text().replace("@VERSION@", version).replace("@FILES@", json.dumps(cached))
    put("sw.js", sw.encode())
    return out, version, sum((out / r).stat().st_size for r in written)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(REPO / "build" / "web"), help="folder to build into (default build/web)")
    args = ap.parse_args(argv)
    try:
        out, version, size = build(args.out)
    except BuildError as e:
        print("web: %s" % e, file=sys.stderr)
        return 1
    print("web: built %s (version %s, %.0f KiB)" % (out, version, size / 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())
