"""host_tools/builder/wokwi.py: the Wokwi projects are the board files, wire for wire.

Every pin of each generated diagram.json is traced back to the board file:
the buttons and piezo to their GPIOs, each LED chain from its data pin
through DOUT -> DIN so that every die's matrix and every station's track
sits at the pixel index the firmware writes, the 74HC165 chain and each
answer key on the input the firmware reads. The committed projects are what
the generator makes today, and making them twice gives the same bytes.
"""
import copy
import importlib.util
import json
import os
import subprocess
import sys

import pytest

from cheesebox.board import load_board

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(REPO, "host_tools", "builder", "wokwi.py")
_spec = importlib.util.spec_from_file_location("cheesebox_wokwi", TOOL)
WK = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(WK)

NAMES = WK.PROJECT_BOARDS


def _board(name):
    with open(os.path.join(REPO, "boards", name + ".json")) as f:
        return load_board(json.load(f), name)


class Net:
    """The diagram's wires as an undirected graph of 'part:pin' endpoints."""

    def __init__(self, diagram):
        self.parts = dict((p["id"], p) for p in diagram["parts"])
        self.adj = {}
        for a, b, _colour, _route in diagram["connections"]:
            for x in (a, b):
                assert x.split(":")[0] in self.parts, "wire to a part that is not there: " + x
            self.adj.setdefault(a, set()).add(b)
            self.adj.setdefault(b, set()).add(a)

    def to(self, end):
        return self.adj.get(end, set())

    def gpio(self, end):
        """The one Pico GPIO wired to this endpoint (directly)."""
        gps = [int(x[len("pico:GP"):]) for x in self.to(end) if x.startswith("pico:GP")]
        assert len(gps) == 1, (end, self.to(end))
        return gps[0]

    def pico_gpios(self):
        return set(int(x[len("pico:GP"):]) for x in self.adj if x.startswith("pico:GP"))


@pytest.fixture(scope="module", params=NAMES)
def project(request):
    name = request.param
    with open(os.path.join(REPO, "boards", "wokwi", name, "diagram.json")) as f:
        diagram = json.load(f)
    return _board(name), diagram


def test_committed_projects_are_what_the_generator_makes():
    for name in NAMES:
        for fname, text in WK.files(_board(name)).items():
            with open(os.path.join(REPO, "boards", "wokwi", name, fname), encoding="utf-8") as f:
                assert f.read() == text, "%s/%s is stale: python host_tools/builder/wokwi.py --all" % (name, fname)
        assert WK.files(_board(name)) == WK.files(_board(name))          # deterministic


def test_buttons_and_piezo_on_the_board_pins(project):
    board, diagram = project
    net = Net(diagram)
    for s, gp in enumerate(board.buzzers):
        pid = "buzzer%d" % (s + 1)
        assert net.gpio(pid + ":1.r") == gp
        assert any(x.startswith("pico:GND") for x in net.to(pid + ":2.r"))
        assert net.parts[pid]["attrs"]["key"] == str(s + 1)               # as in make sim
    assert net.gpio("roll:1.r") == board.roll_pin and net.parts["roll"]["attrs"]["key"] == " "
    assert net.gpio("piezo:2") == board.piezo_pin


def _chain_from(net, first):
    """[(part id, first pixel, pixels)] following DOUT -> DIN from `first`."""
    out, at, pid = [], 0, first
    while pid is not None:
        part = net.parts[pid]
        if part["type"] == "wokwi-led-matrix":
            n = int(part["attrs"]["rows"]) * int(part["attrs"]["cols"])
        else:
            assert part["type"] == "wokwi-led-strip"
            n = int(part["attrs"]["pixels"])
        out.append((pid, at, n))
        at += n
        nxt = [x.split(":")[0] for x in net.to(pid + ":DOUT") if x.endswith(":DIN")]
        assert len(nxt) <= 1
        pid = nxt[0] if nxt else None
    return out


def _check_chains(board, net):
    for ci, chain in enumerate(board.chains):
        firsts = [x.split(":")[0] for x in net.to("pico:GP%d" % chain.pin) if x.endswith(":DIN")]
        assert len(firsts) == 1, chain.name
        parts = _chain_from(net, firsts[0])
        assert sum(n for _, _, n in parts) == chain.pixels, chain.name
        where = dict((pid, (at, n)) for pid, at, n in parts)
        for i, (c, start, layout) in enumerate(board.dice):
            if c == ci:
                assert where["die%d" % (i + 1)] == (start, 64)
                want = "serpentine" if layout == "serpentine" else ""
                assert net.parts["die%d" % (i + 1)]["attrs"]["layout"] == want
        for s, (c, start) in enumerate(board.tracks):
            if c == ci:
                assert where["track%d" % (s + 1)] == (start, 8)


def test_led_chains_in_the_firmware_pixel_order(project):
    board, diagram = project
    _check_chains(board, Net(diagram))


def test_answer_keys_where_the_firmware_reads_them(project):
    board, diagram = project
    net = Net(diagram)
    chips = [p for p in diagram["parts"] if p["type"] == "wokwi-74hc165"]
    if board.plates != "keys":
        assert chips == []
        return
    a = board.answers
    assert len(chips) == board.stations
    for s in range(board.stations):
        u = "u%d" % (s + 1)
        assert net.gpio(u + ":PL") == a["load"] and net.gpio(u + ":CP") == a["clock"]
        # station 1's chip feeds the Pico; each next chip feeds the one before
        if s == 0:
            assert net.gpio(u + ":Q7") == a["data"]
        else:
            assert "u%d:DS" % s in net.to(u + ":Q7")
        for k in range(8):
            key = "key%d_%d" % (s + 1, k)
            assert "%s:D%d" % (u, 7 - k) in net.to(key + ":1.l")        # firmware: bit k first = D(7-k)
            assert any(x.startswith("pico:GND") for x in net.to(key + ":2.l"))
            res = [x for x in net.to("%s:D%d" % (u, 7 - k)) if x.startswith("r")]
            assert len(res) == 1 and "pico:3V3" in net.to(res[0].split(":")[0] + ":2")   # pull-up


def test_no_pico_pin_the_board_does_not_use(project):
    board, diagram = project
    wiring = WK.wiring
    assert Net(diagram).pico_gpios() == set(wiring.used_gpios(board))


def test_a_board_with_gaps_and_another_order(tmp_path):
    """A home-made board: tracks in reverse order with unused pixels between them."""
    with open(os.path.join(REPO, "boards", "pico-4p.json")) as f:
        spec = json.load(f)
    spec = copy.deepcopy(spec)
    spec["name"] = "home-4p"
    spec["chains"][1]["pixels"] = 50
    for s, st in enumerate(spec["stations"]):
        st["track"]["start"] = 40 - 10 * s
    spec["dice"][2]["layout"] = "rows"
    path = tmp_path / "home-4p.json"
    path.write_text(json.dumps(spec))
    board = WK.load(str(path))
    diagram = WK.build(board)
    _check_chains(board, Net(diagram))
    assert any(p["id"].startswith("unused_tracks_") for p in diagram["parts"])
    q = subprocess.run([sys.executable, TOOL, str(path), "-o", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=60)
    assert q.returncode == 0, q.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["diagram.json", "wokwi.toml"]


def _run(args):
    return subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True, timeout=60)


def test_cli_check(tmp_path):
    q = _run(["--all", "--check"])
    assert q.returncode == 0, q.stdout + q.stderr
    out = tmp_path / "w"
    assert _run(["--all", "-o", str(out)]).returncode == 0
    (out / "pico-8p" / "wokwi.toml").write_text("edited by hand\n")
    q = _run(["--all", "--check", "-o", str(out)])
    assert q.returncode == 1 and "stale" in q.stdout and "pico-8p" in q.stdout


@pytest.mark.parametrize("args, says", [
    (["pico2-8p"], "rp2040"),
    (["no-such-board"], "cannot be read"),
    ([], "give a board"),
])
def test_cli_bad_board(args, says):
    q = _run(args)
    assert q.returncode == 2 and says in q.stderr and "Traceback" not in q.stderr


def test_cli_bad_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    q = _run([str(bad)])
    assert q.returncode == 2 and "not valid JSON" in q.stderr and "Traceback" not in q.stderr
    q = _run(["pico-4p", "-o", str(tmp_path / "no" / "such" / "dir")])
    assert q.returncode == 2 and "does not exist" in q.stderr and "Traceback" not in q.stderr


def test_help():
    q = _run(["--help"])
    assert q.returncode == 0 and "--all" in q.stdout and "--check" in q.stdout
