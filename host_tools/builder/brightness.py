"""What brightness the LEDs really go out at, board by board and supply by
supply (the USB-powered pico-4p once sat at 19 per mille, too dim to see
the dimmer colours).

Plays a short game in the simulator (joining screen, rolls, faces, the
check), feeds every frame the box shows to the firmware's own power limit
(rp2port/pixels.py, with leds.py's rule for when to brighten again) and
prints the per mille the chains carry, weighted by time on screen:

    .venv/bin/python host_tools/builder/brightness.py [--board NAME] [--ma N ...]
"""
import argparse
import os
import sys

from cheesebox.board import read_board
from rp2port import pixels
from sim.scenario import Sim, run_script

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARDS = ("pico-4p", "pico-8p", "pico2-8p")
PHASES = ("join", "ready", "rolling", "grab", "check")
GAME = """players {n}
dice yellow
rollbutton
roll cheese1 cheese2 cheese3
wait 2000
buzz P1
buzz P2
wait 4000
rollbutton
rollbutton
roll cheese2 cheese2 cheese3
wait 2000
buzz P2
wait 4000
rollbutton
"""


class Meter:
    """The firmware's PowerLimit and leds.py's rewrite rule on the frames shown."""

    def __init__(self, board, max_ma, permille, old=False):
        self.limit = pixels.PowerLimit([c.pixels for c in board.chains], max_ma, permille)
        self.permille = permille
        self.cur = permille
        self.samples = []               # (t_us, per mille on the wire, phase)
        self.phase = "join"
        self.old = old                  # the old rule: +40 per mille to brighten

    def show(self, t_us, chain, rgb, phase=None):
        if phase is not None:
            self.phase = phase
        self.limit.frame(chain, rgb)
        allowed = self.limit.allowed()
        target = self.limit.target(allowed)
        if self.old:
            again = allowed < self.cur or target >= self.cur + 40
        else:
            again = pixels.rewrite(self.cur, allowed, target, self.permille)
        if again:
            self.cur = target
        self.samples.append((t_us, self.cur, self.phase))

    def summary(self, end_us):
        """{phase: (lowest, time-weighted mean, highest)} per mille."""
        out = {}
        for i, (t, p, ph) in enumerate(self.samples):
            nxt = self.samples[i + 1][0] if i + 1 < len(self.samples) else end_us
            lo, w, hi, acc = out.get(ph, (p, 0, p, 0))
            out[ph] = (min(lo, p), w + (nxt - t), max(hi, p), acc + p * (nxt - t))
        return dict((ph, (lo, acc // w if w else lo, hi)) for ph, (lo, w, hi, acc) in out.items())


def measure(name, max_ma, permille=None, old=False):
    board = read_board(os.path.join(REPO, "boards", name + ".json"))
    permille = permille if permille is not None else int(board.brightness * 1000)
    max_ma = max_ma if max_ma is not None else board.max_ma
    sim = Sim(board, seed=5)
    m = Meter(board, max_ma, permille, old)
    for ci in range(len(board.chains)):
        m.show(sim.port.t, ci, sim.port.rgb[ci])
    sim.port.on_show = lambda ci, rgb: m.show(sim.port.t, ci, rgb, sim.box.state_name())
    run_script(sim, GAME.format(n=min(4, board.stations)))
    sim.wait(10)
    return m.summary(sim.port.t), m.limit


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", choices=BOARDS, action="append")
    ap.add_argument("--ma", type=int, action="append", help="supply mA (default: the board's, 500, 250)")
    ap.add_argument("--permille", type=int, help="the table's brightness (default: the board's)")
    ap.add_argument("--old", action="store_true", help="brighten by the old absolute +40 step")
    args = ap.parse_args(argv)
    print("per mille on the wire (lowest / time-weighted mean / highest) in each state of a short game")
    for name in args.board or BOARDS:
        board = read_board(os.path.join(REPO, "boards", name + ".json"))
        for ma in args.ma or sorted({board.max_ma, 1500, 500, pixels.USB_DECLARED_MA}, reverse=True):
            s, limit = measure(name, ma, args.permille, args.old)
            print("%-9s %5d mA (idle %d, room %d, board %d): %s"
                  % (name, ma, limit.idle_ma, limit.room_ma, limit.permille,
                     ", ".join("%s %d/%d/%d" % ((ph,) + s[ph]) for ph in PHASES if ph in s)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
