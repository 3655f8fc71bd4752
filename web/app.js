// The Cheese Box in a web page: the box's own firmware on MicroPython's
// WebAssembly port, the screen as its LEDs, buttons and speaker (docs/web.md).
//
// Python (webmain.py, webport.py) runs the box; this file is the hardware:
// it queues every input with its event's timeStamp, calls one box step at a
// time (control comes back here after every step: this MicroPython collects
// garbage only then), paints the LED frames the port hands it, plays tones on
// WebAudio and keeps the flash in localStorage (a reload is a power cut).
import { layout, diceBlock } from "./layout.js";

const MASK = 2 ** 30;                // the box's ticks wrap here (ticks.py)
const INPUT = 0, PLATE = 1;          // webport.py's event kinds
const ROLL_BIT = 8;
const PLATE_KEYS = "qwertyui";       // as in make sim: station 1-8's plate, then 0-7
const TAP_MS = 80, LONG_MS = 2200;   // make sim's tap and long ROLL
const STATION_RGB = ["#ff0000", "#005aff", "#00c800", "#ffc800", "#b400ff", "#00dcdc", "#ff64a0", "#ff7800"];

const params = new URLSearchParams(location.search);
const page = {                       // what tests and the bench read (docs/web.md)
  ready: false, readyMs: 0, readyAt: 0, error: "", log: [], steps: 0, stepMs: [], idleMs: [], presses: [],
  board: null, seats: 0, clockUs: 0, isolated: self.crossOriginIsolated === true,
  sound: false, wakeLock: "off", offline: "", state: "",
};
window.cheesebox = page;
const t0 = performance.now();
const $ = (sel) => document.querySelector(sel);

function say(text) { $("#status").textContent = text; }

// -- the clock ------------------------------------------------------------
const nowUs = () => Math.floor(performance.now() * 1000) % MASK;
const nowMs = () => Math.floor(performance.now()) % MASK;
const stampUs = (ev) => Math.floor(ev.timeStamp * 1000) % MASK;

function clockResolutionUs() {
  // the smallest step performance.now() takes here (isolated pages get 5 us)
  let best = Infinity;
  for (let k = 0; k < 20; k++) {
    const a = performance.now();
    let b = a;
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return Math.round(best * 1000);
}

// -- sound ----------------------------------------------------------------
let audio = null, osc = null, gain = null;
function soundOn() {
  // only with the user's activation (a touch counts once the finger lifts)
  if (audio || (navigator.userActivation && !navigator.userActivation.isActive)) return;
  try {
    audio = new AudioContext();
    osc = audio.createOscillator();
    gain = audio.createGain();
    osc.type = "square";
    gain.gain.value = 0;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    page.sound = true;
    $("#soundhint").hidden = true;
  } catch (e) {
    $("#soundhint").textContent = "no sound in this browser: " + e.message;
  }
}
function tone(freq, volume) {
  if (!audio) return;
  const t = audio.currentTime;
  if (freq > 0 && volume > 0) {
    osc.frequency.setValueAtTime(freq, t);
    gain.gain.setValueAtTime(volume >= 2 ? 0.12 : 0.03, t);
  } else {
    gain.gain.setValueAtTime(0, t);
  }
}

// -- the screen: seats, dice, ROLL ------------------------------------------
let board = null, boardSpec = null, seatsShown = 0;
let seatEls = [], trackCanvases = [], diceCanvas = null, dials = [];
const frames = [];                   // last frame of each chain (RGB, full scale)
let permille = 150, boardPermille = 150;
let lastTrack = [];                  // per station: its 24 bytes as last painted

function ledColour(rgb, i) {
  // the Pico's wire value at this brightness, shown as the board shows it
  // at its own brightness (as make sim draws it): dimmer settings look dimmer
  const c = (v) => {
    if (!v) return 0;
    const wire = Math.max(1, Math.floor(v * permille / 1000));
    return Math.min(255, Math.round(wire * 1000 / boardPermille));
  };
  const r = c(rgb[i]), g = c(rgb[i + 1]), b = c(rgb[i + 2]);
  return r + g + b === 0 ? "#1b1b1b" : `rgb(${r},${g},${b})`;
}

function wireIndex(lay, x, y) { return y * 8 + (lay === "rows" || y % 2 === 0 ? x : 7 - x); }

function paintDie(d) {
  const [ci, start, lay] = board.dice[d];
  const rgb = frames[ci];
  if (!rgb || !diceCanvas) return;
  const g = diceCanvas.getContext("2d");
  const s = diceCanvas.dieSize, gap = diceCanvas.gap;
  const ox = (d % 3) * (s + gap), oy = Math.floor(d / 3) * (s + gap);
  g.fillStyle = "#050505";
  g.fillRect(ox, oy, s, s);
  const p = s / 8;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      g.fillStyle = ledColour(rgb, (start + wireIndex(lay, x, y)) * 3);
      g.fillRect(ox + x * p + 1, oy + y * p + 1, p - 2, p - 2);
    }
  }
}

function paintTrack(s) {
  const cv = trackCanvases[s];
  const [ci, start] = board.tracks[s];
  const rgb = frames[ci];
  if (!cv || !rgb) return;
  const g = cv.getContext("2d");
  const w = cv.width, h = cv.height;
  g.clearRect(0, 0, w, h);
  const cell = Math.min(h, w / 9.5);
  for (let i = 0; i < 8; i++) {
    const px = board.trackReversed ? 7 - i : i;
    g.fillStyle = ledColour(rgb, (start + px) * 3);
    const r = i === 7 ? cell * 0.48 : cell * 0.36;
    const x = i === 7 ? w - cell * 0.6 : cell * (i + 0.6);
    g.beginPath();
    g.arc(x, h / 2, r, 0, 2 * Math.PI);
    g.fill();
  }
}

// the latency probe (make bench, docs/bench.md): each station press, its
// event's timeStamp (t), when its handler ran (seen), when the box could
// first confirm it (due: the glitch window after t, or seen if later), when
// the box drew its station's LEDs (drawn); the frame that drew them: its rAF
// time (frame), performance.now() as its callback began (raf), in the task
// after its rendering (painted), when the browser painted it (paintTime) and
// presented it (shown): Element Timing's times for a mark drawn in the same
// frame, -1 where the browser does not report them; late: frames that began
// after due and did not show it
// (0: the first frame after the confirmation showed it). -1: not (yet); a
// press that changed nothing within 200 ms stays -1.
const PROBE_MAX = 5000;
const pressRec = new Array(8).fill(null);
const watching = [];                 // presses not yet shown: a frame is asked for each frame meanwhile
const afterFrame = new MessageChannel();
const painting = [];
afterFrame.port1.onmessage = () => { const now = performance.now(); for (const r of painting.splice(0)) r.painted = now; };
let marks = null;                    // the probe's marks (Element Timing), one a shown press
const marked = new Map();            // mark id -> its press
if (typeof PerformanceObserver !== "undefined" && PerformanceObserver.supportedEntryTypes?.includes("element")) {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const m = marked.get(e.identifier);
      if (!m) continue;
      marked.delete(e.identifier);
      m[0].shown = e.presentationTime || e.renderTime || -1;
      m[0].paintTime = e.paintTime || -1;
      m[1].remove();
    }
  }).observe({ type: "element", buffered: false });
}
function notePress(s, t) {
  if (page.presses.length >= PROBE_MAX) return;
  const seen = performance.now();
  const r = { s, t, seen, due: Math.max(seen, t + glitchMs), drawn: -1, frame: -1, raf: -1, painted: -1, shown: -1, late: 0 };
  page.presses.push(r);
  if (pressRec[s]) watching.splice(watching.indexOf(pressRec[s]) >>> 0, 1);
  pressRec[s] = r;
  watching.push(r);
  wantFrame();
}
function noteTrackChange(s) {
  const r = pressRec[s];
  if (!r) return;
  pressRec[s] = null;
  const now = performance.now();
  if (now - r.t > 200) { watching.splice(watching.indexOf(r) >>> 0, 1); return; }  // that press lit nothing
  r.drawn = now;
}
function markShown(r) {
  // a mark drawn in the same frame as the press's LEDs: Element Timing
  // reports when that frame was presented
  if (!marks) { marks = document.createElement("div"); marks.id = "probe"; document.body.append(marks); }
  const id = "press" + page.presses.indexOf(r);
  const el = document.createElement("div");   // Element Timing reports text by its block
  el.setAttribute("elementtiming", id);
  el.textContent = ".";
  marked.set(id, [r, el]);
  marks.append(el);
  setTimeout(() => { if (marked.delete(id)) el.remove(); }, 1000);   // never reported: gone all the same
}
function probeFrame(ts, began) {
  // after this frame's drawing: the presses it shows, and those it should have
  for (let k = watching.length - 1; k >= 0; k--) {
    const r = watching[k];
    if (r.drawn >= 0) {
      r.frame = ts; r.raf = began;
      painting.push(r);
      watching.splice(k, 1);
      markShown(r);
    } else if (pressRec[r.s] !== r || began - r.t > 200) {
      if (pressRec[r.s] === r) pressRec[r.s] = null;
      watching.splice(k, 1);        // it lit nothing
    } else if (began >= r.due) {
      r.late++;
    }
  }
  if (painting.length) afterFrame.port2.postMessage(0);
  if (watching.length) wantFrame();
}

// The box's show() hands over a chain's frame; the canvases are drawn in the
// next animation frame's callback, just before the browser renders it: once
// a frame however many steps showed something, and out of the box's step
// (a tumble shows all six dice every step). That callback first runs the
// box's step if one is due (a press whose glitch window has ended, an input
// not yet handled): a press confirmed when a frame begins is in that frame,
// not the next one, though the step's own task has not come round yet.
const dieDirty = new Array(6).fill(false), trackDirty = new Array(8).fill(false);
let framePending = false, inFrame = false;
function paint(ci, buf, pm) {
  const rgb = mp.PyProxy.toJs(buf);
  frames[ci] = rgb;
  if (pm !== permille) { permille = pm; dieDirty.fill(true); }
  for (let d = 0; d < 6; d++) if (board.dice[d][0] === ci) dieDirty[d] = true;
  for (let s = 0; s < seatsShown; s++) {
    if (board.tracks[s][0] !== ci) continue;
    const st = board.tracks[s][1] * 3;
    const now = rgb.subarray(st, st + 24);
    const was = lastTrack[s];
    if (!was || was.some((v, k) => v !== now[k])) {
      lastTrack[s] = now.slice();
      trackDirty[s] = true;
      noteTrackChange(s);
    }
  }
  wantFrame();
}
function wantFrame() {
  if (!framePending && !inFrame) { framePending = true; requestAnimationFrame(onFrame); }
}
function onFrame(ts) {
  framePending = false;
  inFrame = true;
  const began = performance.now();
  if (stepDue(began)) runStep();
  drawDirty();
  inFrame = false;
  probeFrame(ts, began);
}
function drawDirty() {
  for (let d = 0; d < 6; d++) if (dieDirty[d]) { dieDirty[d] = false; paintDie(d); }
  for (let s = 0; s < seatsShown; s++) if (trackDirty[s]) { trackDirty[s] = false; paintTrack(s); }
}

function buildScreen() {
  const root = $("#table");
  root.replaceChildren();
  seatEls = []; trackCanvases = [];
  const W = window.innerWidth, H = window.innerHeight;
  const L = layout(W, H, seatsShown);
  $("#toosmall").hidden = L.ok;
  if (!L.ok) {
    $("#toosmall").textContent = `This screen (${W} x ${H}) is too small for a table: the box needs at least 640 x 480.`;
    return;
  }
  for (let s = 0; s < seatsShown; s++) {
    const r = L.seats[s];
    const seat = document.createElement("div");
    seat.className = "seat";
    seat.dataset.station = s;
    seat.style.width = r.w + "px";
    seat.style.height = r.h + "px";
    seat.style.transform = `translate(${r.cx - r.w / 2}px, ${r.cy - r.h / 2}px) rotate(${r.rot}deg)`;
    seat.style.setProperty("--station", STATION_RGB[s]);
    const track = document.createElement("canvas");
    track.className = "track";
    track.width = Math.round(r.w * 0.62); track.height = Math.round(r.h * 0.16);
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = "P" + (s + 1);
    const top = document.createElement("div");
    top.className = "trackrow";
    top.append(name, track);
    seat.append(top);
    if (board.plates === "keys" || board.plates === "dial") {
      const keys = document.createElement("div");
      keys.className = board.plates === "dial" ? "keys dial" : "keys";
      for (let k = 0; k < 8; k++) {
        const b = document.createElement("button");
        b.className = "key";
        b.dataset.station = s; b.dataset.key = k;
        b.textContent = k === 7 ? "7+" : String(k);
        if (board.plates === "dial" && dials[s] === k) b.classList.add("set");
        keys.append(b);
      }
      seat.append(keys);
    }
    const buzz = document.createElement("button");
    buzz.className = "buzzer";
    buzz.dataset.input = s;
    buzz.textContent = "P" + (s + 1) + " buzzer";
    seat.append(buzz);
    root.append(seat);
    seatEls.push(seat);
    trackCanvases.push(track);
  }
  const D = diceBlock(L.centre);
  diceCanvas = document.createElement("canvas");
  diceCanvas.id = "dice";
  diceCanvas.width = D.w; diceCanvas.height = D.h;
  diceCanvas.dieSize = D.die; diceCanvas.gap = D.gap;
  diceCanvas.style.transform = `translate(${D.x}px, ${D.y}px)`;
  const roll = document.createElement("button");
  roll.className = "roll";
  roll.dataset.input = ROLL_BIT;
  roll.textContent = "ROLL";
  Object.assign(roll.style, { width: D.roll.w + "px", height: D.roll.h + "px",
                              transform: `translate(${D.roll.x}px, ${D.roll.y}px)` });
  Object.assign($("#info").style, { width: L.centre.w + "px", transform: `translate(${L.centre.x}px, ${L.centre.y}px)` });
  Object.assign($("#notes").style, { width: L.centre.w + "px",
    transform: `translate(${L.centre.x}px, ${D.roll.y + D.roll.h + 4}px)` });
  root.append(diceCanvas, roll);
  for (let d = 0; d < 6; d++) paintDie(d);
  for (let s = 0; s < seatsShown; s++) paintTrack(s);
}

// -- inputs -----------------------------------------------------------------
let mp = null, py = null;
const held = new Array(9).fill(0);   // fingers (and keys) on each input
const pointerInput = new Map();      // pointerId -> input bit it pressed

function input(bit, level, tUs) {
  // several fingers on one buzzer are one button: down with the first, up with the last
  held[bit] += level ? 1 : -1;
  if (held[bit] < 0) held[bit] = 0;
  if (level ? held[bit] !== 1 : held[bit] !== 0) return;
  py.push(tUs, INPUT, bit, level);
  wakeNow();
  wantFrame();
}

function plate(s, k, tUs) {
  if (board.plates === "dial") {
    if (dials[s] === k) return;       // a dial that does not move reports nothing
    dials[s] = k;
    for (const b of seatEls[s].querySelectorAll(".key")) b.classList.toggle("set", +b.dataset.key === k);
  }
  py.push(tUs, PLATE, s, k);
  wakeNow();
  wantFrame();
}

function onPointerDown(ev) {
  soundOn();
  const el = ev.target.closest("[data-input], .key");
  if (!el || !page.ready) return;
  ev.preventDefault();
  if (el.classList.contains("key")) {
    plate(+el.dataset.station, +el.dataset.key, stampUs(ev));
    return;
  }
  const bit = +el.dataset.input;
  if (pointerInput.has(ev.pointerId)) return;
  pointerInput.set(ev.pointerId, bit);
  try { el.setPointerCapture(ev.pointerId); } catch (e) { /* a synthetic pointer */ }
  if (bit < 8) notePress(bit, ev.timeStamp);
  el.classList.add("down");
  input(bit, 1, stampUs(ev));
}

function onPointerUp(ev) {
  soundOn();
  const bit = pointerInput.get(ev.pointerId);
  if (bit === undefined) return;
  pointerInput.delete(ev.pointerId);
  if (held[bit] <= 1) document.querySelectorAll(`[data-input="${bit}"]`).forEach((e) => e.classList.remove("down"));
  input(bit, 0, stampUs(ev));
}

let pending = null;                   // "p" (the gesture) or a station whose plate comes next
function later(ms, f) { setTimeout(f, ms); }
function onKey(ev) {
  if (!page.ready || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  const down = ev.type === "keydown";
  const n = seatsShown;
  const station = "12345678".slice(0, n).indexOf(k);
  if (down) soundOn();
  if (down && ev.repeat) { ev.preventDefault(); return; }
  if (pending !== null && down) {
    const p = pending;
    pending = null;
    if (p === "p" && station >= 0) {
      // ROLL held 400 ms, then the buzzer, as make sim does
      input(ROLL_BIT, 1, stampUs(ev));
      later(400, () => input(station, 1, nowUs()));
      later(440, () => input(station, 0, nowUs()));
      later(460, () => input(ROLL_BIT, 0, nowUs()));
    } else if (p !== "p" && k >= "0" && k <= "7" && k.length === 1) {
      plate(p, +k, stampUs(ev));
    }
    say(p === "p" ? "gesture: ROLL held + buzzer" : "P" + (p + 1) + " plate " + k);
    ev.preventDefault();
    return;
  }
  if (station >= 0) {
    if (down) notePress(station, ev.timeStamp);
    input(station, down ? 1 : 0, stampUs(ev));
  } else if (k === " ") {
    input(ROLL_BIT, down ? 1 : 0, stampUs(ev));
  } else if (down && (k === "l" || k === "L")) {
    input(ROLL_BIT, 1, stampUs(ev));
    later(LONG_MS, () => input(ROLL_BIT, 0, nowUs()));
    say("ROLL held 2.2 s");
  } else if (down && k === "p") {
    pending = "p";
    say("ROLL held, then which buzzer? 1-" + n);
  } else if (down && board.plates !== "cards" && PLATE_KEYS.slice(0, n).includes(k)) {
    pending = PLATE_KEYS.indexOf(k);
    say("P" + (pending + 1) + " plate: which? 0-7");
  } else {
    return;
  }
  ev.preventDefault();
}

// -- the box's loop: one step a call ---------------------------------------
// A step is due now (spinAt 0), at spinAt (a press's glitch window: waited
// for on the message loop, setTimeout rounds short waits up to 4 ms and
// more), or at timerAt (setTimeout, woken 1 ms early). The next frame's
// callback runs a step that is due (onFrame).
let timer = 0, timerAt = -1, spinAt = -1, posted = false, glitchMs = 2;
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  posted = false;
  if (spinAt < 0) return;             // run already (in a frame's callback)
  if (performance.now() < spinAt) { post(); return; }
  runStep();
};
function post() { if (!posted) { posted = true; channel.port2.postMessage(0); } }
function stepDue(now) { return (spinAt >= 0 && now >= spinAt) || (timerAt >= 0 && now >= timerAt); }
function wakeNow() {
  clearTimeout(timer); timer = 0; timerAt = -1;
  spinAt = 0;
  post();
}
function wakeIn(ms) {
  clearTimeout(timer); timer = 0; timerAt = -1;
  if (ms < 4) {
    spinAt = performance.now() + ms;
    post();
  } else {
    spinAt = -1;
    timerAt = performance.now() + ms;
    timer = setTimeout(runStep, ms - 1);
  }
}
function runStep() {
  clearTimeout(timer); timer = 0; timerAt = -1; spinAt = -1;
  const a = performance.now();
  let wait;
  try {
    wait = py.step();
  } catch (e) {
    fail(e);
    return;
  }
  const b = performance.now();
  page.steps++;
  if (page.stepMs.length < 50000) page.stepMs.push(b - a);
  if (wait >= 0) wakeIn(wait);
  // nothing due for a while: the heap collected now, not in a step that
  // handles a press (webmain.idle)
  if (wait < 0 || wait >= IDLE_MS) setTimeout(collectIdle, 0);
}
const IDLE_MS = 12;
function collectIdle() {
  if (spinAt >= 0) return;            // a press is being confirmed
  const a = performance.now();
  try { py.idle(); } catch (e) { fail(e); return; }
  if (page.idleMs.length < 50000) page.idleMs.push(performance.now() - a);
}

function fail(e) {
  page.error = String(e && e.message ? e.message : e);
  console.error("cheesebox: the box stopped: " + page.error);
  say("the box stopped: " + page.error.split("\n").slice(-2).join(" "));
}

// -- start -------------------------------------------------------------------
async function start() {
  const files = await (await fetch("files.json")).json();
  const names = files.boards;
  let boardName = params.get("board") || "tablet";
  if (!names.includes(boardName)) boardName = "tablet";
  const sel = $("#board");
  for (const n of names) sel.append(new Option(n, n, false, n === boardName));
  sel.onchange = () => { params.set("board", sel.value); params.delete("seats"); location.search = params; };
  boardSpec = await (await fetch("boards/" + boardName + ".json")).json();
  const stations = boardSpec.stations.length;
  seatsShown = stations;
  if (boardName === "tablet") {
    seatsShown = Math.max(2, Math.min(8, parseInt(params.get("seats") || "8", 10) || 8));
    const ss = $("#seats");
    ss.hidden = false;
    for (let n = 2; n <= 8; n++) ss.append(new Option(n + " seats", n, false, n === seatsShown));
    ss.onchange = () => { params.set("seats", ss.value); location.search = params; };
  }
  const { loadMicroPython } = await import("./mp/micropython.mjs");
  mp = await loadMicroPython({
    heapsize: 1024 * 1024,
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
  });
  const text = await Promise.all(files.files.map(async (f) => [f, new Uint8Array(await (await fetch("fw/" + f)).arrayBuffer())]));
  const made = new Set();
  for (const [f, data] of text) {
    const parts = ("fw/" + f).split("/");
    for (let i = 1; i < parts.length; i++) {
      const d = "/" + parts.slice(0, i).join("/");
      if (!made.has(d)) { try { mp.FS.mkdir(d); } catch (e) { /* there */ } made.add(d); }
    }
    mp.FS.writeFile("/fw/" + f, data);
  }
  mp.runPython("import sys\nsys.path[:] = ['/fw']\nimport webmain\n");
  py = mp.pyimport("webmain");
  const seed = parseInt(params.get("seed") || "0", 10) || 0;
  const dialKey = "cheesebox/" + boardName + "/dials";   // the dials stay where they were turned
  dials = (localStorage.getItem(dialKey) || "0,0,0,0,0,0,0,0").split(",").map(Number);
  window.addEventListener("pagehide", () => localStorage.setItem(dialKey, dials.join(",")));
  const host = {
    clock_us: nowUs, clock_ms: nowMs,
    paint, tone,
    log_line: (line) => { page.log.push(line); },
  };
  board = {
    dice: boardSpec.dice.map((d) => [boardSpec.chains.findIndex((c) => c.name === d.chain), d.start, d.layout]),
    tracks: boardSpec.stations.map((s) => [boardSpec.chains.findIndex((c) => c.name === s.track.chain), s.track.start]),
    trackReversed: !!boardSpec.track_reversed,
    plates: boardSpec.plates,
  };
  glitchMs = boardSpec.glitch_ms ?? Math.min(2, boardSpec.debounce_ms ?? 12);
  boardPermille = permille = Math.round((boardSpec.brightness ?? 0.2) * 1000);
  page.board = boardName; page.seats = seatsShown;
  buildScreen();
  window.addEventListener("resize", buildScreen);
  py.start(JSON.stringify(boardSpec), localStorage, host, seed, dials.join(","));
  page.ready = true;
  page.readyAt = performance.now();         // since the page was opened (its time origin)
  page.readyMs = page.readyAt - t0;
  page.clockUs = clockResolutionUs();
  document.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", onPointerUp);
  document.addEventListener("keydown", onKey);
  document.addEventListener("keyup", onKey);
  $("#download").onclick = downloadLog;
  wakeNow();
  setInterval(() => { try { page.state = py.state(); } catch (e) { /* stopped */ } }, 250);
  features();
  say(`${boardName}: ${seatsShown} seats, ready in ${Math.round(page.readyMs)} ms`);
}

function downloadLog() {
  const blob = new Blob([page.log.join("\n") + (page.log.length ? "\n" : "")], { type: "application/x-ndjson" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "cheesebox-" + page.board + "-" + new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-") + ".log";
  document.body.append(a);
  a.click();
  a.remove();
}

// -- what the browser grants: offline, wake lock, the finer clock ------------
let wakeLock = null;
async function keepAwake() {
  if (!("wakeLock" in navigator)) { page.wakeLock = "not in this browser"; return; }
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    page.wakeLock = "on";
    wakeLock.addEventListener("release", () => { page.wakeLock = "released"; });
  } catch (e) {
    page.wakeLock = "refused (" + e.name + ")";
  }
  showFeatures();
}

function showFeatures() {
  const off = [];
  if (!isSecureContext) off.push("not a secure context (https or localhost): no offline copy, no install, no wake lock");
  else if (page.offline) off.push(page.offline);
  if (!page.isolated) off.push(`clock ${page.clockUs} µs (not cross-origin isolated)`);
  if (page.wakeLock !== "on" && isSecureContext) off.push("screen may sleep: wake lock " + page.wakeLock);
  $("#features").textContent = (page.isolated ? `clock ${page.clockUs} µs · ` : "") + (off.length ? "off: " + off.join("; ") : "offline copy, install and wake lock on");
}

function features() {
  if (isSecureContext && "serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").then(
      () => { page.offline = ""; showFeatures(); },
      (e) => { page.offline = "no offline copy (" + e.message + ")"; showFeatures(); });
  } else {
    page.offline = "no offline copy";
  }
  document.addEventListener("pointerdown", () => { if (!wakeLock) keepAwake(); }, { once: true });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && wakeLock && wakeLock.released) keepAwake();
  });
  showFeatures();
}

start().catch(fail);
