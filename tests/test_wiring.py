"""host_tools/builder/wiring.py: every board file loads, its diagram is well-formed and
complete, and the committed boards/NAME.svg (and the pin table in NAME.md)
are what the generator makes today, so nobody edits them by hand.

If this fails after a board file changed: python host_tools/builder/wiring.py --all
"""
import importlib.util
import os

from cheesebox.board import BoardError
import re
import xml.etree.ElementTree as ET

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = os.path.join(REPO, "boards")
NAMES = sorted(f[:-5] for f in os.listdir(BOARDS) if f.endswith(".json"))

_spec = importlib.util.spec_from_file_location("cheesebox_wiring",
                                               os.path.join(REPO, "host_tools", "builder", "wiring.py"))
wiring = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(wiring)

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def rendered():
    out = {}
    for name in NAMES:
        board, spec = wiring.load(os.path.join(BOARDS, name + ".json"))
        out[name] = (board, spec, wiring.render_svg(board, spec))
    return out


def test_boards_exist():
    assert {"pico-4p", "pico-8p", "pico2-8p"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_board_loads_and_fits_the_header(name):
    board, _ = wiring.load(os.path.join(BOARDS, name + ".json"))   # BoardError/WiringError if not
    assert board.name == name, "the board's name must match its file name"
    assert wiring.header_problems(board) == []


@pytest.mark.parametrize("name", NAMES)
def test_svg_is_well_formed_and_complete(name, rendered):
    board, _, svg = rendered[name]
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == SVG_NS + "svg"
    text = " ".join(t.text or "" for t in root.iter(SVG_NS + "text"))
    assert board.name in text
    for g in wiring.used_gpios(board):
        assert re.search(r"\bGP%d\b" % g, text), "GP%d is not in the diagram" % g
    for i in range(board.stations):
        assert "Station %d" % (i + 1) in text
    for c in board.chains:
        assert "Chain '%s'" % c.name in text
    assert "ROLL" in text and "330 Ω" in text and "74AHCT125" in text
    # a bulk capacitor only on a board with its own supply: USB allows 10 uF at plug-in
    assert ("10 µF (USB: no more)" if name == "pico-4p" else "1000 µF") in text
    assert ("74HC165" in text) == (board.plates == "keys")
    assert ("CD4051" in text) == (board.plates == "dial")


@pytest.mark.parametrize("name", NAMES)
def test_committed_svg_is_generated(name, rendered):
    _, _, svg = rendered[name]
    path = os.path.join(BOARDS, name + ".svg")
    assert os.path.exists(path), "boards/%s.svg is missing: run python host_tools/builder/wiring.py --all" % name
    with open(path, encoding="utf-8") as f:
        assert f.read() == svg, "boards/%s.svg is stale: run python host_tools/builder/wiring.py --all" % name


def test_generate_all_matches_the_repo(tmp_path):
    # what `wiring.py --all` would write, made in a temp dir and compared with boards/
    written = wiring.generate_all(BOARDS, tmp_path)
    assert {p.name for p in written} >= {n + ".svg" for n in NAMES}
    for p in written:
        with open(os.path.join(BOARDS, p.name), encoding="utf-8") as f:
            assert f.read() == p.read_text(encoding="utf-8"), \
                "boards/%s is stale: run python host_tools/builder/wiring.py --all" % p.name


@pytest.mark.parametrize("name", NAMES)
def test_md_has_current_pin_table_and_diagram(name):
    path = os.path.join(BOARDS, name + ".md")
    assert os.path.exists(path), "boards/%s.md (wiring notes) is missing" % name
    with open(path, encoding="utf-8") as f:
        md = f.read()
    board, _ = wiring.load(os.path.join(BOARDS, name + ".json"))
    assert wiring.with_table(md, wiring.pin_table(board)) == md, \
        "boards/%s.md: pin table is stale: run python host_tools/builder/wiring.py --all" % name
    assert "(%s.svg)" % name in md


def test_header_checks():
    """The firmware's own board check refuses pins a Pico cannot offer."""
    board, spec = wiring.load(os.path.join(BOARDS, "pico2-8p.json"))
    for bad, field in ((dict(spec, answers=dict(spec["answers"], adc=22)), "answers.adc"),
                       (dict(spec, piezo=25), "piezo")):
        try:
            wiring.load_board(bad, "x.json")
        except BoardError as e:
            assert "x.json" in str(e) and field in str(e)
        else:
            raise AssertionError("accepted %s" % field)


def test_pin_table_lists_each_used_pin_once():
    board, _ = wiring.load(os.path.join(BOARDS, "pico-8p.json"))
    table = wiring.pin_table(board)
    for g in wiring.used_gpios(board):
        assert len(re.findall(r"\| GP%d \|" % g, table)) == 1
    assert "| 39 | VSYS |" in table and "| 38 | GND |" in table


@pytest.mark.parametrize("name", NAMES)
def test_md_has_the_current_generated_parts_list(name):
    with open(os.path.join(BOARDS, name + ".md"), encoding="utf-8") as f:
        md = f.read()
    board, _ = wiring.load(os.path.join(BOARDS, name + ".json"))
    assert wiring.PARTS_BEGIN in md, "boards/%s.md: no generated parts list" % name
    assert wiring.with_tables(md, board) == md, \
        "boards/%s.md: parts list is stale: run python host_tools/builder/wiring.py --all" % name


def _parts(name):
    board, _ = wiring.load(os.path.join(BOARDS, name + ".json"))
    return board, {part: q for q, part, _ in wiring.part_rows(board)}


@pytest.mark.parametrize("name", NAMES)
def test_every_button_is_protected_and_the_piezo_is_driven_from_5_v(name):
    """Defects 6 and 8: series resistor + capacitor + TVS on each button (RC <= 1 us),
    and a transistor so the piezo swings 5 V."""
    board, parts = _parts(name)
    buttons = board.stations + 1
    assert parts["100 Ω resistor"] >= buttons
    assert parts["10 nF ceramic (X7R)"] == buttons
    assert 100 * 10e-9 <= 1e-6
    assert any(p.startswith("TVS diode") and q == buttons for p, q in parts.items())
    assert any(p.startswith("NPN transistor") for p in parts)
    table = wiring.pin_table(board)
    assert "NPN" in table and "driven directly" not in table


def test_eight_answer_key_stations_get_a_schmitt_buffer_each_and_a_grounded_ribbon():
    board, parts = _parts("pico-8p")
    assert any("Schmitt" in p and q == board.stations for p, q in parts.items())
    assert any(p.startswith("ribbon cable") and "GND, CLK, GND, SH/LD" in p for p in parts)
    table = wiring.pin_table(board)
    assert table.count("33 Ω, then") == 2


def test_every_dial_has_its_own_ladder():
    """One shared ladder (the wiring first drawn) let a dial between two contacts move the others."""
    board, parts = _parts("pico2-8p")
    assert parts["2 kΩ resistor, 1 %"] == 7 * board.stations
    assert parts["1 kΩ resistor, 1 %"] == 2 * board.stations
    with open(os.path.join(BOARDS, "pico2-8p.svg"), encoding="utf-8") as f:
        svg = f.read()
    assert "One ladder" in svg and "one, shared" not in svg


def test_the_usb_board_ships_for_a_charger_and_says_what_a_pc_port_gives():
    board, parts = _parts("pico-4p")
    assert board.max_ma == 1500 and not wiring.external_supply(board)
    with open(os.path.join(BOARDS, "pico-4p.md"), encoding="utf-8") as f:
        md = f.read()
    assert "250 mA" in md and '"max_ma": 500' in md and "only slightly dimmed" not in md
    with open(os.path.join(BOARDS, "pico-8p.md"), encoding="utf-8") as f:
        assert "capped at 97" not in f.read()
