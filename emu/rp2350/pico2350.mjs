// An emulated Raspberry Pi Pico 2 for the Cheese Box: the official MicroPython
// RPI_PICO2 firmware on rp2350js (installed from its tarball, see
// docs/emulator.md), with the same face as emu/pico.mjs's Pico so that
// emu/server.mjs, and so every Python tool, serves both chips unchanged.
//
// What this file does on top of rp2350js (fixes.mjs has the chip's own gaps):
// - the run loop steps a sleeping core not cycle by cycle: core 1 (unused by
//   MicroPython) is skipped while it sleeps, and when core 0 sleeps too, time
//   jumps to the next clock alarm, the PIO stepped up to it;
// - the PIO is stepped once per PIO clock (its divider skipped arithmetically,
//   [delay] cycles in bulk), each step stamped with its own instant; while the
//   CPU runs, the PIO lags it until one of its clocks is due;
// - flash erase/program trapped in the boot ROM are done here, taking the
//   time a flash chip takes; a watchdog trigger or machine.reset() rebuilds
//   the chip with flash and watchdog scratch kept;
// - pull-ups/pull-downs are modelled and an output reads back its own level.
import fs from 'fs';
import { Ws2812Decoder } from '../ws2812.mjs';
import { Hc165Chain } from '../hc165.mjs';
import {
  rp2350js, fixGpioCoprocessor, fixIoIrq, fixSysTick, fixClock, fixPsm, fixWatchdog,
  trapFlashFunctions, BKPT_ERASE, BKPT_PROGRAM, CLK_SYS,
} from './fixes.mjs';

const { RP2350, USBCDC } = rp2350js;
const CYCLE_NS = 1e9 / CLK_SYS;
const FLASH_SIZE = 4 * 1024 * 1024;   // the Pico 2's W25Q32 (rp2350js models 16 MiB)
// A sleeping core is woken by a PIO interrupt (the sampler's, after an input
// changed) at the end of a PIO batch: batches are short while that can happen.
const SLEEP_BATCH = 256;              // cycles a batch while DMA feeds a PIO,
const SLEEP_BATCH_INPUT = 2048;       // for 100 us after an input changed (a wake-up at most 14 us late),
const INPUT_QUIET_NS = 100e3;         // else up to the next alarm (at most 1 ms)
const PIO_LAG = 150;                  // while the CPU runs the PIO lags it by at most 1 us
const WD_REASON_TIMER = 1, WD_REASON_FORCE = 2;
const WAIT_TXFIFO = 3, WAIT_OUT = 5;  // rp2350js WaitType: a machine stalled for TX data

/** A 4 MiB flash image from a raw .bin or a .uf2 (RP2350 Arm blocks only). */
export function flashFromFirmware(path) {
  const fw = fs.readFileSync(path);
  const img = new Uint8Array(FLASH_SIZE).fill(0xff);
  if (!path.endsWith('.uf2')) { img.set(fw, 0); return img; }
  for (let o = 0; o + 512 <= fw.length; o += 512) {
    if (fw.readUInt32LE(o) !== 0x0a324655 || fw.readUInt32LE(o + 4) !== 0x9e5d5157) continue;
    const flags = fw.readUInt32LE(o + 8), addr = fw.readUInt32LE(o + 12), size = fw.readUInt32LE(o + 16);
    // family id present, and not the 'absolute' block picotool adds for erratum E10
    if (!(flags & 0x2000) || fw.readUInt32LE(o + 28) === 0xe48bff57) continue;
    if (addr >= 0x10000000 && addr + size <= 0x10000000 + FLASH_SIZE) img.set(fw.subarray(o + 32, o + 32 + size), addr - 0x10000000);
  }
  return img;
}

export class Pico {
  /** opts: bootrom (path), flash (Uint8Array image), log(line) for warnings. */
  constructor(opts) {
    this.opts = Object.assign({ chunk: 20000, log: null }, opts);
    const rom = fs.readFileSync(this.opts.bootrom);
    this.bootrom = new Uint32Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.length));
    this.chip = 'rp2350';
    this.out = '';
    this.outBase = 0;
    this.rxListeners = [];
    this.txQueue = [];
    this.waiters = [];
    this.resets = [];
    this.flashOps = 0;
    this.flashOpHook = null;
    this.flashLog = [];
    this.timeOffset = 0;
    this.drives = new Map();
    this.outputWatchers = new Map();
    this.adcSources = new Map();     // ADC channel -> fn(nanos) giving a 12-bit value
    this.ws = new Map();
    this.hc165 = null;
    this.running = false;
    this.free = false;
    this.pace = 0;
    this.scratch = new Uint32Array(8);
    this.instructions = 0;
    this.hangUntil = 0;
    this.hostReads = true;
    this._pioNow = -1;
    this.pioLag = 0;                 // sys cycles the PIO is behind the clock,
    this.pioDue = 0;                 // and how far it may lag (a machine's next clock)
    this.inputAt = 0;                // when a pin was last driven from outside
    this._build(this.opts.flash, 0);
  }

  // -- the chip ---------------------------------------------------------------------
  _build(flash, wdReason) {
    fixGpioCoprocessor();
    const mcu = new RP2350({ coreArch: 'arm' });
    this.mcu = mcu;
    this.clock = mcu.clock;
    this.pioLag = 0;
    const self = this;
    mcu.logger = {
      debug() {}, info() {},
      warn(c, m) { self._log(`[warn] ${c}: ${m}`); },
      error(c, m) { self._log(`[error] ${c}: ${m}`); },
    };
    mcu.bootrom.set(this.bootrom);
    fixClock(mcu);
    fixSysTick(mcu);
    fixIoIrq(mcu);
    fixPsm(mcu);
    fixWatchdog(mcu);
    mcu.flash.set(flash.subarray(0, FLASH_SIZE), 0);
    this._trapFlash(mcu);
    const wd = mcu.watchdog;
    this.watchdog = wd;
    wd.onWatchdogTrigger = () => this._watchdogFired();
    wd.scratchData.set(this.scratch);
    this._modelPads(mcu);
    for (const [g, list] of this.outputWatchers) this._listen(g, list);
    this._hookAdc(mcu);
    mcu.reset();
    wd.reason = wdReason;                 // mcu.reset() resets the cores only
    const cdc = new USBCDC(mcu.usbCtrl);
    this.cdc = cdc;
    this.connected = false;
    cdc.onDeviceConnected = () => { this.connected = true; this._checkWaiters(); };
    cdc.onSerialData = (buf) => {
      const s = Buffer.from(buf).toString('latin1');
      this.out += s;
      for (const l of this.rxListeners) l(s);
      this._yield = true;
    };
    // a host that holds the port open without reading: IN transfers of the CDC
    // data endpoint stay pending (the device's TX buffer fills up)
    this.heldIn = new Map();
    const usb = mcu.usbCtrl, dpram = usb.DPRAMUpdated.bind(usb);
    usb.DPRAMUpdated = (offset, value) => {
      if (!this.hostReads && (value & 0x400) && offset >= 0x80 && offset < 0x100 && !(offset & 4) &&
          ((offset - 0x80) >> 3) === cdc.inEndpoint) {
        this.heldIn.set(offset, value);
        return;
      }
      dpram(offset, value);
    };
    this.bootNanos = this.nanos;
  }

  _log(s) { if (this.opts.log) this.opts.log(s); }

  _trapFlash(mcu) {
    trapFlashFunctions(mcu);
    for (const core of mcu.core) {
      core.onBreak = (code) => {
        const r = core.regs.r;
        let kind, addr = r[0] >>> 0, count;
        if (code === BKPT_ERASE) {
          kind = 'erase'; count = r[1] >>> 0;
          mcu.flash.fill(0xff, addr, addr + count);
        } else if (code === BKPT_PROGRAM) {
          kind = 'program'; count = r[2] >>> 0;
          const data = r[1] >>> 0;
          for (let i = 0; i < count; i++) mcu.flash[addr + i] &= mcu.readUint8(data + i);
        } else {
          this._log(`[emu] BKPT ${code} at PC=${(core.PC - 2).toString(16)}`);
          return;
        }
        // the CPU waits for the flash chip (W25Q32 typical: 45 ms a 4 KiB
        // sector erase, 0.4 ms a 256-byte page); PIO and DMA go on meanwhile
        this._advance(kind === 'erase' ? 45e6 * Math.ceil(count / 4096) : 0.4e6 * Math.ceil(count / 256));
        core.bxWritePC(core.regs.lr);
        this.flashOps++;
        this.flashLog.push([this.nanos, kind, addr, count]);
        if (this.flashOpHook) this.flashOpHook(kind, addr, count);
      };
    }
  }

  /** Let ns of time pass with the cores stalled (PIO, DMA and alarms go on). */
  _advance(ns) {
    const end = this.clock.nanos + ns;
    while (this.clock.nanos < end) {
      const na = this.clock.nextAlarm;
      let dt = Math.min(end - this.clock.nanos, na ? Math.max(0, na.nanos - this.clock.nanos) : 1e6, 1e6);
      if (this.pioRunning()) dt = Math.min(dt, SLEEP_BATCH * CYCLE_NS);
      dt = Math.max(dt, CYCLE_NS);
      this._tick(Math.ceil(dt / CYCLE_NS));
    }
  }

  // -- pads: pulls and read-back ---------------------------------------------------------
  /** rp2350js reads an undriven input as 0 and an output as its input: apply
   * the pad's pull-up/down, and let an output read its own level. */
  _modelPads(mcu) {
    const self = this;
    for (const pin of mcu.gpio) {
      let pad = pin.padValue;
      Object.defineProperty(pin, 'padValue', {
        get() { return pad; },
        set(v) { pad = v; self._settle(pin.index); },
        configurable: true,
      });
      pin.addListener(() => this._settle(pin.index));
    }
  }

  _settle(g) {
    const pin = this.mcu.gpio[g];
    if (!pin) return;
    const d = this.drives.get(g);
    let v;
    if (pin.outputEnable) v = pin.outputValue;
    else if (d !== undefined) v = !!d;
    else if (pin.pullupEnabled) v = true;
    else if (pin.pulldownEnabled) v = false;
    else v = pin.rawInputValue;
    if (v !== pin.rawInputValue) pin.setInputValue(v);
  }

  _settleAll() { for (const pin of this.mcu.gpio) this._settle(pin.index); }

  drive(g, level) {
    this.inputAt = this.nanos;
    if (level === null || level === undefined) this.drives.delete(g);
    else this.drives.set(g, level ? 1 : 0);
    this._settle(g);
  }

  watchOutput(g, fn) {
    if (!this.outputWatchers.has(g)) {
      const list = [];
      this.outputWatchers.set(g, list);
      this._listen(g, list);
    }
    this.outputWatchers.get(g).push(fn);
  }

  _listen(g, list) {
    const pin = this.mcu.gpio[g];
    let last = pin.outputEnable ? (pin.outputValue ? 1 : 0) : -1;
    // the listener is handed the pin's new state (GPIOPinState: 0 Low, 1
    // High, 2.. an input): read from it, not from the pin's getters again
    // (every WS2812 edge comes here)
    pin.addListener((state) => {
      const lvl = state === 1 ? 1 : state === 0 ? 0 : -1;
      if (lvl === last) return;
      last = lvl;
      const t = this.nanos;
      for (const fn of list) fn(t, lvl);
    });
  }

  ws2812(g) {
    if (!this.ws.has(g)) {
      const dec = new Ws2812Decoder();
      this.ws.set(g, dec);
      this.watchOutput(g, (t, lvl) => dec.edge(t, lvl));
    }
    return this.ws.get(g);
  }

  attachHc165({ load, clock, data, chips }) {
    this.hc165 = new Hc165Chain(chips, (v) => this.drive(data, v));
    this.watchOutput(load, (t, lvl) => this.hc165.load(lvl));
    this.watchOutput(clock, (t, lvl) => this.hc165.clock(lvl));
    return this.hc165;
  }

  /** The voltage on ADC channel ch comes from fn(nanos) (a 12-bit value),
   * sampled when a conversion starts. */
  adcSource(ch, fn) {
    this.adcSources.set(ch, fn);
    this._hookAdc(this.mcu);
  }

  _hookAdc(mcu) {
    const adc = mcu.adc;
    adc.onADCRead = (ch) => {
      adc.currentChannel = ch;
      const fn = this.adcSources.get(ch);
      if (fn) adc.channelValues[ch] = fn(this.nanos);
      adc.sampleAlarm.schedule(adc.sampleTime * 1000);
    };
  }

  // -- power and resets ----------------------------------------------------------------
  _watchdogFired() {
    const wd = this.watchdog;
    const reason = wd.reason || WD_REASON_TIMER;
    wd.timer.enable = false; wd.alarm.enable = false;
    if (this._pendingReset) return;
    this.resets.push({ nanos: this.nanos, reason: reason === WD_REASON_FORCE ? 'force' : 'watchdog' });
    this._pendingReset = reason;
  }

  _reboot(wdReason) {
    this.hangUntil = 0;
    const flash = this.flashImage();
    this.scratch.set(this.watchdog.scratchData);
    this.timeOffset += this.clock.nanos;
    this._build(flash, wdReason);
    this._settleAll();
  }

  powerCycle(flash = null) {
    this.hangUntil = 0;
    this.resets.push({ nanos: this.nanos, reason: 'power' });
    const img = flash ?? this.flashImage();
    this.scratch.fill(0);
    this.timeOffset += this.clock.nanos;
    this._build(img, 0);
    this._settleAll();
  }

  setHostReads(on) {
    this.hostReads = on;
    if (on) {
      const held = this.heldIn;
      this.heldIn = new Map();
      for (const offset of held.keys()) this.mcu.usbCtrl.DPRAMUpdated(offset, this.mcu.usbDPRAMView.getUint32(offset, true));
    }
  }

  flashImage() { return new Uint8Array(this.mcu.flash.subarray(0, FLASH_SIZE)); }

  get nanos() { return this.timeOffset + (this._pioNow >= 0 ? this._pioNow : this.clock.nanos); }

  // -- serial -----------------------------------------------------------------------------
  send(bytes) {
    for (const ch of (typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes)) this.txQueue.push(ch);
  }

  /** Host to device: rp2350js NAKs the OUT endpoint until a byte is there. */
  _feed() {
    if (!this.connected) return;
    const f = this.cdc.txFIFO;
    while (this.txQueue.length && f.itemCount < f.size) this.cdc.sendSerialByte(this.txQueue.shift());
  }

  // -- time -------------------------------------------------------------------------------
  atNanos(nanos, cb) {
    const a = this.clock.createAlarm(() => cb());
    a.schedule(Math.max(0, nanos - this.nanos));
    return a;
  }

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

  pioRunning() { const p = this.mcu.pio; return !(p[0].stopped && p[1].stopped && p[2].stopped); }

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

  runUntil(pred, { emuMs = 1e12, wallMs = 1e12 } = {}) {
    return new Promise((resolve, reject) => {
      this.waiters.push({ pred, resolve, reject, startEmu: this.nanos, startWall: Date.now(), emuMs, wallMs });
      this._checkWaiters();
      this._kick();
    });
  }

  runFor(ms) {
    const target = this.nanos + ms * 1e6;
    return this.runUntil(() => this.nanos >= target);
  }

  expect(text, opts = {}) {
    const from = Math.max(0, (opts.from ?? 0) - this.outBase);
    return this.runUntil(() => this.out.indexOf(text, from) >= 0, opts);
  }

  _checkWaiters() {
    for (const w of this.waiters.slice()) {
      let done = false, err = null;
      try { done = w.pred(); } catch (e) { err = e; }
      if (done || err) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        if (err) w.reject(err); else w.resolve(true);
      } else if ((this.nanos - w.startEmu) / 1e6 > w.emuMs || Date.now() - w.startWall > w.wallMs) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(false);
      }
    }
  }

  _kick() {
    if (this.running || !(this.waiters.length || this.free)) return;
    this.running = true;
    setImmediate(() => this._chunk());
  }

  _chunk() {
    if (!(this.waiters.length || this.free)) { this.running = false; return; }
    if (this.pace > 0) {
      const ahead = (this.nanos - this.paceNanos) / 1e6 / this.pace - (Date.now() - this.paceWall);
      if (ahead > 2) { setTimeout(() => this._chunk(), Math.min(ahead, 20)); return; }
    }
    this._feed();
    const { mcu, clock } = this;
    const c0 = mcu.core[0], c1 = mcu.core[1];
    mcu.currentCore = 0;
    if (this.hangUntil > 0 && this.hangUntil <= this.nanos) this.hangUntil = 0;
    const limit = this.pace > 0 ? this.nanos + 5e6 : Infinity;   // paced: 5 ms slices
    const n = this.opts.chunk;
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
      this.instructions += instructions;
      instructions = 0;
      this._log(`[emu] EXCEPTION ${e.stack} (PC0=${c0.PC.toString(16)})`);
      this.fatal = String(e.message);
      this.hangUntil = Infinity;        // the chip is dead: time goes on, nothing runs
    }
    this.instructions += instructions;
    this._yield = false;
    if (this._pendingReset) {
      const r = this._pendingReset;
      this._pendingReset = 0;
      this._reboot(r);
    }
    this._checkWaiters();
    setImmediate(() => this._chunk());
  }

  startPacing(pace = 1) { this.pace = pace; this.paceNanos = this.nanos; this.paceWall = Date.now(); }
}
