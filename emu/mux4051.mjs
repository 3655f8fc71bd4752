// The answer dials of pico2-8p as wired: a CD4051 8:1 multiplexer whose select
// inputs A/B/C come from three Pico pins and whose COM goes to an ADC pin (with
// 1 nF to ground); on channel Yn station n+1's dial, an 8-position shorting
// (make-before-break) rotary switch whose wiper picks a tap of that dial's OWN
// resistor ladder: 3V3 - 1k - T7 - 2k - T6 ... T1 - 2k - T0 - 1k - AGND, so tap k
// sits at (2k+1)/16 of 3.3 V, mid-band of the firmware's `read_u16() >> 13`.
//
// A dial being turned moves its wiper through every position in between;
// between two detents the wiper touches both contacts (it is wider than the
// gap), shorting that 2k resistor of its own ladder: only that dial reads an
// in-between voltage, the other stations' ladders are untouched. The COM node
// follows a switch of the select pins with the RC time constant of the tap's
// source resistance, the 4051's on-resistance and the 1 nF.
const LADDER_KOHM = [1, 2, 2, 2, 2, 2, 2, 2, 1];   // bottom (AGND-T0) to top (T7-3V3)
const RON_KOHM = 1.0;          // CD4051B on-resistance at VDD 3.3 V (about)
const C_COM_NF = 1;            // COM to AGND
const BRIDGE = 0.3;            // share of the travel between detents that touches both
export const STEP_MS = 1.5;    // a finger turns the dial one position in 1.5 ms by default

/** Fraction of VDD at the wiper, and the source resistance (kOhm), with the
 * wiper touching taps lo..hi (hi = lo or lo + 1: the resistor between them
 * shorted) and the ladder's resistors `shorted` (indices) shorted too. */
function tap(lo, hi, shorted = []) {
  const r = LADDER_KOHM.slice();
  if (hi > lo) r[hi] = 0;                        // R between T(lo) and T(hi)
  for (const i of shorted) r[i] = 0;
  const total = r.reduce((a, b) => a + b, 0);
  let below = 0;
  for (let i = 0; i <= lo; i++) below += r[i];
  return { v: below / total, rth: (below * (total - below)) / total };
}

class Dial {
  constructor(pos = 0) { this.from = pos; this.to = pos; this.t0 = 0; this.t1 = 0; }

  /** Wiper position (0-7, fractional while turning) at time t (ns). */
  at(t) {
    if (t >= this.t1) return this.to;
    if (t <= this.t0) return this.from;
    return this.from + (this.to - this.from) * (t - this.t0) / (this.t1 - this.t0);
  }

  turn(t, to, turnNs) {
    this.from = Math.round(this.at(t));
    this.to = to;
    this.t0 = t;
    this.t1 = t + Math.max(0, turnNs);
  }

  /** [lo, hi]: the contacts the wiper touches at time t (two while between detents). */
  contacts(t) {
    const p = this.at(t), lo = Math.floor(p), f = p - lo;
    if (f < 0.5 - BRIDGE / 2) return [lo, lo];
    if (f > 0.5 + BRIDGE / 2) return [lo + 1, lo + 1];
    return [lo, lo + 1];
  }
}

export class Mux4051 {
  /** pico: the emulated chip (watchOutput, adcSource, nanos); adc: GPIO 26-29;
   * select: [A, B, C] GPIOs; stations: dials on Y0.. (the rest: open, read 0);
   * ladder: 'per-dial' (as the reviewed hardware wires them) or 'shared' (one ladder bussed to
   * every dial, as first drawn: a dial between two positions shorts a resistor
   * of everybody's ladder, and the other dials read off). */
  constructor(pico, { adc, select, stations, ladder = 'per-dial' }) {
    if (!['per-dial', 'shared'].includes(ladder)) throw new Error(`no ladder ${ladder}`);
    this.pico = pico;
    this.shared = ladder === 'shared';
    this.dials = Array.from({ length: 8 }, () => new Dial(0));
    this.stations = stations;
    this.sel = [0, 0, 0];
    this.vFrom = 0;            // COM voltage (fraction of VDD) when the channel last switched
    this.tSwitch = 0;
    this.reads = 0;
    select.forEach((g, b) => pico.watchOutput(g, (t, lvl) => this._select(t, b, lvl === 1 ? 1 : 0)));
    pico.adcSource(adc - 26, (t) => this.sample(t));
  }

  channel() { return this.sel[0] | (this.sel[1] << 1) | (this.sel[2] << 2); }

  _target(t, ch = this.channel()) {
    if (ch >= this.stations) return { v: 0, rth: 1e6 };   // nothing on that channel
    const [lo, hi] = this.dials[ch].contacts(t);
    const shorted = [];
    if (this.shared) {
      for (let s = 0; s < this.stations; s++) {
        const [a, b] = this.dials[s].contacts(t);
        if (b > a) shorted.push(b);
      }
    }
    return tap(lo, hi, shorted);
  }

  /** COM voltage (fraction of VDD) at time t: the selected dial's, reached
   * with the RC time constant since the last switch of channel. */
  com(t) {
    const { v, rth } = this._target(t);
    const tau = (rth + RON_KOHM) * 1e3 * C_COM_NF * 1e-9 * 1e9;   // ns
    return v + (this.vFrom - v) * Math.exp(-(t - this.tSwitch) / tau);
  }

  _select(t, bit, lvl) {
    if (this.sel[bit] === lvl) return;
    const v = this.com(t);
    this.sel[bit] = lvl;
    this.vFrom = v;
    this.tSwitch = t;
  }

  /** The 12-bit ADC result of a conversion started at t. */
  sample(t) {
    this.reads++;
    return Math.max(0, Math.min(4095, Math.round(this.com(t) * 4095)));
  }

  /** Station s turns its dial to position pos over turnMs (default STEP_MS a position). */
  turn(s, pos, turnMs = null, t = this.pico.nanos) {
    const d = this.dials[s];
    const ms = turnMs ?? STEP_MS * Math.abs(pos - Math.round(d.at(t)));
    d.turn(t, pos, ms * 1e6);
  }

  positions(t = this.pico.nanos) { return this.dials.map((d) => d.at(t)); }
}
