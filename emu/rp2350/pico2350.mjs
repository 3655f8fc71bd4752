// An emulated Raspberry Pi Pico 2 for the Cheese Box: the official MicroPython
// RPI_PICO2 firmware on rp2350js (installed from its tarball, see
// docs/emulator.md), with what a table wires to it (../harness.mjs, shared
// with the Pico), so that emu/server.mjs, and so every Python tool, serves
// both chips unchanged.
//
// What this module does on top of rp2350js (fixes.mjs has the chip's own gaps):
// - the run loop steps a sleeping core not cycle by cycle: core 1 (unused by
//   MicroPython) is skipped while it sleeps, and when core 0 sleeps too, time
//   jumps to the next clock alarm, the PIO stepped up to it;
// - the PIO is stepped once per PIO clock (its divider skipped arithmetically,
//   [delay] cycles in bulk), each step stamped with its own instant; while the
//   CPU runs, the PIO lags it until one of its clocks is due;
// - flash erase/program trapped in the boot ROM are done by the harness,
//   taking the time a flash chip takes;
// - pull-ups/pull-downs are modelled and an output reads back its own level.
import {
  rp2350js, fixGpioCoprocessor, fixIoIrq, fixSysTick, fixClock, fixPsm, fixWatchdog,
  trapFlashFunctions, BKPT_ERASE, BKPT_PROGRAM, CLK_SYS,
} from './fixes.mjs';
import { Harness, FLASH_TIMES, WAIT_TXFIFO, WAIT_OUT, flashImage } from '../harness.mjs';

const { RP2350, USBCDC } = rp2350js;
const CYCLE_NS = 1e9 / CLK_SYS;
const FLASH_SIZE = 4 * 1024 * 1024;   // the Pico 2's W25Q32 (rp2350js models 16 MiB)
// A sleeping core is woken by a PIO interrupt (the sampler's, after an input
// changed) at the end of a PIO batch: batches are short while that can happen.
const SLEEP_BATCH = 256;              // cycles a batch while DMA feeds a PIO,
const SLEEP_BATCH_INPUT = 2048;       // for 100 us after an input changed (a wake-up at most 14 us late),
const INPUT_QUIET_NS = 100e3;         // else up to the next alarm (at most 1 ms)
const PIO_LAG = 150;                  // while the CPU runs the PIO lags it by at most 1 us

/** A 4 MiB flash image from a raw .bin or a .uf2 (RP2350 Arm blocks only). */
export function flashFromFirmware(path) {
  // family id present, and not the 'absolute' block picotool adds for erratum
  // E10; inside the flash
  return flashImage(path, FLASH_SIZE, (fw, o) => {
    const flags = fw.readUInt32LE(o + 8), addr = fw.readUInt32LE(o + 12), size = fw.readUInt32LE(o + 16);
    return (flags & 0x2000) && fw.readUInt32LE(o + 28) !== 0xe48bff57 &&
      addr >= 0x10000000 && addr + size <= 0x10000000 + FLASH_SIZE;
  });
}

export class Pico extends Harness {
  /** opts: as Harness's. */
  constructor(opts) {
    super(opts, FLASH_SIZE);
    this.chip = 'rp2350';
    this.readsBackOutputs = true;
    this._build(this.opts.flash, 0);
  }

  // -- the chip ---------------------------------------------------------------------
  _build(flash, wdReason) {
    fixGpioCoprocessor();
    const mcu = new RP2350({ coreArch: 'arm' });
    this.mcu = mcu;
    this.clock = mcu.clock;
    this.pioLag = 0;
    mcu.logger = this._logger();
    mcu.bootrom.set(this.bootrom);
    fixClock(mcu);
    fixSysTick(mcu);
    fixIoIrq(mcu);
    fixPsm(mcu);
    fixWatchdog(mcu);
    mcu.flash.set(flash.subarray(0, FLASH_SIZE), 0);
    this._trapFlash(mcu);
    this._hookWatchdog(mcu.watchdog);
    this._wireTable(mcu);
    mcu.reset();
    this.watchdog.reason = wdReason;      // mcu.reset() resets the cores only
    this._wireUsb(mcu, USBCDC);
    this.bootNanos = this.nanos;
  }

  /** The boot ROM's flash functions trapped at a BKPT (fixes.mjs): the
   * harness does the operation (_flashCall), the W25Q32's typical times. */
  _trapFlash(mcu) {
    trapFlashFunctions(mcu);
    for (const core of mcu.core) {
      core.onBreak = (code) => {
        const kind = code === BKPT_ERASE ? 'erase' : code === BKPT_PROGRAM ? 'program' : null;
        if (!kind) { this._log(`[emu] BKPT ${code} at PC=${(core.PC - 2).toString(16)}`); return; }
        const [addr, count] = this._flashCall(kind, core.regs.r, (a) => mcu.readUint8(a), FLASH_TIMES.typical);
        core.bxWritePC(core.regs.lr);
        this._flashDone(kind, addr, count);
      };
    }
  }

  /** Let ns of time pass with the cores stalled (PIO, DMA and alarms go on). */
  _stall(ns) {
    const end = this.clock.nanos + ns;
    while (this.clock.nanos < end) {
      const na = this.clock.nextAlarm;
      let dt = Math.min(end - this.clock.nanos, na ? Math.max(0, na.nanos - this.clock.nanos) : 1e6, 1e6);
      if (this.pioRunning()) dt = Math.min(dt, SLEEP_BATCH * CYCLE_NS);
      dt = Math.max(dt, CYCLE_NS);
      this._tick(Math.ceil(dt / CYCLE_NS));
    }
  }

  /** rp2350js reads an output as its input: every change of a pin settles
   * it again (the harness reads an output back as its own level). */
  _padModelled(pin) { pin.addListener(() => this._settle(pin.index)); }

  // -- serial -----------------------------------------------------------------------------
  /** Host to device: rp2350js NAKs the OUT endpoint until a byte is there. */
  _feed() {
    if (!this.connected) return;
    const f = this.cdc.txFIFO;
    while (this.txQueue.length && f.itemCount < f.size) this.cdc.sendSerialByte(this.txQueue.shift());
  }

  // -- PIO ----------------------------------------------------------------------------------
  /**
   * A DMA channel is feeding a PIO TX FIFO (a LED frame going out). rp2350js
   * moves DMA data on clock alarms, which fire between PIO batches: keep the
   * batches short then, or the machine starves mid-frame (a latch on the
   * wire where the chip has none).
   */
  _txDmaBusy() {
    for (const ch of this.mcu.dma.channels) {
      const t = ch.treqValue;
      if (ch.active && (t & 7) < 4 && t < 20) return true;
    }
    return false;
  }

  /**
   * `cycles` sys cycles of every enabled state machine from time `base` (ns).
   * A machine is stepped once per PIO clock (the divider's phase accumulator
   * jumped over arithmetically, as StateMachine.step() would count it), delay
   * cycles and a stall on an empty TX FIFO pass in bulk, and every step is
   * stamped with its own instant (this._pioNow), so a pin edge it makes has
   * its exact time. Sets this.pioDue: sys cycles until a machine's next clock
   * that can change anything (at most PIO_LAG).
   */
  _stepPio(cycles, base) {
    let due = PIO_LAG;
    for (const pio of this.mcu.pio) {
      if (pio.stopped) continue;
      for (const m of pio.machines) {
        if (!m.enabled) continue;
        const div = m.clockDiv || 65536 * 256;    // INT 0 divides by 65536
        let ph = m.curClockPhase, j = 0;          // phase since its last clock; sys cycles used
        while (true) {
          const room = Math.floor((ph + 256 * (cycles - j)) / div);   // its clocks left in the batch
          let idle = m.remainingDelay;                                // clocks that change nothing
          if (!idle && m.waiting && (m.waitType === WAIT_TXFIFO || m.waitType === WAIT_OUT) && m.txFIFO.empty) idle = room;
          const n = Math.min(idle ? idle : 1, room);
          if (n > 0) {
            const c = Math.ceil((n * div - ph) / 256);
            j += c;
            ph += 256 * c - n * div;
          }
          if (idle) {
            m.cycles += n;
            if (m.remainingDelay) m.remainingDelay -= n;
          } else if (n) {
            m.curClockPhase = div - 256;                   // step() adds 256: this clock fires
            this._pioNow = base + (j - 1) * CYCLE_NS;
            m.step();
            pio.checkChangedPins();
          }
          if (n === room) { ph += 256 * (cycles - j); break; }
        }
        m.curClockPhase = ph;
        const stalled = m.waiting && (m.waitType === WAIT_TXFIFO || m.waitType === WAIT_OUT) && m.txFIFO.empty;
        if (!stalled) due = Math.min(due, Math.max(1, Math.ceil((div - ph) / 256)) + Math.ceil(m.remainingDelay * div / 256));
      }
    }
    this._pioNow = -1;
    this.pioDue = due;
  }

  /** Bring the PIO up to the clock's present (it may lag the CPU by less than
   * one of its clocks: nothing in it changes in between). */
  _pioSync() {
    const lag = this.pioLag;
    if (lag > 0) {
      this.pioLag = 0;
      this._stepPio(lag, this.clock.nanos - lag * CYCLE_NS);
    }
  }

  /** `cycles` sys cycles of PIO (from now) and clock, the cores not stepped. */
  _tick(cycles) {
    this._pioSync();
    if (this.pioRunning()) this._stepPio(cycles, this.clock.nanos);
    this.clock.tick(cycles * CYCLE_NS);
  }

  /**
   * Up to n steps of the chip (an instruction of each running core, or both
   * cores asleep up to the next alarm), ending at serial output, a reset to
   * do, or emulated time `limit`. Returns the instructions core 0 ran. An
   * exception inside rp2350js kills the chip: time goes on, nothing runs.
   */
  _run(n, limit) {
    const { mcu, clock } = this;
    const c0 = mcu.core[0], c1 = mcu.core[1];
    mcu.currentCore = 0;
    if (this.hangUntil > 0 && this.hangUntil <= this.nanos) this.hangUntil = 0;
    const paced = limit !== Infinity;
    const pio0 = mcu.pio[0], pio1 = mcu.pio[1], pio2 = mcu.pio[2];
    let instructions = 0;
    try {
      outer: for (let i = 0; i < n; i++) {
        const pio = !(pio0.stopped && pio1.stopped && pio2.stopped);
        const hung = this.hangUntil > 0 && this.hangUntil > this.nanos;
        if (hung || (c0.waiting && (c1.waiting || mcu.core1Off))) {
          // both cores asleep (or the program hung): on to the next alarm, at
          // most 1 ms, the PIO stepped all the way in short batches
          const na = clock.nextAlarm;
          let dt = na ? Math.max(0, na.nanos - clock.nanos) : 1e6;
          dt = Math.min(dt, 1e6);
          if (hung) dt = Math.min(dt, this.hangUntil - this.nanos);
          let cycles = Math.max(1, Math.ceil(dt / CYCLE_NS));
          if (pio) {
            if (this._txDmaBusy()) cycles = Math.min(cycles, SLEEP_BATCH);
            else if (this.nanos - this.inputAt < INPUT_QUIET_NS) cycles = Math.min(cycles, SLEEP_BATCH_INPUT);
          }
          this._tick(cycles);
          c0.cycles += cycles; c1.cycles = c0.cycles;
          i += Math.max(1, cycles >> 6);
          if (limit !== Infinity && this.nanos >= limit) break;
        } else {
          // the cores run: instruction after instruction (each one a step of
          // this loop) until core 0 sleeps or the chunk ends; nothing here
          // can start a hang (only a request between chunks does)
          let pioOn = pio;
          for (;;) {
            const el = c0.executeInstruction();
            instructions++;
            if (c1.waiting || mcu.core1Off) c1.cycles = c0.cycles;
            else {
              mcu.currentCore = 1;
              while (c1.cycles < c0.cycles) c1.executeInstruction();
              mcu.currentCore = 0;
            }
            const t0 = clock.nanosCounter, dt = el * CYCLE_NS;
            if (pioOn) {
              // the PIO catches up when one of its clocks is due, or before an
              // alarm (a pin driven from outside, a DMA transfer) acts on it
              this.pioLag += el;
              const na = clock.nextAlarm;
              if (this.pioLag >= this.pioDue || (na && na.nanos <= t0 + dt)) {
                const lag = this.pioLag;
                this.pioLag = 0;
                this._stepPio(lag, t0 - (lag - el) * CYCLE_NS);
              }
            }
            // clock.tick(dt), without the call when no alarm is due
            const na = clock.nextAlarm;
            if (na && na.nanos <= t0 + dt) clock.tick(dt);
            else clock.nanosCounter = t0 + dt;
            if (paced && (i & 255) === 0 && this.nanos >= limit) break outer;
            if (this._pendingReset || this._yield) break outer;
            if ((c0.waiting && (c1.waiting || mcu.core1Off)) || ++i >= n) break;
            pioOn = !(pio0.stopped && pio1.stopped && pio2.stopped);
          }
          continue;
        }
        if (this._pendingReset || this._yield) break;
      }
    } catch (e) {
      this._log(`[emu] EXCEPTION ${e.stack} (PC0=${c0.PC.toString(16)})`);
      this.fatal = String(e.message);
      this.hangUntil = Infinity;        // the chip is dead: time goes on, nothing runs
    }
    return instructions;
  }
}
