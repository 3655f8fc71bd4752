// Where everything goes on the screen: the seats round its edges, the dice in
// the middle (one orientation), ROLL below them. Pure: sizes in, rectangles out.
//
// A seat is drawn in its own frame, upright for the player sitting at that
// edge (the top row is turned 180 degrees, the sides 90), and placed by its
// centre and rotation. Every seat has the same size, so no player gets the
// small one.

export const MIN_W = 640;      // below this the page says it is too small
export const MIN_H = 480;

// seats per edge, clockwise from the bottom-left: [bottom, right, top, left]
export function edges(n) {
  if (n <= 2) return [1, 0, 1, 0];
  if (n === 3) return [2, 0, 1, 0];
  if (n === 4) return [2, 0, 2, 0];
  if (n === 5) return [3, 0, 2, 0];
  if (n === 6) return [3, 0, 3, 0];
  if (n === 7) return [3, 1, 2, 1];
  return [3, 1, 3, 1];
}

// w, h: the viewport in CSS pixels; n: seats shown. Returns
// {ok, seats: [{cx, cy, w, h, rot}], centre: {x, y, w, h}} (seat i is station i),
// or ok false when the screen is too small for a table.
export function layout(w, h, n) {
  if (w < MIN_W || h < MIN_H) return { ok: false, seats: [], centre: null };
  const [nb, nr, nt, nl] = edges(n);
  const side = nr + nl > 0;
  // seat depth (towards the middle): the buzzer, the keys and the track
  const depth = Math.round(Math.min(h * 0.26, 220));
  const margin = 6;
  const sideW = side ? depth : 0;
  const rowW = w - 2 * sideW - 2 * margin;
  const seatW = Math.floor(Math.min(rowW / Math.max(nb, nt), 460)) - margin;
  const seats = [];
  const row = (count, y, rot, reverse) => {
    const span = count * (seatW + margin) - margin;
    const x0 = (w - span) / 2;
    for (let i = 0; i < count; i++) {
      const k = reverse ? count - 1 - i : i;
      seats.push({ cx: x0 + k * (seatW + margin) + seatW / 2, cy: y, w: seatW, h: depth, rot });
    }
  };
  // clockwise round the table, starting bottom-left: bottom left to right,
  // right side, top right to left, left side
  row(nb, h - margin - depth / 2, 0, false);
  const midH = h - 2 * (depth + margin) - 2 * margin;
  const sideLen = Math.min(midH, 460);
  if (nr) seats.push({ cx: w - margin - depth / 2, cy: h / 2, w: sideLen, h: depth, rot: -90 });
  row(nt, margin + depth / 2, 180, true);
  if (nl) seats.push({ cx: margin + depth / 2, cy: h / 2, w: sideLen, h: depth, rot: 90 });
  const cx0 = sideW + 2 * margin;
  const cy0 = depth + 2 * margin;
  const centre = { x: cx0, y: cy0, w: w - 2 * cx0, h: h - 2 * cy0 };
  return { ok: true, seats, centre };
}

// The dice in the middle: a 3 x 2 block with a ROLL button under it, as large
// as the centre allows. Returns {die: size, gap, x, y, roll: {x, y, w, h}}.
export function diceBlock(centre) {
  const rollH = Math.max(44, Math.min(70, centre.h * 0.16));
  const gap = 10;
  const avail = centre.h - rollH - 3 * gap - 24 - 34;    // the status line above, the notes below
  const die = Math.floor(Math.max(40, Math.min((centre.w - 4 * gap) / 3, (avail - gap) / 2)));
  const bw = 3 * die + 2 * gap;
  const x = centre.x + (centre.w - bw) / 2;
  const y = centre.y + 24;
  return { die, gap, x, y, w: bw, h: 2 * die + gap,
           roll: { x: centre.x + (centre.w - Math.min(bw, 360)) / 2, y: y + 2 * die + 2 * gap,
                   w: Math.min(bw, 360), h: rollH } };
}
