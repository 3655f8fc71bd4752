"""host_tools/deploy/fsimage.py on the host alone (the emulated firmware mounting
its images is tests/emu/test_emu_hostimage.py)."""
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools.deploy import fsimage

REPO = Path(__file__).resolve().parent.parent


def test_the_image_holds_exactly_what_make_flash_lays_out(tmp_path):
    from littlefs import LittleFS, UserContext
    tree = tmp_path / "tree"
    fsimage.deploy_tree("pico-8p", tree)
    want = {p.relative_to(tree).as_posix(): p.read_bytes() for p in tree.rglob("*") if p.is_file()}
    assert "main.py" in want and "board.json" in want and "cheesonomics/cards.json" in want
    assert not [p for p in want if p.endswith(".py") and "/" in p]          # packages as .mpy
    ctx = UserContext(fsimage.FS_SIZE)
    ctx.buffer[:] = fsimage.littlefs_image(tree)
    fs = LittleFS(context=ctx, mount=False, **fsimage.LFS_CONFIG)
    fs.mount()
    got = {}
    for d, _, names in fs.walk("/"):
        for n in names:
            p = (d.rstrip("/") + "/" + n).lstrip("/")
            with fs.open(p, "rb") as f:
                got[p] = f.read()
    assert got == want


def test_the_pico_2_image_has_the_rp2350_geometry(tmp_path):
    """pico2-8p: 768 blocks of 4 KiB (3 MiB) at 0x100000 of a 4 MiB flash,
    the same files as make flash; its UF2 is of family rp2350-arm-s."""
    from littlefs import LittleFS, UserContext
    geo = fsimage.GEOMETRY["rp2350"]
    assert (geo.flash_size, geo.fs_size, geo.fs_offset) == (4 << 20, 3 << 20, 0x100000)
    assert geo.lfs_config["block_count"] == 768 and geo.family == 0xE48BFF59
    chip, fs_data = fsimage.board_filesystem("pico2-8p")
    assert chip == "rp2350" and len(fs_data) == geo.fs_size
    ctx = UserContext(geo.fs_size)
    ctx.buffer[:] = fs_data
    fs = LittleFS(context=ctx, mount=False, **geo.lfs_config)
    fs.mount()
    assert fs.fs_stat().block_count == 768 and "rp2port" in fs.listdir("/")
    fw = tmp_path / "fw.bin"
    fw.write_bytes(b"\x01" * 1000)
    img = fsimage.flash_image(str(fw), fs_data, "rp2350")
    assert len(img) == 4 << 20 and img[:1000] == b"\x01" * 1000 and img[1000:1024] == b"\xff" * 24
    assert img[geo.fs_offset:] == fs_data
    u = fsimage.uf2(str(fw), fs_data, "rp2350")
    fams = {struct.unpack_from("<I", u, o + 28)[0] for o in range(0, len(u), 512)}
    assert fams == {0xE48BFF59} and len(u) == 512 * (4 + (3 << 20) // 256)
    # a filesystem of the other chip, or an RP2040 firmware UF2 for a Pico 2, is refused
    with pytest.raises(fsimage.ImageError):
        fsimage.flash_image(str(fw), fs_data, "rp2040")
    (tmp_path / "none").mkdir()
    rp2040_uf2 = tmp_path / "pico.uf2"
    rp2040_uf2.write_bytes(fsimage.uf2(str(fw), fsimage.littlefs_image(tmp_path / "none"), "rp2040"))
    with pytest.raises(fsimage.ImageError, match="not the Pico 2"):
        fsimage.firmware_pages(str(rp2040_uf2), "rp2350")
    with pytest.raises(fsimage.ImageError, match="not the Pico"):
        fsimage.box_filesystem("pico2-8p", chip="rp2040")


def test_make_uf2_refuses_a_firmware_of_the_other_chip_and_a_missing_board(tmp_path):
    out = tmp_path / "x.uf2"
    pico_uf2 = tmp_path / "pico.uf2"
    (tmp_path / "none").mkdir()
    fw = tmp_path / "fw.bin"
    fw.write_bytes(b"\x01" * 512)
    pico_uf2.write_bytes(fsimage.uf2(str(fw), fsimage.littlefs_image(tmp_path / "none"), "rp2040"))
    for board, firmware, says in (("pico2-8p", pico_uf2, "not the Pico 2 (RP2350)'s"),
                                  ("nope", fw, "no such board file")):
        p = subprocess.run([sys.executable, str(REPO / "host_tools" / "deploy" / "fsimage.py"), "uf2", board,
                            "-o", str(out), "--firmware", str(firmware)],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 2 and says in p.stderr and "Traceback" not in p.stderr, p.stderr
        assert not out.exists()
