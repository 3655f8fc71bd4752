"""host_tools/fsimage.py on the host alone (the emulated firmware mounting
its images is tests/emu/test_emu_hostimage.py)."""
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
import fsimage  # noqa: E402


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


def test_make_uf2_refuses_a_pico_2_board_and_a_missing_one(tmp_path):
    out = tmp_path / "x.uf2"
    for board, says in (("pico2-8p", "RP2350"), ("nope", "no such board file")):
        p = subprocess.run([sys.executable, str(REPO / "host_tools" / "fsimage.py"), "uf2", board,
                            "-o", str(out), "--firmware", str(tmp_path / "fw.bin")],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 2 and says in p.stderr and "Traceback" not in p.stderr, p.stderr
        assert not out.exists()
