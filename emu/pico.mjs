// An emulated Raspberry Pi Pico for the Cheese Box: the official MicroPython
// rp2 firmware on rp2040js (npm, pinned in package-lock.json), with what a
// table wires to it (harness.mjs, shared with the Pico 2: buttons with
// pull-ups, NeoPixel chains decoded from the pin, 74HC165 answer keys, the
// dials, power cuts and the watchdog).
//
// Where stock rp2040js 1.4.1 falls short of a real RP2040 (see
// ../../shared/emulator/README.md), this module does what the chip does:
// - PIO is stepped on the CPU's clock (when a machine's next clock is due, at
//   most 1 us behind the CPU), honouring CLKDIV and [delay]; a machine going
//   round a steady loop is fast-forwarded (_loopSkip);
// - flash erase/program (boot ROM 'RE'/'RP') are trapped and done by the harness;
// - the USB host NAKs an OUT endpoint until it has data, so an idle CPU sleeps;
// - pull-ups and pull-downs are modelled: a button nobody presses reads high.
import { Simulator, USBCDC } from 'rp2040js';
import { Harness, FLASH_TIMES, WAIT_TXFIFO, WAIT_OUT, flashImage } from './harness.mjs';


const CYCLE_NS = 8;                  // 125 MHz
// While the CPU runs, the PIO is stepped only when one of its machines' next
// clock is due (nothing in it changes in between) or an alarm is about to act
// on it (a pin driven from outside, a DMA transfer): it lags the CPU by at most
// this many cycles (1 us), as on the Pico 2's harness. EMU_PIO_LAG=1 steps it
// after every instruction, as before.
const PIO_LAG = process.env.EMU_PIO_LAG ? Math.max(1, +process.env.EMU_PIO_LAG) : 125;
const NO_LOOP_SKIP = !!process.env.EMU_NO_LOOP_SKIP;   // for checking the fast-forward
const FLASH_SIZE = 2 * 1024 * 1024;  // the Pico's W25Q16JV
const PIO0_IRQ_0 = 7;                // the sampler's interrupt (NVIC line)
const BKPT_ERASE = 0x71, BKPT_PROGRAM = 0x72;

/** A 2 MiB flash image from a raw .bin or a .uf2 (firmware at offset 0). */
export function flashFromFirmware(path) { return flashImage(path, FLASH_SIZE, () => true); }

export class Pico extends Harness {
  /** opts: as Harness's, and flashTimes: 'typical' (default) or 'max' (FLASH_TIMES). */
  constructor(opts) {
    super(opts, FLASH_SIZE);
    this.flashTimes = Object.assign({}, FLASH_TIMES[this.opts.flashTimes || 'typical']);
    this.irqs = {};                 // NVIC line -> interrupts the core took (all boots)
    this._build(this.opts.flash, 0);
  }

  // -- the chip ---------------------------------------------------------------
  _build(flash, wdReason) {
    const sim = new Simulator();
    const mcu = sim.rp2040;
    this.mcu = mcu;
    this.clock = sim.clock;
    mcu.loadBootrom(this.bootrom);
    mcu.flash.set(flash, 0);
    this._trapFlash(mcu);
    mcu.logger = this._logger();
    this._hookWatchdog(mcu.peripherals[0x40058]);
    this.watchdog.reason = wdReason;
    for (const pio of mcu.pio) {
      pio.run = function () {};       // stepped from our loop instead
      for (const m of pio.machines) { m._acc = 0; m._stall = 0; m._pioCycles = 0; m._tops = 0; m._jmps = []; m._hist = []; }
    }
    this._wireTable(mcu);
    const cdc = this._wireUsb(mcu, USBCDC);
    this.pendingRead = null;
    const origRead = mcu.usbCtrl.onEndpointRead;
    this._origRead = origRead;
    mcu.usbCtrl.onEndpointRead = (ep, size) => {
      if (ep === cdc.outEndpoint && cdc.txFIFO.itemCount === 0) { this.pendingRead = [ep, size]; return; }
      origRead(ep, size);
    };
    // count the interrupts the core takes (the load of a chattering pin)
    const core = mcu.core;
    const entry = core.exceptionEntry.bind(core);
    core.exceptionEntry = (n) => { const k = n - 16; this.irqs[k] = (this.irqs[k] || 0) + 1; entry(n); };
    mcu.core.PC = 0x10000000;
    this.bootNanos = this.nanos;
  }

  /** The boot ROM's flash_range_erase ('RE') and flash_range_program ('RP')
   * begin with a BKPT: the harness does the operation (_flashCall). */
  _trapFlash(mcu) {
    const rom = new Uint8Array(mcu.bootrom.buffer);
    const ft = rom[0x14] | (rom[0x15] << 8);
    const funcs = {};
    for (let i = ft; ; i += 4) {
      const code = rom[i] | (rom[i + 1] << 8);
      if (!code) break;
      funcs[String.fromCharCode(code & 0xff, code >> 8)] = (rom[i + 2] | (rom[i + 3] << 8)) & ~1;
    }
    const patch = (addr, op) => { rom[addr] = op & 0xff; rom[addr + 1] = op >> 8; };
    patch(funcs.RE, 0xbe00 | BKPT_ERASE);
    patch(funcs.RP, 0xbe00 | BKPT_PROGRAM);
    mcu.onBreak = (code) => {
      const core = mcu.core;
      const kind = code === BKPT_ERASE ? 'erase' : code === BKPT_PROGRAM ? 'program' : null;
      if (!kind) { this._log(`[emu] BKPT ${code} at PC=${(core.PC - 2).toString(16)}`); return; }
      const [addr, count] = this._flashCall(kind, core.registers, (a) => core.readUint8(a), this.flashTimes);
      core.PC = core.LR & ~1;
      this._flashDone(kind, addr, count);
    };
  }

  /** Let ns pass with the CPU waiting (a flash operation), in pieces up to
   * each alarm: a finger (pin alarm) moving during an erase is seen by the
   * sampler at its own instant, bounces and all. */
  _stall(ns) {
    this._pioSync();
    const clock = this.clock, end = clock.nanos + ns;
    for (;;) {
      const na = clock.nextAlarm;
      const stop = na && na.nanos < end ? Math.max(na.nanos, clock.nanos) : end;
      const dt = stop - clock.nanos;
      if (dt > 0 && this.pioRunning()) this._stepPio(dt / CYCLE_NS, clock.nanos);
      clock.tick(dt);
      if (stop >= end) break;
    }
  }

  /** rp2040js reads an output as its own level; a pad's pulls apply from the start. */
  _padModelled(pin) { this._settle(pin.index); }

  /** Interrupts the core took on NVIC line k since the first power-on. */
  irqCount(k = PIO0_IRQ_0) { return this.irqs[k] || 0; }

  // -- serial -----------------------------------------------------------------
  /** Host to device; an OUT transfer the device asked for while nothing
   * was queued (a NAK) is answered now. */
  _feed() {
    const f = this.cdc.txFIFO;
    if (!this.connected) return;
    while (this.txQueue.length && f.itemCount < f.size) f.push(this.txQueue.shift());
    if (this.pendingRead && f.itemCount > 0) {
      const [ep, size] = this.pendingRead;
      this.pendingRead = null;
      this._origRead(ep, size);
    }
  }

  // -- PIO --------------------------------------------------------------------
  /**
   * Step every running state machine by `cycles` CPU cycles that began at
   * clock time `base` (ns); returns the cycles actually run, fewer when a
   * machine raised an interrupt while the core sleeps (the core must wake at
   * that instant, not at the end of the batch). Each PIO step is stamped with
   * its own instant, so a pin it drives (a WS2812 wire) changes at the right
   * nanosecond; [delay] cycles are skipped in bulk, a machine stalled on an
   * empty TX FIFO costs nothing until data arrives (it does nothing on a real
   * chip either), and a machine going round a steady loop is fast-forwarded
   * (loopSkip).
   */
  _stepPio(cycles, base, awake = false) {
    const core = this.mcu.core;
    const watchIrq = !awake && core.waiting && !core.interruptsUpdated;
    let limit = cycles;
    const done = [];
    for (const pio of this.mcu.pio) {
      if (pio.stopped) continue;
      for (const m of pio.machines) {
        if (!m.enabled) continue;
        const div = m.clockDivInt === 0 ? 65536 : m.clockDivInt + m.clockDivFrac / 256;
        let acc = m._acc + limit;
        m._tops = 0;
        while (acc >= div) {
          if (m._stall > 0) {
            const n = Math.min(m._stall, Math.floor(acc / div));
            m._stall -= n;
            m._pioCycles += n;
            acc -= n * div;
            continue;
          }
          if (m.waiting && (m.waitType === WAIT_TXFIFO || m.waitType === WAIT_OUT) && m.txFIFO.empty) {
            acc %= div;
            break;
          }
          acc -= div;
          this._pioNow = base + (limit - acc) * CYCLE_NS;
          const pc = m.pc;
          const op = pio.instructions[pc];
          if (op >>> 13 === 0 && m._tops) m._jmps.push(pc, (op >> 5) & 7, m.x, m.y);
          const c0 = m.cycles, rx0 = m.rxFIFO.itemCount, tx0 = m.txFIFO.itemCount;
          m.step();
          m._pioCycles++;
          pio.checkChangedPins();
          const dc = m.cycles - c0;
          if (dc > 1) m._stall += dc - 1;
          if (m.rxFIFO.itemCount !== rx0 || m.txFIFO.itemCount !== tx0) this._dmaNow();
          if (watchIrq && core.interruptsUpdated) {
            // the core wakes now: every machine stops here
            const used = limit - acc;
            for (const o of done) o._acc -= limit - used;    // ran ahead: owe it back
            limit = used;
            acc = 0;
            break;
          }
          if (m.pc === m.wrapBottom && !m.waiting && !NO_LOOP_SKIP) {
            const skip = this._loopSkip(m, Math.floor(acc / div));
            if (skip) acc -= skip * div;
          }
        }
        m._acc = acc;
        done.push(m);
      }
    }
    this._pioNow = -1;
    this.pioDue = this._nextPioClock();
    return limit;
  }

  /** System cycles until a running machine's next PIO clock that can change
   * something (after its [delay]; a machine stalled on an empty TX FIFO waits
   * for data, which comes on an alarm or within PIO_LAG), at most PIO_LAG. */
  _nextPioClock() {
    let due = PIO_LAG;
    for (const pio of this.mcu.pio) {
      if (pio.stopped) continue;
      for (const m of pio.machines) {
        if (!m.enabled) continue;
        if (m.waiting && (m.waitType === WAIT_TXFIFO || m.waitType === WAIT_OUT) && m.txFIFO.empty) continue;
        const div = m.clockDivInt === 0 ? 65536 : m.clockDivInt + m.clockDivFrac / 256;
        const d = Math.max(1, Math.ceil(div - m._acc + m._stall * div));
        if (d < due) due = d;
      }
    }
    return due;
  }

  /** Bring the PIO up to the clock's present (it lagged the CPU by less than
   * one of its clocks: nothing in it changed in between). */
  _pioSync() {
    const lag = this.pioLag;
    if (lag > 0) {
      this.pioLag = 0;
      if (this.pioRunning()) this._stepPio(lag, this.clock.nanos - lag * CYCLE_NS, true);
    }
  }

  /**
   * rp2040js moves DMA data on clock alarms set for "now", which fire only
   * between our PIO batches: a FIFO a machine just filled or emptied is
   * serviced here at once, as the chip's DMA does within a few cycles (else a
   * WS2812 machine would starve mid-frame, or the sampler's FIFO overflow).
   */
  _dmaNow() {
    const now = this.clock.nanos;
    for (let again = true; again;) {
      again = false;
      for (const ch of this.mcu.dma.channels) {
        const a = ch.transferAlarm;
        if (a.scheduled && a.nanos <= now) {
          a.cancel();
          ch.transfer();
          again = true;
        }
      }
    }
  }

  /**
   * Called each time machine m is back at the top of its loop. When its last
   * three trips round the loop were alike (same length, same branches taken,
   * no FIFO, IRQ or pin change, registers changing by the same amount each
   * trip), the next trips are those too until a branch could go the other way
   * (a counter reaching zero, x reaching y): jump over them, at most `room`
   * PIO cycles. Returns the PIO cycles skipped. Inputs cannot change inside
   * a batch (pins change on alarms, between batches), so this is exact.
   */
  _loopSkip(m, room) {
    const pio = m.pio;
    const snap = [m.x >>> 0, m.y >>> 0, m.inputShiftReg >>> 0, m.outputShiftReg >>> 0,
      m.inputShiftCount, m.outputShiftCount, m.rxFIFO.itemCount, m.txFIFO.itemCount,
      pio.irq, pio.pinValues, pio.pinDirections, m._pioCycles];
    const jmps = m._jmps || [];
    const hist = m._tops ? m._hist : (m._hist = []);
    hist.push([snap, jmps]);
    m._jmps = [];
    m._tops = (m._tops || 0) + 1;
    if (hist.length > 3) hist.shift();
    if (hist.length < 3) return 0;
    const [[s0, j0], [s1, j1], [s2, j2]] = hist;
    const len = s2[11] - s1[11];
    if (len <= 0 || len !== s1[11] - s0[11] || j1.length !== j2.length || j0.length !== j1.length) return 0;
    for (let i = 4; i <= 10; i++) if (s0[i] !== s1[i] || s1[i] !== s2[i]) return 0;
    const d = [];
    for (let i = 0; i < 4; i++) {
      const a = (s1[i] - s0[i]) | 0, b = (s2[i] - s1[i]) | 0;
      if (a !== b) return 0;
      d.push(b);
    }
    let k = Math.floor(room / len);
    // each branch must keep going the same way for k more trips
    for (let t = 0; t < j2.length; t += 4) {
      if (j1[t] !== j2[t]) return 0;
      const cond = j2[t + 1];
      const dx = (j2[t + 2] - j1[t + 2]) | 0, dy = (j2[t + 3] - j1[t + 3]) | 0;
      let v, dv;
      if (cond === 1 || cond === 2) { v = j2[t + 2] >>> 0; dv = dx; }
      else if (cond === 3 || cond === 4) { v = j2[t + 3] >>> 0; dv = dy; }
      else if (cond === 5) { v = (j2[t + 2] - j2[t + 3]) >>> 0; dv = (dx - dy) | 0; }
      else continue;                       // always, pin, !osre: constant inside a batch
      if (dv === 0) continue;
      if (dv === -1) k = Math.min(k, v - 2);            // stay clear of zero
      else if (dv === 1) k = Math.min(k, 0x100000000 - v - 2);
      else return 0;
    }
    if (k <= 0) return 0;
    m.x = (s2[0] + d[0] * k) >>> 0;
    m.y = (s2[1] + d[1] * k) >>> 0;
    m.inputShiftReg = (s2[2] + d[2] * k) >>> 0;
    m.outputShiftReg = (s2[3] + d[3] * k) >>> 0;
    m._pioCycles += k * len;
    m.cycles += k * len;
    m._tops = 0;                          // watch three more trips before the next jump
    this.loopSkips = (this.loopSkips || 0) + k;
    return k * len;
  }


  /**
   * Up to n steps of the chip (one instruction, or one sleep up to the next
   * alarm), ending at serial output, a reset to do, or emulated time
   * `limit`; the PIO is brought up to the present at the end. Returns the
   * instructions run.
   */
  _run(n, limit) {
    const { mcu, clock } = this;
    const core = mcu.core;
    const paced = limit !== Infinity;
    const pio0 = mcu.pio[0], pio1 = mcu.pio[1];
    let instructions = 0;
    outer: for (let i = 0; i < n; i++) {
      let pio = !(pio0.stopped && pio1.stopped);
      const hung = this.hangUntil !== 0 && this.hangUntil > this.nanos;
      if (this.pioLag && (hung || core.waiting)) this._pioSync();
      const t0 = clock.nanos;
      if (hung) {
        // a hung program: the core does nothing useful, time and peripherals
        // go on (the watchdog, if running, resets the chip)
        const na = clock.nextAlarm;
        let dt = Math.min(this.hangUntil - this.nanos, na ? Math.max(0, na.nanos - t0) : 1e6, 1e6);
        if (pio && dt) dt = this._stepPio(dt / CYCLE_NS, t0) * CYCLE_NS;
        clock.tick(Math.max(dt, 8));
        i += 1000;
      } else if (core.waiting) {
        const na = clock.nextAlarm;
        let dt = na ? Math.max(0, na.nanos - t0) : 1e6;
        // the PIO runs up to the alarm first: a pin an alarm changes is seen
        // by the sampler at its own instant, not up to 1 ms early
        if (pio && dt) dt = this._stepPio(dt / CYCLE_NS, t0) * CYCLE_NS;
        clock.tick(dt);
        i += Math.max(1, dt / CYCLE_NS / 64);
      } else {
        // the core runs: instruction after instruction (each one a step of
        // this loop, as above) until it sleeps or the chunk ends; nothing
        // here can start a hang (only a request between chunks does)
        for (;;) {
          const c = core.executeInstruction();
          // the instruction's cycles start at the clock as it is now: a flash
          // erase or program inside it (a BKPT trapped, _stall) let its time
          // pass, the PIO stepped all through it
          const ti = clock.nanosCounter;
          instructions++;
          const dtc = c * CYCLE_NS;
          const na = clock.nextAlarm;
          if (pio) {
            this.pioLag += c;
            if (this.pioLag >= this.pioDue || (na && na.nanos <= ti + dtc)) {
              const lag = this.pioLag;
              this.pioLag = 0;
              this._stepPio(lag, ti - (lag - c) * CYCLE_NS, true);
            }
          }
          // clock.tick(dtc), without the call when no alarm is due (the
          // clock is read again: a flash operation inside the instruction
          // let its time pass)
          const to = clock.nanosCounter + dtc;
          if (clock.nextAlarm && clock.nextAlarm.nanos <= to) clock.tick(dtc);
          else clock.nanosCounter = to;
          if (this._pendingReset || this._yield || (paced && this.nanos >= limit)) break outer;
          if (core.waiting || ++i >= n) break;
          pio = !(pio0.stopped && pio1.stopped);
        }
      }
      if (this._pendingReset || this._yield || (paced && this.nanos >= limit)) break;
    }
    this._pioSync();
    return instructions;
  }
}
