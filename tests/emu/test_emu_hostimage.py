"""The box's flash built on the host (host_tools/deploy/fsimage.py): the
official firmware mounts its LittleFS unchanged, the two agree on the
geometry, and the one-file UF2 of `make uf2` boots to the joining screen, on
both chips (the Pico 2: 3 MiB from 0x100000 of its 4 MiB flash)."""
import hashlib
import os
import struct
import subprocess

import pytest

from emu.pico import EmulatedPico, locate
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


def test_firmware_mounts_the_host_image_unchanged_and_boots(image, tmp_path):
    """Boot to the joining screen without one flash write (a failed mount
    would reformat: erases at 0xA0000), then the firmware's own os module
    lists the same files, same sha256, as `make flash --dry-run` lays out."""
    img = image("pico-4p")
    with EmuTable("pico-4p", flash=img) as t:
        assert t.boot(3000)["board"] == "pico-4p"
        t.run(300)
        assert t.pico.flash_log()[0] == 0
        out, err = t.exec_raw(LIST)
    assert not err, err
    lines = out.split("\n")
    # 4096-byte blocks, 352 of them (1408 KiB), names up to 255 bytes
    assert "V 4096 352 255" in out, out
    got = {ln.split()[1]: ln.split()[2] for ln in lines if ln.startswith("F ")}
    tree = tmp_path / "tree"
    fsimage.deploy_tree("pico-4p", tree)
    want = {p.relative_to(tree).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in tree.rglob("*") if p.is_file()}
    assert got == want


def test_the_firmware_formats_its_flash_with_the_same_geometry(tmp_path):
    """The other way round: a Pico with nothing but MicroPython formats its
    filesystem at first boot; littlefs-python, configured as fsimage.py is,
    finds that superblock at 0xA0000 and reads a file the firmware wrote."""
    from littlefs import LittleFS, UserContext
    (tmp_path / "empty").mkdir()
    with EmulatedPico() as p:
        p.run(300)
        n, ops = p.flash_log()
        assert ops and min(o[2] for o in ops) == fsimage.FS_OFFSET, ops[:3]
        p.send("\r\x03\x03\x01")
        p.wait_for("raw REPL; CTRL-B to exit\r\n>")
        p.send("with open('hello.txt', 'w') as f: f.write('from the Pico')\r\n\x04")
        p.wait_for("\x04>")
        path = str(tmp_path / "flash.img")
        p.save_flash(path)
    flash = open(path, "rb").read()
    ctx = UserContext(fsimage.FS_SIZE)
    ctx.buffer[:] = flash[fsimage.FS_OFFSET:]
    fs = LittleFS(context=ctx, mount=False, **fsimage.LFS_CONFIG)
    fs.mount()
    # the superblock the firmware writes is the one fsimage.py writes, field by field
    # (littlefs on-disk version 2.1 both)
    ours = LittleFS(context=UserContext(fsimage.FS_SIZE), mount=False, **fsimage.LFS_CONFIG)
    ours.context.buffer[:] = fsimage.littlefs_image(tmp_path / "empty")
    ours.mount()
    fields = ("block_size", "block_count", "name_max", "file_max", "attr_max", "disk_version")
    st, st_ours = fs.fs_stat(), ours.fs_stat()
    assert [getattr(st, f) for f in fields] == [getattr(st_ours, f) for f in fields]
    assert (st.block_size, st.block_count, st.name_max, st.disk_version) == (4096, 352, 255, 0x20001)
    with fs.open("hello.txt", "r") as f:
        assert f.read() == "from the Pico"


def test_make_uf2_boots_on_the_emulated_pico(tmp_path):
    """`make uf2`: one UF2 file (RP2040 family, 256-byte payloads) with the
    firmware and the box's files; the emulated Pico, flashed from it as the
    boot ROM would, boots to the joining screen."""
    out = tmp_path / "box.uf2"
    p = subprocess.run(["make", "--no-print-directory", "uf2", "BOARD=pico-4p", "UF2=%s" % out],
                       cwd=REPO, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "BOOTSEL" in p.stdout
    data = out.read_bytes()
    assert len(data) % 512 == 0
    blocks = [struct.unpack_from("<8I", data, o) + struct.unpack_from("<I", data, o + 508)
              for o in range(0, len(data), 512)]
    assert all(b[0] == 0x0A324655 and b[1] == 0x9E5D5157 and b[8] == 0x0AB16F30 for b in blocks)
    assert all(b[2] == 0x2000 and b[4] == 256 and b[7] == 0xE48BFF56 for b in blocks)
    assert [b[5] for b in blocks] == list(range(len(blocks))) and {b[6] for b in blocks} == {len(blocks)}
    addrs = [b[3] for b in blocks]
    assert addrs[0] == 0x10000000 and 0x100A0000 in addrs and max(addrs) == 0x10200000 - 256
    locate()
    with EmuTable("pico-4p", flash=str(out)) as t:
        boot = t.boot(3000)
        assert boot["board"] == "pico-4p" and boot["resume"] is False
        t.run(300)
        assert not any(t.last_frame(0)) and not any(t.last_frame(1))     # joining: all dark
        t.press(0)
        t.run(50)
        assert t.kinds()[-1] == "join"


# -- the Pico 2: its geometry, its UF2 -------------------------------------------------
GEO = fsimage.GEOMETRY["rp2350"]


@pytest.mark.rp2350
def test_the_pico2_mounts_the_host_image_unchanged_and_boots(image, tmp_path):
    """Boot to the joining screen without one flash write (a failed mount
    would reformat: erases at 0x100000), then the firmware's own os module
    lists the same files, same sha256, as `make flash --dry-run` lays out."""
    img = image("pico2-8p")
    assert os.path.getsize(img) == 4 * 1024 * 1024 and "host image" in open(img + ".log").read()
    with EmuTable("pico2-8p", flash=img) as t:
        assert t.boot(3000)["board"] == "pico2-8p"
        t.run(200)
        assert t.pico.flash_log()[0] == 0
        out, err = t.exec_raw(LIST)
    assert not err, err
    # 4096-byte blocks, 768 of them (3 MiB), names up to 255 bytes
    assert "V 4096 768 255" in out, out
    got = {ln.split()[1]: ln.split()[2] for ln in out.split("\n") if ln.startswith("F ")}
    tree = tmp_path / "tree"
    assert fsimage.deploy_tree("pico2-8p", tree) == "rp2350"
    want = {p.relative_to(tree).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in tree.rglob("*") if p.is_file()}
    assert got == want


@pytest.mark.rp2350
def test_the_pico2_formats_its_flash_with_the_same_geometry(tmp_path):
    """A Pico 2 with nothing but MicroPython formats its filesystem at first
    boot; littlefs-python, configured as fsimage.py is for the RP2350, finds
    that superblock at 0x100000 and reads a file the firmware wrote."""
    from littlefs import LittleFS, UserContext
    (tmp_path / "empty").mkdir()
    with EmulatedPico(chip="rp2350") as p:
        p.run(300)
        n, ops = p.flash_log()
        assert ops and min(o[2] for o in ops) == GEO.fs_offset == 0x100000, ops[:3]
        p.send("\r\x03\x03\x01")
        p.wait_for("raw REPL; CTRL-B to exit\r\n>")
        p.send("with open('hello.txt', 'w') as f: f.write('from the Pico 2')\r\n\x04")
        p.wait_for("\x04>")
        path = str(tmp_path / "flash.img")
        p.save_flash(path)
    flash = open(path, "rb").read()
    assert len(flash) == GEO.flash_size
    ctx = UserContext(GEO.fs_size)
    ctx.buffer[:] = flash[GEO.fs_offset:]
    fs = LittleFS(context=ctx, mount=False, **GEO.lfs_config)
    fs.mount()
    ours = LittleFS(context=UserContext(GEO.fs_size), mount=False, **GEO.lfs_config)
    ours.context.buffer[:] = fsimage.littlefs_image(tmp_path / "empty", "rp2350")
    ours.mount()
    fields = ("block_size", "block_count", "name_max", "file_max", "attr_max", "disk_version")
    st, st_ours = fs.fs_stat(), ours.fs_stat()
    assert [getattr(st, f) for f in fields] == [getattr(st_ours, f) for f in fields]
    assert (st.block_size, st.block_count, st.name_max, st.disk_version) == (4096, 768, 255, 0x20001)
    with fs.open("hello.txt", "r") as f:
        assert f.read() == "from the Pico 2"


@pytest.mark.rp2350
def test_make_uf2_for_the_pico2_boots_on_the_emulated_pico2(tmp_path):
    """`make uf2 BOARD=pico2-8p`: one UF2 (family rp2350-arm-s, 256-byte
    payloads) with the firmware and the box's files; the emulated Pico 2,
    flashed from it, boots to the joining screen."""
    out = tmp_path / "box2.uf2"
    p = subprocess.run(["make", "--no-print-directory", "uf2", "BOARD=pico2-8p", "UF2=%s" % out],
                       cwd=REPO, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "Pico 2" in p.stdout and "0x10100000" in p.stdout
    data = out.read_bytes()
    blocks = [struct.unpack_from("<8I", data, o) for o in range(0, len(data), 512)]
    assert all(b[2] == 0x2000 and b[4] == 256 and b[7] == 0xE48BFF59 for b in blocks)
    assert [b[5] for b in blocks] == list(range(len(blocks))) and {b[6] for b in blocks} == {len(blocks)}
    addrs = [b[3] for b in blocks]
    assert addrs[0] == 0x10000000 and 0x10100000 in addrs and max(addrs) == 0x10400000 - 256
    locate("rp2350")
    with EmuTable("pico2-8p", flash=str(out)) as t:
        boot = t.boot(3000)
        assert boot["board"] == "pico2-8p" and boot["resume"] is False
        t.run(200)
        assert not any(t.last_frame(0)) and not any(t.last_frame(1))     # joining: all dark
        t.press(0)
        t.run(50)
        assert t.kinds()[-1] == "join"
