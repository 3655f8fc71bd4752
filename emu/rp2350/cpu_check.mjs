// The two CPU instruction groups the project fixes in rp2350js 2.0.1
// (emu/rp2350js_fix.py), checked on the rp2350js installed in
// emu/rp2350/node_modules (or the folder given): each instruction is put in
// SRAM and executed once on core 0, its result compared with ARM's pseudocode.
//   node emu/rp2350/cpu_check.mjs [NODE_MODULES_DIR]
// Prints one line per form and exits 1 if any case differs.
import { createRequire } from 'module';
import path from 'path';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(process.argv[2] || path.join(here, 'node_modules'), 'x.js'));
const { RP2350 } = require('rp2350js');

const mcu = new RP2350({ coreArch: 'arm' });
mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
mcu.reset();
const core = mcu.core[0];
const regs = core.regs;
const CODE = 0x20000000, DATA = 0x20001000;
core.ppb().cpacr |= 0xf << 20;                    // CP10/CP11 (the FPU) enabled

function run(halfwords) {
  halfwords.forEach((h, i) => mcu.writeUint16(CODE + 2 * i, h));
  regs.pc = CODE;
  core.executeInstruction();
}

function addWithCarry(x, y, c) {
  const u = (x >>> 0) + (y >>> 0) + c, s = (x | 0) + (y | 0) + c, r = u >>> 0;
  return { r, N: r >= 0x80000000, Z: r === 0, C: r !== u, V: (r | 0) !== s };
}

const EDGES = [0, 1, 2, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x12345678];
let failed = 0;

function checkFlags(name, cases) {
  let bad = 0, n = 0;
  for (const [x, y, c, op, yEff] of cases) {
    regs.r[0] = 0; regs.r[1] = x; regs.r[2] = y;
    regs.C = !!c; regs.N = false; regs.Z = false; regs.V = false;
    run(op);
    const want = addWithCarry(x, yEff, c);
    n++;
    if (regs.r[0] >>> 0 !== want.r || regs.N !== want.N || regs.Z !== want.Z || regs.C !== want.C || regs.V !== want.V) bad++;
  }
  console.log(`${bad ? 'FAIL' : 'ok  '} ${name}: ${n - bad} of ${n} cases as ARM's AddWithCarry`);
  failed += bad;
}

const pairs = [];
for (const x of EDGES) for (const y of EDGES) for (const c of [0, 1]) pairs.push([x, y, c]);
// ADCS r0, r1 / SBCS r0, r1 (16-bit: r0 = r0 op r1, so r0 is loaded with x below)
function t16(name, opcode, invert) {
  let bad = 0, n = 0;
  for (const [x, y, c] of pairs) {
    regs.r[0] = x; regs.r[1] = y; regs.C = !!c; regs.N = regs.Z = regs.V = false;
    run([opcode]);
    const w = addWithCarry(x, invert ? ~y >>> 0 : y, c);
    n++;
    if (regs.r[0] >>> 0 !== w.r || regs.N !== w.N || regs.Z !== w.Z || regs.C !== w.C || regs.V !== w.V) bad++;
  }
  console.log(`${bad ? 'FAIL' : 'ok  '} ${name}: ${n - bad} of ${n} cases as ARM's AddWithCarry`);
  failed += bad;
}
t16('ADCS r0, r1 (16-bit)', 0x4148, false);
t16('SBCS r0, r1 (16-bit)', 0x4188, true);
checkFlags('ADCS.W r0, r1, r2', pairs.map(([x, y, c]) => [x, y, c, [0xeb51, 0x0002], y]));
checkFlags('SBCS.W r0, r1, r2', pairs.map(([x, y, c]) => [x, y, c, [0xeb71, 0x0002], ~y >>> 0]));
// immediates 0xffffffff (i:imm3 = 0011, imm8 = 0xff) and 0x000000ff
for (const [imm, hw1] of [[0xffffffff, 0x30ff], [0xff, 0x00ff]]) {
  const xs = EDGES.flatMap((x) => [[x, 0], [x, 1]]);
  checkFlags(`ADCS r0, r1, #0x${imm.toString(16)}`, xs.map(([x, c]) => [x, 0, c, [0xf151, hw1], imm]));
  checkFlags(`SBCS r0, r1, #0x${imm.toString(16)}`, xs.map(([x, c]) => [x, 0, c, [0xf171, hw1], ~imm >>> 0]));
}

// double-word moves: bit patterns a float would not keep (a signalling NaN, all ones)
const LO = 0x7f800001, HI = 0xffffffff;
const bits = new Uint32Array(regs.s.buffer, regs.s.byteOffset, 32);
function moves(name, op, before, ok) {
  let why = '';
  try {
    before();
    run(op);
  } catch (e) {
    why = ` (rp2350js: ${String(e.message || e).slice(0, 80)})`;
  }
  const good = !why && ok();
  console.log(`${good ? 'ok  ' : 'FAIL'} ${name}${why}`);
  if (!good) failed++;
}
moves('VMOV d0, r2, r3 (both words, raw bits)', [0xec43, 0x2b10],
  () => { bits.fill(0); regs.r[2] = LO; regs.r[3] = HI; },
  () => bits[0] === LO && bits[1] === HI);
moves('VMOV r4, r5, d0 (both words, raw bits)', [0xec55, 0x4b10],
  () => { bits[0] = LO; bits[1] = HI; regs.r[4] = 0; regs.r[5] = 0; },
  () => regs.r[4] === LO && regs.r[5] === HI);
moves('VSTR d0, [r0] (both words)', [0xed80, 0x0b00],
  () => { bits[0] = LO; bits[1] = HI; regs.r[0] = DATA; mcu.writeUint32(DATA, 0); mcu.writeUint32(DATA + 4, 0); },
  () => mcu.readUint32(DATA) === LO && mcu.readUint32(DATA + 4) === HI);
moves('VLDR d9, [r0] (both words)', [0xed90, 0x9b00],
  () => { regs.r[0] = DATA; mcu.writeUint32(DATA, LO); mcu.writeUint32(DATA + 4, HI); bits[18] = 0; bits[19] = 0; },
  () => bits[18] === LO && bits[19] === HI);
process.exit(failed ? 1 : 0);
