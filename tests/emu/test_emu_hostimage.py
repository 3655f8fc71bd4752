"""The box's flash built on the host (host_tools/deploy/fsimage.py): the
official firmware mounts its LittleFS unchanged, the two agree on the
geometry, and the one-file UF2 of `make uf2` boots to the joining screen, on
both chips: the Pico's 1408 KiB from 0xA0000 of its 2 MiB flash, the Pico 2's
3 MiB from 0x100000 of its 4 MiB."""
import hashlib
import os
import struct
import subprocess

import pytest

from emu.pico import EmulatedPico, chip_of, locate
from emu.table import EmuTable
from host_tools.deploy import fsimage

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LIST = """import os, hashlib, binascii
def walk(d):
    for n, t, *_ in os.ilistdir(d):
        p = d + '/' + n if d else n
        if t & 0x4000:
            walk(p)
        else:
            h = hashlib.sha256()
            with open(p, 'rb') as f:
                h.update(f.read())
            print('F', p, binascii.hexlify(h.digest()).decode())
s = os.statvfs('/')
print('V', s[0], s[2], s[9])
walk('')
"""

# each chip's own figures: its filesystem's 4 KiB blocks, its UF2 family id,
# and its name in the file a test writes
CHIP = {"pico-4p": {"blocks": 352, "family": 0xE48BFF56, "name": "Pico"},
        "pico2-8p": {"blocks": 768, "family": 0xE48BFF59, "name": "Pico 2"}}
BOARDS = sorted(CHIP)


@pytest.mark.parametrize("board", BOARDS)
def test_firmware_mounts_the_host_image_unchanged_and_boots(image, board, tmp_path):
    """Boot to the joining screen without one flash write (a failed mount
    would reformat: erases at the filesystem's offset), then the firmware's
    own os module lists the same files, same sha256, as `make flash --dry-run`
    lays out."""
    geo = fsimage.GEOMETRY[chip_of(board)]
    img = image(board)
    assert os.path.getsize(img) == geo.flash_size and "host image" in open(img + ".log").read()
    with EmuTable(board, flash=img) as t:
        assert t.boot(3000)["board"] == board
        t.run(300)
        assert t.pico.flash_log()[0] == 0
        out, err = t.exec_raw(LIST)
    assert not err, err
    # 4096-byte blocks (1408 KiB or 3 MiB of them), names up to 255 bytes
    assert "V 4096 %d 255" % CHIP[board]["blocks"] in out, out
    got = {ln.split()[1]: ln.split()[2] for ln in out.split("\n") if ln.startswith("F ")}
    tree = tmp_path / "tree"
    assert fsimage.deploy_tree(board, tree) == chip_of(board)
    want = {p.relative_to(tree).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in tree.rglob("*") if p.is_file()}
    assert got == want


@pytest.mark.parametrize("board", BOARDS)
def test_the_firmware_formats_its_flash_with_the_same_geometry(board, tmp_path):
    """The other way round: a chip with nothing but MicroPython formats its
    filesystem at first boot; littlefs-python, configured as fsimage.py is for
    that chip, finds that superblock at the filesystem's offset and reads a
    file the firmware wrote."""
    from littlefs import LittleFS, UserContext
    chip = chip_of(board)
    geo = fsimage.GEOMETRY[chip]
    said = "from the %s" % CHIP[board]["name"]
    (tmp_path / "empty").mkdir()
    with EmulatedPico(chip=chip) as p:
        p.run(300)
        n, ops = p.flash_log()
        assert ops and min(o[2] for o in ops) == geo.fs_offset, ops[:3]
        p.send("\r\x03\x03\x01")
        p.wait_for("raw REPL; CTRL-B to exit\r\n>")
        p.send("with open('hello.txt', 'w') as f: f.write('%s')\r\n\x04" % said)
        p.wait_for("\x04>")
        path = str(tmp_path / "flash.img")
        p.save_flash(path)
    flash = open(path, "rb").read()
    assert len(flash) == geo.flash_size
    ctx = UserContext(geo.fs_size)
    ctx.buffer[:] = flash[geo.fs_offset:]
    fs = LittleFS(context=ctx, mount=False, **geo.lfs_config)
    fs.mount()
    # the superblock the firmware writes is the one fsimage.py writes, field by field
    # (littlefs on-disk version 2.1 both)
    ours = LittleFS(context=UserContext(geo.fs_size), mount=False, **geo.lfs_config)
    ours.context.buffer[:] = fsimage.littlefs_image(tmp_path / "empty", chip)
    ours.mount()
    fields = ("block_size", "block_count", "name_max", "file_max", "attr_max", "disk_version")
    st, st_ours = fs.fs_stat(), ours.fs_stat()
    assert [getattr(st, f) for f in fields] == [getattr(st_ours, f) for f in fields]
    assert (st.block_size, st.block_count, st.name_max, st.disk_version) == (
        4096, CHIP[board]["blocks"], 255, 0x20001)
    with fs.open("hello.txt", "r") as f:
        assert f.read() == said


@pytest.mark.parametrize("board", BOARDS)
def test_make_uf2_boots_on_the_emulated_chip(board, tmp_path):
    """`make uf2`: one UF2 file (the chip's family, 256-byte payloads) with
    the firmware and the box's files; the emulated chip, flashed from it as
    the boot ROM would, boots to the joining screen."""
    geo = fsimage.GEOMETRY[chip_of(board)]
    out = tmp_path / "box.uf2"
    p = subprocess.run(["make", "--no-print-directory", "uf2", "BOARD=%s" % board, "UF2=%s" % out],
                       cwd=REPO, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "BOOTSEL" in p.stdout and CHIP[board]["name"] in p.stdout
    assert "at 0x%08x" % (0x10000000 + geo.fs_offset) in p.stdout, p.stdout
    data = out.read_bytes()
    assert len(data) % 512 == 0
    blocks = [struct.unpack_from("<8I", data, o) + struct.unpack_from("<I", data, o + 508)
              for o in range(0, len(data), 512)]
    assert all(b[0] == 0x0A324655 and b[1] == 0x9E5D5157 and b[8] == 0x0AB16F30 for b in blocks)
    assert all(b[2] == 0x2000 and b[4] == 256 and b[7] == CHIP[board]["family"] for b in blocks)
    assert [b[5] for b in blocks] == list(range(len(blocks))) and {b[6] for b in blocks} == {len(blocks)}
    addrs = [b[3] for b in blocks]
    assert addrs[0] == 0x10000000 and 0x10000000 + geo.fs_offset in addrs
    assert max(addrs) == 0x10000000 + geo.flash_size - 256
    locate(chip_of(board))
    with EmuTable(board, flash=str(out)) as t:
        boot = t.boot(3000)
        assert boot["board"] == board and boot["resume"] is False
        t.run(300)
        assert not any(t.last_frame(0)) and not any(t.last_frame(1))     # joining: all dark
        t.press(0)
        t.run(50)
        assert t.kinds()[-1] == "join"
