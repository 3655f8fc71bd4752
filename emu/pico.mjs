// An emulated Raspberry Pi Pico for the Cheese Box: the official MicroPython
// rp2 firmware on rp2040js (npm, pinned in package-lock.json), with what a
// table wires to it: buttons with pull-ups, NeoPixel chains decoded from the
// pin, 74HC165 answer keys, the board LED, power cuts and the watchdog.
//
// Where stock rp2040js 1.4.1 falls short of a real RP2040 (see
// ../../shared/emulator/README.md), this harness does what the chip does:
// - PIO is stepped on the CPU's clock (when a machine's next clock is due, at
//   most 1 us behind the CPU), honouring CLKDIV and [delay];
// - flash erase/program (boot ROM 'RE'/'RP') are done here, on mcu.flash;
// - the USB host NAKs an OUT endpoint until it has data, so an idle CPU sleeps;
// - a watchdog trigger rebuilds the chip with flash and scratch registers kept;
// - pull-ups and pull-downs are modelled: a button nobody presses reads high.
import fs from 'fs';
import { Simulator, USBCDC } from 'rp2040js';
import { Ws2812Decoder } from './ws2812.mjs';
import { Hc165Chain } from './hc165.mjs';

const CYCLE_NS = 8;                  // 125 MHz
// While the CPU runs, the PIO is stepped only when one of its machines' next
// clock is due (nothing in it changes in between) or an alarm is about to act
// on it (a pin driven from outside, a DMA transfer): it lags the CPU by at most
// this many cycles (1 us), as on the Pico 2's harness. EMU_PIO_LAG=1 steps it
// after every instruction, as before.
const PIO_LAG = process.env.EMU_PIO_LAG ? Math.max(1, +process.env.EMU_PIO_LAG) : 125;
const NO_LOOP_SKIP = !!process.env.EMU_NO_LOOP_SKIP;   // for checking the fast-forward
const WAIT_TXFIFO = 3, WAIT_OUT = 5; // rp2040js WaitType: stalled for TX data
const WD_REASON_TIMER = 1, WD_REASON_FORCE = 2;
const FLASH_SIZE = 2 * 1024 * 1024;
// W25Q16JV flash times (datasheet): a 4 KiB sector erase 45 ms typical, 400 ms
// maximum; a 256-byte page program 0.4 ms typical, 3 ms maximum
export const FLASH_TIMES = { typical: { eraseMs: 45, pageMs: 0.4 }, max: { eraseMs: 400, pageMs: 3 } };
const PIO0_IRQ_0 = 7;                // the sampler's interrupt (NVIC line)

function loadWords(path) {
  const b = fs.readFileSync(path);
  return new Uint32Array(b.buffer, b.byteOffset, b.length / 4);
}

/** A 2 MiB flash image from a raw .bin or a .uf2 (firmware at offset 0). */
export function flashFromFirmware(path) {
  const fw = fs.readFileSync(path);
  const img = new Uint8Array(FLASH_SIZE).fill(0xff);
  if (path.endsWith('.uf2')) {
    for (let o = 0; o + 512 <= fw.length; o += 512) {
      if (fw.readUInt32LE(o) !== 0x0a324655 || fw.readUInt32LE(o + 4) !== 0x9e5d5157) continue;
      const addr = fw.readUInt32LE(o + 12), size = fw.readUInt32LE(o + 16);
      img.set(fw.subarray(o + 32, o + 32 + size), addr - 0x10000000);
    }
  } else {
    img.set(fw, 0);
  }
  return img;
}

export class Pico {
  /**
   * opts: bootrom (path), flash (Uint8Array image, e.g. flashFromFirmware()),
   * log(line) for emulator warnings.
   */
  constructor(opts) {
    this.opts = Object.assign({ chunk: 20000, log: null }, opts);
    this.bootrom = loadWords(this.opts.bootrom);
    this.out = '';                 // all serial output since power-on (latin1)
    this.outBase = 0;              // chars dropped from the front of this.out
    this.rxListeners = [];
    this.txQueue = [];
    this.waiters = [];
    this.resets = [];              // {nanos, reason}
    this.flashOps = 0;             // erase + program calls, ever
    this.flashOpHook = null;       // called after each op: (kind, addr, count)
    this.flashOpStartHook = null;  // called as each op starts (its time still to pass)
    this.timeOffset = 0;
    this.drives = new Map();       // gpio -> 0/1 driven from outside, absent = released
    this.outputWatchers = new Map(); // gpio -> [fn(nanos, level)]
    this.ws = new Map();           // gpio -> Ws2812Decoder
    this.hc165 = null;
    this.adcSources = new Map();   // ADC channel -> fn(nanos) giving a 12-bit value
    this.running = false;
    this.free = false;             // run without a waiter (serving mpremote, make emu)
    this.pace = 0;                 // >0: never faster than real time x pace
    this.scratch = new Uint32Array(8);
    this.instructions = 0;
    this._pioNow = -1;
    this.pioLag = 0;               // cycles the PIO is behind the clock (the CPU ran on)
    this.pioDue = 0;               // and how far it may lag: a machine's next clock
    this.hangUntil = 0;
    this.hostReads = true;
    this.flashLog = [];             // [nanos, kind, addr, count] of every flash operation
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
    this._hookFlashWrites(mcu);
    const self = this;
    mcu.logger = {
      debug() {}, info() {},
      warn(c, m) { self._log(`[warn] ${c}: ${m}`); },
      error(c, m) { self._log(`[error] ${c}: ${m}`); },
    };
    const wd = mcu.peripherals[0x40058];
    this.watchdog = wd;
    wd.onWatchdogTrigger = () => this._watchdogFired();
    wd.reason = wdReason;
    wd.scratchData.set(this.scratch);
    for (const pio of mcu.pio) {
      pio.run = function () {};       // stepped from our loop instead
      for (const m of pio.machines) { m._acc = 0; m._stall = 0; m._pioCycles = 0; m._tops = 0; m._jmps = []; m._hist = []; }
    }
    this._modelPulls(mcu);
    for (const [g, list] of this.outputWatchers) this._listen(g, list);
    this._hookAdc(mcu);
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
    this.pendingRead = null;
    const origRead = mcu.usbCtrl.onEndpointRead;
    this._origRead = origRead;
    mcu.usbCtrl.onEndpointRead = (ep, size) => {
      if (ep === cdc.outEndpoint && cdc.txFIFO.itemCount === 0) { this.pendingRead = [ep, size]; return; }
      origRead(ep, size);
    };
    // a host that holds the port open without reading: IN transfers of the
    // CDC data endpoint stay pending (the device's TX buffer fills up)
    this.heldIn = new Map();
    const usb = mcu.usbCtrl;
    const dpram = usb.DPRAMUpdated.bind(usb);
    usb.DPRAMUpdated = (offset, value) => {
      if (!this.hostReads && (value & 0x400) && offset >= 0x80 && offset < 0x100 && !(offset & 4) &&
          ((offset - 0x80) >> 3) === cdc.inEndpoint) {
        this.heldIn.set(offset, value);    // the buffer stays armed, unread
        return;
      }
      dpram(offset, value);
    };
    // count the interrupts the core takes (the load of a chattering pin)
    const core = mcu.core;
    const entry = core.exceptionEntry.bind(core);
    core.exceptionEntry = (n) => { const k = n - 16; this.irqs[k] = (this.irqs[k] || 0) + 1; entry(n); };
    mcu.core.PC = 0x10000000;
    this.bootNanos = this.nanos;
  }

  _log(s) { if (this.opts.log) this.opts.log(s); }

  _hookFlashWrites(mcu) {
    const rom = new Uint8Array(mcu.bootrom.buffer);
    const ft = rom[0x14] | (rom[0x15] << 8);
    const funcs = {};
    for (let i = ft; ; i += 4) {
      const code = rom[i] | (rom[i + 1] << 8);
      if (!code) break;
      funcs[String.fromCharCode(code & 0xff, code >> 8)] = (rom[i + 2] | (rom[i + 3] << 8)) & ~1;
    }
    const patch = (addr, op) => { rom[addr] = op & 0xff; rom[addr + 1] = op >> 8; };
    patch(funcs.RE, 0xbe71);
    patch(funcs.RP, 0xbe72);
    mcu.onBreak = (code) => {
      const core = mcu.core, r = core.registers;
      let kind = null, addr = 0, count = 0;
      if (code === 0x71) {
        addr = r[0] >>> 0; count = r[1] >>> 0; kind = 'erase';
        mcu.flash.fill(0xff, addr, addr + count);
      } else if (code === 0x72) {
        addr = r[0] >>> 0; const data = r[1] >>> 0; count = r[2] >>> 0; kind = 'program';
        for (let i = 0; i < count; i++) mcu.flash[addr + i] &= core.readUint8(data + i);
      } else {
        this._log(`[emu] BKPT ${code} at PC=${(core.PC - 2).toString(16)}`);
        return;
      }
      // a flash operation takes time on a real chip (the CPU waits):
      // W25Q16JV typical 45 ms a 4 KiB sector erase, 0.4 ms a 256-byte page
      // (flashTimes: the datasheet's maximum on request, FLASH_TIMES)
      const ft = this.flashTimes;
      const ns = kind === 'erase' ? ft.eraseMs * 1e6 * Math.ceil(count / 4096)
        : ft.pageMs * 1e6 * Math.ceil(count / 256);
      if (this.flashOpStartHook) this.flashOpStartHook(kind, addr, count);
      // in pieces up to each alarm: a finger (pin alarm) moving during the
      // erase is seen by the sampler at its own instant, bounces and all
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
      core.PC = core.LR & ~1;
      this.flashOps++;
      this.flashLog.push([this.nanos, kind, addr, count]);
      if (this.flashOpHook) this.flashOpHook(kind, addr, count);
    };
  }

  /** rp2040js reads an undriven input as 0: apply the pad's pull-up/down. */
  _modelPulls(mcu) {
    const self = this;
    for (const pin of mcu.gpio) {
      let pad = pin.padValue;
      Object.defineProperty(pin, 'padValue', {
        get() { return pad; },
        set(v) { pad = v; self._settle(pin.index); },
        configurable: true,
      });
      this._settle(pin.index);
    }
  }

  _settle(g) {
    const pin = this.mcu.gpio[g];
    if (!pin) return;
    const d = this.drives.get(g);
    let v;
    if (d !== undefined) v = !!d;
    else if (pin.pullupEnabled) v = true;
    else if (pin.pulldownEnabled) v = false;
    else v = pin.rawInputValue;       // floating: keeps what it had
    if (v !== pin.rawInputValue) pin.setInputValue(v);
  }

  /** Drive a pin from outside: 0 or 1, or null to let go (pull-ups apply). */
  drive(g, level) {
    if (level === null || level === undefined) this.drives.delete(g);
    else this.drives.set(g, level ? 1 : 0);
    this._settle(g);
  }

  /**
   * A pin chattering (a loose wire): pulled low and let go every halfUs
   * microseconds from now until untilNanos (absolute), then let go.
   */
  chatter(g, halfUs, untilNanos) {
    let low = false;
    const step = () => {
      if (this.nanos >= untilNanos) { this.drive(g, null); return; }
      low = !low;
      this.drive(g, low ? 0 : null);
      this.clock.createAlarm(step).schedule(halfUs * 1000);
    };
    step();
  }

  /** Interrupts the core took on NVIC line k since the first power-on. */
  irqCount(k = PIO0_IRQ_0) { return this.irqs[k] || 0; }

  /** Call fn(nanos, level) at every change of the pin's output. */
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

  /** Decode the WS2812 wire on this pin into frames (ws2812.mjs). */
  ws2812(g) {
    if (!this.ws.has(g)) {
      const dec = new Ws2812Decoder();
      this.ws.set(g, dec);
      this.watchOutput(g, (t, lvl) => dec.edge(t, lvl));
    }
    return this.ws.get(g);
  }

  /** 74HC165 answer keys: chips chained, load/clock from the Pico, data to it. */
  attachHc165({ load, clock, data, chips }) {
    this.hc165 = new Hc165Chain(chips, (v) => this.drive(data, v));
    this.watchOutput(load, (t, lvl) => this.hc165.load(lvl));
    this.watchOutput(clock, (t, lvl) => this.hc165.clock(lvl));
    return this.hc165;
  }

  /** The voltage on ADC channel ch comes from fn(nanos) (a 12-bit value),
   * sampled when a conversion starts (mux4051.mjs: the dials). */
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

  // -- power and resets -----------------------------------------------------
  _watchdogFired() {
    const wd = this.watchdog;
    const reason = wd.reason || WD_REASON_TIMER;
    wd.enable = false; wd.timer.enable = false; wd.alarm.enable = false;
    if (this._pendingReset) return;
    this.resets.push({ nanos: this.nanos, reason: reason === WD_REASON_FORCE ? 'force' : 'watchdog' });
    this._pendingReset = reason;
  }

  _reboot(wdReason) {
    this.hangUntil = 0;
    const flash = this.flashImage();
    this.scratch.set(wdReason ? this.watchdog.scratchData : new Uint32Array(8));
    this.timeOffset += this.clock.nanos;
    this._build(flash, wdReason);
    this._settleAll();
  }

  _settleAll() { for (const pin of this.mcu.gpio) this._settle(pin.index); }

  /** Power off and on: RAM and scratch registers lost, flash kept as it is now. */
  powerCycle(flash = null) {
    this.hangUntil = 0;
    this.resets.push({ nanos: this.nanos, reason: 'power' });
    const img = flash ?? this.flashImage();
    this.scratch.fill(0);
    this.timeOffset += this.clock.nanos;
    this._build(img, 0);
    this._settleAll();
  }

  /** The USB host reads the serial port (true) or holds it open unread. */
  setHostReads(on) {
    this.hostReads = on;
    if (on) {
      const held = this.heldIn;
      this.heldIn = new Map();
      for (const offset of held.keys()) this.mcu.usbCtrl.DPRAMUpdated(offset, this.mcu.usbDPRAMView.getUint32(offset, true));
    }
  }

  /** The Pico's 2 MiB of flash (rp2040js models 16 MiB; the rest is never used). */
  flashImage() { return new Uint8Array(this.mcu.flash.subarray(0, FLASH_SIZE)); }

  /** emulated ns since the first power-on (monotonic across resets) */
  get nanos() { return this.timeOffset + (this._pioNow >= 0 ? this._pioNow : this.clock.nanos); }

  // -- serial -----------------------------------------------------------------
  send(bytes) {
    for (const ch of (typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes)) this.txQueue.push(ch);
  }

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

  // -- time -------------------------------------------------------------------
  /** Call cb at emulated time nanos (absolute, this.nanos scale). */
  atNanos(nanos, cb) {
    const a = this.clock.createAlarm(() => cb());
    a.schedule(Math.max(0, nanos - this.nanos));
    return a;
  }

  /**
   * A DMA channel feeding a PIO TX FIFO is running (a LED frame going out).
   * rp2040js moves DMA data on clock alarms, which fire between our PIO
   * batches: keep the batches at 1 us then, or the machine starves mid-frame
   * (and the wire shows a latch where a real chip has none). Otherwise a
   * batch runs up to 1 ms, so a PIO IRQ would wake the core within 1 ms.
   */
  _txDmaBusy() {
    for (const ch of this.mcu.dma.channels) {
      const t = ch.treq;
      if (ch.active && (t <= 3 || (t >= 8 && t <= 11))) return true;
    }
    return false;
  }

  pioRunning() { const p = this.mcu.pio; return !(p[0].stopped && p[1].stopped); }

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

  /** Run until pred() is true (resolves true) or the emulated/wall limit (false). */
  runUntil(pred, { emuMs = 1e12, wallMs = 1e12 } = {}) {
    return new Promise((resolve, reject) => {
      const w = { pred, resolve, reject, startEmu: this.nanos, startWall: Date.now(), emuMs, wallMs };
      this.waiters.push(w);
      this._checkWaiters();
      this._kick();
    });
  }

  runFor(ms) {
    const target = this.nanos + ms * 1e6;
    return this.runUntil(() => this.nanos >= target);
  }

  /** Serial output (from index `from` of the whole output) contains text. */
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
      // never ahead of the wall clock (make emu): wait until it catches up
      const ahead = (this.nanos - this.paceNanos) / 1e6 / this.pace - (Date.now() - this.paceWall);
      if (ahead > 2) { setTimeout(() => this._chunk(), Math.min(ahead, 20)); return; }
    }
    this._feed();
    const { mcu, clock } = this;
    const core = mcu.core;
    const n = this.opts.chunk;
    let limit = Infinity;
    if (this.pace > 0) limit = this.nanos + 5e6;   // 5 ms slices
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
          const ti = clock.nanosCounter;
          const c = core.executeInstruction();
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
    this.instructions += instructions;
    this._yield = false;
    this._pioSync();
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
