// What the emulated Pico (pico.mjs, RP2040 on rp2040js) and the emulated
// Pico 2 (rp2350/pico2350.mjs, RP2350 on rp2350js) share: the table around
// the chip (pins driven from outside and their pulls, output watchers, the
// WS2812 wires, the 74HC165 answer keys, the dials' ADC), power cuts and
// watchdog resets (the chip rebuilt, flash and scratch kept), the USB serial
// port, flash operations trapped in the boot ROM, and the run loop's frame
// (waiters, pacing, chunks). A chip's module gives what differs: how its chip
// is built and fixed, its flash hooks and flash size, its PIO stepping and the
// inner run loop (_run), its serial feed (_feed).
//
// Nothing here imports an emulator package, so emu/server.mjs loads only the
// chip it runs.
import fs from 'fs';
import { Ws2812Decoder } from './ws2812.mjs';
import { Hc165Chain } from './hc165.mjs';

export const WD_REASON_TIMER = 1, WD_REASON_FORCE = 2;
// rp2040js's and rp2350js's WaitType: a state machine stalled for TX data
export const WAIT_TXFIFO = 3, WAIT_OUT = 5;
const NO_GPIO_CACHE = !!process.env.EMU_NO_GPIO_CACHE; // for checking the input word's cache
// W25Q16JV flash times (datasheet; the Pico 2's W25Q32 has the same): a 4 KiB
// sector erase 45 ms typical, 400 ms maximum; a 256-byte page program 0.4 ms
// typical, 3 ms maximum
export const FLASH_TIMES = { typical: { eraseMs: 45, pageMs: 0.4 }, max: { eraseMs: 400, pageMs: 3 } };

/**
 * A flash image of `size` bytes (erased: 0xff) from a raw .bin (at offset 0)
 * or a .uf2: each UF2 block at its address, if keep(fw, offset) accepts it.
 */
export function flashImage(path, size, keep) {
  const fw = fs.readFileSync(path);
  const img = new Uint8Array(size).fill(0xff);
  if (!path.endsWith('.uf2')) { img.set(fw, 0); return img; }
  for (let o = 0; o + 512 <= fw.length; o += 512) {
    if (fw.readUInt32LE(o) !== 0x0a324655 || fw.readUInt32LE(o + 4) !== 0x9e5d5157) continue;
    if (!keep(fw, o)) continue;
    const addr = fw.readUInt32LE(o + 12), n = fw.readUInt32LE(o + 16);
    img.set(fw.subarray(o + 32, o + 32 + n), addr - 0x10000000);
  }
  return img;
}

export class Harness {
  /**
   * opts: bootrom (path), flash (Uint8Array image, e.g. flashFromFirmware()),
   * log(line) for emulator warnings; flashSize: the bytes of the board's
   * flash chip. The chip's constructor builds the chip (this._build).
   */
  constructor(opts, flashSize) {
    this.opts = Object.assign({ chunk: 20000, log: null }, opts);
    const rom = fs.readFileSync(this.opts.bootrom);
    this.bootrom = new Uint32Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.length));
    this.flashSize = flashSize;
    this.out = '';                 // all serial output since power-on (latin1)
    this.outBase = 0;              // chars dropped from the front of this.out
    this.rxListeners = [];
    this.txQueue = [];
    this.waiters = [];
    this.resets = [];              // {nanos, reason}
    this.flashOps = 0;             // erase + program calls, ever
    this.flashOpHook = null;       // called after each op: (kind, addr, count)
    this.flashOpStartHook = null;  // called as each op starts (its time still to pass)
    this.flashLog = [];            // [nanos, kind, addr, count] of every flash operation
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
    this.hangUntil = 0;
    this.hostReads = true;
    this._pioNow = -1;             // the instant of the PIO step running, else -1
    this.pioLag = 0;               // cycles the PIO is behind the clock (the CPU ran on)
    this.pioDue = 0;               // and how far it may lag: a machine's next clock
    this.inputAt = 0;              // when a pin was last driven from outside
    this.readsBackOutputs = false; // the package reads an output pin's input as its own level
  }

  _log(s) { if (this.opts.log) this.opts.log(s); }

  /** The chip's logger: its warnings and errors go to opts.log. */
  _logger() {
    const self = this;
    return {
      debug() {}, info() {},
      warn(c, m) { self._log(`[warn] ${c}: ${m}`); },
      error(c, m) { self._log(`[error] ${c}: ${m}`); },
    };
  }

  /** A new chip's watchdog: its trigger resets the chip here, its scratch
   * registers are what they were before the reset. */
  _hookWatchdog(wd) {
    this.watchdog = wd;
    wd.onWatchdogTrigger = () => this._watchdogFired();
    wd.scratchData.set(this.scratch);
  }

  /** What the table wires to a new chip: pulls, watched outputs, the ADC. */
  _wireTable(mcu) {
    this._modelPads(mcu);
    this._cacheGpioInputs(mcu);
    for (const [g, list] of this.outputWatchers) this._listen(g, list);
    this._hookAdc(mcu);
  }

  /** The USB serial port of a new chip (the package's USBCDC class): its
   * output collected in this.out; a host that holds the port open without
   * reading leaves the IN transfers of the CDC data endpoint pending (the
   * device's TX buffer fills up). */
  _wireUsb(mcu, USBCDC) {
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
    this.heldIn = new Map();
    const usb = mcu.usbCtrl, dpram = usb.DPRAMUpdated.bind(usb);
    usb.DPRAMUpdated = (offset, value) => {
      if (!this.hostReads && (value & 0x400) && offset >= 0x80 && offset < 0x100 && !(offset & 4) &&
          ((offset - 0x80) >> 3) === cdc.inEndpoint) {
        this.heldIn.set(offset, value);    // the buffer stays armed, unread
        return;
      }
      dpram(offset, value);
    };
    return cdc;
  }

  // -- flash operations ---------------------------------------------------------
  /**
   * A flash erase or program the boot ROM was called for (its function
   * trapped at a BKPT; r: the core's registers, r0 the address, r1 an
   * erase's bytes or a program's data, r2 a program's bytes), done at once on
   * mcu.flash; then its time passes with the CPU waiting (this._stall), as
   * on a real chip: per 4 KiB sector erased, per 256-byte page programmed
   * (times: FLASH_TIMES' typical or max). The chip then returns from the
   * call and calls _flashDone. Returns [addr, count].
   */
  _flashCall(kind, r, readUint8, times) {
    const flash = this.mcu.flash, addr = r[0] >>> 0;
    let count;
    if (kind === 'erase') {
      count = r[1] >>> 0;
      flash.fill(0xff, addr, addr + count);
    } else {
      const data = r[1] >>> 0;
      count = r[2] >>> 0;
      for (let i = 0; i < count; i++) flash[addr + i] &= readUint8(data + i);
    }
    const ns = kind === 'erase' ? times.eraseMs * 1e6 * Math.ceil(count / 4096)
      : times.pageMs * 1e6 * Math.ceil(count / 256);
    if (this.flashOpStartHook) this.flashOpStartHook(kind, addr, count);
    this._stall(ns);
    return [addr, count];
  }

  _flashDone(kind, addr, count) {
    this.flashOps++;
    this.flashLog.push([this.nanos, kind, addr, count]);
    if (this.flashOpHook) this.flashOpHook(kind, addr, count);
  }

  // -- pins ---------------------------------------------------------------------
  /** The emulator reads an undriven input as 0: apply the pad's pull-up or
   * pull-down whenever the pad changes (and this._padModelled(pin)). */
  _modelPads(mcu) {
    const self = this;
    for (const pin of mcu.gpio) {
      let pad = pin.padValue;
      Object.defineProperty(pin, 'padValue', {
        get() { return pad; },
        set(v) { pad = v; self._settle(pin.index); },
        configurable: true,
      });
      this._padModelled(pin);
    }
  }

  /**
   * The emulators work out the GPIO input word (gpioValues: what SIO's
   * GPIO_IN and a PIO `in pins` or `wait pin` read) from every pin at every
   * read, and the button sampler's PIO loop reads it at every step: most of
   * the emulator's time in a quiet state (the revealed dice, 240 emulated s:
   * 3.1 s of CPU, 0.9 s with this). Here the word is kept, and worked out
   * again only after something it depends on was written: a pin's input
   * (setInputValue), its pad (padValue: input enable) or its control register
   * (ctrl: input override), the only three things a pin's inputValue reads.
   * Exact: EMU_NO_GPIO_CACHE=1 gives the same run, instruction for
   * instruction (tests/emu/test_emu_speedups.py). The cache lives on the chip
   * object (mcu._gpioIn); call it after _modelPads, whose setter it wraps.
   */
  _cacheGpioInputs(mcu) {
    if (NO_GPIO_CACHE) return;
    const c = mcu._gpioIn = { valid: false, start: 0, value: 0 };
    let proto = Object.getPrototypeOf(mcu), d;
    while (proto && !(d = Object.getOwnPropertyDescriptor(proto, 'gpioValues'))) proto = Object.getPrototypeOf(proto);
    if (d.get) {                        // rp2040js: a getter, all 30 pins
      const compute = d.get;
      Object.defineProperty(mcu, 'gpioValues', {
        configurable: true,
        get() {
          if (!c.valid) { c.value = compute.call(this); c.valid = true; }
          return c.value;
        },
      });
    } else {                            // rp2350js: a method, 32 pins from start
      const compute = d.value;
      mcu.gpioValues = function (start) {
        if (!c.valid || c.start !== start) { c.value = compute.call(this, start); c.start = start; c.valid = true; }
        return c.value;
      };
    }
    for (const pin of mcu.gpio) {
      const setInput = pin.setInputValue;
      pin.setInputValue = function (v) { c.valid = false; setInput.call(this, v); };
      for (const name of ['padValue', 'ctrl']) {
        const own = Object.getOwnPropertyDescriptor(pin, name);
        if (own && own.set) {           // _modelPads's accessor: wrapped
          Object.defineProperty(pin, name, {
            configurable: true,
            get: own.get,
            set(v) { c.valid = false; own.set.call(this, v); c.valid = false; },
          });
        } else {
          const key = '_' + name;
          pin[key] = pin[name];
          Object.defineProperty(pin, name, {
            configurable: true,
            get() { return this[key]; },
            set(v) { this[key] = v; c.valid = false; },
          });
        }
      }
    }
  }

  _settle(g) {
    const pin = this.mcu.gpio[g];
    if (!pin) return;
    const d = this.drives.get(g);
    let v;
    if (this.readsBackOutputs && pin.outputEnable) v = pin.outputValue;
    else if (d !== undefined) v = !!d;
    else if (pin.pullupEnabled) v = true;
    else if (pin.pulldownEnabled) v = false;
    else v = pin.rawInputValue;       // floating: keeps what it had
    if (v !== pin.rawInputValue) pin.setInputValue(v);
  }

  _settleAll() { for (const pin of this.mcu.gpio) this._settle(pin.index); }

  /** Drive a pin from outside: 0 or 1, or null to let go (pull-ups apply). */
  drive(g, level) {
    this.inputAt = this.nanos;
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

  // -- power and resets -----------------------------------------------------------
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

  /** The board's flash (the emulators model 16 MiB; the rest is never used). */
  flashImage() { return new Uint8Array(this.mcu.flash.subarray(0, this.flashSize)); }

  /** emulated ns since the first power-on (monotonic across resets) */
  get nanos() { return this.timeOffset + (this._pioNow >= 0 ? this._pioNow : this.clock.nanos); }

  pioRunning() {
    for (const p of this.mcu.pio) if (!p.stopped) return true;
    return false;
  }

  // -- serial -----------------------------------------------------------------------
  send(bytes) {
    for (const ch of (typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes)) this.txQueue.push(ch);
  }

  // -- time ---------------------------------------------------------------------------
  /** Call cb at emulated time nanos (absolute, this.nanos scale). */
  atNanos(nanos, cb) {
    const a = this.clock.createAlarm(() => cb());
    a.schedule(Math.max(0, nanos - this.nanos));
    return a;
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

  /**
   * One slice of running, then the next on the event loop (so the server
   * answers requests in between): up to opts.chunk steps of the chip's loop
   * (this._run), ending early on serial output, a reset to do, or (paced)
   * 5 ms of emulated time.
   */
  _chunk() {
    if (!(this.waiters.length || this.free)) { this.running = false; return; }
    if (this.pace > 0) {
      // never ahead of the wall clock (make emu): wait until it catches up
      const ahead = (this.nanos - this.paceNanos) / 1e6 / this.pace - (Date.now() - this.paceWall);
      if (ahead > 2) { setTimeout(() => this._chunk(), Math.min(ahead, 20)); return; }
    }
    this._feed();
    const limit = this.pace > 0 ? this.nanos + 5e6 : Infinity;   // paced: 5 ms slices
    this.instructions += this._run(this.opts.chunk, limit);
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
