// WS2812 (NeoPixel) frames decoded from one pin's transitions, as the first
// LED of a chain would read them: a high time over 600 ns is a 1 bit, under
// it a 0 bit; a low gap of 50 us or more latches the frame.
const ONE_NS = 600;
const LATCH_NS = 50000;

export class Ws2812Decoder {
  constructor() {
    this.frames = [];          // {start, end, bytes: Uint8Array, pixelEnds: Float64Array}
    this.maxFrames = 4000;     // oldest are dropped beyond this (dropped counts them)
    this.dropped = 0;
    this._reset();
    this.lastFall = -Infinity;
  }

  _reset() {
    this.bits = [];
    this.bitEnds = [];
    this.start = -1;
    this.riseAt = -1;
  }

  edge(t, lvl) {
    if (lvl === 1) {
      if (this.start >= 0 && t - this.lastFall >= LATCH_NS) this._close();
      if (this.start < 0) this.start = t;
      this.riseAt = t;
    } else if (lvl === 0 && this.riseAt >= 0) {
      this.bits.push(t - this.riseAt > ONE_NS ? 1 : 0);
      this.bitEnds.push(t);
      this.riseAt = -1;
      this.lastFall = t;
    }
  }

  /** Close the frame in progress if the wire has been low long enough by `now`. */
  poll(now) {
    if (this.start >= 0 && this.riseAt < 0 && now - this.lastFall >= LATCH_NS) this._close();
  }

  _close() {
    const nbytes = this.bits.length >> 3;
    const bytes = new Uint8Array(nbytes);
    for (let i = 0; i < nbytes; i++) {
      let v = 0;
      for (let b = 0; b < 8; b++) v = (v << 1) | this.bits[i * 8 + b];
      bytes[i] = v;
    }
    const npix = Math.floor(nbytes / 3);
    const pixelEnds = new Float64Array(npix);
    for (let p = 0; p < npix; p++) pixelEnds[p] = this.bitEnds[p * 24 + 23];
    this.frames.push({ start: this.start, end: this.lastFall, bytes, pixelEnds });
    if (this.frames.length > this.maxFrames) { this.frames.shift(); this.dropped++; }
    this._reset();
  }
}
