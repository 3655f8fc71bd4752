// What rp2350js 2.0.1 gets wrong about the RP2350, put right at run time so
// that the official MicroPython RPI_PICO2 firmware runs as on the chip. The
// package's files stay as installed; each fix is one function, applied by
// pico2350.mjs to every chip it builds (docs/emulator.md lists them).
import { createRequire } from 'module';
import path from 'path';

const require = createRequire(import.meta.url);
const DIST = path.dirname(require.resolve('rp2350js'));   // .../dist/cjs
export const rp2350js = require('rp2350js');
const coprocessor = require(path.join(DIST, 'cortex-m33', 'coprocessor.js'));

// -- GPIO coprocessor ------------------------------------------------------------
// On the RP2350's Arm cores the SDK drives every GPIO output and output enable
// through coprocessor 0 (hardware/gpio_coproc.h); rp2350js decodes CP0 with
// another layout and ignores MCRR, so no SIO output would ever change. The
// encodings, as gpio_coproc.h emits them:
//   MCR  p0,#op,Rt,c0,CRm   op 0-3: put/xor/set/clr a bank (CRm 0/1 OUT lo/hi, 4/5 OE lo/hi)
//                           op 5-7: xor/set/clr one pin, Rt = pin (CRm 0 OUT, 4 OE)
//   MCRR p0,#op,Rt,Rt2,CRm  op 0-3: 64-bit put/xor/set/clr (Rt lo, Rt2 hi; CRm 0 OUT, 4 OE)
//                           op 4: put pin Rt to Rt2; op 5-7: xor/set/clr pin Rt if Rt2 bit 0
//                           op 8-11: put/xor/set/clr bank Rt2 (0 lo, 1 hi) with Rt
//   MRC  p0,#0,Rt,c0,CRm    read CRm 0/1 OUT, 4/5 OE, 8/9 IN (lo/hi)
//   MRRC p0,#0,Rt,Rt2,CRm   read 64 bits of CRm 0 OUT, 4 OE, 8 IN
const SIO_BANK = { 0: 0x10, 1: 0x30, 2: 0x04 };     // CRm>>2: OUT, OE, IN (GPIO_HI_* at +4)
const SIO_OP = [0x00, 0x18, 0x08, 0x10];            // put, xor, set, clr register offsets

function gpioCoprocessor(core, hw0, hw1) {
  const sio = core.chip.sio, ci = core.coreIndex, r = core.regs.r;
  const write = (reg, hi, op, v) => sio.writeUint32(reg + (hi ? 4 : 0) + SIO_OP[op], v >>> 0, ci);
  const read = (reg, hi) => sio.readUint32(reg + (hi ? 4 : 0), ci) >>> 0;
  const pinOp = (reg, pin, op) => write(reg, pin >= 32, op, 1 << (pin & 31));
  const Rt = hw1 >>> 12, crm = hw1 & 0xf;
  const reg = SIO_BANK[crm >> 2];
  if ((hw0 & 0xefe0) === 0xec40) {                   // MCRR / MRRC
    const load = (hw0 >>> 4) & 1, Rt2 = hw0 & 0xf, op = (hw1 >>> 4) & 0xf;
    if (reg === undefined || (crm & 3)) return 1;
    if (load) { r[Rt] = read(reg, false); r[Rt2] = read(reg, true); return 1; }
    if (reg === SIO_BANK[2]) return 1;               // IN is read-only
    if (op <= 3) { write(reg, false, op, r[Rt]); write(reg, true, op, r[Rt2]); }
    else if (op === 4) pinOp(reg, r[Rt] & 63, r[Rt2] & 1 ? 2 : 3);
    else if (op <= 7) { if (r[Rt2] & 1) pinOp(reg, r[Rt] & 63, op - 4); }
    else if (op <= 11) write(reg, r[Rt2] & 1, op - 8, r[Rt]);
    return 1;
  }
  if ((hw0 & 0xef00) === 0xee00 && (hw1 & 0x10)) {   // MCR / MRC
    const op = (hw0 >>> 5) & 7, load = (hw0 >>> 4) & 1, hi = crm & 1;
    if (reg === undefined) return 1;
    if (load) {
      const v = read(reg, hi);
      if (Rt === 15) core.regs.xpsr = (core.regs.xpsr & 0x0fffffff) | (v & 0xf0000000);
      else r[Rt] = v;
      return 1;
    }
    if (reg === SIO_BANK[2]) return 1;
    if (op <= 3) write(reg, hi, op, r[Rt]);
    else if (op >= 5) pinOp(reg, r[Rt] & 63, op - 4);
    return 1;
  }
  return 1;                                          // CDP: nothing on CP0
}

let coprocessorFixed = false;
/** Once per process: CP0 goes to gpioCoprocessor (the dispatch is module-wide). */
export function fixGpioCoprocessor() {
  if (coprocessorFixed) return;
  coprocessorFixed = true;
  const stock = coprocessor.coprocessorExecute;
  coprocessor.coprocessorExecute = (core, hw0, hw1) => {
    if (((hw1 >>> 8) & 0xf) !== 0 || (core.ppb().cpacr & 3) === 0) return stock(core, hw0, hw1);
    return gpioCoprocessor(core, hw0, hw1);
  };
}

// -- IO_BANK0 interrupt registers ----------------------------------------------------
// 48 GPIOs, 8 a word, 6 words a group: INTR @0x230, PROC0_INTE @0x248,
// PROC0_INTF @0x260, PROC0_INTS @0x278. rp2350js computes the group and the
// first pin wrongly, so Pin.irq() never fires. PROC1_* and DORMANT_* read 0.
const INTR0 = 0x230, GROUP = 0x18, PROC0_END = 0x230 + 4 * GROUP, IRQ_END = 0x230 + 12 * GROUP;

export function fixIoIrq(mcu) {
  const io = mcu.peripherals[0x40028];
  const read0 = io.readUint32.bind(io), write0 = io.writeUint32.bind(io);
  const where = (offset) => [Math.floor((offset - INTR0) / GROUP), (((offset - INTR0) % GROUP) >> 2) * 8];
  io.readUint32 = (offset) => {
    if (offset < INTR0 || offset >= IRQ_END) return read0(offset);
    if (offset >= PROC0_END) return 0;
    const [group, first] = where(offset);
    let v = 0;
    for (let i = 7; i >= 0; i--) {
      const pin = mcu.gpio[first + i];
      v <<= 4;
      if (!pin) continue;
      v |= [pin.irqStatus, pin.irqEnableMask, pin.irqForceMask,
        (pin.irqStatus & pin.irqEnableMask) | pin.irqForceMask][group];
    }
    return v >>> 0;
  };
  io.writeUint32 = (offset, value) => {
    if (offset < INTR0 || offset >= IRQ_END) return write0(offset, value);
    if (offset >= PROC0_END) return undefined;
    const [group, first] = where(offset);
    for (let i = 0; i < 8; i++) {
      const pin = mcu.gpio[first + i];
      if (!pin) continue;
      const v = (value >>> (4 * i)) & 0xf;
      if (group === 0) pin.updateIRQValue((io.rawWriteValue >>> (4 * i)) & 0xf);   // write 1 to clear
      else if (group === 1 && pin.irqEnableMask !== v) { pin.irqEnableMask = v; mcu.updateIOInterrupt(); }
      else if (group === 2 && pin.irqForceMask !== v) { pin.irqForceMask = v; mcu.updateIOInterrupt(); }
    }
    return undefined;
  };
}

// -- SysTick ----------------------------------------------------------------------------
// rp2350js decodes SYST_CSR/RVR/CVR 0x10 too high (0xe000e020..), so the real
// addresses read all ones: machine.bitstream, hence neopixel, spins on SYST_CVR.
// Move 0xe010-0xe01f onto what it decodes; SysTick counts at clk_sys.
export function fixSysTick(mcu) {
  const ppb = mcu.ppb;
  const read0 = ppb.readUint32ViaCore.bind(ppb), write0 = ppb.writeUint32ViaCore.bind(ppb);
  const move = (o) => (o >= 0xe010 && o < 0xe020 ? o + 0x10 : o >= 0xe020 && o < 0xe030 ? -1 : o);
  ppb.readUint32ViaCore = (o, c) => (move(o) < 0 ? 0 : read0(move(o), c));
  ppb.writeUint32ViaCore = (o, v, c) => { if (move(o) >= 0) write0(move(o), v, c); };
  for (const st of ppb.coreState) st.systickTimer.frequency = mcu.clkSys;
}

// -- clk_sys -----------------------------------------------------------------------------
// No PLL model: rp2350js runs at 125 MHz; MicroPython sets 150 MHz (the SDK's
// RP2350 default). PWM timers were built at the old clock.
export const CLK_SYS = 150e6;
export function fixClock(mcu) {
  mcu.clkSys = CLK_SYS;
  for (const ch of mcu.pwm.channels) ch.timer.frequency = CLK_SYS;
}

// -- PSM ----------------------------------------------------------------------------------
// FRCE_ON/FRCE_OFF/WDSEL have 25 bits on the RP2350 (PROC1 is bit 24), not the
// RP2040's 17. A soft reset (Ctrl-D) forces core 1 off and on again and waits
// for its boot ROM to answer (multicore_reset_core1): hold core 1 while it is
// off and restart it from the boot ROM when released, or the reset hangs.
const PSM_MASK = 0x01ffffff, PSM_PROC1 = 0x01000000;
export function fixPsm(mcu) {
  const psm = mcu.peripherals[0x40018];
  const reg = { 0x0: 0, 0x4: 0, 0x8: 0 };
  const c0 = mcu.core[0], c1 = mcu.core[1];
  mcu.core1Off = false;
  psm.readUint32 = (offset) => (offset === 0xc ? (PSM_MASK & ~reg[0x4]) >>> 0 : reg[offset] ?? 0);
  psm.writeUint32 = (offset, value) => {
    if (!(offset in reg)) return;
    const was = reg[offset];
    reg[offset] = value & PSM_MASK;
    if (offset !== 0x4) return;
    if (!(was & PSM_PROC1) && (value & PSM_PROC1)) { mcu.core1Off = true; c1.waiting = true; }
    if ((was & PSM_PROC1) && !(value & PSM_PROC1)) {
      mcu.core1Off = false;
      const st = mcu.ppb.coreState[1];
      st.vtor = 0;
      for (const a of [st.nvicEnabled, st.nvicPending, st.nvicActive]) a.fill(0);
      c1.reset();
      c1.cycles = c0.cycles;
    }
  };
}

// -- watchdog --------------------------------------------------------------------------------
// rp2350js ticks it at 2 MHz (the RP2040's erratum E1); the RP2350 counts 1 us a
// LOAD unit. (A trigger is handled by pico2350.mjs: the whole chip is rebuilt.)
export function fixWatchdog(mcu) { mcu.watchdog.timer.frequency = 1e6; }

// -- boot ROM flash functions ---------------------------------------------------------------------
// rp2350js's QMI drops direct-mode commands, so flash erase/program are lost
// (LittleFS: ENODEV). Find the ROM's flash_range_erase ('RE') and
// flash_range_program ('RP') in its function table and put a BKPT there; the
// harness does the operation on mcu.flash and returns to the caller.
// Table (bootrom rt0): halfword at 0x14 points at entries {code, flags, one
// halfword a flag bit}; the Arm-secure entry point is flag 0x0004.
function romFunction(rom, code) {
  const h = (a) => rom[a] | (rom[a + 1] << 8);
  for (let p = h(0x14), n = 0; h(p) && n < 1000; n++) {
    const flags = h(p + 2);
    let at = p + 4;
    for (let bit = 0; bit < 16; bit++) {
      if (!(flags & (1 << bit))) continue;
      if (h(p) === code && bit === 2) return h(at) & ~1;
      at += 2;
    }
    p = at;
  }
  return null;
}

export const BKPT_ERASE = 0x71, BKPT_PROGRAM = 0x72;
/** Patch the ROM; returns {erase, program} entry addresses. */
export function trapFlashFunctions(mcu) {
  const rom = new Uint8Array(mcu.bootrom.buffer, mcu.bootrom.byteOffset, mcu.bootrom.byteLength);
  const code = (s) => s.charCodeAt(0) | (s.charCodeAt(1) << 8);
  const erase = romFunction(rom, code('RE')), program = romFunction(rom, code('RP'));
  if (erase === null || program === null) throw new Error('flash functions not found in the boot ROM');
  const bkpt = (a, n) => { rom[a] = n; rom[a + 1] = 0xbe; };
  bkpt(erase, BKPT_ERASE);
  bkpt(program, BKPT_PROGRAM);
  return { erase, program };
}
