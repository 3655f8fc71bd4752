"""The rp2350js installed in emu/rp2350/node_modules has the project's fix of
two CPU instruction groups (emu/rp2350js_fix.py; the tarball in
../shared/emulator/rp2350 has its own): ADC/ADCS/SBC/SBCS flags at the edges,
and VLDR/VSTR/VMOV of a D register moving both words. Each instruction is
executed once on the emulated core (emu/rp2350/cpu_check.mjs)."""
import os
import subprocess

import pytest

pytestmark = pytest.mark.rp2350

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(os.path.dirname(os.path.dirname(HERE)), "emu", "rp2350", "cpu_check.mjs")


def test_the_installed_rp2350js_executes_both_instruction_groups_as_arm_specifies():
    p = subprocess.run(["node", CHECK], capture_output=True, text=True, timeout=60)
    lines = p.stdout.splitlines()
    assert p.returncode == 0 and len(lines) == 12 and all(ln.startswith("ok") for ln in lines), \
        p.stdout + p.stderr
