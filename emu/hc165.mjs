// A chain of 74HC165 parallel-in/serial-out shift registers, as wired on the
// pico-8p answer-key board: chip 0's Q7 goes to the Pico, chip i's serial
// input DS takes chip i+1's Q7. Keys pull an input low (10k pull-ups).
// PL low loads the inputs (asynchronous); a CP rising edge shifts by one, so
// the Pico reads chip 0's H (D7) first, then G..A, then chip 1's H, ...
export class Hc165Chain {
  constructor(chips, setData) {
    this.chips = chips;
    this.keys = new Uint8Array(chips);     // bit k set: key k of that station held down
    this.reg = new Uint8Array(chips);      // register contents (input levels)
    this.setData = setData;
    this.pl = 1;
    this.cp = 0;
    this.shifts = 0;
  }

  /** Input levels of chip c: D(7-k) carries key k (a held key reads 0). */
  _inputs(c) {
    let v = 0xff;
    for (let k = 0; k < 8; k++) if ((this.keys[c] >> k) & 1) v &= ~(1 << (7 - k));
    return v;
  }

  setKeys(station, mask) {
    this.keys[station] = mask & 0xff;
    if (!this.pl) this._loadNow();
  }

  _loadNow() {
    for (let c = 0; c < this.chips; c++) this.reg[c] = this._inputs(c);
    this._out();
  }

  _out() { this.setData((this.reg[0] >> 7) & 1); }

  load(lvl) {
    this.pl = lvl === 1 ? 1 : 0;
    if (!this.pl) this._loadNow();
  }

  clock(lvl) {
    const rising = lvl === 1 && this.cp === 0;
    this.cp = lvl === 1 ? 1 : 0;
    if (!rising || !this.pl) return;
    for (let c = 0; c < this.chips; c++) {
      const ds = c + 1 < this.chips ? (this.reg[c + 1] >> 7) & 1 : 1;   // last DS tied high
      this.reg[c] = ((this.reg[c] << 1) | ds) & 0xff;
    }
    this.shifts++;
    this._out();
  }
}
