"""The Cheese Box's fix of two CPU instruction groups in rp2350js 2.0.1.

apply(SOURCE_DIR): SOURCE_DIR is c1570/rp2350js at commit
10f7ebf669790f39ae3108ea5960c660c95d9f56 (its TypeScript sources, before
`npm run build`); `make emu-firmware` (emu/firmware.py) applies it
to a fresh download of it. A module, not a tool of its own. Every edit replaces one exact passage of
that commit and fails, naming it, if the passage is not there exactly once,
so the fix never lands half-way on other sources.

1. Double-word moves through the FPU registers (ARMv8-M ARM, VLDR, VSTR and
   VMOV between two core registers and a doubleword register). rp2350js moved
   one 32-bit word for VLDR.64/VSTR.64 (coprocessor 11) and had no decoding of
   VMOV Dm, Rt, Rt2 / VMOV Rt, Rt2, Dm, so pico-sdk's alarm pool and
   MicroPython's nlr_push/nlr_pop (which keep d8-d10 that way) got half their
   data back. Dd is the pair S[2d], S[2d+1]; the Cortex-M33 has D0-D15 (D=1 is
   UNDEFINED). Words move as raw bits through a Uint32Array view of the S
   registers, never as floats (a NaN pattern would change on the way). The
   two-single-register VMOV decodes Sm as Vm:M, as the manual gives it.
2. ADC, ADCS, SBC, SBCS (16-bit and both 32-bit forms). rp2350js added the
   carry to the second operand before the flag computation, so an operand of
   0xFFFFFFFF plus a carry of 1 wrapped and C and V came out wrong at the
   edges. Now ARM's AddWithCarry(x, y, carry_in): SBC is
   AddWithCarry(x, NOT y, C), C and V from the exact unsigned and signed sums.
"""
from __future__ import annotations

from pathlib import Path

COMMIT = "10f7ebf669790f39ae3108ea5960c660c95d9f56"
MARK = "Cheese Box fix"

ADD_WITH_CARRY = '''
// %s: ARM's AddWithCarry(x, y, carry_in); C and V from the exact sums, so an
// operand of 0xffffffff with a carry in of 1 does not wrap before the flags.
function addWithCarry(
  core: CortexM33Core,
  x: number,
  y: number,
  carryIn: number,
  setFlags = true
): number {
  const unsignedSum = (x >>> 0) + (y >>> 0) + carryIn;
  const signedSum = (x | 0) + (y | 0) + carryIn;
  const result = unsignedSum >>> 0;
  if (setFlags) {
    core.regs.N = (result & 0x80000000) !== 0;
    core.regs.Z = result === 0;
    core.regs.C = result !== unsignedSum;
    core.regs.V = (result | 0) !== signedSum;
  }
  return result;
}
''' % MARK

S_BITS = '''
// %s: the S registers' raw bits (a view of the same memory), so that a word
// moved through them (VLDR/VSTR, VMOV to/from two core registers) is never
// turned into a float and back.
const sBitsViews = new WeakMap<Float32Array, Uint32Array>();
function sBits(s: Float32Array): Uint32Array {
  let v = sBitsViews.get(s);
  if (!v) {
    v = new Uint32Array(s.buffer, s.byteOffset, s.length);
    sBitsViews.set(s, v);
  }
  return v;
}
''' % MARK

FPU = "src/cortex-m33/execute-fpu.ts"
T16 = "src/cortex-m33/execute-thumb16.ts"
T32 = "src/cortex-m33/execute-thumb32.ts"

EDITS = [
    # 1. FPU: the raw-bits view, after the Sm decoder
    (FPU, "the S registers' raw bits",
     """function getSm(hw0: number, hw1: number): number {
  return ((hw1 & 0xf) << 1) | ((hw1 >>> 5) & 1);
}
""",
     """function getSm(hw0: number, hw1: number): number {
  return ((hw1 & 0xf) << 1) | ((hw1 >>> 5) & 1);
}
""" + S_BITS),
    # 1. VMOV between two core registers and two S registers or one D register
    (FPU, "VMOV two core registers <-> Sm,Sm1 / Dm",
     """  if (((hw0 & 0xfff0) === 0xec40 || (hw0 & 0xfff0) === 0xec50) && coproc === 10) {
    const isLoad = (hw0 >>> 4) & 1; // 0=MCRR(ARM→FP), 1=MRRC(FP→ARM)
    const rt = (hw1 >>> 12) & 0xf;
    const rt2 = hw0 & 0xf;
    const crm = hw1 & 0xf;
    const sn = ((crm & 1) << 4) | ((crm >>> 1) << 1);
    const sm = sn + 1;
    const buf = new ArrayBuffer(4);
    const dv = new DataView(buf);
    if (isLoad) {
      // MRRC: FP → ARM
      dv.setFloat32(0, regs.s[sn], true);
      regs.r[rt] = dv.getUint32(0, true);
      dv.setFloat32(0, regs.s[sm], true);
      regs.r[rt2] = dv.getUint32(0, true);
    } else {
      // MCRR: ARM → FP
      dv.setUint32(0, regs.r[rt] >>> 0, true);
      regs.s[sn] = dv.getFloat32(0, true);
      dv.setUint32(0, regs.r[rt2] >>> 0, true);
      regs.s[sm] = dv.getFloat32(0, true);
    }
    return 1;
  }
""",
     """  // %s: coprocessor 11 is VMOV Dm, Rt, Rt2 / VMOV Rt, Rt2, Dm with Dm = M:Vm
  // (S[2m] <-> Rt, S[2m+1] <-> Rt2); coprocessor 10 is VMOV Sm, Sm1, Rt, Rt2
  // with Sm = Vm:M. Raw bits both ways.
  if ((hw0 & 0xffe0) === 0xec40 && (hw1 & 0xd0) === 0x10) {
    const toArm = (hw0 >>> 4) & 1; // 0=MCRR(ARM→FP), 1=MRRC(FP→ARM)
    const rt = (hw1 >>> 12) & 0xf;
    const rt2 = hw0 & 0xf;
    const vm = hw1 & 0xf;
    const m = (hw1 >>> 5) & 1;
    let sm: number;
    if (coproc === 11) {
      if (m) return -1; // D16-D31: not on a Cortex-M33
      sm = vm << 1;
    } else {
      sm = (vm << 1) | m;
      if (sm === 31) return -1; // Sm1 would be S32: UNPREDICTABLE
    }
    const bits = sBits(regs.s);
    if (toArm) {
      regs.r[rt] = bits[sm];
      regs.r[rt2] = bits[sm + 1];
    } else {
      bits[sm] = regs.r[rt];
      bits[sm + 1] = regs.r[rt2];
    }
    return 1;
  }
""" % MARK),
    # 1. VLDR/VSTR: two words for a D register
    (FPU, "VLDR/VSTR of an S or a D register",
     """    const addr = (u ? base + offset : base - offset) >>> 0;
    const buf = new ArrayBuffer(4);
    if (isLoad) {
      new DataView(buf).setUint32(0, core.chip.readUint32(addr), true);
      regs.s[sd] = new DataView(buf).getFloat32(0, true);
    } else {
      new DataView(buf).setFloat32(0, regs.s[sd], true);
      core.chip.writeUint32(addr, new DataView(buf).getUint32(0, true));
    }
    return 2;
""",
     """    const addr = (u ? base + offset : base - offset) >>> 0;
    // %s: coprocessor 11 moves the D register Dd = S[2d], S[2d+1]
    // (d = D:Vd; only D0-D15 exist), coprocessor 10 one S register; raw bits.
    const words = coproc === 11 ? 2 : 1;
    if (words === 2 && hw0 & 0x40) return -1;
    const bits = sBits(regs.s);
    for (let i = 0; i < words; i++) {
      const a = (addr + 4 * i) >>> 0;
      if (isLoad) bits[sd + i] = core.chip.readUint32(a);
      else core.chip.writeUint32(a, bits[sd + i]);
    }
    return 2;
""" % MARK),
    # 2. 16-bit ADCS / SBCS
    (T16, "AddWithCarry (16-bit)",
     """/** Add with flags update (used by ADDS, ADCS, CMN). See `subFlags` re: setFlags. */
""",
     ADD_WITH_CARRY.lstrip("\n") + "\n"
     """/** Add with flags update (used by ADDS, ADCS, CMN). See `subFlags` re: setFlags. */
"""),
    (T16, "ADCS (16-bit)",
     """    regs.r[Rdn] = addFlags(core, regs.r[Rm], regs.r[Rdn] + (regs.C ? 1 : 0), !inItBlock);
""",
     """    regs.r[Rdn] = addWithCarry(core, regs.r[Rdn], regs.r[Rm], regs.C ? 1 : 0, !inItBlock);
"""),
    (T16, "SBCS (16-bit)",
     """    regs.r[Rdn] = subFlags(core, regs.r[Rdn], regs.r[Rm] + (1 - (regs.C ? 1 : 0)), !inItBlock);
""",
     """    regs.r[Rdn] = addWithCarry(core, regs.r[Rdn], ~regs.r[Rm] >>> 0, regs.C ? 1 : 0, !inItBlock);
"""),
    # 2. 32-bit ADC / SBC, modified immediate and shifted register
    (T32, "AddWithCarry (32-bit)",
     """function addSubFlags(
""",
     ADD_WITH_CARRY.lstrip("\n") + "\n" + """function addSubFlags(
"""),
    (T32, "ADC/SBC (32-bit, immediate)",
     """    case 0b1010: // ADC
      writeDpResult(core, rd, addSubFlags(core, rnVal, imm + (regs.C ? 1 : 0), true, sBit));
      return 1;
    case 0b1011: // SBC
      writeDpResult(core, rd, addSubFlags(core, rnVal, imm + (regs.C ? 0 : 1), false, sBit));
      return 1;
""",
     """    case 0b1010: // ADC
      writeDpResult(core, rd, addWithCarry(core, rnVal, imm, regs.C ? 1 : 0, sBit));
      return 1;
    case 0b1011: // SBC
      writeDpResult(core, rd, addWithCarry(core, rnVal, ~imm >>> 0, regs.C ? 1 : 0, sBit));
      return 1;
"""),
    (T32, "ADC/SBC (32-bit, shifted register)",
     """    case 0b1010: // ADC
      writeDpResult(core, rd, addSubFlags(core, rnVal, shifted + (regs.C ? 1 : 0), true, setFlags));
      return 1;
    case 0b1011: // SBC
      writeDpResult(
        core,
        rd,
        addSubFlags(core, rnVal, shifted + (regs.C ? 0 : 1), false, setFlags)
      );
      return 1;
""",
     """    case 0b1010: // ADC
      writeDpResult(core, rd, addWithCarry(core, rnVal, shifted, regs.C ? 1 : 0, setFlags));
      return 1;
    case 0b1011: // SBC
      writeDpResult(core, rd, addWithCarry(core, rnVal, ~shifted >>> 0, regs.C ? 1 : 0, setFlags));
      return 1;
"""),
]


class FixError(Exception):
    pass


def apply(src: Path) -> list[str]:
    """Apply every edit to the sources under `src`; returns what was done.
    Nothing is written unless every edit finds its passage exactly once."""
    texts = {}
    for rel, _, _, _ in EDITS:
        if rel not in texts:
            p = src / rel
            if not p.is_file():
                raise FixError("%s: not found (rp2350js at %s expected)" % (p, COMMIT[:8]))
            texts[rel] = p.read_text(encoding="utf-8")
    if any(MARK in t for t in texts.values()):
        raise FixError("%s: already fixed" % src)
    done = []
    for rel, what, old, new in EDITS:
        n = texts[rel].count(old)
        if n != 1:
            raise FixError("%s: %s: the passage to replace is there %d times, not once "
                           "(not rp2350js at %s?)" % (rel, what, n, COMMIT[:8]))
        texts[rel] = texts[rel].replace(old, new)
        done.append("%s: %s" % (rel, what))
    for rel, text in texts.items():
        (src / rel).write_text(text, encoding="utf-8")
    return done
