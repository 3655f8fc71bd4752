#!/usr/bin/env node
// The emulated Pico as a process: JSON-lines requests on stdin, one JSON
// answer line each on stdout (emu/pico.py is the Python side). Optionally its
// USB serial port is a TCP endpoint (--serial-port N, 0 = any free port) that
// mpremote reaches as socket://127.0.0.1:N, as it would a board's /dev/ttyACM0.
// One protocol for both chips: --chip rp2350 runs the Pico 2 (rp2350/pico2350.mjs),
// rp2040 (the default) the Pico (pico.mjs); both are harness.mjs's Harness.
//
//   node emu/server.mjs [--chip rp2040|rp2350] --firmware FW.bin --bootrom ROM.bin [--flash IMAGE|FILE.uf2] [--serial-port N]
import fs from 'fs';
import net from 'net';
import readline from 'readline';
import { Mux4051 } from './mux4051.mjs';
import { FLASH_TIMES } from './harness.mjs';

function args(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--chip') o.chip = argv[++i];
    else if (a === '--firmware') o.firmware = argv[++i];
    else if (a === '--bootrom') o.bootrom = argv[++i];
    else if (a === '--flash') o.flash = argv[++i];
    else if (a === '--serial-port') o.serialPort = +argv[++i];
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--flash-times') o.flashTimes = argv[++i];     // typical | max (W25Q16JV datasheet)
    else { process.stderr.write(`emu: unknown argument ${a}\n`); process.exit(2); }
  }
  if (!o.bootrom || !(o.firmware || o.flash)) {
    process.stderr.write('emu: usage: server.mjs --firmware FW.bin|--flash IMAGE --bootrom ROM.bin\n');
    process.exit(2);
  }
  o.chip = o.chip || 'rp2040';
  if (!['rp2040', 'rp2350'].includes(o.chip)) { process.stderr.write(`emu: no chip ${o.chip}\n`); process.exit(2); }
  return o;
}

const opt = args(process.argv.slice(2));
// imported here: each chip's emulator package is needed only for that chip
const { Pico, flashFromFirmware } = await import(opt.chip === 'rp2350' ? './rp2350/pico2350.mjs' : './pico.mjs');
const warnings = new Set();
// a flash image (raw: 2 MiB on the Pico, 4 MiB on the Pico 2), or a UF2 as a builder drags onto the Pico (make uf2)
const image = opt.flash && !opt.flash.endsWith('.uf2') ? new Uint8Array(fs.readFileSync(opt.flash))
  : flashFromFirmware(opt.flash || opt.firmware);
const pico = new Pico({
  bootrom: opt.bootrom, flash: image, flashTimes: opt.flashTimes,
  log: (s) => { if (opt.verbose) process.stderr.write(s + '\n'); warnings.add(s.slice(0, 120)); },
});
const t0Wall = Date.now();
let readPos = 0;                    // serial output handed to the client so far (absolute)
const edgeLogs = new Map();         // gpio -> [[nanos, level]]
let cut = null;                     // armed power cut: {left, snapshot}

let pressOnFlash = null;            // armed press: {left, gpio, holdNs}
// the piezo: the pitch its PWM slice drives on a pin, after every write to
// the slice's registers ([[nanos, hz]], 0 for silence), kept across resets
const toneLog = { gpio: -1, log: [], hz: 0 };

function toneNow(ch, gpio) {
  const level = gpio & 1 ? ch.cc >>> 16 : ch.cc & 0xffff;
  if (!(ch.csr & 1) || !level) return 0;
  const div = ((ch.div >> 4) & 0xff) + (ch.div & 15) / 16 || 256;   // 8.4 fixed point; 0 is 256
  const phaseCorrect = (ch.csr >> 1) & 1;
  return Math.round(pico.mcu.pwm.clockFreq / (div * (ch.top + 1) * (phaseCorrect ? 2 : 1)));
}

function watchTone() {
  const gpio = toneLog.gpio;
  if (gpio < 0) return;
  const ch = pico.mcu.pwm.channels[(gpio >> 1) & 7];
  const write = ch.writeRegister.bind(ch);
  ch.writeRegister = (offset, value) => {
    write(offset, value);
    const hz = toneNow(ch, gpio);
    if (hz !== toneLog.hz) { toneLog.hz = hz; toneLog.log.push([pico.nanos, hz]); }
  };
}

let mux = null;                     // the dials' 4051 (mux4051.mjs), once attached
let pinsOnFlash = null;             // armed finger movements: {left, pins: [[dtNs, gpio, level]], keys: [[dtNs, station, mask]]}

function fingersOnFlash(when, kind) {
  const p = pinsOnFlash;
  if (!p || p.at !== when || (p.kind && p.kind !== kind) || --p.left > 0) return;
  // fingers move from this flash operation on (the save goes on writing)
  pinsOnFlash = null;
  const t0 = pico.nanos;
  for (const [dt, g, v] of p.pins) pico.atNanos(t0 + dt, () => pico.drive(g, v));
  for (const [dt, s, m] of p.keys) pico.atNanos(t0 + dt, () => pico.hc165.setKeys(s, m));
}

pico.flashOpStartHook = (kind) => fingersOnFlash('start', kind);

pico.flashOpHook = (kind) => {
  fingersOnFlash('end', kind);
  if (pressOnFlash && --pressOnFlash.left <= 0) {
    // a finger goes down while the flash is being written
    const { gpio, holdNs } = pressOnFlash;
    pressOnFlash = null;
    pico.drive(gpio, 0);
    pico.atNanos(pico.nanos + holdNs, () => pico.drive(gpio, null));
  }
  if (!cut || cut.snapshot) return;
  if (--cut.left <= 0) {
    cut.snapshot = pico.flashImage();   // the flash exactly as this operation left it
    pico._yield = true;
    pico.free = false;
  }
};

function outAbs() { return pico.outBase + pico.out.length; }

function takeOut() {
  const s = pico.out.slice(readPos - pico.outBase);
  readPos = outAbs();
  // keep memory bounded on long runs
  if (pico.out.length > 4e6) { const drop = pico.out.length - 1e6; pico.out = pico.out.slice(drop); pico.outBase += drop; }
  return s;
}

function frameJson(f, pixels) {
  const o = { start: f.start, end: f.end, hex: Buffer.from(f.bytes).toString('hex') };
  if (pixels) o.pixel_ends = pixels.map((p) => f.pixelEnds[p]);
  return o;
}

async function runWith(pred, ms) {
  const ok = await pico.runUntil(() => (cut && cut.snapshot) || pred(), { emuMs: ms });
  if (cut && cut.snapshot) {
    const snap = cut.snapshot;
    cut = null;
    pico.powerCycle(snap);
    return { ok: false, cut: true };
  }
  return { ok };
}

let server = null;
let socket = null;

function serve(port) {
  return new Promise((resolve) => {
    server = net.createServer((s) => {
      if (socket) { s.end(); return; }      // one client at a time, like a real port
      socket = s;
      s.setNoDelay(true);
      s.on('data', (d) => { pico.send(d); pico._kick(); });
      s.on('close', () => { socket = null; });
      s.on('error', () => { socket = null; });
    });
    pico.rxListeners.push((str) => { if (socket) socket.write(Buffer.from(str, 'latin1')); });
    server.listen(port, '127.0.0.1', () => resolve(server.address().port));
  });
}

const handlers = {
  async hello() { return { nanos: pico.nanos }; },

  async run({ ms }) {
    const target = pico.nanos + ms * 1e6;
    const r = await runWith(() => pico.nanos >= target, ms + 1);
    return { cut: !!r.cut };
  },

  async run_until({ text, ms, from }) {
    const start = from ?? readPos;
    const r = await runWith(() => pico.out.indexOf(text, Math.max(0, start - pico.outBase)) >= 0, ms);
    const idx = pico.out.indexOf(text, Math.max(0, start - pico.outBase));
    return { found: r.ok, cut: !!r.cut, at: idx >= 0 ? idx + pico.outBase : -1 };
  },

  async read() { return { out: takeOut(), pos: readPos }; },

  async send({ data }) { pico.send(Buffer.from(data, 'latin1')); pico._kick(); return {}; },

  async drive({ pins }) {
    for (const [g, v] of pins) pico.drive(g, v);
    return {};
  },

  // [[nanos (absolute), gpio, level|null], ...]; keys: [[nanos, station, mask]];
  // dials: [[nanos, station, position, turn_ms|null]] (a turn starts then)
  async schedule({ pins = [], keys = [], dials = [] }) {
    for (const [t, g, v] of pins) pico.atNanos(t, () => pico.drive(g, v));
    for (const [t, s, m] of keys) pico.atNanos(t, () => pico.hc165.setKeys(s, m));
    for (const [t, s, p, ms] of dials) pico.atNanos(t, () => mux.turn(s, p, ms ?? null));
    return {};
  },

  async ws2812({ gpios }) { for (const g of gpios) pico.ws2812(g); return {}; },

  async frames({ gpio, since = 0, pixels = null, last = false }) {
    const dec = pico.ws2812(gpio);
    dec.poll(pico.nanos);
    const base = dec.dropped;
    if (last) {
      const f = dec.frames[dec.frames.length - 1];
      return { count: base + dec.frames.length, frames: f ? [frameJson(f, pixels)] : [] };
    }
    const from = Math.max(0, since - base);
    return { count: base + dec.frames.length, frames: dec.frames.slice(from).map((f) => frameJson(f, pixels)),
      writing_since: dec.start >= 0 ? dec.start : -1 };
  },

  async watch({ gpio }) {
    if (!edgeLogs.has(gpio)) {
      const log = [];
      edgeLogs.set(gpio, log);
      pico.watchOutput(gpio, (t, lvl) => log.push([t, lvl]));
    }
    return {};
  },

  async watch_tone({ gpio }) {
    if (toneLog.gpio < 0) {
      toneLog.gpio = gpio;
      watchTone();
      const build = pico._build.bind(pico);          // a reset builds a new chip: watch its PWM too
      pico._build = (...a) => { build(...a); toneLog.hz = 0; toneLog.log.push([pico.nanos, 0]); watchTone(); };
    }
    return {};
  },

  async tones({ since = 0 }) { return { tones: toneLog.log.slice(since), count: toneLog.log.length }; },

  async edges({ gpio, since = 0 }) { return { edges: (edgeLogs.get(gpio) || []).slice(since) }; },

  async hc165(o) { pico.attachHc165(o); return {}; },

  async keys({ station, mask }) { pico.hc165.setKeys(station, mask); return {}; },

  // the dials: a 4051 on select pins [A, B, C] into ADC pin adc, a dial (with
  // its own resistor ladder) on each of its first `stations` channels
  // (ladder: 'per-dial', the default, or 'shared')
  async mux4051({ adc, select, stations, ladder }) { mux = new Mux4051(pico, { adc, select, stations, ladder }); return {}; },

  // station turns its dial to position now, taking turn_ms (default: 1.5 ms a position)
  async dial({ station, position, turn_ms = null }) { mux.turn(station, position, turn_ms); return {}; },

  async dials() { return { positions: mux.positions(), channel: mux.channel(), com: mux.com(pico.nanos), reads: mux.reads }; },

  async power_cycle() { pico.powerCycle(); return { nanos: pico.nanos }; },

  async arm_cut({ after_ops }) { cut = { left: after_ops, snapshot: null }; return {}; },

  async press_on_flash({ after_ops, gpio, hold_ms }) {
    pressOnFlash = { left: after_ops, gpio, holdNs: hold_ms * 1e6 };
    return {};
  },

  // at the start ('start': during it) or the end of the n-th flash operation (of that kind)
  async pins_on_flash({ after_ops, pins, kind = null, at = 'end', keys = [] }) {
    pinsOnFlash = { left: after_ops, pins, kind, at, keys };
    return {};
  },

  async fingers_armed() { return { armed: !!pinsOnFlash }; },

  async flash_log({ since = 0 }) { return { ops: pico.flashLog.slice(since), count: pico.flashLog.length }; },

  async host_reads({ on }) { pico.setHostReads(on); return {}; },

  // erase/program times: a preset (typical, max) or ms of a 4 KiB erase and a 256-byte page
  async flash_times({ preset = null, erase_ms = null, page_ms = null }) {
    if (!pico.flashTimes) throw new Error('flash_times: this chip\'s harness has no flash timing');
    if (preset) {
      if (!FLASH_TIMES[preset]) throw new Error(`flash_times: no preset ${preset}`);
      Object.assign(pico.flashTimes, FLASH_TIMES[preset]);
    }
    if (erase_ms !== null) pico.flashTimes.eraseMs = erase_ms;
    if (page_ms !== null) pico.flashTimes.pageMs = page_ms;
    return { erase_ms: pico.flashTimes.eraseMs, page_ms: pico.flashTimes.pageMs };
  },

  async chatter({ gpio, half_us, ms }) { pico.chatter(gpio, half_us, pico.nanos + ms * 1e6); return {}; },

  async hang({ ms }) { pico.hangUntil = pico.nanos + ms * 1e6; return {}; },

  async save_flash({ path }) { fs.writeFileSync(path, pico.flashImage()); return {}; },

  async serve({ port = 0, pace = 1 }) {
    // a board on a USB cable lives in real time: never run ahead of the wall clock
    const p = await serve(port);
    pico.free = true;
    if (pace > 0) pico.startPacing(pace);
    pico._kick();
    return { port: p };
  },

  async free({ on, pace = 0 }) {
    pico.free = !!on;
    if (pace > 0) pico.startPacing(pace); else pico.pace = 0;
    pico._kick();
    return {};
  },

  async stats() {
    return {
      chip: opt.chip, nanos: pico.nanos, boot_nanos: pico.bootNanos, wall_ms: Date.now() - t0Wall,
      instructions: pico.instructions, flash_ops: pico.flashOps, resets: pico.resets, loop_skips: pico.loopSkips || 0,
      pio0_irqs: pico.irqCount ? pico.irqCount() : null, flash_times: pico.flashTimes || null,
      connected: pico.connected, out_pos: outAbs(), warnings: [...warnings].slice(0, 30),
    };
  },

  async quit() { setImmediate(() => process.exit(0)); return {}; },
};

const rl = readline.createInterface({ input: process.stdin });
let chain = Promise.resolve();
rl.on('line', (line) => {
  chain = chain.then(async () => {
    let req;
    try { req = JSON.parse(line); } catch (e) { process.stdout.write(JSON.stringify({ error: `bad JSON: ${e.message}` }) + '\n'); return; }
    const h = handlers[req.cmd];
    let res;
    try {
      res = h ? await h(req) : { error: `unknown command ${req.cmd}` };
    } catch (e) {
      res = { error: String(e && e.stack || e) };
    }
    res.id = req.id;
    res.nanos = pico.nanos;
    process.stdout.write(JSON.stringify(res) + '\n');
  });
});
rl.on('close', () => process.exit(0));
